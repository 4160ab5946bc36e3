package store

import (
	"context"
	"fmt"
)

// migrations[i] moves the schema from version i to i+1 (PRAGMA user_version).
// Append only; never edit a released migration.
//
// Every index costs a page write per argument, so there are only those the
// write pipeline needs: the argument id, (debate_id, seq) and
// (debate_id, client_request_id). parent_id is checked by the pipeline (the
// target must belong to the debate) rather than by a foreign key, which would
// need an index of its own. Lists sort the debates table, which stays small.
//
// A CHECK of the form x IN (three or more values) builds a temporary b-tree
// of the values each time a row is written; version 2 spells the CHECKs of
// type, role and state as comparisons joined by OR, which test the same
// values with none. It edits the table definitions in place, as SQLite
// documents for changes that leave the stored rows as they are
// (https://sqlite.org/lang_altertable.html#otheralter); rebuilding the debates
// table instead would delete every argument through ON DELETE CASCADE.
//
// Version 3 keeps on each debate the seq of the arbitrator's last word, its
// newest INTERVENTION or RULING (0 while the arbitrator has not spoken): the
// ruling rule then compares the target's seq with it instead of reading every
// argument after the target. The migration fills it in for the debates that
// have one; a trigger sets it when one is inserted, so that a program older
// than this version, still running when another applies it, keeps it right
// too.
var migrations = []string{
	`
CREATE TABLE debates (
	id          TEXT PRIMARY KEY,
	title       TEXT NOT NULL,
	debate_type TEXT NOT NULL,
	state       TEXT NOT NULL CHECK (state IN ('AWAITING_OPPONENT','AWAITING_PROPOSER','AWAITING_ARBITRATOR','INTERVENTION_PENDING','CLOSED')),
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL
);

CREATE TABLE arguments (
	id                TEXT PRIMARY KEY,
	debate_id         TEXT NOT NULL REFERENCES debates (id) ON DELETE CASCADE,
	parent_id         TEXT,
	type              TEXT NOT NULL CHECK (type IN ('MOTION','CLAIM','APPEAL','RULING','INTERVENTION','RESOLUTION')),
	role              TEXT NOT NULL CHECK (role IN ('proposer','opponent','arbitrator')),
	content           TEXT NOT NULL,
	client_request_id TEXT NOT NULL,
	seq               INTEGER NOT NULL CHECK (seq >= 1),
	state_after       TEXT NOT NULL,
	created_at        TEXT NOT NULL,
	UNIQUE (debate_id, seq),
	UNIQUE (debate_id, client_request_id)
);

CREATE TABLE documents (
	id                TEXT PRIMARY KEY,
	title             TEXT NOT NULL,
	latest_version    INTEGER NOT NULL,
	client_request_id TEXT NOT NULL UNIQUE,
	created_at        TEXT NOT NULL,
	updated_at        TEXT NOT NULL
);

CREATE TABLE document_versions (
	document_id       TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
	version           INTEGER NOT NULL CHECK (version >= 1),
	content           TEXT NOT NULL,
	client_request_id TEXT NOT NULL,
	created_at        TEXT NOT NULL,
	PRIMARY KEY (document_id, version),
	UNIQUE (document_id, client_request_id)
);
`,
	`
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(replace(sql,
	'CHECK (type IN (''MOTION'',''CLAIM'',''APPEAL'',''RULING'',''INTERVENTION'',''RESOLUTION''))',
	'CHECK (type = ''MOTION'' OR type = ''CLAIM'' OR type = ''APPEAL'' OR type = ''RULING'' OR type = ''INTERVENTION'' OR type = ''RESOLUTION'')'),
	'CHECK (role IN (''proposer'',''opponent'',''arbitrator''))',
	'CHECK (role = ''proposer'' OR role = ''opponent'' OR role = ''arbitrator'')')
WHERE type = 'table' AND name = 'arguments';
UPDATE sqlite_schema SET sql = replace(sql,
	'CHECK (state IN (''AWAITING_OPPONENT'',''AWAITING_PROPOSER'',''AWAITING_ARBITRATOR'',''INTERVENTION_PENDING'',''CLOSED''))',
	'CHECK (state = ''AWAITING_OPPONENT'' OR state = ''AWAITING_PROPOSER'' OR state = ''AWAITING_ARBITRATOR'' OR state = ''INTERVENTION_PENDING'' OR state = ''CLOSED'')')
WHERE type = 'table' AND name = 'debates';
PRAGMA writable_schema = RESET;
`,
	`
ALTER TABLE debates ADD COLUMN last_word_seq INTEGER NOT NULL DEFAULT 0;
UPDATE debates SET last_word_seq = (
	SELECT MAX(seq) FROM arguments WHERE debate_id = debates.id AND (type = 'INTERVENTION' OR type = 'RULING'))
WHERE id IN (SELECT debate_id FROM arguments WHERE type = 'INTERVENTION' OR type = 'RULING');
CREATE TRIGGER arguments_last_word AFTER INSERT ON arguments WHEN NEW.type = 'INTERVENTION' OR NEW.type = 'RULING'
BEGIN UPDATE debates SET last_word_seq = NEW.seq WHERE id = NEW.debate_id; END;
`,
}

// SchemaVersion is the schema version this program writes.
var SchemaVersion = len(migrations)

// migrate applies pending migrations inside one IMMEDIATE transaction, so two
// processes opening a new file at once apply them exactly once.
func (db *sqliteDB) migrate(ctx context.Context) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("migrate: read user_version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("migrate: database schema version %d is newer than this program's %d; upgrade debate", v, len(migrations))
	}
	if v == len(migrations) {
		return nil
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migrate: to version %d: %w", i+1, err)
		}
	}
	// A definition edited in place does not change the schema cookie as DDL
	// does: bump it, so that every connection, in this process or another,
	// reads the schema again.
	var cookie int
	if err := tx.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&cookie); err != nil {
		return fmt.Errorf("migrate: read schema_version: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA schema_version = %d", cookie+1)); err != nil {
		return fmt.Errorf("migrate: set schema_version: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return fmt.Errorf("migrate: set user_version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
