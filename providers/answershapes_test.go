package providers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// TestAnswerShapes serves each recorded answer shape under
// testdata/answers (written from the documented response formats of OpenAI,
// Azure OpenAI, OpenRouter, DeepSeek, Qwen, vLLM and Ollama) with the key
// "none", and compares what the client makes of it with its golden file.
func TestAnswerShapes(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "answers", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			srv := providertest.New(t)
			srv.Enqueue("m", scripted.Raw(200, string(body)))
			cfg := testConfig(func(c *configs.Config) {
				c.API.APIKey = "none"
				c.API.MaxRetries = ptr(0)
			})
			var mu sync.Mutex
			var xs []Exchange
			c := newTestClient(t, srv, cfg, Options{Record: func(x Exchange) { mu.Lock(); xs = append(xs, x); mu.Unlock() }})
			resp, err := c.Complete(t.Context(), ask("a", "m", "position please"))
			var b strings.Builder
			if err != nil {
				e := asError(t, err)
				fmt.Fprintf(&b, "error kind: %s\ntransient: %v\nerror: %s\n", e.Class, e.Class.Transient(), e.Err)
			} else {
				fmt.Fprintf(&b, "model: %s\nfinish: %s\ncut: %v\nusage: %d+%d\n", resp.Model, resp.FinishReason, resp.Cut(), resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
				fmt.Fprintf(&b, "--- answer\n%s\n--- reasoning\n%s\n", resp.Text, resp.Reasoning)
				if resp.Reasoning != "" && strings.Contains(resp.Text, resp.Reasoning) {
					t.Errorf("the reasoning is part of the answer %q", resp.Text)
				}
			}
			golden.Assert(t, filepath.Join("testdata", "answers", name+".golden"), []byte(b.String()))
			if len(xs) != 1 || strings.Contains(string(xs[0].Response), redact.SecretMask) || string(xs[0].Response) != string(body) {
				t.Errorf("the raw response should be recorded as received, with nothing redacted: %s", xs[0].Response)
			}
			if strings.Contains(b.String(), redact.SecretMask) {
				t.Errorf("model text was rewritten: %s", b.String())
			}
		})
	}
}

// TestShapesServedByTheFake covers the fake's own constructors of the same
// shapes, through the client.
func TestShapesServedByTheFake(t *testing.T) {
	for _, tc := range []struct {
		name              string
		reply             scripted.Reply
		answer, reasoning string
		cut               bool
		kind              Class // of the error; ClassOther: none
	}{
		{name: "think block with a decoy", reply: scripted.Think(`decoy {"consensus":[]}`, "Final."), answer: "Final.", reasoning: `decoy {"consensus":[]}`},
		{name: "reasoning_content", reply: scripted.Reasoned("why", "what"), answer: "what", reasoning: "why"},
		{name: "reasoning field", reply: scripted.Reply{Text: "what", Reasoning: "why"}, answer: "what", reasoning: "why"},
		{name: "drafts", reply: scripted.Drafted(map[string]int{"v": 1}, map[string]int{"v": 2}),
			answer: "Draft:\n\n```json\n{\"v\":1}\n```\n\nOn reflection the draft misses a point. Final answer:\n\n```json\n{\"v\":2}\n```\n"},
		{name: "cut answer", reply: scripted.CutOff("half an ans"), answer: "half an ans", cut: true},
		{name: "cut while reasoning", reply: scripted.Reply{Text: "<think>long", FinishReason: "length"}, kind: ClassCut},
		{name: "content filter", reply: scripted.ContentFilter(), kind: ClassContentRefused},
		{name: "refusal", reply: scripted.Reply{Refusal: "I can't."}, kind: ClassContentRefused},
		{name: "reasoning alone", reply: scripted.Reasoned("only this", ""), kind: ClassEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.ReplyTo("m", tc.reply)
			c := newTestClient(t, srv, testConfig(func(c *configs.Config) { c.API.MaxRetries = ptr(0) }), Options{})
			resp, err := c.Complete(t.Context(), ask("a", "m", "x"))
			if tc.kind != ClassOther {
				var e *Error
				if !errors.As(err, &e) || e.Class != tc.kind {
					t.Fatalf("got %+v, %v; want a %s error", resp, err, tc.kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != tc.answer || resp.Reasoning != tc.reasoning || resp.Cut() != tc.cut {
				t.Errorf("got answer %q, reasoning %q, cut %v; want %q, %q, %v", resp.Text, resp.Reasoning, resp.Cut(), tc.answer, tc.reasoning, tc.cut)
			}
		})
	}
}
