package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/debatehq/debate/internal/ghrunner"
)

// action is the part of action.yml a runner reads to run a composite
// action.
type action struct {
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

type actionStep struct {
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

// expression finds the ${{ … }} expressions a runner fills in.
var expression = regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)

// TestActionSteps runs action.yml's steps as a runner would, one after
// another: each run step with bash -eo pipefail, its env and the inputs
// filled in, its own GITHUB_OUTPUT file; the upload step is checked, not
// run. A demo run of the example config with fail-on "decided" writes its
// reports, sets the outputs and fails the last step with exit 8.
func TestActionSteps(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds debate")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(body, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	work, temp := t.TempDir(), t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "configs"), os.DirFS(filepath.Join(root, "configs", "examples"))); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{"config": "configs/minimal.jsonc", "args": "--demo --format markdown,junit", "fail-on": "decided"}
	for name, in := range a.Inputs {
		if _, ok := inputs[name]; !ok {
			if in.Required {
				t.Fatalf("input %s is required and the test does not give it", name)
			}
			inputs[name] = in.Default
		}
	}
	summary := filepath.Join(temp, "step-summary.md")
	outputs := map[string]map[string]string{} // by step id
	fill := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			x := expression.FindStringSubmatch(e)[1]
			switch {
			case strings.HasPrefix(x, "inputs."):
				return inputs[strings.TrimPrefix(x, "inputs.")]
			case x == "github.action_path":
				return root
			case x == "runner.temp":
				return temp
			case strings.HasPrefix(x, "steps."):
				id, rest, _ := strings.Cut(strings.TrimPrefix(x, "steps."), ".outputs.")
				return outputs[id][rest]
			}
			t.Fatalf("action.yml uses the expression %s, which this test does not know", e)
			return ""
		})
	}
	var last int
	for i, st := range a.Runs.Steps {
		if st.If != "" && st.If != "always()" {
			t.Fatalf("step %q runs if %q, which this test does not know", st.Name, st.If)
		}
		if st.Uses != "" {
			path := filepath.Join(work, fill(st.With["path"]))
			if !strings.HasPrefix(st.Uses, "actions/upload-artifact@") || fill(st.With["name"]) != inputs["artifact"] {
				t.Errorf("step %q uses %s with %v: want the output folder uploaded", st.Name, st.Uses, st.With)
			} else if _, err := os.Stat(filepath.Join(path, "run.json")); err != nil {
				t.Errorf("step %q uploads %s, which holds no run.json: %v", st.Name, path, err)
			}
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q runs in %q: want bash, the shell every runner has", st.Name, st.Shell)
		}
		out := filepath.Join(temp, "output-"+string(rune('a'+i)))
		cmd := exec.CommandContext(t.Context(), "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
		cmd.Dir = work
		if st.WorkingDirectory != "" {
			cmd.Dir = fill(st.WorkingDirectory)
		}
		cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary, "RUNNER_TEMP="+temp)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+fill(v))
		}
		b, err := cmd.CombinedOutput()
		last = 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			last = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("step %q: %v", st.Name, err)
		}
		if last != 0 && i < len(a.Runs.Steps)-1 {
			t.Fatalf("step %q exited %d:\n%s", st.Name, last, b)
		}
		if st.ID != "" {
			outputs[st.ID] = readOutputs(t, out)
		}
	}
	got := map[string]string{}
	for name, o := range a.Outputs {
		got[name] = fill(o.Value)
	}
	if got["exit-code"] != "8" || last != 8 {
		t.Errorf("exit-code output %q and the last step's exit %d, want 8 (a decision in fail-on)", got["exit-code"], last)
	}
	if got["decision-counts"] != `{"agreed":0,"decided":1,"split":0,"undecided":0}` || got["failed-topics"] != "cache-invalidation" {
		t.Errorf("outputs %v", got)
	}
	for _, f := range []string{"summary.md", "junit.xml", "run.json"} {
		if _, err := os.Stat(filepath.Join(work, inputs["output"], f)); err != nil {
			t.Errorf("the run wrote no %s: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(summary); !strings.HasPrefix(string(b), "### debate: 1 decided\n") {
		t.Errorf("job summary:\n%s", b)
	}
}

// readOutputs reads a step's GITHUB_OUTPUT file as the runner does.
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return ghrunner.Outputs(string(b))
}
