// Package configs holds the JSONC configuration of a debate run: its types, the
// loader (comments and trailing commas allowed, unknown fields rejected,
// ${ENV} expansion, defaults) and validation that reports every problem at
// once with its file position.
package configs

import (
	"cmp"

	"github.com/debatehq/debate/tree"
)

// Config is a whole debate configuration file, with the field names the
// README's "Configuration" section documents (docs/CONFIG.md describes how
// it is loaded).
type Config struct {
	API      API           `json:"api"`
	Debaters []Participant `json:"debaters"`
	Reviewer *Participant  `json:"reviewer,omitempty"`
	Judge    *Participant  `json:"judge,omitempty"` // synonym of Reviewer; Load folds it into Reviewer
	// Judges is a panel of judges, chaired by the first; a Reviewer is a
	// panel of one. See Panel.
	Judges        []Participant    `json:"judges,omitempty"`
	Params        Params           `json:"params"`
	Fallback      Fallback         `json:"fallback"`
	Topics        []Topic          `json:"topics"`
	SharedContext SharedContext    `json:"sharedContext"`
	Output        Output           `json:"output"`
	Prompts       Prompts          `json:"prompts"`
	Budget        Budget           `json:"budget"`
	Pricing       map[string]Price `json:"pricing,omitempty"`
	Cache         Cache            `json:"cache"`
	// Protocol and Motions configure batch protocol debates (proposer,
	// opponent, arbitrator); see protocol.go.
	Protocol *Protocol `json:"protocol,omitempty"`
	Motions  []Motion  `json:"motions,omitempty"`

	// Path is the file the config was loaded from; Dir is its folder, against
	// which relative paths resolve.
	Path string `json:"-"`
	Dir  string `json:"-"`

	// Warnings are problems that did not stop Load: under Options.DryRun, a
	// ${NAME} whose variable is not set.
	Warnings []Problem `json:"-"`
	// Unread names, in file order, the environment variables a config
	// loaded with Options.NoEnv refers to.
	Unread []string `json:"-"`

	// keyVars names, by participant id ("" for the top-level api), the
	// environment variable that supplied the endpoint's api.apiKey.
	keyVars map[string]string

	// src remembers where each field was written, so that a later Validate
	// can still report positions.
	src *source
}

// API is an OpenAI-compatible endpoint. At the top level it is the default;
// on a participant every set field overrides the default's.
type API struct {
	BaseURL    string `json:"baseURL,omitempty"`
	APIKey     string `json:"apiKey,omitempty"`
	Timeout    int    `json:"timeout,omitempty"` // milliseconds per call
	MaxRetries *int   `json:"maxRetries,omitempty"`
	// MaxConcurrent caps the calls in flight to this endpoint (0: no cap of its own).
	MaxConcurrent int `json:"maxConcurrent,omitempty"`
	// RequestsPerMinute rate-limits calls to this endpoint (0: unlimited).
	RequestsPerMinute float64 `json:"requestsPerMinute,omitempty"`
	// ResponseFormat asks the judge for structured output: "", "json_object"
	// or "json_schema". The fenced-JSON path works either way.
	ResponseFormat string `json:"responseFormat,omitempty"`
	// Stream asks for streamed answers (server-sent events); nil: true.
	Stream *bool `json:"stream,omitempty"`
	// CacheControl marks where each prompt's stable part ends with an
	// Anthropic-style cache_control breakpoint (the form OpenRouter passes
	// through); nil: false.
	CacheControl *bool `json:"cacheControl,omitempty"`
	// IdleTimeout bounds the silence between two bytes of a streamed
	// answer, in milliseconds; SSE comments count as bytes.
	IdleTimeout int `json:"idleTimeout,omitempty"`
	// MaxResponseBytes caps the body of one answer; a longer one is a
	// failed attempt.
	MaxResponseBytes int64 `json:"maxResponseBytes,omitempty"`
	// ExtraBody is merged into every request body sent to the endpoint
	// (e.g. "reasoning_effort", OpenRouter's "provider", Ollama's
	// "options"); a participant's keys win over the top-level ones.
	ExtraBody map[string]any `json:"extraBody,omitempty"`
	// Headers are sent with every request to the endpoint; a participant's
	// win over the top-level ones.
	Headers map[string]string `json:"headers,omitempty"`
}

// Streams reports whether calls to the endpoint are streamed (stream,
// default true).
func (a API) Streams() bool { return a.Stream == nil || *a.Stream }

// Participant is a debater or the judge.
type Participant struct {
	ID       string `json:"id"`
	Label    string `json:"label,omitempty"`
	Model    string `json:"model"`
	Fallback string `json:"fallback,omitempty"`
	API      *API   `json:"api,omitempty"`
	// Agent makes a coding agent run as a process play the participant
	// instead of a model at an endpoint; FallbackAgent does the same for
	// its fallback. Load sets Model (and Fallback) to the agent's Label.
	Agent         *Agent `json:"agent,omitempty"`
	FallbackAgent *Agent `json:"fallbackAgent,omitempty"`
	// MaxTokens and Temperature override params.maxTokensPerResponse and
	// params.temperature for this participant.
	MaxTokens   int      `json:"maxTokens,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// Params are the debate parameters.
type Params struct {
	MaxRounds            int      `json:"maxRounds,omitempty"`
	MaxTokensPerResponse int      `json:"maxTokensPerResponse,omitempty"`
	Temperature          *float64 `json:"temperature,omitempty"`
	ParallelCalls        *bool    `json:"parallelCalls,omitempty"`
	// Concurrency is the global cap on model calls in flight.
	Concurrency int `json:"concurrency,omitempty"`
	// AgentConcurrency caps the agent processes running at once (default
	// DefaultAgentConcurrency); Concurrency caps the calls to endpoints.
	AgentConcurrency int `json:"agentConcurrency,omitempty"`
	// Synthesis turns the final per-topic conclusion and proposed-edits calls on or off.
	Synthesis *bool `json:"synthesis,omitempty"`
	// MaxDivergences caps the child debates one node opens; the judge is
	// told the limit, and divergences beyond it are recorded at the node.
	MaxDivergences int `json:"maxDivergences,omitempty"`
	// Blind hides the debaters' labels, ids and models from every prompt
	// that shows one party's words to another: each debater is known by a
	// neutral alias drawn from the seed, and the order of the parties is
	// shuffled per node, step and reader (default true).
	Blind *bool `json:"blind,omitempty"`
	// Seed fixes the aliases and orders a run draws; without it a run draws
	// a seed of its own and records it.
	Seed *uint64 `json:"seed,omitempty"`
	// Recuse leaves a judge's vote out of the verdicts on divergences in
	// which a debater of the judge's own model takes a side.
	Recuse bool `json:"recuse,omitempty"`
	// VerdictCheck "swap" asks every judge each forced verdict a second
	// time with the sides in reverse order; a judge whose choice changes
	// casts no vote there. "" asks once.
	VerdictCheck string `json:"verdictCheck,omitempty"`
	// FailOn lists the decisions (agreed, decided, split, undecided) that
	// make "debate run" exit with its own code once every report is
	// written; --fail-on replaces it.
	FailOn []string `json:"failOn,omitempty"`
	// Quotes asks the debaters to quote the shared documents and has the
	// engine verify each quote before a judge or another debater reads it
	// (default true; there is nothing to quote without shared documents).
	Quotes *bool `json:"quotes,omitempty"`
	// MaxQuoteChars is the longest quote that can be verified, in
	// characters.
	MaxQuoteChars int `json:"maxQuoteChars,omitempty"`
}

// FailOnDecisions returns params.failOn as decisions; Validate refuses a
// word that is not one.
func (p Params) FailOnDecisions() []tree.Outcome {
	out := make([]tree.Outcome, 0, len(p.FailOn))
	for _, d := range p.FailOn {
		out = append(out, tree.Outcome(d))
	}
	return out
}

// VerdictCheckSwap is the params.verdictCheck that asks each forced verdict
// again with the sides reversed.
const VerdictCheckSwap = "swap"

// Fallback configures per-topic model fallback and the retry delay.
type Fallback struct {
	MaxConsecutiveFailures int `json:"maxConsecutiveFailures,omitempty"`
	RetryDelay             int `json:"retryDelay,omitempty"` // milliseconds, base of the backoff
}

// Topic is one question to debate.
type Topic struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Background    string   `json:"background,omitempty"`
	Annotations   []string `json:"annotations,omitempty"`
	CoreQuestions []string `json:"coreQuestions,omitempty"`
	// SharedContext is the topic's own documents and notes: its debaters
	// see them after the run's shared ones, and may quote them; a judge
	// never sees them.
	SharedContext *SharedContext `json:"sharedContext,omitempty"`
}

// SharedContext is the background every root position sees: of every
// topic at the top of a config, of one topic on the topic.
type SharedContext struct {
	// Files are files to share, by name or by glob ("docs/**/*.md").
	Files  []string `json:"files,omitempty"`
	Inline string   `json:"inline,omitempty"`
	// MaxBytes caps the size of all the files together; 0 means
	// DefaultMaxSharedBytes.
	MaxBytes int64 `json:"maxBytes,omitempty"`
	// Repository makes every file of a git repository quotable without
	// copying it into the prompts (see Repository); on the run's shared
	// context only.
	Repository Repository `json:"repository,omitempty"`

	// Documents holds the files' contents, read by Load, in Files order.
	Documents []Document `json:"-"`
	// Skipped lists the files a glob matched but Load did not read.
	Skipped []SkippedFile `json:"-"`
}

// Document is one shared-context file as read.
type Document struct {
	Path    string // as written in the config
	Content string
}

// Output configures where and how reports are written.
type Output struct {
	Dir                 string  `json:"dir,omitempty"`
	Format              Formats `json:"format,omitempty"`
	IncludeRawResponses bool    `json:"includeRawResponses,omitempty"`
}

// Formats is the list of report formats: markdown, json, html. In the file it
// may be a single string or a list.
type Formats []string

// Prompts selects the prompt language and an optional folder of template overrides.
type Prompts struct {
	Language string `json:"language,omitempty"` // "en" (default) or "zh"
	Dir      string `json:"dir,omitempty"`
}

// Budget bounds a run's spending.
type Budget struct {
	MaxTokens int `json:"maxTokens,omitempty"`
	// MaxCost caps the run's actual spend, in the currency of pricing:
	// each call's cost as its provider reported it, else pricing × tokens.
	MaxCost float64 `json:"maxCost,omitempty"`
}

// Cache is the call cache shared across runs (see README "The call cache").
type Cache struct {
	// Dir is the cache's folder; "": no cache.
	Dir string `json:"dir,omitempty"`
	// MaxBytes bounds the cache; past it the oldest answers go first.
	// 0: DefaultCacheBytes.
	MaxBytes int64 `json:"maxBytes,omitempty"`
}

// Price is the cost of a model per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CachedInput prices prompt tokens the provider served from its cache;
	// 0: the input price.
	CachedInput float64 `json:"cachedInput,omitempty"`
}

// Cost is the cost of prompt and completion tokens at p (per million
// tokens), the cached prompt tokens among them at the cachedInput price
// when there is one.
func (p Price) Cost(prompt, cached, completion int) float64 {
	cached = min(cached, prompt)
	return (float64(prompt-cached)*p.Input + float64(cached)*cmp.Or(p.CachedInput, p.Input) +
		float64(completion)*p.Output) / 1e6
}
