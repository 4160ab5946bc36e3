package textwidth

import "testing"

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"根议题", 6},
		{"a根b", 4},
		{"한국어", 6},
		{"ｶﾀｶﾅ", 4},    // half-width katakana: narrow
		{"ＡＢ", 4},      // full-width Latin: wide
		{"é", 1},       // precomposed
		{"e\u0301", 1}, // combining accent
		{"✓ ⚖ ✗", 5},
		{"\x1b", 0},
		{"☕✅", 4},     // emoji presentation: wide
		{"😀", 2},      // outside the BMP
		{"─│", 2},     // box drawing, ambiguous: narrow
		{"\u200d", 0}, // zero-width joiner
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello world", 6, "hello…"},
		{"根议题根议题", 6, "根议…"},
		{"根议题根议题", 5, "根议…"},
		{"a根议题", 4, "a根…"},
		{"abc", 0, ""},
		{"abc", 1, "…"},
	}
	for _, tt := range tests {
		got := Cut(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if String(got) > tt.n {
			t.Errorf("Cut(%q, %d) = %q is %d columns wide", tt.in, tt.n, got, String(got))
		}
	}
	if got := Pad("根a", 5); got != "根a  " {
		t.Errorf("Pad = %q", got)
	}
}

func FuzzCut(f *testing.F) {
	f.Add("根议题 and more", 7)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 200
		got := Cut(s, n)
		if n >= 0 && String(got) > max(n, 0) {
			t.Fatalf("Cut(%q, %d) = %q: %d columns", s, n, got, String(got))
		}
	})
}
