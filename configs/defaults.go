package configs

// Defaults applied by Load (and ApplyDefaults) to fields that are not set.
const (
	// DefaultTimeout is api.timeout: 600000 ms (ten minutes) per model call
	// attempt.
	DefaultTimeout = 600000
	// DefaultIdleTimeout is api.idleTimeout: 60000 ms of silence in a
	// streamed answer.
	DefaultIdleTimeout = 60000
	// DefaultMaxResponseBytes is api.maxResponseBytes: 4 MiB per answer.
	DefaultMaxResponseBytes = 4 << 20
	// DefaultMaxRetries is api.maxRetries: 2 retries after the first attempt.
	DefaultMaxRetries = 2
	// DefaultMaxRounds is params.maxRounds: 3 levels of debate.
	DefaultMaxRounds = 3
	// DefaultMaxTokensPerResponse is params.maxTokensPerResponse: 4000.
	DefaultMaxTokensPerResponse = 4000
	// DefaultMaxDivergences is params.maxDivergences: 5 child debates per node.
	DefaultMaxDivergences = 5
	// DefaultMaxQuoteChars is params.maxQuoteChars: quotes of up to 600
	// characters can be verified.
	DefaultMaxQuoteChars = 600
	// DefaultConcurrency is params.concurrency: 8 model calls in flight.
	DefaultConcurrency = 8
	// DefaultMaxConsecutiveFailures is fallback.maxConsecutiveFailures: 2.
	DefaultMaxConsecutiveFailures = 2
	// DefaultRetryDelay is fallback.retryDelay: 2000 ms, the base of the backoff.
	DefaultRetryDelay = 2000
	// DefaultOutputDir is output.dir: "output", relative to the config's folder.
	DefaultOutputDir = "output"
	// DefaultFormat is output.format when none is given: "markdown".
	DefaultFormat = "markdown"
	// DefaultLanguage is prompts.language: "en".
	DefaultLanguage = "en"
	// DefaultCacheBytes is cache.maxBytes: 1 GiB.
	DefaultCacheBytes = 1 << 30
	// DefaultAgentConcurrency is params.agentConcurrency: 2 agent
	// processes at once.
	DefaultAgentConcurrency = 2
	// DefaultAgentTimeout is an agent's timeout: 600000 ms (ten minutes)
	// per run.
	DefaultAgentTimeout = 600000
)

// ApplyDefaults fills every unset field with its default: api.timeout
// DefaultTimeout, api.idleTimeout DefaultIdleTimeout, api.maxResponseBytes
// DefaultMaxResponseBytes, api.maxRetries DefaultMaxRetries, params.maxRounds
// DefaultMaxRounds, params.maxTokensPerResponse DefaultMaxTokensPerResponse,
// params.maxDivergences DefaultMaxDivergences, params.maxQuoteChars
// DefaultMaxQuoteChars, params.parallelCalls true,
// params.concurrency DefaultConcurrency,
// params.synthesis true, fallback.maxConsecutiveFailures
// DefaultMaxConsecutiveFailures, fallback.retryDelay DefaultRetryDelay,
// output.dir DefaultOutputDir, output.format [DefaultFormat],
// prompts.language DefaultLanguage, each participant's label its id, and in
// a protocol section the roles' ids and labels, protocol.maxTurns
// DefaultMaxTurns and protocol.debateType DefaultDebateType.
// params.temperature stays nil (the provider's default) when not given.
// A zero number counts as unset here; Load instead treats a number written
// in the file as set, so that an explicit 0 is validated rather than replaced.
func (c *Config) ApplyDefaults() {
	c.applyDefaults(nil)
}

// applyDefaults fills unset fields. A field counts as set when src records
// it as written, or when its value is not zero.
func (c *Config) applyDefaults(src *source) {
	unset := func(path string, zero bool) bool { return zero && !src.written(path) }
	if unset("api.timeout", c.API.Timeout == 0) {
		c.API.Timeout = DefaultTimeout
	}
	if unset("api.idleTimeout", c.API.IdleTimeout == 0) {
		c.API.IdleTimeout = DefaultIdleTimeout
	}
	if unset("api.maxResponseBytes", c.API.MaxResponseBytes == 0) {
		c.API.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.API.MaxRetries == nil {
		n := DefaultMaxRetries
		c.API.MaxRetries = &n
	}
	if unset("params.maxRounds", c.Params.MaxRounds == 0) {
		c.Params.MaxRounds = DefaultMaxRounds
	}
	if unset("params.maxTokensPerResponse", c.Params.MaxTokensPerResponse == 0) {
		c.Params.MaxTokensPerResponse = DefaultMaxTokensPerResponse
	}
	if unset("params.maxDivergences", c.Params.MaxDivergences == 0) {
		c.Params.MaxDivergences = DefaultMaxDivergences
	}
	if unset("params.maxQuoteChars", c.Params.MaxQuoteChars == 0) {
		c.Params.MaxQuoteChars = DefaultMaxQuoteChars
	}
	if c.Params.ParallelCalls == nil {
		t := true
		c.Params.ParallelCalls = &t
	}
	if unset("params.concurrency", c.Params.Concurrency == 0) {
		c.Params.Concurrency = DefaultConcurrency
	}
	if unset("params.agentConcurrency", c.Params.AgentConcurrency == 0) {
		c.Params.AgentConcurrency = DefaultAgentConcurrency
	}
	if c.Params.Synthesis == nil {
		t := true
		c.Params.Synthesis = &t
	}
	if unset("fallback.maxConsecutiveFailures", c.Fallback.MaxConsecutiveFailures == 0) {
		c.Fallback.MaxConsecutiveFailures = DefaultMaxConsecutiveFailures
	}
	if unset("fallback.retryDelay", c.Fallback.RetryDelay == 0) {
		c.Fallback.RetryDelay = DefaultRetryDelay
	}
	if c.Output.Dir == "" {
		c.Output.Dir = DefaultOutputDir
	}
	if c.Cache.MaxBytes == 0 {
		c.Cache.MaxBytes = DefaultCacheBytes
	}
	if len(c.Output.Format) == 0 {
		c.Output.Format = Formats{DefaultFormat}
	}
	if c.Prompts.Language == "" {
		c.Prompts.Language = DefaultLanguage
	}
	for i := range c.Debaters {
		if c.Debaters[i].Label == "" {
			c.Debaters[i].Label = c.Debaters[i].ID
		}
	}
	if c.Reviewer != nil && c.Reviewer.Label == "" {
		c.Reviewer.Label = c.Reviewer.ID
	}
	for i := range c.Judges {
		if c.Judges[i].Label == "" {
			c.Judges[i].Label = c.Judges[i].ID
		}
	}
	c.applyProtocolDefaults(src)
	for _, p := range c.participantRefs() {
		foldAgents(p)
		c.agentDefaults(p.Agent)
		c.agentDefaults(p.FallbackAgent)
	}
}
