package output

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// GitHub is everything debate tells GitHub Actions, and the one place that
// escapes workflow commands. On a runner (GITHUB_ACTIONS=true) every line
// written through Stdout and Stderr is neutralised, so that no text quoted
// in a log (a provider's error, a model's refusal, a value read from a
// file) reads as a command: a line that starts with "::" after its leading
// white space gets a zero-width space between the colons, and every "##["
// one between the number signs (in a line of JSON, which never starts with
// "::", "##[" becomes "##\u005b", which decodes to the same text). The
// run's own commands go out through
// Command, with their properties and message escaped as the runner
// unescapes them, and its outputs through SetOutputs, in the multi-line
// form with a random delimiter. Off a runner, Stdout and Stderr are the
// writers given.
type GitHub struct {
	getenv         func(string) (string, bool)
	stdout, stderr io.Writer
	out, err       *commandLog // nil off a runner
	// delimiter returns a new delimiter for a $GITHUB_OUTPUT value.
	delimiter func() string
}

// NewGitHub returns the GitHub Actions side of a command that writes to
// stdout and stderr and reads its environment through getenv.
func NewGitHub(stdout, stderr io.Writer, getenv func(string) (string, bool)) *GitHub {
	g := &GitHub{getenv: getenv, stdout: stdout, stderr: stderr,
		delimiter: func() string { return "ghadelimiter_" + uuid.NewString() }}
	if v, _ := getenv("GITHUB_ACTIONS"); v == "true" {
		g.out, g.err = &commandLog{w: stdout}, &commandLog{w: stderr}
		g.stdout, g.stderr = g.out, g.err
	}
	return g
}

// Actions tells whether the command runs on a GitHub Actions runner.
func (g *GitHub) Actions() bool { return g.out != nil }

// Stdout is where the command writes its standard output.
func (g *GitHub) Stdout() io.Writer { return g.stdout }

// Stderr is where the command writes its log lines.
func (g *GitHub) Stderr() io.Writer { return g.stderr }

// Close writes out what is left of an unfinished line.
func (g *GitHub) Close() error {
	if g.out == nil {
		return nil
	}
	return cmp.Or(g.out.flush(), g.err.flush())
}

// Property is a workflow command's property, such as title=… or line=….
type Property struct{ Name, Value string }

// Command writes a workflow command of debate's own on standard output,
// such as "error" with file, line and col; off a runner it writes nothing.
func (g *GitHub) Command(name string, props []Property, message string) error {
	if g.out == nil {
		return nil
	}
	return g.out.command(FormatCommand(name, props, message))
}

// FormatCommand is the line of a workflow command: its properties and its
// message escaped so that the runner reads back exactly these values.
func FormatCommand(name string, props []Property, message string) string {
	var b strings.Builder
	b.WriteString("::" + name)
	for i, p := range props {
		sep := ","
		if i == 0 {
			sep = " "
		}
		b.WriteString(sep + p.Name + "=" + escapeProperty(p.Value))
	}
	b.WriteString("::" + escapeData(message))
	return b.String()
}

// SetOutputs appends outputs to $GITHUB_OUTPUT, each in the form
// name<<delimiter, value, delimiter, with a delimiter that appears in no
// value; nothing is written where the variable is unset.
func (g *GitHub) SetOutputs(outputs []Property) error {
	path, ok := g.getenv("GITHUB_OUTPUT")
	if !ok || path == "" {
		return nil
	}
	var b strings.Builder
	for _, o := range outputs {
		if !validOutputName(o.Name) {
			return fmt.Errorf("output name %q: want letters, digits, - and _", o.Name)
		}
		d := g.delimiter()
		if strings.Contains(o.Value, d) {
			return fmt.Errorf("output %s holds its delimiter", o.Name)
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.Name, d, o.Value, d)
	}
	return appendFile(path, b.String())
}

// validOutputName tells whether name can name an output.
func validOutputName(name string) bool {
	return name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !(r == '-' || r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) < 0
}

// Report tells GitHub Actions what a run decided: a short Markdown summary
// appended to $GITHUB_STEP_SUMMARY, the outputs decision-counts and
// failed-topics, and, when annotate is true, one warning (error for a
// failed topic) for each undecided or split topic. Each file is written
// only where its variable is set, and one that cannot be written is
// returned as an error after the others are done.
func (g *GitHub) Report(run *tree.Run, files []string, failOn []tree.Outcome, annotate bool) error {
	var errs []error
	if path, ok := g.getenv("GITHUB_STEP_SUMMARY"); ok && path != "" {
		errs = append(errs, appendFile(path, stepSummary(run, files, runURL(g.getenv))))
	}
	counts := map[string]int{}
	for _, o := range tree.Outcomes {
		counts[string(o)] = 0
	}
	for o, n := range run.Decisions() {
		counts[string(o)] = n
	}
	b, _ := json.Marshal(counts) // a map of ints always encodes
	errs = append(errs, g.SetOutputs([]Property{
		{"decision-counts", string(b)},
		{"failed-topics", strings.Join(run.Failed(failOn), ",")},
	}))
	if annotate {
		for _, t := range run.Topics {
			if level, props, msg := annotation(run, &t); level != "" {
				errs = append(errs, g.Command(level, props, msg))
			}
		}
	}
	return cmp.Or(errs...)
}

// Problems tells GitHub Actions what is wrong with a config: an error on
// the config file at each problem's line and column, which GitHub shows on
// a pull request's diff, and a section of the job summary listing them.
// Off a runner it does nothing.
func (g *GitHub) Problems(ps configs.Problems) error {
	if !g.Actions() || len(ps) == 0 {
		return nil
	}
	var errs []error
	var b strings.Builder
	fmt.Fprintf(&b, "### debate: %d %s in the config\n\n", len(ps), plural(len(ps), "problem", "problems"))
	for _, p := range ps {
		props := []Property{{"title", "debate: " + cmp.Or(p.Field, "config")}}
		if p.File != "" {
			props = append(props, Property{"file", p.File})
		}
		if p.File != "" && p.Line > 0 {
			props = append(props, Property{"line", strconv.Itoa(p.Line)}, Property{"col", strconv.Itoa(p.Col)})
		}
		errs = append(errs, g.Command("error", props, p.Message))
		fmt.Fprintf(&b, "- %s\n", strings.NewReplacer("<", "&lt;", "\n", " ").Replace(p.Error()))
	}
	if path, ok := g.getenv("GITHUB_STEP_SUMMARY"); ok && path != "" {
		errs = append(errs, appendFile(path, b.String()))
	}
	return cmp.Or(errs...)
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
// decision counts, a row per topic with its decision, its verdicts (those
// the order check dropped apart from those the judge did not give, in a
// column of their own when there are any) and its cost, the run's
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
	dropped := make([]int, len(run.Topics))
	anyDropped := false
	for i := range run.Topics {
		dropped[i] = render.OrderCheckDropped(&run.Topics[i])
		anyDropped = anyDropped || dropped[i] > 0
	}
	if anyDropped {
		b.WriteString("| Topic | Decision | Verdicts given | Verdicts missing | Verdicts dropped by the order check | Cost |\n|---|---|--:|--:|--:|--:|\n")
	} else {
		b.WriteString("| Topic | Decision | Verdicts given | Verdicts missing | Cost |\n|---|---|--:|--:|--:|\n")
	}
	for i := range run.Topics {
		t := &run.Topics[i]
		fmt.Fprintf(&b, "| %s | %s | %d | %d | ", cell(t.ID+": "+t.Title), t.DecisionText(), t.Verdicts.Given, t.Verdicts.Missing-dropped[i])
		if anyDropped {
			fmt.Fprintf(&b, "%d | ", dropped[i])
		}
		fmt.Fprintf(&b, "%s |\n", render.CostText(t.Usage.Cost))
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
// error for a failed topic, warning for another undecided or a split one;
// an empty level for the rest.
func annotation(run *tree.Run, t *tree.Topic) (level string, props []Property, msg string) {
	level = "warning"
	switch {
	case t.Cause == tree.CauseFailed:
		level = "error"
	case t.Decision != tree.Undecided && t.Decision != tree.Divided:
		return "", nil, ""
	}
	title := "debate: " + t.ID + " " + t.DecisionText()
	msg = fmt.Sprintf("%s (%s) is %s: %s", t.ID, t.Title, t.DecisionText(), render.DecisionPlain(run, t))
	return level, []Property{{"title", title}}, msg
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// neutralise returns a line of a log so that the runner reads no command
// in it: a zero-width space goes between the colons of a "::" that starts
// the line (after white space) and between the number signs of every
// "##[". line holds no line break.
func neutralise(line string) string {
	line = escapeLegacy(line, false)
	rest := strings.TrimLeftFunc(line, unicode.IsSpace)
	if strings.HasPrefix(rest, "::") {
		at := len(line) - len(rest)
		line = line[:at+1] + "\u200b" + line[at+1:]
	}
	return line
}

// escapeLegacy breaks every "##[" of s: with a zero-width space between
// the number signs in text, as \u005b in JSON, where "##[" can only stand
// inside a string and the escape decodes to the same "[".
func escapeLegacy(s string, json bool) string {
	if json {
		return strings.ReplaceAll(s, "##[", `##\u005b`)
	}
	return strings.ReplaceAll(s, "##[", "#\u200b#[")
}

// jsonLine tells whether a line of output is (part of) JSON: it starts,
// after white space, with a character that starts no sentence but a JSON
// value, key or closing bracket. A line of JSON never starts with "::".
func jsonLine(line []byte) bool {
	rest := bytes.TrimLeftFunc(line, unicode.IsSpace)
	return len(rest) > 0 && bytes.IndexByte([]byte(`{["}]`), rest[0]) >= 0
}

// maxPending is how much of an unfinished line a commandLog holds before it
// writes it out.
const maxPending = 64 << 10

// commandLog is a stream the runner reads, written a line at a time: text
// is neutralised line by line, and a command of debate's own starts a line
// of its own.
type commandLog struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the unfinished line
	midLine bool   // part of the unfinished line is already out
	json    bool   // that part is JSON
}

// Write neutralises every finished line of p; an unfinished one waits for
// its end (or for Close), as the runner only reads whole lines.
func (l *commandLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, p...)
	var out bytes.Buffer
	for {
		i := bytes.IndexAny(l.pending, "\r\n")
		if i < 0 {
			break
		}
		l.line(&out, l.pending[:i])
		out.WriteByte(l.pending[i])
		l.pending = l.pending[i+1:]
		l.midLine = false
	}
	if len(l.pending) > maxPending {
		// Keep trailing number signs back: they may begin a "##[".
		cut := len(bytes.TrimRight(l.pending, "#"))
		l.line(&out, l.pending[:cut])
		if !l.midLine && len(bytes.TrimLeftFunc(l.pending[:cut], unicode.IsSpace)) < 2 {
			// Settle the line's start: "::" can no longer begin it.
			out.WriteString("\u200b")
		}
		l.pending = append([]byte(nil), l.pending[cut:]...)
		l.midLine = true
	}
	if _, err := l.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// line writes one line's text, neutralised; JSON keeps its value.
func (l *commandLog) line(out *bytes.Buffer, text []byte) {
	if !l.midLine {
		l.json = jsonLine(text)
	}
	if l.midLine || l.json {
		// Only "##[" counts past a line's start, or in JSON.
		out.WriteString(escapeLegacy(string(text), l.json))
		return
	}
	out.WriteString(neutralise(string(text)))
}

// command writes line, a command of debate's own, on a line of its own.
func (l *commandLog) command(line string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out bytes.Buffer
	if len(l.pending) > 0 || l.midLine {
		l.line(&out, l.pending)
		out.WriteByte('\n')
		l.pending, l.midLine = nil, false
	}
	out.WriteString(line + "\n")
	_, err := l.w.Write(out.Bytes())
	return err
}

// flush writes out the unfinished line.
func (l *commandLog) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) == 0 {
		return nil
	}
	var out bytes.Buffer
	l.line(&out, l.pending)
	l.pending, l.midLine = nil, false
	_, err := l.w.Write(out.Bytes())
	return err
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
