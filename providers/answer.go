package providers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/debatehq/debate/providers/wire"
)

// answer is one choice as received, streamed or not.
type answer struct {
	model     string
	content   strings.Builder
	reasoning strings.Builder // content's thinking parts and the reasoning fields, in order
	refusal   strings.Builder
	finish    string
	finished  bool // a finish_reason arrived, or the answer ended as a whole
	toolCalls bool // the choice called tools
	usage     *wire.Usage
	filter    *openai.ContentFilterResults
	err       *wire.ErrorDetail // an error the server reported in the body
	choices   bool              // any choice arrived
	index     int               // the index of the choice kept, once choices is set
	streamed  bool              // the answer came as a stream of chunks
	events    wire.Decoder      // of a stream
}

// add folds one chunk, or a whole answer, into the answer. Text after the
// finish reason is not the answer's.
func (a *answer) add(c *wire.Completion) {
	if c.Model != "" {
		a.model = c.Model
	}
	if u := c.Reported(); u != nil {
		a.usage = u
	}
	if c.Error != nil {
		a.err = c.Error
	}
	ch := a.choice(c.Choices)
	if ch == nil {
		return
	}
	if d := a.said(ch); d != nil && !a.finished {
		a.content.WriteString(d.Content.Text)
		for _, s := range []string{d.Content.Reasoning, d.ReasoningContent, d.Reasoning} {
			a.reasoning.WriteString(s)
		}
		a.refusal.WriteString(d.Refusal)
		a.toolCalls = a.toolCalls || len(d.ToolCalls) > 0
	}
	if f := ch.FinishReason; f.Set && (f.Reason != "" || ch.Message != nil) && !a.finished {
		a.finish, a.finished = f.Reason, true
	}
	if ch.ContentFilterResults != nil {
		a.filter = ch.ContentFilterResults
	}
}

// choice returns the choice of c that is the answer's: the only one, whatever
// its index (some servers number a stream's only choice 1, 2, 3 …); of
// several, the one whose index the answer kept, else the first. Nil when c
// has none.
func (a *answer) choice(choices []wire.Choice) *wire.Choice {
	if len(choices) == 0 {
		return nil
	}
	ch := &choices[0]
	if len(choices) > 1 && a.choices {
		for i := range choices {
			if choices[i].Index == a.index {
				ch = &choices[i]
				break
			}
		}
	}
	if !a.choices {
		a.choices, a.index = true, ch.Index
	}
	return ch
}

// said returns what a choice says: a chunk's delta, a body's message,
// whatever else it carries (a body's choice may carry an empty delta beside
// its message; a chunk may repeat the message so far beside its delta).
func (a *answer) said(ch *wire.Choice) *wire.Delta {
	first, second := ch.Message, ch.Delta
	if a.streamed {
		first, second = second, first
	}
	if first != nil {
		return first
	}
	return second
}

// textLen is the length of the answer and reasoning so far.
func (a *answer) textLen() int { return a.content.Len() + a.reasoning.Len() }

// decodeCompletion reads a non-streamed answer, which is complete whatever
// its finish reason says.
func decodeCompletion(body []byte) (*answer, error) {
	var c wire.Completion
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("%w: the body is not JSON: %w", errInvalidResponse, err)
	}
	a := &answer{}
	a.add(&c)
	if a.choices {
		a.finished = true
	}
	return a, nil
}

// readStream folds every event of a stream into an answer, telling onText
// (when set) how much text each event brought. A stream that said [DONE]
// is complete even without a finish reason.
func readStream(br *bufio.Reader, onText func(int)) (*answer, error) {
	a := &answer{streamed: true}
	ev := wire.NewEvents(br)
	for {
		data, err := ev.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return a, err
		}
		before := a.textLen()
		if err := a.events.Decode(data); err != nil {
			return a, fmt.Errorf("%w: a streamed event is not JSON: %w", errInvalidResponse, err)
		}
		a.add(&a.events.Chunk)
		if n := a.textLen() - before; n > 0 && onText != nil {
			onText(n)
		}
	}
	if d, ok := wire.DecodeError(ev.Junk()); ok && a.err == nil {
		a.err = d
	}
	if ev.Done() && a.choices {
		a.finished = true
	}
	if !a.finished && a.err == nil {
		return a, fmt.Errorf("%w: the stream ended before the answer finished (no finish_reason, no [DONE])", errInvalidResponse)
	}
	return a, nil
}

// BytesPerToken is how many bytes of text a token is taken to be where no
// server counted them: the usual rule for English text.
const BytesPerToken = 4

// EstimateTokens guesses the tokens of n bytes of text, rounded up: the one
// estimate of the program, for usage no server reported, streamed progress,
// prompt prefixes and previews.
func EstimateTokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// usage converts what the provider reported; the part of total_tokens
// beyond prompt and completion is billed output.
// Cached prompt tokens are OpenAI's prompt_tokens_details, else DeepSeek's
// cache hits.
func usage(u *wire.Usage) Usage {
	out := Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.Billed(), CachedPromptTokens: u.PromptCacheHitTokens}
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
		out.CachedPromptTokens = d.CachedTokens
	}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = d.ReasoningTokens
	}
	if u.Cost != nil {
		out.Cost = *u.Cost
	}
	return out
}
