package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeout is how long a write waits for another process holding the
// file (a second run sharing a cache) before it fails.
const busyTimeout = 10_000 // milliseconds

// openDB opens (creating if needed) the SQLite file at path in WAL mode with
// write transactions that take the write lock at once, and runs schema.
func openDB(ctx context.Context, path string, schema ...string) (*sql.DB, error) {
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("open %s: the path must not contain '?'", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout))
	q.Add("_pragma", "journal_mode(WAL)")
	// A commit survives the process being killed; only a power cut
	// between checkpoints can lose the last ones.
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	for _, s := range schema {
		if _, err := db.ExecContext(ctx, s); err != nil {
			db.Close()
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	return db, nil
}

// row is one entry to write.
type row struct {
	key   string
	value []byte
}

// batch is the rows that one transaction writes; done is closed once it
// is committed (or failed, with err).
type batch struct {
	rows []row
	done chan struct{}
	err  error
}

// committer writes rows in group commits: a row is written by the first
// writer that finds no commit under way, together with every row that
// arrived meanwhile; the others wait for their batch. Calls to add wait
// for their own row's commit, so a row added is on disk when add returns,
// while concurrent writers share one transaction instead of queueing for
// the connection one by one.
type committer struct {
	db *sql.DB
	// write stores rows within tx.
	write func(ctx context.Context, tx *sql.Tx, rows []row) error

	mu   sync.Mutex
	cur  *batch
	busy bool // a writer is committing
}

func newCommitter(db *sql.DB, write func(context.Context, *sql.Tx, []row) error) *committer {
	return &committer{db: db, write: write, cur: &batch{done: make(chan struct{})}}
}

// add writes r and returns once it is committed.
func (c *committer) add(ctx context.Context, r row) error {
	c.mu.Lock()
	mine := c.cur
	mine.rows = append(mine.rows, r)
	if c.busy {
		c.mu.Unlock()
		<-mine.done
		return mine.err
	}
	c.busy = true
	c.mu.Unlock()
	// Commit until no row is left waiting: a waiter is woken only by
	// the commit of its batch.
	for {
		c.mu.Lock()
		b := c.cur
		if len(b.rows) == 0 {
			c.busy = false
			c.mu.Unlock()
			return mine.err
		}
		c.cur = &batch{done: make(chan struct{})}
		c.mu.Unlock()
		// The rows are other writers' too: their commit outlives ctx.
		b.err = c.commit(context.WithoutCancel(ctx), b.rows)
		close(b.done)
	}
}

func (c *committer) commit(ctx context.Context, rows []row) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := c.write(ctx, tx, rows); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// removeFiles removes the SQLite file at path and its side files.
func removeFiles(path string) error {
	for _, side := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + side); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
