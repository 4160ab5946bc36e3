package tree

import (
	"slices"
	"strings"
	"unicode"

	"github.com/debatehq/debate/internal/stats"
)

// Kinds of move in the ledger.
const (
	// Conformity is a move toward the side most debaters held before the
	// rebuttals.
	Conformity = "conformity"
	// Persuasion is a move toward a side held by fewer.
	Persuasion = "persuasion"
)

// LedgerEntry is one debater at one child node: its side in the parent's
// judgment, its rebuttal's closing line, and the judge's reading of it. Its
// position is the node's Positions entry.
type LedgerEntry struct {
	Node    string `json:"node"`
	Debater string `json:"debater"`
	// Side is the debater's claim in the divergence the node debates, empty
	// when it took no side there.
	Side string `json:"side,omitempty"`
	// Line is the rebuttal's closing "Stance:" line as written.
	Line string `json:"line,omitempty"`
	// Own is the stance the line states; Judge the judge's reading.
	Own   Stance `json:"own"`
	Judge Stance `json:"judge"`
	// Moved is the judge's reading, or the debater's own when the judge
	// gave none; Toward the debater it moved toward, when known.
	Moved  bool   `json:"moved"`
	Toward string `json:"toward,omitempty"`
	// Disagree marks an entry whose line and the judge's reading differ.
	Disagree bool `json:"disagree,omitempty"`
	// Kind is Conformity or Persuasion for a move toward a debater with a
	// side, when one side held a majority before the rebuttals.
	Kind string `json:"kind,omitempty"`
	// LoneDissenter marks a debater alone on its side against a majority.
	LoneDissenter bool `json:"loneDissenter,omitempty"`
}

// Share is a count out of a total with its 95 % Wilson interval.
type Share = stats.Share

func share(k, n int) Share { return stats.NewShare(k, n) }

// StanceFigures sum up a ledger: moves of all entries, conformity and
// persuasion of the moves, lone dissenters who moved, and forced verdicts
// that favoured the side most debaters held.
type StanceFigures struct {
	Moved            Share `json:"moved"`
	Conformity       Share `json:"conformity"`
	Persuasion       Share `json:"persuasion"`
	LoneConceded     Share `json:"loneConceded"`
	MajorityVerdicts Share `json:"majorityVerdicts"`
}

// counts are the raw numbers behind StanceFigures, summed over topics.
type counts struct{ entries, moved, conform, persuade, lone, loneMoved, verdicts, majority int }

func (c counts) add(d counts) counts {
	return counts{c.entries + d.entries, c.moved + d.moved, c.conform + d.conform, c.persuade + d.persuade,
		c.lone + d.lone, c.loneMoved + d.loneMoved, c.verdicts + d.verdicts, c.majority + d.majority}
}

func (c counts) figures() StanceFigures {
	return StanceFigures{
		Moved: share(c.moved, c.entries), Conformity: share(c.conform, c.moved), Persuasion: share(c.persuade, c.moved),
		LoneConceded: share(c.loneMoved, c.lone), MajorityVerdicts: share(c.majority, c.verdicts),
	}
}

// ledger returns the topic's ledger, child nodes depth first and debaters
// in the order given, and the counts behind its figures.
func (t *Topic) ledger(debaters []Participant) ([]LedgerEntry, counts) {
	return t.ledgerOf(debaters, func(*Node) bool { return true })
}

// ledgerOf is the topic's ledger over the nodes keep takes.
func (t *Topic) ledgerOf(debaters []Participant, keep func(*Node) bool) ([]LedgerEntry, counts) {
	names := partyNames(t, debaters)
	var out []LedgerEntry
	var c counts
	t.Root.Walk(func(n *Node) {
		if !keep(n) {
			return
		}
		c = c.add(verdictCounts(n))
		if n.Divergence == nil {
			return
		}
		groups := sideGroups(n.Divergence)
		for _, p := range debaters {
			text, ok := n.Rebuttals[p.ID]
			if !ok {
				continue
			}
			e := entry(n, p.ID, text, names, groups)
			out = append(out, e)
			c.entries++
			if e.LoneDissenter {
				c.lone++
			}
			if !e.Moved {
				continue
			}
			c.moved++
			switch e.Kind {
			case Conformity:
				c.conform++
			case Persuasion:
				c.persuade++
			}
			if e.LoneDissenter {
				c.loneMoved++
			}
		}
	})
	return out, c
}

// entry is debater id's ledger entry at child node n.
func entry(n *Node, id, rebuttal string, names map[string]string, groups map[string]int) LedgerEntry {
	own, line := ParseStance(rebuttal)
	own.Toward = resolve(names, own.Toward)
	e := LedgerEntry{Node: n.ID, Debater: id, Side: n.Divergence.Sides[id], Line: line, Own: own, Judge: Stance{Stance: StanceNotStated}}
	if n.Judgment != nil {
		for _, s := range n.Judgment.Stances {
			if s.Party == id {
				e.Judge = s
				e.Judge.Party = ""
			}
		}
	}
	read := e.Judge
	if read.Stance == StanceNotStated {
		read = own
	}
	e.Moved = read.Stance == StanceMoved
	e.Toward = cmpOr(read.Toward, own.Toward)
	if !e.Moved {
		e.Toward = ""
	}
	e.Disagree = own.Stance != StanceNotStated && e.Judge.Stance != StanceNotStated &&
		(own.Stance != e.Judge.Stance || own.Toward != "" && e.Judge.Toward != "" && own.Toward != e.Judge.Toward)
	major := majorityKey(groups)
	mine := claimKey(e.Side)
	e.LoneDissenter = major != "" && e.Side != "" && groups[mine] == 1
	if e.Moved && major != "" && e.Toward != "" {
		if to := n.Divergence.Sides[e.Toward]; to != "" {
			e.Kind = Persuasion
			if claimKey(to) == major && mine != major {
				e.Kind = Conformity
			}
		}
	}
	return e
}

// verdictCounts counts n's forced verdicts on divergences where one side held
// a majority, and those that favoured it.
func verdictCounts(n *Node) counts {
	var c counts
	if n.Judgment == nil {
		return c
	}
	for _, v := range n.Judgment.ForcedVerdicts {
		i := slices.IndexFunc(n.Judgment.Divergences, func(d Divergence) bool { return d.ID == v.DivergenceID })
		if i < 0 || v.Favors == "" {
			continue
		}
		d := &n.Judgment.Divergences[i]
		major := majorityKey(sideGroups(d))
		if major == "" {
			continue
		}
		c.verdicts++
		if claim, ok := d.Sides[v.Favors]; ok && claimKey(claim) == major {
			c.majority++
		}
	}
	return c
}

// sideGroups counts the debaters per side of d; debaters whose claims read
// the same (ignoring case, spacing and punctuation) share a side.
func sideGroups(d *Divergence) map[string]int {
	g := map[string]int{}
	for _, claim := range d.Sides {
		g[claimKey(claim)]++
	}
	return g
}

// majorityKey is the side held by more debaters than any other, when at
// least two hold it; empty otherwise.
func majorityKey(groups map[string]int) string {
	best, n, tie := "", 0, false
	for k, c := range groups {
		switch {
		case c > n:
			best, n, tie = k, c, false
		case c == n:
			tie = true
		}
	}
	if tie || n < 2 {
		return ""
	}
	return best
}

// claimKey folds a claim to compare sides.
func claimKey(s string) string { return foldName(s) }

// foldName keeps only the lowercased letters and digits of s.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// partyNames maps every name a debater may be called by in a topic — id,
// label, alias — folded, to its id.
func partyNames(t *Topic, debaters []Participant) map[string]string {
	m := map[string]string{}
	for _, p := range debaters {
		m[foldName(p.ID)] = p.ID
		if p.Label != "" {
			m[foldName(p.Label)] = p.ID
		}
	}
	for _, a := range t.Aliases {
		m[foldName(a.Alias)] = a.Participant
	}
	return m
}

// resolve returns the id name stands for, or name when none does.
func resolve(names map[string]string, name string) string {
	if id, ok := names[foldName(name)]; ok && name != "" {
		return id
	}
	return name
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Tally fills every topic's ledger and stance figures, when any topic has
// a tree the run's figures, and the judge audit.
func (r *Run) Tally() {
	var all counts
	trees := false
	for i := range r.Topics {
		t := &r.Topics[i]
		if t.Root == nil {
			continue
		}
		trees = true
		var c counts
		t.Ledger, c = t.ledger(r.Debaters)
		f := c.figures()
		t.Stances = &f
		all = all.add(c)
	}
	if trees {
		f := all.figures()
		r.Stances = &f
	}
	r.Audit = r.audit()
}
