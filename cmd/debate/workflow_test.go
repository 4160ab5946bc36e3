package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The parts of a workflow and of a composite action that a runner reads
// to run them.
type (
	workflow struct {
		Jobs map[string]workflowJob `yaml:"jobs"`
	}
	workflowJob struct {
		Needs    stringList `yaml:"needs"`
		If       string     `yaml:"if"`
		Strategy struct {
			Matrix map[string][]string `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []actionStep `yaml:"steps"`
	}
	action struct {
		Inputs map[string]struct {
			Required bool   `yaml:"required"`
			Default  string `yaml:"default"`
		} `yaml:"inputs"`
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	actionStep struct {
		Name             string            `yaml:"name"`
		ID               string            `yaml:"id"`
		If               string            `yaml:"if"`
		Shell            string            `yaml:"shell"`
		WorkingDirectory string            `yaml:"working-directory"`
		Env              map[string]string `yaml:"env"`
		Run              string            `yaml:"run"`
		Uses             string            `yaml:"uses"`
		With             map[string]string `yaml:"with"`
	}
)

// stringList is a YAML string or list of strings (a job's needs).
type stringList []string

func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = []string{n.Value}
		return nil
	}
	return n.Decode((*[]string)(l))
}

// runner runs workflows and the action as GitHub's runner does, on this
// machine: each run step with bash -eo pipefail in the workspace, with the
// job's environment files; "uses: ./" runs action.yml's steps with its
// inputs; checkout and setup-go do nothing (the workspace and Go are
// there), upload-artifact and download-artifact copy folders to and from a
// store of artifacts, and actions/cache restores a folder by key or key
// prefix and saves it when the job ends.
type runner struct {
	t                       *testing.T
	root                    string // the repository: where action.yml is
	work, temp              string // the workspace and RUNNER_TEMP
	artifacts, caches       string // the stores, one folder per name or key
	secrets                 map[string]string
	runID                   int
	log                     bytes.Buffer // every step's output, in order
	summary                 string       // the last job's step summary file
	exitCodes               []string     // the exit-code outputs of "uses: ./" steps
	saves                   []func()     // actions/cache saves at the job's end
	stepFiles, summaryFiles int
}

// newRunner returns a runner over a fresh workspace and stores. bin, when
// not empty, is a debate built from this checkout: it is put where the
// action builds it, so that its build finds it up to date.
func newRunner(t *testing.T, bin string, secrets map[string]string) *runner {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	r := &runner{t: t, root: root, work: filepath.Join(d, "work"), temp: filepath.Join(d, "temp"),
		artifacts: filepath.Join(d, "artifacts"), caches: filepath.Join(d, "caches"), secrets: secrets}
	for _, dir := range []string{r.work, r.temp, r.artifacts, r.caches} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if bin != "" {
		if err := os.CopyFS(filepath.Join(r.temp, "debate-action"), os.DirFS(filepath.Dir(bin))); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// scope is what a step's expressions can read.
type scope struct {
	inputs, matrix map[string]string
	total          int                          // strategy.job-total
	steps          map[string]map[string]string // outputs by step id
	failed         bool                         // a step before failed
	actionPath     string
}

// workflow runs the workflow file name (under examples/ci) once and
// returns whether each job succeeded.
func (r *runner) workflow(name string) map[string]bool {
	r.t.Helper()
	r.runID++
	body, err := os.ReadFile(filepath.Join(r.root, "examples", "ci", name))
	if err != nil {
		r.t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(body, &w); err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	done := map[string]bool{}
	for len(done) < len(w.Jobs) {
		progressed := false
		for _, id := range sortedKeys(w.Jobs) {
			j := w.Jobs[id]
			if _, ok := done[id]; ok || slices.ContainsFunc(j.Needs, func(n string) bool { _, ok := done[n]; return !ok }) {
				continue
			}
			needsOK := !slices.ContainsFunc(j.Needs, func(n string) bool { return !done[n] })
			done[id], progressed = r.job(j, needsOK), true
		}
		if !progressed {
			r.t.Fatalf("%s: jobs wait on each other: %v", name, done)
		}
	}
	return done
}

// job runs a job, once per value of its matrix, and tells whether every
// run succeeded; it is skipped (false) when its if is false.
func (r *runner) job(j workflowJob, needsOK bool) bool {
	if !r.cond(j.If, &scope{failed: !needsOK}) {
		return false
	}
	matrices := []map[string]string{{}}
	for key, values := range j.Strategy.Matrix {
		var next []map[string]string
		for _, m := range matrices {
			for _, v := range values {
				c := map[string]string{key: v}
				for k, x := range m {
					c[k] = x
				}
				next = append(next, c)
			}
		}
		matrices = next
	}
	ok := true
	for _, m := range matrices {
		r.summaryFiles++
		r.summary = filepath.Join(r.temp, fmt.Sprintf("summary-%d.md", r.summaryFiles))
		s := &scope{matrix: m, total: len(matrices), steps: map[string]map[string]string{}}
		ok = r.steps(j.Steps, s) && ok
		for _, save := range r.saves {
			save()
		}
		r.saves = nil
	}
	return ok
}

// steps runs steps in s and tells whether none failed.
func (r *runner) steps(steps []actionStep, s *scope) bool {
	for _, st := range steps {
		if !r.cond(st.If, s) {
			continue
		}
		outputs, ok := r.step(st, s)
		if st.ID != "" {
			s.steps[st.ID] = outputs
		}
		s.failed = s.failed || !ok
	}
	return !s.failed
}

// step runs one step and returns its outputs and whether it succeeded.
func (r *runner) step(st actionStep, s *scope) (map[string]string, bool) {
	with := map[string]string{}
	for k, v := range st.With {
		with[k] = r.fill(v, s)
	}
	switch name, _, _ := strings.Cut(st.Uses, "@"); {
	case st.Uses == "./":
		return r.action(with, st.Env, s)
	case name == "actions/checkout", name == "actions/setup-go":
		return nil, true
	case name == "actions/upload-artifact":
		src := filepath.Join(r.work, with["path"])
		if _, err := os.Stat(src); err != nil {
			fmt.Fprintf(&r.log, "upload-artifact: nothing at %s\n", with["path"])
			return nil, true
		}
		r.copyDir(src, filepath.Join(r.artifacts, with["name"]))
		return nil, true
	case name == "actions/download-artifact":
		matches, _ := filepath.Glob(filepath.Join(r.artifacts, with["pattern"]))
		for _, m := range matches {
			r.copyDir(m, filepath.Join(r.work, with["path"], filepath.Base(m)))
		}
		return nil, true
	case name == "actions/cache":
		r.cache(with)
		return nil, true
	case st.Uses != "":
		r.t.Fatalf("step %q uses %s, which this runner does not know", st.Name, st.Uses)
	}
	return r.shell(st, s)
}

// shell runs a run step with bash in the workspace (or its
// working-directory) and returns the outputs it set.
func (r *runner) shell(st actionStep, s *scope) (map[string]string, bool) {
	r.stepFiles++
	out := filepath.Join(r.temp, fmt.Sprintf("output-%d", r.stepFiles))
	cmd := exec.CommandContext(r.t.Context(), "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", r.fill(st.Run, s))
	cmd.Dir = r.work
	if st.WorkingDirectory != "" {
		cmd.Dir = r.fill(st.WorkingDirectory, s)
	}
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "CI=true", "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+r.summary,
		"RUNNER_TEMP="+r.temp, "GITHUB_WORKSPACE="+r.work, "GITHUB_RUN_ID="+strconv.Itoa(r.runID))
	for k, v := range st.Env {
		cmd.Env = append(cmd.Env, k+"="+r.fill(v, s))
	}
	b, err := cmd.CombinedOutput()
	r.log.Write(b)
	if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
		r.t.Fatalf("step %q: %v", st.Name, err)
	}
	return readOutputs(r.t, out), err == nil
}

// action runs action.yml's steps with the inputs with (and the defaults),
// the environment env added to each step, and returns its outputs.
func (r *runner) action(with, env map[string]string, outer *scope) (map[string]string, bool) {
	body, err := os.ReadFile(filepath.Join(r.root, "action.yml"))
	if err != nil {
		r.t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(body, &a); err != nil || a.Runs.Using != "composite" {
		r.t.Fatalf("action.yml: %v, runs.using %q", err, a.Runs.Using)
	}
	s := &scope{inputs: map[string]string{}, steps: map[string]map[string]string{}, actionPath: r.root}
	for name, in := range a.Inputs {
		s.inputs[name] = in.Default
		if v, ok := with[name]; ok {
			s.inputs[name] = v
		} else if in.Required {
			r.t.Fatalf("input %s is required and not given", name)
		}
	}
	for name := range with {
		if _, ok := a.Inputs[name]; !ok {
			r.t.Fatalf("the action has no input %q", name)
		}
	}
	steps := slices.Clone(a.Runs.Steps)
	for i := range steps {
		e := map[string]string{}
		for k, v := range env {
			e[k] = r.fill(v, outer)
		}
		for k, v := range steps[i].Env {
			e[k] = v
		}
		steps[i].Env = e
	}
	ok := r.steps(steps, s)
	outputs := map[string]string{}
	for name, o := range a.Outputs {
		outputs[name] = r.fill(o.Value, s)
	}
	r.exitCodes = append(r.exitCodes, outputs["exit-code"])
	return outputs, ok
}

// cache restores the folder with["path"] from the newest cache of key
// with["key"], else of a prefix in with["restore-keys"], and saves it under
// the key when the job ends, unless a cache of that key exists.
func (r *runner) cache(with map[string]string) {
	key, dir := with["key"], filepath.Join(r.work, with["path"])
	if strings.ContainsAny(key, ",\n") || len(key) > 512 {
		r.t.Fatalf("cache key %q: no commas, at most 512 characters", key)
	}
	entries, _ := os.ReadDir(r.caches)
	restore := func(prefix string, exact bool) bool {
		var best string
		for _, e := range entries { // names are "<n> <key>", n counting up
			_, k, _ := strings.Cut(e.Name(), " ")
			if exact && k == prefix || !exact && strings.HasPrefix(k, prefix) {
				best = e.Name()
			}
		}
		if best != "" {
			r.copyDir(filepath.Join(r.caches, best), dir)
			fmt.Fprintf(&r.log, "cache restored from key: %s\n", best)
		}
		return best != ""
	}
	if !restore(key, true) {
		for _, p := range strings.Split(strings.TrimSpace(with["restore-keys"]), "\n") {
			if p = strings.TrimSpace(p); p != "" && restore(p, false) {
				break
			}
		}
	}
	r.saves = append(r.saves, func() {
		if _, err := os.Stat(dir); err == nil {
			r.copyDir(dir, filepath.Join(r.caches, fmt.Sprintf("%03d %s", len(entries), key)))
		}
	})
}

// copyDir copies the folder src to dst.
func (r *runner) copyDir(src, dst string) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		r.t.Fatal(err)
	}
	os.RemoveAll(dst)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		r.t.Fatal(err)
	}
}

// expression finds the ${{ … }} expressions a runner fills in.
var expression = regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)

// fill replaces every expression in text by its value.
func (r *runner) fill(text string, s *scope) string {
	return expression.ReplaceAllStringFunc(text, func(e string) string {
		return r.value(expression.FindStringSubmatch(e)[1], s)
	})
}

// cond evaluates an if: terms joined by &&, each a status function, a
// comparison or a value; without a status function a failed step before
// makes it false, as success() is then implied.
func (r *runner) cond(text string, s *scope) bool {
	text = strings.TrimSpace(text)
	if m := expression.FindStringSubmatch(text); m != nil && m[0] == text {
		text = m[1]
	}
	if text == "" {
		return !s.failed
	}
	status := false
	for _, term := range strings.Split(text, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "always()", term == "!cancelled()":
			status = true
		case term == "success()":
			status = true
			if s.failed {
				return false
			}
		case strings.Contains(term, "=="):
			a, b, _ := strings.Cut(term, "==")
			if r.value(a, s) != r.value(b, s) {
				return false
			}
		case strings.Contains(term, "!="):
			a, b, _ := strings.Cut(term, "!=")
			if r.value(a, s) == r.value(b, s) {
				return false
			}
		default:
			r.t.Fatalf("if: %q: this runner does not know %q", text, term)
		}
	}
	return status || !s.failed
}

// value evaluates a literal, a context value or hashFiles(…).
func (r *runner) value(x string, s *scope) string {
	x = strings.TrimSpace(x)
	if arg, ok := strings.CutPrefix(x, "hashFiles("); ok {
		name := r.value(strings.TrimSuffix(arg, ")"), s)
		b, err := os.ReadFile(filepath.Join(r.work, name))
		if err != nil {
			return ""
		}
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	}
	if lit, ok := strings.CutPrefix(x, "'"); ok {
		return strings.TrimSuffix(lit, "'")
	}
	head, rest, _ := strings.Cut(x, ".")
	switch {
	case head == "inputs":
		return s.inputs[rest]
	case head == "matrix":
		return s.matrix[rest]
	case head == "secrets":
		return r.secrets[rest]
	case head == "steps":
		id, out, _ := strings.Cut(rest, ".outputs.")
		return s.steps[id][out]
	case x == "strategy.job-total":
		return strconv.Itoa(s.total)
	case x == "github.action_path":
		return s.actionPath
	case x == "github.run_id":
		return strconv.Itoa(r.runID)
	case x == "github.run_attempt":
		return "1"
	case x == "runner.temp":
		return r.temp
	}
	r.t.Fatalf("the expression %s is not one this runner knows", x)
	return ""
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
