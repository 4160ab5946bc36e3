package batch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/gitrepo/gitrepotest"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/quote"
	"github.com/debatehq/debate/tree"
)

// quotedCode is the file of the repository the debaters quote.
const quotedCode = "package quote\n\n// Find returns the quotes of text.\nfunc Find(text string) []Quote {\n\treturn nil\n}\n"

// repoAnswers are the debaters' answers, the same at every step: A quotes
// the code exactly (over two lines), B invents a line, C quotes a file git
// ignores, a secret file, a file edited after the run started and the
// config, which holds the run's API key.
var repoAnswers = map[string]string{
	"model-a": "The code says <quote doc=\"quote/quote.go\">// Find returns the quotes of text.\nfunc Find(text string) []Quote {</quote>",
	"model-b": `The code says <quote doc="quote/quote.go">func Verify() bool</quote>`,
	"model-c": `The log says <quote doc="debug.log">started</quote>, the env <quote doc=".env">TOKEN=abc</quote>, the notes <quote doc="notes.md">The cache is cleared at noon.</quote>, the config <quote doc="debate/debate.jsonc">"apiKey"</quote>`,
}

// TestRepositoryQuotes runs a config that shares its repository through the
// whole run path, against the fake API, and follows each quote to the
// judge, run.json and the reports, which are written outside the
// repository.
func TestRepositoryQuotes(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	out := t.TempDir()
	dir := gitrepotest.New(t, map[string]string{
		".gitignore":     "*.log\n",
		"debug.log":      "started\n",
		".env":           "TOKEN=abc\n",
		"notes.md":       "The cache is cleared at noon.\n",
		"quote/quote.go": quotedCode,
		"debate/debate.jsonc": `{
  "api": { "baseURL": "` + srv.URL() + `", "apiKey": "sk-repository-test-key", "maxRetries": 0 },
  "debaters": [ { "id": "a", "model": "model-a" }, { "id": "b", "model": "model-b" }, { "id": "c", "model": "model-c" } ],
  "reviewer": { "id": "j", "model": "model-j" },
  "params": { "maxRounds": 1, "synthesis": false },
  "topics": [ { "id": "t1", "title": "Does Find return the quotes?" } ],
  "sharedContext": { "repository": true },
  "output": { "dir": "` + filepath.ToSlash(out) + `", "format": ["markdown", "html"] }
}`,
	})
	// notes.md is edited before it is first read; quote/quote.go after it
	// was read for the positions, before A's rebuttal quotes it again.
	var editNotes, editCode sync.Once
	srv.Script(func(c scripted.Call) scripted.Reply {
		switch {
		case c.Model == "model-j":
			return scripted.Fenced(map[string]any{"consensus": []any{}, "forcedVerdicts": []any{}})
		case c.Model == "model-c":
			editNotes.Do(func() { gitrepotest.Write(t, dir, "notes.md", "The cache is never cleared.\n") })
		case c.Model == "model-a" && c.Contains("## Your position"):
			editCode.Do(func() { gitrepotest.Write(t, dir, "quote/quote.go", "package quote\n") })
		}
		return scripted.Text(repoAnswers[c.Model])
	})
	cfg, err := configs.Load(filepath.Join(dir, "debate", "debate.jsonc"), configs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{})
	if err != nil || res.Err != nil {
		t.Fatalf("run: %v, %v", err, res.Err)
	}
	run := res.Run

	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	if r := run.Repository; r == nil || r.Head != strings.TrimSpace(string(head)) || r.Dirty != "" || r.Files != 4 {
		t.Errorf("run.json repository %+v, want HEAD %s, clean, 4 quotable files (not .env, not the ignored log)", r, head)
	}

	// An unverified quote's reason is recorded as its English words and
	// as its code, which each report language says.
	why := func(code quote.ReasonCode, file string) []tree.Reason {
		return []tree.Reason{tree.Because(tree.ReasonCode(code), file)}
	}
	wantQuotes := map[string][]tree.Quote{
		"a": {{Status: tree.QuoteVerified, Document: "quote/quote.go", FirstLine: 3, LastLine: 4, Repository: true}},
		"b": {{Status: tree.QuoteUnverified, Reason: "not found in quote/quote.go", Because: why(quote.NotFoundIn, "quote/quote.go")}},
		"c": {
			{Status: tree.QuoteUnverified, Reason: "debug.log is ignored by git: only files git tracks or would track are quotable",
				Because: why(quote.Ignored, "debug.log")},
			{Status: tree.QuoteUnverified, Reason: ".env looks like it holds a secret and is never quoted", Because: why(quote.SecretName, ".env")},
			{Status: tree.QuoteUnverified, Reason: "notes.md changed since the run started; quotes are checked against the files as the run found them",
				Because: why(quote.Changed, "notes.md")},
			{Status: tree.QuoteUnverified, Reason: "debate/debate.jsonc holds one of the run's credentials and is never quoted",
				Because: why(quote.Credential, "debate/debate.jsonc")},
		},
	}
	root := run.Topics[0].Root
	for _, a := range root.Quotes {
		want := wantQuotes[a.Participant]
		if len(a.Quotes) != len(want) {
			t.Errorf("%s/%s: %d quotes, want %d", a.Participant, a.Step, len(a.Quotes), len(want))
			continue
		}
		for i, q := range a.Quotes {
			q.Text = ""
			if !reflect.DeepEqual(q, want[i]) {
				t.Errorf("%s/%s quote %d: %+v, want %+v", a.Participant, a.Step, i, q, want[i])
			}
		}
	}
	if q := run.Quotes; q == nil || q.Total != (tree.QuoteCount{Made: 12, Verified: 2, Unverified: 10}) {
		t.Errorf("run quotes %+v, want 12 made (6 at each step), 2 verified", q)
	}

	var judge, position scripted.Call
	for _, c := range srv.Calls() {
		switch {
		case c.Model == "model-j":
			judge = c
		case c.Model == "model-b" && position.Model == "":
			position = c
		}
	}
	for _, w := range []string{
		"<quote status=\"verified\" doc=\"quote/quote.go\" lines=\"3-4\">// Find returns the quotes of text.\nfunc Find(text string) []Quote {</quote>",
		`<quote status="unverified" reason="not found in quote/quote.go">func Verify() bool</quote>`,
		`<quote status="unverified" reason=".env looks like it holds a secret and is never quoted">TOKEN=abc</quote>`,
	} {
		if !judge.Contains(w) {
			t.Errorf("the judge's request lacks %q", w)
		}
	}
	if !position.Contains("### The shared repository") || !position.Contains("- quote/quote.go") || position.Contains("- .env") || position.Contains("package quote") {
		t.Errorf("the position prompt should list the quotable files, not .env, and hold no file's text:\n%s", position.Messages[len(position.Messages)-1].Content)
	}

	report := readOut(t, out, "topic-t1-does-find-return-the-quotes.md")
	for _, w := range []string{
		"✓ verified — [quote/quote.go, lines 3–4](documents/quote__quote.go#L3-L4)",
		"✗ unverified — notes.md changed since the run started",
		"**Repository quoted:** commit " + string(head[:12]),
	} {
		if !strings.Contains(report, w) {
			t.Errorf("the report lacks %q:\n%s", w, report)
		}
	}
	if readOut(t, dir, "quote/quote.go") == quotedCode {
		t.Fatal("quote/quote.go was never edited: A's rebuttal was not asked")
	}
	if got := readOut(t, out, "documents/quote__quote.go"); got != quotedCode {
		t.Errorf("documents/quote__quote.go holds %q, want the file as quoted", got)
	}
	if page := readOut(t, out, "documents/quote__quote.go.html"); !strings.Contains(page, `<tr id="L3">`) {
		t.Errorf("the file's page has no line anchors")
	}
	for _, never := range []string{"documents/.env", "documents/_env", "documents/notes.md", "documents/debug.log"} {
		if _, err := os.Stat(filepath.Join(out, never)); err == nil {
			t.Errorf("%s was copied into the output", never)
		}
	}
}

func readOut(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
