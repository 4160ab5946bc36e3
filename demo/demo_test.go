package demo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers/scripted"
)

// asCall returns a func that turns prompt messages into the call the fake
// would receive, failing t on the prompt's error.
func asCall(t *testing.T) func([]prompts.Message, error) scripted.Call {
	return func(ms []prompts.Message, err error) scripted.Call {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		c := scripted.Call{Model: "m"}
		for _, m := range ms {
			c.Messages = append(c.Messages, scripted.Message{Role: m.Role, Content: m.Content})
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
	opt := Options{Debaters: []string{"party-a", "party-b", "party-c"}, Labels: []string{"Party A", "Party B", "Party C"}}
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
			script := demoScriptFor("Split the monolith?")
			for i, p := range parties {
				c := call(set.RootPosition(prompts.RootPosition{Party: p, Parties: parties, Documents: docs, Title: "Split the monolith?"}))
				got := demoReply(c, opt).Text
				if want := script.positions[0][i]; got != want {
					t.Errorf("%s's position: got %.40q, want its own voice %.40q", p.Label, got, want)
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

// TestDemoScriptsStandApart: the demo's scripts are debates of their own. A
// divergence title belongs to one script and appears in no answer, so that
// a prompt that names it names one script and one node; no two scripts
// share an answer; and every text speaks of a change to a system, never of
// a particular product.
func TestDemoScriptsStandApart(t *testing.T) {
	t.Parallel()
	if len(demoScripts) < 3 {
		t.Fatalf("%d demo scripts, want at least three", len(demoScripts))
	}
	titles := map[string]int{}
	for k, s := range demoScripts {
		for _, d := range s.divergences {
			if other, dup := titles[d.title]; dup {
				t.Errorf("scripts %d and %d share the divergence %q", other, k, d.title)
			}
			titles[d.title] = k
		}
	}
	owner := map[string]int{}
	for k, s := range demoScripts {
		texts := []string{s.decision, s.revisit}
		for node := range s.positions {
			texts = append(texts, s.positions[node][:]...)
			texts = append(texts, s.rebuttals[node][:]...)
		}
		for _, d := range s.divergences {
			texts = append(texts, d.yes, d.no, d.verdict, d.reason)
		}
		for _, p := range s.consensus {
			for _, c := range p {
				texts = append(texts, c.point, c.detail)
			}
		}
		for _, e := range s.edits {
			texts = append(texts, e.rule)
		}
		for _, text := range texts {
			if other, dup := owner[text]; dup {
				t.Errorf("scripts %d and %d both say %.60q", other, k, text)
			}
			owner[text] = k
			for title := range titles {
				if strings.Contains(text, title) {
					t.Errorf("script %d says the divergence title %q in %.60q", k, title, text)
				}
			}
			for _, word := range []string{"parser", "checkout", "billing", "Vec<"} {
				if strings.Contains(strings.ToLower(text), strings.ToLower(word)) {
					t.Errorf("script %d speaks of %q, which a topic may not have: %.60q", k, word, text)
				}
			}
		}
	}
}

// TestDemoTopicsPickScripts: the script of a call is the one its topic's
// title picks, on the real prompts of every step, so that two topics that
// pick different scripts argue different cases all the way to their
// conclusions and edits, and the same topic always gets the same answers.
func TestDemoTopicsPickScripts(t *testing.T) {
	t.Parallel()
	opt := Options{Debaters: []string{"party-a", "party-b"}}
	parties := []prompts.Party{{ID: "party-a", Label: "party-a"}, {ID: "party-b", Label: "party-b"}}
	docs := []prompts.Document{{Path: "context/decisions.md", Content: "# Decisions"}}
	set, err := prompts.New("en", "")
	if err != nil {
		t.Fatal(err)
	}
	call := asCall(t)
	titles := demoTitles(t)
	var conclusions []prompts.TopicConclusion
	for k, title := range titles {
		s := &demoScripts[k]
		root := call(set.RootPosition(prompts.RootPosition{Party: parties[0], Parties: parties, Documents: docs, Title: title}))
		child := call(set.ChildPosition(prompts.ChildPosition{Party: parties[1], Involved: true, RootTitle: title,
			Path: []string{s.divergences[1].title}, Title: s.divergences[2].title}))
		rebuttal := call(set.Rebuttal(prompts.Rebuttal{Party: parties[1], Title: s.divergences[0].title, Own: "Mine.",
			Others: []prompts.PartyText{{Party: parties[0], Text: s.positions[1][0]}}}))
		triage := call(set.Triage(prompts.Judge{Title: title, PartyIDs: []string{"party-a", "party-b"}, Round: 1, MaxRounds: 3,
			Entries: []prompts.Entry{{Party: parties[0], Position: s.positions[0][0], Rebuttal: s.rebuttals[0][0]}}}))
		synthesis := call(set.Synthesis(prompts.Synthesis{Title: title, Consensus: []prompts.Point{{Point: "Agreed", Detail: "Yes."}}}))
		tests := []struct {
			name, got, want string
		}{
			{"root position", demoReply(root, opt).Text, s.positions[0][0]},
			{"child position", demoReply(child, opt).Text, s.positions[3][1]},
			{"child rebuttal", demoReply(rebuttal, opt).Text, s.rebuttals[1][1]},
			{"triage", demoReply(triage, opt).Text, s.divergences[0].title},
			{"synthesis", demoReply(synthesis, opt).Text, s.decision},
			{"synthesis", demoReply(synthesis, opt).Text, s.revisit},
		}
		for _, tt := range tests {
			if !strings.Contains(tt.got, tt.want) {
				t.Errorf("script %d, %s: got %.80q, want %.80q", k, tt.name, tt.got, tt.want)
			}
		}
		conclusions = append(conclusions, prompts.TopicConclusion{ID: fmt.Sprintf("topic-%d", k), Title: title, Conclusion: s.decision})
	}
	edits := demoReply(call(set.Edits(prompts.Edits{Documents: docs, Topics: conclusions})), opt).Text
	for k, s := range demoScripts {
		want := fmt.Sprintf("*%s*, new (from `topic-%d`): \"%s\"", s.edits[0].section, k, s.edits[0].rule)
		if !strings.Contains(edits, want) {
			t.Errorf("edits lack script %d's rule %q:\n%s", k, want, edits)
		}
	}
}

// TestDemoScriptFor: a topic plays the first script with a cue that
// begins a word of its title, whatever the case, and always the same one.
func TestDemoScriptFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		title string
		want  int
	}{
		{"Should billing be extracted from the modular monolith into its own service now?", 2},
		{"Should checkout charge the customer asynchronously through the outbox instead of synchronously?", 1},
		{"Should the product catalogue cache be invalidated by events or by a short TTL?", 0},
		{"RETRIES: how many, and how far apart?", 1},
		{"Split the monolith?", 2},
	}
	for _, tt := range tests {
		got := demoScriptFor(tt.title)
		if got != &demoScripts[tt.want] || demoScriptFor(tt.title) != got {
			t.Errorf("%q does not always pick script %d", tt.title, tt.want)
		}
	}
}

// demoTitles returns a topic title for each demo script, one that picks it.
func demoTitles(t *testing.T) []string {
	t.Helper()
	titles := make([]string, len(demoScripts))
	left := len(demoScripts)
	for n := 0; left > 0; n++ {
		if n > 1000 {
			t.Fatalf("no title picks some demo script: %q", titles)
		}
		title := fmt.Sprintf("Should we change part %d of the system?", n)
		for k := range demoScripts {
			if demoScriptFor(title) == &demoScripts[k] && titles[k] == "" {
				titles[k] = title
				left--
			}
		}
	}
	return titles
}

// TestDemoAnswersDifferPerDebaterAndStep: in the demo every debater has a
// voice of its own at every node and step of every script, found from the
// line that tells the debater who it is, at the end of its prompt (in either
// prompt language), and the same call always gets the same answer.
func TestDemoAnswersDifferPerDebaterAndStep(t *testing.T) {
	opt := Options{Debaters: []string{"party-a", "party-b", "party-c"}, Labels: []string{"Party A", "", "Party C"}}
	part := map[string]func(label string) string{
		"en": func(label string) string {
			return "\n\n## Your part\nYou are " + label + ". The debaters are Party A, party-b, Party C."
		},
		"zh": func(label string) string {
			return "\n\n## 你的角色\n你是" + label + "。辩手有 Party A、party-b、Party C。"
		},
	}
	topic := map[string]string{"en": "## Topic\n", "zh": "## 议题\n"}
	seen := map[string]string{}
	for si, title := range demoTitles(t) {
		s := &demoScripts[si]
		nodes := []string{title, s.divergences[0].title, s.divergences[1].title, s.divergences[2].title}
		for lang, you := range part {
			for ni, node := range nodes {
				for _, step := range []string{"position", "rebuttal"} {
					for i, label := range []string{"Party A", "party-b", "Party C"} {
						user := topic[lang] + node + "\n\nState your position."
						if step == "rebuttal" {
							user += "\n\nHere are the other parties' positions."
						}
						system := "You are an expert, taking part as one of the debaters in a technical debate."
						c := scripted.Call{Seq: 7 * (i + 1), Model: "m", Messages: []scripted.Message{{Role: "system", Content: system}, {Role: "user", Content: user + you(label)}}}
						r := demoReply(c, opt)
						if again := demoReply(scripted.Call{Seq: 1, Model: "m", Messages: c.Messages}, opt); again.Text != r.Text {
							t.Errorf("%s script %d %s %s: the answer depends on arrival order", lang, si, node, label)
						}
						want := s.positions[ni][i]
						if step == "rebuttal" {
							want = s.rebuttals[ni][i]
						}
						if step == "rebuttal" && strings.HasPrefix(r.Text, want+"\n\nStance: ") {
							want = r.Text // closed with its stance line
						}
						if r.Text != want {
							t.Errorf("%s script %d node %d %s of %s: got %.40q, want %.40q", lang, si, ni, step, label, r.Text, want)
						}
						key := fmt.Sprint(si, ni, step, label)
						if other, dup := seen[r.Text]; dup && other != key {
							t.Errorf("%s script %d node %d %s of %s repeats the answer of %s", lang, si, ni, step, label, other)
						}
						seen[r.Text] = key
					}
				}
			}
		}
	}
}

// TestDemoStanceLine: the demo's second debater concedes to the first at
// demoMover, named as the prompt names it; every other rebuttal keeps.
func TestDemoStanceLine(t *testing.T) {
	t.Parallel()
	opt := Options{Debaters: []string{"a", "b", "c"}, Labels: []string{"Party A", "Party B", "Party C"}}
	call := func(shown string) scripted.Call {
		return scripted.Call{Messages: []scripted.Message{{Role: "user", Content: "## The other parties' positions\n\n### " + shown + "\nI propose."}}}
	}
	tests := []struct {
		name        string
		c           scripted.Call
		node, voice int
		want        string
	}{
		{"blind", call("Debater 1"), demoMover, 1, "Stance: moved to Debater 1 — its first step answers my concern"},
		{"labelled", call("Party A"), demoMover, 1, "Stance: moved to Party A — its first step answers my concern"},
		{"another voice", call("Debater 1"), demoMover, 2, "Stance: kept"},
		{"another node", call("Debater 1"), 0, 1, "Stance: kept"},
	}
	for _, tt := range tests {
		if got := demoStanceLine(tt.c, opt, tt.node, tt.voice); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
