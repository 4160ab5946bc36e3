package vtscreen

import (
	"slices"
	"testing"
)

func TestScreen(t *testing.T) {
	tests := []struct {
		name  string
		width int
		in    string
		rows  []string
		lines []string
	}{
		{"plain", 10, "ab\ncd\n", []string{"ab", "cd"}, []string{"ab", "cd"}},
		{"wrap", 4, "abcdef\nx", []string{"abcd", "ef", "x"}, []string{"abcdef", "x"}},
		{"exact width does not wrap before newline", 4, "abcd\nx", []string{"abcd", "x"}, []string{"abcd", "x"}},
		{"wide characters", 5, "根议题\n", []string{"根议", "题"}, []string{"根议题"}},
		{"carriage return overwrites", 10, "hello\rj", []string{"jello"}, []string{"jello"}},
		{"redraw in place", 10, "a\nb\n\r\x1b[2A\x1b[Jc\nd\n", []string{"c", "d"}, []string{"c", "d"}},
		{"erase line", 10, "abc\r\x1b[2Kx", []string{"x"}, []string{"x"}},
		{"colour ignored", 10, "\x1b[32m✓\x1b[0m ok", []string{"✓ ok"}, []string{"✓ ok"}},
		{"up stops at the top", 10, "a\n\x1b[5Ab", []string{"b"}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.width)
			s.Write([]byte(tt.in))
			if got := s.Rows(); !slices.Equal(got, tt.rows) {
				t.Errorf("rows %q, want %q", got, tt.rows)
			}
			if got := s.Lines(); !slices.Equal(got, tt.lines) {
				t.Errorf("lines %q, want %q", got, tt.lines)
			}
		})
	}
}
