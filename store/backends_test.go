package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/protocol"
)

// backends name each backend and give a new empty database of it.
var backends = []struct {
	name string
	db   func(testing.TB) string
}{
	{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "debate.db") }},
	{"postgres", pgtest.Database},
}

// forBackends runs test once per backend, with a new empty database: a
// SQLite file, and a PostgreSQL database of the package's throwaway cluster
// (skipped when PostgreSQL is not installed, unless CI is set).
func forBackends(t *testing.T, test func(t *testing.T, db string)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			test(t, b.db(t))
		})
	}
}

// sqliteOf returns the SQLite backend of s, for tests that look inside it.
func sqliteOf(s *Store) *sqliteDB { return s.db.(*sqliteDB) }

func TestIsPostgres(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		db   string
		want bool
	}{
		{"postgres://u@h/db", true},
		{"postgresql://h/db?sslmode=disable", true},
		{"/var/lib/debate.db", false},
		{"postgres.db", false},
		{"./postgres://x", false},
	} {
		if got := IsPostgres(tt.db); got != tt.want {
			t.Errorf("IsPostgres(%q) = %v, want %v", tt.db, got, tt.want)
		}
	}
}

// A notification's payload reads back as written, and nothing else reads as
// one.
func FuzzParseNotice(f *testing.F) {
	for _, s := range []string{"1 d", "0 debate-1", "12 a b", "-1 d", "+3 d", "03 d", "7", "", " d", "99999999999999999999 d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		id, seq, ok := parseNotice(payload)
		if ok && notice(id, seq) != payload {
			t.Errorf("parseNotice(%q) = %q, %d; notice gives %q", payload, id, seq, notice(id, seq))
		}
		if !ok && seq != 0 {
			t.Errorf("parseNotice(%q) refused it but returned seq %d", payload, seq)
		}
	})
}

func TestNoticeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		id  string
		seq int
	}{{"d", 1}, {"debate with spaces", 42}, {"d", 0}, {"", 3}} {
		id, seq, ok := parseNotice(notice(tt.id, tt.seq))
		if !ok || id != tt.id || seq != tt.seq {
			t.Errorf("notice(%q, %d) reads back as %q, %d, %v", tt.id, tt.seq, id, seq, ok)
		}
	}
}

// Replicas opening a new database at once migrate it exactly once; the
// version is kept in the database and a newer one is refused.
func TestPostgresMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.Database(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(ctx, db, Options{})
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal("concurrent open:", err)
		}
	}
	s := openAt(t, db, Options{})
	mustCreate(t, s, "kept")
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, v int
	if err := conn.QueryRow(ctx, `SELECT count(*), max(version) FROM debate_schema`).Scan(&rows, &v); err != nil || rows != 1 || v != len(pgMigrations) {
		t.Fatalf("debate_schema has %d rows, version %d (%v); want one row, version %d", rows, v, err, len(pgMigrations))
	}
	if _, err := conn.Exec(ctx, `UPDATE debate_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, db, Options{}); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a newer schema: %v", err)
	}
	if _, err := conn.Exec(ctx, `UPDATE debate_schema SET version = $1`, len(pgMigrations)); err != nil {
		t.Fatal(err)
	}
	if _, err := openAt(t, db, Options{}).Get(ctx, "kept", -1); err != nil {
		t.Fatal(err)
	}
}

// A password in the URL never reaches an error message.
func TestPostgresErrorsHidePassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, db := range []string{
		"postgres://debate:hunter2@127.0.0.1:1/nothing?connect_timeout=2",
		"postgres://debate:hunter2@127.0.0.1:1/nothing?pool_max_conns=many",
	} {
		_, err := Open(ctx, db, Options{})
		if err == nil {
			t.Fatalf("opened %s", db)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("error shows the password: %v", err)
		}
	}
}

// The unique constraints hold on PostgreSQL as on SQLite, whatever the
// pipeline does: a second argument with a taken seq or client_request_id is
// refused by the database itself.
func TestPostgresConstraints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.Database(t)
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for i, tt := range []struct{ seq, key string }{{"1", "fresh"}, {"2", motion.ClientRequestID}} {
		_, err := conn.Exec(ctx, fmt.Sprintf(`INSERT INTO arguments (`+argCols+`)
			VALUES ('x%d', 'd', NULL, 'CLAIM', 'opponent', 'c', '%s', %s, 'AWAITING_PROPOSER', now())`, i, tt.key, tt.seq))
		if err == nil || !strings.Contains(err.Error(), "unique") {
			t.Errorf("seq %s, key %s: %v; want a unique violation", tt.seq, tt.key, err)
		}
	}
	if n := countArgs(t, s, "d"); n != 1 {
		t.Errorf("%d arguments, want the motion only", n)
	}
}

// A replica whose notification connection drops (the database restarted it,
// a proxy cut it) still wakes its waiters on another replica's writes: it
// reconnects, and the safety poll covers the gap.
func TestPostgresListenerReconnects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.Database(t)
	a, b := openAt(t, db, Options{}), openAt(t, db, Options{})
	motion := mustCreate(t, b, "d")
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var killed int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+notifyChannel+`'`).Scan(&killed); err != nil || killed != 2 {
		t.Fatalf("terminated %d listeners (%v), want both replicas'", killed, err)
	}
	type out struct {
		res protocol.WaitResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := a.Wait(ctx, "d", protocol.Proposer, motion.ID, waitLong)
		done <- out{res, err}
	}()
	waitSubscribed(a, 1)
	written := claim(t, b, "d", protocol.Opponent, motion.ID, "k1")
	got := <-done
	if got.err != nil || got.res.Argument.ID != written.ID {
		t.Fatalf("waiter got %+v, %v; want %s", got.res, got.err, written.ID)
	}
}

// A database a program at PostgreSQL schema version 1 wrote, holding
// debates with and without rulings, migrates: last_word_seq is filled in
// and the ruling rule holds by it (checkMigrated). A replica of that version
// still running afterwards keeps it too when it adds a RULING.
func TestPostgresMigrationFromVersion1(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.Database(t)
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range append([]string{pgMigrations[0], `CREATE TABLE debate_schema (version integer NOT NULL)`,
		`INSERT INTO debate_schema (version) VALUES (1)`}, oldDebateInserts()...) {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s := openAt(t, db, Options{})
	var v int
	if err := conn.QueryRow(ctx, `SELECT version FROM debate_schema`).Scan(&v); err != nil || v != len(pgMigrations) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(pgMigrations))
	}
	checkMigrated(t, s)
	// checkMigrated left plain at #3, awaiting the opponent.
	for _, q := range oldRuling("plain", 4) {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("old replica after the migration: %s: %v", q, err)
		}
	}
	checkOldRuling(t, s, "plain", "plain-2", 4)
}

// roundTrips counts the statements and batches a PostgreSQL Store sends, each
// one round trip once its statements are prepared.
type roundTrips struct {
	mu  sync.Mutex
	log []string
}

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.note(strings.Join(strings.Fields(d.SQL), " "))
	return ctx
}

func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	r.note(fmt.Sprintf("a batch of %d", d.Batch.Len()))
	return ctx
}

func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (r *roundTrips) note(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, what)
}

// during returns the round trips f makes, and what each sent.
func (r *roundTrips) during(f func()) []string {
	r.mu.Lock()
	from := len(r.log)
	r.mu.Unlock()
	f()
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log[from:])
}

// TestPostgresRoundTrips: on PostgreSQL a write is a transaction of three
// round trips — one batch that begins it, locks the debate and reads its
// head, one that inserts the argument, sets the state and queues the
// notification, and its commit — and the closing RULING after a RESOLUTION
// adds one batch to that transaction. Each kind of write runs once before it is counted, so
// that its statements are prepared.
func TestPostgresRoundTrips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rt := &roundTrips{}
	s := openAt(t, pgtest.Database(t), Options{tracer: rt})
	// play makes, in debate id, a create, a CLAIM, its replay, a refused
	// CLAIM, a CLAIM answering it and a RESOLUTION, and returns the round
	// trips of each.
	play := func(id string) map[string][]string {
		trips := map[string][]string{}
		var motion, c1, c2 protocol.Argument
		trips["create"] = rt.during(func() { motion = mustCreate(t, s, id) })
		trips["claim"] = rt.during(func() { c1 = claim(t, s, id, protocol.Opponent, motion.ID, "c1") })
		trips["replay"] = rt.during(func() { claim(t, s, id, protocol.Opponent, motion.ID, "c1") })
		trips["refused"] = rt.during(func() {
			_, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Claim, Role: protocol.Opponent,
				TargetID: c1.ID, Content: "again", ClientRequestID: "c2"})
			wantCode(t, err, protocol.CodeActionNotAllowed)
		})
		c2 = claim(t, s, id, protocol.Proposer, c1.ID, "c2")
		c3 := claim(t, s, id, protocol.Opponent, c2.ID, "c3")
		trips["resolution"] = rt.during(func() {
			res, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Resolution, Role: protocol.Proposer,
				TargetID: c3.ID, Content: "done", ClientRequestID: "r"})
			if err != nil || res.AutoRuling == nil {
				t.Fatalf("resolution: %+v, %v", res, err)
			}
		})
		return trips
	}
	play("warm")
	got := play("d")
	for _, tt := range []struct {
		write string
		want  int
	}{
		// begin and insert the debate, insert the MOTION and notify, commit
		{"create", 3},
		{"claim", 3},
		// begin and the head (which finds the original), read it, roll back
		{"replay", 3},
		// begin and the head, roll back; the refusal's advice reads the
		// newest argument
		{"refused", 3},
		// the claim's three and one batch for the RULING
		{"resolution", 4},
	} {
		if trips := got[tt.write]; len(trips) != tt.want {
			t.Errorf("%s: %d round trips, want %d: %q", tt.write, len(trips), tt.want, trips)
		}
	}
}
