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
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	old := oldProgram(t, path,
		migrations[0],
		`PRAGMA user_version = 1`,
		`INSERT INTO debates VALUES ('kept', 'Kept', 'PROTOCOL', 'AWAITING_OPPONENT', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')`,
		`INSERT INTO arguments VALUES ('m1', 'kept', NULL, 'MOTION', 'proposer', 'motion', 'r1', 1, 'AWAITING_OPPONENT', '2026-01-01T00:00:00.000000Z')`,
	)

	s := openAt(t, path, Options{})
	c, err := s.Get(ctx, "kept", -1)
	if err != nil || c.Motion.ID != "m1" || c.Debate.State != protocol.AwaitingOpponent {
		t.Fatalf("debate after migration: %+v, %v", c, err)
	}
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "kept", Type: protocol.Claim, Role: protocol.Opponent, TargetID: "m1",
		Content: "claim", ClientRequestID: "r2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}

	for name, db := range map[string]*sql.DB{"migrating connection": sqliteOf(s).w, "connection open before": old} {
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

// oldProgram opens the file at path on one connection, as an older program
// would, and runs qs on it; the connection stays open until the test ends.
func oldProgram(t *testing.T, path string, qs ...string) *sql.DB {
	t.Helper()
	old, err := sql.Open("sqlite", path+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { old.Close() })
	old.SetMaxOpenConns(1)
	for _, q := range qs {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return old
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

// oldDebates are debates as a program before last_word_seq wrote them: each
// argument as "TYPE role STATE_AFTER", seq 1 first, and the seq of the
// arbitrator's last word the migration must fill in.
var oldDebates = []struct {
	id       string
	args     []string
	lastWord int
}{
	{"plain", []string{"MOTION proposer AWAITING_OPPONENT", "CLAIM opponent AWAITING_PROPOSER"}, 0},
	{"ruled", []string{"MOTION proposer AWAITING_OPPONENT", "CLAIM opponent AWAITING_PROPOSER",
		"INTERVENTION arbitrator INTERVENTION_PENDING", "RULING arbitrator AWAITING_PROPOSER", "CLAIM proposer AWAITING_OPPONENT"}, 4},
	{"closed", []string{"MOTION proposer AWAITING_OPPONENT", "CLAIM opponent AWAITING_PROPOSER",
		"RESOLUTION proposer AWAITING_ARBITRATOR", "RULING arbitrator CLOSED"}, 4},
	{"intervened", []string{"MOTION proposer AWAITING_OPPONENT", "CLAIM opponent AWAITING_PROPOSER",
		"APPEAL proposer AWAITING_ARBITRATOR", "RULING arbitrator AWAITING_PROPOSER", "CLAIM proposer AWAITING_OPPONENT",
		"CLAIM opponent AWAITING_PROPOSER", "INTERVENTION arbitrator INTERVENTION_PENDING"}, 7},
}

// oldDebateInserts returns the statements, valid on both backends, that
// write oldDebates as a program before last_word_seq did.
func oldDebateInserts() []string {
	const at = "'2026-01-01T00:00:00.000000Z'"
	var qs []string
	for _, d := range oldDebates {
		last := strings.Fields(d.args[len(d.args)-1])[2]
		qs = append(qs, fmt.Sprintf(`INSERT INTO debates (`+debateCols+`) VALUES ('%[1]s', 'Title of %[1]s', '%[2]s', '%[3]s', %[4]s, %[4]s)`,
			d.id, protocol.GeneralDebate, last, at))
		for i, a := range d.args {
			f := strings.Fields(a)
			parent := "NULL"
			if i > 0 {
				parent = fmt.Sprintf("'%s-%d'", d.id, i)
			}
			qs = append(qs, fmt.Sprintf(`INSERT INTO arguments (`+argCols+`) VALUES ('%[1]s-%[2]d', '%[1]s', %[3]s, '%[4]s', '%[5]s', 'content', '%[1]s-%[2]d', %[2]d, '%[6]s', %[7]s)`,
				d.id, i+1, parent, f[0], f[1], f[2], at))
		}
	}
	return qs
}

// checkMigrated checks the debates of oldDebates on a migrated database:
// each keeps the seq of its arbitrator's last word, and the ruling rule
// holds by it: a write answering an argument older than the RULING of
// "ruled" is refused naming it, one answering the RULING is accepted, and so
// is one answering the MOTION of "plain", where the arbitrator never spoke.
func checkMigrated(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for _, d := range oldDebates {
		if got := lastWordSeq(t, s, d.id); got != d.lastWord {
			t.Errorf("migrated last_word_seq of %s is %d, want %d", d.id, got, d.lastWord)
		}
	}
	_, ruled, err := s.Since(ctx, "ruled", 0)
	if err != nil {
		t.Fatal(err)
	}
	stale := protocol.Write{DebateID: "ruled", Type: protocol.Claim, Role: protocol.Opponent, TargetID: "ruled-2", Content: "c", ClientRequestID: "stale"}
	want := protocol.CheckTarget(protocol.AwaitingOpponent, protocol.Claim, protocol.Opponent, ruled[1], ruled[3])
	if _, err := s.Submit(ctx, stale); err == nil || err.Error() != want.Error() {
		t.Errorf("write answering #2 of ruled: %v, want %v", err, want)
	}
	aligned := stale
	aligned.TargetID, aligned.ClientRequestID = "ruled-4", "aligned"
	if _, err := s.Submit(ctx, aligned); err != nil {
		t.Errorf("write answering the ruling: %v", err)
	}
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "plain", Type: protocol.Claim, Role: protocol.Proposer, TargetID: "plain-1", Content: "c", ClientRequestID: "p"}); err != nil {
		t.Errorf("write answering the motion of plain: %v", err)
	}
	for _, d := range oldDebates {
		checkLastWord(t, s, d.id)
	}
}

// oldRuling returns the statements with which a program before
// last_word_seq adds an INTERVENTION at seq and a RULING at seq+1 to debate
// id, whose state allows them.
func oldRuling(id string, seq int) []string {
	const at = "'2026-01-03T00:00:00.000000Z'"
	var qs []string
	for i, a := range []string{"INTERVENTION arbitrator INTERVENTION_PENDING", "RULING arbitrator AWAITING_PROPOSER"} {
		f := strings.Fields(a)
		qs = append(qs, fmt.Sprintf(`INSERT INTO arguments (`+argCols+`) VALUES ('%[1]s-%[2]d', '%[1]s', NULL, '%[3]s', '%[4]s', 'content', '%[1]s-%[2]d', %[2]d, '%[5]s', %[6]s)`,
			id, seq+i, f[0], f[1], f[2], at))
	}
	return append(qs, fmt.Sprintf(`UPDATE debates SET state = 'AWAITING_PROPOSER', updated_at = %s WHERE id = '%s'`, at, id))
}

// checkOldRuling checks that the RULING oldRuling wrote at seq+1 to debate
// id cannot be bypassed: the proposer's write answering target is refused
// naming it.
func checkOldRuling(t *testing.T, s *Store, id, target string, seq int) {
	t.Helper()
	ctx := context.Background()
	_, args, err := s.Since(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]protocol.Argument{}
	for _, a := range args {
		byID[a.ID] = a
	}
	ruling := byID[fmt.Sprintf("%s-%d", id, seq+1)]
	want := protocol.CheckTarget(protocol.AwaitingProposer, protocol.Claim, protocol.Proposer, byID[target], ruling)
	_, err = s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Claim, Role: protocol.Proposer, TargetID: target, Content: "c", ClientRequestID: "bypass"})
	if want == nil || err == nil || err.Error() != want.Error() {
		t.Errorf("write answering %s after the old program's ruling: %v, want %v", target, err, want)
	}
	checkLastWord(t, s, id)
}

// TestSchemaFromVersion2 opens a file a program at schema version 2 wrote,
// holding debates with and without rulings, with that program's connection
// still open: the migration fills in last_word_seq (checkMigrated), and the
// old program's statements still run on the new schema, its RULINGs keeping
// last_word_seq too.
func TestSchemaFromVersion2(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	old := oldProgram(t, path, append([]string{migrations[0], migrations[1], `PRAGMA user_version = 2`}, oldDebateInserts()...)...)

	s := openAt(t, path, Options{})
	var v int
	if err := sqliteOf(s).r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("user_version %d (%v), want %d", v, err, SchemaVersion)
	}
	checkMigrated(t, s)

	// The old program creates a debate and writes to it as it always did,
	// the arbitrator's word too.
	qs := append([]string{
		`INSERT INTO debates (id, title, debate_type, state, created_at, updated_at) VALUES ('fresh', 'Fresh', 'general_debate', 'AWAITING_OPPONENT', '2026-01-02T00:00:00.000000Z', '2026-01-02T00:00:00.000000Z')`,
		`INSERT INTO arguments (` + argCols + `) VALUES ('fresh-1', 'fresh', NULL, 'MOTION', 'proposer', 'm', 'fresh-1', 1, 'AWAITING_OPPONENT', '2026-01-02T00:00:00.000000Z')`,
		`INSERT INTO arguments (` + argCols + `) VALUES ('fresh-2', 'fresh', 'fresh-1', 'CLAIM', 'opponent', 'c', 'fresh-2', 2, 'AWAITING_PROPOSER', '2026-01-02T00:00:01.000000Z')`,
		`UPDATE debates SET state = 'AWAITING_PROPOSER', updated_at = '2026-01-02T00:00:01.000000Z' WHERE id = 'fresh'`,
	}, oldRuling("fresh", 3)...)
	for _, q := range qs {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("old program after the migration: %s: %v", q, err)
		}
	}
	checkOldRuling(t, s, "fresh", "fresh-2", 3)
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
}
