package orchestrator

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// verdictHeading starts a debater's entry in a blind forced-verdict prompt.
var verdictHeading = regexp.MustCompile("(?m)^### Debater \\d+ \\(`(debater-\\d+)`\\)$")

// hashOf is a number drawn from s alone.
func hashOf(s string) int {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int(h.Sum32() & 0x7fffffff)
}

// auditFake answers a blind run at its round limit: debaters write answers
// of a length drawn from their model and topic, and the judge gives one
// forced verdict favouring the entry pick chooses among those it read, in
// the order it read them, with their lengths.
func auditFake(pick func(prompt string, aliases []string, lengths []int) string) func(scripted.Call) scripted.Reply {
	return func(c scripted.Call) scripted.Reply {
		var all strings.Builder
		for _, m := range c.Messages {
			all.WriteString(m.Content + "\n")
		}
		text := all.String()
		if c.Model != "model-j" {
			return scripted.Text("I argue. " + strings.Repeat("word ", 10+hashOf(c.Model+text)%200))
		}
		locs := verdictHeading.FindAllStringSubmatchIndex(text, -1)
		var aliases []string
		var lengths []int
		for i, l := range locs {
			end := len(text)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			aliases = append(aliases, text[l[2]:l[3]])
			lengths = append(lengths, end-l[1])
		}
		return scripted.Text(fmt.Sprintf(`{"consensus":[],"divergences":[{"id":"d1","title":"which %s","sides":{%q:"x",%q:"y",%q:"z"},"uninvolved":[]}],
			"forcedVerdicts":[{"divergenceId":"d1","favors":%q,"recommendation":"r","reasoning":"because"}]}`,
			mark("d1"), aliases[0], aliases[1], aliases[2], pick(text, aliases, lengths)))
	}
}

// TestAuditOverHTTP runs 40 topics against judges biased in known ways:
// the audit flags position bias when the judge always favours the debater
// listed first, length bias when it favours the longest answer, and nothing
// when it favours one at random.
func TestAuditOverHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pick    func(prompt string, aliases []string, lengths []int) string
		flagged []string
	}{
		{"the first listed", func(_ string, a []string, _ []int) string { return a[0] }, []string{"first", "last", "middle"}},
		{"the longest answer", func(_ string, a []string, l []int) string { return a[slices.Index(l, slices.Max(l))] }, []string{"longest"}},
		// Drawn from the topic and the order read alone, so that the draw
		// does not move with the wording of the prompts. Each check flags a
		// judge without bias one time in twenty by design; this draw is one
		// of the nineteen.
		{"at random", func(p string, a []string, _ []int) string {
			return a[hashOf(regexp.MustCompile(`Topic t\d+`).FindString(p)+strings.Join(a, ","))%len(a)]
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var topics []string
			for i := range 40 {
				topics = append(topics, fmt.Sprintf("t%02d", i))
			}
			cfg := testConfig(1, topics...)
			on, seed := true, uint64(11)
			cfg.Params.Blind, cfg.Params.Seed = &on, &seed
			srv := providertest.New(t)
			srv.Script(auditFake(tt.pick))
			run := runOn(t, cfg, srv)
			if len(run.Audit) != 1 {
				t.Fatalf("audit %+v, want the one judge model", run.Audit)
			}
			a := run.Audit[0]
			var got []string
			for name, c := range map[string]tree.Check{"first": a.First, "middle": a.Middle, "last": a.Last, "longest": a.Longest, "family": a.SameFamily} {
				if c.Of != 40 {
					t.Errorf("%s: %d verdicts counted, want 40", name, c.Of)
				}
				if c.Flagged {
					got = append(got, name)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.flagged) {
				t.Errorf("flagged %v, want %v: %+v", got, tt.flagged, a)
			}
		})
	}
}
