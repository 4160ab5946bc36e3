package main

import (
	"fmt"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
)

// demoPace is how long the scripted model of --demo takes per answer, in
// units (an answer takes two to four): enough to watch the progress.
const demoPace = 60 * time.Millisecond

// demoURL is the endpoint every model has in a --demo run, as errors and
// raw files show it; the scripted model answers in-process whatever the URL.
const demoURL = "http://demo.invalid/v1"

// demoKey stands in for every unset variable of a --demo run. Keys are
// redacted from messages, so it must not occur in one by chance.
const demoKey = "no-key-needed-for-the-demo"

// demoGetenv returns the environment of a --demo run: a variable that is
// not set reads as demoKey, so that a config's "${DEBATE_API_KEY}" needs no
// key. Nothing leaves the process, whatever the value.
func demoGetenv(getenv func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := getenv(name); ok {
			return v, true
		}
		return demoKey, true
	}
}

// prepareDemo adapts cfg to the built-in scripted model and returns it: every
// endpoint at demoURL with no rate limit and a short retry delay (the model
// is in-process), the topics
// only (motions need a debate database and are left out, with a note), and
// the model of the first debater with a fallback (and a model of its own)
// made to fail so that the demo shows a fallback.
func prepareDemo(e *env, cfg *configs.Config) (*scripted.Server, error) {
	if len(cfg.Topics) == 0 {
		return nil, usagef("--demo plays a config's topics, and this config has none")
	}
	if len(cfg.Motions) > 0 {
		fmt.Fprintf(e.stderr, "note: --demo plays the topics only; the config's %d motions are left out\n", len(cfg.Motions))
		cfg.Motions = nil
	}
	apis := []*configs.API{&cfg.API}
	for i := range cfg.Debaters {
		apis = append(apis, cfg.Debaters[i].API)
	}
	if cfg.Reviewer != nil {
		apis = append(apis, cfg.Reviewer.API)
	}
	for _, a := range apis {
		if a != nil {
			a.RequestsPerMinute = 0
			if a == &cfg.API || a.BaseURL != "" {
				a.BaseURL = demoURL
			}
		}
	}
	cfg.Fallback.RetryDelay = min(cfg.Fallback.RetryDelay, 50)
	opt := scripted.DemoOptions{Pace: demoPace}
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
	return scripted.Demo(opt), nil
}
