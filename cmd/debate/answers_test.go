package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestRunAnswersAsRealModelsGiveThem runs a debate in which every answer
// comes in a shape real servers use, with the key "none" that local servers
// are commonly given: a <think> block holding a decoy judgment, a
// reasoning_content field, a reasoning field, a debater's answer cut at the
// token limit, a content filter, and a judge that is first cut off, then
// thinks, drafts a converged judgment and ends with a split one. The
// content filter leaves a debater out of a step, so the topic is partial.
func TestRunAnswersAsRealModelsGiveThem(t *testing.T) {
	t.Parallel()
	const decoy = `{"consensus":[{"point":"decoy","detail":"from the reasoning"}],"divergences":[]}`
	converged := map[string]any{"consensus": []map[string]string{{"point": "Draft point", "detail": "d"}}, "divergences": []divergence{}}
	split := map[string]any{
		"consensus":   []map[string]string{{"point": "Final point", "detail": "none of the parties disputes it"}},
		"divergences": []divergence{{ID: "x", Title: "ALPHA", Sides: map[string]string{"a": "yes", "b": "no"}, Uninvolved: []string{"c"}}},
	}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply {
		rebuttal := c.Contains("Point out the weaknesses")
		switch c.Model {
		case "m-a":
			return scripted.Think("I could answer "+decoy+" but I will not.", "There are none of the issues Party B fears.")
		case "m-b":
			return scripted.Reasoned("B weighs the cost first.", "None of the parties has measured it; none of the figures hold.")
		case "m-c":
			switch {
			case rebuttal && c.Contains("ALPHA"):
				return scripted.ContentFilter()
			case rebuttal:
				return scripted.Reply{Text: "C rebuts.", Reasoning: "C thinks in a reasoning field."}
			}
			return scripted.CutOff("C's position starts well but")
		}
		switch {
		case c.Contains("forcedVerdicts"):
			return scripted.Fenced(map[string]any{
				"consensus":      []map[string]string{},
				"divergences":    []divergence{{ID: "v", Title: "Still split", Sides: map[string]string{"a": "yes", "b": "no"}, Uninvolved: []string{}}},
				"forcedVerdicts": []map[string]string{{"divergenceId": "v", "recommendation": "Do yes", "reasoning": "It is cheaper."}},
			})
		case c.MaxTokens <= 4000:
			return scripted.CutOff("```json\n{\"consensus\": [")
		}
		final := scripted.Drafted(converged, split)
		return scripted.Think("Maybe "+decoy+" is enough.", final.Text)
	})
	cfgPath := writeConfig(t, srv, 2, "")
	b, _ := os.ReadFile(cfgPath)
	cfg := strings.Replace(string(b), `"output": {"dir": "out",`, `"output": {"dir": "out", "includeRawResponses": true,`, 1)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"TEST_API_KEY": "none"}, "run", "-c", cfgPath)
	// The filtered rebuttal leaves c out of a step of d1: the topic is
	// partial, which the run's exit code says.
	if r.code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitFailed, r.stderr)
	}
	out := filepath.Join(filepath.Dir(cfgPath), "out")
	run := readRun(t, filepath.Join(out, "run.json"))
	root := run.Topics[0].Root

	// The final judgment is the one used: the root split, into ALPHA.
	if root.Status != tree.Split || len(root.Children) != 1 || root.Children[0].Title != "ALPHA" {
		t.Fatalf("root %s with children %d; want split into ALPHA (the final judgment, not the draft or the decoy)", root.Status, len(root.Children))
	}
	if p := root.Judgment.Consensus; len(p) != 1 || p[0].Point != "Final point" {
		t.Errorf("root consensus %+v, want the final one", p)
	}
	// The cut judge answer was asked again once, with twice the limit.
	var judgeLimits []int
	for _, c := range srv.Calls() {
		if c.Model == "m-judge" && !c.Contains("forcedVerdicts") {
			judgeLimits = append(judgeLimits, c.MaxTokens)
		}
	}
	if len(judgeLimits) != 2 || judgeLimits[0] != 4000 || judgeLimits[1] != 8000 {
		t.Errorf("judge asked with limits %v, want [4000 8000]", judgeLimits)
	}

	// Positions carry no reasoning; the reasoning is kept beside them.
	root.Walk(func(n *tree.Node) {
		for _, texts := range []map[string]string{n.Positions, n.Rebuttals} {
			for id, text := range texts {
				if strings.Contains(text, "<think>") || strings.Contains(text, "decoy") || strings.Contains(text, "weighs") || strings.Contains(text, "thinks") {
					t.Errorf("%s: %s's answer carries reasoning: %q", n.ID, id, text)
				}
			}
		}
	})
	reasoning := map[string]string{}
	for _, r := range root.Reasoning {
		reasoning[r.Participant+" "+string(r.Step)] = r.Text
	}
	for key, want := range map[string]string{
		"a position": "decoy", "b position": "B weighs", "c rebuttal": "reasoning field", "judge judge": "Maybe",
	} {
		if !strings.Contains(reasoning[key], want) {
			t.Errorf("root reasoning of %s = %q, want it to hold %q", key, reasoning[key], want)
		}
	}

	// The cut answer is kept and marked; the filtered one is a named failure.
	if got := root.Positions["c"]; got != "C's position starts well but" {
		t.Errorf("c's cut position %q, want it kept", got)
	}
	if w := root.Warnings; len(w) != 1 || w[0].Participant != "c" || w[0].Step != tree.StepPosition || !strings.Contains(w[0].Message, "cut at the token limit") {
		t.Errorf("root warnings %+v, want c's position cut at the token limit", w)
	}
	d1 := root.Children[0]
	if _, ok := d1.Rebuttals["c"]; ok || !strings.Contains(errorsText(d1), "content filter") {
		t.Errorf("d1: c's rebuttal %q, errors %q; want a content-filter failure", d1.Rebuttals["c"], errorsText(d1))
	}

	// Model text is never rewritten, whatever the key.
	md, _ := os.ReadFile(filepath.Join(out, "topic-t1-root-question.md"))
	if !strings.Contains(string(md), "cut at the token limit") {
		t.Error("the topic report does not mark the cut answer")
	}
	page, _ := os.ReadFile(filepath.Join(out, "topic-t1-root-question.html"))
	if !strings.Contains(string(page), "<details class=\"reasoning\">") || !strings.Contains(string(page), "B weighs the cost first.") {
		t.Error("the topic page does not fold the reasoning under the answers")
	}
	err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".debate-journal") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "[REDACTED]") {
			t.Errorf("%s rewrites model text: it holds [REDACTED]", path)
		}
		if ext := filepath.Ext(path); (ext == ".md" || ext == ".html" || ext == ".json") && !strings.Contains(string(b), "none of the") {
			if d.Name() != "summary.md" && d.Name() != "summary.html" && filepath.Base(filepath.Dir(path)) != "raw" {
				t.Errorf("%s does not hold %q verbatim", path, "none of the")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func errorsText(n *tree.Node) string {
	var b strings.Builder
	for _, e := range n.Errors {
		b.WriteString(e.Participant + " " + string(e.Step) + ": " + e.Message + "\n")
	}
	return b.String()
}
