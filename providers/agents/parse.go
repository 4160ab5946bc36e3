package agents

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
)

// answer is what one run of an agent gave.
type answer struct {
	text      string
	reasoning string
	session   string
	usage     providers.Usage
	// cut marks an answer cut at the output cap (command agents).
	cut bool
	// notes are what the run said besides its answer (tools it was
	// refused), for the log.
	notes []string
}

// failure is a run that gave no answer: its kind says what the attempt
// loop does, msg what went wrong in the CLI's words.
type failure struct {
	class providers.Class
	msg   string
	// resume marks a failure to find the session to continue.
	resume bool
}

func (f *failure) Error() string { return f.msg }

func fail(class providers.Class, format string, args ...any) *failure {
	return &failure{class: class, msg: fmt.Sprintf(format, args...)}
}

// parse reads the output of a run of agent a that ended by itself; the
// pricing prices the tokens of a CLI that reports no cost.
func parse(a *configs.Agent, o outcome, pricing map[string]configs.Price) (answer, *failure) {
	switch a.Kind {
	case configs.AgentClaudeCode:
		return parseClaude(o)
	case configs.AgentCodex:
		return parseCodex(a, o, pricing)
	case configs.AgentGemini:
		return parseGemini(o, pricing)
	}
	return parseCommand(o)
}

// claudeResult is the result message of claude -p --output-format json,
// the Agent SDK's SDKResultMessage: subtype "success" (with is_error true
// when the API call failed), or one of the error subtypes.
type claudeResult struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsError          bool            `json:"is_error"`
	APIErrorStatus   *int            `json:"api_error_status"`
	Result           string          `json:"result"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	SessionID        string          `json:"session_id"`
	TotalCostUSD     float64         `json:"total_cost_usd"`
	NumTurns         int             `json:"num_turns"`
	Usage            struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
	PermissionDenials []struct {
		ToolName string `json:"tool_name"`
	} `json:"permission_denials"`
	Errors []string `json:"errors"`
}

// Claude Code's result subtypes other than "success".
const (
	claudeMaxTurns   = "error_max_turns"
	claudeMaxBudget  = "error_max_budget_usd"
	claudeMaxRetries = "error_max_structured_output_retries"
	claudeExecution  = "error_during_execution"
)

func parseClaude(o outcome) (answer, *failure) {
	var r claudeResult
	if !lastObject(o.stdout, func(b []byte) bool {
		return json.Unmarshal(b, &r) == nil && r.Type == "result"
	}) {
		return answer{}, noResult("claude", o)
	}
	ans := answer{session: r.SessionID, usage: providers.Usage{
		PromptTokens:       r.Usage.InputTokens + r.Usage.CacheCreationInputTokens + r.Usage.CacheReadInputTokens,
		CachedPromptTokens: r.Usage.CacheReadInputTokens,
		CompletionTokens:   r.Usage.OutputTokens,
		Cost:               r.TotalCostUSD,
	}}
	for _, d := range r.PermissionDenials {
		ans.notes = append(ans.notes, "refused the tool "+d.ToolName)
	}
	detail := strings.Join(append([]string{r.Result}, r.Errors...), "; ")
	switch r.Subtype {
	case "success":
	case claudeMaxTurns, claudeMaxBudget, claudeMaxRetries:
		return ans, fail(providers.ClassAgentLimit, "stopped at its limit (%s after %d turns)", r.Subtype, r.NumTurns)
	default:
		return ans, fail(providers.ClassErrorInAnswer, "%s: %s", r.Subtype, strings.Trim(detail, "; "))
	}
	if r.IsError {
		return ans, claudeError(r)
	}
	ans.text = r.Result
	if len(r.StructuredOutput) > 0 && !bytes.Equal(r.StructuredOutput, []byte("null")) {
		ans.text = string(r.StructuredOutput)
	}
	if strings.TrimSpace(ans.text) == "" {
		return ans, fail(providers.ClassEmpty, "the result is empty")
	}
	return ans, nil
}

// claudeError classifies a result marked is_error: a failed API call, by
// its status and words as providers classifies an endpoint's when the
// result has a status, else by its words.
func claudeError(r claudeResult) *failure {
	msg := "is_error: " + r.Result
	if s := r.APIErrorStatus; s != nil {
		return fail(providers.Meaning(*s, r.Result), "%s (status %d)", msg, *s)
	}
	return fail(wordsClass(r.Result), "%s", msg)
}

// authWords are what the CLIs say when they have no usable credentials.
var authWords = []string{"not logged in", "/login", "invalid api key", "unauthorized", "please set an auth method", "authentication"}

// status401 and status429 find those statuses named in a message, not the
// same digits inside a larger number (a count of tokens).
var (
	status401 = regexp.MustCompile(`\b401\b`)
	status429 = regexp.MustCompile(`\b429\b`)
)

// wordsClass classifies an agent's error message: the CLIs' own words for
// missing credentials, then what providers' table of meanings reads in
// the words (a prompt too long, a spent quota, a model not found), then
// a limit or the network, else a failure that may pass.
func wordsClass(msg string) providers.Class {
	m := strings.ToLower(msg)
	if containsAny(m, authWords...) || status401.MatchString(m) {
		return providers.ClassKeyRefused
	}
	if c, ok := providers.MeaningOfWords(msg); ok {
		return c
	}
	switch {
	case containsAny(m, "usage limit"):
		return providers.ClassQuotaExhausted
	case containsAny(m, "rate limit", "quota") || status429.MatchString(m):
		return providers.ClassRateLimited
	case containsAny(m, "stream disconnected", "failed to lookup address", "connection", "reconnecting", "network"):
		return providers.ClassNetwork
	}
	return providers.ClassServerError
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// noResult is the failure of a run that printed no result: what its
// standard error says (its first line that reads as an error, else its
// last lines), a refused argument or session named as such.
func noResult(cli string, o outcome) *failure {
	msg := errorLine(o.stderr)
	if msg == "" {
		msg = lastLines(o.stdout, 3)
	}
	low := strings.ToLower(string(o.stderr) + "\n" + msg)
	switch {
	case containsAny(low, "no conversation found", "no rollout found", "session not found"):
		return &failure{class: providers.ClassModelUnavailable, msg: "the session to resume is gone: " + msg, resume: true}
	case containsAny(low, "unknown option", "unexpected argument", "unknown argument", "invalid value"):
		return fail(providers.ClassBadRequest, "%s refused its command line (exit %d): %s", cli, o.exit, msg)
	case msg == "":
		return fail(providers.ClassInvalidResponse, "%s exited %d and printed no result", cli, o.exit)
	}
	return fail(wordsClass(msg), "%s exited %d without a result: %s", cli, o.exit, msg)
}

// errorLine is the first line of b that says "error", else its last three
// lines.
func errorLine(b []byte) string {
	for line := range strings.Lines(string(b)) {
		if l := strings.TrimSpace(line); strings.Contains(strings.ToLower(l), "error") && !strings.Contains(l, " ERROR ") {
			return l
		}
	}
	return lastLines(b, 3)
}

// codexEvent is one line of codex exec --json (codex-rs/exec's
// ThreadEvent): thread.started, turn.started, turn.completed with the
// turn's usage, turn.failed, item.started/updated/completed with an item,
// and error.
type codexEvent struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
	Usage    *struct {
		InputTokens           int `json:"input_tokens"`
		CachedInputTokens     int `json:"cached_input_tokens"`
		OutputTokens          int `json:"output_tokens"`
		ReasoningOutputTokens int `json:"reasoning_output_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Item *struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Message string `json:"message"`
	} `json:"item"`
}

func parseCodex(a *configs.Agent, o outcome, pricing map[string]configs.Price) (answer, *failure) {
	var ans answer
	var reasoning []string
	var lastErr, failed string
	completed := false
	for line := range bytes.Lines(o.stdout) {
		var ev codexEvent
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		switch ev.Type {
		case "thread.started":
			ans.session = ev.ThreadID
		case "turn.completed":
			completed = true
			if u := ev.Usage; u != nil {
				ans.usage.PromptTokens += u.InputTokens
				ans.usage.CachedPromptTokens += u.CachedInputTokens
				ans.usage.CompletionTokens += u.OutputTokens
				ans.usage.ReasoningTokens += u.ReasoningOutputTokens
			}
		case "turn.failed":
			if ev.Error != nil {
				failed = ev.Error.Message
			}
		case "error":
			lastErr = ev.Message
		case "item.completed":
			switch it := ev.Item; {
			case it == nil:
			case it.Type == "agent_message":
				ans.text = it.Text
			case it.Type == "reasoning":
				reasoning = append(reasoning, it.Text)
			case it.Type == "error":
				ans.notes = append(ans.notes, it.Message)
			}
		}
	}
	ans.reasoning = strings.Join(reasoning, "\n\n")
	ans.usage.Cost = price(pricing, ans.usage, a.Model, a.Label())
	switch {
	case failed != "":
		return ans, fail(wordsClass(failed), "turn.failed: %s", failed)
	case !completed && ans.session == "":
		return ans, noResult("codex", o)
	case !completed:
		if lastErr == "" {
			lastErr = lastLines(o.stderr, 1)
		}
		return ans, fail(wordsClass(lastErr), "codex exited %d before its turn completed: %s", o.exit, lastErr)
	case strings.TrimSpace(ans.text) == "":
		return ans, fail(providers.ClassEmpty, "the turn completed without an agent_message")
	}
	return ans, nil
}

// geminiOutput is gemini --output-format json: the answer, the session,
// statistics per model, or an error with the exit code as its code.
type geminiOutput struct {
	SessionID string `json:"session_id"`
	Response  string `json:"response"`
	Stats     struct {
		Models map[string]struct {
			Tokens struct {
				Prompt     int `json:"prompt"`
				Candidates int `json:"candidates"`
				Cached     int `json:"cached"`
				Thoughts   int `json:"thoughts"`
				Tool       int `json:"tool"`
			} `json:"tokens"`
		} `json:"models"`
	} `json:"stats"`
	Error *struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

// Gemini CLI's exit codes besides 0 and 1.
const (
	geminiAuth      = 41
	geminiInput     = 42
	geminiSandbox   = 44
	geminiConfig    = 52
	geminiTurnLimit = 53
)

func parseGemini(o outcome, pricing map[string]configs.Price) (answer, *failure) {
	var g geminiOutput
	found := lastObject(o.stdout, func(b []byte) bool { return json.Unmarshal(b, &g) == nil }) ||
		lastObject(o.stderr, func(b []byte) bool { return json.Unmarshal(b, &g) == nil && g.Error != nil })
	ans := answer{session: g.SessionID, text: g.Response}
	for _, m := range slices.Sorted(maps.Keys(g.Stats.Models)) {
		t := g.Stats.Models[m].Tokens
		u := providers.Usage{PromptTokens: t.Prompt, CachedPromptTokens: t.Cached, CompletionTokens: t.Candidates + t.Thoughts, ReasoningTokens: t.Thoughts}
		u.Cost = price(pricing, u, m)
		ans.usage.PromptTokens += u.PromptTokens
		ans.usage.CachedPromptTokens += u.CachedPromptTokens
		ans.usage.CompletionTokens += u.CompletionTokens
		ans.usage.ReasoningTokens += u.ReasoningTokens
		ans.usage.Cost += u.Cost
	}
	msg := ""
	if g.Error != nil {
		msg = g.Error.Message
	}
	switch o.exit {
	case 0:
	case geminiAuth:
		return ans, fail(providers.ClassKeyRefused, "gemini exited %d (auth): %s", o.exit, msg)
	case geminiTurnLimit:
		return ans, fail(providers.ClassAgentLimit, "gemini exited %d (turn limit): %s", o.exit, msg)
	case geminiInput, geminiSandbox, geminiConfig:
		return ans, fail(providers.ClassBadRequest, "gemini exited %d (input, sandbox or settings): %s", o.exit, cmp.Or(msg, lastLines(o.stderr, 3)))
	default:
		if !found {
			return ans, noResult("gemini", o)
		}
		return ans, fail(wordsClass(msg), "gemini exited %d: %s", o.exit, msg)
	}
	switch {
	case !found:
		return ans, noResult("gemini", o)
	case g.Error != nil:
		return ans, fail(wordsClass(msg), "gemini: %s", msg)
	case strings.TrimSpace(ans.text) == "":
		return ans, fail(providers.ClassEmpty, "the response is empty")
	}
	return ans, nil
}

// parseCommand reads a command agent: its standard output is the answer,
// cut at the cap when the program, killed there, printed more.
func parseCommand(o outcome) (answer, *failure) {
	if o.exit != 0 && !o.overflow {
		return answer{}, fail(providers.ClassErrorInAnswer, "exited %d: %s", o.exit, cmp.Or(lastLines(o.stderr, 3), "no message"))
	}
	ans := answer{text: string(o.stdout), cut: o.overflow}
	if !ans.cut {
		ans.text = strings.TrimSpace(ans.text)
	}
	if strings.TrimSpace(ans.text) == "" {
		return ans, fail(providers.ClassEmpty, "printed nothing on its standard output")
	}
	return ans, nil
}

// price is the cost of u at the first of models that pricing prices, 0
// when none is.
func price(pricing map[string]configs.Price, u providers.Usage, models ...string) float64 {
	for _, m := range models {
		p, ok := pricing[m]
		if !ok || m == "" {
			continue
		}
		return p.Cost(u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens)
	}
	return 0
}

// lastObject calls take on each JSON object of b, from the last line
// back, until it takes one: a CLI may print warnings before its result.
// A multi-line object (pretty-printed) is tried from its first brace.
func lastObject(b []byte, take func([]byte) bool) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return false
	}
	if take(b) {
		return true
	}
	for end := len(b); end > 0; {
		i := bytes.LastIndexByte(b[:end], '\n')
		if line := bytes.TrimSpace(b[i+1 : end]); len(line) > 0 && line[0] == '{' && take(line) {
			return true
		}
		end = max(i, 0)
	}
	if i := bytes.IndexByte(b, '{'); i > 0 {
		var v json.RawMessage
		if json.NewDecoder(bytes.NewReader(b[i:])).Decode(&v) == nil {
			return take(v)
		}
	}
	return false
}

// lastLines returns the last n non-empty lines of b, joined by " / ".
func lastLines(b []byte, n int) string {
	var lines []string
	for line := range strings.Lines(string(b)) {
		if l := strings.TrimSpace(line); l != "" {
			lines = append(lines, l)
		}
	}
	lines = lines[max(len(lines)-n, 0):]
	return strings.Join(lines, " / ")
}
