package prompts

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSharedContextPrefix checks that two topics sharing a context send
// byte-identical prompts up to the end of the context, in every language,
// and that the user message marks the end of the context and of the topic.
func TestSharedContextPrefix(t *testing.T) {
	t.Parallel()
	docs := []Document{{Path: "docs/decisions.md", Content: "# Decisions\n\nEvery service keeps its own store."}}
	topics := []RootPosition{
		{Party: Party{ID: "a", Label: "Debater 1"}, Parties: []Party{{Label: "Debater 1"}, {Label: "Debater 2"}},
			Documents: docs, Inline: "Shared notes.", Title: "Events or a short TTL?", Annotations: []string{"Mind the cost."}},
		{Party: Party{ID: "b", Label: "Debater 2"}, Parties: []Party{{Label: "Debater 1"}, {Label: "Debater 2"}, {Label: "Debater 3"}},
			Documents: docs, Inline: "Shared notes.", Title: "SQLite or JSON files?", CoreQuestions: []string{"How is order kept?"}},
	}
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			s := mustNew(t, lang, "")
			var prompts [2][]Message
			for i, d := range topics {
				m, err := s.RootPosition(d)
				if err != nil {
					t.Fatal(err)
				}
				if len(m) != 2 || m[0].Role != RoleSystem || m[1].Role != RoleUser {
					t.Fatalf("topic %d: messages %+v, want a system and a user message", i, m)
				}
				prompts[i] = m
			}
			if prompts[0][0].Content != prompts[1][0].Content {
				t.Errorf("system messages differ:\n%s\n---\n%s", prompts[0][0].Content, prompts[1][0].Content)
			}
			for i, m := range prompts {
				if got := m[0].Breaks; len(got) != 1 || got[0] != len(m[0].Content) {
					t.Errorf("topic %d: system breaks %v, want the message's end %d", i, got, len(m[0].Content))
				}
				user := m[1]
				if len(user.Breaks) != 2 {
					t.Fatalf("topic %d: user breaks %v, want the end of the context and of the topic", i, user.Breaks)
				}
				context := user.Content[:user.Breaks[0]]
				if !strings.HasSuffix(context, "Shared notes.") {
					t.Errorf("topic %d: the first break is not at the end of the context: %q", i, context)
				}
				if topic := user.Content[user.Breaks[0]:user.Breaks[1]]; !strings.Contains(topic, topics[i].Title) || strings.Contains(topic, topics[i].Party.Label) {
					t.Errorf("topic %d: the second break does not end the topic before the debater's name: %q", i, topic)
				}
			}
			a, b := prompts[0][1], prompts[1][1]
			if a.Content[:a.Breaks[0]] != b.Content[:b.Breaks[0]] {
				t.Errorf("the contexts differ:\n%s\n---\n%s", a.Content[:a.Breaks[0]], b.Content[:b.Breaks[0]])
			}
		})
	}
}

func TestCutBreaks(t *testing.T) {
	t.Parallel()
	m := breakMark
	tests := []struct {
		in     string
		out    string
		breaks []int
	}{
		{in: "plain", out: "plain"},
		{in: "ab" + m + "cd", out: "abcd", breaks: []int{2}},
		{in: m + "ab", out: "ab"},
		{in: "ab" + m + m + "cd" + m, out: "abcd", breaks: []int{2, 4}},
		{in: "  ab" + m + "  ", out: "ab", breaks: []int{2}},
	}
	for _, tt := range tests {
		out, breaks := cutBreaks(tt.in)
		if out != tt.out || !slices.Equal(breaks, tt.breaks) {
			t.Errorf("cutBreaks(%q) = %q, %v; want %q, %v", tt.in, out, breaks, tt.out, tt.breaks)
		}
	}
}

// FuzzCutBreaks checks that cutting the marks out leaves the text without
// them, with offsets inside it and rising.
func FuzzCutBreaks(f *testing.F) {
	f.Add("ab" + breakMark + "cd")
	f.Add(breakMark + " " + breakMark)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, in string) {
		out, breaks := cutBreaks(in)
		if strings.Contains(out, breakMark) {
			t.Fatalf("cutBreaks(%q) kept a mark: %q", in, out)
		}
		last := 0
		for _, b := range breaks {
			if b <= last || b > len(out) {
				t.Fatalf("cutBreaks(%q) = %q, breaks %v: not rising within the text", in, out, breaks)
			}
			last = b
		}
	})
}

// TestRolePromptsStableFirst checks the order of the protocol role prompts
// in every language: a role's system message is the same for every call,
// whatever the motion, turn or limit; two motions sharing documents send the
// same user message up to the documents' end, marked; and a role's next
// call, with more arguments, begins with its previous call's prompt up to
// the end of that call's arguments.
func TestRolePromptsStableFirst(t *testing.T) {
	t.Parallel()
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			r, err := NewRoles(lang, "")
			if err != nil {
				t.Fatal(err)
			}
			_, base := roleFixture(lang)
			other := base
			other.Title, other.Motion = "Another motion", "Adopt the plan, second version."
			other.Documents = []StoredDocument{base.Documents[0]}
			other.Documents[0].ID = "0196ffff-doc"
			other.Turn, other.MaxTurns, other.Final = 4, 4, true

			earlier := base
			earlier.History = base.History[:1]
			earlier.Newest = earlier.History[0]
			earlier.Turn = 1

			roles := []struct {
				name  string
				build func(Turn) ([]Message, error)
			}{
				{"proposer", r.Proposer}, {"opponent", r.Opponent}, {"arbitrator", r.Arbitrator},
			}
			for _, role := range roles {
				a, errA := role.build(base)
				b, errB := role.build(other)
				e, errE := role.build(earlier)
				if err := errors.Join(errA, errB, errE); err != nil {
					t.Fatal(err)
				}
				if a[0].Content != b[0].Content || a[0].Content != e[0].Content {
					t.Errorf("%s: the system message changes from call to call:\n%s\n---\n%s", role.name, a[0].Content, b[0].Content)
				}
				ua, ub, ue := a[1], b[1], e[1]
				if len(ua.Breaks) != 2 || len(ub.Breaks) != 2 {
					t.Fatalf("%s: user breaks %v and %v, want the end of the documents and of the motion", role.name, ua.Breaks, ub.Breaks)
				}
				docs := ua.Content[:ua.Breaks[0]]
				if docs != ub.Content[:ub.Breaks[0]] || !strings.Contains(docs, "SKIP LOCKED") || strings.Contains(docs, base.Title) {
					t.Errorf("%s: the documents part differs between motions or holds more:\n%s\n---\n%s", role.name, docs, ub.Content[:ub.Breaks[0]])
				}
				if motion := ua.Content[ua.Breaks[0]:ua.Breaks[1]]; !strings.Contains(motion, base.Title) || strings.Contains(motion, base.History[0].Content) {
					t.Errorf("%s: the second break does not end the motion before the arguments: %q", role.name, motion)
				}
				last := base.History[0].Content
				upTo := strings.Index(ue.Content, last) + len(last)
				if !strings.HasPrefix(ua.Content, ue.Content[:upTo]) {
					t.Errorf("%s: the later call does not begin with the earlier call's prompt up to its arguments' end:\n%s\n---\n%s", role.name, ue.Content[:upTo], ua.Content)
				}
			}
		})
	}
}

// TestJudgeSystemStable checks, in every language, that the system message
// of each judge step after triage is the same for every call of the step in
// a run: calls that differ in round, reason (the round limit or the spent
// budget), node, title, divergences and material render one system message,
// and what differs is in the user message.
func TestJudgeSystemStable(t *testing.T) {
	t.Parallel()
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			s := mustNew(t, lang, "")
			f := fixtures[lang]()
			budget := f.forced
			budget.Round, budget.BudgetSpent, budget.Sides = 1, true, nil
			budget.Title = budget.RootTitle
			panel := panelOf(f.forced)
			other := panelOf(budget)
			other.Questions = append(other.Questions, Question{ID: "d2", Title: "Who retries?"})
			bare := Synthesis{Title: "Another topic", Consensus: f.synthesis.Consensus}
			edits := Edits{Topics: f.edits.Topics[:1]}
			steps := []struct {
				name string
				a, b func() ([]Message, error)
				// differ is text only one of the two calls carries.
				differ string
			}{
				{"forced_verdict", func() ([]Message, error) { return s.ForcedVerdict(f.forced) }, func() ([]Message, error) { return s.ForcedVerdict(budget) }, f.forced.Title},
				{"panel_verdict", func() ([]Message, error) { return s.PanelVerdict(panel) }, func() ([]Message, error) { return s.PanelVerdict(other) }, "Who retries?"},
				{"synthesis", func() ([]Message, error) { return s.Synthesis(f.synthesis) }, func() ([]Message, error) { return s.Synthesis(bare) }, f.synthesis.Title},
				{"edits", func() ([]Message, error) { return s.Edits(f.edits) }, func() ([]Message, error) { return s.Edits(edits) }, ""},
			}
			for _, st := range steps {
				a, errA := st.a()
				b, errB := st.b()
				if err := errors.Join(errA, errB); err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if len(a) != 2 || len(b) != 2 || a[0].Role != RoleSystem {
					t.Fatalf("%s: want a system and a user message, got %d and %d", st.name, len(a), len(b))
				}
				if a[0].Content != b[0].Content {
					t.Errorf("%s: the system message changes from call to call:\n%s\n---\n%s", st.name, a[0].Content, b[0].Content)
				}
				if a[1].Content == b[1].Content {
					t.Errorf("%s: the two calls render the same user message; the fixture does not vary", st.name)
				}
				if d := st.differ; d != "" && (strings.Contains(a[0].Content, d) || !strings.Contains(a[1].Content+b[1].Content, d)) {
					t.Errorf("%s: %q is not in the user message alone", st.name, st.differ)
				}
			}
		})
	}
}

// TestTextPlacesNoBreak: a break mark written into a text the prompt shows —
// a debater's answer, a title — adds no breakpoint and reaches the model
// without the mark's private-use character.
func TestTextPlacesNoBreak(t *testing.T) {
	t.Parallel()
	set, err := New("en", "")
	if err != nil {
		t.Fatal(err)
	}
	f := enFixture()
	for _, text := range []string{breakMark, "before " + breakMark + " after", breakEdge + "breakpoint", "a" + breakEdge + breakMark + breakEdge + "b"} {
		plain, err := set.Triage(second(f.triage, "before after"))
		if err != nil {
			t.Fatal(err)
		}
		d := second(f.triage, text)
		d.Title += text
		msgs, err := set.Triage(d)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range msgs {
			if len(m.Breaks) != len(plain[i].Breaks) {
				t.Errorf("%q: message %d has breaks %v, want as many as %v", text, i, m.Breaks, plain[i].Breaks)
			}
			if strings.Contains(m.Content, breakEdge) {
				t.Errorf("%q: message %d holds the private-use character", text, i)
			}
		}
	}
}
