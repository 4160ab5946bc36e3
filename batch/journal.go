package batch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/journal"
	"github.com/debatehq/debate/output"
)

// JournalFile is where a run journals its completed calls, in the output
// folder.
const JournalFile = ".debate-journal.db"

// keptJournal is the journal of an earlier run that a run not resuming
// kept under a name of its own.
type keptJournal struct {
	path  string
	calls int   // the completed calls it holds
	err   error // why it cannot be read, when it cannot
}

// keepUnfinishedJournal looks at the journal at path before a run that does
// not resume. When it holds calls of a run that did not finish — no run.json
// written after it, or one with interrupted work — or cannot be read, it
// renames the journal (and its SQLite side files) to a name of its own
// beside it and says so. Otherwise it returns nil.
func keepUnfinishedJournal(ctx context.Context, path, runJSON string, now time.Time) (*keptJournal, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil
	}
	journalTime := st.ModTime()
	for _, side := range []string{"-wal", "-shm"} {
		if s, err := os.Stat(path + side); err == nil && s.ModTime().After(journalTime) {
			journalTime = s.ModTime()
		}
	}
	if rs, err := os.Stat(runJSON); err == nil && !rs.ModTime().Before(journalTime) {
		if b, err := regular.ReadFileNoFollow(runJSON, output.MaxRunBytes); err == nil {
			if run, err := output.DecodeRun(b); err == nil && !run.Interrupted() {
				return nil, nil
			}
		}
	}
	k := &keptJournal{path: strings.TrimSuffix(path, ".db") + "." + now.UTC().Format("20060102T150405Z") + ".db"}
	j, err := journal.Open(ctx, path, false)
	if err == nil {
		k.calls, err = j.Len(ctx)
		err = errors.Join(err, j.Close())
	}
	k.err = err
	if err == nil && k.calls == 0 {
		return nil, nil
	}
	for _, side := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(path+side, k.path+side); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("keep the earlier run's journal: %w", err)
		}
	}
	return k, nil
}

// runID returns the id of this run's debates: the one the journal keeps when
// resuming, else a new one, recorded in the journal when there is one.
func runID(ctx context.Context, j *journal.Journal) (string, error) {
	if j != nil {
		id, ok, err := j.RunID(ctx)
		if err != nil {
			return "", fmt.Errorf("read the run id from the journal: %w", err)
		}
		if ok {
			return id, nil
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new run id: %w", err)
	}
	if j != nil {
		if err := j.SetRunID(ctx, id.String()); err != nil {
			return "", fmt.Errorf("record the run id in the journal: %w", err)
		}
	}
	return id.String(), nil
}
