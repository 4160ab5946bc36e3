package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// CacheFile is the file a Cache keeps in its folder.
const CacheFile = "calls.db"

// cacheSchema creates the table of calls and keeps the sum of their sizes
// in size, for every writer sharing the file.
var cacheSchema = []string{
	`CREATE TABLE IF NOT EXISTS calls (
		seq   INTEGER PRIMARY KEY AUTOINCREMENT,
		key   TEXT NOT NULL UNIQUE,
		value BLOB NOT NULL,
		size  INTEGER NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS size (id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL)`,
	`INSERT OR IGNORE INTO size (id, bytes) SELECT 0, total(size) FROM calls`,
	`CREATE TRIGGER IF NOT EXISTS calls_added AFTER INSERT ON calls BEGIN UPDATE size SET bytes = bytes + new.size; END`,
	`CREATE TRIGGER IF NOT EXISTS calls_dropped AFTER DELETE ON calls BEGIN UPDATE size SET bytes = bytes - old.size; END`,
}

// Cache keeps completed calls across runs, in a folder that several runs,
// at the same time too, may share: a call is kept under the digest of what
// shapes its answer, so that a later run sending the same request takes the
// answer instead of paying for it again. Past its size bound it drops its
// oldest entries first. It is safe for concurrent use.
type Cache struct {
	db     *sql.DB
	writes *committer

	closed   sync.Once
	closeErr error
}

// OpenCache opens (creating if needed) the cache in dir, bounded to
// maxBytes of keys and answers (0: unbounded).
func OpenCache(ctx context.Context, dir string, maxBytes int64) (*Cache, error) {
	db, err := openDB(ctx, filepath.Join(dir, CacheFile), cacheSchema...)
	if err != nil {
		return nil, fmt.Errorf("call cache: %w", err)
	}
	db.SetMaxOpenConns(4) // lookups read beside the writer
	// The first run to finish a call keeps its answer: another run sharing
	// the folder may have recorded the same call meanwhile.
	u, err := prepareUpsert(ctx, db, `INSERT INTO calls (key, value, size) VALUES (?1, ?2, length(?1) + length(?2))
		ON CONFLICT (key) DO NOTHING`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("call cache: %w", err)
	}
	return &Cache{db: db, writes: newCommitter(db, bounded{u, maxBytes})}, nil
}

// bounded is the cache's writer: it adds rows, then drops the oldest entries
// past maxBytes (0: unbounded), in the same transaction.
type bounded struct {
	add      *upsert
	maxBytes int64
}

func (b bounded) close() error { return b.add.close() }

func (b bounded) write(ctx context.Context, tx *sql.Tx, rows []row) error {
	if err := b.add.write(ctx, tx, rows); err != nil || b.maxBytes <= 0 {
		return err
	}
	// Over the bound, the oldest entries go until a tenth of it is free, so
	// that the scan this takes is not made at every commit.
	_, err := tx.ExecContext(ctx, `DELETE FROM calls WHERE (SELECT bytes FROM size) > ?1 AND seq <= (
		SELECT seq FROM (SELECT seq, sum(size) OVER (ORDER BY seq DESC) AS kept FROM calls)
		WHERE kept > ?1 * 9 / 10 ORDER BY seq DESC LIMIT 1)`, b.maxBytes)
	return err
}

// Lookup returns the answer kept under key, if any.
func (c *Cache) Lookup(ctx context.Context, key string) ([]byte, bool, error) {
	var v []byte
	err := c.db.QueryRowContext(ctx, `SELECT value FROM calls WHERE key = ?`, key).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("call cache lookup: %w", err)
	}
	return v, true, nil
}

// Record keeps value under key unless the cache holds that key already,
// and returns once it is on disk.
func (c *Cache) Record(_ context.Context, key string, value []byte) error {
	if err := c.writes.add(row{key, value}); err != nil {
		return fmt.Errorf("call cache record: %w", err)
	}
	return nil
}

// Drop removes the answer kept under key, if any, so that the next Record
// of key keeps its value.
func (c *Cache) Drop(ctx context.Context, key string) error {
	if _, err := c.db.ExecContext(ctx, `DELETE FROM calls WHERE key = ?`, key); err != nil {
		return fmt.Errorf("call cache drop: %w", err)
	}
	return nil
}

// Close commits what Record was given and closes the file; Record fails
// after it. Besides a failure to close, it reports every call the cache
// could not keep since it was opened, its last commits included, as an
// *UnsavedError: later runs make those calls again. Every call returns the
// first one's error.
func (c *Cache) Close() error {
	c.closed.Do(func() { c.closeErr = closeSaving(c.db, c.writes, nil) })
	return c.closeErr
}
