package render

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// verb matches a format verb; "%%" is a literal percent sign.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+#0]*[0-9.]*[a-zA-Z]`)

// languages are the words of every report language, with the decision
// sentences and the reasons of each.
var languages = map[string]struct {
	w  *words
	dw *decisionWords
}{"en": {&english, &decisionEnglish}, "zh": {&chinese, &decisionChinese}}

// TestNoFormatString fails on a string of a language that holds a format
// verb: every message with arguments is a function whose format go vet
// checks against its parameters, and the compiler checks every call.
func TestNoFormatString(t *testing.T) {
	t.Parallel()
	for lang, l := range languages {
		for _, v := range []reflect.Value{reflect.ValueOf(*l.w), reflect.ValueOf(*l.dw)} {
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.String && verb.MatchString(strings.ReplaceAll(f.String(), "%%", "")) {
					t.Errorf("%s %s.%s = %q: a format in a string, which go vet cannot check; make it a function", lang, v.Type().Name(), v.Type().Field(i).Name, f.String())
				}
			}
		}
	}
}

// TestFormatsTakeTheirArguments calls every message function of every
// language with arguments of its parameters' types and fails when what it
// writes shows a format that does not fit them ("%!d(string=…)",
// "%!(EXTRA …)", "%!s(MISSING)"), or a message that drops an argument.
func TestFormatsTakeTheirArguments(t *testing.T) {
	t.Parallel()
	checked := 0
	for lang, l := range languages {
		for _, v := range []reflect.Value{reflect.ValueOf(l.w).Elem(), reflect.ValueOf(l.dw).Elem()} {
			for i := range v.NumField() {
				f := v.Field(i)
				if f.Kind() != reflect.Func {
					continue
				}
				// The fields are unexported: reach the function through
				// its address.
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
				name := v.Type().Name() + "." + v.Type().Field(i).Name
				args, marks := sampleArgs(f.Type())
				out := f.Call(args)[0].String()
				checked++
				if strings.Contains(out, "%!") {
					t.Errorf("%s %s writes %q: its format does not fit its arguments", lang, name, out)
				}
				for _, m := range marks {
					if !strings.Contains(out, m) {
						t.Errorf("%s %s writes %q, without its argument %q", lang, name, out, m)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d message functions: the languages have more", checked)
	}
}

// sampleArgs returns an argument of each parameter of a message function,
// each telling from the others, and how each shows in the message.
func sampleArgs(ft reflect.Type) ([]reflect.Value, []string) {
	var args []reflect.Value
	var marks []string
	for i := range ft.NumIn() {
		switch ft.In(i).Kind() {
		case reflect.String:
			s := "ARG" + string(rune('A'+i))
			args, marks = append(args, reflect.ValueOf(s)), append(marks, s)
		case reflect.Int:
			n := 1000 + 111*i
			args, marks = append(args, reflect.ValueOf(n)), append(marks, strconv.Itoa(n))
		case reflect.Float64:
			args = append(args, reflect.ValueOf(12.5+float64(i)))
		default:
			args = append(args, reflect.Zero(ft.In(i)))
		}
	}
	return args, marks
}
