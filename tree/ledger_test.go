package tree

import (
	"fmt"
	"testing"
)

// brief is figures as "moved/of conformity persuasion".
func brief(f *StanceFigures) string {
	return fmt.Sprintf("%d/%d c%d p%d", f.Moved.Count, f.Moved.Of, f.Conformity.Count, f.Persuasion.Count)
}

// stanceTopic is a topic whose root split into d1, where c alone disagrees
// with a and b, and d2 with the same sides; rebuttals close as given and
// the judge reads as given per node.
func stanceTopic(d1, d2 map[string]string, read1, read2 []Stance) Topic {
	sides := map[string]string{"a": "Cache it", "b": "cache it.", "c": "Recompute"}
	node := func(id string, rebuttals map[string]string, read []Stance) *Node {
		n := NewNode(id, id, "")
		n.Divergence = &Divergence{ID: id, Sides: sides, Uninvolved: []string{}}
		n.Rebuttals = rebuttals
		n.Judgment = &Judgment{Stances: read}
		return n
	}
	root := NewNode(RootID, "t", "")
	root.Children = []*Node{node("d1", d1, read1), node("d2", d2, read2)}
	return Topic{ID: "t", Root: root, Aliases: []Alias{{"Debater 1", "a"}, {"Debater 2", "b"}, {"Debater 3", "c"}}}
}

func TestLedger(t *testing.T) {
	t.Parallel()
	kept := map[string]string{"a": "Stance: kept", "b": "Stance: kept", "c": "Stance: kept"}
	moved := map[string]string{"a": "Stance: kept", "b": "no line", "c": "…\nStance: moved to Debater 1 — the cache wins"}
	cMoved := []Stance{{Party: "c", Stance: StanceMoved, Toward: "a"}}
	tests := []struct {
		name      string
		topic     Topic
		line      string
		disagree  []string // node/debater of entries that disagree
		conformed int
		lone      Share
	}{
		{"lone dissenter conforms", stanceTopic(moved, kept, cMoved, nil), "1/6 c1 p0", nil, 1, share(1, 2)},
		{"kept by its line, moved by the judge", stanceTopic(kept, kept, nil, cMoved), "1/6 c1 p0", []string{"d2/c"}, 1, share(1, 2)},
		{"nothing moved", stanceTopic(kept, kept, nil, nil), "0/6 c0 p0", nil, 0, share(0, 2)},
		{"a persuasion toward the minority", stanceTopic(map[string]string{"a": "Stance: moved to Debater 3 — fine"}, kept, nil, nil), "1/4 c0 p1", nil, 0, share(0, 1)},
	}
	ds := []Participant{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := Run{Debaters: ds, Topics: []Topic{tt.topic}}
			run.Tally()
			got := run.Topics[0]
			if line := brief(got.Stances); line != tt.line {
				t.Errorf("line = %q, want %q", line, tt.line)
			}
			var dis []string
			for _, e := range got.Ledger {
				if e.Disagree {
					dis = append(dis, e.Node+"/"+e.Debater)
				}
			}
			if len(dis) != len(tt.disagree) || len(dis) > 0 && dis[0] != tt.disagree[0] {
				t.Errorf("disagreements = %v, want %v", dis, tt.disagree)
			}
			if c := got.Stances.Conformity.Count; c != tt.conformed {
				t.Errorf("conformity = %d, want %d", c, tt.conformed)
			}
			if got.Stances.LoneConceded != tt.lone {
				t.Errorf("lone conceded = %+v, want %+v", got.Stances.LoneConceded, tt.lone)
			}
			if *run.Stances != *got.Stances {
				t.Errorf("run figures %+v differ from the only topic's %+v", *run.Stances, *got.Stances)
			}
		})
	}
}

// TestCombineStances: runs' figures add up, and a run read twice (a
// re-run answered from the cache) adds nothing the second time.
func TestCombineStances(t *testing.T) {
	t.Parallel()
	kept := map[string]string{"a": "Stance: kept", "b": "Stance: kept", "c": "Stance: kept"}
	moved := map[string]string{"a": "Stance: kept", "b": "no line", "c": "…\nStance: moved to Debater 1 — the cache wins"}
	ds := []Participant{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	one := &Run{Debaters: ds, Topics: []Topic{stanceTopic(moved, kept, nil, nil)}}
	other := &Run{Debaters: ds, Topics: []Topic{stanceTopic(kept, kept, nil, nil)}}
	other.Topics[0].ID = "u"
	tests := []struct {
		name     string
		runs     []*Run
		line     string
		repeated int
	}{
		{"one run", []*Run{one}, "1/6 c1 p0", 0},
		{"two runs", []*Run{one, other}, "1/12 c1 p0", 0},
		{"a run and its re-run", []*Run{one, other, one}, "1/12 c1 p0", 3},
	}
	for _, tt := range tests {
		ev := Combine(tt.runs...)
		if ev.Stances == nil || brief(ev.Stances) != tt.line || ev.Repeated != tt.repeated {
			t.Errorf("%s: combined %+v, want %s with %d nodes repeated", tt.name, ev, tt.line, tt.repeated)
		}
	}
	if Combine(&Run{}).Stances != nil {
		t.Error("no trees combined to figures")
	}
}
