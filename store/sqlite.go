package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// sqliteDB is the SQLite backend of a Store: one writer connection, whose
// every transaction is BEGIN IMMEDIATE and whose writes are committed
// together (see writer), a pool of readers, and a connection that
// checkpoints the WAL (see checkpointer).
type sqliteDB struct {
	opts  Options
	heads *heads // the Store's
	hub   *hub   // the Store's
	w     *sql.DB
	r     *sql.DB
	wr    *writer
	ckpt  *checkpointer
	stmts writeStmts
}

// openSQLite opens the SQLite file at path, creating it if needed, and
// applies pending migrations.
func openSQLite(ctx context.Context, path string, opts Options) (*Store, error) {
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

	s := &Store{opts: opts}
	db := &sqliteDB{opts: opts, w: w}
	if err := db.migrate(ctx); err != nil {
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
	db.r = r
	if err := db.prepare(ctx); err != nil {
		db.close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	ckpt, err := sql.Open("sqlite", path+"?"+pragmas(catchUpWait).Encode())
	if err != nil {
		db.close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	ckpt.SetMaxIdleConns(1)
	s.db, s.heads, s.hub = db, newHeads(opts.PollInterval), newHub(s)
	db.heads, db.hub = s.heads, s.hub
	db.wr = newWriter(db)
	db.ckpt = newCheckpointer(db.wr, ckpt, opts.checkpointEvery)
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

// close stops the checkpointer, the writer (after the batch being written)
// and the Store's watcher, then closes the connections.
func (db *sqliteDB) close() error {
	var errs []error
	if db.ckpt != nil {
		errs = append(errs, db.ckpt.close())
	}
	if db.wr != nil {
		db.wr.close()
	}
	if db.hub != nil {
		db.hub.close()
	}
	db.stmts.close()
	if db.r != nil {
		errs = append(errs, db.r.Close())
	}
	errs = append(errs, db.w.Close())
	return errors.Join(errs...)
}

// check runs PRAGMA integrity_check and returns an error unless the
// database reports "ok".
func (db *sqliteDB) check(ctx context.Context) error {
	rows, err := db.r.QueryContext(ctx, "PRAGMA integrity_check")
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

func (db *sqliteDB) now() string { return formatTime(db.opts.Now()) }

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(v string) time.Time {
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, v)
	}
	return t
}
