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
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/journal"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers"
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
	// MotionDB is the debate database of the motions (see MotionDB); empty
	// finds it from the config and the environment.
	MotionDB string
	// PositionsOnly asks each debater every topic once and ends the topic
	// there (see orchestrator.Options.PositionsOnly).
	PositionsOnly bool
	// Events receives the engine's progress events; nil drops them.
	Events func(tree.Event)
	// Logger receives what happens along the run; nil discards it.
	Logger *slog.Logger

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
// reports failed, it returns the result with the files written so far and
// the error.
func Run(ctx context.Context, cfg *configs.Config, opt Options) (*Result, error) {
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
	j, jopt, closeStores, err := openStores(ctx, cfg, opt, log)
	if err != nil {
		return nil, err
	}
	defer closeStores()
	jopt.Sent = client.Sent
	journaled := orchestrator.NewJournaled(client, jopt)
	var completer orchestrator.Completer = client
	if jopt.Journal != nil || jopt.Cache != nil {
		completer = journaled
	}
	s, err := seed(ctx, cfg, j)
	if err != nil {
		return nil, err
	}
	files, err := orchestrator.OpenRepository(ctx, cfg)
	if err != nil {
		return nil, err
	}
	eopt := orchestrator.Options{Selection: sel, Events: opt.Events, Logger: log, Seed: s, PositionsOnly: opt.PositionsOnly, Repository: files}
	if len(sel.Motions) > 0 {
		mo, closeMotions, err := openMotions(ctx, cfg, opt, j, log)
		if err != nil {
			return nil, err
		}
		defer closeMotions()
		eopt.Motions = mo
	}
	run, runErr := orchestrator.New(cfg, completer, set, eopt).Run(ctx)
	client.CloseIdleConnections() // the run's calls are done
	if j != nil {
		// Closed before the reports are written, so that a run.json newer
		// than the journal tells a later run that this one got to its end.
		j.Close()
	}
	if run == nil {
		return nil, runErr
	}
	run.Shard = sel.Shard
	res := &Result{Run: run, Err: runErr, Replayed: journaled.Replayed()}
	if jopt.Cache != nil {
		for i := range run.Topics {
			run.Topics[i].Cache = journaled.CacheUse(run.Topics[i].ID)
		}
		run.Cache = journaled.RunCacheUse()
	}
	return res, write(cfg, opt, res, raw.files(), files)
}

// write records the config, redacted, and whether it is a demo in res's run
// and writes the run as opt asks: as JSON to opt.JSON, else as reports (with
// the raw dumps and the copies of the documents and repository files quoted)
// in the output folder, whose paths it adds to res.
func write(cfg *configs.Config, opt Options, res *Result, raw []output.RawFile, files *repo.Files) error {
	run := res.Run
	run.Demo = opt.Demo
	if b, err := json.Marshal(cfg.Redacted()); err == nil {
		run.Config = b
	}
	if opt.JSON != nil {
		b, err := output.EncodeRun(run)
		if err == nil {
			_, err = opt.JSON.Write(b)
		}
		return err
	}
	var err error
	res.Files, err = output.Write(cfg.Output.Dir, run, output.Options{Formats: cfg.Output.Format, Raw: raw, FailOn: cfg.Params.FailOnDecisions(), Documents: copies(cfg, run, files)})
	if err != nil {
		return fmt.Errorf("write reports: %w", err)
	}
	return nil
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

// openStores opens what keeps the run's answers: the output folder (locked)
// with its journal, unless the run goes to Options.JSON, and the call cache
// when cache.dir is set. It returns the journal, the options that wrap the
// client in both (but for what the client sends, which keys the calls), and
// how to close them.
func openStores(ctx context.Context, cfg *configs.Config, opt Options, log *slog.Logger) (*journal.Journal, orchestrator.JournalOptions, func(), error) {
	jopt := orchestrator.JournalOptions{Pricing: cfg.Pricing, Logger: log}
	var closers []func() error
	closeAll := func() {
		for _, c := range slices.Backward(closers) {
			c()
		}
	}
	var j *journal.Journal
	if opt.JSON == nil {
		release, err := output.Lock(cfg.Output.Dir)
		if err != nil {
			return nil, jopt, nil, err
		}
		closers = append(closers, func() error { release(); return nil })
		if j, err = openJournal(ctx, cfg, opt.Resume, log); err != nil {
			closeAll()
			return nil, jopt, nil, err
		}
		closers = append(closers, j.Close)
		jopt.Journal = j
	}
	if cfg.Cache.Dir != "" {
		c, err := journal.OpenCache(ctx, cfg.Cache.Dir, cfg.Cache.MaxBytes)
		if err != nil {
			closeAll()
			return nil, jopt, nil, err
		}
		closers = append(closers, c.Close)
		jopt.Cache = c
	}
	return j, jopt, closeAll, nil
}

// openJournal opens the journal of completed calls in the output folder:
// the one a resumed run continues, or a fresh one, after keeping the journal
// of an unfinished run under a name of its own.
func openJournal(ctx context.Context, cfg *configs.Config, resume bool, log *slog.Logger) (*journal.Journal, error) {
	path := filepath.Join(cfg.Output.Dir, JournalFile)
	if !resume {
		kept, err := keepUnfinishedJournal(ctx, path, filepath.Join(cfg.Output.Dir, "run.json"), time.Now())
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
			j.Close()
			return nil, err
		}
		log.Info("resuming", "journal", path, "completed calls", n)
	}
	return j, nil
}

// openMotions opens the motions' debate database and returns the engine's
// motion options, and how to close the database.
func openMotions(ctx context.Context, cfg *configs.Config, opt Options, j *journal.Journal, log *slog.Logger) (*orchestrator.MotionOptions, func(), error) {
	roles, err := prompts.NewRoles(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return nil, nil, err
	}
	path, remove := opt.MotionDB, func() {}
	switch {
	case opt.Demo:
		dir, err := os.MkdirTemp("", "debate-demo-")
		if err != nil {
			return nil, nil, fmt.Errorf("the demo's debate database: %w", err)
		}
		path, remove = filepath.Join(dir, "debate.db"), func() { os.RemoveAll(dir) }
	case path == "":
		if path, err = MotionDB(cfg, os.LookupEnv); err != nil {
			return nil, nil, err
		}
	}
	id, err := runID(ctx, j)
	if err == nil {
		var st *store.Store
		if st, err = store.Open(ctx, path, store.Options{Logger: log}); err == nil {
			log.Info("motions play as one run", "run", id)
			closeAll := func() {
				if err := st.Close(); err != nil {
					log.Warn("close the debate database", "err", err)
				}
				remove()
			}
			return &orchestrator.MotionOptions{Store: st, Roles: roles, RunID: id, Journal: notebook(j)}, closeAll, nil
		}
	}
	remove()
	return nil, nil, err
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
