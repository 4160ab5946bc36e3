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

// committer writes rows in group commits: one goroutine writes, in one
// transaction, every row added since its last commit. Calls to add wait
// for their own row's commit, so a row added is on disk when add returns,
// while concurrent writers share one transaction instead of queueing for
// the connection one by one.
type committer struct {
	db *sql.DB
	w  writer

	mu     sync.Mutex
	cur    *batch        // the rows waiting for the next commit
	wake   chan struct{} // tells the writer that cur has rows
	closed bool
	done   chan struct{} // closed when the writer has stopped
}

// errClosed is the error of a row added after close.
var errClosed = errors.New("closed")

// writer stores a commit's rows within its transaction.
type writer interface {
	write(ctx context.Context, tx *sql.Tx, rows []row) error
	// close releases what the writer holds, once no commit is left.
	close() error
}

// upsert is a writer that runs a prepared statement, whose arguments are a
// key and a value, for every row. Prepared once, the statement serves every
// transaction on its connection instead of being compiled at each commit.
type upsert struct{ st *sql.Stmt }

func prepareUpsert(ctx context.Context, db *sql.DB, q string) (*upsert, error) {
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return &upsert{st}, nil
}

func (u *upsert) write(ctx context.Context, tx *sql.Tx, rows []row) error {
	st := tx.StmtContext(ctx, u.st) // closed with tx; u.st stays prepared
	for _, r := range rows {
		if _, err := st.ExecContext(ctx, r.key, r.value); err != nil {
			return err
		}
	}
	return nil
}

func (u *upsert) writeOne(ctx context.Context, r row) error {
	_, err := u.st.ExecContext(ctx, r.key, r.value)
	return err
}

func (u *upsert) close() error { return u.st.Close() }

func newCommitter(db *sql.DB, w writer) *committer {
	c := &committer{db: db, w: w, cur: &batch{done: make(chan struct{})},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go c.run()
	return c
}

// add writes r and returns once it is committed.
func (c *committer) add(r row) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	mine := c.cur
	mine.rows = append(mine.rows, r)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // the writer is told already
	}
	<-mine.done
	return mine.err
}

// run is the writer: it commits the waiting rows each time it is woken,
// until close, after a last commit of what is left.
func (c *committer) run() {
	defer close(c.done)
	for range c.wake {
		c.flush()
	}
	c.flush()
}

// flush commits the waiting rows, if any.
func (c *committer) flush() {
	c.mu.Lock()
	b := c.cur
	c.cur = &batch{done: make(chan struct{})}
	c.mu.Unlock()
	if len(b.rows) > 0 {
		b.err = c.commit(context.Background(), b.rows)
	}
	close(b.done)
}

// close stops the writer once the rows added before are committed, then
// closes w.
func (c *committer) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		<-c.done
		return nil
	}
	c.closed = true
	close(c.wake)
	c.mu.Unlock()
	<-c.done
	return c.w.close()
}

// lone is a writer that can also store a single row as one statement,
// which SQLite commits on its own: no BEGIN and COMMIT to run around it.
// That transaction takes the write lock only when it writes, which suits a
// file with one writer, a Journal's; the Cache, which runs share, keeps
// BEGIN IMMEDIATE.
type lone interface {
	writeOne(ctx context.Context, r row) error
}

// commit stores rows in one transaction: an explicit one, or for a single
// row of a writer that can, the statement's own.
func (c *committer) commit(ctx context.Context, rows []row) error {
	if l, ok := c.w.(lone); ok && len(rows) == 1 {
		return l.writeOne(ctx, rows[0])
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := c.w.write(ctx, tx, rows); err != nil {
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
