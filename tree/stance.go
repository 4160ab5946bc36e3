package tree

import (
	"regexp"
	"strings"
)

// StanceKind is what a debater did with its position in a node's rebuttal.
type StanceKind string

// The stances a rebuttal can close with, or that the judge can read in it.
const (
	StanceKept  StanceKind = "kept"
	StanceMoved StanceKind = "moved"
	// StanceNotStated is a rebuttal without a readable "Stance:" line, or a
	// judge that gave no reading.
	StanceNotStated StanceKind = "not stated"
)

// Stance is a debater's stance after a node's rebuttals: kept, or moved,
// toward a party when one is named. In a judgment Party names the debater
// read; in a closing line Toward is the name as the debater wrote it until
// the ledger resolves it to an id.
type Stance struct {
	Party  string     `json:"party,omitempty"`
	Stance StanceKind `json:"stance"`
	Toward string     `json:"toward,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

// stanceLine matches a closing "Stance:" line (or its Chinese form), with any
// Markdown emphasis around the keyword.
var stanceLine = regexp.MustCompile(`(?im)^[\s>*_#-]*(?:stance|立场)[*_\s]*[:：][*_\s]*(.+?)\s*$`)

// stanceBody splits what follows the keyword: kept, or moved with an
// optional party and an optional reason after a dash.
var stanceBody = regexp.MustCompile(`(?i)^(kept|保持|moved|转向)(?:\s*(?:to|toward|towards)?\s*([^—–:：]*?))?\s*(?:(?:—|–|--|\s-\s|[:：])\s*(.*))?$`)

// ParseStance reads the last "Stance:" line of a rebuttal. A missing or
// malformed line is StanceNotStated, never an error; line is the line as
// written, empty when there is none.
func ParseStance(rebuttal string) (s Stance, line string) {
	all := stanceLine.FindAllStringSubmatch(rebuttal, -1)
	if len(all) == 0 {
		return Stance{Stance: StanceNotStated}, ""
	}
	last := all[len(all)-1]
	line = strings.TrimSpace(last[0])
	m := stanceBody.FindStringSubmatch(strings.Trim(last[1], "*_ "))
	if m == nil {
		return Stance{Stance: StanceNotStated}, line
	}
	kind := StanceMoved
	if strings.EqualFold(m[1], "kept") || m[1] == "保持" {
		kind = StanceKept
	}
	s = Stance{Stance: kind, Reason: strings.TrimSpace(m[3])}
	if kind == StanceMoved {
		s.Toward = strings.Trim(m[2], " *_\"'“”")
	}
	return s, line
}
