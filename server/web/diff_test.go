package web

import (
	"strconv"
	"strings"
	"testing"
)

func TestDiffLines(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           string // one line per diff line: op then text
	}{
		{"same", "a\nb\n", "a\nb\n", " a\n b"},
		{"added at the end", "a\n", "a\nb\n", " a\n+b"},
		{"removed in the middle", "a\nb\nc\n", "a\nc\n", " a\n-b\n c"},
		{"changed line", "# Plan\n1. build\n2. ship\n", "# Plan\n1. build\n2. warm the cache\n3. ship\n", " # Plan\n 1. build\n-2. ship\n+2. warm the cache\n+3. ship"},
		{"from nothing", "", "x\ny", "+x\n+y"},
		{"to nothing", "x\n", "", "-x"},
		{"CRLF is a line break", "a\r\nb\r\n", "a\nb\n", " a\n b"},
		{"moved line", "a\nb\nc\n", "c\na\nb\n", "+c\n a\n b\n-c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range diffLines(tt.old, tt.new) {
				got = append(got, string(l.Op)+l.Text)
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
		})
	}
}

// FuzzDiffLines checks that a diff always rebuilds both texts and keeps
// every common line the longest common subsequence allows at the edges.
func FuzzDiffLines(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("same\n", "same\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		var a, b []string
		for _, l := range diffLines(old, new) {
			switch l.Op {
			case ' ':
				a, b = append(a, l.Text), append(b, l.Text)
			case '-':
				a = append(a, l.Text)
			case '+':
				b = append(b, l.Text)
			default:
				t.Fatalf("op %q", l.Op)
			}
		}
		if strings.Join(a, "\n") != strings.Join(splitLines(old), "\n") || strings.Join(b, "\n") != strings.Join(splitLines(new), "\n") {
			t.Fatalf("the diff does not rebuild the texts:\nold %q → %q\nnew %q → %q", old, a, new, b)
		}
		if old == new {
			for _, l := range diffLines(old, new) {
				if l.Op != ' ' {
					t.Fatalf("equal texts differ: %q", string(l.Op)+l.Text)
				}
			}
		}
	})
}

// lines returns n lines, line i being format with i.
func lines(n int, format func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(format(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestViewDiffBounds: whatever two versions hold, the diff a page shows
// keeps to its bounds and says what it left out.
func TestViewDiffBounds(t *testing.T) {
	t.Parallel()
	numbered := func(p string) func(int) string { return func(i int) string { return p + strconv.Itoa(i) } }
	long := lines(10_000, numbered("line "))
	oneChanged := strings.Replace(long, "line 5000\n", "line five thousand\n", 1)
	everyOther := lines(1000, func(i int) string {
		if i%2 == 0 {
			return "same " + strconv.Itoa(i)
		}
		return "old " + strconv.Itoa(i)
	})
	everyOtherNew := strings.ReplaceAll(everyOther, "old ", "new ")
	tests := []struct {
		name, old, new  string
		tooLong, entire bool
		added, removed  int
		wantCut         bool
		wantShown       string // the shown lines, when checked
	}{
		{name: "one line changed in a long document", old: long, new: oneChanged, added: 1, removed: 1,
			wantShown: "@4997\n line 4997\n line 4998\n line 4999\n-line 5000\n+line five thousand\n line 5001\n line 5002\n line 5003\n@4996"},
		{name: "too many lines to compare", old: lines(30_000, numbered("a")), new: lines(30_000, numbered("b")), tooLong: true},
		{name: "a byte per line still counts lines", old: strings.Repeat("a\n", 1<<19), new: strings.Repeat("b\n", 1<<19), tooLong: true},
		{name: "nothing in common", old: lines(5000, numbered(strings.Repeat("x", 60))), new: lines(5000, numbered(strings.Repeat("y", 60))),
			entire: true, added: 5000, removed: 5000},
		{name: "small change, nothing in common", old: "a\n", new: "b\n", added: 1, removed: 1, wantShown: "-a\n+b"},
		{name: "more changes than a page shows", old: everyOther, new: everyOtherNew, added: 500, removed: 500, wantCut: true},
		{name: "one huge line", old: "title\n" + strings.Repeat("o", 1<<20), new: "title\n" + strings.Repeat("n", 1<<20), added: 1, removed: 1, wantCut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := viewDiff(tt.old, tt.new)
			if v.TooLong != tt.tooLong || v.Entire != tt.entire {
				t.Fatalf("too long %v, entire %v; want %v, %v", v.TooLong, v.Entire, tt.tooLong, tt.entire)
			}
			if !tt.tooLong && (v.Added != tt.added || v.Removed != tt.removed) {
				t.Errorf("+%d −%d, want +%d −%d", v.Added, v.Removed, tt.added, tt.removed)
			}
			if (v.Cut > 0) != tt.wantCut {
				t.Errorf("cut %d, want some: %v", v.Cut, tt.wantCut)
			}
			size := 0
			var got []string
			for _, l := range v.Lines {
				size += len(l.Text)
				if l.Op == '@' {
					got = append(got, "@"+strconv.Itoa(l.Skip))
				} else {
					got = append(got, string(l.Op)+l.Text)
				}
			}
			if len(v.Lines) > maxShownLines+maxShownLines/diffContext || size > maxShownBytes+len("…") {
				t.Errorf("%d lines, %d bytes shown: past the bounds", len(v.Lines), size)
			}
			if tt.wantShown != "" && strings.Join(got, "\n") != tt.wantShown {
				t.Errorf("shown\n%s\nwant\n%s", strings.Join(got, "\n"), tt.wantShown)
			}
		})
	}
}
