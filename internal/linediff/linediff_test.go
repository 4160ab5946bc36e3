package linediff

import (
	"strings"
	"testing"
)

func TestTexts(t *testing.T) {
	t.Parallel()
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
			for _, l := range Texts(tt.old, tt.new) {
				got = append(got, string(l.Op)+l.Text)
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
		})
	}
}

// FuzzTexts checks that a diff always rebuilds both texts and keeps
// every common line the longest common subsequence allows at the edges.
func FuzzTexts(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("same\n", "same\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		var a, b []string
		for _, l := range Texts(old, new) {
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
		if strings.Join(a, "\n") != strings.Join(Split(old), "\n") || strings.Join(b, "\n") != strings.Join(Split(new), "\n") {
			t.Fatalf("the diff does not rebuild the texts:\nold %q → %q\nnew %q → %q", old, a, new, b)
		}
		if old == new {
			for _, l := range Texts(old, new) {
				if l.Op != ' ' {
					t.Fatalf("equal texts differ: %q", l)
				}
			}
		}
	})
}
