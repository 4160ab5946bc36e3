package ops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// defaultConfig writes a default config whose second debater has an
// endpoint of its own, and returns its path.
func defaultConfig(t *testing.T, budget string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := `{
  "api": {"baseURL": "https://one.example/v1", "apiKey": "sk-one"},
  "debaters": [{"id": "a", "model": "m-a", "fallback": "m-a2"},
               {"id": "b", "model": "m-b", "api": {"baseURL": "https://two.example/v1", "apiKey": "sk-two"}}],
  "reviewer": {"id": "r", "model": "m-judge"},
  "topics": [{"id": "t1", "title": "A topic of the default config"}],
  "output": {"dir": "out"}` + budget + `
}`
	path := filepath.Join(dir, "default.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInlineQuestion: an inline question is played with the models it
// names on the default config's endpoints, place by place, in an output
// folder of its own, with its spend capped.
func TestInlineQuestion(t *testing.T) {
	t.Parallel()
	def := defaultConfig(t, "")
	rs := NewRuns(RunsOptions{Default: def})
	cfg, err := rs.config(Start{Question: "Events or TTL?", Background: "4,000 reads a second.",
		Models: []string{"x-1", "x-2", "x-3"}, Judge: "x-judge", MaxCost: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Topics) != 1 || cfg.Topics[0].Title != "Events or TTL?" || cfg.Topics[0].Background != "4,000 reads a second." {
		t.Errorf("topics %+v, want the question alone", cfg.Topics)
	}
	if len(cfg.Debaters) != 3 {
		t.Fatalf("%d debaters, want 3", len(cfg.Debaters))
	}
	for i, want := range []struct{ model, url string }{{"x-1", "https://one.example/v1"}, {"x-2", "https://two.example/v1"}, {"x-3", "https://one.example/v1"}} {
		d := cfg.Debaters[i]
		if d.Model != want.model || d.Fallback != "" || cfg.Endpoint(d.ID).BaseURL != want.url {
			t.Errorf("debater %d: model %q fallback %q at %s, want %s at %s", i, d.Model, d.Fallback, cfg.Endpoint(d.ID).BaseURL, want.model, want.url)
		}
	}
	if cfg.Reviewer.Model != "x-judge" || cfg.Budget.MaxCost != 0.5 {
		t.Errorf("judge %q, maxCost %g", cfg.Reviewer.Model, cfg.Budget.MaxCost)
	}
	if base := filepath.Join(filepath.Dir(def), "out"); !strings.HasPrefix(cfg.Output.Dir, base+string(filepath.Separator)+"mcp-") {
		t.Errorf("output %s, want a folder of its own under %s", cfg.Output.Dir, base)
	}
}

// TestStartRefusals: what a run cannot start from, each with its reason.
func TestStartRefusals(t *testing.T) {
	t.Parallel()
	def := defaultConfig(t, "")
	capped := defaultConfig(t, `, "budget": {"maxCost": 2}`)
	for _, c := range []struct {
		name  string
		opt   RunsOptions
		start Start
		field string // of an *InputError, else
		code  string // of a *RunError
	}{
		{"nothing", RunsOptions{}, Start{}, "config", ""},
		{"one model", RunsOptions{Default: def}, Start{Question: "Q?", Models: []string{"m"}, MaxCost: 1}, "models", ""},
		{"an empty model", RunsOptions{Default: def}, Start{Question: "Q?", Models: []string{"m", " "}, MaxCost: 1}, "models", ""},
		{"negative cap", RunsOptions{Default: def}, Start{Question: "Q?", Models: []string{"m", "n"}, MaxCost: -1}, "maxCost", ""},
		{"no cap", RunsOptions{Default: def}, Start{Question: "Q?", Models: []string{"m", "n"}}, "", CodeNeedsMaxCost},
		{"no default", RunsOptions{}, Start{Question: "Q?", Models: []string{"m", "n"}, MaxCost: 1}, "", CodeBadConfig},
		{"outside the folders", RunsOptions{Folders: []string{t.TempDir()}}, Start{Config: capped}, "", CodeFolderRefused},
		{"unknown topic", RunsOptions{Folders: []string{filepath.Dir(capped)}}, Start{Config: capped, Topics: []string{"t9"}}, "topics", ""},
	} {
		_, err := NewRuns(c.opt).Begin(c.start)
		var ie *InputError
		var re *RunError
		switch {
		case c.field != "" && (!errors.As(err, &ie) || ie.Field != c.field):
			t.Errorf("%s: %v, want an input error on %s", c.name, err, c.field)
		case c.code != "" && (!errors.As(err, &re) || re.Code != c.code || re.Suggestion == ""):
			t.Errorf("%s: %v, want %s with a suggestion", c.name, err, c.code)
		}
	}
	var re *RunError
	if _, err := NewRuns(RunsOptions{}).Begin(Start{Config: capped}); !errors.As(err, &re) || re.Code != CodeFolderRefused || !strings.Contains(re.Suggestion, "inline question") {
		t.Errorf("a config path where no folder is served: %v, want %s pointing to an inline question", err, CodeFolderRefused)
	}
	rs := NewRuns(RunsOptions{Default: capped})
	cfg, err := rs.config(Start{Question: "Q?", Models: []string{"m", "n"}, MaxCost: 5})
	if err != nil || cfg.Budget.MaxCost != 2 {
		t.Errorf("a maxCost above the config's: %v, cap %g; want the config's cap of 2 kept", err, cfg.Budget.MaxCost)
	}
}

// TestEveryReportReadable: every file a run wrote is a readable resource,
// past the ones a status lists (a topic's report, as run_decision names
// it), and none is read through a symbolic link or beyond them.
func TestEveryReportReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := &batch.Result{}
	for i := range maxLines + 10 {
		name := filepath.Join(dir, fmt.Sprintf("topic-t%02d.md", i))
		if err := os.WriteFile(name, []byte("# report "+strconv.Itoa(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		res.Files = append(res.Files, name)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "summary.md")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	res.Files = append(res.Files, link)
	r := newRun("r1", &configs.Config{Output: configs.Output{Dir: dir}}, tree.Selection{}, true, func() {})
	r.finish(res, nil, false)
	rs := NewRuns(RunsOptions{})
	if err := rs.add(r); err != nil {
		t.Fatal(err)
	}
	if st := r.status(); len(st.Reports) != maxLines || st.ReportsOmitted != 11 {
		t.Fatalf("status lists %d reports, %d omitted", len(st.Reports), st.ReportsOmitted)
	}
	last := fmt.Sprintf("topic-t%02d.md", maxLines+9)
	if b, err := rs.Report("r1", last); err != nil || string(b) != "# report "+strconv.Itoa(maxLines+9) {
		t.Errorf("the last report: %q, %v", b, err)
	}
	if b, err := rs.Report("r1", "summary.md"); err == nil {
		t.Errorf("a report that is a symbolic link was read: %q", b)
	}
	if _, err := rs.Report("r1", "../secret"); err == nil {
		t.Error("a name the run did not write was read")
	}
}
