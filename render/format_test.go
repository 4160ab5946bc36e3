package render

import (
	"reflect"
	"regexp"
	"strconv"
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
