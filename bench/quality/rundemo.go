package quality

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/providers/scripted"
)

// DemoOptions are the scripted agents of a demo run.
type DemoOptions struct {
	Agents        int
	AgentAccuracy float64
	Conformity    float64
	// QuoteAccuracy is the chance that an agent quotes a passage word for
	// word.
	QuoteAccuracy float64
}

// Check reports the first option out of range, naming its flag.
func (o DemoOptions) Check() error {
	switch {
	case o.Agents < 1 || o.Agents > 26:
		return fmt.Errorf("--agents must be from 1 to 26 (got %d)", o.Agents)
	case !(o.AgentAccuracy >= 0 && o.AgentAccuracy <= 1):
		return fmt.Errorf("--agent-accuracy must be a probability from 0 to 1, e.g. 0.6 (got %v)", o.AgentAccuracy)
	case !(o.Conformity >= 0 && o.Conformity <= 1):
		return fmt.Errorf("--conformity must be a probability from 0 to 1, e.g. 0.5 (got %v)", o.Conformity)
	case !(o.QuoteAccuracy >= 0 && o.QuoteAccuracy <= 1):
		return fmt.Errorf("--quote-accuracy must be a probability from 0 to 1, e.g. 0.8 (got %v)", o.QuoteAccuracy)
	}
	return nil
}

const demoJudge = "demo-judge"

// RunDemo measures the arms on the problems against the scripted agents of
// Demo, served on loopback: no key, nothing leaves the machine. The report
// holds the accuracy single and vote should reach beside the measured one.
func RunDemo(ctx context.Context, problems []Problem, d DemoOptions, opt Options) (*Report, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	cfg, _, stop, err := serveDemo(problems, d, opt.Seed)
	if err != nil {
		return nil, err
	}
	defer stop()
	rep, err := Run(ctx, cfg, problems, opt)
	if err != nil {
		return nil, err
	}
	rep.Demo = &DemoParams{Agents: d.Agents, AgentAccuracy: d.AgentAccuracy, Conformity: d.Conformity}
	if hasPassages(problems) {
		q := d.QuoteAccuracy
		rep.Demo.QuoteAccuracy = &q
	}
	if rep.Flips != nil {
		rep.Flips.expectFlips(d.Agents, d.AgentAccuracy, d.Conformity)
	}
	single, vote := d.AgentAccuracy, VoteAccuracy(d.Agents, d.AgentAccuracy)
	if rep.LoneAnswers != nil {
		rep.LoneAnswers.Expected = &single
	}
	for i := range rep.Arms {
		switch a := &rep.Arms[i]; a.Name {
		case ArmSingle:
			a.Expected = &single
		case ArmVote:
			a.Expected, a.ExpectedGivenAnswers = &vote, &a.givenAnswers
		}
	}
	return rep, nil
}

// serveDemo serves the scripted agents of d on loopback and returns the
// config of a run against them, the scripted model, and how to stop them.
func serveDemo(problems []Problem, d DemoOptions, seed uint64) (*configs.Config, *scripted.Server, func(), error) {
	var agents []string
	for i := range d.Agents {
		agents = append(agents, fmt.Sprintf("demo-agent-%d", i+1))
	}
	model := NewDemo(problems, d, seed, agents, demoJudge)
	fake := scripted.New(scripted.WithScript(model.Reply), scripted.WithoutLog())
	base, closeFake, err := loopback.Serve(fake)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("start the scripted model: %w", err)
	}
	dir, err := os.MkdirTemp("", "debate-quality-")
	if err != nil {
		closeFake()
		return nil, nil, nil, err
	}
	stop := func() {
		closeFake()
		os.RemoveAll(dir)
	}
	cfg, err := demoConfig(dir, base+"/v1", agents)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return cfg, fake, stop, nil
}

// demoConfig writes the demo's config, the way a user would, and loads it.
func demoConfig(dir, baseURL string, agents []string) (*configs.Config, error) {
	type participant struct {
		ID    string `json:"id"`
		Label string `json:"label"`
		Model string `json:"model"`
	}
	var debaters []participant
	for i, m := range agents {
		debaters = append(debaters, participant{ID: fmt.Sprintf("agent-%d", i+1), Label: fmt.Sprintf("Agent %c", 'A'+i), Model: m})
	}
	cfg := map[string]any{
		"api":      map[string]any{"baseURL": baseURL, "apiKey": "demo-key", "stream": false},
		"debaters": debaters,
		"reviewer": participant{ID: "judge", Label: "Judge", Model: demoJudge},
		"params":   map[string]any{"maxRounds": 2},
		"fallback": map[string]any{"retryDelay": 10},
		"topics":   []map[string]string{{"id": "placeholder", "title": "Replaced by the problems"}},
		"output":   map[string]any{"dir": filepath.Join(dir, "out")},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "quality.jsonc")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, err
	}
	c, err := configs.Load(path, configs.Options{})
	if err != nil {
		return nil, fmt.Errorf("the demo's config: %w", err)
	}
	return c, nil
}

// LoadProblems returns the problems of a task: "arithmetic" and "passage"
// generate n from seed; any other task is a JSONL file, of which the first
// n are taken (all when n is 0).
func LoadProblems(task string, n int, seed uint64) ([]Problem, error) {
	switch task {
	case "arithmetic":
		return Arithmetic(n, seed), nil
	case "passage":
		return Passages(n, seed), nil
	}
	return readTaskFile(task, n)
}
