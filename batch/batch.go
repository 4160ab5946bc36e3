// Package batch is the batch run: the debates of a config played to their
// end and written to the output folder. "debate run" (with --demo, --shard
// and --resume) and "debate bench" all run through Run, which holds the
// whole path: the selection (Select), the providers' clients or the
// built-in scripted model of a demo, the journal of completed calls that
// lets a run resume, the engine with the motions' debate database, the raw
// dumps and the reports.
package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/gitrepo"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/journal"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/agents"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/quote/repo"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/store"
	"github.com/debatehq/debate/tree"
)

// Options tune a run. The zero value plays every topic and motion of the
// config with its models, journals the calls in the output folder and
// writes the reports there.
type Options struct {
	// Selection is what to play, as Select made it; nil plays everything.
	Selection *tree.Selection
	// Resume reuses every call the journal in the output folder holds, from
	// an earlier run of the same config, and continues its motions.
	Resume bool
	// JSON, when set, receives the run as JSON (run.json) instead of the
	// output folder; the run then keeps no journal.
	JSON io.Writer
	// Demo plays the config against the built-in scripted model: every
	// endpoint is replaced, no key is needed, nothing leaves the process,
	// and the motions use a temporary debate database.
	Demo bool
	// Getenv reads the environment, where the motions' debate database is
	// found (see MotionDB); os.LookupEnv when nil.
	Getenv func(string) (string, bool)
	// PositionsOnly asks each debater every topic once and ends the topic
	// there (see orchestrator.Options.PositionsOnly).
	PositionsOnly bool
	// Events receives the engine's progress events; nil drops them.
	Events func(tree.Event)
	// Logger receives what happens along the run; nil discards it.
	Logger *slog.Logger
	// AgentEnviron is the environment coding agents start from; nil: the
	// process's own.
	AgentEnviron []string

	// demoModel, when set, is given the scripted model a demo plays
	// against, whose counts a test reads.
	demoModel func(*scripted.Server)
}

// Result is a finished (or stopped) run.
type Result struct {
	Run *tree.Run
	// Err is why the engine stopped short (the context ended, the motions
	// could not be played); the reports were written all the same.
	Err error
	// Files are the files written, in order; none with Options.JSON.
	Files []string
	// Replayed counts the calls the journal answered.
	Replayed int
}

// Run plays the selected topics and motions of cfg and writes the reports.
// cfg must have been loaded and validated; it is left unchanged (a demo
// plays a copy adapted to the scripted model). Run returns an error, and no
// result, when the run cannot start; when it has run but writing its
// reports, or saving its journal, failed, it returns the result with the
// files written so far and the error, which says what it means for a later
// --resume.
func Run(ctx context.Context, cfg *configs.Config, opt Options) (_ *Result, err error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sel := opt.Selection
	if sel == nil {
		s, err := Select(cfg, nil, nil)
		if err != nil {
			return nil, err
		}
		sel = &s
	}
	set, err := prompts.New(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return nil, err
	}
	if opt.Demo {
		demo := cfg.Clone()
		cfg = &demo
	}
	var raw rawLog
	client, err := newClient(cfg, opt, &raw, log)
	if err != nil {
		return nil, err
	}
	rs := &resources{log: log}
	defer func() { err = errors.Join(err, rs.close()) }()
	eopt, err := rs.open(ctx, cfg, sel, opt)
	if err != nil {
		return nil, err
	}
	aopt := agents.Options{Logger: log, Environ: opt.AgentEnviron}
	if eopt.Repository != nil {
		aopt.Read = []gitrepo.State{eopt.Repository.State()}
	}
	if cfg.Output.IncludeRawResponses {
		aopt.Record = raw.add
	}
	runner, err := agents.New(ctx, cfg, client, aopt)
	if err != nil {
		return nil, err
	}
	rs.jopt.Sent = runner.Sent
	journaled := orchestrator.NewJournaled(runner, rs.jopt)
	var completer orchestrator.Completer = runner
	if rs.jopt.Journal != nil || rs.jopt.Cache != nil {
		completer = journaled
	}
	run, runErr := orchestrator.New(cfg, completer, set, eopt).Run(ctx)
	client.CloseIdleConnections() // the run's calls are done
	// Closed before the reports are written, so that a run.json newer than
	// the journal tells a later run that this one got to its end.
	saved := rs.closeJournal()
	if run == nil {
		return nil, errors.Join(runErr, saved)
	}
	run.Shard = sel.Shard
	res := &Result{Run: run, Err: runErr, Replayed: journaled.Replayed()}
	if rs.jopt.Cache != nil {
		for i := range run.Topics {
			run.Topics[i].Cache = journaled.CacheUse(run.Topics[i].ID)
		}
		run.Cache = journaled.RunCacheUse()
	}
	for i := range run.Topics {
		run.Topics[i].Sessions = runner.Sessions(run.Topics[i].ID)
	}
	return res, errors.Join(saved, write(cfg, opt, res, raw.files(), eopt.Repository))
}

// write records the config, redacted, and whether it is a demo in res's run
// and writes the run as opt asks: as JSON to opt.JSON, else as reports (with
// the raw dumps and the copies of the documents and repository files quoted)
// in the output folder, whose paths it adds to res. A config that cannot be
// recorded is reported, and the run written without it.
func write(cfg *configs.Config, opt Options, res *Result, raw []output.RawFile, files *repo.Files) error {
	run := res.Run
	run.Demo = opt.Demo
	b, cfgErr := json.Marshal(cfg.Redacted())
	if cfgErr != nil {
		cfgErr = fmt.Errorf("record the config in run.json: %w", cfgErr)
	} else {
		run.Config = b
	}
	if opt.JSON != nil {
		b, err := output.EncodeRun(run)
		if err == nil {
			_, err = opt.JSON.Write(b)
		}
		return errors.Join(cfgErr, err)
	}
	var err error
	res.Files, err = output.Write(cfg.Output.Dir, run, output.Options{Formats: cfg.Output.Format, Raw: raw, FailOn: cfg.Params.FailOnDecisions(), Documents: copies(cfg, run, files)})
	if err != nil {
		err = fmt.Errorf("write reports: %w", err)
	}
	return errors.Join(cfgErr, err)
}

// copies are the documents a run's output may keep a copy of, shared or a
// topic's own, all but those that look like secrets, and the files of the
// repository (files, when set) that a verified quote of run points into,
// as the run read them.
func copies(cfg *configs.Config, run *tree.Run, files *repo.Files) []output.Document {
	var out []output.Document
	for _, d := range cfg.AllDocuments() {
		if !configs.LooksSecret(d.Path, d.Content) {
			out = append(out, output.Document{Name: d.Path, Text: d.Content})
		}
	}
	if files == nil {
		return out
	}
	for _, name := range render.QuotedDocuments(run) {
		if slices.ContainsFunc(out, func(d output.Document) bool { return d.Name == name }) {
			continue
		}
		if d, err := files.Document(name); err == nil {
			out = append(out, output.Document{Name: d.Name, Text: d.Text})
		}
	}
	return out
}

// newClient returns the providers' client of the run: to the scripted model
// for a demo, recording every exchange in raw when the config asks for the
// raw responses.
func newClient(cfg *configs.Config, opt Options, raw *rawLog, log *slog.Logger) (*providers.Client, error) {
	popt := providers.Options{Concurrency: cfg.Params.Concurrency, Logger: log}
	if opt.Demo {
		model := prepareDemo(cfg, log)
		if opt.demoModel != nil {
			opt.demoModel(model)
		}
		popt.HTTPClient = model.HTTPClient()
	}
	if cfg.Output.IncludeRawResponses {
		popt.Record = raw.add
	}
	return providers.New(cfg, popt)
}

// resources are what a run opens besides its client, all in one place: the
// output folder (locked) with its journal, the call cache and the motions'
// debate database. close closes them in the reverse order and joins their
// errors, each saying what it means for the run's data.
type resources struct {
	log *slog.Logger
	// jopt wraps the client in the journal and the cache.
	jopt    orchestrator.JournalOptions
	journal *journal.Journal // nil once closed
	path    string           // the journal's
	closers []func() error   // in the order opened
}

// open opens what the run keeps its answers in and returns the engine's
// options: the journal, unless the run goes to Options.JSON, the call cache
// when cache.dir is set, the shared repository when quotes may point into
// it and, when motions are selected, their debate database.
func (r *resources) open(ctx context.Context, cfg *configs.Config, sel *tree.Selection, opt Options) (orchestrator.Options, error) {
	eopt := orchestrator.Options{Selection: sel, Events: opt.Events, Logger: r.log, PositionsOnly: opt.PositionsOnly, Say: render.ReasonText}
	r.jopt = orchestrator.JournalOptions{Pricing: cfg.Pricing, Logger: r.log}
	if opt.JSON == nil {
		release, err := output.Lock(cfg.Output.Dir)
		if err != nil {
			return eopt, err
		}
		r.closers = append(r.closers, func() error { release(); return nil })
		r.path = filepath.Join(cfg.Output.Dir, JournalFile)
		if r.journal, err = openJournal(ctx, r.path, opt.Resume, cfg.Output.Dir, r.log); err != nil {
			return eopt, err
		}
		r.closers = append(r.closers, r.closeJournal)
		r.jopt.Journal = r.journal
	}
	if cfg.Cache.Dir != "" {
		c, err := journal.OpenCache(ctx, cfg.Cache.Dir, cfg.Cache.MaxBytes)
		if err != nil {
			return eopt, err
		}
		r.closers = append(r.closers, func() error { return closeCache(c, cfg.Cache.Dir) })
		r.jopt.Cache = c
	}
	var err error
	if eopt.Repository, err = orchestrator.OpenRepository(ctx, cfg); err != nil {
		return eopt, err
	}
	if len(sel.Motions) > 0 {
		eopt.Motions, err = r.openMotions(ctx, cfg, opt)
	}
	return eopt, err
}

// closeJournal closes the journal, before the reports are written, and says
// what a failure means for a later --resume; once closed, it returns nil.
func (r *resources) closeJournal() error {
	j := r.journal
	if j == nil {
		return nil
	}
	r.journal = nil
	err := j.Close()
	if err == nil {
		return nil
	}
	var u *journal.UnsavedError
	if !errors.As(err, &u) {
		return fmt.Errorf("the journal %s could not be closed: %w; a --resume of this run may repeat calls it made", r.path, err)
	}
	var lost []string
	if u.Calls > 0 {
		lost = append(lost, fmt.Sprintf("make again the %d calls it could not save", u.Calls))
	}
	if u.Notes > 0 {
		lost = append(lost, "play its motions afresh or without an argument's reasoning, for want of the notes it could not save")
	}
	return fmt.Errorf("the journal %s could not be saved: %w; a --resume of this run will %s", r.path, err, strings.Join(lost, ", and "))
}

// closeCache closes the call cache c, in dir, and says what a failure
// means for later runs.
func closeCache(c *journal.Cache, dir string) error {
	err := c.Close()
	if err == nil {
		return nil
	}
	var u *journal.UnsavedError
	if !errors.As(err, &u) {
		return fmt.Errorf("the call cache %s could not be closed: %w; later runs may make again calls this one made", dir, err)
	}
	return fmt.Errorf("the call cache %s could not be saved: %w; later runs will make again the %d calls this run could not keep in the cache %s", dir, err, u.Calls, dir)
}

// close closes what open opened, in the reverse order, and joins the
// errors.
func (r *resources) close() error {
	var errs []error
	for _, c := range slices.Backward(r.closers) {
		errs = append(errs, c())
	}
	r.closers = nil
	return errors.Join(errs...)
}

// openJournal opens the journal of completed calls in the output folder:
// the one a resumed run continues, or a fresh one, after keeping the journal
// of an unfinished run under a name of its own.
func openJournal(ctx context.Context, path string, resume bool, dir string, log *slog.Logger) (*journal.Journal, error) {
	if !resume {
		kept, err := keepUnfinishedJournal(ctx, path, filepath.Join(dir, "run.json"), time.Now())
		switch {
		case err != nil:
			return nil, err
		case kept != nil && kept.err != nil:
			log.Warn(fmt.Sprintf("the output folder holds a journal this run cannot read (%v); without --resume this run starts afresh and keeps that file as %s", kept.err, kept.path))
		case kept != nil:
			log.Warn(fmt.Sprintf("the output folder holds the journal of an unfinished run (%d completed calls); without --resume this run starts afresh and keeps that journal as %s (to continue that run instead, stop this one, rename the file back to %s and add --resume)",
				kept.calls, kept.path, JournalFile))
		}
	}
	j, err := journal.Open(ctx, path, !resume)
	if err != nil {
		return nil, err
	}
	if resume {
		n, err := j.Len(ctx)
		if err != nil {
			return nil, errors.Join(err, j.Close())
		}
		log.Info("resuming", "journal", path, "completed calls", n)
	}
	return j, nil
}

// openMotions opens the motions' debate database, closed with the run's
// other resources, and returns the engine's motion options.
func (r *resources) openMotions(ctx context.Context, cfg *configs.Config, opt Options) (*orchestrator.MotionOptions, error) {
	roles, err := prompts.NewRoles(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return nil, err
	}
	var path string
	if opt.Demo {
		dir, err := os.MkdirTemp("", "debate-demo-")
		if err != nil {
			return nil, fmt.Errorf("the demo's debate database: %w", err)
		}
		r.closers = append(r.closers, func() error {
			if err := os.RemoveAll(dir); err != nil {
				return fmt.Errorf("remove the demo's debate database: %w", err)
			}
			return nil
		})
		path = filepath.Join(dir, "debate.db")
	} else {
		getenv := opt.Getenv
		if getenv == nil {
			getenv = os.LookupEnv
		}
		if path, err = MotionDB(cfg, getenv); err != nil {
			return nil, err
		}
		r.log.Info("motions use the debate database", "db", redact.URL(path))
	}
	id, err := runID(ctx, r.journal)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, path, store.Options{Logger: r.log})
	if err != nil {
		return nil, err
	}
	r.closers = append(r.closers, func() error {
		if err := st.Close(); err != nil {
			return fmt.Errorf("close the debate database %s: %w", redact.URL(path), err)
		}
		return nil
	})
	r.log.Info("motions play as one run", "run", id)
	return &orchestrator.MotionOptions{Store: st, Roles: roles, RunID: id, Journal: notebook(r.journal)}, nil
}

// MotionDB returns the debate database of a config's motions: protocol.db
// when set, else DebateDB's, so that a person can follow the debates and
// make a human arbitrator's rulings there with "debate serve".
func MotionDB(cfg *configs.Config, getenv func(string) (string, bool)) (string, error) {
	explicit := ""
	if cfg.Protocol != nil {
		explicit = cfg.Protocol.DB
	}
	return DebateDB(explicit, getenv)
}

// DebateDB returns the debate database to open: explicit when set, else
// $DEBATE_DB, else the user's data folder (store.DefaultPath).
func DebateDB(explicit string, getenv func(string) (string, bool)) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	return store.DefaultPathFrom(getenv)
}

// notebook returns j as the motions' notebook: none without a journal.
func notebook(j *journal.Journal) orchestrator.Notebook {
	if j == nil {
		return nil
	}
	return j
}
