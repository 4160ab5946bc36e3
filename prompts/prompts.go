// Package prompts holds the embedded text/template prompts of every debate
// step, in English and Chinese, and typed builders that turn a step's data
// into the chat messages sent to a model.
//
// Each step has one template file, named after the step (see Names):
// templates/<language>/<step>.tmpl. A file defines {{define "user"}} and,
// except repair, optionally {{define "system"}}; helper templates may be
// defined under names starting with "_". The data of each file is the
// struct its builder takes (root_position: RootPosition; the two
// child_position files: ChildPosition; rebuttal: Rebuttal; triage and
// forced_verdict: Judge; panel_verdict: PanelVerdict; repair: Repair; synthesis: Synthesis; edits:
// Edits), and the helper functions listed at funcs are available. A folder
// of overrides replaces any file by name; see New.
//
// Prompts are ordered stable first, so that providers can cache their
// prefix: the system message holds a step's standing instructions and
// nothing that changes from call to call; the user message opens with the
// shared context, then the topic, then what changes. {{breakpoint}} marks
// where a stable part of the user message ends (Message.Breaks).
package prompts

// Message is one chat message.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
	// Breaks are the byte offsets in Content where a part that stays the
	// same from call to call ends: the end of a system message, and each
	// {{breakpoint}} of a user message. A provider may cache the prompt up
	// to any of them.
	Breaks []int
}

// Party names a debater.
type Party struct {
	ID    string
	Label string
}

// PartyText is a party with a piece of its text.
type PartyText struct {
	Party Party
	Text  string
}

// Side is a party's claim in a divergence, as the judge summed it up.
type Side struct {
	Party Party
	Claim string
}

// Document is a shared-context file.
type Document struct {
	Path    string
	Content string
}

// Repository is the shared git repository as the debaters are told of it:
// its files may be quoted by their paths.
type Repository struct {
	// Files lists its quotable files, or, when they are many, folders with
	// the number of files each holds ("render/ (111 files)").
	Files []string
}

// RootPosition is the data of a root node's position call.
type RootPosition struct {
	Party         Party
	Parties       []Party
	Documents     []Document
	Inline        string
	Title         string
	Background    string
	Annotations   []string
	CoreQuestions []string
	// Quotes asks the debater to quote the documents it rests a claim on.
	Quotes bool
	// Repository, when quotes are on, is the repository whose files the
	// debater may quote too, listed in the shared context.
	Repository *Repository
}

// ChildPosition is the data of a child node's position call. Involved tells
// whether the party is on one of the divergence's sides.
type ChildPosition struct {
	Party            Party
	Involved         bool
	RootTitle        string
	Path             []string // titles of the divergences from the root down to this node
	Title            string   // this node's divergence
	Sides            []Side
	Uninvolved       []Party
	PreviousPosition string
	PreviousRebuttal string
	// Quotes asks the debater to quote the shared documents it rests a
	// claim on.
	Quotes bool
	// Repository, when quotes are on, tells the debater that the files of
	// the shared repository may be quoted too.
	Repository *Repository
}

// Rebuttal is the data of a rebuttal call.
type Rebuttal struct {
	Party  Party
	Title  string
	Own    string
	Others []PartyText
	// Quotes asks the debater to quote the shared documents it rests a
	// claim on; the others' quotes come marked by the engine.
	Quotes bool
	// Repository, when quotes are on, tells the debater that the files of
	// the shared repository may be quoted too.
	Repository *Repository
}

// Entry is one debater's position and rebuttal at a node, as the judge sees it.
type Entry struct {
	Party    Party
	Position string
	Rebuttal string
}

// Judge is the data of the triage and forced-verdict calls.
type Judge struct {
	RootTitle   string
	Annotations []string
	Title       string // the node's topic or divergence
	Context     string
	Sides       []Side // the divergence's sides, for a child node
	Entries     []Entry
	PartyIDs    []string
	Round       int
	MaxRounds   int
	// MaxDivergences is the most divergences the triage may list, each of
	// which becomes a child debate; 0 means no limit is stated.
	MaxDivergences int
	// Favors asks each forced verdict to name the party whose side it
	// takes, so that the votes of a panel can be counted.
	Favors bool
	// BudgetSpent tells the forced-verdict call that verdicts are forced
	// because the run's token budget is spent, before the round limit.
	BudgetSpent bool
	// Quotes tells the judge that the debaters' quotes of the shared
	// documents come marked verified or unverified by the engine.
	Quotes bool
}

// Repair is the data of the call that asks the judge to fix invalid JSON.
type Repair struct {
	Previous string
	Error    string
}
