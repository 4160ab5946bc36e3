package output

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/tree"
)

func progressEvents() []tree.Event {
	return []tree.Event{
		{Kind: tree.TopicStarted, Topic: "t1"},
		{Kind: tree.NodeStarted, Topic: "t1", Node: "root"},
		{Kind: tree.CallStarted, Topic: "t1", Node: "root", Participant: "a"},
		{Kind: tree.CallFinished, Topic: "t1", Node: "root", Participant: "a", Usage: tree.Usage{PromptTokens: 1500, CompletionTokens: 700}},
		{Kind: tree.CallStarted, Topic: "t1", Node: "root", Participant: "b"},
		{Kind: tree.CallFailed, Topic: "t1", Node: "root", Participant: "b", Model: "m-b", Err: "server error 503"},
		{Kind: tree.FellBack, Topic: "t1", Fallback: &tree.Fallback{Participant: "b", From: "m-b", To: "m-b2", Node: "root", Reason: "2 consecutive failures"}},
		{Kind: tree.NodeFinished, Topic: "t1", Node: "root", Status: tree.Failed, Err: "no debater answered"},
		{Kind: tree.TopicFinished, Topic: "t1", Status: tree.Failed},
	}
}

func TestProgressPlainLogs(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, ProgressOptions{Topics: []ProgressTopic{{ID: "t1", Title: "First"}}})
	for _, ev := range progressEvents() {
		p.Handle(ev)
	}
	p.Close()
	out := buf.String()
	for _, not := range []string{"call failed", "fallback", "topic done"} {
		if strings.Contains(out, not) {
			t.Errorf("output logs %q, which the engine logs itself:\n%s", not, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("plain output has terminal escapes:\n%q", out)
	}
	for _, want := range []string{
		`msg="topic started" topic=t1`,
		`msg="node done" topic=t1 node=root status=failed reason="no debater answered"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestProgressTerminal(t *testing.T) {
	tests := []struct {
		name  string
		color bool
	}{{"color", true}, {"no color", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			p := NewProgress(&buf, ProgressOptions{
				Terminal: true, Color: tt.color,
				Topics: []ProgressTopic{{ID: "t1", Title: "First"}, {ID: "t2", Title: "Second"}},
				Now:    func() time.Time { return clock },
			})
			evs := progressEvents()
			for i := range evs {
				evs[i].Time = clock.Add(time.Duration(i) * time.Second)
				p.Handle(evs[i])
			}
			p.Logger().Info("hello from the log")
			p.Close()
			out := buf.String()
			for _, want := range []string{"t1  First   failed  nodes 1  tokens 2.2k  8s  fallbacks 1", "t2  Second  nodes 0/0",
				"t1: node root failed: no debater answered", "hello from the log"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%q", want, out)
				}
			}
			if hasColor := strings.Contains(out, "\x1b[31m"); hasColor != tt.color {
				t.Errorf("red failure mark present = %v, want %v", hasColor, tt.color)
			}
			if strings.Contains(out, "time=") {
				t.Error("log lines on a terminal carry timestamps")
			}
			if !strings.Contains(out, "\x1b[2K") {
				t.Error("terminal output never redraws its lines in place")
			}
		})
	}
}

func TestCompact(t *testing.T) {
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1.0k", 12345: "12.3k", 4_100_000: "4.1M"} {
		if got := compact(in); got != want {
			t.Errorf("compact(%d) = %q, want %q", in, got, want)
		}
	}
}
