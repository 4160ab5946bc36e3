package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// TestSchemaFromVersion1 opens a file written at schema version 1, with a
// reader on it since before the migration, as another process would be: the
// data stays, the CHECKs refuse what they refused, the integrity check
// passes, and both connections write without building a temporary b-tree
// (the older one once it has run a statement and so seen the new schema).
func TestSchemaFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	old, err := sql.Open("sqlite", path+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	old.SetMaxOpenConns(1)
	for _, q := range []string{
		migrations[0],
		`PRAGMA user_version = 1`,
		`INSERT INTO debates VALUES ('kept', 'Kept', 'PROTOCOL', 'AWAITING_OPPONENT', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')`,
		`INSERT INTO arguments VALUES ('m1', 'kept', NULL, 'MOTION', 'proposer', 'motion', 'r1', 1, 'AWAITING_OPPONENT', '2026-01-01T00:00:00.000000Z')`,
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	s := openAt(t, path, Options{})
	c, err := s.Get(ctx, "kept", -1)
	if err != nil || c.Motion.ID != "m1" || c.Debate.State != protocol.AwaitingOpponent {
		t.Fatalf("debate after migration: %+v, %v", c, err)
	}
	if _, err := s.Submit(ctx, Write{DebateID: "kept", Type: protocol.Claim, Role: protocol.Opponent, TargetID: "m1",
		Content: "claim", ClientRequestID: "r2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}

	for name, db := range map[string]*sql.DB{"migrating connection": s.w, "connection open before": old} {
		for _, q := range []string{
			`INSERT INTO arguments (` + argCols + `) VALUES ('x', 'kept', NULL, 'CLAIMS', 'opponent', 'c', 'x', 9, 'CLOSED', 'now')`,
			`INSERT INTO arguments (` + argCols + `) VALUES ('x', 'kept', NULL, 'CLAIM', 'judge', 'c', 'x', 9, 'CLOSED', 'now')`,
			`UPDATE debates SET state = 'OPEN' WHERE id = 'kept'`,
		} {
			if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), "CHECK constraint failed") {
				t.Errorf("%s: %s: %v, want a CHECK constraint failure", name, q, err)
			}
		}
		for _, q := range []string{
			`INSERT INTO arguments (` + argCols + `) VALUES ('a', 'kept', NULL, 'CLAIM', 'opponent', 'c', 'r', 9, 'CLOSED', 'now')`,
			`UPDATE debates SET state = 'CLOSED' WHERE id = 'kept'`,
		} {
			if ops := opcodes(t, db, q); strings.Contains(ops, "OpenEphemeral") {
				t.Errorf("%s builds a temporary b-tree for %s:\n%s", name, q, ops)
			}
		}
	}
}

// opcodes returns the program SQLite runs for q, one opcode a line.
func opcodes(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query("EXPLAIN " + q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals[1])
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
