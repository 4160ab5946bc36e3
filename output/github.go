package output

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// GitHub tells GitHub Actions what a run decided: a short Markdown summary
// appended to $GITHUB_STEP_SUMMARY, the outputs decision-counts and
// failed-topics appended to $GITHUB_OUTPUT, and, when annotations is not
// nil, one ::warning (::error for a failed topic) line on it for each
// undecided or split topic. getenv reads the job's environment; each file
// is written only where its variable is set, and one that cannot be
// written is returned as an error after the others are done.
func GitHub(run *tree.Run, files []string, failOn []tree.Outcome, getenv func(string) (string, bool), annotations io.Writer) error {
	var errs []error
	if path, ok := getenv("GITHUB_STEP_SUMMARY"); ok && path != "" {
		errs = append(errs, appendFile(path, stepSummary(run, files, runURL(getenv))))
	}
	if path, ok := getenv("GITHUB_OUTPUT"); ok && path != "" {
		counts := map[string]int{}
		for _, o := range tree.Outcomes {
			counts[string(o)] = 0
		}
		for o, n := range run.Decisions() {
			counts[string(o)] = n
		}
		b, _ := json.Marshal(counts) // a map of ints always encodes
		out := fmt.Sprintf("decision-counts=%s\nfailed-topics=%s\n", b, strings.Join(run.Failed(failOn), ","))
		errs = append(errs, appendFile(path, out))
	}
	if annotations != nil {
		for _, t := range run.Topics {
			if line := annotation(run, &t); line != "" {
				fmt.Fprintln(annotations, line)
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// runURL is the address of the workflow run, whose artifacts hold the
// reports; empty outside GitHub Actions.
func runURL(getenv func(string) (string, bool)) string {
	server, _ := getenv("GITHUB_SERVER_URL")
	repo, _ := getenv("GITHUB_REPOSITORY")
	id, _ := getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/actions/runs/%s", server, repo, id)
}

// stepSummary is the Markdown a run appends to the job's summary page: the
// decision counts, a row per topic with its decision and cost, the run's
// cost (and that it paid nothing when the call cache answered every call)
// and where its reports are.
func stepSummary(run *tree.Run, files []string, runURL string) string {
	var b strings.Builder
	counts := run.Decisions()
	var parts []string
	for _, o := range tree.Outcomes {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], o))
		}
	}
	fmt.Fprintf(&b, "### debate: %s\n\n", strings.Join(parts, " · "))
	b.WriteString("| Topic | Decision | Verdicts given | Verdicts missing | Cost |\n|---|---|--:|--:|--:|\n")
	for i := range run.Topics {
		t := &run.Topics[i]
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", cell(t.ID+": "+t.Title), t.DecisionText(),
			t.Verdicts.Given, t.Verdicts.Missing, render.CostText(t.Usage.Cost))
	}
	fmt.Fprintf(&b, "\n%s tokens in %s calls, cost %s.", render.Thousands(run.Usage.Total()), render.Thousands(run.Usage.Calls), render.CostText(run.Usage.Cost))
	if c := run.Cache; c != nil && c.Cached > 0 && c.Fresh == 0 {
		b.WriteString(" The call cache answered every call: this run made no call and paid nothing.")
	}
	var reports []string
	for _, f := range files {
		if base := filepath.Base(f); base == "summary.md" || base == "summary.html" || base == "junit.xml" {
			reports = append(reports, "`"+base+"`")
		}
	}
	if len(reports) > 0 {
		where := "the output folder"
		if runURL != "" {
			where = fmt.Sprintf("[the run's artifacts](%s)", runURL)
		}
		fmt.Fprintf(&b, " Reports: %s in %s.", strings.Join(reports, ", "), where)
	}
	b.WriteString("\n")
	return b.String()
}

// annotation is the workflow command that flags a topic on the run's page:
// ::error for a failed topic, ::warning for another undecided or a split
// one; empty for the rest.
func annotation(run *tree.Run, t *tree.Topic) string {
	level := "warning"
	switch {
	case t.Cause == tree.CauseFailed:
		level = "error"
	case t.Decision != tree.Undecided && t.Decision != tree.Divided:
		return ""
	}
	title := escapeProperty("debate: " + t.ID + " " + t.DecisionText())
	msg := fmt.Sprintf("%s (%s) is %s: %s", t.ID, t.Title, t.DecisionText(), render.DecisionSentences(run, t))
	return fmt.Sprintf("::%s title=%s::%s", level, title, escapeData(msg))
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// cell makes text fit a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// appendFile appends text to the file at path, creating it if needed.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return nil
}
