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

// The kinds of progress events of a motion, a protocol debate played in
// turns: in each the opponent answers the newest argument and the proposer
// replies; an arbitrator rules on appeals. Their calls report the kinds
// above, with Motion and Turn set instead of Topic and Node.
const (
	MotionStarted  EventKind = "motion_started"
	MotionFinished EventKind = "motion_finished"
	TurnStarted    EventKind = "turn_started"
	// Argued reports a debater's argument written to the debate: its Role,
	// Argument type and Seq.
	Argued EventKind = "argument"
	// Ruled reports the arbitrator's ruling written to the debate: its Seq
	// and whether it Closes the debate.
	Ruled EventKind = "ruling"
	// TurnFailed reports a turn that ended the motion with the failure Err.
	TurnFailed EventKind = "turn_failed"
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
	Motion      string // the motion of a motion's event, instead of Topic
	Turn        int    // of a motion's event, instead of Node
	Role        string // who speaks: of a TurnStarted, Argued or Ruled event
	Argument    string // the type of an Argued event's argument: CLAIM, APPEAL…
	Seq         int    // the argument's or ruling's number in its debate
	Closes      bool   // a Ruled event's ruling closes the debate
	Participant string
	Step        Step
	Model       string
	Usage       Usage        // tokens of a finished call, or received so far (CallProgress)
	Status      Status       // of a finished node or topic
	Decision    Outcome      // of a finished topic
	Cause       Cause        // of a finished topic that is Undecided
	Verdicts    VerdictCount // of a finished topic
	Err         string       // of a failed call or node, secrets already removed
	Fallback    *Fallback    // of a fallback event
}

// Scope returns the id of the topic or motion the event belongs to, empty
// for a call of the run as a whole.
func (ev Event) Scope() string {
	if ev.Motion != "" {
		return ev.Motion
	}
	return ev.Topic
}
