package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/internal/textwidth"
	"github.com/debatehq/debate/orchestrator"
	"github.com/debatehq/debate/prompts"
	"github.com/debatehq/debate/providers/agents"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// dryRunAll prints what a run of the selection would send: the topics'
// calls, then the motions'.
func dryRunAll(e *env, cfg *configs.Config, sel tree.Selection) error {
	if len(sel.Topics) > 0 {
		if err := dryRun(e, cfg, sel); err != nil {
			return err
		}
	}
	if len(sel.Motions) > 0 {
		return dryRunMotions(e, cfg, sel)
	}
	return nil
}

// preview builds what the selected topics of cfg would send first, with the
// config's own prompts, which it returns too.
func preview(cfg *configs.Config, sel tree.Selection) (*prompts.Set, *orchestrator.Preview, error) {
	set, err := prompts.New(cfg.Prompts.Language, cfg.Prompts.Dir)
	if err != nil {
		return nil, nil, err
	}
	pv, err := orchestrator.NewPreview(cfg, set, &sel)
	return set, pv, err
}

// dryRun prints, for every selected topic, the exact messages of each round-1
// position call, the templates of the later steps and the call plan.
func dryRun(e *env, cfg *configs.Config, sel tree.Selection) error {
	set, pv, err := preview(cfg, sel)
	if err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintln(w, "DRY RUN: no model is called and no file is written.")
	fmt.Fprintln(w)
	printPlan(w, cfg, pv)
	printAgents(w, cfg)
	for _, t := range pv.Topics {
		fmt.Fprintf(w, "\n%s\nTOPIC %s: %s\n%s\n", rule('=', 78), t.ID, t.Title, rule('=', 78))
		if len(t.Aliases) > 0 {
			var as []string
			for _, a := range t.Aliases {
				as = append(as, a.Alias+" = "+a.Participant)
			}
			fmt.Fprintf(w, "aliases: %s\n", strings.Join(as, ", "))
		}
		fmt.Fprintf(w, "round 1: %s reads %s\n", pv.Judge.ID, strings.Join(t.JudgeOrder, ", "))
		for _, c := range t.Calls {
			fmt.Fprintf(w, "\n%s round 1 · position · %s (%s) · %s %s\n", rule('-', 4), c.Participant.ID, c.Participant.Name(), c.Model, rule('-', 20))
			for _, m := range c.Messages {
				fmt.Fprintf(w, "[%s]\n%s\n", m.Role, strings.TrimRight(m.Content, "\n"))
			}
		}
	}
	fmt.Fprintf(w, "\n%s\nLATER STEPS: templates as they will be used; {{…}} placeholders are filled at run time\n%s\n", rule('=', 78), rule('=', 78))
	for _, name := range prompts.Names() {
		if name == "root_position" {
			continue
		}
		src, err := set.Source(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n%s %s.tmpl %s\n%s\n", rule('-', 4), name, rule('-', 20), strings.TrimRight(src, "\n"))
	}
	return nil
}

// printAgents prints the command lines of the config's agents and the
// folders they run in.
func printAgents(w io.Writer, cfg *configs.Config) {
	lines := agents.Plan(context.Background(), cfg)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\nAGENTS: each run is a process group of its own, its standard input closed, at most %d at once\n", cfg.Params.AgentConcurrency)
	for _, l := range lines {
		role := ""
		if l.Fallback {
			role = " (fallback)"
		}
		fmt.Fprintf(w, "  %s%s: %s in %s\n", l.Participant, role, l.Agent, l.Dir)
		fmt.Fprintf(w, "    starts   %s\n", l.Fresh)
		if l.Resume != "" {
			fmt.Fprintf(w, "    resumes  %s\n", l.Resume)
		}
		fmt.Fprintf(w, "    judges   %s\n", l.Judge)
		fmt.Fprintf(w, "    prompt   a new session's starts with %q, then the step's messages\n", l.Preamble)
	}
}

func printPlan(w io.Writer, cfg *configs.Config, pv *orchestrator.Preview) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "PLAN")
	var ids []string
	for _, t := range pv.Topics {
		ids = append(ids, t.ID)
	}
	fmt.Fprintf(tw, "  topics\t%d: %s\n", len(ids), strings.Join(ids, ", "))
	people := append(slices.Clone(pv.Debaters), pv.Judges...)
	printPeople(tw, cfg, people, len(pv.Debaters))
	printCalls(tw, cfg, pv, people)
	printRepository(tw, pv.Repository)
}

// printRepository prints the shared repository's state and what listing
// its files costs, when debaters may quote one.
func printRepository(tw io.Writer, r *orchestrator.RepositoryPreview) {
	if r == nil {
		return
	}
	state := "no commit yet"
	if r.Head != "" {
		state = "commit " + r.Head[:min(len(r.Head), 12)]
	}
	if r.Dirty != "" {
		state += " + changes"
	}
	fmt.Fprintf(tw, "  repository\t%s at %s\n", r.Root, state)
	fmt.Fprintf(tw, "  \t%s files quotable, listed in ≈%s tokens per root position\n", render.Thousands(r.Files), render.Thousands(r.ListingTokens))
}

// printPeople prints the debaters and the judges (from index judges on),
// their models and endpoints.
func printPeople(tw io.Writer, cfg *configs.Config, people []tree.Participant, judges int) {
	var wid, wname, wmodel int
	for _, p := range people {
		wid, wname = max(wid, textwidth.String(p.ID)), max(wname, textwidth.String(p.Name()))
		wmodel = max(wmodel, textwidth.String(modelLine(p.Model, p.Fallback)))
	}
	byID := map[string]configs.Participant{}
	for _, p := range cfg.Participants() {
		byID[p.ID] = p
	}
	for i, p := range people {
		head := ""
		switch {
		case i == 0:
			head = "debaters"
		case i == judges && len(people)-judges == 1:
			head = "judge"
		case i == judges:
			head = "judges"
		}
		where := redact.URL(cfg.Endpoint(p.ID).BaseURL)
		if cp := byID[p.ID]; cp.Agent != nil {
			where = "agent: " + cp.Agent.Program()
		}
		fmt.Fprintf(tw, "  %s\t%s  %s  %s  %s\n", head, pad(p.ID, wid), pad(p.Name(), wname),
			pad(modelLine(p.Model, p.Fallback), wmodel), where)
	}
}

// printCalls prints the call plan: rounds, calls per node, the worst case,
// retries, fallbacks, concurrency, prompt size, budget and output.
func printCalls(tw io.Writer, cfg *configs.Config, pv *orchestrator.Preview, people []tree.Participant) {
	n, w := len(pv.Debaters), pv.WorstCase
	judges := len(pv.Judges)
	mode := "in parallel"
	if !cfg.ParallelCalls() {
		mode = "one after another"
	}
	retries := 0
	if r := cfg.API.MaxRetries; r != nil {
		retries = *r
	}
	fmt.Fprintf(tw, "  rounds\tup to %d (the root is round 1; the last round's judge forces verdicts)\n", w.Rounds)
	fmt.Fprintf(tw, "  per node\t%d calls: %d positions and %d rebuttals (%s), 1 judge, +1 if its JSON needs repair\n", 2*n+1, n, n, mode)
	all := ""
	if len(pv.Topics) > 1 {
		all = fmt.Sprintf("; %d for %s", w.Calls*len(pv.Topics), plural(len(pv.Topics), "topic", "topics"))
	}
	if judges > 1 || w.VerdictCalls > judges || cfg.Params.Recuse {
		fmt.Fprintf(tw, "  panel\t%s: %s chairs triage, repair, synthesis and edits; at the last round %d verdict calls per node (%s)\n",
			plural(judges, "judge", "judges"), pv.Judge.ID, w.VerdictCalls, panelPlan(cfg, judges))
	}
	fmt.Fprintf(tw, "  worst case\t%d nodes and %d calls per topic if every node splits into %d divergences (params.maxDivergences) down to round %d (params.maxRounds)%s\n",
		w.Nodes, w.Calls, w.Branching, w.Rounds, all)
	fmt.Fprintf(tw, "  retries\tup to %d per call on a fallback or without one, backoff from %d ms (never sooner than Retry-After)\n", retries, cfg.Fallback.RetryDelay)
	if slices.ContainsFunc(people, func(p tree.Participant) bool { return p.Fallback != "" }) {
		fmt.Fprintf(tw, "  fallback\tafter %d failed attempts in a row (at once on 401/403, 404 or a prompt too long), the same call goes on with the fallback for the rest of the topic\n", cfg.Fallback.MaxConsecutiveFailures)
	} else {
		fmt.Fprintln(tw, "  fallback\tnone configured: a participant that keeps failing is left out of its steps")
	}
	fmt.Fprintf(tw, "  concurrency\t%d calls in flight at most\n", cfg.Params.Concurrency)
	head := "reasoning"
	for _, n := range reasoningNotes(cfg) {
		fmt.Fprintf(tw, "  %s\t%s\n", head, n)
		head = ""
	}
	fmt.Fprintf(tw, "  prompt size\t≈%s tokens for the %d round-1 position calls (≈4 characters a token)\n", render.Thousands(pv.RoundOneTokens()), pv.RoundOneCalls())
	fmt.Fprintf(tw, "  cacheable\t≈%s of them cache-eligible: a prefix an earlier call sent to the same model\n", render.Thousands(min(pv.CacheEligibleTokens, pv.RoundOneTokens())))
	if cfg.Budget.MaxTokens > 0 {
		fmt.Fprintf(tw, "  budget\t%s tokens: past it no new child opens and open nodes get forced verdicts\n", render.Thousands(cfg.Budget.MaxTokens))
	}
	if len(cfg.Pricing) > 0 || cfg.Budget.MaxCost > 0 {
		fmt.Fprintf(tw, "  cost\t%s\n", worstCaseCost(cfg, pv))
	}
	fmt.Fprintf(tw, "  output\t%s (%s; run.json always)\n", cfg.Output.Dir, strings.Join(cfg.Output.Format, ", "))
}

// worstCaseCost says what the preview's worst-case cost is, against
// budget.maxCost.
func worstCaseCost(cfg *configs.Config, pv *orchestrator.Preview) string {
	b := pv.WorstCost
	models, agentLabels := splitAgents(cfg, b.Unpriced)
	switch {
	case len(models) > 0:
		return fmt.Sprintf("worst case unknown: no pricing for %s", strings.Join(models, ", "))
	case len(agentLabels) > 0:
		return fmt.Sprintf("worst case unknown: the turns of %s are not known in advance (an agent's maxBudgetUSD bounds a Claude Code run)", strings.Join(agentLabels, ", "))
	}
	s := fmt.Sprintf("worst case ≈%.4f at the highest configured price, every answer at the token limit, every node splitting into params.maxDivergences %d down to params.maxRounds %d", b.Cost, pv.WorstCase.Branching, pv.WorstCase.Rounds)
	if m := cfg.Budget.MaxCost; m > 0 {
		s += fmt.Sprintf("; budget.maxCost %g stops the run once its actual spend passes it", m)
	}
	return s
}

// splitAgents parts names into models and the labels of agents.
func splitAgents(cfg *configs.Config, names []string) (models, agentLabels []string) {
	labels := map[string]bool{}
	for _, p := range cfg.Agents() {
		labels[p.Model], labels[p.Fallback] = p.Agent != nil, p.FallbackAgent != nil
	}
	for _, n := range names {
		if labels[n] {
			agentLabels = append(agentLabels, n)
		} else {
			models = append(models, n)
		}
	}
	return models, agentLabels
}

// panelPlan says how a panel decides a forced verdict.
func panelPlan(cfg *configs.Config, judges int) string {
	parts := []string{fmt.Sprintf("each of %d asked on its own, in parallel; the majority of favors decides, a tie is split", judges)}
	if judges == 1 {
		parts = []string{"the judge alone"}
	}
	if cfg.Params.VerdictCheck == configs.VerdictCheckSwap {
		parts = append(parts, "each asked again with the sides reversed, a changed choice not counted")
	}
	if cfg.Params.Recuse {
		parts = append(parts, "a judge sharing a debater's model recused where that debater takes a side")
	}
	return strings.Join(parts, "; ")
}

// pad pads s with spaces to n terminal columns (a CJK character takes two).
func pad(s string, n int) string { return textwidth.Pad(s, n) }

// plural returns "1 topic", "2 topics": n and the word for it.
func plural(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, other)
}

func modelLine(model, fallback string) string {
	if fallback == "" {
		return model
	}
	return model + " → fallback " + fallback
}

func rule(c rune, n int) string { return strings.Repeat(string(c), n) }

// checkBudget refuses a run (--strict-budget) whose worst-case cost, as the
// dry run prints it, exceeds budget.maxCost, or cannot be known.
func checkBudget(cfg *configs.Config, sel tree.Selection) error {
	if cfg.Budget.MaxCost <= 0 {
		return usagef("--strict-budget needs budget.maxCost in the config: the cap the worst case is checked against")
	}
	_, pv, err := preview(cfg, sel)
	if err != nil {
		return err
	}
	b := pv.WorstCost
	switch {
	case len(b.Unpriced) > 0:
		return usagef("--strict-budget: the worst-case cost is unknown without pricing for %s: add them to pricing, or drop --strict-budget", strings.Join(b.Unpriced, ", "))
	case b.Cost > cfg.Budget.MaxCost:
		return budgetError{fmt.Errorf("--strict-budget: the worst case ≈%.4f (every node splitting into params.maxDivergences %d down to params.maxRounds %d, every answer at params.maxTokensPerResponse) exceeds budget.maxCost %g: lower one of those, select fewer topics, raise budget.maxCost, or drop --strict-budget (the run then stops once its actual spend passes the cap)", b.Cost, pv.WorstCase.Branching, pv.WorstCase.Rounds, cfg.Budget.MaxCost)}
	}
	return nil
}
