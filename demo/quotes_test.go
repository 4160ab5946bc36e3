package demo

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/scripted"
)

func TestDemoQuote(t *testing.T) {
	t.Parallel()
	user := "## Technical background\n\n### docs/decisions.md\n\n```\n# Decisions\n\n- Short.\n- One Go binary with internal modules and no cgo at all.\n- PostgreSQL 16 is the system of record for every module.\n```\n\n## Topic\nT"
	asks := `Quote as <quote doc="NAME">exact text</quote>.`
	tests := []struct {
		name   string
		system string
		voice  int
		want   string
	}{
		{"exact", asks, 0, `<quote doc="docs/decisions.md">One Go binary with internal modules and no cgo at all.</quote>`},
		{"misquoted", asks, 1, `<quote doc="docs/decisions.md">PostgreSQL always 16 is the system of record for every module.</quote>`},
		{"exact again", asks, 2, `<quote doc="docs/decisions.md">One Go binary with internal modules and no cgo at all.</quote>`},
		{"not asked", "Give your proposal.", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := demoQuote(scripted.Call{Messages: []scripted.Message{{Role: "system", Content: tt.system}, {Role: "user", Content: user}}}, tt.voice)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("demoQuote = %q, want it to hold %q", got, tt.want)
			}
		})
	}
}
