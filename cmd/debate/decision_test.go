package main

import (
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// panelQuestion finds the divergence ids a panel judge is asked to decide.
var panelQuestion = regexp.MustCompile("(?m)^### `([^`]+)`: ")

// fourTopics is a config of four one-round topics judged by a panel of
// two: "agree" converges, "forced" gets a verdict both judges back, "split"
// one the judges split on, and in "partial" debater b fails for good.
func fourTopics(t *testing.T, srv *providertest.Server) string {
	t.Helper()
	srv.Script(func(c scripted.Call) scripted.Reply {
		if c.Model == "m-b" && c.Contains("Partial question") {
			return scripted.Status(500, "internal error")
		}
		if c.Model != "m-j1" && c.Model != "m-j2" {
			return scripted.Text("Position of " + c.Model + ": I argue my case with evidence.")
		}
		favors := "a"
		if c.Model == "m-j2" && c.Contains("Split question") {
			favors = "b"
		}
		verdict := func(id string) map[string]string {
			return map[string]string{"divergenceId": id, "favors": favors, "recommendation": "Adopt the plan of " + favors, "reasoning": "Its evidence is stronger."}
		}
		if ids := panelQuestion.FindAllStringSubmatch(c.Last(), -1); len(ids) > 0 {
			var vs []any
			for _, m := range ids {
				vs = append(vs, verdict(m[1]))
			}
			return scripted.Fenced(map[string]any{"forcedVerdicts": vs})
		}
		if c.Contains("Agree question") || c.Contains("Partial question") {
			return triage()
		}
		d := divergence{ID: "d1", Title: "Which plan", Sides: map[string]string{"a": "plan A", "b": "plan B"}, Uninvolved: []string{}}
		return scripted.Fenced(map[string]any{"consensus": []any{}, "divergences": []divergence{d}, "forcedVerdicts": []any{verdict("d1")}})
	})
	dir := t.TempDir()
	cfg := `{
  "api": {"baseURL": "` + srv.URL() + `", "apiKey": "${TEST_API_KEY}", "maxRetries": 0, "timeout": 10000},
  "debaters": [{"id": "a", "label": "Party A", "model": "m-a"}, {"id": "b", "label": "Party B", "model": "m-b"}],
  "judges": [{"id": "j1", "label": "Chair", "model": "m-j1"}, {"id": "j2", "label": "Second", "model": "m-j2"}],
  "params": {"maxRounds": 1, "synthesis": false, "blind": false},
  "fallback": {"maxConsecutiveFailures": 2, "retryDelay": 1},
  "topics": [
    {"id": "agree", "title": "Agree question"}, {"id": "forced", "title": "Forced question"},
    {"id": "split", "title": "Split question"}, {"id": "partial", "title": "Partial question"},
  ],
  "output": {"dir": "out", "format": ["markdown"]},
}`
	path := filepath.Join(dir, "debate.jsonc")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDecisionsAndFailOn runs four topics against the fake: each gets its
// decision in run.json, the log and the summary; --fail-on split exits 8
// after every report is written, and without it the run exits 1 as before
// (a debater was missing).
func TestDecisionsAndFailOn(t *testing.T) {
	t.Parallel()
	want := map[string]string{"agree": "agreed", "forced": "decided", "split": "split", "partial": "undecided (partial)"}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"without --fail-on", nil, exitFailed},
		{"--fail-on split", []string{"--fail-on", "split"}, exitDecision},
		{"--fail-on agreed", []string{"--fail-on", "agreed,decided"}, exitDecision},
		{"--fail-on a decision no topic has", []string{"--fail-on", "undecided"}, exitDecision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			cfgPath := fourTopics(t, srv)
			out := filepath.Join(filepath.Dir(cfgPath), "out")
			r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, append([]string{"run", "-c", cfgPath}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", r.code, tt.code, r.stderr)
			}
			for _, f := range []string{"run.json", "summary.md", "topic-agree-agree-question.md", "topic-forced-forced-question.md",
				"topic-split-split-question.md", "topic-partial-partial-question.md"} {
				if !strings.Contains(r.stdout, filepath.Join(out, f)) {
					t.Errorf("%s was not written:\n%s", f, r.stdout)
				}
			}
			run := readRun(t, filepath.Join(out, "run.json"))
			summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
			for _, topic := range run.Topics {
				if got := topic.DecisionText(); got != want[topic.ID] {
					t.Errorf("topic %s: decision %s, want %s", topic.ID, got, want[topic.ID])
				}
				if !strings.Contains(r.stderr, "topic="+topic.ID+" status=") || !strings.Contains(r.stderr, `decision="`+want[topic.ID]+`"`) &&
					!strings.Contains(r.stderr, "decision="+want[topic.ID]+" ") {
					t.Errorf("the log does not give topic %s's decision %s:\n%s", topic.ID, want[topic.ID], r.stderr)
				}
			}
			if !strings.Contains(string(summary), "1 agreed · 1 decided · 1 split · 1 undecided") {
				t.Errorf("summary.md does not count the decisions:\n%s", summary)
			}
		})
	}
}

// TestNoVerdictIsUndecided: a judge that answers triage but never gives
// the verdicts it is forced to leaves its topic undecided (no-verdict);
// the log, the summary and run.json say so, and the run does not exit 0.
func TestNoVerdictIsUndecided(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply {
		if c.Model != "m-judge" {
			return scripted.Text("Position of " + c.Model + ": I argue my case with evidence.")
		}
		return triage(divergence{ID: "one", Title: "ALPHA", Sides: map[string]string{"a": "a1", "b": "b1"}, Uninvolved: []string{"c"}})
	})
	cfgPath := writeConfig(t, srv, 2, "")
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath)
	if r.code == exitOK {
		t.Fatalf("exit 0 for a run whose judge gave no verdict\n%s", r.stderr)
	}
	out := filepath.Join(filepath.Dir(cfgPath), "out")
	run := readRun(t, filepath.Join(out, "run.json"))
	topic := run.Topics[0]
	if topic.Status != tree.Forced || topic.Decision != tree.Undecided || topic.Cause != tree.CauseNoVerdict || topic.Verdicts.Given != 0 || topic.Verdicts.Missing == 0 {
		t.Errorf("status %s, decision %s, verdicts %+v; want forced, undecided (no-verdict), none given", topic.Status, topic.DecisionText(), topic.Verdicts)
	}
	if !strings.Contains(r.stderr, `decision="undecided (no-verdict)"`) {
		t.Errorf("the log does not say the topic is undecided:\n%s", r.stderr)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	missing := strconv.Itoa(topic.Verdicts.Missing)
	for _, s := range []string{"1 undecided", "| undecided | 2 | 2 | 2 | 0 + " + missing + " missing |", "The judge gave no verdict, even after repair"} {
		if !strings.Contains(string(summary), s) {
			t.Errorf("summary.md lacks %q:\n%s", s, summary)
		}
	}
}

// TestMaxCost: with budget.maxCost 0.01 and priced models, the run stops
// opening children once its spend passes the cap; the spend comes from the
// provider's usage.cost where it sends one, else from pricing × tokens.
func TestMaxCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cost    float64 // usage.cost the fake reports per call; 0: none
		pricing string
	}{
		{"pricing × tokens", 0, `"m-a": {"input": 100, "output": 100}, "m-b": {"input": 100, "output": 100}, "m-c": {"input": 100, "output": 100}`},
		{"provider's usage.cost", 0.004, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			scriptJudges(srv)
			if tt.cost > 0 {
				srv.On(func(c scripted.Call) bool { return c.Model != "m-judge" }, func(c scripted.Call) scripted.Reply {
					r := scripted.Text("Position of " + c.Model + ": I argue my case with evidence.")
					r.Cost = tt.cost
					return r
				})
			}
			cfgPath := writeConfig(t, srv, 3, "")
			b, _ := os.ReadFile(cfgPath)
			cfg := strings.Replace(string(b), `"output":`, `"budget": {"maxCost": 0.01}, "pricing": {`+tt.pricing+`}, "output":`, 1)
			if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			out := filepath.Join(filepath.Dir(cfgPath), "out")
			run := readRun(t, filepath.Join(out, "run.json"))
			topic := run.Topics[0]
			if got := shape(topic.Root); !slices.Equal(got, []string{"root forced"}) || !topic.Root.Budget {
				t.Errorf("tree %v (budget mark %v), want the root forced by the budget", got, topic.Root.Budget)
			}
			if topic.DecisionText() != "undecided (budget)" || !strings.Contains(topic.Root.StopReason, "budget of 0.01 (budget.maxCost) spent") {
				t.Errorf("decision %s, stop reason %q", topic.DecisionText(), topic.Root.StopReason)
			}
			if run.Usage.Cost < 0.01 {
				t.Errorf("spend %.4f in run.json, want past the cap", run.Usage.Cost)
			}
			report, _ := os.ReadFile(filepath.Join(out, "topic-t1-root-question.md"))
			for _, s := range []string{"**Decision: undecided (budget)** — The run's budget forced verdicts before the round limit at root.", "> - **Cost:** "} {
				if !strings.Contains(string(report), s) {
					t.Errorf("the report lacks %q", s)
				}
			}
		})
	}
}

// writePricedConfig is writeConfig with every model priced and more fields
// (such as a budget) before "output".
func writePricedConfig(t *testing.T, srv *providertest.Server, maxRounds int, more string) string {
	t.Helper()
	path := writeConfig(t, srv, maxRounds, "")
	b, _ := os.ReadFile(path)
	priced := `"pricing": {"m-a": {"input": 2, "output": 8}, "m-b": {"input": 2, "output": 8}, "m-c": {"input": 2, "output": 8}, "m-c2": {"input": 2, "output": 8}, "m-judge": {"input": 3, "output": 15}}, "output":`
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), `"output":`, more+priced, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStrictBudget: the dry run prints the worst-case cost, and
// --strict-budget refuses a run whose worst case exceeds budget.maxCost
// before any call.
func TestStrictBudget(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	scriptJudges(srv)
	cfgPath := writePricedConfig(t, srv, 3, `"budget": {"maxCost": 0.01}, `)
	b, _ := os.ReadFile(cfgPath)
	cfg := string(b)
	dry := invoke(t, nil, "run", "-c", cfgPath, "--dry-run")
	if dry.code != exitOK || !regexp.MustCompile(`cost +worst case ≈\d+\.\d{4} at the highest configured price`).MatchString(dry.stdout) {
		t.Errorf("dry run (exit %d) prints no worst-case cost:\n%s", dry.code, dry.stdout)
	}
	r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--strict-budget")
	if r.code != exitUsage || !strings.Contains(r.stderr, "exceeds budget.maxCost 0.01") || strings.Contains(r.stderr, "for usage") {
		t.Errorf("exit %d, want %d refusing the worst case without a pointer to the usage:\n%s", r.code, exitUsage, r.stderr)
	}
	if srv.Count() != 0 {
		t.Errorf("%d calls made by a refused run", srv.Count())
	}

	// The worst case is the configured one: 5 divergences a node (the
	// default params.maxDivergences) cost more than 3, and a cap between
	// the two refuses the run.
	worst := func(divergences int) float64 {
		t.Helper()
		c := strings.Replace(cfg, `"params": {`, `"params": {"maxDivergences": `+itoa(divergences)+`, `, 1)
		os.WriteFile(cfgPath, []byte(c), 0o644)
		dry := invoke(t, nil, "run", "-c", cfgPath, "--dry-run")
		want := "splits into " + itoa(divergences) + " divergences (params.maxDivergences) down to round 3 (params.maxRounds)"
		m := regexp.MustCompile(`worst case ≈(\d+\.\d{4})`).FindStringSubmatch(dry.stdout)
		if m == nil || !strings.Contains(dry.stdout, want) {
			t.Fatalf("dry run with %d divergences does not say %q:\n%s", divergences, want, dry.stdout)
		}
		f, _ := strconv.ParseFloat(m[1], 64)
		return f
	}
	three, five := worst(3), worst(5)
	if five <= three {
		t.Fatalf("worst case %g at 5 divergences a node, %g at 3", five, three)
	}
	between := strings.Replace(cfg, `"maxCost": 0.01`, fmt.Sprintf(`"maxCost": %g`, (three+five)/2), 1)
	os.WriteFile(cfgPath, []byte(between), 0o644)
	r = invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "--strict-budget")
	if r.code != exitUsage || !strings.Contains(r.stderr, "params.maxDivergences 5 down to params.maxRounds 3") || srv.Count() != 0 {
		t.Errorf("a cap under the configured worst case: exit %d, %d calls\n%s", r.code, srv.Count(), r.stderr)
	}
}

// TestGitHubActions: on GitHub Actions the run appends its summary to
// $GITHUB_STEP_SUMMARY, its outputs to $GITHUB_OUTPUT and prints an
// annotation line per split or undecided topic; junit.xml holds a test
// case per topic as GitLab's JUnit reader expects, failing where the
// decision is in --fail-on.
func TestGitHubActions(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	cfgPath := fourTopics(t, srv)
	dir := t.TempDir()
	summaryPath, outputPath := filepath.Join(dir, "step-summary.md"), filepath.Join(dir, "output.txt")
	if err := os.WriteFile(outputPath, []byte("earlier=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"TEST_API_KEY": testKey, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summaryPath, "GITHUB_OUTPUT": outputPath,
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/plans", "GITHUB_RUN_ID": "42"}
	r := invoke(t, vars, "run", "-c", cfgPath, "--fail-on", "split", "--format", "markdown,junit")
	if r.code != exitDecision {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitDecision, r.stderr)
	}
	want := map[string]string{"earlier": "1", "decision-counts": `{"agreed":1,"decided":1,"split":1,"undecided":1}`, "failed-topics": "split,partial"}
	if got := readOutputs(t, outputPath); !maps.Equal(got, want) {
		t.Errorf("GITHUB_OUTPUT: %q, want %q", got, want)
	}
	summary, _ := os.ReadFile(summaryPath)
	for _, s := range []string{
		"### debate: 1 agreed · 1 decided · 1 split · 1 undecided\n",
		"| split: Split question | split | 0 | 0 | — |",
		"| partial: Partial question | undecided (partial) | 0 | 0 | — |",
		"Reports: `summary.md`, `junit.xml` in [the run's artifacts](https://github.com/acme/plans/actions/runs/42).",
	} {
		if !strings.Contains(string(summary), s) {
			t.Errorf("GITHUB_STEP_SUMMARY lacks %q:\n%s", s, summary)
		}
	}
	var notes []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "::") {
			notes = append(notes, l)
		}
	}
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "::warning title=debate%3A split split::split (Split question) is split: ") ||
		!strings.HasPrefix(notes[1], "::warning title=debate%3A partial undecided (partial)::partial (Partial question) is undecided (partial): Debaters were missing") {
		t.Errorf("annotations:\n%s", strings.Join(notes, "\n"))
	}
	checkJUnit(t, filepath.Join(filepath.Dir(cfgPath), "out", "junit.xml"), map[string]string{"split": "split"})
}

// checkJUnit reads junit.xml as GitLab's JUnit parser does (testsuites >
// testsuite > testcase, with name, classname, file and time; a failure's
// message and type) and checks one case per topic, failing as want says.
func checkJUnit(t *testing.T, path string, failing map[string]string) {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Time     string `xml:"time,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				File      string `xml:"file,attr"`
				Time      string `xml:"time,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if !strings.HasPrefix(string(body), xml.Header) {
		t.Errorf("junit.xml does not start with the XML declaration")
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("junit.xml: %v", err)
	}
	if len(doc.Suites) != 1 || doc.Tests != 4 || doc.Failures != len(failing) || doc.Suites[0].Tests != 4 || doc.Suites[0].Failures != len(failing) {
		t.Fatalf("junit.xml counts: %d suites, %d tests, %d failures", len(doc.Suites), doc.Tests, doc.Failures)
	}
	for _, c := range doc.Suites[0].Cases {
		id, _, _ := strings.Cut(c.Name, ": ")
		if _, err := strconv.ParseFloat(c.Time, 64); err != nil || c.Classname != "debate."+id || !strings.HasPrefix(c.File, "topic-"+id+"-") {
			t.Errorf("case %q: classname %q, file %q, time %q", c.Name, c.Classname, c.File, c.Time)
		}
		typ, fails := failing[id]
		switch {
		case fails && (c.Failure == nil || c.Failure.Type != typ || !strings.Contains(c.Failure.Message, ": Which plan.") || strings.Contains(c.Failure.Message, "*") ||
			!strings.Contains(c.Failure.Text, "Chair: Adopt the plan of a") || !strings.Contains(c.Failure.Text, "Second: Adopt the plan of b")):
			t.Errorf("case %q: failure %+v, want one of type %s with the decision as its message and the votes in its text", c.Name, c.Failure, typ)
		case !fails && (c.Failure != nil || c.SystemOut == ""):
			t.Errorf("case %q: failure %+v, output %q; want a pass with its decision as output", c.Name, c.Failure, c.SystemOut)
		}
	}
}

// TestMergeFailOn: the shards of a run made with --fail-on split merge into
// a run that fails on split as they did, in its exit code, its log, its
// GitHub outputs and its junit.xml; merge's own --fail-on replaces that,
// and an unknown decision is a usage error.
func TestMergeFailOn(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	cfgPath := fourTopics(t, srv)
	work := t.TempDir()
	var shards []string
	for i := range 2 {
		dir := filepath.Join(work, "shard-"+strconv.Itoa(i+1))
		r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath, "-o", dir,
			"--shard", strconv.Itoa(i+1)+"/2", "--fail-on", "split", "--format", "markdown,junit")
		if r.code != exitDecision && r.code != exitFailed {
			t.Fatalf("shard %d/2: exit %d\n%s", i+1, r.code, r.stderr)
		}
		shards = append(shards, dir)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		failed   string   // GITHUB_OUTPUT's failed-topics
		failing  []string // the types of junit.xml's failures
		warnings []string // topics named in the log
	}{
		{"the shards' failOn", nil, exitDecision, "split,partial", []string{"split"}, []string{"split"}},
		{"--fail-on undecided", []string{"--fail-on", "undecided"}, exitDecision, "partial", []string{"undecided"}, []string{"partial"}},
		{"--fail-on none", []string{"--fail-on", ""}, exitFailed, "partial", nil, nil},
		{"--fail-on unknown", []string{"--fail-on", "lost"}, exitUsage, "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			outputPath, out := filepath.Join(dir, "output.txt"), filepath.Join(dir, "merged")
			args := append([]string{"merge", "-o", out, "--format", "markdown,junit"}, tt.args...)
			r := invoke(t, map[string]string{"GITHUB_OUTPUT": outputPath}, append(args, shards...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
			if tt.code == exitUsage {
				if _, err := os.Stat(out); !strings.Contains(r.stderr, "--fail-on") || err == nil {
					t.Errorf("a bad --fail-on should be named and nothing written:\n%s", r.stderr)
				}
				return
			}
			if got := readOutputs(t, outputPath)["failed-topics"]; got != tt.failed {
				t.Errorf("GITHUB_OUTPUT failed-topics %q, want %q", got, tt.failed)
			}
			gated := regexp.MustCompile(`decision in --fail-on \(topic=(\S+)`).FindAllStringSubmatch(r.stderr, -1)
			var named []string
			for _, m := range gated {
				named = append(named, m[1])
			}
			if !slices.Equal(named, tt.warnings) {
				t.Errorf("the log names %v in --fail-on, want %v:\n%s", named, tt.warnings, r.stderr)
			}
			junit, _ := os.ReadFile(filepath.Join(out, "junit.xml"))
			var types []string
			for _, m := range regexp.MustCompile(`<failure message="[^"]*" type="([^"]+)"`).FindAllStringSubmatch(string(junit), -1) {
				types = append(types, m[1])
			}
			if !slices.Equal(types, tt.failing) {
				t.Errorf("junit.xml fails %v, want %v:\n%s", types, tt.failing, junit)
			}
		})
	}
}
