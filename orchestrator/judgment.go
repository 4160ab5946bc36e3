package orchestrator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/tailscale/hujson"

	"github.com/debatehq/debate/internal/fold"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// scanFactor bounds the bytes the extraction reads while looking for
// objects to this many times the answer's length (plus scanSlack), so that a
// pathological answer costs linear time while an answer with many stray
// braces in its prose is still read to its end.
const (
	scanFactor = 16
	scanSlack  = 4096
)

// maxCandidates bounds how many objects of one answer are decoded and
// validated.
const maxCandidates = 64

// errNoJSON reports an answer that holds no JSON object at all.
var errNoJSON = errors.New("no JSON object found in the answer")

// candidates returns the JSON objects of an answer in the order an answer is
// looked for: the ```json fences from the last to the first (a judge may
// write a draft before its final answer), then the balanced {…} objects of
// the whole answer from the last to the first. JSON with comments or
// trailing commas is standardized (hujson) rather than dropped. Each
// candidate is valid JSON, and none is repeated or among sent: an object
// the model was sent is a quote, never its own answer. The answer reaching
// here is the model's answer alone: reasoning was split off by the
// providers.
func candidates(s string, sent quotes) []string {
	var out []string
	seen := map[string]bool{}
	add := func(objs []string) {
		for i := len(objs) - 1; i >= 0 && len(out) < maxCandidates; i-- {
			if !seen[objs[i]] {
				seen[objs[i]] = true
				out = append(out, objs[i])
			}
		}
	}
	var fenced []string
	for _, body := range fences(s) {
		if objs := sent.drop(objects(body)); len(objs) > 0 {
			fenced = append(fenced, objs[len(objs)-1])
		}
	}
	add(fenced)
	add(sent.drop(objects(s)))
	return out
}

// extractJSON returns the object an answer is read from: the first of its
// candidates.
func extractJSON(s string, sent quotes) (string, error) {
	if c := candidates(s, sent); len(c) > 0 {
		return c[0], nil
	}
	return "", errNoJSON
}

// quotes are the JSON objects of what a model was sent, every object
// nested in them included, in canonical form (keys sorted, no spaces).
type quotes map[string]bool

// quotesOf returns the JSON objects of msgs, read as candidates reads an
// answer: the prompt's examples and whatever the debaters' texts hold.
func quotesOf(msgs []providers.Message) quotes {
	q := quotes{}
	for _, m := range msgs {
		objs := objects(m.Content)
		for _, body := range fences(m.Content) {
			objs = append(objs, objects(body)...)
		}
		for _, obj := range objs {
			if v, ok := decodeAny(obj); ok {
				q.addAll(v)
			}
		}
	}
	return q
}

// addAll adds every object in v, v included.
func (q quotes) addAll(v any) {
	switch v := v.(type) {
	case map[string]any:
		if c, err := json.Marshal(v); err == nil {
			q[string(c)] = true
		}
		for _, e := range v {
			q.addAll(e)
		}
	case []any:
		for _, e := range v {
			q.addAll(e)
		}
	}
}

// drop returns objs without the objects in q; objs itself when q is empty.
func (q quotes) drop(objs []string) []string {
	if len(q) == 0 {
		return objs
	}
	out := objs[:0:0]
	for _, obj := range objs {
		v, ok := decodeAny(obj)
		if !ok {
			out = append(out, obj)
			continue
		}
		if c, err := json.Marshal(v); err != nil || !q[string(c)] {
			out = append(out, obj)
		}
	}
	return out
}

// decodeAny decodes a JSON object keeping its numbers as written.
func decodeAny(obj string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(obj))
	dec.UseNumber()
	var v any
	return v, dec.Decode(&v) == nil
}

// fences returns the text inside every ```json fence (case-insensitive), in
// order. An unclosed fence runs to the end of s.
func fences(s string) []string {
	const open = "```json"
	var out []string
	for {
		i := fold.Index(s, open)
		if i < 0 {
			return out
		}
		body := s[i+len(open):]
		j := strings.Index(body, "```")
		if j < 0 {
			return append(out, body)
		}
		out = append(out, body[:j])
		s = body[j+len("```"):]
	}
}

// objects returns the outermost balanced {…} of s that are JSON (after
// hujson's standardization), in order. An object inside another that is
// JSON is part of it; one inside braces that are not JSON counts on its own.
func objects(s string) []string {
	var out []string
	from, budget := 0, scanFactor*len(s)+scanSlack
	for budget > 0 {
		i := strings.IndexByte(s[from:], '{')
		if i < 0 {
			break
		}
		start := from + i
		end, ok := balanced(s, start)
		if ok {
			budget -= end - start
			if obj, ok := asJSON(s[start:end]); ok {
				out = append(out, obj)
				from = end
				continue
			}
		} else {
			budget -= len(s) - start
		}
		from = start + 1
	}
	return out
}

// asJSON returns obj as standard JSON: as it is when it is valid, else
// standardized by hujson (comments and trailing commas), which leaves obj
// itself untouched.
func asJSON(obj string) (string, bool) {
	// An object's first member starts with a quote; prose in braces does not.
	if rest := strings.TrimLeft(obj[1:], " \t\r\n"); rest == "" || rest[0] != '"' && rest[0] != '}' && rest[0] != '/' {
		return "", false
	}
	if json.Valid([]byte(obj)) {
		return obj, true
	}
	std, err := hujson.Standardize([]byte(obj)) // a fresh copy: Standardize rewrites its input
	if err != nil || !json.Valid(std) {
		return "", false
	}
	return string(std), true
}

// balanced returns the end (exclusive) of the object starting at s[start],
// which is '{', reading strings, escapes and comments as hujson does.
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
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
					i += j
				} else {
					i = len(s)
				}
			} else if i+1 < len(s) && s[i+1] == '*' {
				j := strings.Index(s[i+2:], "*/")
				if j < 0 {
					return 0, false
				}
				i += j + 3
			}
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

// reading is what a judge's answer came to.
type reading struct {
	// judgment is the judgment read, nil when none could be: complete when
	// err is nil, else a forced-verdict judgment whose only fault is the
	// verdicts missing.
	judgment *tree.Judgment
	// missing lists the divergences (by the judge's ids) that judgment
	// leaves without a verdict; err is then a *missingVerdicts.
	missing []string
	// err says why the answer cannot be used as it is; nil when it can.
	err error
}

// usable reports whether the reading gave a judgment to keep: a complete
// one, or one whose only fault is missing verdicts.
func (r reading) usable() bool { return r.judgment != nil }

// parseJudgment extracts, decodes and validates a judge's answer. forced tells
// whether the forced-verdict prompt was asked; parties are the known debater
// ids. The judgment comes back normalized (empty slices, not nil) with the
// judge's own divergence ids still in place.
//
// The judgment is the first of the answer's candidates (see candidates),
// objects of what the judge was sent (sent) left out, that validates. When
// none does, the first one whose only fault is missing verdicts comes back
// with what it misses; otherwise the error is that of the first candidate,
// the judge's last word.
func parseJudgment(answer string, sent quotes, forced bool, parties []string) reading {
	objs := candidates(answer, sent)
	if len(objs) == 0 {
		return reading{err: errNoJSON}
	}
	var first error
	var partial reading
	for _, obj := range objs {
		r := decodeJudgment(obj, forced, parties)
		if r.err == nil {
			return r
		}
		if first == nil {
			first = r.err
		}
		if r.usable() && !partial.usable() {
			partial = r
		}
	}
	if partial.usable() {
		return partial
	}
	return reading{err: first}
}

// decodeJudgment decodes and validates one JSON object as a judgment.
func decodeJudgment(obj string, forced bool, parties []string) reading {
	obj, stances := takeStances(obj)
	dec := json.NewDecoder(strings.NewReader(listedSides(obj)))
	dec.DisallowUnknownFields()
	var j tree.Judgment
	if err := dec.Decode(&j); err != nil {
		return reading{err: fmt.Errorf("decode judgment: %w", err)}
	}
	normalize(&j)
	canonicalParties(&j, parties)
	j.Stances = readStances(stances, parties)
	err := validate(&j, forced, parties)
	var mv *missingVerdicts
	switch {
	case err == nil:
		return reading{judgment: &j}
	case errors.As(err, &mv):
		return reading{judgment: &j, missing: mv.ids, err: err}
	}
	return reading{err: err}
}

// takeStances removes the judge's stance readings from a judgment object
// and returns them apart: they are read leniently, and an answer is never
// refused for them.
func takeStances(obj string) (string, json.RawMessage) {
	if !strings.Contains(obj, `"stances"`) {
		return obj, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(obj), &top) != nil {
		return obj, nil
	}
	raw, ok := top["stances"]
	if !ok {
		return obj, nil
	}
	delete(top, "stances")
	rest, err := json.Marshal(top)
	if err != nil {
		return obj, nil
	}
	return string(rest), raw
}

// readStances returns the stance readings in raw that name a known party
// and say kept or moved, with names folded to the parties' ids as
// canonicalParties does; a toward naming no party is dropped, and so is
// anything that does not read.
func readStances(raw json.RawMessage, parties []string) []tree.Stance {
	var in []struct {
		Party, Stance, Toward, Reason string
	}
	if len(raw) == 0 || json.Unmarshal(raw, &in) != nil {
		return nil
	}
	canon := partyCanon(parties)
	var out []tree.Stance
	for _, s := range in {
		kind := tree.StanceKind(strings.ToLower(strings.TrimSpace(s.Stance)))
		party := canon(s.Party)
		if kind != tree.StanceKept && kind != tree.StanceMoved || !slices.Contains(parties, party) {
			continue
		}
		st := tree.Stance{Party: party, Stance: kind, Reason: s.Reason}
		if to := canon(s.Toward); kind == tree.StanceMoved && slices.Contains(parties, to) && to != party {
			st.Toward = to
		}
		out = append(out, st)
	}
	return out
}

// listedSides rewrites divergences whose "sides" is a list of {party,
// claim} — the shape of the strict judgment schema — to the map from party
// to claim of the judgment; anything else comes back unchanged.
func listedSides(obj string) string {
	if !strings.Contains(obj, `"sides"`) {
		return obj
	}
	var top map[string]json.RawMessage
	var divs []map[string]json.RawMessage
	if json.Unmarshal([]byte(obj), &top) != nil || json.Unmarshal(top["divergences"], &divs) != nil {
		return obj
	}
	changed := false
	for _, d := range divs {
		raw := bytes.TrimSpace(d["sides"])
		var sides []struct {
			Party string `json:"party"`
			Claim string `json:"claim"`
		}
		if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &sides) != nil {
			continue
		}
		m := make(map[string]string, len(sides))
		for _, s := range sides {
			m[s.Party] = s.Claim
		}
		d["sides"], _ = json.Marshal(m)
		changed = true
	}
	if !changed {
		return obj
	}
	top["divergences"], _ = json.Marshal(divs)
	out, _ := json.Marshal(top)
	return string(out)
}

// missingVerdicts is the only fault of a forced-verdict answer whose
// consensus and divergences are valid but which leaves divergences without a
// verdict.
type missingVerdicts struct {
	ids      []string // the divergences without a verdict
	problems []error
}

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
	canon := partyCanon(parties)
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
	for i := range j.ForcedVerdicts {
		if v := &j.ForcedVerdicts[i]; v.Favors != "" && !strings.EqualFold(v.Favors, favorsNone) {
			v.Favors = canon(v.Favors)
		} else if v.Favors != "" {
			v.Favors = favorsNone
		}
	}
}

// partyCanon returns the function that maps a name a judge wrote to the
// one id of parties it matches ignoring case, spaces and punctuation, or
// leaves it as written.
func partyCanon(parties []string) func(string) string {
	byFold := map[string]string{}
	for _, p := range parties {
		f := foldID(p)
		if _, taken := byFold[f]; taken {
			byFold[f] = "" // ambiguous: match neither
			continue
		}
		byFold[f] = p
	}
	return func(name string) string {
		if slices.Contains(parties, name) {
			return name
		}
		if id := byFold[foldID(name)]; id != "" {
			return id
		}
		return name
	}
}

// favorsNone is a verdict's favors when it takes no debater's side.
const favorsNone = "none"

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
		if v.Favors != "" && v.Favors != favorsNone && !slices.Contains(parties, v.Favors) {
			bad("forcedVerdicts[%d].favors: unknown party %q (known: %s, or %q)", i, v.Favors, strings.Join(parties, ", "), favorsNone)
		}
	}
	var undecided []string
	for i, d := range j.Divergences {
		switch n := decided[d.ID]; {
		case n == 0:
			undecided = append(undecided, d.ID)
			missing = append(missing, fmt.Errorf("divergences[%d]: %q has no forced verdict", i, d.ID))
		case n > 1:
			bad("divergences[%d]: %q has %d forced verdicts, want one", i, d.ID, n)
		}
	}
	if len(errs) == 0 && len(missing) > 0 {
		return &missingVerdicts{ids: undecided, problems: missing}
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
