package fold

import (
	"strings"
	"testing"
)

func TestIndex(t *testing.T) {
	tests := []struct {
		s, sub string
		want   int
	}{
		{"", "", 0},
		{"abc", "", 0},
		{"", "a", -1},
		{"<THINK>x</Think>", "</think>", 8},
		{"```JSON\n{}", "```json", 0},
		{"say Bearer sk-1", "bearer", 4},
		{"bearer", "bearers", -1},
		{"@`", "`", 1},                // '@' and '`' differ only in bit 0x20 but are not letters
		{"é</think>", "</think>", 2},  // offsets are bytes of s
		{"\u212Aelvin", "kelvin", -1}, // the Kelvin sign folds to k in Unicode, not in bytes
		{"ſecret", "secret", -1},
	}
	for _, tt := range tests {
		if got := Index(tt.s, tt.sub); got != tt.want {
			t.Errorf("Index(%q, %q) = %d, want %d", tt.s, tt.sub, got, tt.want)
		}
		if got := Contains(tt.s, tt.sub); got != (tt.want >= 0) {
			t.Errorf("Contains(%q, %q) = %v", tt.s, tt.sub, got)
		}
	}
}

// FuzzIndex checks Index against strings.Index on lowercased copies, which
// agree whenever both strings are ASCII.
func FuzzIndex(f *testing.F) {
	f.Add("Some <THINK>text</think>", "</Think>")
	f.Add("```Json {}", "```json")
	f.Fuzz(func(t *testing.T, s, sub string) {
		got := Index(s, sub)
		if got >= 0 && !strings.EqualFold(s[got:got+len(sub)], sub) {
			t.Fatalf("Index(%q, %q) = %d, which does not hold sub", s, sub, got)
		}
		if !ascii(s) || !ascii(sub) {
			return
		}
		if want := strings.Index(strings.ToLower(s), strings.ToLower(sub)); got != want {
			t.Fatalf("Index(%q, %q) = %d, want %d", s, sub, got, want)
		}
	})
}

func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
