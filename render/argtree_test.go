package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/protocol"
)

// argFixture builds a debate from (type, role, parent seq, state after,
// content) rows; parent 0 means none and -1 a parent that is not included.
type argRow struct {
	typ     protocol.ArgType
	role    protocol.Role
	parent  int
	state   protocol.State
	content string
}

func argFixture(id, title string, rows []argRow) (protocol.Debate, []protocol.Argument) {
	start := time.Date(2026, 2, 7, 9, 30, 0, 0, time.UTC)
	var args []protocol.Argument
	for i, r := range rows {
		a := protocol.Argument{
			ID: fmt.Sprintf("arg-%02d", i+1), DebateID: id, Type: r.typ, Role: r.role,
			Content: r.content, Seq: i + 1, StateAfter: r.state,
			CreatedAt: start.Add(time.Duration(i) * 90 * time.Second),
		}
		switch {
		case r.parent > 0:
			a.ParentID = fmt.Sprintf("arg-%02d", r.parent)
		case r.parent < 0:
			a.ParentID = "arg-gone"
		}
		args = append(args, a)
	}
	d := protocol.Debate{ID: id, Title: title, Type: protocol.CodingPlanDebate, State: protocol.AwaitingOpponent, CreatedAt: start, UpdatedAt: start}
	if len(args) > 0 {
		last := args[len(args)-1]
		d.State, d.UpdatedAt = last.StateAfter, last.CreatedAt
	}
	return d, args
}

var argCases = []struct {
	name  string
	title string
	rows  []argRow
}{
	{"resolved", "Cache the plan parser?", []argRow{
		{protocol.Motion, protocol.Proposer, 0, protocol.AwaitingOpponent, "Add an LRU cache in front of the plan parser.\n\nSee doc_id `doc-1` for the plan."},
		{protocol.Claim, protocol.Opponent, 1, protocol.AwaitingProposer, "C1: the cache key ignores the **schema version**; stale plans would be served."},
		{protocol.Claim, protocol.Proposer, 2, protocol.AwaitingOpponent, "Fixed: the key now includes the schema version (plan v2, `doc-1` version 2)."},
		{protocol.Claim, protocol.Opponent, 3, protocol.AwaitingProposer, "m1: name the metric `parser_cache_hits`. Otherwise fine."},
		{protocol.Resolution, protocol.Proposer, 4, protocol.AwaitingArbitrator, "Agreed: key includes schema version; metric renamed."},
		{protocol.Ruling, protocol.Arbitrator, 5, protocol.Closed, protocol.AutoRulingContent},
	}},
	{"branches", "Branches, interventions and hostile text", []argRow{
		{protocol.Motion, protocol.Proposer, 0, protocol.AwaitingOpponent, "# Motion heading\nShip it | now"},
		{protocol.Claim, protocol.Opponent, 1, protocol.AwaitingProposer, "<script>alert(1)</script>\n```go\nfunc main() {"},
		{protocol.Appeal, protocol.Proposer, 2, protocol.AwaitingArbitrator, "Please rule:\n1. keep\n2. drop"},
		{protocol.Ruling, protocol.Arbitrator, 3, protocol.AwaitingProposer, "Keep it."},
		{protocol.Intervention, protocol.Arbitrator, 1, protocol.InterventionPending, ""},
		{protocol.Ruling, protocol.Arbitrator, -1, protocol.AwaitingProposer, "Carry on.\r\nSetext heading\r\n==="},
	}},
	{"deep", "A long chain of replies", deepRows()},
	{"motion_only", "", []argRow{
		{protocol.Motion, protocol.Proposer, 0, protocol.AwaitingOpponent, strings.Repeat("A long motion sentence. ", 12)},
	}},
	{"empty", "No arguments given", nil},
}

// deepRows is a debate whose replies each answer the one before, deeper
// than the tree indents, with an APPEAL written on lines of its own.
func deepRows() []argRow {
	rows := []argRow{{protocol.Motion, protocol.Proposer, 0, protocol.AwaitingOpponent, "Retry failed webhooks with exponential backoff, at most 8 attempts."}}
	for i := 1; i < 9; i++ {
		role, state := protocol.Opponent, protocol.AwaitingProposer
		if i%2 == 0 {
			role, state = protocol.Proposer, protocol.AwaitingOpponent
		}
		rows = append(rows, argRow{protocol.Claim, role, i, state, fmt.Sprintf("Point %d: the retry schedule needs jitter, or every receiver sees the same burst after an outage.", i)})
	}
	rows = append(rows,
		argRow{protocol.Appeal, protocol.Proposer, 9, protocol.AwaitingArbitrator, "Question: jitter on every attempt, or only after the third?\nContext: plan v3 adds full jitter; CLAIM #9 asks for it from the first retry.\n\n- keep plan v3\n- jitter from the first retry"},
		argRow{protocol.Ruling, protocol.Arbitrator, 10, protocol.Closed, "Jitter from the first retry."},
	)
	return rows
}

func TestArgumentsGolden(t *testing.T) {
	for _, tt := range argCases {
		t.Run(tt.name, func(t *testing.T) {
			d, args := argFixture("debate-"+tt.name, tt.title, tt.rows)
			golden.Assert(t, "testdata/argtree_"+tt.name+".md", Arguments(d, args))
		})
	}
}

// TestArgumentsTreeShape checks, independently of the golden files, that each
// argument appears once in the tree, directly under its parent, and that the
// input order does not matter.
func TestArgumentsTreeShape(t *testing.T) {
	for _, tt := range argCases {
		t.Run(tt.name, func(t *testing.T) {
			d, args := argFixture("debate-"+tt.name, tt.title, tt.rows)
			out := string(Arguments(d, args))
			reversed := make([]protocol.Argument, len(args))
			for i, a := range args {
				reversed[len(args)-1-i] = a
			}
			if again := string(Arguments(d, reversed)); again != out {
				t.Fatalf("output depends on input order:\n%s", golden.Diff(out, again))
			}
			// Each argument sits under its parent, one level deeper, down to
			// argMaxIndent; deeper replies stay there and name their parent.
			tree := section(out, "## Argument tree")
			depth, indent, marked := map[int]int{}, map[int]int{}, map[int]int{}
			for _, line := range strings.Split(tree, "\n") {
				var seq, parent int
				trimmed := strings.TrimLeft(line, " ")
				item := strings.TrimPrefix(trimmed, "- ")
				if _, err := fmt.Sscanf(item, "↳ *reply to #%d* · ", &parent); err == nil {
					_, item, _ = strings.Cut(item, "* · ")
				}
				if _, err := fmt.Sscanf(item, "**#%d", &seq); err != nil || !strings.HasPrefix(trimmed, "- ") {
					continue
				}
				if _, dup := indent[seq]; dup {
					t.Errorf("#%d listed twice", seq)
				}
				indent[seq], marked[seq] = (len(line)-len(trimmed))/2, parent
			}
			if len(indent) != len(args) {
				t.Errorf("tree lists %d arguments, want %d:\n%s", len(indent), len(args), tree)
			}
			for i, r := range tt.rows {
				seq := i + 1
				if r.parent > 0 {
					depth[seq] = depth[r.parent] + 1
				}
				if want := min(depth[seq], argMaxIndent); indent[seq] != want {
					t.Errorf("#%d indented %d levels, want %d", seq, indent[seq], want)
				}
				want := 0
				if depth[seq] > argMaxIndent {
					want = r.parent
				}
				if marked[seq] != want {
					t.Errorf("#%d marked as a reply to #%d, want %d (0: no mark)", seq, marked[seq], want)
				}
			}
			timeline := section(out, "## State timeline")
			for _, a := range args {
				row := fmt.Sprintf("| %d | %s | %s | %s |", a.Seq, a.Type, a.Role, a.StateAfter)
				if !strings.Contains(timeline, row) {
					t.Errorf("timeline lacks %q", row)
				}
			}
		})
	}
}

// section returns the text after heading up to the next "## " heading.
func section(doc, heading string) string {
	_, rest, ok := strings.Cut(doc, heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}
