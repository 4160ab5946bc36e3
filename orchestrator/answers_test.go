package orchestrator

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

func TestReaskTokens(t *testing.T) {
	for _, tc := range []struct{ limit, want int }{
		{100, 1124}, {4000, 8000}, {16000, 32000}, {20000, 32000},
	} {
		if got := reaskTokens(tc.limit); got != tc.want {
			t.Errorf("reaskTokens(%d) = %d, want %d", tc.limit, got, tc.want)
		}
	}
}

// TestJudgeCutAnswer: a judge answer cut at the token limit is asked again
// once, with a larger limit, from the same model; the larger answer is used,
// or the cut one when asking again fails.
func TestJudgeCutAnswer(t *testing.T) {
	agree := agreeAnswer()
	cut := func(text string) func() (providers.Response, error) {
		return func() (providers.Response, error) { return providers.Response{Text: text, FinishReason: "length"}, nil }
	}
	whole := func() (providers.Response, error) { return providers.Response{Text: agree, FinishReason: "stop"}, nil }
	fail := func(k providers.Class) func() (providers.Response, error) {
		return func() (providers.Response, error) {
			return providers.Response{}, &providers.Error{Class: k, Err: errors.New(k.String())}
		}
	}
	for _, tc := range []struct {
		name    string
		answers []func() (providers.Response, error) // the judge's, in order; the last repeats
		status  tree.Status
		limits  []int // max tokens of the judge's calls (0: the configured default)
	}{
		{"cut, then whole", []func() (providers.Response, error){cut("```json\n{\"consen"), whole}, tree.Converged, []int{0, 8000}},
		{"cut before any answer, then whole", []func() (providers.Response, error){fail(providers.ClassCut), whole}, tree.Converged, []int{0, 8000}},
		{"cut after a whole judgment, asking again fails", []func() (providers.Response, error){cut(agree + "\nAnd one more th"), fail(providers.ClassBadRequest)}, tree.Converged, []int{0, 8000}},
		// Cut twice: the second cut answer goes to repair, whose answer is cut
		// and asked again once more. Never a third limit.
		{"always cut", []func() (providers.Response, error){cut("```json\n{")}, tree.Failed, []int{0, 8000, 0, 8000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var limits []int
			n := 0
			c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
				if r.Participant != "judge" {
					return providers.Response{Text: "A position.", FinishReason: "stop"}, nil
				}
				mu.Lock()
				defer mu.Unlock()
				limit := 0
				if r.MaxTokens != nil {
					limit = *r.MaxTokens
				}
				limits = append(limits, limit)
				if r.Model != "model-j" {
					t.Errorf("the judge was asked with model %q, want model-j", r.Model)
				}
				a := tc.answers[min(n, len(tc.answers)-1)]
				n++
				return a()
			})
			run, err := english(testConfig(1, "t1"), c, promptSet(t), Options{}).Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			root := run.Topics[0].Root
			if root.Status != tc.status || !slices.Equal(limits, tc.limits) {
				t.Errorf("root %s (%s) after judge limits %v; want %s after %v", root.Status, root.StopReason, limits, tc.status, tc.limits)
			}
			if len(root.Warnings) != 0 {
				t.Errorf("a judge's cut answer is asked again, not marked: %+v", root.Warnings)
			}
		})
	}
}

// TestDebaterCutAnswerKeptAndMarked: a debater's cut answer is its position,
// with a warning; reasoning is kept beside each answer, never in it.
func TestDebaterCutAnswerKeptAndMarked(t *testing.T) {
	c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		switch {
		case r.Participant == "judge":
			return providers.Response{Text: agreeAnswer(), Reasoning: "judge's thoughts", FinishReason: "stop"}, nil
		case r.Participant == "party-b" && r.Origin.Step == string(tree.StepRebuttal):
			return providers.Response{Text: "B's rebuttal stops mid", FinishReason: "length"}, nil
		}
		return providers.Response{Text: "Position of " + r.Participant, Reasoning: "why " + r.Participant, FinishReason: "stop"}, nil
	})
	run, err := english(testConfig(1, "t1"), c, promptSet(t), Options{}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	root := run.Topics[0].Root
	if root.Rebuttals["party-b"] != "B's rebuttal stops mid" {
		t.Errorf("b's cut rebuttal %q, want it kept", root.Rebuttals["party-b"])
	}
	if w := root.Warnings; len(w) != 1 || w[0].Participant != "party-b" || w[0].Step != tree.StepRebuttal || !strings.Contains(w[0].Message, "cut at the token limit") ||
		len(w[0].Because) != 1 || w[0].Because[0].Code != tree.CutIncomplete {
		t.Errorf("warnings %+v, want one for party-b's rebuttal", w)
	}
	var got []string
	for _, r := range root.Reasoning {
		got = append(got, r.Participant+" "+string(r.Step)+": "+r.Text)
	}
	want := []string{"party-a position: why party-a", "party-b position: why party-b", "party-c position: why party-c",
		"party-a rebuttal: why party-a", "party-c rebuttal: why party-c", "judge judge: judge's thoughts"}
	if !slices.Equal(got, want) {
		t.Errorf("reasoning %q, want %q", got, want)
	}
}

// TestFinishReasonKept: an answer that ended with a reason other than stop
// or length is a finished answer, and its reason is kept in the node.
func TestFinishReasonKept(t *testing.T) {
	c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		switch r.Participant {
		case "judge":
			return providers.Response{Text: agreeAnswer(), FinishReason: "stop"}, nil
		case "party-b":
			return providers.Response{Text: "Position of b", FinishReason: "eos"}, nil
		}
		return providers.Response{Text: "Position of " + r.Participant, FinishReason: "stop"}, nil
	})
	run, err := english(testConfig(1, "t1"), c, promptSet(t), Options{}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	root := run.Topics[0].Root
	want := []tree.Finish{{Participant: "party-b", Step: tree.StepPosition, Reason: "eos"}, {Participant: "party-b", Step: tree.StepRebuttal, Reason: "eos"}}
	if root.Positions["party-b"] != "Position of b" || !slices.Equal(root.Finishes, want) || len(root.Warnings) != 0 {
		t.Errorf("position %q, finishes %+v, warnings %+v; want the answer kept and its reason %+v", root.Positions["party-b"], root.Finishes, root.Warnings, want)
	}
}

// TestSynthesisCutAnswer: the judge's conclusion of a topic, cut at the
// token limit, is asked again once with a larger limit, like its judgments.
func TestSynthesisCutAnswer(t *testing.T) {
	c := completer(func(ctx context.Context, r providers.Request) (providers.Response, error) {
		switch {
		case r.Origin.Step == string(tree.StepSynthesis) && r.MaxTokens == nil:
			return providers.Response{Text: "The conclusion st", FinishReason: "length"}, nil
		case r.Origin.Step == string(tree.StepSynthesis):
			return providers.Response{Text: "The whole conclusion.", FinishReason: "stop"}, nil
		case r.Participant == "judge":
			return providers.Response{Text: agreeAnswer(), FinishReason: "stop"}, nil
		}
		return providers.Response{Text: "A position.", FinishReason: "stop"}, nil
	})
	cfg := testConfig(1, "t1")
	on := true
	cfg.Params.Synthesis = &on
	run, err := english(cfg, c, promptSet(t), Options{}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Topics[0].Synthesis; got != "The whole conclusion." {
		t.Errorf("synthesis %q, want the answer asked again with a larger limit", got)
	}
}

// BenchmarkParseJudgment reads a judge's answer of about 60 kB: prose with
// stray braces, ten draft fences, then the final one.
func BenchmarkParseJudgment(b *testing.B) {
	var s strings.Builder
	for i := range 10 {
		s.WriteString(strings.Repeat("The parties {mostly} agree; see {x | x > 1}. ", 100))
		s.WriteString("Draft " + string(rune('0'+i)) + ":\n```json\n{\"consensus\":[],\"divergences\":[],}\n```\n")
	}
	s.WriteString("Final:\n" + fence(map[string]any{"consensus": []map[string]string{{"point": "p", "detail": "d"}}, "divergences": []any{}}))
	answer := s.String()
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		if _, err := unpack(parseJudgment(answer, nil, false, parties)); err != nil {
			b.Fatal(err)
		}
	}
}
