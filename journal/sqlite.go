package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/debatehq/debate/internal/regular"
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
	if err := refuseLinks(path); err != nil {
		return nil, err
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

// refuseLinks refuses a database at path, or a side file of it, that is a
// symbolic link or no regular file: SQLite would follow the link and write
// wherever it points.
func refuseLinks(path string) error {
	for _, side := range sideFiles {
		st, err := os.Lstat(path + side)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Errorf("open %s: %w", path+side, err)
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("open %s: %w; remove it, or name another folder", path+side, regular.ErrSymlink)
		case !st.Mode().IsRegular():
			return fmt.Errorf("open %s: %w", path+side, regular.ErrNotRegular)
		}
	}
	return nil
}

// sideFiles are the suffixes of a SQLite file's name and of its side files
// in WAL mode.
var sideFiles = []string{"", "-wal", "-shm"}

// row is one entry to write.
type row struct {
	key   string
	value []byte
}

// pending is a row waiting for its commit, and where to say how it went.
type pending struct {
	row  row
	done chan error // buffered: the writer never waits on it
}

// committer writes rows in group commits: one goroutine writes, in one
// transaction, every row that arrived while it wrote the last. Calls to add
// wait for their own row's commit, so a row added is on disk when add
// returns, while concurrent writers share one transaction instead of
// queueing for the connection one by one. The rows travel on a channel,
// not under a mutex that every writer takes: under a thousand writers at
// once, such a mutex held most of a run's lock waiting.
type committer struct {
	db   *sql.DB
	w    writer
	rows chan pending
	quit chan struct{} // closed by close
	stop sync.Once
	done chan struct{} // closed when the writer has stopped

	// unsaved counts the rows whose commit failed, and failed is the first
	// failure; both are the writer's until done closes.
	unsaved int
	failed  error
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
	c := &committer{db: db, w: w, rows: make(chan pending, maxBatch),
		quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// maxBatch bounds the rows of one commit, and the rows waiting for one.
const maxBatch = 1024

// add writes r and returns once it is committed.
func (c *committer) add(r row) error {
	p := pending{row: r, done: make(chan error, 1)}
	select {
	case c.rows <- p:
	case <-c.quit:
		return errClosed
	}
	select {
	case err := <-p.done:
		return err
	case <-c.done:
		// The writer stopped after its last commit: p was in it, or not.
		select {
		case err := <-p.done:
			return err
		default:
			return errClosed
		}
	}
}

// run is the writer: it commits the rows that wait, as one batch, each time
// some do, until close, after a last commit of what is left.
func (c *committer) run() {
	defer close(c.done)
	for {
		select {
		case p := <-c.rows:
			c.flush(p)
		case <-c.quit:
			for len(c.rows) > 0 {
				c.flush(<-c.rows)
			}
			return
		}
	}
}

// flush commits first and every row waiting behind it, and tells each how
// it went.
func (c *committer) flush(first pending) {
	batch := []pending{first}
	for len(batch) < maxBatch && len(c.rows) > 0 { // the one reader: no wait
		batch = append(batch, <-c.rows)
	}
	rows := make([]row, len(batch))
	for i, p := range batch {
		rows[i] = p.row
	}
	err := c.commit(context.Background(), rows)
	if err != nil {
		c.unsaved += len(rows)
		if c.failed == nil {
			c.failed = err
		}
	}
	for _, p := range batch {
		p.done <- err
	}
}

// lost returns the rows whose commit failed since the committer started,
// and the first failure. Call it after close.
func (c *committer) lost() (int, error) {
	<-c.done
	return c.unsaved, c.failed
}

// close stops the writer once the rows added before are committed, then
// closes w.
func (c *committer) close() error {
	first := false
	c.stop.Do(func() { first = true; close(c.quit) })
	<-c.done
	if !first {
		return nil
	}
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
	for _, side := range sideFiles {
		if err := os.Remove(path + side); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
