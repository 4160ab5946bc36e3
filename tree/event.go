package tree

import "time"

// EventKind names what a progress event reports.
type EventKind string

// The kinds of progress events a run emits.
const (
	TopicStarted  EventKind = "topic_started"
	TopicFinished EventKind = "topic_finished"
	NodeStarted   EventKind = "node_started"
	NodeFinished  EventKind = "node_finished"
	CallStarted   EventKind = "call_started"
	CallFinished  EventKind = "call_finished"
	FellBack      EventKind = "fallback"
	CallFailed    EventKind = "call_failed"
)

// Event is one progress report of a running debate. Fields that do not apply
// to a kind are zero.
type Event struct {
	Kind        EventKind
	Time        time.Time
	Topic       string
	Node        string
	Participant string
	Step        Step
	Model       string
	Usage       Usage     // tokens of a finished call
	Status      Status    // of a finished node or topic
	Err         string    // of a failed call or node, secrets already removed
	Fallback    *Fallback // of a fallback event
}
