package output

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestAnnotation: a failed topic is an error on the run's page, a split or
// another undecided one a warning, the rest nothing; the message and title
// are escaped as workflow commands need.
func TestAnnotation(t *testing.T) {
	t.Parallel()
	failed := tree.NewNode(tree.RootID, "t", "")
	failed.Status, failed.StopReason = tree.Failed, "no debater answered the position step"
	converged := tree.NewNode(tree.RootID, "t", "")
	converged.Status = tree.Converged
	tests := []struct {
		name   string
		topic  tree.Topic
		prefix string
	}{
		{"failed", tree.Topic{ID: "db", Title: "A, B: or C?\n100%", Status: tree.Failed, Root: failed},
			"::error title=debate%3A db undecided (failed)::db (A, B: or C?%0A100%25) is undecided (failed): Node root failed (no debater answered the position step)"},
		{"agreed", tree.Topic{ID: "ok", Title: "Fine", Status: tree.Converged, Root: converged}, ""},
		{"interrupted", tree.Topic{ID: "cut", Title: "Cut", Status: tree.Interrupted, Root: converged},
			"::warning title=debate%3A cut undecided (interrupted)::cut (Cut) is undecided (interrupted): The run was stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.topic.Settle()
			got := annotation(&tree.Run{}, &tt.topic)
			if tt.prefix == "" && got != "" || !strings.HasPrefix(got, tt.prefix) || strings.Contains(got, "\n") {
				t.Errorf("annotation:\n%s\nwant it to start with:\n%s", got, tt.prefix)
			}
		})
	}
}
