package orchestrator

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/debatehq/debate/tree"
)

// maxStarts bounds how many opening braces extractJSON tries as the start of
// an object, so that a pathological answer costs linear time.
const maxStarts = 64

// errNoJSON reports an answer that holds no JSON object at all.
var errNoJSON = errors.New("no JSON object found in the answer")

// extractJSON returns the JSON object in a judge's answer: the content of the
// first ```json fence when it holds one, else the first balanced {…} that is
// valid JSON. Whatever it returns is valid JSON.
func extractJSON(s string) (string, error) {
	if body, ok := fenced(s); ok {
		if obj, err := firstObject(body); err == nil {
			return obj, nil
		}
	}
	return firstObject(s)
}

// fenced returns the text inside the first ```json fence (case-insensitive).
// An unclosed fence runs to the end of s.
func fenced(s string) (string, bool) {
	i := indexFold(s, "```json")
	if i < 0 {
		return "", false
	}
	body := s[i+len("```json"):]
	if j := strings.Index(body, "```"); j >= 0 {
		body = body[:j]
	}
	return body, true
}

// indexFold is strings.Index ignoring ASCII case. Unlike searching a
// lowercased copy, its offsets stay those of s whatever bytes s holds.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// firstObject returns the first balanced {…} of s that is valid JSON. Braces
// inside JSON strings, escapes included, do not count.
func firstObject(s string) (string, error) {
	from := 0
	for range maxStarts {
		i := strings.IndexByte(s[from:], '{')
		if i < 0 {
			break
		}
		start := from + i
		if end, ok := balanced(s, start); ok {
			if obj := s[start:end]; json.Valid([]byte(obj)) {
				return obj, nil
			}
		}
		from = start + 1
	}
	return "", errNoJSON
}

// balanced returns the end (exclusive) of the object starting at s[start],
// which is '{', reading strings and escapes as JSON does.
func balanced(s string, start int) (int, bool) {
	depth := 0
	inString, escaped := false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// parseJudgment extracts, decodes and validates a judge's answer. forced tells
// whether the forced-verdict prompt was asked; parties are the known debater
// ids. The judgment comes back normalized (empty slices, not nil) with the
// judge's own divergence ids still in place.
func parseJudgment(answer string, forced bool, parties []string) (*tree.Judgment, error) {
	obj, err := extractJSON(answer)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(obj))
	dec.DisallowUnknownFields()
	var j tree.Judgment
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("decode judgment: %w", err)
	}
	normalize(&j)
	canonicalParties(&j, parties)
	if err := validate(&j, forced, parties); err != nil {
		if _, ok := err.(*missingVerdicts); ok {
			return &j, err
		}
		return nil, err
	}
	return &j, nil
}

// missingVerdicts is the only fault of a forced-verdict answer whose
// consensus and divergences are valid but which leaves divergences without a
// verdict.
type missingVerdicts struct{ problems []error }

func (m *missingVerdicts) Error() string { return errors.Join(m.problems...).Error() }

// normalize replaces absent lists and maps by empty ones.
func normalize(j *tree.Judgment) {
	if j.Consensus == nil {
		j.Consensus = []tree.Consensus{}
	}
	if j.Divergences == nil {
		j.Divergences = []tree.Divergence{}
	}
	for i := range j.Divergences {
		d := &j.Divergences[i]
		if d.Sides == nil {
			d.Sides = map[string]string{}
		}
		if d.Uninvolved == nil {
			d.Uninvolved = []string{}
		}
	}
}

// canonicalParties rewrites party names that judges commonly write instead of
// the ids they were given ("Party A", "party_a" for party-a) to those ids,
// when they match exactly one id ignoring case, spaces and punctuation.
// Anything else is left for validate to report.
func canonicalParties(j *tree.Judgment, parties []string) {
	byFold := map[string]string{}
	for _, p := range parties {
		f := foldID(p)
		if _, taken := byFold[f]; taken {
			byFold[f] = "" // ambiguous: match neither
			continue
		}
		byFold[f] = p
	}
	canon := func(name string) string {
		if slices.Contains(parties, name) {
			return name
		}
		if id := byFold[foldID(name)]; id != "" {
			return id
		}
		return name
	}
	for i := range j.Divergences {
		d := &j.Divergences[i]
		sides := make(map[string]string, len(d.Sides))
		var aliases []string
		for name, claim := range d.Sides {
			if slices.Contains(parties, name) {
				sides[name] = claim
			} else {
				aliases = append(aliases, name)
			}
		}
		slices.Sort(aliases)
		for _, name := range aliases {
			id := canon(name)
			if _, dup := sides[id]; dup {
				id = name // two names for one party: keep both for validate to report
			}
			sides[id] = d.Sides[name]
		}
		d.Sides = sides
		for k, name := range d.Uninvolved {
			d.Uninvolved[k] = canon(name)
		}
	}
}

// foldID keeps only the lowercased letters and digits of s.
func foldID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// validate checks a decoded judgment against the rules of its prompt and
// reports every problem found, joined. When the only problems are
// divergences without a verdict, the error is a *missingVerdicts.
func validate(j *tree.Judgment, forced bool, parties []string) error {
	var errs, missing []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for i, c := range j.Consensus {
		if strings.TrimSpace(c.Point) == "" {
			bad("consensus[%d].point: must not be empty", i)
		}
	}
	ids := map[string]bool{}
	for i, d := range j.Divergences {
		switch {
		case d.ID == "" && forced:
			bad("divergences[%d].id: required when verdicts refer to it", i)
		case d.ID != "" && ids[d.ID]:
			bad("divergences[%d].id: %q used twice", i, d.ID)
		}
		ids[d.ID] = true
		if strings.TrimSpace(d.Title) == "" {
			bad("divergences[%d].title: must not be empty", i)
		}
		if len(d.Sides) == 0 {
			bad("divergences[%d].sides: must name at least one party", i)
		}
		for _, p := range sortedKeys(d.Sides) {
			if !slices.Contains(parties, p) {
				bad("divergences[%d].sides: unknown party %q (known: %s)", i, p, strings.Join(parties, ", "))
			}
		}
		for _, p := range d.Uninvolved {
			switch {
			case !slices.Contains(parties, p):
				bad("divergences[%d].uninvolved: unknown party %q (known: %s)", i, p, strings.Join(parties, ", "))
			case hasKey(d.Sides, p):
				bad("divergences[%d].uninvolved: party %q also has a side", i, p)
			}
		}
	}
	if !forced {
		if len(j.ForcedVerdicts) > 0 {
			bad("forcedVerdicts: not expected in a triage answer")
		}
		return errors.Join(errs...)
	}
	decided := map[string]int{}
	for i, v := range j.ForcedVerdicts {
		if !ids[v.DivergenceID] || v.DivergenceID == "" {
			bad("forcedVerdicts[%d].divergenceId: unknown divergence %q", i, v.DivergenceID)
		}
		decided[v.DivergenceID]++
		if strings.TrimSpace(v.Recommendation) == "" {
			bad("forcedVerdicts[%d].recommendation: must not be empty", i)
		}
	}
	for i, d := range j.Divergences {
		switch n := decided[d.ID]; {
		case n == 0:
			missing = append(missing, fmt.Errorf("divergences[%d]: %q has no forced verdict", i, d.ID))
		case n > 1:
			bad("divergences[%d]: %q has %d forced verdicts, want one", i, d.ID, n)
		}
	}
	if len(errs) == 0 && len(missing) > 0 {
		return &missingVerdicts{problems: missing}
	}
	return errors.Join(append(errs, missing...)...)
}

// renumber replaces the judge's divergence ids by the program's (children of
// node), in the divergences and in the verdicts that refer to them, and
// returns the mapping from the judge's ids to the program's.
func renumber(j *tree.Judgment, node string) map[string]string {
	ids := make(map[string]string, len(j.Divergences))
	for i := range j.Divergences {
		id := tree.ChildID(node, i)
		if j.Divergences[i].ID != "" {
			ids[j.Divergences[i].ID] = id
		}
		j.Divergences[i].ID = id
	}
	for i := range j.ForcedVerdicts {
		j.ForcedVerdicts[i].DivergenceID = ids[j.ForcedVerdicts[i].DivergenceID]
	}
	return ids
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
