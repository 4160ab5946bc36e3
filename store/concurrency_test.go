package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/protocol"
)

// childEnv makes the test binary a child writer (see TestMain): it writes
// CLAIMs to the debate "k" in the database named by the variable's value and
// prints "seq key id" for every write Submit acknowledged.
const childEnv = "DEBATE_STORE_TEST_CHILD_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		if err := childWriter(path, os.Getenv(childEnv+"_ROUND")); err != nil {
			fmt.Fprintln(os.Stderr, "child writer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m))
}

// childWriter writes until it is killed.
func childWriter(path, round string) error {
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	w, err := s.Wait(ctx, "k", protocol.Proposer, "", 0)
	if err != nil {
		return err
	}
	target, state := w.Argument.ID, w.Debate.State
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		role := protocol.Opponent
		if state == protocol.AwaitingProposer {
			role = protocol.Proposer
		}
		key := fmt.Sprintf("r%s-%d", round, i)
		res, err := s.Submit(ctx, protocol.Write{DebateID: "k", Type: protocol.Claim, Role: role, TargetID: target,
			Content: "claim " + key, ClientRequestID: key})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%d %s %s\n", res.Argument.Seq, key, res.Argument.ID)
		if err := out.Flush(); err != nil {
			return err
		}
		target, state = res.Argument.ID, res.Debate.State
	}
}

type ack struct {
	seq int
	key string
	id  string
}

// TestKillDuringWrites kills a child process writing in a loop with SIGKILL,
// three times, and checks after each kill that the database is consistent and
// holds every write the child acknowledged.
func TestKillDuringWrites(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "k")
	s.Close()

	var acked []ack
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path, childEnv+"_ROUND="+strconv.Itoa(round))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		n := 0
		for sc.Scan() {
			var a ack
			if _, err := fmt.Sscanf(sc.Text(), "%d %s %s", &a.seq, &a.key, &a.id); err != nil {
				t.Fatalf("child wrote %q: %v", sc.Text(), err)
			}
			acked = append(acked, a)
			n++
			// Kill at a different point of the write loop each round.
			if n == 200+round*37 {
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
			}
		}
		err = cmd.Wait()
		if n < 200 {
			t.Fatalf("round %d: child stopped after %d writes: %v\n%s", round, n, err, stderr.String())
		}

		s := openAt(t, path, Options{})
		if err := s.IntegrityCheck(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_, args, err := s.Since(ctx, "k", 0)
		if err != nil {
			t.Fatal(err)
		}
		checkContiguous(t, args)
		byKey := map[string]protocol.Argument{}
		for _, a := range args {
			byKey[a.ClientRequestID] = a
		}
		for _, a := range acked {
			got, ok := byKey[a.key]
			if !ok || got.Seq != a.seq || got.ID != a.id {
				t.Fatalf("round %d: acknowledged write %+v lost (stored %+v)", round, a, got)
			}
		}
		if len(args) < len(acked)+1 {
			t.Fatalf("round %d: %d arguments stored, %d acknowledged", round, len(args), len(acked))
		}
		t.Logf("round %d: killed after %d acknowledged writes; %d arguments stored", round, n, len(args))
		s.Close()
	}
}

// checkContiguous checks seq 1..n without gaps or duplicates, parents that
// precede their children, and states that follow the state machine.
func checkContiguous(t testing.TB, args []protocol.Argument) {
	t.Helper()
	seqOf := map[string]int{}
	state := protocol.None
	for i, a := range args {
		if a.Seq != i+1 {
			t.Fatalf("argument %d has seq %d", i, a.Seq)
		}
		if a.ParentID != "" {
			if p, ok := seqOf[a.ParentID]; !ok || p >= a.Seq {
				t.Fatalf("seq %d: parent %s is not an earlier argument", a.Seq, a.ParentID)
			}
		} else if a.Type != protocol.Motion {
			t.Fatalf("seq %d (%s) has no parent", a.Seq, a.Type)
		}
		next, err := protocol.Transition(state, a.Type, a.Role, a.StateAfter == protocol.Closed)
		if err != nil || next != a.StateAfter {
			t.Fatalf("seq %d: %s by %s from %s gives %s (%v), stored %s", a.Seq, a.Type, a.Role, state, next, err, a.StateAfter)
		}
		state = next
		seqOf[a.ID] = a.Seq
	}
}

// TestConcurrentWriters runs 100 goroutines on one debate through two Stores
// (two connection pools, or two replicas) on one database, mixing CLAIMs by
// both roles, interventions and rulings, and replays of earlier writes.
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	forBackends(t, testConcurrentWriters)
}

func testConcurrentWriters(t *testing.T, db string) {
	ctx := context.Background()
	stores := []*Store{openAt(t, db, Options{}), openAt(t, db, Options{})}
	mustCreate(t, stores[0], "c")

	var (
		mu      sync.Mutex
		written = map[string]protocol.Argument{} // client request id → original
		refused int
		replays int
	)
	var wg sync.WaitGroup
	for g := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[g%2]
			var mine []protocol.Write
			for i := range 20 {
				if i%4 == 3 && len(mine) > 0 {
					w := mine[i%len(mine)]
					w.Content = "changed on replay"
					res, err := s.Submit(ctx, w)
					mu.Lock()
					orig := written[w.ClientRequestID]
					replays++
					mu.Unlock()
					if err != nil || !res.Replay || res.Argument != orig {
						t.Errorf("replay of %s: got %+v, %v; want the original %+v", w.ClientRequestID, res.Argument, err, orig)
					}
					continue
				}
				newest, err := s.Wait(ctx, "c", protocol.Proposer, "", 0)
				if err != nil {
					t.Error(err)
					return
				}
				w := protocol.Write{DebateID: "c", Type: protocol.Claim, TargetID: newest.Argument.ID,
					Content: fmt.Sprintf("g%d i%d", g, i), ClientRequestID: fmt.Sprintf("g%d-%d", g, i)}
				switch g % 10 {
				case 9:
					w.Role, w.Type = protocol.Arbitrator, protocol.Intervention
				case 8:
					w.Role, w.Type = protocol.Arbitrator, protocol.Ruling
				default:
					w.Role = []protocol.Role{protocol.Proposer, protocol.Opponent}[(g+i)%2]
				}
				res, err := s.Submit(ctx, w)
				if protocol.CodeOf(err) == protocol.CodeActionNotAllowed {
					mu.Lock()
					refused++
					mu.Unlock()
					continue
				}
				if err != nil || res.Replay {
					t.Errorf("write %s: %+v, %v", w.ClientRequestID, res, err)
					continue
				}
				mu.Lock()
				written[w.ClientRequestID] = res.Argument
				mu.Unlock()
				mine = append(mine, w)
			}
		}()
	}
	wg.Wait()

	_, args, err := stores[1].Since(ctx, "c", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, args)
	if len(args) != len(written)+1 {
		t.Errorf("%d arguments stored, %d writes succeeded (+1 motion)", len(args), len(written))
	}
	for _, a := range args[1:] {
		if orig, ok := written[a.ClientRequestID]; !ok || orig != a {
			t.Errorf("stored %+v, acknowledged %+v", a, orig)
		}
	}
	for _, s := range stores {
		if err := s.IntegrityCheck(ctx); err != nil {
			t.Error(err)
		}
	}
	if len(written) < 100 || replays < 50 || refused == 0 {
		t.Errorf("too little mixing: %d writes, %d replays, %d refusals", len(written), replays, refused)
	}
	t.Logf("%d writes, %d replays, %d refused by the state machine", len(written), replays, refused)
}
