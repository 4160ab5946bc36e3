package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// verb matches a format verb with its optional explicit argument index;
// "%%" is a literal percent sign.
var verb = regexp.MustCompile(`%(\[(\d+)\])?[-+#0]*[0-9.]*([a-zA-Z%])`)

// formatArgs returns the verb each argument of format s takes, by its
// position, as fmt numbers them.
func formatArgs(s string) map[int]byte {
	out := map[int]byte{}
	next := 1
	for _, m := range verb.FindAllStringSubmatch(s, -1) {
		if m[3] == "%" {
			continue
		}
		if m[2] != "" {
			next, _ = strconv.Atoi(m[2])
		}
		out[next] = m[3][0]
		next++
	}
	return out
}

// TestFormatsAgree fails when a format string of one language takes other
// arguments than the same string of another: a count, a position or a verb
// that differs. The call sites pass one list of arguments to either
// language's string; go vet cannot see through the struct, this test can.
func TestFormatsAgree(t *testing.T) {
	t.Parallel()
	pairs := []struct {
		name   string
		en, zh reflect.Value
	}{
		{"words", reflect.ValueOf(english), reflect.ValueOf(chinese)},
		{"decisionWords", reflect.ValueOf(decisionEnglish), reflect.ValueOf(decisionChinese)},
	}
	for _, p := range pairs {
		for i := range p.en.NumField() {
			en, zh := p.en.Field(i), p.zh.Field(i)
			if en.Kind() != reflect.String {
				continue
			}
			name := p.name + "." + p.en.Type().Field(i).Name
			if a, b := formatArgs(en.String()), formatArgs(zh.String()); !reflect.DeepEqual(a, b) {
				t.Errorf("%s: English %q takes %v, Chinese %q takes %v", name, en.String(), args(a), zh.String(), args(b))
			}
		}
	}
}

// TestFormatArgs checks the reading of formats the test above relies on.
func TestFormatArgs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		format string
		want   map[int]byte
	}{
		{"%d of %d moved", map[int]byte{1: 'd', 2: 'd'}},
		{"%[2]d 人次中 %[1]d 次转变", map[int]byte{1: 'd', 2: 'd'}},
		{"95 %% interval %.0f–%.0f %%", map[int]byte{1: 'f', 2: 'f'}},
		{"plain", map[int]byte{}},
	} {
		if got := formatArgs(tt.format); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("formatArgs(%q) = %v, want %v", tt.format, args(got), args(tt.want))
		}
	}
	// A Chinese string that dropped an argument differs from its English.
	if reflect.DeepEqual(formatArgs("%s: %s switched from %s to %s at %s"), formatArgs("%s：%s 从 %s 回退到 %s")) {
		t.Error("a dropped argument went unseen")
	}
}

func args(m map[int]byte) string {
	s := ""
	for i := 1; i <= len(m)+1; i++ {
		if v, ok := m[i]; ok {
			s += strconv.Itoa(i) + ":%" + string(v) + " "
		}
	}
	return "[" + s + "]"
}

// TestFormatCalls reads every call in the package that formats one of the
// languages' strings (fmt.Sprintf, fmt.Fprintf, report.printf, with the
// format made of string literals and fields of words or decisionWords) and
// fails when the call passes other than as many arguments as the format
// takes, in English or in Chinese.
func TestFormatCalls(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	pkgs, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string][2]reflect.Value{
		"en": {reflect.ValueOf(english), reflect.ValueOf(decisionEnglish)},
		"zh": {reflect.ValueOf(chinese), reflect.ValueOf(decisionChinese)},
	}
	checked := 0
	for _, path := range pkgs {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Ellipsis.IsValid() {
				return true
			}
			at := formatIndex(call)
			if at < 0 || at >= len(call.Args) {
				return true
			}
			for lang, v := range langs {
				format, fields, ok := evalFormat(call.Args[at], v)
				if !ok || fields == 0 {
					return true
				}
				checked++
				want := 0
				for i := range formatArgs(format) {
					want = max(want, i)
				}
				if got := len(call.Args) - at - 1; got != want {
					t.Errorf("%s: %s format %q takes %d arguments, the call passes %d", fset.Position(call.Pos()), lang, format, want, got)
				}
			}
			return true
		})
	}
	if checked < 50 {
		t.Errorf("checked %d calls: the scan no longer finds the package's formats", checked)
	}
}

// formatIndex returns the position of the format among a call's arguments,
// -1 when the call formats nothing.
func formatIndex(call *ast.CallExpr) int {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return -1
	}
	switch sel.Sel.Name {
	case "Sprintf", "printf", "Errorf":
		return 0
	case "Fprintf":
		return 1
	}
	return -1
}

// evalFormat returns the format that e makes in one language (v holds its
// words and decisionWords), and how many of the language's fields it uses;
// false when e is made of anything else.
func evalFormat(e ast.Expr, v [2]reflect.Value) (string, int, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, 0, err == nil && e.Kind == token.STRING
	case *ast.BinaryExpr:
		a, n, ok := evalFormat(e.X, v)
		b, m, ok2 := evalFormat(e.Y, v)
		return a + b, n + m, ok && ok2 && e.Op == token.ADD
	case *ast.SelectorExpr:
		for _, s := range v {
			if f := s.FieldByName(e.Sel.Name); f.IsValid() && f.Kind() == reflect.String {
				return f.String(), 1, true
			}
		}
	}
	return "", 0, false
}
