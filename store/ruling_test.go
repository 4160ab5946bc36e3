package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
)

// An INTERVENTION and a RULING land while the proposer composes its answer to
// a CLAIM: its write targeting the CLAIM is refused naming the RULING, and a
// wait from the argument it had seen before lists the CLAIM, the INTERVENTION
// and the RULING.
func TestRulingCannotBeBypassed(t *testing.T) {
	t.Parallel()
	forBackends(t, testRulingCannotBeBypassed)
}

func testRulingCannotBeBypassed(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	c2 := claim(t, s, "d", protocol.Opponent, motion.ID, "k2")
	c3 := claim(t, s, "d", protocol.Proposer, c2.ID, "k3")
	c4 := claim(t, s, "d", protocol.Opponent, c3.ID, "k4")

	// The proposer's wait from its own CLAIM hands it CLAIM #4 to answer.
	got, err := s.Wait(ctx, "d", protocol.Proposer, c3.ID, 0)
	if err != nil || got.Argument.ID != c4.ID || got.Action != protocol.Respond {
		t.Fatalf("wait before the ruling: %+v, %v", got, err)
	}
	iv, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "hold on"})
	if err != nil {
		t.Fatal(err)
	}
	ruling, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "add the cache warm-up to the plan"})
	if err != nil {
		t.Fatal(err)
	}

	writes := []struct {
		name string
		w    protocol.Write
	}{
		{"appeal", protocol.Write{Type: protocol.Appeal, Content: "which option?", ClientRequestID: "k7"}},
		{"claim", protocol.Write{Type: protocol.Claim, Content: "revised", ClientRequestID: "k8"}},
		{"resolution", protocol.Write{Type: protocol.Resolution, Content: "done", ClientRequestID: "k9"}},
	}
	for _, tt := range writes {
		t.Run("stale "+tt.name, func(t *testing.T) {
			w := tt.w
			w.DebateID, w.Role, w.TargetID = "d", protocol.Proposer, c4.ID
			_, err := s.Submit(ctx, w)
			pe := wantCode(t, err, protocol.CodeActionNotAllowed)
			if !strings.Contains(pe.Message, "RULING "+ruling.Argument.ID) || !strings.Contains(pe.Suggestion, "debate get-context --debate-id d") {
				t.Errorf("refusal does not name the ruling and how to read it: %q / %q", pe.Message, pe.Suggestion)
			}
			if pe.CurrentState != protocol.AwaitingProposer {
				t.Errorf("current state %s", pe.CurrentState)
			}
		})
	}
	if n := countArgs(t, s, "d"); n != 6 {
		t.Fatalf("refused writes stored: %d arguments, want 6", n)
	}

	got, err = s.Wait(ctx, "d", protocol.Proposer, c3.ID, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range got.Arguments {
		ids = append(ids, a.ID)
	}
	want := []string{c4.ID, iv.Argument.ID, ruling.Argument.ID}
	if strings.Join(ids, " ") != strings.Join(want, " ") || got.Argument.ID != ruling.Argument.ID || got.Action != protocol.AlignToRuling {
		t.Fatalf("wait from #3: arguments %v, newest %s, action %s; want %v, the ruling, align_to_ruling", ids, got.Argument.ID, got.Action, want)
	}

	// Answering the ruling, or something newer, is accepted.
	res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: ruling.Argument.ID, Content: "aligned", ClientRequestID: "k10"})
	if err != nil || res.Argument.Seq != 7 {
		t.Fatalf("claim answering the ruling: %+v, %v", res, err)
	}
	c8 := claim(t, s, "d", protocol.Opponent, res.Argument.ID, "k11")
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Appeal, Role: protocol.Proposer, TargetID: res.Argument.ID, Content: "a", ClientRequestID: "k12"}); err != nil {
		t.Fatalf("appeal targeting an argument newer than the ruling (#7, newest #%d): %v", c8.Seq, err)
	}
}

// move is one write of a scripted debate: label names the argument for the
// moves after it; target is the label of the argument it answers ("" for
// none); foreign makes it through a second Store on the same database, as
// another process or replica would.
type move struct {
	label   string
	by      protocol.Role
	typ     protocol.ArgType
	target  string
	foreign bool
}

// The ruling rule through Submit: a party's write whose target is older than
// the arbitrator's newest INTERVENTION or RULING is refused with the message
// protocol.CheckTarget gives for the stored last word, whichever Store wrote
// it; a write answering it or something newer, the arbitrator's own writes
// and replays are not. The debate keeps the seq of the last word
// (last_word_seq), the auto-ruling's too.
func TestRulingRule(t *testing.T) {
	t.Parallel()
	forBackends(t, testRulingRule)
}

func testRulingRule(t *testing.T, db string) {
	const (
		prop = protocol.Proposer
		opp  = protocol.Opponent
		arb  = protocol.Arbitrator
	)
	var (
		claimT = protocol.Claim
		appeal = protocol.Appeal
		interv = protocol.Intervention
		ruling = protocol.Ruling
	)
	// ruled is a debate whose arbitrator spoke at #3 and #4, answered since.
	ruled := []move{
		{label: "c2", by: opp, typ: claimT, target: "m"},
		{label: "iv3", by: arb, typ: interv},
		{label: "r4", by: arb, typ: ruling},
		{label: "c5", by: prop, typ: claimT, target: "r4"},
		{label: "c6", by: opp, typ: claimT, target: "c5"},
	}
	tests := []struct {
		name   string
		script []move
		write  move // its label is its client_request_id
		// refusedBy is the label of the last word the refusal names; empty
		// when the write is accepted.
		refusedBy string
		replay    bool
		closed    bool // the write is a RESOLUTION, closed by the auto-ruling
	}{
		{name: "no ruling, the motion answered",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "c3", by: prop, typ: claimT, target: "c2"}, {label: "c4", by: opp, typ: claimT, target: "c3"}},
			write:  move{label: "k", by: prop, typ: claimT, target: "m"}},
		{name: "a claim before the ruling", script: ruled,
			write: move{label: "k", by: prop, typ: claimT, target: "c2"}, refusedBy: "r4"},
		{name: "the intervention, older than the ruling", script: ruled,
			write: move{label: "k", by: prop, typ: appeal, target: "iv3"}, refusedBy: "r4"},
		{name: "the ruling answered", script: ruled,
			write: move{label: "k", by: prop, typ: claimT, target: "r4"}},
		{name: "newer than the ruling", script: ruled,
			write: move{label: "k", by: prop, typ: appeal, target: "c5"}},
		{name: "the arbitrator answers an old argument", script: ruled,
			write: move{label: "k", by: arb, typ: interv, target: "m"}},
		{name: "between two rulings", script: append(ruled[:len(ruled):len(ruled)],
			move{label: "iv7", by: arb, typ: interv}, move{label: "r8", by: arb, typ: ruling}),
			write: move{label: "k", by: prop, typ: claimT, target: "c6"}, refusedBy: "r8"},
		{name: "an appeal's ruling, the motion answered",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "a3", by: prop, typ: appeal, target: "c2"}, {label: "r4", by: arb, typ: ruling}},
			write:  move{label: "k", by: prop, typ: protocol.Resolution, target: "m"}, refusedBy: "r4"},
		{name: "a replay of a write made before the ruling",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "k", by: prop, typ: claimT, target: "c2"},
				{label: "iv4", by: arb, typ: interv}, {label: "r5", by: arb, typ: ruling}},
			write: move{label: "k", by: prop, typ: claimT, target: "c2"}, replay: true},
		{name: "a resolution answering the ruling, closed by the auto-ruling", script: ruled,
			write: move{label: "k", by: prop, typ: protocol.Resolution, target: "c6"}, closed: true},

		{name: "a foreign ruling, bypassed",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "c3", by: prop, typ: claimT, target: "c2"},
				{label: "iv4", by: arb, typ: interv, foreign: true}, {label: "r5", by: arb, typ: ruling, foreign: true}},
			write: move{label: "k", by: prop, typ: claimT, target: "c3"}, refusedBy: "r5"},
		{name: "a foreign ruling, answered",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "c3", by: prop, typ: claimT, target: "c2"},
				{label: "iv4", by: arb, typ: interv, foreign: true}, {label: "r5", by: arb, typ: ruling, foreign: true}},
			write: move{label: "k", by: prop, typ: claimT, target: "r5"}},
		{name: "a foreign claim after our ruling, bypassed",
			script: []move{{label: "c2", by: opp, typ: claimT, target: "m"}, {label: "iv3", by: arb, typ: interv}, {label: "r4", by: arb, typ: ruling},
				{label: "c5", by: prop, typ: claimT, target: "r4", foreign: true}},
			write: move{label: "k", by: opp, typ: claimT, target: "c2"}, refusedBy: "r4"},
	}
	ctx := context.Background()
	s := openAt(t, db, Options{})
	other := openAt(t, db, Options{})
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprint("d", i)
			args := map[string]protocol.Argument{"m": mustCreate(t, s, id)}
			submit := func(st *Store, mv move) (protocol.Result, error) {
				w := protocol.Write{DebateID: id, Type: mv.typ, Role: mv.by, Content: "content of " + mv.label, ClientRequestID: mv.label}
				if mv.target != "" {
					w.TargetID = args[mv.target].ID
				}
				return st.Submit(ctx, w)
			}
			for _, mv := range tt.script {
				st := s
				if mv.foreign {
					st = other
				}
				res, err := submit(st, mv)
				if err != nil {
					t.Fatalf("%s: %v", mv.label, err)
				}
				args[mv.label] = res.Argument
			}
			before := countArgs(t, s, id)
			res, err := submit(s, tt.write)
			switch {
			case tt.refusedBy != "":
				lw, target := args[tt.refusedBy], args[tt.write.target]
				st, all, _ := s.Since(ctx, id, 0)
				newest := all[len(all)-1]
				want := protocol.Advise(protocol.CheckTarget(st.State, tt.write.typ, tt.write.by, target, lw),
					protocol.Write{DebateID: id, Type: tt.write.typ, Role: tt.write.by}, st, newest)
				if want == nil || err == nil || err.Error() != want.Error() {
					t.Fatalf("got %v, want %v", err, want)
				}
				pe := wantCode(t, err, protocol.CodeActionNotAllowed)
				if wpe := want.(*protocol.Error); pe.Suggestion != wpe.Suggestion || pe.CurrentState != st.State {
					t.Errorf("refusal %+v, want %+v", pe, wpe)
				}
				// The suggestion sends the writer to the newest argument,
				// never to the last word when something answered it.
				if !strings.Contains(pe.Suggestion, newest.ID) {
					t.Errorf("suggestion %q does not name the newest argument #%d", pe.Suggestion, newest.Seq)
				}
				if n := countArgs(t, s, id); n != before {
					t.Errorf("the refused write was stored: %d arguments, want %d", n, before)
				}
			case err != nil:
				t.Fatalf("refused: %v", err)
			case res.Replay != tt.replay:
				t.Fatalf("replay %v, want %v", res.Replay, tt.replay)
			case tt.replay && res.Argument != args[tt.write.label]:
				t.Errorf("replay returned %+v, want the original %+v", res.Argument, args[tt.write.label])
			case tt.closed && (res.AutoRuling == nil || res.Debate.State != protocol.Closed):
				t.Errorf("resolution: auto-ruling %v, state %s", res.AutoRuling, res.Debate.State)
			}
			checkLastWord(t, s, id)
		})
	}
}

// checkLastWord checks that debate id keeps the seq of its newest
// INTERVENTION or RULING (0 if none) as last_word_seq.
func checkLastWord(t *testing.T, s *Store, id string) {
	t.Helper()
	ctx := context.Background()
	_, args, err := s.Since(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, a := range args {
		if a.Type == protocol.Intervention || a.Type == protocol.Ruling {
			want = a.Seq
		}
	}
	if got := lastWordSeq(t, s, id); got != want {
		t.Errorf("last_word_seq of %s is %d, want %d", id, got, want)
	}
}

// lastWordSeq reads last_word_seq of debate id from s's database.
func lastWordSeq(t testing.TB, s *Store, id string) int {
	t.Helper()
	ctx := context.Background()
	var n int
	var err error
	switch db := s.db.(type) {
	case *pgDB:
		err = db.pool.QueryRow(ctx, `SELECT last_word_seq FROM debates WHERE id = $1`, id).Scan(&n)
	case *sqliteDB:
		err = db.r.QueryRowContext(ctx, `SELECT last_word_seq FROM debates WHERE id = ?`, id).Scan(&n)
	}
	if err != nil {
		t.Fatalf("read last_word_seq of %s: %v", id, err)
	}
	return n
}

// TestRulingRuleInBatch commits an INTERVENTION, a RULING and a proposer's
// write answering the CLAIM before them in one batch: the write is refused,
// naming the RULING written before it in the same transaction. The next
// write, whose head comes from memory, is refused the same way, and one
// answering the RULING is accepted.
func TestRulingRuleInBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s := openAt(t, path, Options{})
	motion := mustCreate(t, s, "d")
	c2 := claim(t, s, "d", protocol.Opponent, motion.ID, "c2")
	other := mustCreate(t, s, "e")
	bypass := protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: c2.ID, Content: "late", ClientRequestID: "late"}
	submit := func(w protocol.Write) func(context.Context) (protocol.Result, error) {
		return func(ctx context.Context) (protocol.Result, error) { return s.Submit(ctx, w) }
	}

	release := holdWriteLock(t, path)
	before := sqliteOf(s).wr.commits.Load()
	outs := queueWrites(t, s, nil, []func(context.Context) (protocol.Result, error){
		submit(protocol.Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "hold on"}),
		submit(protocol.Write{DebateID: "d", Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "cite your sources"}),
		submit(bypass),
		submit(protocol.Write{DebateID: "e", Type: protocol.Claim, Role: protocol.Opponent, TargetID: other.ID, Content: "c", ClientRequestID: "e2"}),
	})
	release()
	var got []submitted
	for _, ch := range outs {
		got = append(got, <-ch)
	}
	if n := sqliteOf(s).wr.commits.Load() - before; n != 1 {
		t.Fatalf("%d commits, want the writes in one batch", n)
	}
	for i, g := range []submitted{got[0], got[1], got[3]} {
		if g.err != nil {
			t.Fatalf("write %d: %v", i, g.err)
		}
	}
	ruling := got[1].res.Argument
	want := protocol.CheckTarget(protocol.AwaitingProposer, protocol.Claim, protocol.Proposer,
		protocol.Argument{ID: c2.ID, DebateID: "d", Seq: c2.Seq}, ruling)
	if got[2].err == nil || got[2].err.Error() != want.Error() {
		t.Fatalf("bypassing write in the batch: %v, want %v", got[2].err, want)
	}
	checkLastWord(t, s, "d")
	checkLastWord(t, s, "e")

	hits := sqliteOf(s).wr.fromMemory.Load()
	bypass.ClientRequestID = "later"
	if _, err := s.Submit(ctx, bypass); err == nil || err.Error() != want.Error() {
		t.Fatalf("bypassing write after the batch: %v, want %v", err, want)
	}
	if sqliteOf(s).wr.fromMemory.Load() != hits+1 {
		t.Error("the write after the batch did not take its head from memory")
	}
	res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: ruling.ID, Content: "sourced", ClientRequestID: "aligned"})
	if err != nil || res.Argument.Seq != ruling.Seq+1 {
		t.Fatalf("claim answering the ruling: %+v, %v", res.Argument, err)
	}
	checkLastWord(t, s, "d")
}

// TestRefusalLeadsToNewest is the branch an agent made by following a
// refusal: after RULING #4 and the proposer's aligned CLAIM #5, the opponent
// answers the MOTION. The refusal must send it to #5, the newest argument,
// and the write it suggests must be accepted as #6 answering #5, so that no
// argument is answered twice.
func TestRefusalLeadsToNewest(t *testing.T) {
	t.Parallel()
	forBackends(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := openAt(t, db, Options{})
		motion := mustCreate(t, s, "d")
		prev := motion
		for i, mv := range []struct {
			typ protocol.ArgType
			by  protocol.Role
		}{
			{protocol.Claim, protocol.Opponent}, {protocol.Appeal, protocol.Proposer},
			{protocol.Ruling, protocol.Arbitrator}, {protocol.Claim, protocol.Proposer},
		} {
			res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: mv.typ, Role: mv.by, TargetID: prev.ID,
				Content: "move", ClientRequestID: fmt.Sprint("k", i)})
			if err != nil {
				t.Fatal(err)
			}
			prev = res.Argument
		}
		_, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Opponent,
			TargetID: motion.ID, Content: "late answer", ClientRequestID: "late"})
		pe := wantCode(t, err, protocol.CodeActionNotAllowed)
		if !strings.Contains(pe.Suggestion, "#5") {
			t.Fatalf("suggestion %q does not name #5", pe.Suggestion)
		}
		_, target, ok := strings.Cut(pe.Suggestion, "--target-id ")
		target, _, _ = strings.Cut(target, " ")
		if !ok || target != prev.ID {
			t.Fatalf("suggestion %q targets %q, want #5 %s", pe.Suggestion, target, prev.ID)
		}
		res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Opponent,
			TargetID: target, Content: "late answer", ClientRequestID: "late"})
		if err != nil || res.Argument.Seq != 6 || res.Argument.ParentID != prev.ID {
			t.Fatalf("following the suggestion: %+v, %v; want #6 answering #5", res.Argument, err)
		}
		_, all, err := s.Since(ctx, "d", 0)
		if err != nil {
			t.Fatal(err)
		}
		answered := map[string]int{}
		for _, a := range all {
			if a.ParentID != "" {
				answered[a.ParentID]++
			}
		}
		for _, a := range all {
			if answered[a.ID] > 1 {
				t.Errorf("#%d is answered %d times: the debate branches", a.Seq, answered[a.ID])
			}
		}
	})
}

// TestAutoRulingFailureLeavesResolution: when the database refuses the
// closing RULING (a trigger here), the RESOLUTION stands, committed, with
// no AutoRuling, the failure is logged, and the arbitrator can still rule.
func TestAutoRulingFailureLeavesResolution(t *testing.T) {
	t.Parallel()
	forBackends(t, testAutoRulingFailureLeavesResolution)
}

func testAutoRulingFailureLeavesResolution(t *testing.T, db string) {
	ctx := context.Background()
	var logged testkit.Buffer
	s := openAt(t, db, Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	refuseAutoRulings(t, db)
	motion := mustCreate(t, s, "d")
	c := claim(t, s, "d", protocol.Opponent, motion.ID, "c1")
	res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Resolution, Role: protocol.Proposer,
		TargetID: c.ID, Content: "done", ClientRequestID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if res.AutoRuling != nil || res.Argument.Seq != 3 || res.Debate.State != protocol.AwaitingArbitrator {
		t.Fatalf("resolution: %+v, auto-ruling %v, state %s; want #3 standing alone, awaiting the arbitrator", res.Argument, res.AutoRuling, res.Debate.State)
	}
	if !strings.Contains(logged.String(), "auto-ruling failed; the resolution stands") || !strings.Contains(logged.String(), "refused by the test trigger") {
		t.Errorf("log %q does not report the failed auto-ruling", logged.String())
	}
	d, args, err := s.Since(ctx, "d", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != 3 || args[2].ID != res.Argument.ID || d.State != protocol.AwaitingArbitrator {
		t.Fatalf("stored: %d arguments, state %s; want the resolution last, awaiting the arbitrator", len(args), d.State)
	}
	ruling, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Ruling, Role: protocol.Arbitrator,
		TargetID: res.Argument.ID, Content: "approved", Close: true})
	if err != nil || ruling.Debate.State != protocol.Closed || ruling.Argument.Seq != 4 {
		t.Fatalf("the arbitrator's ruling: %+v, %v", ruling, err)
	}
	checkLastWord(t, s, "d")
}

// refuseAutoRulings installs, in the database db, a trigger that refuses
// every argument whose client_request_id is that of an auto-ruling.
func refuseAutoRulings(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	if IsPostgres(db) {
		conn, err := pgx.Connect(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'refused by the test trigger'; END $$;
CREATE TRIGGER refuse BEFORE INSERT ON arguments FOR EACH ROW
	WHEN (NEW.client_request_id LIKE 'auto-ruling:%') EXECUTE FUNCTION refuse()`); err != nil {
			t.Fatal(err)
		}
		return
	}
	conn, err := sql.Open("sqlite", db+"?"+pragmas(DefaultBusyTimeout).Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(`CREATE TRIGGER refuse BEFORE INSERT ON arguments WHEN NEW.client_request_id LIKE 'auto-ruling:%'
BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END`); err != nil {
		t.Fatal(err)
	}
}
