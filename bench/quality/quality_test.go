package quality

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestReadAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
		ok               bool
	}{
		{"number", "6+2*3 is 12.\nAnswer: 12", "12", true},
		{"zh full-width colon", "计算得到 12。\n答案：12", "12", true},
		{"zh ascii colon", "答案: 十二", "十二", true},
		{"bold label", "**Answer:** 42.", "42", true},
		{"lower case", "final answer: Paris", "Paris", true},
		{"missing", "The result is 12.", "", false},
		{"label without value", "Answer:", "", false},
		{"placeholder echoed", "End with `Answer: <value>`.", "", false},
		{"label without colon", "The answer is 12", "", false},
		{"last of several lines", "Answer: 10\nOn reflection:\nAnswer: 11", "11", true},
		{"last on one line", "Answer: 10, no wait, Answer: 11", "11", true},
		{"trailing prose ignored", "Answer: 7\n\nThanks for reading.", "7", true},
		{"leading point kept", "Answer: .5", ".5", true},
		{"final full stop dropped", "Answer: 3.5.", "3.5", true},
		{"full-width digits and stop", "答案：４２．", "４２", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := ReadAnswer(tt.text)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ReadAnswer(%q) = %q, %v; want %q, %v", tt.text, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		got, want string
		same      bool
	}{
		{"42", "42", true},
		{"42.0", "42", true},
		{"-3", "-3.00", true},
		{"1,000", "1000", true},
		{"12,345.5", "12345.5", true},
		{".5", "0.5", true},
		{"-.5", "-0.5", true},
		{"3,5", "3.5", true},
		{"3,5", "35", false},
		{"0,25", "0.25", true},
		{"1,2,3", "123", false},
		{"12,34.5", "1234.5", false},
		{"４２", "42", true},
		{"－１２．５", "-12.5", true},
		{"１，０００", "1000", true},
		{"−7", "-7", true},
		{"4.2e1", "42", true},
		{"41", "42", false},
		{" Paris ", "paris", true},
		{"PARIS", "Paris", true},
		{"Lyon", "Paris", false},
		{"42 apples", "42", false},
	}
	for _, tt := range tests {
		if got := Same(tt.got, tt.want); got != tt.same {
			t.Errorf("Same(%q, %q) = %v, want %v", tt.got, tt.want, got, tt.same)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func pairs(both, onlyA, onlyB, neither int) (a, b []bool) {
	add := func(n int, x, y bool) {
		for range n {
			a, b = append(a, x), append(b, y)
		}
	}
	add(both, true, true)
	add(onlyA, true, false)
	add(onlyB, false, true)
	add(neither, false, false)
	return a, b
}

func TestMcNemar(t *testing.T) {
	t.Parallel()
	tests := []struct {
		onlyA, onlyB int
		p            float64
	}{
		{10, 2, 158.0 / 4096}, // 2·(C(12,0)+C(12,1)+C(12,2))/2^12
		{3, 0, 0.25},
		{0, 0, 1},
		{5, 5, 1},
	}
	for _, tt := range tests {
		a, b := pairs(20, tt.onlyA, tt.onlyB, 7)
		if got := McNemar(a, b); !near(got, tt.p, 1e-12) {
			t.Errorf("McNemar(%d, %d) = %v, want %v", tt.onlyA, tt.onlyB, got, tt.p)
		}
	}
}

func TestPairedDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                        string
		both, onlyA, onlyB, neither int
		mean, low, high, tol        float64
	}{
		{"no discordant pair", 30, 0, 0, 10, 0, 0, 0, 0},
		{"a always better", 0, 40, 0, 0, 1, 1, 1, 0},
		// normal approximation: 0.2 ± 1.96·√(0.2·0.8/100)
		{"a better on a fifth", 50, 20, 0, 30, 0.2, 0.1216, 0.2784, 0.02},
		{"symmetric", 40, 15, 15, 30, 0, -0.1074, 0.1074, 0.02},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, b := pairs(tt.both, tt.onlyA, tt.onlyB, tt.neither)
			mean, ci := PairedDiff(a, b, 1)
			if !near(mean, tt.mean, 1e-12) || !near(ci.Low, tt.low, tt.tol) || !near(ci.High, tt.high, tt.tol) {
				t.Errorf("PairedDiff = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f] ± %v", mean, ci.Low, ci.High, tt.mean, tt.low, tt.high, tt.tol)
			}
			if _, again := PairedDiff(a, b, 1); again != ci {
				t.Errorf("the same seed drew %v, then %v", ci, again)
			}
		})
	}
}

func TestVoteAccuracy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		p    float64
		want float64
	}{
		{1, 0.6, 0.6},
		// p³ + 3p²(1−p) + 3p(1−p)²/3
		{3, 0.6, 0.216 + 0.432 + 0.096},
		{3, 1, 1},
		{3, 0, 0},
	}
	for _, tt := range tests {
		if got := VoteAccuracy(tt.n, tt.p); !near(got, tt.want, 1e-12) {
			t.Errorf("VoteAccuracy(%d, %v) = %v, want %v", tt.n, tt.p, got, tt.want)
		}
	}
}

func TestArithmetic(t *testing.T) {
	t.Parallel()
	ps := Arithmetic(50, 7)
	if again := Arithmetic(50, 7); again[49] != ps[49] {
		t.Fatalf("the same seed gave %v, then %v", ps[49], again[49])
	}
	if other := Arithmetic(50, 8); other[0] == ps[0] && other[1] == ps[1] {
		t.Errorf("seeds 7 and 8 gave the same problems")
	}
	for _, p := range ps {
		var v [6]int
		_, err := fmt.Sscanf(p.Question, "What is the result of %d+%d*%d+%d-%d*%d?", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5])
		if err != nil {
			t.Fatalf("%s: %q: %v", p.ID, p.Question, err)
		}
		for _, x := range v {
			if x < 0 || x > 29 {
				t.Errorf("%s: %d is outside 0–29", p.ID, x)
			}
		}
		if want := v[0] + v[1]*v[2] + v[3] - v[4]*v[5]; !Same(p.Answer, strconv.Itoa(want)) {
			t.Errorf("%s: %q has answer %s, want %d", p.ID, p.Question, p.Answer, want)
		}
	}
}

func TestReadTasks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, err string
		ids           []string
		passages      []string
	}{
		{"a passage", `{"id":"a","question":"How many crates?","answer":12,"passage":"The ledger records 12 crates.\nNothing else."}` + "\n" + `{"id":"b","question":"2+2?","answer":4}`,
			"", []string{"a", "b"}, []string{"The ledger records 12 crates.\nNothing else.", ""}},
		{"empty passage", `{"id":"a","question":"q","answer":"1","passage":" "}`, "tasks.jsonl:1: passage: empty", nil, nil},
		{"passage not a string", `{"id":"a","question":"q","answer":"1","passage":3}`, "tasks.jsonl:1: not a task object", nil, nil},
		{"strings and numbers", `{"id":"a","question":"2+2?","answer":"4"}` + "\n\n" + `{"id":"b","question":"3+3?","answer":6}` + "\n", "", []string{"a", "b"}, nil},
		{"id from the line", `{"question":"2+2?","answer":4}`, "", []string{"1"}, nil},
		{"broken line", `{"id":"a","question":"q","answer":"1"}` + "\n" + `{"id":"b","question":` + "\n", "tasks.jsonl:2: not a task object", nil, nil},
		{"missing answer", `{"id":"a","question":"q"}`, "tasks.jsonl:1: answer: missing", nil, nil},
		{"missing question", `{"id":"a","answer":"1"}`, "tasks.jsonl:1: question: missing", nil, nil},
		{"unknown field", `{"id":"a","question":"q","answer":"1","hint":"x"}`, `tasks.jsonl:1: not a task object (json: unknown field "hint")`, nil, nil},
		{"duplicate id", `{"id":"a","question":"q","answer":"1"}` + "\n" + `{"id":"a","question":"q","answer":"1"}`, `tasks.jsonl:2: id "a" is already the id of line 1`, nil, nil},
		{"two values", `{"question":"q","answer":"1"} {}`, "tasks.jsonl:1: more than one JSON value", nil, nil},
		{"empty", "\n\n", "tasks.jsonl: no tasks", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ps, err := ReadTasks(strings.NewReader(tt.in), "tasks.jsonl")
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one starting %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids, passages []string
			for _, p := range ps {
				ids = append(ids, p.ID)
				passages = append(passages, p.Passage)
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("ids = %v, want %v", ids, tt.ids)
			}
			if tt.passages != nil && !slices.Equal(passages, tt.passages) {
				t.Errorf("passages = %q, want %q", passages, tt.passages)
			}
		})
	}
}

func FuzzReadAnswer(f *testing.F) {
	for _, s := range []string{"Answer: 12", "答案：12", "**Answer:** x.", "answer:", "Answer: 1\nAnswer: 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ReadAnswer(s)
		if ok != (v != "") {
			t.Fatalf("ReadAnswer(%q) = %q, %v", s, v, ok)
		}
		if ok && !strings.Contains(s, v) {
			t.Fatalf("ReadAnswer(%q) = %q, which the text does not hold", s, v)
		}
	})
}

func FuzzReadTasks(f *testing.F) {
	f.Add(`{"id":"a","question":"q","answer":"1"}`)
	f.Add(`{"question":"q","answer":1.5}` + "\n" + `{"id":2,"question":"r","answer":"x"}`)
	f.Add(`{"id":"p","question":"q","answer":"1","passage":"one line\nanother"}`)
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ReadTasks(strings.NewReader(s), "f")
		if err == nil && len(ps) == 0 {
			t.Fatalf("no error and no tasks for %q", s)
		}
		for _, p := range ps {
			if p.ID == "" || strings.TrimSpace(p.Question) == "" || strings.TrimSpace(p.Answer) == "" || (p.Passage != "" && strings.TrimSpace(p.Passage) == "") {
				t.Fatalf("an incomplete task %+v from %q", p, s)
			}
		}
	})
}
