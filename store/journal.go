package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Journal records the result of every completed model call of a batch run,
// keyed by a digest of the request, so that a run resumed after a crash or an
// interrupt repeats no completed call. Each Record is committed before it
// returns: a process killed right after still finds it. It is safe for
// concurrent use; use one Journal per file.
type Journal struct {
	db             *sql.DB
	lookup, record *sql.Stmt // prepared once: a run makes one of each per call
}

// OpenJournal opens (creating if needed) the journal file at path. With
// fresh set, every earlier entry is removed first, for a run that is not
// resuming.
func OpenJournal(ctx context.Context, path string, fresh bool) (*Journal, error) {
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("open journal %s: the path must not contain '?'", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	db, err := sql.Open("sqlite", path+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one writer; calls finish far slower than a commit
	stmts := []string{`CREATE TABLE IF NOT EXISTS calls (
		key        TEXT PRIMARY KEY,
		value      BLOB NOT NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	) WITHOUT ROWID`}
	if fresh {
		stmts = append(stmts, `DELETE FROM calls`)
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			return nil, fmt.Errorf("open journal %s: %w", path, err)
		}
	}
	j := &Journal{db: db}
	if j.lookup, err = db.PrepareContext(ctx, `SELECT value FROM calls WHERE key = ?`); err == nil {
		j.record, err = db.PrepareContext(ctx, `INSERT INTO calls (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	return j, nil
}

// Lookup returns the value recorded under key, if any.
func (j *Journal) Lookup(ctx context.Context, key string) ([]byte, bool, error) {
	var v []byte
	err := j.lookup.QueryRowContext(ctx, key).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("journal lookup: %w", err)
	}
	return v, true, nil
}

// Record stores value under key, replacing what was there.
func (j *Journal) Record(ctx context.Context, key string, value []byte) error {
	_, err := j.record.ExecContext(ctx, key, value)
	if err != nil {
		return fmt.Errorf("journal record: %w", err)
	}
	return nil
}

// notePrefix starts the keys of notes (see NoteKey).
const notePrefix = "note:"

// NoteKey returns the key of the journal entry named name that records
// something other than a completed call (a run's id, the reasoning behind an
// argument): Len does not count it.
func NoteKey(name string) string { return notePrefix + name }

// Note returns the value of the note named name, if any (see NoteKey).
func (j *Journal) Note(ctx context.Context, name string) ([]byte, bool, error) {
	return j.Lookup(ctx, NoteKey(name))
}

// SetNote records value as the note named name, replacing what was there
// (see NoteKey).
func (j *Journal) SetNote(ctx context.Context, name string, value []byte) error {
	return j.Record(ctx, NoteKey(name), value)
}

// Len returns the number of recorded calls: the entries but notes.
func (j *Journal) Len(ctx context.Context) (int, error) {
	var n int
	if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM calls WHERE key NOT GLOB ?`, notePrefix+"*").Scan(&n); err != nil {
		return 0, fmt.Errorf("journal size: %w", err)
	}
	return n, nil
}

// Close checkpoints and closes the file.
func (j *Journal) Close() error {
	return errors.Join(j.lookup.Close(), j.record.Close(), j.db.Close())
}
