package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/protocol"
)

// waitLong is a timeout no passing test reaches; it only bounds a broken one.
const waitLong = 30 * time.Second

func claim(t testing.TB, s *Store, debate string, role protocol.Role, target, key string) protocol.Argument {
	t.Helper()
	res, err := s.Submit(context.Background(), protocol.Write{DebateID: debate, Type: protocol.Claim, Role: role,
		TargetID: target, Content: "claim " + key, ClientRequestID: key})
	if err != nil {
		t.Fatal(err)
	}
	return res.Argument
}

// waitSubscribed blocks until s has n subscribers, so a following write
// exercises the wake-up rather than the first read.
func waitSubscribed(s *Store, n int) {
	waitSubscribers(s, func(c int) bool { return c >= n })
}

// waitSubscribers blocks until done holds for the number of s's
// subscribers, checked each time it changes.
func waitSubscribers(s *Store, done func(int) bool) {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	for !done(h.count) {
		h.counted.Wait()
	}
}

func TestWaitAnswersAtOnce(t *testing.T) {
	t.Parallel()
	forBackends(t, testWaitAnswersAtOnce)
}

func testWaitAnswersAtOnce(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	c := claim(t, s, "d", protocol.Opponent, motion.ID, "k1")
	closedMotion := mustCreate(t, s, "closed")
	ruled, err := s.Submit(ctx, protocol.Write{DebateID: "closed", Type: protocol.Intervention, Role: protocol.Arbitrator})
	if err != nil {
		t.Fatal(err)
	}
	closing, err := s.Submit(ctx, protocol.Write{DebateID: "closed", Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "stop", Close: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		debate  string
		role    protocol.Role
		after   string
		timeout time.Duration
		hasNew  bool
		argID   string
		action  protocol.Action
		args    []string // ids of Arguments
	}{
		{"no after: newest", "d", protocol.Proposer, "", waitLong, true, c.ID, protocol.Respond, []string{c.ID}},
		{"after motion, proposer", "d", protocol.Proposer, motion.ID, waitLong, true, c.ID, protocol.Respond, []string{c.ID}},
		{"after motion, arbitrator", "d", protocol.Arbitrator, motion.ID, 0, true, c.ID, protocol.WaitForProposer, []string{c.ID}},
		{"nothing new, no wait", "d", protocol.Opponent, c.ID, 0, false, "", "", nil},
		{"nothing new, short wait", "d", protocol.Opponent, c.ID, time.Millisecond, false, "", "", nil},
		{"closed, nothing new", "closed", protocol.Opponent, closing.Argument.ID, waitLong, false, closing.Argument.ID, protocol.DebateClosed, nil},
		{"closed, new", "closed", protocol.Proposer, ruled.Argument.ID, waitLong, true, closing.Argument.ID, protocol.DebateClosed, []string{closing.Argument.ID}},
		{"closed, two new", "closed", protocol.Opponent, closedMotion.ID, 0, true, closing.Argument.ID, protocol.DebateClosed, []string{ruled.Argument.ID, closing.Argument.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Wait(ctx, tt.debate, tt.role, tt.after, tt.timeout)
			if err != nil {
				t.Fatal(err)
			}
			if res.HasNew != tt.hasNew || res.Argument.ID != tt.argID || res.Action != tt.action {
				t.Errorf("got new=%v arg=%s action=%q, want new=%v arg=%s action=%q", res.HasNew, res.Argument.ID, res.Action, tt.hasNew, tt.argID, tt.action)
			}
			var ids []string
			for _, a := range res.Arguments {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, tt.args) {
				t.Errorf("arguments %v, want %v", ids, tt.args)
			}
		})
	}
}

func TestWaitErrors(t *testing.T) {
	t.Parallel()
	forBackends(t, testWaitErrors)
}

func testWaitErrors(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	other := mustCreate(t, s, "other")
	tests := []struct {
		name   string
		debate string
		role   protocol.Role
		after  string
		code   protocol.Code
	}{
		{"bad role", "d", "judge", "", protocol.CodeInvalidInput},
		{"unknown debate", "ghost", protocol.Proposer, "", protocol.CodeDebateNotFound},
		{"unknown debate with after", "ghost", protocol.Proposer, motion.ID, protocol.CodeDebateNotFound},
		{"after from another debate", "d", protocol.Proposer, other.ID, protocol.CodeInvalidInput},
		{"unknown after", "d", protocol.Proposer, "nope", protocol.CodeInvalidInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Wait(ctx, tt.debate, tt.role, tt.after, 0)
			wantCode(t, err, tt.code)
		})
	}

	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := s.Wait(cctx, "d", protocol.Opponent, motion.ID, waitLong)
		done <- err
	}()
	waitSubscribed(s, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}

	go func() {
		_, err := s.Wait(ctx, "d", protocol.Opponent, motion.ID, waitLong)
		done <- err
	}()
	waitSubscribed(s, 1)
	if err := s.Delete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, protocol.CodeDebateNotFound)
}

// TestWaitForeignArgumentSuggests: a wait after an argument of another
// debate is refused with what that role should do next in this debate, in
// each of its states: the newest argument by number and id, that get-context
// lists them all, and the command (answer it, wait after it, rule, or read).
func TestWaitForeignArgumentSuggests(t *testing.T) {
	t.Parallel()
	forBackends(t, testWaitForeignArgumentSuggests)
}

func testWaitForeignArgumentSuggests(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	foreign := mustCreate(t, s, "elsewhere")
	newest := map[string]protocol.Argument{}
	newest["opponent-turn"] = mustCreate(t, s, "opponent-turn")
	motion := mustCreate(t, s, "proposer-turn")
	newest["proposer-turn"] = claim(t, s, "proposer-turn", protocol.Opponent, motion.ID, "p1")
	motion = mustCreate(t, s, "arbitrator-turn")
	c := claim(t, s, "arbitrator-turn", protocol.Opponent, motion.ID, "a1")
	appeal, err := s.Submit(ctx, protocol.Write{DebateID: "arbitrator-turn", Type: protocol.Appeal, Role: protocol.Proposer,
		TargetID: c.ID, Content: "Question: which option?", ClientRequestID: "a2"})
	if err != nil {
		t.Fatal(err)
	}
	newest["arbitrator-turn"] = appeal.Argument
	mustCreate(t, s, "closed")
	if _, err := s.Submit(ctx, protocol.Write{DebateID: "closed", Type: protocol.Intervention, Role: protocol.Arbitrator}); err != nil {
		t.Fatal(err)
	}
	closing, err := s.Submit(ctx, protocol.Write{DebateID: "closed", Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "stop", Close: true})
	if err != nil {
		t.Fatal(err)
	}
	newest["closed"] = closing.Argument

	submit := func(debate string, role protocol.Role) string {
		return "debate submit --debate-id " + debate + " --role " + string(role) + " --target-id " + newest[debate].ID
	}
	wait := func(debate string, role protocol.Role) string {
		return "debate wait --debate-id " + debate + " --role " + string(role) + " --argument-id " + newest[debate].ID
	}
	tests := []struct {
		debate string
		role   protocol.Role
		want   string // the command the suggestion must name
	}{
		{"opponent-turn", protocol.Opponent, submit("opponent-turn", protocol.Opponent)},
		{"opponent-turn", protocol.Proposer, wait("opponent-turn", protocol.Proposer)},
		{"opponent-turn", protocol.Arbitrator, wait("opponent-turn", protocol.Arbitrator)},
		{"proposer-turn", protocol.Proposer, submit("proposer-turn", protocol.Proposer)},
		{"proposer-turn", protocol.Opponent, wait("proposer-turn", protocol.Opponent)},
		{"proposer-turn", protocol.Arbitrator, wait("proposer-turn", protocol.Arbitrator)},
		{"arbitrator-turn", protocol.Arbitrator, "debate ruling --debate-id arbitrator-turn"},
		{"arbitrator-turn", protocol.Proposer, wait("arbitrator-turn", protocol.Proposer)},
		{"arbitrator-turn", protocol.Opponent, wait("arbitrator-turn", protocol.Opponent)},
		{"closed", protocol.Proposer, "read #3"},
		{"closed", protocol.Opponent, "read #3"},
		{"closed", protocol.Arbitrator, "read #3"},
	}
	for _, tt := range tests {
		t.Run(tt.debate+"/"+string(tt.role), func(t *testing.T) {
			_, err := s.Wait(ctx, tt.debate, tt.role, foreign.ID, 0)
			pe := wantCode(t, err, protocol.CodeInvalidInput)
			n := newest[tt.debate]
			for _, want := range []string{
				"`debate get-context --debate-id " + tt.debate + "` lists this debate's arguments",
				"the newest is the one to use: ",
				protocol.Describe(n),
				tt.want,
			} {
				if !strings.Contains(pe.Suggestion, want) {
					t.Errorf("suggestion %q lacks %q", pe.Suggestion, want)
				}
			}
			if strings.Contains(pe.Suggestion, foreign.ID) {
				t.Errorf("suggestion %q names the other debate's argument", pe.Suggestion)
			}
		})
	}
}

func TestWaitWakes(t *testing.T) {
	t.Parallel()
	forBackends(t, testWaitWakes)
}

func testWaitWakes(t *testing.T, db string) {
	a := openAt(t, db, Options{})
	b := openAt(t, db, Options{PollInterval: 5 * time.Millisecond})
	motion := mustCreate(t, a, "d")
	tests := []struct {
		name   string
		waiter *Store
	}{
		{"same store", a},
		{"other store on the same database", b},
	}
	after := motion.ID
	roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type out struct {
				res protocol.WaitResult
				err error
			}
			done := make(chan out, 1)
			waiter := roles[(i+1)%2]
			go func() {
				res, err := tt.waiter.Wait(context.Background(), "d", waiter, after, waitLong)
				done <- out{res, err}
			}()
			waitSubscribed(tt.waiter, 1)
			written := claim(t, a, "d", roles[i%2], after, tt.name)
			got := <-done
			if got.err != nil || !got.res.HasNew || got.res.Argument.ID != written.ID || got.res.Action != protocol.Respond {
				t.Fatalf("got %+v, %v; want %s with respond", got.res, got.err, written.ID)
			}
			after = written.ID
		})
	}
}

func TestSubscribeSince(t *testing.T) {
	t.Parallel()
	forBackends(t, testSubscribeSince)
}

func testSubscribeSince(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	ch, cancel := s.Subscribe("d")
	defer cancel()
	c1 := claim(t, s, "d", protocol.Opponent, motion.ID, "k1")
	c2 := claim(t, s, "d", protocol.Proposer, c1.ID, "k2")
	select {
	case <-ch:
	default:
		t.Fatal("no signal after two commits")
	}
	d, args, err := s.Since(ctx, "d", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != 2 || args[0].ID != c1.ID || args[1].ID != c2.ID || d.State != protocol.AwaitingOpponent {
		t.Fatalf("Since(1) = %v, %+v", args, d)
	}
	cancel()
	cancel()
	// A watcher that read the database before the cancel may have signalled
	// once more; what matters is that nothing comes after.
	select {
	case <-ch:
	default:
	}
	claim(t, s, "d", protocol.Opponent, c2.ID, "k3")
	select {
	case <-ch:
		t.Error("signal after cancel")
	default:
	}
}

// TestSubscribeAllDebates: a subscription to every debate is signalled by a
// create, a write and a delete of any debate, and by a commit of another
// process on the same database.
func TestSubscribeAllDebates(t *testing.T) {
	t.Parallel()
	forBackends(t, testSubscribeAllDebates)
}

func testSubscribeAllDebates(t *testing.T, db string) {
	a := openAt(t, db, Options{PollInterval: 5 * time.Millisecond})
	other := openAt(t, db, Options{})
	ch, cancel := a.Subscribe(AllDebates)
	defer cancel()
	got := func(what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(waitLong):
			t.Fatalf("%s: no signal", what)
		}
	}
	drain := func() {
		select {
		case <-ch:
		default:
		}
	}
	motion := mustCreate(t, a, "d1")
	got("create")
	drain()
	claim(t, a, "d1", protocol.Opponent, motion.ID, "k1")
	got("write")
	drain()
	mustCreate(t, other, "d2")
	got("create by another store on the same database")
	drain()
	if err := a.Delete(context.Background(), "d2"); err != nil {
		t.Fatal(err)
	}
	got("delete")
}

// TestHubWakesOncePerCommit: whatever order a commit reaches the hub in
// (notified by this Store, announced by the database, read by the watcher
// before or after the commit), a subscriber is woken once per commit that is
// news and never by a read older than what it was told.
func TestHubWakesOncePerCommit(t *testing.T) {
	t.Parallel()
	type event struct {
		kind  string // notify, heard, moved (a read begun before the previous local commit), fresh (a read begun after)
		seq   int
		wakes bool
	}
	for _, tt := range []struct {
		name   string
		known  int
		events []event
	}{
		{"local commit then its announcement", 2, []event{{"notify", 3, true}, {"heard", 3, false}}},
		{"announcement then the local notify", 2, []event{{"heard", 3, true}, {"notify", 3, false}}},
		{"stale read after a local commit", 2, []event{{"notify", 4, true}, {"moved", 2, false}, {"fresh", 4, false}}},
		{"watcher first on an unknown debate", -1, []event{{"fresh", 2, true}, {"notify", 2, false}}},
		{"stale read before the first local notify", -1, []event{{"notify", 4, true}, {"moved", 2, false}}},
		{"commit by another process", 4, []event{{"fresh", 5, true}, {"fresh", 5, false}}},
		{"delete by this Store, then announced", 4, []event{{"notify", 0, true}, {"heard", 0, false}, {"fresh", 0, false}}},
		{"delete by another process", 4, []event{{"fresh", 0, true}}},
		{"stale empty read of a debate just created", -1, []event{{"notify", 1, true}, {"moved", 0, false}, {"fresh", 1, false}}},
		{"recreated after a delete", 3, []event{{"notify", 0, true}, {"notify", 1, true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHub(&Store{heads: newHeads(0)})
			ch := make(chan struct{}, 1)
			h.subs["d"] = map[chan struct{}]struct{}{ch: {}}
			h.known["d"] = tt.known
			for i, e := range tt.events {
				switch e.kind {
				case "notify":
					h.notify("d", e.seq)
				case "heard":
					h.heard("d", e.seq)
				case "moved":
					h.moved([]string{"d"}, []int{e.seq}, h.local-1)
				case "fresh":
					h.moved([]string{"d"}, []int{e.seq}, h.local)
				}
				woke := false
				select {
				case <-ch:
					woke = true
				default:
				}
				if woke != e.wakes {
					t.Errorf("event %d (%s %d): woke %v, want %v", i, e.kind, e.seq, woke, e.wakes)
				}
			}
		})
	}
}

// TestNoWakeUpLostAcrossStores: two stores on one database, as two processes
// are, play a proposer (on one) and an opponent (on the other) through
// thousands of alternating writes, each waiting on its own store for the
// other's write: every wait must end with the argument the other committed,
// never with the wait's deadline.
func TestNoWakeUpLostAcrossStores(t *testing.T) {
	t.Parallel()
	forBackends(t, testNoWakeUpLostAcrossStores)
}

func testNoWakeUpLostAcrossStores(t *testing.T, db string) {
	const rounds = 1000 // each a write by each side
	stores := []*Store{
		openAt(t, db, Options{PollInterval: time.Millisecond}),
		openAt(t, db, Options{PollInterval: time.Millisecond}),
	}
	motion := mustCreate(t, stores[0], "d")
	roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
	errs := make(chan error, len(roles))
	for i, role := range roles {
		go func() { errs <- alternate(stores[i], role, motion.ID, i == 0, rounds) }()
	}
	for range roles {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// alternate plays role on s for rounds writes: it answers the newest
// argument, then waits for the other side's answer to it. The side that
// moves first writes before its first wait.
func alternate(s *Store, role protocol.Role, motion string, first bool, rounds int) error {
	ctx := context.Background()
	seen := motion
	for i := range rounds {
		if !first || i > 0 {
			res, err := s.Wait(ctx, "d", role, seen, waitLong)
			if err != nil {
				return fmt.Errorf("%s, round %d: %w", role, i, err)
			}
			if !res.HasNew {
				return fmt.Errorf("%s, round %d: the wait after seq %d ran out although the other side had written (%+v)", role, i, res.LastSeenSeq, res)
			}
			seen = res.Argument.ID
		}
		res, err := s.Submit(ctx, protocol.Write{DebateID: "d", Type: protocol.Claim, Role: role,
			TargetID: seen, Content: "claim", ClientRequestID: fmt.Sprintf("%s-%d", role, i)})
		if err != nil {
			return fmt.Errorf("%s, round %d: %w", role, i, err)
		}
		seen = res.Argument.ID
	}
	return nil
}
