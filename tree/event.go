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
	// AttemptFailed reports one failed attempt of a call that was not cut
	// short by an interrupt: it is retried, handed to the fallback or ends
	// its call. It follows the attempt's CallFailed.
	AttemptFailed EventKind = "attempt_failed"
	// CallProgress reports text of a streamed answer as it arrives: its
	// Usage.CompletionTokens estimates the tokens received since the last
	// one. Before its CallFinished or CallFailed a call takes back what it
	// reported this way with one CallProgress of the negative sum, so that
	// adding every event's tokens counts each call once, as its provider
	// reported it.
	CallProgress EventKind = "call_progress"
)

// EventKey is the key of the log attribute by which a log record names the
// kind of progress event that reports the same happening (e.g.
// "event=attempt_failed"), so that a display drawing the events can leave
// the record out instead of showing it twice.
const EventKey = "event"

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
	Usage       Usage     // tokens of a finished call, or received so far (CallProgress)
	Status      Status    // of a finished node or topic
	Err         string    // of a failed call or node, secrets already removed
	Fallback    *Fallback // of a fallback event
}
