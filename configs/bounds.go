package configs

// Upper bounds on the numbers of a config: values no one can mean, which
// would otherwise pass and then make every call fail at once or a run never
// end. Each is checked by Validate with a located error naming it.
const (
	// MaxTimeout bounds api.timeout: one hour per model call, in ms.
	MaxTimeout = 3_600_000
	// MaxRetries bounds api.maxRetries: retries of one call.
	MaxRetries = 10
	// MaxConsecutiveFailures bounds fallback.maxConsecutiveFailures.
	MaxConsecutiveFailures = 10
	// MaxRetryDelay bounds fallback.retryDelay: ten minutes, in ms.
	MaxRetryDelay = 600_000
	// MaxRounds bounds params.maxRounds: a tree of ten levels.
	MaxRounds = 10
	// MaxDivergences bounds params.maxDivergences: child debates of one node.
	MaxDivergences = 20
	// MaxQuoteChars bounds params.maxQuoteChars: characters of one quote.
	MaxQuoteChars = 100_000
	// MaxTurns bounds protocol.maxTurns: proposer replies in a motion.
	MaxTurns = 200
	// MaxTokensPerResponse bounds params.maxTokensPerResponse.
	MaxTokensPerResponse = 1_000_000
	// MaxConcurrency bounds params.concurrency and api.maxConcurrent: calls
	// in flight.
	MaxConcurrency = 1024
	// MaxRequestsPerMinute bounds api.requestsPerMinute.
	MaxRequestsPerMinute = 1_000_000
	// MaxResponseBytes bounds api.maxResponseBytes: 1 GiB.
	MaxResponseBytes = 1 << 30
	// MaxBudgetTokens bounds budget.maxTokens: a trillion tokens.
	MaxBudgetTokens = 1_000_000_000_000
	// MaxIDLength bounds the id of a participant, topic or motion, which
	// names report and raw files: with a title's slug a file name stays
	// under the 255 bytes file systems allow.
	MaxIDLength = 64
	// MaxAgentTurns bounds an agent's maxTurns.
	MaxAgentTurns = 10_000
	// MaxPrice bounds a pricing entry: a million per million tokens.
	MaxPrice = 1_000_000
)

// atMost reports the number at path when it is above limit, saying what the
// limit means.
func (r *reporter) atMost(path string, got, limit int64, meaning string) {
	if got > limit {
		r.at(path, "must be at most %d (%s), got %d", limit, meaning, got)
	}
}
