// Package journal keeps what a batch run must not pay for twice, in SQLite
// files of its own: the Journal of a run's completed calls, which lets a run
// resume after a crash or an interrupt, and the Cache of completed calls
// shared by the runs that name the same folder.
//
// Both write in group commits, by a writer goroutine of their own that
// Close stops: a call's entry is on disk when Record returns, yet
// concurrent writers share transactions instead of queueing for the one
// connection. A Journal answers lookups from memory.
package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Journal records the result of every completed model call of a batch run,
// keyed by a digest of the request, and notes such as the run's id, so
// that a run resumed after a crash or an interrupt repeats no completed
// call and gives its motions the ids it gave them. Each Record is committed before it returns:
// a process killed right after still finds it. It is safe for concurrent
// use; use one Journal per file.
type Journal struct {
	db    *sql.DB
	calls *committer
	notes *committer
	mem   sync.Map // key → value of every recorded call
	note  sync.Map // name → value of every note

	closed   sync.Once
	closeErr error
}

// Names of the notes that typed methods keep.
const (
	runIDNote = "run id"
)

// callsTable is the table of calls: a rowid table, since an answer is
// usually longer than the about 1 KB that a table WITHOUT ROWID keeps in
// its page: there each record also wrote an overflow page, and cost about
// twice as much (BenchmarkRecord).
const callsTable = `CREATE TABLE IF NOT EXISTS calls (
	key        TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)`

// schema creates the tables and moves the notes of journals that kept them
// among the calls (under "note:" keys, and the run id once under
// "motions:run-id") to their own table.
var schema = []string{
	callsTable,
	`CREATE TABLE IF NOT EXISTS notes (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID`,
	`INSERT OR IGNORE INTO notes SELECT substr(key, 6), value FROM calls WHERE key GLOB 'note:*'`,
	`INSERT OR IGNORE INTO notes SELECT 'run id', value FROM calls WHERE key = 'motions:run-id'`,
	`DELETE FROM calls WHERE key GLOB 'note:*' OR key = 'motions:run-id'`,
}

// upgrade moves the calls of a journal that kept them in a table WITHOUT
// ROWID into a table of callsTable's shape, in one transaction.
func upgrade(ctx context.Context, db *sql.DB) error {
	var ddl string
	err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'calls'`).Scan(&ddl)
	if err != nil || !strings.Contains(strings.ToUpper(ddl), "WITHOUT ROWID") {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, q := range []string{
		`ALTER TABLE calls RENAME TO calls_before`,
		callsTable,
		`INSERT INTO calls (key, value, created_at) SELECT key, value, created_at FROM calls_before`,
		`DROP TABLE calls_before`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return errors.Join(fmt.Errorf("move the calls to a rowid table: %w", err), tx.Rollback())
		}
	}
	return tx.Commit()
}

// Open opens (creating if needed) the journal file at path and reads its
// entries into memory. With fresh set, an earlier file is removed first,
// for a run that is not resuming.
func Open(ctx context.Context, path string, fresh bool) (*Journal, error) {
	if fresh {
		if err := removeFiles(path); err != nil {
			return nil, fmt.Errorf("open journal: %w", err)
		}
	}
	db, err := openDB(ctx, path, schema...)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	db.SetMaxOpenConns(1) // one writer; lookups are served from memory
	j := &Journal{db: db}
	if err := upgrade(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	calls, err := prepareUpsert(ctx, db, `INSERT INTO calls (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`)
	if err == nil {
		j.calls = newCommitter(db, calls)
		var notes *upsert
		notes, err = prepareUpsert(ctx, db, `INSERT INTO notes (name, value) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value`)
		if err == nil {
			j.notes = newCommitter(db, notes)
		}
	}
	if err == nil {
		err = load(ctx, db, `SELECT key, value FROM calls`, &j.mem)
	}
	if err == nil {
		err = load(ctx, db, `SELECT name, value FROM notes`, &j.note)
	}
	if err != nil {
		j.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	return j, nil
}

// load reads the key–value rows of query into m.
func load(ctx context.Context, db *sql.DB, query string, m *sync.Map) error {
	rs, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var k string
		var v []byte
		if err := rs.Scan(&k, &v); err != nil {
			return err
		}
		m.Store(k, v)
	}
	return rs.Err()
}

// Lookup returns the value recorded under key, if any.
func (j *Journal) Lookup(_ context.Context, key string) ([]byte, bool, error) {
	v, ok := j.mem.Load(key)
	if !ok {
		return nil, false, nil
	}
	return v.([]byte), true, nil
}

// Record stores value under key, replacing what was there, and returns
// once it is on disk.
func (j *Journal) Record(_ context.Context, key string, value []byte) error {
	j.mem.Store(key, value)
	if err := j.calls.add(row{key, value}); err != nil {
		return fmt.Errorf("journal record: %w", err)
	}
	return nil
}

// Drop removes the value recorded under key, if any.
func (j *Journal) Drop(ctx context.Context, key string) error {
	j.mem.Delete(key)
	if _, err := j.db.ExecContext(ctx, `DELETE FROM calls WHERE key = ?`, key); err != nil {
		return fmt.Errorf("journal drop: %w", err)
	}
	return nil
}

// Note returns the value of the note named name, if any: something a
// resumed run needs that is not the answer of a call (the reasoning behind
// an argument).
func (j *Journal) Note(_ context.Context, name string) ([]byte, bool, error) {
	v, ok := j.note.Load(name)
	if !ok {
		return nil, false, nil
	}
	return v.([]byte), true, nil
}

// SetNote records value as the note named name, replacing what was there.
func (j *Journal) SetNote(_ context.Context, name string, value []byte) error {
	j.note.Store(name, value)
	if err := j.notes.add(row{name, value}); err != nil {
		return fmt.Errorf("journal note %q: %w", name, err)
	}
	return nil
}

// RunID returns the id the journaled run gave its debates, if it has one.
func (j *Journal) RunID(ctx context.Context) (string, bool, error) {
	v, ok, err := j.Note(ctx, runIDNote)
	return string(v), ok && len(v) > 0, err
}

// SetRunID records id as the run's id.
func (j *Journal) SetRunID(ctx context.Context, id string) error {
	return j.SetNote(ctx, runIDNote, []byte(id))
}

// Len returns the number of recorded entries: the completed calls, and the
// failed attempts a caller keeps beside some of them.
func (j *Journal) Len(ctx context.Context) (int, error) {
	var n int
	if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM calls`).Scan(&n); err != nil {
		return 0, fmt.Errorf("journal size: %w", err)
	}
	return n, nil
}

// Close commits what Record and SetNote were given and closes the file;
// Record and SetNote fail after it. Besides a failure to close, it reports
// every record and note the journal could not save since it was opened, its
// last commits included, as an *UnsavedError: a run resumed from this
// journal makes those calls again. Every call returns the first one's
// error.
func (j *Journal) Close() error {
	j.closed.Do(func() { j.closeErr = closeSaving(j.db, j.calls, j.notes) })
	return j.closeErr
}

// closeSaving closes the committers of calls and notes (either may be nil),
// then db, and joins their errors, led by an *UnsavedError when some rows
// could not be saved.
func closeSaving(db *sql.DB, calls, notes *committer) error {
	u := &UnsavedError{}
	errs := []error{closeCounting(calls, &u.Calls, &u.Err), closeCounting(notes, &u.Notes, &u.Err)}
	if u.Err != nil {
		errs = append([]error{u}, errs...)
	}
	return errors.Join(append(errs, db.Close())...)
}

// closeCounting closes c, if there is one, sets *n to the rows it could not
// save and *first, unless set, to its first failure.
func closeCounting(c *committer, n *int, first *error) error {
	if c == nil {
		return nil
	}
	err := c.close()
	var failed error
	if *n, failed = c.lost(); *first == nil {
		*first = failed
	}
	return err
}

// UnsavedError is what a Journal or a Cache could not save: the calls whose
// record failed, which a resumed run (or, for a Cache, a later run) makes
// again, and a Journal's notes (the run's id, an argument's reasoning),
// without which a resumed run plays its motions afresh or without that
// reasoning.
type UnsavedError struct {
	Calls, Notes int
	Err          error // the first failure
}

func (e *UnsavedError) Error() string {
	var what []string
	for _, c := range []struct {
		n    int
		what string
	}{{e.Calls, "call"}, {e.Notes, "note"}} {
		if c.n > 0 {
			what = append(what, plural(c.n, c.what))
		}
	}
	return fmt.Sprintf("%s not saved: %v", strings.Join(what, " and "), e.Err)
}

func (e *UnsavedError) Unwrap() error { return e.Err }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
