package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/debatehq/debate/tree"
)

// maxDecisionTokens is what a decision may cost an agent's context.
const maxDecisionTokens = 10_000

// wordOrMark matches what tokens() counts: a run of letters or digits, or
// one other visible character.
var wordOrMark = regexp.MustCompile(`[\p{L}\p{N}]+|[^\s\p{L}\p{N}]`)

// tokens counts the tokens of text as a model's tokenizer would at the
// most: every punctuation mark one token, every word one token per four
// characters begun. Real tokenizers merge more, so this is a ceiling.
func tokens(text string) int {
	n := 0
	for _, w := range wordOrMark.FindAllString(text, -1) {
		n += (utf8.RuneCountInString(w) + 3) / 4
	}
	return n
}

// wordy returns a sentence of about n characters.
func wordy(n int, seed string) string {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, "%s considered the invalidation trade-off under load; ", seed)
	}
	return b.String()[:n]
}

// bigRun returns a run of n topics, each with long titles, eight verdicts
// given and four disputes left open.
func bigRun(n int) *tree.Run {
	run := &tree.Run{}
	for i := range n {
		j := &tree.Judgment{Consensus: []tree.Consensus{{Point: wordy(200, "consensus")}}}
		for k := range 12 {
			id := fmt.Sprintf("d%d", k+1)
			j.Divergences = append(j.Divergences, tree.Divergence{ID: id, Title: wordy(300, "divergence "+id)})
			j.ForcedVerdicts = append(j.ForcedVerdicts, tree.Verdict{DivergenceID: id, Recommendation: wordy(800, "verdict"),
				Reasoning: wordy(2000, "reasoning"), Missing: k >= 8})
		}
		t := tree.Topic{ID: fmt.Sprintf("topic-%02d", i+1), Title: wordy(400, "topic"), Status: tree.Forced,
			Root: &tree.Node{ID: "root", Status: tree.Forced, Judgment: j}}
		t.Settle()
		run.Topics = append(run.Topics, t)
	}
	return run
}

// TestDecisionStaysSmall: whatever the number of topics, the decision an
// agent reads stays under 10,000 tokens, and keeps every topic while that
// is possible.
func TestDecisionStaysSmall(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		topics  int
		allKept bool
	}{{1, true}, {40, true}, {400, false}} {
		t.Run(fmt.Sprint(c.topics), func(t *testing.T) {
			t.Parallel()
			d := decide("r1", Status{State: Finished, Folder: "/out"}, bigRun(c.topics), []tree.Outcome{tree.Undecided})
			b, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d topics: %d tokens at most, %d bytes, %d topics left out", c.topics, tokens(string(b)), len(b), d.Omitted)
			if n := tokens(string(b)); n >= maxDecisionTokens {
				t.Errorf("%d topics: the decision is %d tokens (%d bytes), want under %d", c.topics, n, len(b), maxDecisionTokens)
			}
			if kept := len(d.Topics) + d.Omitted; kept != c.topics {
				t.Errorf("%d topics: %d shown and %d counted as omitted", c.topics, len(d.Topics), d.Omitted)
			}
			if c.allKept && d.Omitted != 0 {
				t.Errorf("%d topics: %d left out", c.topics, d.Omitted)
			}
			if d.Gate.Pass || d.Gate.FailedCount != c.topics || len(d.Gate.Failed) != min(c.topics, maxGateIDs) || d.Counts["undecided"] != c.topics {
				t.Errorf("%d topics: gate %+v, counts %v; every topic has a missing verdict and should fail the gate", c.topics, d.Gate, d.Counts)
			}
			first := d.Topics[0]
			if first.Verdicts.Given != 8 || first.Verdicts.Missing != 4 || first.Report == "" {
				t.Errorf("%d topics: the first topic reads %+v", c.topics, first)
			}
			if c.topics == 1 && (len(first.Given) == 0 || len(first.Disputed) == 0 || first.More == 0) {
				t.Errorf("one topic: %d verdicts, %d disputes shown and %d more; want some of each", len(first.Given), len(first.Disputed), first.More)
			}
		})
	}
}

// TestFortyTopicRunDecision: the decision of a real run of 40 topics (the
// demo's scripted debates) stays under 10,000 tokens with every topic in
// it.
func TestFortyTopicRunDecision(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a 40-topic demo run takes about 20 s")
	}
	dir := t.TempDir()
	var topics []string
	for i := range 40 {
		topics = append(topics, fmt.Sprintf(`{"id": "t%02d", "title": "Should cache %d be invalidated by price events or by a short TTL?"}`, i+1, i+1))
	}
	cfg := `{"api": {"baseURL": "https://api.openai.com/v1", "apiKey": "sk-test"},
  "debaters": [{"id": "a", "model": "gpt-5.2"}, {"id": "b", "model": "claude-sonnet-4-6"}],
  "reviewer": {"id": "r", "model": "gpt-5.2"}, "topics": [` + strings.Join(topics, ",") + `], "output": {"dir": "out"}}`
	path := filepath.Join(dir, "forty.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := NewRuns(RunsOptions{Folders: []string{dir}})
	defer rs.Close()
	st, err := rs.Begin(Start{Config: path, Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	for st.State == Running {
		if st, err = rs.Status(context.Background(), st.ID, time.Minute, nil); err != nil {
			t.Fatal(err)
		}
	}
	d, err := rs.Decision(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(d)
	n := tokens(string(b))
	t.Logf("40 topics: %d tokens at most, %d bytes; counts %v", n, len(b), d.Counts)
	if n >= maxDecisionTokens || len(d.Topics) != 40 || d.Omitted != 0 {
		t.Errorf("the decision is %d tokens with %d topics (%d left out), want under %d with all 40", n, len(d.Topics), d.Omitted, maxDecisionTokens)
	}
}
