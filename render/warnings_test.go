package render

import (
	"strings"
	"testing"

	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

// TestTopicMarksCutAnswers: a debater's answer kept although the token limit
// cut it is followed by its warning, and only that answer.
func TestTopicMarksCutAnswers(t *testing.T) {
	var run *tree.Run
	for _, f := range rendertest.Fixtures() {
		if f.Name == "converged" {
			run = f.Run
		}
	}
	if run == nil {
		t.Fatal("no converged fixture")
	}
	topic := run.Topics[0]
	root := *topic.Root
	root.Warnings = []tree.Warning{{Participant: "party-b", Step: tree.StepRebuttal, Message: "cut at the token limit (params.maxTokensPerResponse: 4000): the answer is incomplete"}}
	topic.Root = &root
	md := string(Topic(run, &topic))

	const mark = "> ⚠ cut at the token limit (params.maxTokensPerResponse: 4000): the answer is incomplete\n"
	if n := strings.Count(md, mark); n != 1 {
		t.Fatalf("the warning appears %d times, want once:\n%s", n, md)
	}
	at := strings.Index(md, mark)
	heading := strings.LastIndex(md[:at], "\n#### ")
	if heading < 0 || !strings.HasPrefix(md[heading+1:], "#### Rebuttal by Party B\n") {
		t.Errorf("the warning does not follow Party B's rebuttal:\n%s", md[max(heading, 0):at+len(mark)])
	}
	if strings.Contains(md[heading+1:at], "\n#### ") {
		t.Error("the warning is not under the cut answer")
	}
}
