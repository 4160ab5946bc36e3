package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/google/uuid"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/store"
)

// runIDKey is the journal entry that keeps a run's id, so that "--resume"
// continues the same debates in the debate database.
var runIDKey = store.NoteKey("run id")

// legacyRunIDKey is where journals written before notes kept the run id.
const legacyRunIDKey = "motions:run-id"

// selection splits the ids given with --topic into topics and motions. With
// no ids, everything runs; with ids, only what they name.
type selection struct {
	all     bool
	topics  []string
	motions []string
}

func selectIDs(cfg *configs.Config, ids []string) selection {
	s := selection{all: len(ids) == 0}
	for _, id := range ids {
		if _, ok := cfg.MotionByID(id); ok {
			s.motions = append(s.motions, id)
		} else {
			s.topics = append(s.topics, id)
		}
	}
	return s
}

// runsTopics reports whether any topic is selected.
func (s selection) runsTopics(cfg *configs.Config) bool {
	return len(cfg.Topics) > 0 && (s.all || len(s.topics) > 0)
}

// runsMotions reports whether any motion is selected.
func (s selection) runsMotions(cfg *configs.Config) bool {
	return len(cfg.Motions) > 0 && (s.all || len(s.motions) > 0)
}

// knownIDs lists the topic and motion ids of a config, for messages.
func knownIDs(cfg *configs.Config) []string {
	return append(cfg.TopicIDs(), cfg.MotionIDs()...)
}

// hasID reports whether id names a topic or a motion of cfg.
func hasID(cfg *configs.Config, id string) bool {
	_, topic := cfg.TopicByID(id)
	_, motion := cfg.MotionByID(id)
	return topic || motion
}

// motionDB returns the debate database of a config's motions: protocol.db
// when set, else the database "debate serve" uses by default, so that a
// person can follow the debates and make a human arbitrator's rulings there.
func motionDB(cfg *configs.Config, getenv func(string) (string, bool)) (string, error) {
	explicit := ""
	if cfg.Protocol != nil {
		explicit = cfg.Protocol.DB
	}
	return debateDB(explicit, getenv)
}

// debateDB returns the debate database to open: explicit when set, else
// $DEBATE_DB, else the user's data folder (store.DefaultPath).
func debateDB(explicit string, getenv func(string) (string, bool)) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if p, ok := getenv("DEBATE_DB"); ok && p != "" {
		return p, nil
	}
	return store.DefaultPath()
}

// runID returns the id of this run's debates: the one the journal keeps when
// resuming, else a new one, recorded in the journal when there is one.
func runID(ctx context.Context, j orchestrator.Journal) (string, error) {
	if j != nil {
		v, ok, err := j.Lookup(ctx, runIDKey)
		if err == nil && !ok {
			v, ok, err = j.Lookup(ctx, legacyRunIDKey)
		}
		if err != nil {
			return "", fmt.Errorf("read the run id from the journal: %w", err)
		}
		if ok && len(v) > 0 {
			return string(v), nil
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new run id: %w", err)
	}
	if j != nil {
		if err := j.Record(ctx, runIDKey, []byte(id.String())); err != nil {
			return "", fmt.Errorf("record the run id in the journal: %w", err)
		}
	}
	return id.String(), nil
}

// motionJob is the motions part of a run: the database, the role prompts and
// the run id, ready to play.
type motionJob struct {
	st    *store.Store
	roles *prompts.Roles
	runID string
	ids   []string
	log   *slog.Logger
}

// openMotions prepares the motions of cfg; close releases the database.
func openMotions(ctx context.Context, e *env, cfg *configs.Config, sel selection, j orchestrator.Journal, log *slog.Logger) (*motionJob, error) {
	roles, err := prompts.NewRoles(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return nil, err
	}
	path, err := motionDB(cfg, e.getenv)
	if err != nil {
		return nil, err
	}
	id, err := runID(ctx, j)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, path, store.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	log.Info("motions use the debate database", "db", redactURL(path), "run", id)
	return &motionJob{st: st, roles: roles, runID: id, ids: sel.motions, log: log}, nil
}

func (m *motionJob) close() {
	if err := m.st.Close(); err != nil {
		m.log.Warn("close the debate database", "err", err)
	}
}

// dryRunMotions prints, for every selected motion, its roles, the database it
// would use, the MOTION and the exact messages of the opponent's first call.
func dryRunMotions(e *env, cfg *configs.Config, sel selection) error {
	roles, err := prompts.NewRoles(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return err
	}
	w := e.stdout
	p := cfg.Protocol
	db, err := motionDB(cfg, e.getenv)
	if err != nil {
		db = "(no default database: " + err.Error() + ")"
	}
	fmt.Fprintf(w, "\nDRY RUN: motions (protocol debates); no model is called and nothing is written.\n\n")
	fmt.Fprintf(w, "  database    %s\n  debate type %s\n  max turns   %d\n", redactURL(db), p.DebateType, p.MaxTurns)
	for _, q := range []*configs.Participant{p.Proposer, p.Opponent} {
		fmt.Fprintf(w, "  %-11s %s%s\n", q.ID, q.Model, fallbackNote(q.Fallback))
	}
	// A turn is the opponent's CLAIM (one call), the proposer's reply (one
	// call, +1 to repair its JSON) and, after an APPEAL, a model arbitrator's
	// RULING (the same).
	perTurn := 3
	if p.Arbitrator.Human {
		fmt.Fprintf(w, "  %-11s a person, through \"debate serve\" on the database above\n", configs.ArbitratorID)
	} else {
		fmt.Fprintf(w, "  %-11s %s%s\n", p.Arbitrator.ID, p.Arbitrator.Model, fallbackNote(p.Arbitrator.Fallback))
		perTurn += 2
	}
	n := 0
	for _, m := range cfg.Motions {
		if sel.all || slices.Contains(sel.motions, m.ID) {
			n++
		}
	}
	all := ""
	if n > 1 {
		all = fmt.Sprintf(", %d for %d motions", perTurn*p.MaxTurns*n, n)
	}
	fmt.Fprintf(w, "  calls       at most %d a turn with repairs, so %d per motion%s (retries not counted)\n",
		perTurn, perTurn*p.MaxTurns, all)
	previews, err := orchestrator.NewMotionPreviews(cfg, roles, sel.motions)
	if err != nil {
		return err
	}
	for _, pv := range previews {
		fmt.Fprintf(w, "\n%s\nMOTION %s: %s\n%s\n", rule('=', 78), pv.ID, pv.Title, rule('=', 78))
		fmt.Fprintf(w, "\n%s #1 MOTION · proposer %s\n%s\n", rule('-', 4), rule('-', 20), pv.Motion)
		fmt.Fprintf(w, "\n%s turn 1 · opponent · %s %s\n", rule('-', 4), pv.Model, rule('-', 20))
		for _, msg := range pv.Messages {
			fmt.Fprintf(w, "[%s]\n%s\n", msg.Role, msg.Content)
		}
	}
	return nil
}

func fallbackNote(fb string) string {
	if fb == "" {
		return ""
	}
	return " (fallback " + fb + ")"
}
