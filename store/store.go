// Package store keeps debates, arguments and documents and is the single
// write pipeline of the argument protocol (SPEC 2.2), behind one API with two
// backends, chosen by Open's argument.
//
// SQLite (a file; modernc.org/sqlite, no cgo) is the embedded default: every
// write runs in a BEGIN IMMEDIATE transaction, so writers in several
// processes sharing the file are serialized by SQLite's own lock, and
// subscribers are notified after commit. Concurrent argument writes of one
// Store are committed together (group commit): each in a savepoint of one
// transaction, in arrival order. Times are stored as UTC text with
// microseconds (2006-01-02T15:04:05.000000Z).
//
// PostgreSQL (a postgres:// URL; pgx) serves several "debate serve" replicas
// on one database: each write is a transaction serialized per debate by a
// row lock on the debate, and its commit is announced with NOTIFY, which
// wakes the subscribers of every replica. Times are timestamptz.
//
// Both run the same checks in the same order with the same refusals, and
// keep the same unique constraints and versioned migrations.
//
// Ids: argument and document ids are UUIDv7 strings generated here; debate ids
// are chosen by the client. A write without a client_request_id (allowed for
// RULING and INTERVENTION only) gets a generated one and is not idempotent.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Defaults for Options fields left zero.
const (
	DefaultContentLimit  = 10240   // characters per argument
	DefaultDocumentLimit = 1 << 20 // bytes per document version
	DefaultPollInterval  = 10 * time.Millisecond
	DefaultBusyTimeout   = 10 * time.Second
	DefaultListLimit     = 50
)

// Options tune a Store. The zero value is usable.
type Options struct {
	// ContentLimit is the largest argument content in characters.
	ContentLimit int
	// DocumentLimit is the largest document version in bytes.
	DocumentLimit int
	// PollInterval is how often waiters look for commits made by other
	// processes (in-process commits wake them at once). SQLite only: on
	// PostgreSQL notifications wake them, with a poll every 250 ms behind.
	PollInterval time.Duration
	// BusyTimeout is how long a statement waits for another connection's lock.
	BusyTimeout time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger receives internal errors that cannot be returned (a failed
	// auto-ruling); slog.Default() when nil.
	Logger *slog.Logger

	// checkpointEvery is the WAL frames committed between checkpoints;
	// checkpointEvery when zero. Tests set it lower.
	checkpointEvery int
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	opts Options
	pg   *pgDB   // the PostgreSQL backend; nil on SQLite, whose fields follow
	w    *sql.DB // one connection; every transaction is BEGIN IMMEDIATE
	r    *sql.DB // readers
	hub  *hub
	// heads are the debates' heads Wait answers from.
	heads *heads
	wr    *writer // group commit of Create and Submit
	ckpt  *checkpointer

	stmts writeStmts

	closeOnce sync.Once
	closeErr  error
}

// DefaultPath returns the database file to use when none is given: $DEBATE_DB,
// else $XDG_DATA_HOME/debate/debate.db, else ~/.local/share/debate/debate.db.
func DefaultPath() (string, error) {
	if p := os.Getenv("DEBATE_DB"); p != "" {
		return p, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "debate", "debate.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default database path: %w (set DEBATE_DB)", err)
	}
	return filepath.Join(home, ".local", "share", "debate", "debate.db"), nil
}

// Open opens the database at path, applies pending migrations and returns a
// Store. Close it when done. A postgres:// or postgresql:// URL opens that
// PostgreSQL database (see IsPostgres); anything else is a SQLite file,
// created if needed.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	opts = withDefaults(opts)
	if path == "" {
		return nil, errors.New("open store: empty database path")
	}
	if IsPostgres(path) {
		return openPostgres(ctx, path, opts)
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("open store %s: the path must not contain '?'", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	q := pragmas(opts.BusyTimeout)
	readDSN := path + "?" + q.Encode()
	q.Set("_txlock", "immediate")
	// The writer's commits never checkpoint: the checkpointer does, on its
	// own connection (see checkpointer).
	q.Add("_pragma", "wal_autocheckpoint(0)")
	writeDSN := path + "?" + q.Encode()

	w, err := sql.Open("sqlite", writeDSN)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	s := &Store{opts: opts, w: w}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}

	r, err := sql.Open("sqlite", readDSN)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0)*2)
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	s.r = r
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	ckpt, err := sql.Open("sqlite", path+"?"+pragmas(catchUpWait).Encode())
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	ckpt.SetMaxIdleConns(1)
	s.heads = newHeads(opts.PollInterval)
	s.hub = newHub(s)
	s.wr = newWriter(s)
	s.ckpt = newCheckpointer(s.wr, ckpt, opts.checkpointEvery)
	return s, nil
}

// pragmas are the connection settings of every database this package opens:
// WAL, foreign keys, a busy timeout, and commits that survive a killed
// process (synchronous=NORMAL in WAL mode).
func pragmas(busy time.Duration) url.Values {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	// Fewer, larger checkpoints: each costs an fsync.
	q.Add("_pragma", "wal_autocheckpoint(4000)")
	return q
}

func withDefaults(o Options) Options {
	if o.ContentLimit <= 0 {
		o.ContentLimit = DefaultContentLimit
	}
	if o.DocumentLimit <= 0 {
		o.DocumentLimit = DefaultDocumentLimit
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.checkpointEvery <= 0 {
		o.checkpointEvery = checkpointEvery
	}
	return o
}

// Close stops the change watcher and closes the database. Waits in progress
// return an error. A batch of writes being written is committed first; writes
// still queued, and writes made after Close, fail.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if s.pg != nil {
			s.hub.close()
			s.closeErr = s.pg.close()
			return
		}
		var errs []error
		if s.ckpt != nil {
			errs = append(errs, s.ckpt.close())
		}
		if s.wr != nil {
			s.wr.close()
		}
		if s.hub != nil {
			s.hub.close()
		}
		s.stmts.close()
		if s.r != nil {
			errs = append(errs, s.r.Close())
		}
		errs = append(errs, s.w.Close())
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// IntegrityCheck runs PRAGMA integrity_check and returns an error unless the
// database reports "ok".
// On PostgreSQL, which checks its own pages, it only checks that the
// database answers.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	if s.pg != nil {
		if err := s.pg.pool.Ping(ctx); err != nil {
			return fmt.Errorf("integrity check: %w", err)
		}
		return nil
	}
	rows, err := s.r.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return fmt.Errorf("integrity check: %w", err)
		}
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(lines) != 1 || lines[0] != "ok" {
		return fmt.Errorf("integrity check: %s", strings.Join(lines, "; "))
	}
	return nil
}

const timeLayout = "2006-01-02T15:04:05.000000Z"

func (s *Store) now() string { return s.opts.Now().UTC().Format(timeLayout) }

func parseTime(v string) time.Time {
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, v)
	}
	return t
}
