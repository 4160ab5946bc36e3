package main

import (
	"fmt"
	"strconv"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
)

// reasoningNotes says, for each model of a participant (fallbacks included)
// that the client takes for a reasoning model by its name, what its
// requests will not carry: the configured temperature, and max_tokens,
// sent as max_completion_tokens.
func reasoningNotes(cfg *configs.Config) []string {
	var notes []string
	for _, p := range cfg.Participants() {
		for i, m := range []string{p.Model, p.Fallback} {
			if m == "" || p.AgentFor(m) != nil || !providers.ReasoningModel(m) {
				continue
			}
			runs := "runs"
			if i == 1 {
				runs = "falls back to"
			}
			notes = append(notes, fmt.Sprintf("%s %q %s %s, taken for a reasoning model by its name: %s",
				role(cfg, p.ID), p.ID, runs, m, unsent(cfg, p)))
		}
	}
	return notes
}

// unsent says which parameters a reasoning model's requests leave out.
func unsent(cfg *configs.Config, p configs.Participant) string {
	const tokens = "its token limit goes as max_completion_tokens, not max_tokens"
	t, from := p.Temperature, "its own"
	if t == nil {
		t, from = cfg.Params.Temperature, "params.temperature"
	}
	if t == nil {
		return tokens
	}
	return fmt.Sprintf("temperature %s (%s) is not sent, and %s", strconv.FormatFloat(*t, 'g', -1, 64), from, tokens)
}

// role names what participant id is in cfg: debater, judge, or a motion's
// role.
func role(cfg *configs.Config, id string) string {
	for _, d := range cfg.Debaters {
		if d.ID == id {
			return "debater"
		}
	}
	for _, j := range cfg.Panel() {
		if j.ID == id {
			return "judge"
		}
	}
	return "participant"
}
