package output

import (
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/vtscreen"
)

// TestLine: what a one-line display leaves on a terminal — the line cut to
// the width, log lines above it and never on it, nothing once cleared.
func TestLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		width int
		play  func(l *Line)
		want  []string
	}{
		{"shown", 40, func(l *Line) { l.Show("██░░ 1/2 problems") }, []string{"██░░ 1/2 problems"}},
		{"redrawn in place", 40, func(l *Line) { l.Show("a long first line"); l.Show("short") }, []string{"short"}},
		{"cut to the width", 10, func(l *Line) { l.Show("0123456789abc") }, []string{"012345678"}},
		{"a log line above", 40, func(l *Line) {
			l.Show("1/2 problems")
			l.Write([]byte("level=WARN msg=slow\n"))
		}, []string{"level=WARN msg=slow", "1/2 problems"}},
		{"a log line before any", 40, func(l *Line) { l.Write([]byte("first\n")); l.Show("1/2") }, []string{"first", "1/2"}},
		{"cleared", 40, func(l *Line) { l.Show("1/2 problems"); l.Clear() }, nil},
		{"cleared, then the report", 40, func(l *Line) {
			l.Show("2/2 problems")
			l.Clear()
			l.w.Write([]byte("arm  accuracy\n"))
		}, []string{"arm  accuracy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			screen := vtscreen.New(tt.width)
			l := NewLine(screen, func() int { return tt.width })
			tt.play(l)
			var got []string
			for _, r := range screen.Lines() {
				if r = strings.TrimRight(r, " "); r != "" {
					got = append(got, r)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("screen %q, want %q", got, tt.want)
			}
		})
	}
}
