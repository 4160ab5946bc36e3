package main

import (
	"fmt"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/tree"
)

// dryRunMotions prints, for every selected motion, its roles, the database it
// would use, the MOTION and the exact messages of the opponent's first call.
func dryRunMotions(e *env, cfg *configs.Config, sel tree.Selection) error {
	roles, err := prompts.NewRoles(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return err
	}
	w := e.stdout
	p := cfg.Protocol
	db, err := batch.MotionDB(cfg, e.getenv)
	if err != nil {
		db = "(no default database: " + err.Error() + ")"
	}
	fmt.Fprintf(w, "\nDRY RUN: motions (protocol debates); no model is called and nothing is written.\n\n")
	fmt.Fprintf(w, "  database    %s\n  debate type %s\n  max turns   %d\n", redact.URL(db), p.DebateType, p.MaxTurns)
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
	n := len(sel.Motions)
	all := ""
	if n > 1 {
		all = fmt.Sprintf(", %d for %d motions", perTurn*p.MaxTurns*n, n)
	}
	fmt.Fprintf(w, "  calls       at most %d a turn with repairs, so %d per motion%s (retries not counted)\n",
		perTurn, perTurn*p.MaxTurns, all)
	previews, err := orchestrator.NewMotionPreviews(cfg, roles, &sel)
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
