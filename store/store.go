// Package store keeps debates, arguments and documents and is the single write
// pipeline of the argument protocol (docs/PROTOCOL.md), behind one API with two
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
// Both run one write rule (pipeline, in rules.go) over the primitives of
// their write transactions (txn), and keep the same unique constraints and
// versioned migrations.
//
// Ids: argument and document ids are UUIDv7 strings generated here; debate ids
// are chosen by the client. A write without a client_request_id (allowed for
// RULING and INTERVENTION only) gets a generated one and is not idempotent.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/protocol"
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
	// tracer, on PostgreSQL, sees every statement and batch sent: tests
	// count round trips with it.
	tracer pgx.QueryTracer
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	opts Options
	db   backend
	hub  *hub
	// heads are the debates' heads Wait answers from.
	heads *heads

	closeOnce sync.Once
	closeErr  error
}

// backend is the database behind a Store: sqliteDB or pgDB. The Store checks
// what callers send and keeps what both share (subscribers, heads); a
// backend runs the reads, and runs creates and writes through the one write
// rule (pipeline) in transactions of its own.
type backend interface {
	create(ctx context.Context, nd protocol.NewDebate) (protocol.Result, error)
	submit(ctx context.Context, w protocol.Write) (protocol.Result, error)
	get(ctx context.Context, id string, limit int) (Context, error)
	since(ctx context.Context, debateID string, afterSeq int) (protocol.Debate, []protocol.Argument, error)
	argument(ctx context.Context, id string) (protocol.Argument, error)
	list(ctx context.Context, f Filter) (Page, error)
	delete(ctx context.Context, id string) error
	// position returns the debate and seq of argument id; found is false
	// when there is no such argument.
	position(ctx context.Context, id string) (debateID string, seq int, found bool, err error)
	// newest returns a debate and its newest argument.
	newest(ctx context.Context, debateID string) (protocol.Debate, protocol.Argument, error)

	createDocument(ctx context.Context, nd protocol.NewDocument) (protocol.Document, bool, error)
	submitDocument(ctx context.Context, id, content, clientRequestID string) (protocol.Document, bool, error)
	getDocument(ctx context.Context, id string, version int) (protocol.Document, error)
	existingDocuments(ctx context.Context, ids []string) (map[string]bool, error)

	// watch notices the commits other processes make and tells h, until
	// stop closes (which also ends ctx).
	watch(ctx context.Context, h *hub, stop <-chan struct{})
	// check checks the database's integrity, or on a database that checks
	// its own pages that it answers.
	check(ctx context.Context) error
	// ping checks that the database answers, opening a connection if none
	// is idle.
	ping(ctx context.Context) error
	// close closes the hub of the Store and the database.
	close() error
}

// DefaultPath returns the database file to use when none is given: $DEBATE_DB,
// else $XDG_DATA_HOME/debate/debate.db, else ~/.local/share/debate/debate.db.
func DefaultPath() (string, error) { return DefaultPathFrom(os.LookupEnv) }

// DefaultPathFrom is DefaultPath in the environment getenv reads, as that
// of a server started with it.
func DefaultPathFrom(getenv func(string) (string, bool)) (string, error) {
	if p, _ := getenv("DEBATE_DB"); p != "" {
		return p, nil
	}
	if d, _ := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "debate", "debate.db"), nil
	}
	home, _ := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("default database path: %w (set DEBATE_DB)", err)
		}
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
	return openSQLite(ctx, path, opts)
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
	s.closeOnce.Do(func() { s.closeErr = s.db.close() })
	return s.closeErr
}

// IntegrityCheck runs PRAGMA integrity_check and returns an error unless the
// database reports "ok".
// On PostgreSQL, which checks its own pages, it only checks that the
// database answers.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	return s.db.check(ctx)
}
