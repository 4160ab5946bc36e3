package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/protocol"
)

// testClock returns a clock that advances one second per call, so stored
// times and list order are deterministic.
func testClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 2, 7, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

func openAt(t testing.TB, path string, opts Options) *Store {
	t.Helper()
	if opts.Now == nil {
		opts.Now = testClock()
	}
	s, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openTest(t testing.TB, opts Options) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "debate.db"), opts)
}

func mustCreate(t testing.TB, s *Store, id string) protocol.Argument {
	t.Helper()
	res, err := s.Create(context.Background(), protocol.NewDebate{
		ID: id, Title: "Title of " + id, Type: protocol.GeneralDebate,
		Content: "Motion of " + id, ClientRequestID: "create-" + id,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Argument
}

func wantCode(t testing.TB, err error, code protocol.Code) *protocol.Error {
	t.Helper()
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("got error %v (%s), want %s", err, protocol.CodeOf(err), code)
	}
	return pe
}

// countArgs returns the number of arguments of debate id; 0 when there is no
// such debate.
func countArgs(t testing.TB, s *Store, id string) int {
	t.Helper()
	_, args, err := s.Since(context.Background(), id, 0)
	if protocol.CodeOf(err) == protocol.CodeDebateNotFound {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return len(args)
}

func TestCreate(t *testing.T) {
	t.Parallel()
	forBackends(t, testCreate)
}

func testCreate(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{ContentLimit: 10})
	good := protocol.NewDebate{ID: "d1", Title: "T", Type: protocol.CodingPlanDebate, Content: "ŝŝŝŝŝŝŝŝŝŝ", ClientRequestID: "r1"}
	first, err := s.Create(ctx, good)
	if err != nil {
		t.Fatalf("create with content at the limit (10 characters, 20 bytes): %v", err)
	}
	if first.Replay || first.Argument.Seq != 1 || first.Argument.Type != protocol.Motion || first.Argument.ParentID != "" ||
		first.Debate.State != protocol.AwaitingOpponent || first.Argument.StateAfter != protocol.AwaitingOpponent {
		t.Fatalf("unexpected create result %+v", first)
	}

	again, err := s.Create(ctx, good)
	if err != nil || !again.Replay || again.Argument != first.Argument {
		t.Fatalf("replay: got %+v, %v; want the original motion", again, err)
	}
	other := good
	other.ClientRequestID = "r2"
	wantCode(t, func() error { _, err := s.Create(ctx, other); return err }(), protocol.CodeInvalidInput)

	bad := []struct {
		name string
		edit func(*protocol.NewDebate)
		code protocol.Code
	}{
		{"no id", func(n *protocol.NewDebate) { n.ID = "" }, protocol.CodeInvalidInput},
		{"id with space", func(n *protocol.NewDebate) { n.ID = "a b" }, protocol.CodeInvalidInput},
		{"no title", func(n *protocol.NewDebate) { n.Title = " " }, protocol.CodeInvalidInput},
		{"bad type", func(n *protocol.NewDebate) { n.Type = "debate" }, protocol.CodeInvalidInput},
		{"no request id", func(n *protocol.NewDebate) { n.ClientRequestID = "" }, protocol.CodeInvalidInput},
		{"empty motion", func(n *protocol.NewDebate) { n.Content = "" }, protocol.CodeInvalidInput},
		{"too large", func(n *protocol.NewDebate) { n.Content = "ŝŝŝŝŝŝŝŝŝŝŝ" }, protocol.CodeContentTooLarge},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			nd := good
			nd.ID = "fresh"
			tt.edit(&nd)
			_, err := s.Create(ctx, nd)
			wantCode(t, err, tt.code)
		})
	}
	if n := countArgs(t, s, "fresh"); n != 0 {
		t.Errorf("refused creates wrote %d arguments", n)
	}
}

func TestSubmitPipeline(t *testing.T) {
	t.Parallel()
	forBackends(t, testSubmitPipeline)
}

func testSubmitPipeline(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{ContentLimit: 20})
	motion := mustCreate(t, s, "d")
	otherMotion := mustCreate(t, s, "other")

	ids := map[string]string{"motion": motion.ID}
	steps := []struct {
		name     string
		w        protocol.Write
		target   string // key into ids, resolved at run time
		code     protocol.Code
		state    protocol.State // state after a success, current state on refusal
		seq      int
		parent   string // key into ids
		allowed  []protocol.Role
		saveAs   string
		noTarget bool
	}{
		{name: "opponent claim", w: protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, Content: "c1", ClientRequestID: "k1"},
			target: "motion", state: protocol.AwaitingProposer, seq: 2, parent: "motion", saveAs: "c1"},
		{name: "opponent again", w: protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, Content: "c", ClientRequestID: "k2"},
			target: "c1", code: protocol.CodeActionNotAllowed, state: protocol.AwaitingProposer, allowed: []protocol.Role{protocol.Proposer}},
		{name: "foreign target", w: protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, Content: "c", ClientRequestID: "k3"},
			target: "foreign", code: protocol.CodeInvalidInput},
		{name: "unknown target", w: protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, Content: "c", ClientRequestID: "k4", TargetID: "nope"},
			code: protocol.CodeInvalidInput},
		{name: "missing target", w: protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, Content: "c", ClientRequestID: "k5"},
			noTarget: true, code: protocol.CodeInvalidInput},
		{name: "too large", w: protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, Content: strings.Repeat("é", 21), ClientRequestID: "k6"},
			target: "c1", code: protocol.CodeContentTooLarge},
		{name: "motion refused", w: protocol.Write{Type: protocol.Motion, Role: protocol.Proposer, Content: "m", ClientRequestID: "k7"},
			target: "c1", code: protocol.CodeInvalidInput},
		{name: "missing request id", w: protocol.Write{Type: protocol.Appeal, Role: protocol.Proposer, Content: "a"},
			target: "c1", code: protocol.CodeInvalidInput},
		{name: "appeal", w: protocol.Write{Type: protocol.Appeal, Role: protocol.Proposer, Content: "a", ClientRequestID: "k8"},
			target: "c1", state: protocol.AwaitingArbitrator, seq: 3, parent: "c1", saveAs: "appeal"},
		{name: "ruling without target or request id", w: protocol.Write{Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "r"},
			noTarget: true, state: protocol.AwaitingProposer, seq: 4, parent: "appeal", saveAs: "ruling"},
		{name: "empty intervention", w: protocol.Write{Type: protocol.Intervention, Role: protocol.Arbitrator},
			noTarget: true, state: protocol.InterventionPending, seq: 5, parent: "ruling", saveAs: "intervention"},
		{name: "claim during intervention", w: protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, Content: "c", ClientRequestID: "k9"},
			target: "intervention", code: protocol.CodeActionNotAllowed, state: protocol.InterventionPending, allowed: nil},
		{name: "closing ruling", w: protocol.Write{Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "done", ClientRequestID: "k10", Close: true},
			noTarget: true, state: protocol.Closed, seq: 6, parent: "intervention"},
		{name: "after close", w: protocol.Write{Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "x", ClientRequestID: "k11"},
			noTarget: true, code: protocol.CodeActionNotAllowed, state: protocol.Closed},
		{name: "unknown debate", w: protocol.Write{DebateID: "ghost", Type: protocol.Claim, Role: protocol.Opponent, Content: "c", ClientRequestID: "k12"},
			target: "motion", code: protocol.CodeDebateNotFound},
	}
	ids["foreign"] = otherMotion.ID
	for _, st := range steps {
		w := st.w
		if w.DebateID == "" {
			w.DebateID = "d"
		}
		if !st.noTarget && w.TargetID == "" {
			w.TargetID = ids[st.target]
		}
		before := countArgs(t, s, "d")
		res, err := s.Submit(ctx, w)
		if st.code != "" {
			pe := wantCode(t, err, st.code)
			if st.state != "" && pe.CurrentState != st.state {
				t.Errorf("%s: current state %q, want %q", st.name, pe.CurrentState, st.state)
			}
			if st.code == protocol.CodeActionNotAllowed && !slices.Equal(pe.AllowedRoles, st.allowed) {
				t.Errorf("%s: allowed roles %v, want %v", st.name, pe.AllowedRoles, st.allowed)
			}
			if n := countArgs(t, s, "d"); n != before {
				t.Errorf("%s: refused write changed the argument count %d → %d", st.name, before, n)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		a := res.Argument
		if res.Replay || a.Seq != st.seq || a.ParentID != ids[st.parent] || res.Debate.State != st.state || a.StateAfter != st.state {
			t.Fatalf("%s: got %+v (debate %+v), want seq %d parent %s state %s", st.name, a, res.Debate, st.seq, st.parent, st.state)
		}
		if a.ClientRequestID == "" {
			t.Errorf("%s: no client request id stored", st.name)
		}
		if st.saveAs != "" {
			ids[st.saveAs] = a.ID
		}
	}

	// A replay after close returns the original argument and the current
	// debate, and writes nothing.
	before := countArgs(t, s, "d")
	res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID,
		Content: "different content", ClientRequestID: "k1"})
	if err != nil || !res.Replay || res.Argument.ID != ids["c1"] || res.Argument.Content != "c1" || res.Debate.State != protocol.Closed {
		t.Fatalf("replay after close: %+v, %v", res, err)
	}
	if n := countArgs(t, s, "d"); n != before {
		t.Errorf("replay wrote: %d → %d arguments", before, n)
	}
}

func TestResolutionAutoRuling(t *testing.T) {
	t.Parallel()
	forBackends(t, testResolutionAutoRuling)
}

func testResolutionAutoRuling(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	c, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Opponent, TargetID: motion.ID, Content: "c", ClientRequestID: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	ch, cancel := s.Subscribe("d")
	defer cancel()
	w := protocol.Write{DebateID: "d", Type: protocol.Resolution, Role: protocol.Proposer, TargetID: c.Argument.ID, Content: "agreed", ClientRequestID: "k2"}
	res, err := s.Submit(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	r := res.AutoRuling
	if r == nil {
		t.Fatal("no auto-ruling")
	}
	if res.Argument.Seq != 3 || res.Argument.StateAfter != protocol.AwaitingArbitrator ||
		r.Seq != 4 || r.Type != protocol.Ruling || r.Role != protocol.Arbitrator || r.ParentID != res.Argument.ID ||
		r.Content != protocol.AutoRulingContent || r.StateAfter != protocol.Closed || res.Debate.State != protocol.Closed {
		t.Fatalf("resolution %+v, ruling %+v, debate %+v", res.Argument, r, res.Debate)
	}
	select {
	case <-ch:
	default:
		t.Error("subscriber not signalled")
	}

	again, err := s.Submit(ctx, w)
	if err != nil || !again.Replay || again.AutoRuling != nil || again.Argument.ID != res.Argument.ID {
		t.Fatalf("replay: %+v, %v", again, err)
	}
	if n := countArgs(t, s, "d"); n != 4 {
		t.Errorf("%d arguments after the replay, want 4", n)
	}
	select {
	case <-ch:
		t.Error("a replay notified subscribers")
	default:
	}
}

func TestGetAndList(t *testing.T) {
	t.Parallel()
	forBackends(t, testGetAndList)
}

func testGetAndList(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	for _, id := range []string{"a", "b", "c", "d"} {
		mustCreate(t, s, id)
	}
	// b: three claims; c: an intervention by the arbitrator only.
	ctxB, err := s.Get(ctx, "b", 0)
	if err != nil {
		t.Fatal(err)
	}
	target := ctxB.Motion.ID
	for i, role := range []protocol.Role{protocol.Opponent, protocol.Proposer, protocol.Opponent} {
		res, err := s.Submit(ctx, protocol.Write{DebateID: "b", Type: protocol.Claim, Role: role, TargetID: target,
			Content: "claim", ClientRequestID: "b" + string(rune('0'+i))})
		if err != nil {
			t.Fatal(err)
		}
		target = res.Argument.ID
	}
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "c", Type: protocol.Intervention, Role: protocol.Arbitrator}); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		limit int
		seqs  []int
	}{{-1, []int{2, 3, 4}}, {0, nil}, {2, []int{3, 4}}, {10, []int{2, 3, 4}}} {
		got, err := s.Get(ctx, "b", tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var seqs []int
		for _, a := range got.Arguments {
			seqs = append(seqs, a.Seq)
		}
		if !slices.Equal(seqs, tt.seqs) || got.Motion.Seq != 1 || got.Debate.State != protocol.AwaitingProposer {
			t.Errorf("Get(limit %d): motion seq %d, seqs %v, state %s; want %v", tt.limit, got.Motion.Seq, seqs, got.Debate.State, tt.seqs)
		}
	}
	_, err = s.Get(ctx, "zzz", -1)
	wantCode(t, err, protocol.CodeDebateNotFound)

	ids := func(p Page) []string {
		var out []string
		for _, d := range p.Debates {
			out = append(out, d.ID)
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		f     Filter
		ids   []string
		total int
	}{
		{"all, newest first", Filter{}, []string{"c", "b", "d", "a"}, 4},
		{"state", Filter{State: protocol.AwaitingOpponent}, []string{"d", "a"}, 2},
		{"pending first opponent", Filter{PendingFirstOpponent: true}, []string{"d", "a"}, 2},
		{"page", Filter{Limit: 2, Offset: 1}, []string{"b", "d"}, 4},
		{"past the end", Filter{Offset: 9}, nil, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.List(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(p), tt.ids) || p.Total != tt.total {
				t.Errorf("got %v total %d, want %v total %d", ids(p), p.Total, tt.ids, tt.total)
			}
		})
	}
	_, err = s.List(ctx, Filter{State: "OPEN"})
	wantCode(t, err, protocol.CodeInvalidInput)
	_, err = s.List(ctx, Filter{Limit: -1})
	wantCode(t, err, protocol.CodeInvalidInput)

	if err := s.Delete(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.Delete(ctx, "b"), protocol.CodeDebateNotFound)
	_, err = s.Get(ctx, "b", -1)
	wantCode(t, err, protocol.CodeDebateNotFound)
	if n := countArgs(t, s, "b"); n != 0 {
		t.Errorf("%d arguments left after delete", n)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "dir", "debate.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := sqliteOf(s).r.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("user_version %d (%v), want %d", v, err, SchemaVersion)
	}
	var mode string
	if err := sqliteOf(s).r.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v)", mode, err)
	}
	var fk int
	if err := sqliteOf(s).r.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys %d (%v)", fk, err)
	}
	mustCreate(t, s, "kept")
	if _, err := sqliteOf(s).w.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a newer schema: %v", err)
	}
	// Back to the current version: reopening keeps the data and migrates nothing.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	s = openAt(t, path, Options{})
	if _, err := s.Get(ctx, "kept", -1); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, filepath.Join(t.TempDir(), "a?b.db"), Options{}); err == nil {
		t.Error("a path with '?' was accepted")
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, db, xdg, want string
	}{
		{"DEBATE_DB wins", "/tmp/x.db", "/xdg", "/tmp/x.db"},
		{"XDG_DATA_HOME", "", "/xdg", "/xdg/debate/debate.db"},
		{"home", "", "", filepath.Join(home, ".local", "share", "debate", "debate.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("DEBATE_DB", tt.db)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			got, err := DefaultPath()
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestExistingDocuments: of a set of ids, exactly those of documents come
// back, whatever else the set holds (duplicates, unknown ids, quotes).
func TestExistingDocuments(t *testing.T) {
	t.Parallel()
	forBackends(t, testExistingDocuments)
}

func testExistingDocuments(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	var made []string
	for _, key := range []string{"c1", "c2"} {
		d, _, err := s.CreateDocument(ctx, protocol.NewDocument{Title: key, Content: "text " + key, ClientRequestID: key})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, d.ID)
	}
	missing := "00000000-0000-4000-8000-000000000000"
	for _, tt := range []struct {
		name string
		ids  []string
		want []string
	}{
		{"none asked", nil, nil},
		{"all exist", made, made},
		{"one exists", []string{missing, made[1]}, made[1:]},
		{"duplicates", []string{made[0], made[0], missing}, made[:1]},
		{"none exists", []string{missing, `x"]'; --`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.ExistingDocuments(ctx, tt.ids)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("ExistingDocuments(%q) = %v, want %q", tt.ids, got, tt.want)
			}
			for _, id := range tt.want {
				if !got[id] {
					t.Errorf("ExistingDocuments(%q) = %v, lacks %s", tt.ids, got, id)
				}
			}
		})
	}
}

func TestDocuments(t *testing.T) {
	t.Parallel()
	forBackends(t, testDocuments)
}

func testDocuments(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{DocumentLimit: 16})
	d1, replay, err := s.CreateDocument(ctx, protocol.NewDocument{Title: "plan", Content: "version one", ClientRequestID: "c1"})
	if err != nil || replay || d1.Version != 1 || d1.ID == "" {
		t.Fatalf("create: %+v %v %v", d1, replay, err)
	}
	again, replay, err := s.CreateDocument(ctx, protocol.NewDocument{Title: "other", Content: "other", ClientRequestID: "c1"})
	if err != nil || !replay || again.ID != d1.ID || again.Content != "version one" {
		t.Fatalf("create replay: %+v %v %v", again, replay, err)
	}
	d2, replay, err := s.SubmitDocument(ctx, d1.ID, "version two", "s1")
	if err != nil || replay || d2.Version != 2 || d2.Title != "plan" {
		t.Fatalf("submit: %+v %v %v", d2, replay, err)
	}
	if r, replay, err := s.SubmitDocument(ctx, d1.ID, "ignored", "s1"); err != nil || !replay || r.Version != 2 || r.Content != "version two" {
		t.Fatalf("submit replay: %+v %v %v", r, replay, err)
	}
	if _, _, err := s.SubmitDocument(ctx, d1.ID, "version three", ""); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		version int
		content string
		code    protocol.Code
	}{
		{0, "version three", ""},
		{1, "version one", ""},
		{2, "version two", ""},
		{4, "", protocol.CodeDocumentNotFound},
		{-1, "", protocol.CodeInvalidInput},
	} {
		got, err := s.GetDocument(ctx, d1.ID, tt.version)
		if tt.code != "" {
			wantCode(t, err, tt.code)
			continue
		}
		if err != nil || got.Content != tt.content || got.LatestVersion != 3 {
			t.Errorf("version %d: %+v, %v", tt.version, got, err)
		}
	}
	_, err = s.GetDocument(ctx, "nope", 0)
	wantCode(t, err, protocol.CodeDocumentNotFound)
	_, _, err = s.SubmitDocument(ctx, "nope", "x", "")
	wantCode(t, err, protocol.CodeDocumentNotFound)
	_, _, err = s.CreateDocument(ctx, protocol.NewDocument{Content: strings.Repeat("x", 17)})
	wantCode(t, err, protocol.CodeContentTooLarge)
	_, _, err = s.CreateDocument(ctx, protocol.NewDocument{Content: "  "})
	wantCode(t, err, protocol.CodeInvalidInput)
}
