package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// appender is a value with a hand-written encoding.
type appender interface{ AppendJSON([]byte) []byte }

// sameAsMarshal fails t when v's AppendJSON differs from json.Marshal's
// bytes for v; it also checks that AppendJSON keeps what b held before.
func sameAsMarshal(t *testing.T, v appender) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got := v.AppendJSON([]byte("prefix"))
	if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[len("prefix"):], want) {
		t.Errorf("AppendJSON of %T:\n got %s\nwant prefix%s", v, got, want)
	}
}

// texts are strings that exercise every escaping rule of Marshal.
var texts = []string{
	"",
	"plain text",
	`quotes " and \ backslashes`,
	"<script>alert('x')</script> & more",
	"controls \x00\x01\x07\b\f\n\r\t\x1f\x7f end",
	"unicode: héllo, 中文, emoji 🎉, combining e\u0301",
	"separators \u2028 and \u2029 in text",
	"invalid utf-8 \xff\xfe and a cut rune \xe4\xb8",
	"\xed\xa0\x80 a surrogate's bytes",
	"\ufffd the replacement rune itself",
	"ends with a multi-byte rune é",
	"\x80",
}

func argumentWith(text string, parent *string) Argument {
	return Argument{ID: "a-" + text, DebateID: "d" + text, ParentID: parent, Type: "CLAIM", Role: text, Content: text,
		ClientRequestID: text + "k", Seq: 42, StateAfter: text, CreatedAt: "2026-01-02T03:04:05.000006Z"}
}

func TestAppendJSONMatchesMarshal(t *testing.T) {
	parent := "p<1>"
	empty := ""
	for _, text := range texts {
		a := argumentWith(text, &parent)
		motion := argumentWith(text, nil)
		motion.StateAfter = ""
		d := Debate{ID: text, Title: text, DebateType: "general_debate", State: text, CreatedAt: text, UpdatedAt: "x"}
		values := []appender{
			&a, &motion, &d,
			&Argument{ParentID: &empty},
			&WriteResult{Debate: d, Argument: a},
			&WriteResult{Debate: d, Argument: a, Replay: true, AutoRuling: &motion},
			&PollResult{HasNewArgument: true, Action: text, DebateID: text, DebateState: text, LastSeenSeq: 7,
				Argument: &a, Arguments: []Argument{motion, a}, AvailableActions: []string{text, "CLAIM"}},
			&PollResult{Argument: &a, Arguments: []Argument{a, a}, AvailableActions: []string{}},
			&PollResult{DebateID: text, LastSeenSeq: -3},
			&PollResult{Arguments: []Argument{}, AvailableActions: []string{}},
			&ErrorBody{Code: text, Message: text},
			&ErrorBody{Code: "ACTION_NOT_ALLOWED", Message: text, Suggestion: text, CurrentState: text, AllowedRoles: []string{}, RequestID: text},
			&ErrorBody{Code: "ACTION_NOT_ALLOWED", Message: "m", AllowedRoles: []string{"proposer", text}},
		}
		for _, v := range values {
			sameAsMarshal(t, v)
		}
	}
}

// TestPollResultCopiesEqualArgumentsOnly checks that an element of Arguments
// that differs from Argument in any one field is encoded for itself.
func TestPollResultCopiesEqualArgumentsOnly(t *testing.T) {
	p1, p2 := "p1", "p2"
	base := argumentWith("x", &p1)
	for _, change := range []func(*Argument){
		func(a *Argument) { a.ID = "other" },
		func(a *Argument) { a.DebateID = "other" },
		func(a *Argument) { a.ParentID = nil },
		func(a *Argument) { a.ParentID = &p2 },
		func(a *Argument) { a.Type = "other" },
		func(a *Argument) { a.Role = "other" },
		func(a *Argument) { a.Content = "other" },
		func(a *Argument) { a.ClientRequestID = "other" },
		func(a *Argument) { a.Seq++ },
		func(a *Argument) { a.StateAfter = "" },
		func(a *Argument) { a.CreatedAt = "other" },
		func(*Argument) {},
	} {
		other := base
		change(&other)
		parent := "p1"
		same := base
		same.ParentID = &parent // equal by value, not by pointer
		sameAsMarshal(t, &PollResult{Argument: &base, Arguments: []Argument{other, same}})
	}
}

func TestAppendTime(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800)
	for _, tm := range []time.Time{
		{},
		time.Date(2026, 11, 25, 8, 21, 58, 123456789, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, ist),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-5, 3, 4, 5, 6, 7, 8000, time.UTC),
		time.Unix(0, 0),
		time.Now(),
	} {
		want := ""
		if !tm.IsZero() {
			want = tm.UTC().Format(TimeLayout)
		}
		if got := string(AppendTime(nil, tm)); got != want {
			t.Errorf("AppendTime(%v) = %q, want %q", tm, got, want)
		}
		if got := FormatTime(tm); got != want {
			t.Errorf("FormatTime(%v) = %q, want %q", tm, got, want)
		}
	}
}

func FuzzAppendJSON(f *testing.F) {
	for _, s := range texts {
		f.Add(s, s+"x", 3, int64(1764058918123456789), true)
	}
	f.Fuzz(func(t *testing.T, a, b string, seq int, nanos int64, parent bool) {
		tm := time.Unix(0, nanos)
		arg := Argument{ID: a, DebateID: b, Type: a, Role: b, Content: a + b, ClientRequestID: b, Seq: seq,
			StateAfter: a, CreatedAt: FormatTime(tm)}
		if parent {
			arg.ParentID = &b
		}
		other := arg
		other.Content = b
		sameAsMarshal(t, &PollResult{HasNewArgument: parent, Action: b, DebateID: a, DebateState: b, LastSeenSeq: seq,
			Argument: &arg, Arguments: []Argument{other, arg}, AvailableActions: []string{a, b}})
		sameAsMarshal(t, &WriteResult{Debate: Debate{ID: a, Title: b, DebateType: a, State: b, CreatedAt: FormatTime(tm), UpdatedAt: a},
			Argument: arg, Replay: parent, AutoRuling: &other})
		sameAsMarshal(t, &ErrorBody{Code: a, Message: b, Suggestion: a, CurrentState: b, AllowedRoles: []string{b}, RequestID: a})
		if got, want := FormatTime(tm), tm.UTC().Format(TimeLayout); got != want {
			t.Errorf("FormatTime(%d) = %q, want %q", nanos, got, want)
		}
	})
}

// TestAppendJSONCoversEveryField fills every field of each hand-encoded type
// with a value of its own and compares with Marshal: a field added to one of
// these types fails here until its AppendJSON writes it too.
func TestAppendJSONCoversEveryField(t *testing.T) {
	for _, v := range []appender{&Debate{}, &Argument{}, &WriteResult{}, &PollResult{}, &ErrorBody{}} {
		n := 0
		fill(reflect.ValueOf(v).Elem(), &n)
		sameAsMarshal(t, v)
	}
}

// fill sets every field of v, recursively, to a value no other field holds.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("v%d", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	default:
		panic(fmt.Sprintf("fill: no value for a %s", v.Type()))
	}
}
