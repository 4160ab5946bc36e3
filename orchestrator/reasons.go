package orchestrator

import (
	"errors"
	"strings"

	"github.com/sourcegraph/conc/panics"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// invalidAfterRepair is an answer still unusable after its repair call:
// err says what is wrong with it.
type invalidAfterRepair struct{ err error }

func (e *invalidAfterRepair) Error() string { return "answer invalid after repair: " + e.err.Error() }
func (e *invalidAfterRepair) Unwrap() error { return e.err }

// reasonOf says why err ended a call, as codes: an answer still invalid
// after repair, a provider's failure by its class, else the error's words.
func reasonOf(err error) []tree.Reason {
	var inv *invalidAfterRepair
	if errors.As(err, &inv) {
		return []tree.Reason{tree.Because(tree.InvalidAfterRepair), tree.Because(tree.Text, inv.err.Error())}
	}
	var pe *providers.Error
	if errors.As(err, &pe) {
		return []tree.Reason{tree.Because(tree.CallFailure, pe.Class, err.Error())}
	}
	return []tree.Reason{tree.Because(tree.Text, err.Error())}
}

// nodeError records err as the failure of participant at step.
func nodeError(participant string, step tree.Step, err error) tree.NodeError {
	return tree.NodeError{Participant: participant, Step: step, Message: err.Error(), Because: reasonOf(err)}
}

// panicReason says what a recovered panic was.
func panicReason(p *panics.Recovered) tree.Reason {
	return tree.Because(tree.Panicked, panicValue(p))
}

// Sayer says reasons in words, for the records, log lines and events that
// keep words beside the codes (render.ReasonText says them in English).
type Sayer func(why ...tree.Reason) string

// codes says reasons by their codes and arguments, as "code(arg, arg)"
// joined by "; ": the words of an engine given no Sayer.
func codes(why ...tree.Reason) string {
	parts := make([]string, len(why))
	for i, r := range why {
		parts[i] = string(r.Code)
		if len(r.Args) > 0 {
			parts[i] += "(" + strings.Join(r.Args, ", ") + ")"
		}
	}
	return strings.Join(parts, "; ")
}

// said returns reasons with their words, for the records that keep both.
func (s Sayer) said(why ...tree.Reason) (string, []tree.Reason) { return s(why...), why }

// anys returns ss as arguments of tree.Because.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
