package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/tree"
)

// biasedRun is a run of n forced topics whose judge always favoured the
// debater it read first.
func biasedRun(n int) *tree.Run {
	run := &tree.Run{Judge: tree.Participant{ID: "j", Model: "judge-model"}, Debaters: []tree.Participant{{ID: "a"}, {ID: "b"}}}
	for i := range n {
		read := []string{"a", "b"}
		if i%2 == 1 {
			read = []string{"b", "a"}
		}
		root := tree.NewNode(tree.RootID, "t", "")
		root.Status = tree.Forced
		root.Judgment = &tree.Judgment{Consensus: []tree.Consensus{}, Divergences: []tree.Divergence{{ID: "d1", Sides: map[string]string{"a": "x", "b": "y"}, Uninvolved: []string{}}},
			ForcedVerdicts: []tree.Verdict{{DivergenceID: "d1", Favors: read[0], Read: read}}}
		run.Topics = append(run.Topics, tree.Topic{ID: "t", Status: tree.Forced, Root: root})
	}
	run.Tally()
	return run
}

func writeRunJSON(t *testing.T, dir string, body []byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), body, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAuditCommand audits a run of this schema, one of the previous schema
// and a folder without run.json: the tables cover the first, the second is
// read and named as recording nothing, the third is refused with its path.
func TestAuditCommand(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	body, err := output.EncodeRun(biasedRun(30))
	if err != nil {
		t.Fatal(err)
	}
	writeRunJSON(t, filepath.Join(work, "new"), body)
	old, err := os.ReadFile(filepath.Join("..", "..", "output", "testdata", "run_forced.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeRunJSON(t, filepath.Join(work, "old"), []byte(strings.Replace(string(old), `"schemaVersion": 5`, `"schemaVersion": 3`, 1)))
	writeRunJSON(t, filepath.Join(work, "future"), []byte(`{"schemaVersion": 99}`))
	empty := filepath.Join(work, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := []string{filepath.Join(work, "new"), filepath.Join(work, "old"), empty, filepath.Join(work, "future")}

	r := invoke(t, nil, append([]string{"audit"}, dirs...)...)
	if r.code != exitUsage {
		t.Errorf("exit %d, want %d for refused folders", r.code, exitUsage)
	}
	for _, want := range []string{
		"# Audit of 2 runs",
		"old (schema 3) — schema 3: no stances or reading order recorded",
		"> ⚠ judge-model: Favoured the debater read first in 30 of 30 verdicts (95 % interval 89–100 %; 50 % expected under no bias)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{
		empty + ": no run.json: not a run folder",
		filepath.Join(work, "future", "run.json") + ": schemaVersion 99 is not one this program knows (1 to 5)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	r = invoke(t, nil, append([]string{"audit", "--json"}, dirs[:2]...)...)
	var rep auditReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK {
		t.Fatalf("--json: exit %d, %v:\n%s", r.code, err, r.stdout)
	}
	if len(rep.Runs) != 2 || len(rep.Audit) != 1 || !rep.Audit[0].First.Flagged || rep.Audit[0].First.Of != 30 {
		t.Errorf("--json report %+v", rep)
	}
}
