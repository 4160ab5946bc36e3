package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
		run.Topics = append(run.Topics, tree.Topic{ID: fmt.Sprintf("t%d", i), Status: tree.Forced, Root: root})
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
	writeRunJSON(t, filepath.Join(work, "old"), []byte(strings.Replace(string(old), fmt.Sprintf(`"schemaVersion": %d`, tree.SchemaVersion), `"schemaVersion": 3`, 1)))
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
		"> ⚠ judge-model: Favoured the debater read first in 30 of 30 verdicts (95 % interval 88–100 %; 50 % expected under no bias)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{
		empty + ": no run.json: not a run folder",
		filepath.Join(work, "future", "run.json") + ": schemaVersion 99 is not one this program knows " + fmt.Sprintf("(1 to %d)", tree.SchemaVersion),
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

// TestAuditNeedsEnoughVerdicts: a judge that favoured the debater it read
// first in 2 of 2 verdicts is not flagged, and the audit says why; in 40 of
// 40 it is.
func TestAuditNeedsEnoughVerdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		verdicts int
		flagged  bool
		says     string
	}{
		{2, false, "> 2 verdicts cannot show a bias at 95 %: no check is flagged from fewer than 6."},
		{40, true, "> ⚠ judge-model: Favoured the debater read first in 40 of 40 verdicts (95 % interval 91–100 %; 50 % expected under no bias)"},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "run")
		body, err := output.EncodeRun(biasedRun(tt.verdicts))
		if err != nil {
			t.Fatal(err)
		}
		writeRunJSON(t, dir, body)
		r := invoke(t, nil, "audit", dir)
		if r.code != exitOK || !strings.Contains(r.stdout, tt.says) {
			t.Errorf("%d verdicts: exit %d, stdout lacks %q:\n%s", tt.verdicts, r.code, tt.says, r.stdout)
		}
		if flagged := strings.Contains(r.stdout, "> ⚠"); flagged != tt.flagged {
			t.Errorf("%d verdicts: flagged %v, want %v:\n%s", tt.verdicts, flagged, tt.flagged, r.stdout)
		}
	}
}

// TestAuditCountsAReRunOnce: the demo run twice with one call cache, the
// second answered from it, is audited as the first alone, its nodes named
// as repeated.
func TestAuditCountsAReRunOnce(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	cfg := filepath.Join("..", "..", "configs", "examples", "full.jsonc")
	cache := filepath.Join(work, "cache")
	dirs := []string{filepath.Join(work, "first"), filepath.Join(work, "again")}
	for _, d := range dirs {
		if r := invoke(t, nil, "run", "--demo", "-c", cfg, "--output", d, "--cache", cache, "--seed", "7", "--format", "json"); r.code != exitOK {
			t.Fatalf("demo into %s: exit %d\n%s", d, r.code, r.stderr)
		}
	}
	audit := func(dirs ...string) auditReport {
		t.Helper()
		r := invoke(t, nil, append([]string{"audit", "--json"}, dirs...)...)
		var rep auditReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK {
			t.Fatalf("audit %v: exit %d, %v:\n%s%s", dirs, r.code, err, r.stdout, r.stderr)
		}
		return rep
	}
	once, twice := audit(dirs[0]), audit(dirs...)
	if len(once.Audit) == 0 || once.Audit[0].First.Of == 0 {
		t.Fatalf("the demo's audit counts no verdict: %+v", once.Audit)
	}
	a, b := once.Evidence, twice.Evidence
	a.Repeated, b.Repeated = 0, 0
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	if string(x) != string(y) {
		t.Errorf("a run and its cached re-run audit as\n%s\nwant the run's alone\n%s", y, x)
	}
	if twice.Repeated != once.Nodes {
		t.Errorf("%d nodes repeated, want the re-run's %d", twice.Repeated, once.Nodes)
	}
}

// TestAuditRefusesWhatNoRunWrites: a run.json that is not a regular file
// is refused at once, and one whose figures no run could have written is
// refused with the figure's place; the other folder is still audited, and
// neither form prints NaN.
func TestAuditRefusesWhatNoRunWrites(t *testing.T) {
	t.Parallel()
	good, err := output.EncodeRun(biasedRun(30))
	if err != nil {
		t.Fatal(err)
	}
	hostile := func(old, new string) func(dir string) error {
		return func(dir string) error {
			writeRunJSON(t, dir, []byte(strings.Replace(string(good), old, new, 1)))
			return nil
		}
	}
	tests := []struct {
		name  string
		setup func(dir string) error
		want  string
	}{
		{"run.json from /dev/zero", func(dir string) error {
			return errors.Join(os.MkdirAll(dir, 0o755), os.Symlink("/dev/zero", filepath.Join(dir, "run.json")))
		}, "run.json: a symbolic link"},
		{"run.json a FIFO", func(dir string) error {
			return errors.Join(os.MkdirAll(dir, 0o755), syscall.Mkfifo(filepath.Join(dir, "run.json"), 0o600))
		}, "run.json: not a regular file"},
		{"a count above its total", hostile(`"count": 30,`, `"count": 31,`), "audit[0].first: count 31 above its total 30"},
		{"a negative count", hostile(`"count": 30,`, `"count": -30,`), "audit[0].first: count -30 of 30 is negative"},
		{"an expected share of 1e308", hostile(`"expected": 0.5`, `"expected": 1e308`), "audit[0].first: expected share 1e+308 is not within 0–1"},
		{"a count beyond int64", hostile(`"count": 30,`, `"count": 92233720368547758070,`), "cannot unmarshal number 92233720368547758070"},
		{"a stance total of int64", hostile(`"of": 30,`, `"of": -9223372036854775808,`), "count 30 of -9223372036854775808 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			bad, ok := filepath.Join(work, "bad"), filepath.Join(work, "ok")
			writeRunJSON(t, ok, good)
			if err := tt.setup(bad); err != nil {
				t.Fatal(err)
			}
			for _, form := range [][]string{{"audit"}, {"audit", "--json"}} {
				r := invoke(t, nil, append(form, bad, ok)...)
				if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, bad) {
					t.Errorf("%v: exit %d, stderr lacks %q at %s:\n%s", form, r.code, tt.want, bad, r.stderr)
				}
				if strings.Contains(r.stdout, "NaN") || !strings.Contains(r.stdout, "30") {
					t.Errorf("%v: the good folder's audit is missing or holds NaN:\n%s", form, r.stdout)
				}
			}
		})
	}
}
