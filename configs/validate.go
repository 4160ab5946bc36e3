package configs

import (
	"github.com/debatehq/debate/internal/modelfamily"

	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/debatehq/debate/tree"
)

// topicIDPattern keeps topic ids usable in file names.
var topicIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Validate checks the config and reports every problem at once as Problems,
// located in the file when the config came from Load. It also (re)reads the
// shared-context files into SharedContext.Documents, and folds a "judge" into
// Reviewer. It expects defaults to have been applied.
func (c *Config) Validate() error {
	r := &reporter{src: c.src, file: c.Path}
	c.validate(r)
	if len(r.ps) == 0 {
		return nil
	}
	sortProblems(r.ps)
	return Problems(r.ps)
}

// reviewerPath is the field path under which the reviewer is written.
func (c *Config) reviewerPath() string {
	if c.src.written("judge") && !c.src.written("reviewer") {
		return "judge"
	}
	return "reviewer"
}

// foldJudge moves a "judge" into Reviewer; setting both is a problem.
func (c *Config) foldJudge(r *reporter) {
	if c.Judge == nil {
		return
	}
	if c.Reviewer != nil {
		r.at("judge", `"judge" is a synonym of "reviewer"; keep only one of them`)
		c.Judge = nil
		return
	}
	c.Reviewer, c.Judge = c.Judge, nil
}

func (c *Config) validate(r *reporter) {
	c.foldJudge(r)
	c.validateAPI(r, "api", &c.API, true)
	owner := c.validateParticipants(r)
	c.validateParams(r)
	c.validateTopics(r)
	c.validateProtocol(r, owner)
	c.readSharedContext(r)
	c.validateRepository(r)
	c.validateOutput(r)
	if l := c.Prompts.Language; l != "en" && l != "zh" {
		r.at("prompts.language", `must be "en" or "zh" (got %q)`, l)
	}
	if d := c.Prompts.Dir; d != "" {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			r.at("prompts.dir", "folder %s does not exist; create it or remove the field to use the built-in templates", d)
		}
	}
	if c.Budget.MaxTokens < 0 {
		r.at("budget.maxTokens", "must be 0 (no limit) or more (got %d)", c.Budget.MaxTokens)
	}
	r.atMost("budget.maxTokens", int64(c.Budget.MaxTokens), MaxBudgetTokens, "a trillion tokens")
	if c.Budget.MaxCost < 0 {
		r.at("budget.maxCost", "must be 0 (no limit) or more, in the currency of pricing (got %g)", c.Budget.MaxCost)
	}
	for i, d := range c.Params.FailOn {
		if !slices.Contains(tree.Outcomes, tree.Outcome(d)) {
			r.at(fmt.Sprintf("params.failOn[%d]", i), "%q is not a decision: want any of %s", d, tree.KnownOutcomes())
		}
	}
	if c.Cache.MaxBytes < 0 {
		r.at("cache.maxBytes", "must be 0 (the default, %d bytes) or more (got %d)", DefaultCacheBytes, c.Cache.MaxBytes)
	}
	for _, model := range slices.Sorted(maps.Keys(c.Pricing)) {
		p := c.Pricing[model]
		for _, f := range []struct {
			name  string
			price float64
		}{{"input", p.Input}, {"output", p.Output}, {"cachedInput", p.CachedInput}} {
			if !(f.price >= 0 && f.price <= MaxPrice) {
				r.at(joinPath(keyPath("pricing", model), f.name), "price must be 0 to %d per million tokens (got %g)", MaxPrice, f.price)
			}
		}
	}
}

// validateAPI checks one endpoint. top is true for the top-level default;
// on a participant a zero field means "inherit" unless it is written.
func (c *Config) validateAPI(r *reporter, path string, a *API, top bool) {
	set := func(name string, zero bool) bool {
		return top || !zero || c.src.written(joinPath(path, name))
	}
	if a.BaseURL != "" {
		u, err := url.Parse(a.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			r.at(joinPath(path, "baseURL"), `must be an http or https URL, e.g. "https://api.openai.com/v1"`)
		}
	}
	if set("timeout", a.Timeout == 0) && a.Timeout <= 0 {
		r.at(joinPath(path, "timeout"), "must be greater than 0 milliseconds (got %d)", a.Timeout)
	}
	r.atMost(joinPath(path, "timeout"), int64(a.Timeout), MaxTimeout, "one hour in milliseconds")
	if a.MaxRetries != nil {
		if *a.MaxRetries < 0 {
			r.at(joinPath(path, "maxRetries"), "must be 0 or more (got %d)", *a.MaxRetries)
		}
		r.atMost(joinPath(path, "maxRetries"), int64(*a.MaxRetries), MaxRetries, "retries of one call")
	}
	if a.MaxConcurrent < 0 {
		r.at(joinPath(path, "maxConcurrent"), "must be 0 (no cap) or more (got %d)", a.MaxConcurrent)
	}
	r.atMost(joinPath(path, "maxConcurrent"), int64(a.MaxConcurrent), MaxConcurrency, "calls in flight")
	if a.RequestsPerMinute < 0 {
		r.at(joinPath(path, "requestsPerMinute"), "must be 0 (unlimited) or more (got %g)", a.RequestsPerMinute)
	}
	if a.RequestsPerMinute > MaxRequestsPerMinute {
		r.at(joinPath(path, "requestsPerMinute"), "must be at most %d (use 0 for unlimited), got %g", MaxRequestsPerMinute, a.RequestsPerMinute)
	}
	switch a.ResponseFormat {
	case "", "json_object", "json_schema":
	default:
		r.at(joinPath(path, "responseFormat"), `must be "json_object" or "json_schema", or left out (got %q)`, a.ResponseFormat)
	}
	c.validateStreaming(r, path, a, top)
}

// validateParticipants checks the debaters and the reviewer and returns the
// ids they use, each with the path of its participant. A config with motions
// and no topics needs neither debaters nor a reviewer, but those it has are
// checked.
func (c *Config) validateParticipants(r *reporter) map[string]string {
	motionsOnly := len(c.Topics) == 0 && len(c.Motions) > 0
	if n := len(c.Debaters); n < 2 && !motionsOnly {
		r.at("debaters", `a debate needs at least two debaters (found %d); add entries like {"id": "party-a", "model": "gpt-5.2"}`, n)
	}
	owner := map[string]string{} // id → path of the participant that has it
	check := func(path string, p *Participant) {
		if strings.TrimSpace(p.ID) == "" {
			r.missing(path, "id", `required: add an "id" field naming this participant, e.g. "party-a"`)
		} else if reservedID(p.ID) {
			r.at(joinPath(path, "id"), `%q is how a verdict says it favors no debater; choose another id, e.g. "party-n"`, p.ID)
		} else if len(p.ID) > MaxIDLength {
			r.at(joinPath(path, "id"), "must be at most %d bytes (it names files), got %d", MaxIDLength, len(p.ID))
		} else if prev, dup := owner[p.ID]; dup {
			r.at(joinPath(path, "id"), "duplicate id %q (already used by %s); give every debater and judge its own id", p.ID, prev)
		} else {
			owner[p.ID] = path
		}
		if strings.TrimSpace(p.Model) == "" && !c.src.written(joinPath(path, "agent")) {
			r.missing(path, "model", `required: add a "model" field with the model name, e.g. "gpt-5.2"`)
		}
		c.validateAgents(r, path, p)
		if p.API != nil {
			c.validateAPI(r, joinPath(path, "api"), p.API, false)
		}
		validateSampling(r, path, p)
	}
	for i := range c.Debaters {
		check(indexPath("debaters", i), &c.Debaters[i])
	}
	if c.Judges != nil {
		if c.Reviewer != nil {
			r.at(c.reviewerPath(), `a panel is set in "judges"; keep either "judges" or %q, not both (a %q is a panel of one)`, c.reviewerPath(), c.reviewerPath())
		}
		if len(c.Judges) == 0 {
			r.at("judges", `the panel is empty; list at least one judge, e.g. [{"id": "judge-1", "model": "qwen3.5-plus"}]`)
		}
		for i := range c.Judges {
			check(indexPath("judges", i), &c.Judges[i])
		}
		return owner
	}
	if c.Reviewer == nil {
		if !motionsOnly {
			r.missing("", "reviewer", `required: add a "reviewer" (or "judge") with an "id" and a "model", e.g. {"id": "reviewer", "model": "qwen3.5-plus"}, or a panel in "judges"`)
		}
		return owner
	}
	check(c.reviewerPath(), c.Reviewer)
	return owner
}

// SelfPreference returns a warning for each judge whose model, ignoring a
// "vendor/" prefix, is also a debater's: a judge tends to favour text of its
// own model.
func (c *Config) SelfPreference() []Problem {
	r := &reporter{src: c.src, file: c.Path}
	for i, j := range c.Panel() {
		for _, d := range c.Debaters {
			if j.Model == "" || bareModel(j.Model) != bareModel(d.Model) {
				continue
			}
			path := c.judgesPath()
			if len(c.Judges) > 0 {
				path = indexPath("judges", i)
			}
			fix := `set "params.recuse": true to leave its vote out where that debater takes a side`
			if c.Params.Recuse {
				fix = "its vote is left out where that debater takes a side (params.recuse)"
			}
			r.at(joinPath(path, "model"), "judge %q runs %s, as debater %q does: a judge tends to favour its own model; %s, or choose another model", j.ID, j.Model, d.ID, fix)
		}
	}
	return r.ps
}

// OneFamily returns a warning when every debater's model is of one known
// family (gpt…, claude…, or one "vendor/" prefix): debaters of mixed
// families disagree for different reasons and debate better.
func (c *Config) OneFamily() []Problem {
	r := &reporter{src: c.src, file: c.Path}
	if len(c.Debaters) < 2 {
		return nil
	}
	family := modelfamily.Of(c.Debaters[0].Model)
	for _, d := range c.Debaters[1:] {
		if family == "" || modelfamily.Of(d.Model) != family {
			return nil
		}
	}
	r.at("debaters", "every debater runs a model of the %s family: models of one family share their training and tend to agree for the same reasons; mixed families (e.g. gpt-…, claude-…, gemini-…) debate better", family)
	return r.ps
}

// bareModel is a model name without its "vendor/" prefix.
func bareModel(m string) string {
	if _, after, ok := strings.Cut(m, "/"); ok {
		return after
	}
	return m
}

// SameModel reports whether two model names are the same model, ignoring a
// "vendor/" prefix.
func SameModel(a, b string) bool { return bareModel(a) == bareModel(b) }

func (c *Config) validateParams(r *reporter) {
	p := c.Params
	if p.MaxRounds < 1 {
		r.at("params.maxRounds", "must be at least 1 (got %d)", p.MaxRounds)
	}
	r.atMost("params.maxRounds", int64(p.MaxRounds), MaxRounds, "levels of debate")
	if p.MaxDivergences < 1 {
		r.at("params.maxDivergences", "must be at least 1 (got %d)", p.MaxDivergences)
	}
	r.atMost("params.maxDivergences", int64(p.MaxDivergences), MaxDivergences, "child debates of one node")
	if p.MaxQuoteChars < 1 {
		r.at("params.maxQuoteChars", "must be at least 1 character (got %d)", p.MaxQuoteChars)
	}
	r.atMost("params.maxQuoteChars", int64(p.MaxQuoteChars), MaxQuoteChars, "characters of one quote")
	if p.MaxTokensPerResponse < 1 {
		r.at("params.maxTokensPerResponse", "must be at least 1 (got %d)", p.MaxTokensPerResponse)
	}
	r.atMost("params.maxTokensPerResponse", int64(p.MaxTokensPerResponse), MaxTokensPerResponse, "tokens of one answer")
	if t := p.Temperature; t != nil && (*t < 0 || *t > 2) {
		r.at("params.temperature", "must be between 0 and 2 (got %g)", *t)
	}
	if p.Concurrency < 1 {
		r.at("params.concurrency", "must be at least 1 (got %d)", p.Concurrency)
	}
	r.atMost("params.concurrency", int64(p.Concurrency), MaxConcurrency, "calls in flight")
	if p.AgentConcurrency < 1 {
		r.at("params.agentConcurrency", "must be at least 1 (got %d)", p.AgentConcurrency)
	}
	r.atMost("params.agentConcurrency", int64(p.AgentConcurrency), MaxConcurrency, "agent processes at once")
	if n := c.Fallback.MaxConsecutiveFailures; n < 1 {
		r.at("fallback.maxConsecutiveFailures", "must be at least 1 (got %d)", n)
	}
	r.atMost("fallback.maxConsecutiveFailures", int64(c.Fallback.MaxConsecutiveFailures), MaxConsecutiveFailures, "failed attempts before the fallback")
	if d := c.Fallback.RetryDelay; d < 0 {
		r.at("fallback.retryDelay", "must be 0 or more milliseconds (got %d)", d)
	}
	r.atMost("fallback.retryDelay", int64(c.Fallback.RetryDelay), MaxRetryDelay, "ten minutes in milliseconds")
	switch p.VerdictCheck {
	case "", VerdictCheckSwap:
	default:
		r.at("params.verdictCheck", `must be %q (ask each forced verdict again with the sides reversed) or left out (got %q)`, VerdictCheckSwap, p.VerdictCheck)
	}
}

func (c *Config) validateTopics(r *reporter) {
	if len(c.Topics) == 0 {
		if len(c.Motions) == 0 {
			r.missing("", "topics", `required: add at least one topic, e.g. {"id": "topic-1", "title": "…"}, or a motion (see "motions")`)
		}
		return
	}
	owner := map[string]string{}
	for i, t := range c.Topics {
		path := indexPath("topics", i)
		r.uniqueID(path, t.ID, "topic-1", owner, "duplicate topic id %q (already used by %s); give every topic its own id")
		if strings.TrimSpace(t.Title) == "" {
			r.missing(path, "title", `required: add a "title" stating the question to debate`)
		}
	}
}

// errReason is the short reason of a file error, without the path that the
// message already names.
func errReason(err error) string {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func (c *Config) validateOutput(r *reporter) {
	for i, f := range c.Output.Format {
		switch f {
		case "markdown", "json", "html", "junit":
		default:
			path := "output.format"
			if c.src.written(indexPath(path, i)) {
				path = indexPath(path, i)
			}
			r.at(path, `unknown format %q; use "markdown", "json", "html" or "junit"`, f)
		}
	}
}

// resolve makes a relative path relative to the config file's folder.
func (c *Config) resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// reservedID reports whether a participant id reads as "none" to a judge
// (case, spaces and punctuation aside): the favors of a verdict that takes
// no debater's side.
func reservedID(id string) bool {
	kept := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, id)
	return kept == "none"
}

// CheckID says why id cannot be a topic's or a motion's id: empty, not
// usable in a file name, or too long; nil when it can.
func CheckID(id string) error {
	switch {
	case id == "":
		return errors.New("empty")
	case !topicIDPattern.MatchString(id) || id == "." || id == "..":
		return errors.New(`cannot be used in a file name: an id holds only letters, digits, "-", "_" and "."`)
	case len(id) > MaxIDLength:
		return fmt.Errorf("longer than %d bytes", MaxIDLength)
	}
	return nil
}

// uniqueID checks the id of the topic or motion at path: present, usable in a
// file name, and not already in owner (id → path of its first user), where it
// is then recorded. duplicate formats the message for an id used twice.
func (r *reporter) uniqueID(path, id, example string, owner map[string]string, duplicate string) {
	switch {
	case id == "":
		r.missing(path, "id", `required: add an "id" made of letters, digits, "-", "_" or ".", e.g. %q`, example)
	case !topicIDPattern.MatchString(id) || id == "." || id == "..":
		r.at(joinPath(path, "id"), `%q cannot be used in a file name; use only letters, digits, "-", "_" and "."`, id)
	case len(id) > MaxIDLength:
		r.at(joinPath(path, "id"), "must be at most %d bytes (it names the report's file), got %d", MaxIDLength, len(id))
	case owner[id] != "":
		r.at(joinPath(path, "id"), duplicate, id, owner[id])
	default:
		owner[id] = path
	}
}
