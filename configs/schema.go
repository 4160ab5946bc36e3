package configs

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

var (
	formatsType    = reflect.TypeFor[Formats]()
	arbitratorType = reflect.TypeFor[Arbitrator]()
	agentType      = reflect.TypeFor[Agent]()
)

// jsonFields maps the json names of a struct type to their field index. Fields
// tagged "-" and unexported fields are left out.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	fields := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f
	}
	return fields
}

// checker walks the syntax tree of a config against the Go types it decodes
// into. It records where every field is written, reports unknown fields and
// values of the wrong type, and removes those from the tree so that the rest
// still decodes.
type checker struct {
	src *source
	rep *reporter
}

// problem reports a structural problem at path and marks path so validation
// does not report it again.
func (c *checker) problem(path string, off int, format string, args ...any) {
	c.src.bad[path] = true
	c.rep.ps = append(c.rep.ps, c.rep.make(path, off, fmt.Sprintf(format, args...)))
}

// kindName names the JSON kind of a value for messages.
func kindName(v hujson.ValueTrimmed) string {
	switch v.Kind() {
	case 'n':
		return "null"
	case 't', 'f':
		return "true/false"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "list"
	}
	return "unknown value"
}

// check verifies that v fits t. keyOff is where to point for a problem with v
// itself (its key in the enclosing object, or the value's own start).
func (c *checker) check(v *hujson.Value, t reflect.Type, path string, keyOff int) {
	if v.Value.Kind() == 'n' {
		return // null leaves the field unset, as encoding/json does
	}
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '"' && !utf8.Valid(lit) {
		// encoding/json would silently turn the bad bytes into U+FFFD.
		c.problem(path, v.StartOffset, "the text is not valid UTF-8; save the file as UTF-8")
		v.Value = hujson.Literal("null")
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	wrong := func(want string) {
		c.problem(path, keyOff, "want %s, got %s", want, kindName(v.Value))
		v.Value = hujson.Literal("null")
	}
	if t == formatsType {
		switch v.Value.Kind() {
		case '"':
		case '[':
			c.checkList(v, reflect.TypeFor[string](), path)
		default:
			wrong(`a format name or a list of them, e.g. ["markdown", "html"]`)
		}
		return
	}
	if t == repositoryType {
		if k := v.Value.Kind(); k != 't' && k != 'f' && k != '"' {
			wrong(`true, false or a folder, e.g. "." or "../.."`)
		}
		return
	}
	if t == arbitratorType && v.Value.Kind() == '"' {
		if s := v.Value.(hujson.Literal).String(); s != HumanArbitrator {
			c.problem(path, keyOff, `want "human" or an object like {"model": "…"}, got %q`, s)
			v.Value = hujson.Literal("null")
		}
		return
	}
	if t == agentType && v.Value.Kind() == '"' {
		return // a kind alone; Validate checks it
	}
	switch t.Kind() {
	case reflect.Struct:
		if v.Value.Kind() != '{' {
			wrong("an object")
			return
		}
		c.checkObject(v, path, jsonFields(t), nil)
	case reflect.Map:
		if v.Value.Kind() != '{' {
			wrong("an object")
			return
		}
		c.checkObject(v, path, nil, t.Elem())
	case reflect.Slice:
		if v.Value.Kind() != '[' {
			wrong("a list")
			return
		}
		c.checkList(v, t.Elem(), path)
	case reflect.String:
		if v.Value.Kind() != '"' {
			wrong("a string")
		}
	case reflect.Bool:
		if k := v.Value.Kind(); k != 't' && k != 'f' {
			wrong("true or false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		c.checkNumber(v, t, path, keyOff)
	}
}

// checkNumber verifies that v is a number the numeric type t holds.
func (c *checker) checkNumber(v *hujson.Value, t reflect.Type, path string, keyOff int) {
	if v.Value.Kind() != '0' {
		c.problem(path, keyOff, "want a number, got %s", kindName(v.Value))
		v.Value = hujson.Literal("null")
		return
	}
	lit := string(v.Value.(hujson.Literal))
	var err error
	var want string
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err = strconv.ParseUint(lit, 10, t.Bits())
		want = fmt.Sprintf("want a whole number from 0 to %d, got %s", uint64(1)<<t.Bits()-1, lit)
	case reflect.Float32, reflect.Float64:
		_, err = strconv.ParseFloat(lit, t.Bits())
		want = fmt.Sprintf("number %s is out of range", lit)
	default:
		_, err = strconv.ParseInt(lit, 10, t.Bits())
		want = "want a whole number, got " + lit
	}
	if err != nil {
		c.problem(path, keyOff, "%s", want)
		v.Value = hujson.Literal("null")
	}
}

// checkList checks every element of an array against elem.
func (c *checker) checkList(v *hujson.Value, elem reflect.Type, path string) {
	arr := v.Value.(*hujson.Array)
	for i := range arr.Elements {
		e := &arr.Elements[i]
		p := indexPath(path, i)
		c.src.keys[p] = e.StartOffset
		c.check(e, elem, p, e.StartOffset)
	}
}

// checkObject checks the members of an object: against fields when the
// object is a struct, else (a map) every value against elem.
func (c *checker) checkObject(v *hujson.Value, path string, fields map[string]reflect.StructField, elem reflect.Type) {
	obj := v.Value.(*hujson.Object)
	c.src.objs[path] = v.StartOffset
	seen := map[string]bool{}
	kept := obj.Members[:0]
	for i := range obj.Members {
		m := obj.Members[i]
		name := m.Name.Value.(hujson.Literal).String()
		keyOff := m.Name.StartOffset
		var p string
		var t reflect.Type
		if fields != nil {
			p = joinPath(path, name)
			f, ok := fields[name]
			if !ok {
				c.unknown(path, name, keyOff, v, fields)
				continue
			}
			t = f.Type
		} else {
			p = keyPath(path, name)
			t = elem
		}
		if !utf8.Valid(m.Name.Value.(hujson.Literal)) {
			c.problem(p, keyOff, "the name is not valid UTF-8; save the file as UTF-8")
			continue
		}
		if seen[name] {
			c.problem(p, keyOff, "written twice; remove one of them")
		}
		seen[name] = true
		c.src.keys[p] = keyOff
		c.check(&m.Value, t, p, keyOff)
		kept = append(kept, m)
	}
	clear(obj.Members[len(kept):])
	obj.Members = kept
}

// unknown reports a member that matches no field, with the closest known
// name as a hint.
func (c *checker) unknown(path, name string, off int, v *hujson.Value, fields map[string]reflect.StructField) {
	p := joinPath(path, name)
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	slices.Sort(names)
	if guess, ok := Closest(name, names); ok {
		c.problem(p, off, "unknown field; did you mean %q?", guess)
		// The intended field is probably not written under its right name;
		// do not also report it as missing.
		if !hasMember(v, guess) {
			c.src.bad[joinPath(path, guess)] = true
		}
		return
	}
	c.problem(p, off, "unknown field; known fields here: %s", strings.Join(names, ", "))
}

// hasMember reports whether the object v has a member named name.
func hasMember(v *hujson.Value, name string) bool {
	for _, m := range v.Value.(*hujson.Object).Members {
		if m.Name.Value.(hujson.Literal).String() == name {
			return true
		}
	}
	return false
}

// Closest returns the known name nearest to name by edit distance, ignoring
// case, when it is near enough to be a likely typo: what a "did you mean"
// suggests, for config fields here and for commands and flags elsewhere.
func Closest(name string, known []string) (string, bool) {
	best, bestDist := "", -1
	lower := strings.ToLower(name)
	for _, k := range known {
		d := editDistance(lower, strings.ToLower(k))
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist < 0 {
		return "", false
	}
	limit := max(2, len([]rune(best))/3)
	return best, bestDist <= limit
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
