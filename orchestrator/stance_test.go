package orchestrator

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// judgeEntry matches a debater's entry in a blind judge prompt: its alias id
// and the first words of its position, "I am <id>", fenced or not.
var judgeEntry = regexp.MustCompile("## Debater \\d+ \\(`(debater-\\d+)`\\): position and rebuttal\n\n### Position\n(?:`{3,}\n)?I am (party-\\w)")

// rebuttalEntry matches another party in a blind rebuttal prompt: its alias
// label and the first words of its position.
var rebuttalEntry = regexp.MustCompile("### (Debater \\d+)\n(?:`{3,}\n)?I am (party-\\w)")

// stanceFake answers a blind three-debater run in which, at the root, a and
// b hold one side and c alone the other; at the child node c's rebuttal
// closes with the line line(aliasOfA) and the judge reads c as moved to a.
// A topic whose id is in keptLine has c close with "Stance: kept" instead.
func stanceFake(c scripted.Call) scripted.Reply {
	var all strings.Builder
	for _, m := range c.Messages {
		all.WriteString(m.Content + "\n")
	}
	text := all.String()
	topic := regexp.MustCompile(`(?:Topic|in) (t\d)`).FindStringSubmatch(text)[1]
	node := "root"
	if strings.Contains(text, mark("d1")) {
		node = "d1"
	}
	if c.Model != "model-j" {
		me := "party-" + strings.TrimPrefix(c.Model, "model-")
		if !strings.Contains(text, "End with exactly one line that states your stance") {
			return scripted.Text("I am " + me + ". My position.")
		}
		line := "Stance: kept"
		if me == "party-c" && node == "d1" && topic == "t1" {
			for _, m := range rebuttalEntry.FindAllStringSubmatch(text, -1) {
				if m[2] == "party-a" {
					line = "Stance: moved to " + m[1] + " — the cache argument holds"
				}
			}
		}
		return scripted.Text("I answer the others.\n\n" + line)
	}
	alias := map[string]string{}
	for _, m := range judgeEntry.FindAllStringSubmatch(text, -1) {
		alias[m[2]] = m[1]
	}
	a, b, cc := alias["party-a"], alias["party-b"], alias["party-c"]
	if node == "root" {
		return scripted.Text(fmt.Sprintf(`{"consensus":[],"divergences":[{"id":"d1","title":"Cache or recompute in %s %s",
			"sides":{%q:"Cache it",%q:"Cache it",%q:"Recompute"},"uninvolved":[]}],
			"stances":[{"party":%q,"stance":"kept","toward":""}]}`, topic, mark("d1"), a, b, cc, a))
	}
	return scripted.Text(fmt.Sprintf(`{"consensus":[{"point":"cache","detail":"cache it"}],"divergences":[],
		"stances":[{"party":%q,"stance":"kept","toward":""},{"party":%q,"stance":"kept","toward":""},{"party":%q,"stance":"moved","toward":%q}]}`, a, b, cc, a))
}

// TestStanceLedgerOverHTTP runs two topics against the fake: in t1 the lone
// dissenter c closes "moved to" a's alias and the judge agrees; in t2 c
// closes "kept" while the judge reads it as moved. The ledger, the figures,
// the reports and run.json all show the move as conformity, and t2's
// disagreement.
func TestStanceLedgerOverHTTP(t *testing.T) {
	t.Parallel()
	cfg := testConfig(3, "t1", "t2")
	on, seed := true, uint64(7)
	cfg.Params.Blind, cfg.Params.Seed = &on, &seed
	srv := providertest.New(t)
	srv.Script(stanceFake)
	run := runOn(t, cfg, srv)
	for i, want := range []struct {
		line     string
		disagree bool
	}{
		{"Stance: moved to %s — the cache argument holds", false},
		{"Stance: kept", true},
	} {
		top := run.Topics[i]
		if len(top.Ledger) != 3 {
			t.Fatalf("%s: ledger %+v, want three entries at d1", top.ID, top.Ledger)
		}
		c := top.Ledger[2]
		aliasA := top.Aliases[0].Alias
		for _, al := range top.Aliases {
			if al.Participant == "party-a" {
				aliasA = al.Alias
			}
		}
		wantLine := want.line
		if strings.Contains(wantLine, "%s") {
			wantLine = fmt.Sprintf(wantLine, aliasA)
		}
		if c.Debater != "party-c" || c.Line != wantLine || !c.Moved || c.Toward != "party-a" || c.Kind != tree.Conformity || !c.LoneDissenter || c.Disagree != want.disagree {
			t.Errorf("%s: c's entry %+v, want moved to party-a as conformity, line %q, disagree %v", top.ID, c, wantLine, want.disagree)
		}
		md := string(render.Topic(run, &top))
		for _, s := range []string{"**Stances:** 1 of 3 moved (conformity 1)", "| d1 | Party C | Recompute | " + wantLine} {
			if !strings.Contains(md, s) {
				t.Errorf("%s: the report lacks %q:\n%s", top.ID, s, md)
			}
		}
		if strings.Contains(md, "the line and the judge disagree") != want.disagree {
			t.Errorf("%s: the report shows a disagreement: %v, want %v", top.ID, !want.disagree, want.disagree)
		}
	}
	if sum := string(render.Summary(run, nil)); !strings.Contains(sum, "**Stances:** 2 of 6 moved (conformity 2)") ||
		!strings.Contains(sum, "Stances: 1 of 3 moved (conformity 1)") {
		t.Errorf("the summary lacks the stance lines:\n%s", sum)
	}
	body, err := output.EncodeRun(run)
	if err != nil {
		t.Fatal(err)
	}
	back, err := output.DecodeRun(body)
	if err != nil {
		t.Fatal(err)
	}
	if f := back.Stances; f == nil || f.Conformity.Count != 2 || f.Moved.Of != 6 || f.LoneConceded.Count != 2 {
		t.Errorf("run.json stances %+v", f)
	}
}
