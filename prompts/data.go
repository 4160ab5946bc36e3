package prompts

import "fmt"

// Roles of chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Point is one agreed point of a debate.
type Point struct {
	Point  string
	Detail string
}

// VerdictPoint is the judge's forced verdict on one divergence.
type VerdictPoint struct {
	Divergence     string // the divergence's title
	Recommendation string
	Reasoning      string
}

// Synthesis is the data of the call that writes a topic's conclusion from the
// consensus and verdicts aggregated over its whole tree.
type Synthesis struct {
	Title       string
	Background  string
	Annotations []string
	Consensus   []Point
	Verdicts    []VerdictPoint
}

// TopicConclusion is one topic's final conclusion, as written by the
// synthesis call.
type TopicConclusion struct {
	ID         string
	Title      string
	Conclusion string
}

// Edits is the data of the call that proposes concrete edits to the
// shared-context documents from every topic's conclusion.
type Edits struct {
	Documents []Document
	Topics    []TopicConclusion
}

// Question is a divergence a panel judge is asked to decide, as the chair
// listed it.
type Question struct {
	ID         string
	Title      string
	Sides      []Side
	Uninvolved []Party
}

// PanelVerdict is the data of a panel judge's forced-verdict call: the
// node's judge data and the divergences to decide, at least one.
type PanelVerdict struct {
	Judge
	Questions []Question
}

// Alias returns the n-th (from 1) neutral name of a debater in language, as
// blind prompts show it: the label "Debater n" (zh "辩手 n") with the id
// "debater-n". It tells nothing of the debater's label, id or model.
func Alias(language string, n int) Party {
	label := fmt.Sprintf("Debater %d", n)
	if language == "zh" {
		label = fmt.Sprintf("辩手 %d", n)
	}
	return Party{ID: fmt.Sprintf("debater-%d", n), Label: label}
}
