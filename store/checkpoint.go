package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
)

const (
	// checkpointEvery is how many WAL frames (pages) the writer commits
	// before it asks for a checkpoint.
	checkpointEvery = 1000
	// walLimit is the WAL size, in checkpointEvery's, past which the
	// checkpointer copies the last frames between two batches, so that the
	// WAL restarts (see catchUp).
	walLimit = 4
	// catchUpWait bounds the wait of a catch-up for readers (the busy timeout
	// of the checkpointer's connection).
	catchUpWait = 2 * time.Millisecond
)

// checkpointer copies the WAL into the database (PRAGMA wal_checkpoint) on a
// connection of its own, so that no commit runs a checkpoint: SQLite would
// otherwise run it inside the commit that crosses wal_autocheckpoint, and that
// batch, with every write queued behind it, would wait for the copy and its
// fsyncs. The writer's connection has wal_autocheckpoint(0); after a commit
// the writer adds the frames it wrote (see frames) and, past checkpointEvery,
// signals the checkpointer without waiting. Store.Close stops the goroutine
// before closing the connections; the last connection to close checkpoints
// as it always has.
type checkpointer struct {
	w     *writer
	db    *sql.DB // one connection
	every int     // frames between checkpoints
	limit int     // frames; see walLimit
	kick  chan struct{}
	stop  chan struct{}
	done  chan struct{}

	// pending counts the frames committed since the last signal; guarded by
	// the writer's token.
	pending int

	frames   atomic.Int64 // frames committed
	passes   atomic.Int64 // checkpoints run
	restarts atomic.Int64 // catch-ups that copied every frame
}

// newCheckpointer starts the checkpointer of w's Store on db, which it closes.
func newCheckpointer(w *writer, db *sql.DB, every int) *checkpointer {
	c := &checkpointer{w: w, db: db, every: every, limit: walLimit * every,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// committed adds the frames a commit wrote and signals the checkpointer once
// enough are pending. The caller holds the writer's token; it never waits.
func (c *checkpointer) committed(n int) {
	c.frames.Add(int64(n))
	c.pending += n
	if c.pending < c.every {
		return
	}
	c.pending = 0
	select {
	case c.kick <- struct{}{}:
	default: // a checkpoint is already due
	}
}

// close stops the goroutine, letting a checkpoint in progress finish.
func (c *checkpointer) close() error {
	close(c.stop)
	<-c.done
	return c.db.Close()
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		}
		// A PASSIVE checkpoint copies what no reader still needs, without
		// waiting for any lock.
		log, left, err := c.checkpoint("PASSIVE")
		if err == nil && log >= c.limit {
			// Copy what was committed meanwhile, until little is left
			// for the catch-up to copy while writes wait.
			for i := 0; err == nil && left > c.every/4 && i < 3; i++ {
				_, left, err = c.checkpoint("PASSIVE")
			}
			if err == nil {
				err = c.catchUp()
			}
		}
		if err != nil {
			c.w.db.opts.Logger.Error("store checkpoint", "err", err)
		}
	}
}

// catchUp makes the next batch restart the WAL from its beginning. SQLite
// restarts it only when a write transaction begins with every frame copied
// and no reader still reading frames; under sustained writes no passive
// checkpoint ends between two commits, and the WAL would grow without bound.
// So once it is past the limit, the checkpointer takes the writer's token
// (waiting for the batch being written to commit) and runs a RESTART
// checkpoint, which copies the few frames committed since its last pass and
// waits up to catchUpWait for the readers still reading frames (readers
// starting meanwhile read the database file), then gives the token back.
// Writes queue meanwhile, for about a millisecond: two fsyncs, and at most
// catchUpWait more. If readers outlast that, the next signal tries again.
func (c *checkpointer) catchUp() error {
	select {
	case c.w.token <- struct{}{}:
	case <-c.stop:
		return nil
	}
	defer func() { <-c.w.token }()
	_, left, err := c.checkpoint("RESTART")
	if err == nil && left == 0 {
		c.restarts.Add(1)
	}
	return err
}

// checkpoint runs PRAGMA wal_checkpoint(mode) and returns the frames in the
// WAL and those it left uncopied (a reader needs them, or another process's
// checkpoint was running).
func (c *checkpointer) checkpoint(mode string) (log, left int, err error) {
	var busy, copied int
	err = c.db.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &log, &copied)
	if err != nil {
		return 0, 0, fmt.Errorf("wal checkpoint %s: %w", mode, err)
	}
	c.passes.Add(1)
	if busy != 0 {
		return log, log, nil
	}
	return log, log - copied, nil
}

// frames returns the WAL frames conn wrote since the last call
// (SQLITE_DBSTATUS_CACHE_WRITE, reset on read).
func frames(conn *sql.Conn) (int, error) {
	n := 0
	err := conn.Raw(func(dc any) error {
		st, ok := dc.(sqlite.DBStatus)
		if !ok {
			return fmt.Errorf("driver connection %T has no status", dc)
		}
		var err error
		n, _, err = st.Status(sqlite.DBStatusCacheWrite, true)
		return err
	})
	return n, err
}
