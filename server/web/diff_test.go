package web

import (
	"strconv"
	"strings"
	"testing"
)

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
