package tree

import "maps"

// QuoteStatus is what the engine made of a quote: verified or unverified.
type QuoteStatus string

// The statuses of a quote.
const (
	QuoteVerified   QuoteStatus = "verified"
	QuoteUnverified QuoteStatus = "unverified"
)

// Quote is one quote of a shared document or a repository file in an
// answer, as the engine checked it: a verified quote has the document it
// occurs in and its lines there, an unverified one the reason.
type Quote struct {
	Text      string      `json:"text"`
	Status    QuoteStatus `json:"status"`
	Document  string      `json:"document,omitempty"`
	FirstLine int         `json:"firstLine,omitempty"`
	LastLine  int         `json:"lastLine,omitempty"`
	// Repository tells that Document is a file of the run's repository,
	// by its path from the repository's top folder, rather than a shared
	// document.
	Repository bool `json:"repository,omitempty"`
	// Reason says in English why the quote is unverified; Because says it
	// as a code (package quote lists them) that each report language says.
	Reason  string   `json:"reason,omitempty"`
	Because []Reason `json:"because,omitempty"`
}

// Repository is the git repository a run's debaters could quote, as it was
// when the run started.
type Repository struct {
	// Head is the commit checked out; "" in a repository with no commit.
	Head string `json:"head,omitempty"`
	// Dirty is the hex SHA-256 of the changes not committed at the start
	// (edited, added, deleted and untracked files git does not ignore);
	// "" when the work tree equalled Head.
	Dirty string `json:"dirty,omitempty"`
	// Files counts the files that could be quoted by their names.
	Files int `json:"files"`
}

// AnswerQuotes are the quotes of one answer: a debater's position or
// rebuttal at a node, in the order they stand in it.
type AnswerQuotes struct {
	Participant string  `json:"participant"`
	Step        Step    `json:"step"`
	Quotes      []Quote `json:"quotes"`
}

// QuoteCount counts quotes made, and of them verified and unverified.
type QuoteCount struct {
	Made       int `json:"made"`
	Verified   int `json:"verified"`
	Unverified int `json:"unverified"`
}

// add counts one quote.
func (c QuoteCount) add(q Quote) QuoteCount {
	c.Made++
	if q.Status == QuoteVerified {
		c.Verified++
	} else {
		c.Unverified++
	}
	return c
}

// Plus is the sum of two counts.
func (c QuoteCount) Plus(d QuoteCount) QuoteCount {
	return QuoteCount{Made: c.Made + d.Made, Verified: c.Verified + d.Verified, Unverified: c.Unverified + d.Unverified}
}

// QuoteTally counts the quotes of a topic or a run, in total and per
// debater id.
type QuoteTally struct {
	Total     QuoteCount            `json:"total"`
	ByDebater map[string]QuoteCount `json:"byDebater"`
}

// TallyQuotes counts the quotes of every answer in the tree under root; nil
// when the tree holds no record of quotes.
func TallyQuotes(root *Node) *QuoteTally {
	var t *QuoteTally
	root.Walk(func(n *Node) {
		for _, a := range n.Quotes {
			if t == nil {
				t = &QuoteTally{ByDebater: map[string]QuoteCount{}}
			}
			for _, q := range a.Quotes {
				t.Total = t.Total.add(q)
				t.ByDebater[a.Participant] = t.ByDebater[a.Participant].add(q)
			}
		}
	})
	return t
}

// Merge returns the sum of two tallies, either of which may be nil.
func (t *QuoteTally) Merge(u *QuoteTally) *QuoteTally {
	if t == nil && u == nil {
		return nil
	}
	out := &QuoteTally{ByDebater: map[string]QuoteCount{}}
	for _, x := range []*QuoteTally{t, u} {
		if x == nil {
			continue
		}
		out.Total = out.Total.Plus(x.Total)
		for id, c := range maps.All(x.ByDebater) {
			out.ByDebater[id] = out.ByDebater[id].Plus(c)
		}
	}
	return out
}
