package protocol

// The writes a participant submits and what comes back: the types every
// writer (the server, the batch run of motions) shares with the store that
// carries them out.

// NewDebate is a debate to create together with its MOTION.
type NewDebate struct {
	ID              string
	Title           string
	Type            DebateType
	Content         string // the MOTION
	ClientRequestID string
}

// Write is one argument submitted to an existing debate (any type but MOTION,
// which only the creation of a debate writes). Close is read only for a
// RULING.
type Write struct {
	DebateID        string
	Type            ArgType
	Role            Role
	TargetID        string
	Content         string
	ClientRequestID string
	Close           bool
}

// Result is the outcome of creating a debate or submitting a Write. Argument
// is the written argument or, on a replay, the original one; Debate is the
// debate as it is now. After a new RESOLUTION, AutoRuling is the RULING the
// store added (nil if that write failed; the RESOLUTION stands either way).
type Result struct {
	Argument   Argument
	Debate     Debate
	Replay     bool
	AutoRuling *Argument
}

// WaitResult is the answer to a wait for news of a debate. HasNew reports an
// argument newer than the one the waiter had seen; Argument is then the
// newest argument, Arguments every argument after the one the waiter had
// seen, oldest first (only the newest when the waiter named none), and Action
// what the waiting role should do. On a CLOSED debate Action is DebateClosed
// and Argument the newest argument even when it is not new. When neither
// holds (the timeout passed) Action is empty and Argument zero.
type WaitResult struct {
	HasNew      bool
	Action      Action
	Debate      Debate
	Argument    Argument
	Arguments   []Argument
	LastSeenSeq int
}

// NewDocument is the first version of a shared document.
type NewDocument struct {
	Title           string
	Content         string
	ClientRequestID string // optional; makes the create idempotent
}
