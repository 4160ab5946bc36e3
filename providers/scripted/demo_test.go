package scripted

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/prompts"
)

// asCall returns a func that turns prompt messages into the call the fake
// would receive, failing t on the prompt's error.
func asCall(t *testing.T) func([]prompts.Message, error) Call {
	return func(ms []prompts.Message, err error) Call {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		c := Call{Model: "m"}
		for _, m := range ms {
			c.Messages = append(c.Messages, Message{Role: m.Role, Content: m.Content})
		}
		return c
	}
}

// TestDemoReadsTheRealPrompts plays the demo on the prompts the engine
// sends, in each language: every debater finds its own voice, the proposed
// edits name the documents given (not a heading quoted inside one) and the
// topics they come from, and each topic's synthesis is its own.
func TestDemoReadsTheRealPrompts(t *testing.T) {
	t.Parallel()
	opt := DemoOptions{Debaters: []string{"party-a", "party-b", "party-c"}, Labels: []string{"Party A", "Party B", "Party C"}}
	parties := []prompts.Party{{ID: "party-a", Label: "Party A"}, {ID: "party-b", Label: "Party B"}, {ID: "party-c", Label: "Party C"}}
	docs := []prompts.Document{
		{Path: "context/decisions.md", Content: "# Decisions\n\n### notes/quoted.md\n\nEvery service keeps its own store."},
		{Path: "context/runbook.md", Content: "# Runbook"},
	}
	for _, lang := range prompts.Languages() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			set, err := prompts.New(lang, "")
			if err != nil {
				t.Fatal(err)
			}
			call := asCall(t)
			seen := map[string]string{}
			for i, p := range parties {
				c := call(set.RootPosition(prompts.RootPosition{Party: p, Parties: parties, Documents: docs, Title: "Split the monolith?"}))
				got := demoReply(c, opt).Text
				if got != demoPositions[0][i] {
					t.Errorf("%s's position: got %.40q, want its own voice %.40q", p.Label, got, demoPositions[0][i])
				}
				if other, dup := seen[got]; dup {
					t.Errorf("%s holds %s's position", p.Label, other)
				}
				seen[got] = p.Label
			}

			c := call(set.Edits(prompts.Edits{Documents: docs, Topics: []prompts.TopicConclusion{
				{ID: "split", Title: "Split the monolith?", Conclusion: "Yes."},
				{ID: "queue", Title: "Which queue?", Conclusion: "Kafka."},
			}}))
			edits := demoReply(c, opt).Text
			for _, want := range []string{"## context/decisions.md\n", "## context/runbook.md\n", "`split`", "`queue`"} {
				if !strings.Contains(edits, want) {
					t.Errorf("edits lack %q:\n%s", want, edits)
				}
			}
			if strings.Contains(edits, "notes/quoted.md") {
				t.Errorf("edits take a heading quoted inside a document for a document:\n%s", edits)
			}

			synthesis := map[string]string{}
			for _, title := range []string{"Split the monolith?", "Which queue?"} {
				c := call(set.Synthesis(prompts.Synthesis{
					Title:     title,
					Consensus: []prompts.Point{{Point: "Measure first", Detail: "p99 latency."}},
					Verdicts:  []prompts.VerdictPoint{{Divergence: "How long?", Recommendation: "Two weeks.", Reasoning: "A release cycle."}},
				}))
				got := demoReply(c, opt).Text
				for _, want := range []string{title, "measure first", "two weeks"} {
					if !strings.Contains(got, want) {
						t.Errorf("synthesis of %q lacks %q:\n%s", title, want, got)
					}
				}
				synthesis[got] = title
			}
			if len(synthesis) != 2 {
				t.Errorf("two topics got the same synthesis: %q", synthesis)
			}
		})
	}
}
