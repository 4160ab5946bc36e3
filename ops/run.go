package ops

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/batch"
	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

// Topic states in a run's status.
const (
	TopicWaiting = "waiting"
	TopicRunning = "running"
	TopicDone    = "done"
)

// Status is where a run stands: the facts of the live lines "debate run"
// draws, per topic and for the run.
type Status struct {
	ID     string `json:"id"`
	State  string `json:"state" jsonschema:"running, finished, cancelled or failed"`
	Folder string `json:"folder" jsonschema:"the run's output folder, where its reports are written"`
	Demo   bool   `json:"demo,omitempty"`
	// Done and Total count the topics and motions.
	Done      int     `json:"topicsDone"`
	Total     int     `json:"topicsTotal"`
	Calls     int     `json:"calls" jsonschema:"model calls finished"`
	Failures  int     `json:"failedCalls" jsonschema:"model call attempts that failed (retried or handed to a fallback)"`
	Tokens    int     `json:"tokens"`
	Cost      float64 `json:"cost" jsonschema:"spend so far, in the currency of the config's pricing"`
	MaxCost   float64 `json:"maxCost,omitempty" jsonschema:"the run's cap on its spend"`
	StartedAt string  `json:"startedAt"`
	Elapsed   string  `json:"elapsed" jsonschema:"how long the run has been going, or went once it ended"`
	// Topics are the live lines, in config order: all of them up to
	// maxLines, else the running ones, and LinesOmitted counts the others.
	Topics       []TopicLine `json:"topics,omitempty"`
	LinesOmitted int         `json:"linesOmitted,omitempty"`
	// Reports are the files the run wrote, once it has ended: the summary
	// and run.json first, at most maxLines; ReportsOmitted counts the others
	// (run_decision names every topic's report).
	Reports        []Report `json:"reports,omitempty"`
	ReportsOmitted int      `json:"reportsOmitted,omitempty"`
	Error          string   `json:"error,omitempty"`
}

// TopicLine is one topic's or motion's live line.
type TopicLine struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	State    string `json:"state" jsonschema:"waiting, running or done"`
	Node     string `json:"node,omitempty" jsonschema:"the node (or turn) in play"`
	Nodes    int    `json:"nodesDone"`
	Calls    int    `json:"calls"`
	Decision string `json:"decision,omitempty"`
}

// Report is a file a run wrote, by its name in the run's folder and the
// URI of its MCP resource.
type Report struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

// maxLines is the most live lines a status shows.
const maxLines = 50

// ReportsURI begins the URI of every run's report.
const ReportsURI = "debate://runs/"

// ReportURI is the URI of the resource of report name of run id.
func ReportURI(id, name string) string { return ReportsURI + id + "/" + name }

// run is one run started by Runs.
type run struct {
	id, folder string
	started    time.Time
	failOn     []tree.Outcome
	cancel     context.CancelFunc
	done       chan struct{}

	mu      sync.Mutex
	st      Status
	lines   map[string]int // topic id → index in st.Topics
	changed chan struct{}  // closed at the next change
	res     *batch.Result
}

func newRun(id string, cfg *configs.Config, sel tree.Selection, demo bool, cancel context.CancelFunc) *run {
	now := time.Now()
	r := &run{id: id, folder: cfg.Output.Dir, started: now, failOn: cfg.Params.FailOnDecisions(), cancel: cancel,
		done: make(chan struct{}), lines: map[string]int{}, changed: make(chan struct{})}
	r.st = Status{ID: id, State: Running, Folder: cfg.Output.Dir, Demo: demo, MaxCost: cfg.Budget.MaxCost,
		StartedAt: now.UTC().Format(time.RFC3339)}
	titles := map[string]string{}
	for _, t := range cfg.Topics {
		titles[t.ID] = t.Title
	}
	for _, m := range cfg.Motions {
		titles[m.ID] = m.Title
	}
	for _, id := range sel.IDs() {
		r.lines[id] = len(r.st.Topics)
		r.st.Topics = append(r.st.Topics, TopicLine{ID: id, Title: titles[id], State: TopicWaiting})
	}
	r.st.Total = len(r.st.Topics)
	return r
}

// event records a progress event of the engine.
func (r *run) event(ev tree.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var line *TopicLine
	if i, ok := r.lines[ev.Scope()]; ok {
		line = &r.st.Topics[i]
	}
	notify := false
	switch ev.Kind {
	case tree.CallProgress:
		r.st.Tokens += ev.Usage.CompletionTokens
	case tree.CallFinished:
		r.st.Calls++
		r.st.Tokens += ev.Usage.Total()
		r.st.Cost += ev.Usage.Cost
		if line != nil {
			line.Calls++
		}
		notify = true
	case tree.CallFailed:
		r.st.Failures++
	case tree.TopicStarted, tree.MotionStarted, tree.NodeStarted, tree.TurnStarted:
		if line != nil {
			line.State, line.Node = TopicRunning, ev.Node
			if ev.Kind == tree.TurnStarted {
				line.Node = "turn " + strconv.Itoa(ev.Turn)
			}
		}
		notify = true
	case tree.NodeFinished:
		if line != nil {
			line.Nodes++
		}
		notify = true
	case tree.TopicFinished, tree.MotionFinished:
		if line != nil && line.State != TopicDone {
			line.State, line.Node, line.Decision = TopicDone, "", string(ev.Decision)
			r.st.Done++
		}
		notify = true
	}
	if notify {
		close(r.changed)
		r.changed = make(chan struct{})
	}
}

// finish records the end of the run.
func (r *run) finish(res *batch.Result, err error, cancelled bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res = res
	switch {
	case cancelled:
		r.st.State = Cancelled
	case err != nil || (res != nil && res.Err != nil):
		r.st.State = Broken
	default:
		r.st.State = Finished
	}
	if err == nil && res != nil {
		err = res.Err
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		r.st.Error = err.Error()
	}
	r.st.Elapsed = elapsed(r.started)
	if res != nil {
		for _, f := range res.Files {
			if name, err := filepath.Rel(r.folder, f); err == nil && !strings.ContainsRune(name, filepath.Separator) {
				r.st.Reports = append(r.st.Reports, Report{Name: name, URI: ReportURI(r.id, name)})
			}
		}
		slices.SortStableFunc(r.st.Reports, func(a, b Report) int {
			return cmp.Compare(btoi(strings.HasPrefix(a.Name, "topic-")), btoi(strings.HasPrefix(b.Name, "topic-")))
		})
		if res.Run != nil {
			r.st.Cost, r.st.Tokens, r.st.Calls = res.Run.Usage.Cost, res.Run.Usage.Total(), res.Run.Usage.Calls
		}
	}
	close(r.changed)
	r.changed = make(chan struct{})
	close(r.done)
}

// status returns a copy of the run's status.
func (r *run) status() Status {
	st, _ := r.watch()
	return st
}

// running reports whether the run has not ended yet.
func (r *run) running() bool {
	select {
	case <-r.done:
		return false
	default:
		return true
	}
}

// watch returns a copy of the run's status and a channel closed at its
// next change.
func (r *run) watch() (Status, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.st
	st.Topics = slices.Clone(r.st.Topics)
	if len(st.Topics) > maxLines {
		st.Topics = slices.DeleteFunc(st.Topics, func(l TopicLine) bool { return l.State != TopicRunning })
		st.Topics = st.Topics[:min(len(st.Topics), maxLines)]
		st.LinesOmitted = len(r.st.Topics) - len(st.Topics)
	}
	st.Reports = slices.Clone(r.st.Reports[:min(len(r.st.Reports), maxLines)])
	st.ReportsOmitted = len(r.st.Reports) - len(st.Reports)
	if st.State == Running {
		st.Elapsed = elapsed(r.started)
	}
	return st, r.changed
}

// elapsed is the time since start, to the second.
func elapsed(start time.Time) string { return time.Since(start).Round(time.Second).String() }

// wrote reports whether name is one of the files the run wrote, all of
// them, not only those a status lists.
func (r *run) wrote(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.st.Reports, func(f Report) bool { return f.Name == name })
}

// result returns the run's result once it has ended, else nil.
func (r *run) result() *batch.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.res
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
