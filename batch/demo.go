package batch

import (
	"log/slog"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/demo"
	"github.com/debatehq/debate/providers/scripted"
)

// demoPace is how long the scripted model of a demo takes per answer, in
// units (an answer takes two to four): enough to watch the progress.
const demoPace = 60 * time.Millisecond

// DemoURL is the endpoint every model has in a demo run, as errors and raw
// files show it; the scripted model answers in-process whatever the URL.
const DemoURL = "http://demo.invalid/v1"

// demoArbitrator is the model that stands in for a person arbitrating the
// motions of a demo.
const demoArbitrator = "demo-arbitrator"

// prepareDemo adapts cfg to the built-in scripted model and returns it: every
// endpoint at DemoURL with no rate limit and a short retry delay (the model
// is in-process), a human arbitrator replaced by a model (nobody rules in a
// demo), and the model of the first debater with a fallback (and a model of
// its own) made to fail so that the demo shows a fallback.
func prepareDemo(cfg *configs.Config, log *slog.Logger) *scripted.Server {
	if len(cfg.Agents()) > 0 {
		log.Info("the demo's scripted model plays the coding agents too: no agent is started")
		cfg.DropAgents()
	}
	apis := []*configs.API{&cfg.API}
	for i := range cfg.Debaters {
		apis = append(apis, cfg.Debaters[i].API)
	}
	if cfg.Reviewer != nil {
		apis = append(apis, cfg.Reviewer.API)
	}
	if p := cfg.Protocol; p != nil {
		if p.Arbitrator != nil && p.Arbitrator.Human {
			log.Info("the demo's scripted model makes the rulings a person would make", "model", demoArbitrator)
			p.Arbitrator = &configs.Arbitrator{ID: configs.ArbitratorID, Label: "Arbitrator", Model: demoArbitrator}
		}
		for _, r := range []*configs.Participant{p.Proposer, p.Opponent} {
			if r != nil {
				apis = append(apis, r.API)
			}
		}
		if p.Arbitrator != nil {
			apis = append(apis, p.Arbitrator.API)
		}
	}
	for _, a := range apis {
		if a != nil {
			a.RequestsPerMinute = 0
			if a == &cfg.API || a.BaseURL != "" {
				a.BaseURL = DemoURL
			}
		}
	}
	cfg.Fallback.RetryDelay = min(cfg.Fallback.RetryDelay, 50)
	opt := demo.Options{Pace: demoPace}
	uses := map[string]int{}
	for _, p := range cfg.Participants() {
		uses[p.Model]++
		uses[p.Fallback]++
	}
	for _, d := range cfg.Debaters {
		opt.Debaters = append(opt.Debaters, d.ID)
		opt.Labels = append(opt.Labels, d.Label)
		if opt.Failing == "" && d.Fallback != "" && uses[d.Model] == 1 {
			opt.Failing = d.Model
		}
	}
	return demo.New(opt)
}
