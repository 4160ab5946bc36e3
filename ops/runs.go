package ops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/output"
)

// States of a run.
const (
	Running   = "running"   // the run is playing its topics
	Finished  = "finished"  // every topic got to its end and the reports are written
	Cancelled = "cancelled" // stopped by Cancel; the reports say so
	Broken    = "failed"    // the run stopped on an error
)

// Codes of a refused run operation.
const (
	CodeRunNotFound   = "RUN_NOT_FOUND"
	CodeFolderRefused = "FOLDER_NOT_ALLOWED"
	CodeNeedsMaxCost  = "MAX_COST_REQUIRED"
	CodeBadConfig     = "INVALID_CONFIG"
	CodeFolderBusy    = "FOLDER_IN_USE"
	CodeRunNotEnded   = "RUN_NOT_ENDED"
)

// RunError is a run operation refused: Code says which refusal, Suggestion
// how to go on.
type RunError struct {
	Code, Message, Suggestion string
}

// Error gives the code and the message.
func (e *RunError) Error() string { return e.Code + ": " + e.Message }

// demoKey stands in for every unset variable of a demo run. Keys are
// redacted from messages, so it must not occur in one by chance.
const demoKey = "no-key-needed-for-the-demo"

// DemoEnv returns the environment of a demo run: a variable that is not set
// reads as a placeholder key, so that a config's "${DEBATE_API_KEY}" needs
// no key. Nothing leaves the process, whatever the value.
func DemoEnv(getenv func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := getenv(name); ok {
			return v, true
		}
		return demoKey, true
	}
}

// RunsOptions configure Runs.
type RunsOptions struct {
	// Folders are the folders a run's config may be read from; a config
	// elsewhere is refused. None refuses every config path.
	Folders []string
	// Default is the config an inline question takes everything but its
	// question and models from; "" refuses inline questions.
	Default string
	// Getenv looks up the environment of configs; nil means os.LookupEnv.
	Getenv func(string) (string, bool)
	// Templates checks a config's prompt overrides (configs.Options).
	Templates func(language, dir string) error
	// Logger receives what happens along the runs; nil discards it.
	Logger *slog.Logger
	// Keep is how many finished runs are remembered (default 50).
	Keep int
}

// Runs starts batch runs in the background and keeps them while they run
// and after, for their status, decision and reports. It is safe for
// concurrent use; Close stops the runs still going.
type Runs struct {
	opt  RunsOptions
	mu   sync.Mutex
	runs []*run // oldest first
	wg   sync.WaitGroup
}

// NewRuns returns an empty set of runs.
func NewRuns(opt RunsOptions) *Runs {
	if opt.Getenv == nil {
		opt.Getenv = os.LookupEnv
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Keep <= 0 {
		opt.Keep = 50
	}
	return &Runs{opt: opt}
}

// Start is what a run is started from: a config (Config), or an inline
// question (Question and Models) played with everything else from the
// default config.
type Start struct {
	Config     string   `json:"config,omitempty" jsonschema:"path of a JSONC config file, inside a folder this server serves; or give question and models instead"`
	Question   string   `json:"question,omitempty" jsonschema:"an inline question to debate, played with the default config's judge, endpoint and parameters"`
	Background string   `json:"background,omitempty" jsonschema:"background of the inline question: what the debaters should know"`
	Models     []string `json:"models,omitempty" jsonschema:"models of the debaters of the inline question (at least two), on the default config's endpoint"`
	Judge      string   `json:"judge,omitempty" jsonschema:"model of the judge of the inline question (default: the default config's)"`
	Topics     []string `json:"topics,omitempty" jsonschema:"ids of the config's topics and motions to play (default: all)"`
	MaxCost    float64  `json:"maxCost,omitempty" jsonschema:"cap on the run's spend, in the currency of the config's pricing; required when the config sets no budget.maxCost (not for a demo)"`
	Demo       bool     `json:"demo,omitempty" jsonschema:"play against the built-in scripted model: no key, no network, no cost"`
}

// Begin loads and checks the config of s and starts the run in the
// background; it returns the run's first status at once.
func (rs *Runs) Begin(s Start) (Status, error) {
	cfg, err := rs.config(s)
	if err != nil {
		return Status{}, err
	}
	sel, err := batch.Select(cfg, s.Topics, nil)
	var unknown *batch.UnknownIDError
	if errors.As(err, &unknown) {
		return Status{}, &InputError{Field: "topics", Problem: fmt.Sprintf("%q: no such topic or motion; known ids: %s", unknown.ID, strings.Join(unknown.Known, ", "))}
	}
	if err != nil {
		return Status{}, err
	}
	opt := batch.Options{Selection: &sel, Demo: s.Demo, Logger: rs.opt.Logger, Getenv: rs.opt.Getenv}
	ctx, cancel := context.WithCancel(context.Background())
	r := newRun(uuid.NewString()[:8], cfg, sel, s.Demo, cancel)
	if err := rs.add(r); err != nil {
		cancel()
		return Status{}, err
	}
	opt.Events = r.event
	rs.wg.Go(func() {
		defer cancel()
		res, err := batch.Run(ctx, cfg, opt)
		r.finish(res, err, ctx.Err() != nil)
	})
	return r.status(), nil
}

// add records r, refusing a second run into a folder a running run writes,
// and forgets the oldest finished runs past the limit.
func (rs *Runs) add(r *run) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, o := range rs.runs {
		if o.folder == r.folder && o.running() {
			return &RunError{Code: CodeFolderBusy, Message: fmt.Sprintf("run %s is writing to %s", o.id, o.folder),
				Suggestion: "wait for it (run_status) or cancel it (run_cancel) first"}
		}
	}
	rs.runs = append(rs.runs, r)
	for len(rs.runs) > rs.opt.Keep {
		i := slices.IndexFunc(rs.runs, func(o *run) bool { return !o.running() })
		if i < 0 {
			break
		}
		rs.runs = slices.Delete(rs.runs, i, i+1)
	}
	return nil
}

// config loads the config s names, or builds the inline question's.
func (rs *Runs) config(s Start) (*configs.Config, error) {
	switch {
	case s.Config != "" && s.Question != "":
		return nil, &InputError{Field: "config", Problem: "and question: give one of them"}
	case s.Config == "" && s.Question == "":
		return nil, &InputError{Field: "config", Problem: "or question is required: a config path, or a question with its models"}
	case s.MaxCost < 0:
		return nil, &InputError{Field: "maxCost", Problem: fmt.Sprintf("must be positive (got %g)", s.MaxCost)}
	}
	path := s.Config
	if s.Question != "" {
		if rs.opt.Default == "" {
			return nil, &RunError{Code: CodeBadConfig, Message: "this server has no default config for inline questions",
				Suggestion: "give a config path, or start the server with a default config"}
		}
		if len(s.Models) < 2 {
			return nil, &InputError{Field: "models", Problem: fmt.Sprintf("needs at least two debaters' models (got %d)", len(s.Models))}
		}
		path = rs.opt.Default
	} else if err := rs.allowed(path); err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the folders named in answers are absolute
	}
	getenv := rs.opt.Getenv
	if s.Demo {
		getenv = DemoEnv(getenv)
	}
	cfg, err := configs.Load(path, configs.Options{Getenv: getenv, Templates: rs.opt.Templates})
	if err != nil {
		return nil, &RunError{Code: CodeBadConfig, Message: err.Error(), Suggestion: "fix the config (debate validate --config " + path + ")"}
	}
	if s.Question != "" {
		if err := rs.inline(cfg, s); err != nil {
			return nil, err
		}
	}
	return cfg, capCost(cfg, s)
}

// allowed refuses a config path outside the served folders.
func (rs *Runs) allowed(path string) error {
	abs, err := realPath(path)
	if err != nil {
		return &InputError{Field: "config", Problem: fmt.Sprintf("%q: %v", path, err)}
	}
	for _, f := range rs.opt.Folders {
		dir, err := realPath(f)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
			return nil
		}
	}
	if len(rs.opt.Folders) == 0 {
		return &RunError{Code: CodeFolderRefused, Message: fmt.Sprintf("%s: this server runs no config by its path", path),
			Suggestion: "ask an inline question (question and models), or start the server with the config's folder"}
	}
	return &RunError{Code: CodeFolderRefused, Message: fmt.Sprintf("%s is outside the folders this server serves (%s)", path, strings.Join(rs.opt.Folders, ", ")),
		Suggestion: "use a config inside one of them, or start the server for that config's folder"}
}

// realPath is path absolute with its symbolic links resolved.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// inline turns the default config cfg into the run of an inline question:
// its one topic, its debaters with the models given (each on the default
// config's endpoint for that place, else its top-level one), its judge, and
// an output folder of its own under the default one. No endpoint or key
// comes from the question.
func (rs *Runs) inline(cfg *configs.Config, s Start) error {
	debaters := make([]configs.Participant, len(s.Models))
	for i, m := range s.Models {
		if strings.TrimSpace(m) == "" {
			return &InputError{Field: "models", Problem: fmt.Sprintf("[%d] is empty: give a model name", i)}
		}
		p := configs.Participant{ID: fmt.Sprintf("model-%d", i+1), Model: m}
		if i < len(cfg.Debaters) {
			p = cfg.Debaters[i]
			p.Model, p.Fallback = m, ""
		}
		debaters[i] = p
	}
	cfg.Debaters = debaters
	if s.Judge != "" {
		if cfg.Reviewer == nil {
			cfg.Reviewer = &configs.Participant{ID: "judge"}
		}
		cfg.Reviewer.Model, cfg.Reviewer.Fallback = s.Judge, ""
		cfg.Judges = nil
	}
	cfg.Topics = []configs.Topic{{ID: "q1", Title: s.Question, Background: s.Background}}
	cfg.Motions, cfg.Protocol = nil, nil
	cfg.Output.Dir = filepath.Join(cfg.Output.Dir, "mcp-"+time.Now().UTC().Format("20060102-150405.000"))
	if err := cfg.Validate(); err != nil {
		return &RunError{Code: CodeBadConfig, Message: err.Error(), Suggestion: "check the models and the question"}
	}
	return nil
}

// capCost applies the maxCost of s, and refuses a run that would have no
// cap on its spend.
func capCost(cfg *configs.Config, s Start) error {
	if s.MaxCost > 0 && (cfg.Budget.MaxCost <= 0 || s.MaxCost < cfg.Budget.MaxCost) {
		cfg.Budget.MaxCost = s.MaxCost
	}
	if cfg.Budget.MaxCost <= 0 && !s.Demo {
		return &RunError{Code: CodeNeedsMaxCost, Message: "the config sets no budget.maxCost, so the run's spend would have no cap",
			Suggestion: "give maxCost (in the currency of the config's pricing), or set budget.maxCost in the config"}
	}
	return nil
}

// find returns the run id.
func (rs *Runs) find(id string) (*run, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, r := range rs.runs {
		if r.id == id {
			return r, nil
		}
	}
	return nil, &RunError{Code: CodeRunNotFound, Message: fmt.Sprintf("no run %q", id),
		Suggestion: "list the runs with run_list; runs are kept while this server runs"}
}

// Status returns the status of run id. With wait, it returns when the run
// ends or wait has passed, whichever is first, calling progress (when not
// nil) with each new status meanwhile.
func (rs *Runs) Status(ctx context.Context, id string, wait time.Duration, progress func(Status)) (Status, error) {
	r, err := rs.find(id)
	if err != nil {
		return Status{}, err
	}
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	for {
		st, changed := r.watch()
		if st.State != Running || wait <= 0 {
			return st, nil
		}
		select {
		case <-changed:
			if progress != nil {
				progress(r.status())
			}
		case <-timer.C:
			return r.status(), nil
		case <-ctx.Done():
			return r.status(), ctx.Err()
		}
	}
}

// Cancel stops run id and waits up to wait for its reports to be written.
func (rs *Runs) Cancel(ctx context.Context, id string, wait time.Duration) (Status, error) {
	r, err := rs.find(id)
	if err != nil {
		return Status{}, err
	}
	r.cancel()
	ctx, stop := context.WithTimeout(ctx, wait)
	defer stop()
	select {
	case <-r.done:
	case <-ctx.Done():
	}
	return r.status(), nil
}

// List returns the statuses of the runs kept, newest first, without their
// topics.
func (rs *Runs) List() []Status {
	rs.mu.Lock()
	runs := slices.Clone(rs.runs)
	rs.mu.Unlock()
	out := make([]Status, 0, len(runs))
	for _, r := range slices.Backward(runs) {
		st := r.status()
		st.Topics = nil
		out = append(out, st)
	}
	return out
}

// Report returns the content of the report file name of run id: one of
// the files the run wrote, by its name in the run's folder, read as every
// run folder is (a regular file, never through a symbolic link, at most
// output.MaxRunBytes).
func (rs *Runs) Report(id, name string) ([]byte, error) {
	r, err := rs.find(id)
	if err != nil {
		return nil, err
	}
	if r.wrote(name) {
		return regular.ReadFileNoFollow(filepath.Join(r.folder, name), output.MaxRunBytes)
	}
	return nil, &RunError{Code: CodeRunNotFound, Message: fmt.Sprintf("run %s has no report %q", id, name),
		Suggestion: "run_status lists the run's reports once it has ended"}
}

// Close cancels the runs still going and waits for them to write their
// reports.
func (rs *Runs) Close() {
	rs.mu.Lock()
	for _, r := range rs.runs {
		r.cancel()
	}
	rs.mu.Unlock()
	rs.wg.Wait()
}
