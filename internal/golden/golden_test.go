package golden

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got string
		has, hasNot     []string
	}{
		{"equal", "a\nb", "a\nb", nil, []string{"+", "-"}},
		{"added line", "a\nc", "a\nb\nc", []string{"+2: b"}, []string{"-"}},
		{"removed line", "a\nb\nc", "a\nc", []string{"-2: b"}, []string{"+"}},
		{"changed line", "a\nb", "a\nB", []string{"-2: b", "+2: B"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diff(tt.want, tt.got)
			for _, s := range tt.has {
				if !strings.Contains(d, s) {
					t.Errorf("diff %q lacks %q", d, s)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(d, s) {
					t.Errorf("diff %q has %q", d, s)
				}
			}
		})
	}
}
