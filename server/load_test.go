package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// TestLoad measures the server as SPEC Part 3 describes: 32 writer agents
// (each on its own debate, alternating opponent and proposer CLAIMs) and 32
// polling agents over HTTP on loopback, for DEBATE_LOAD_DURATION (5s by
// default); then the wake latency from a submit to a waiting long-poll; then
// the correctness of 100 concurrent writers on one debate mixing replays.
// It runs only with DEBATE_LOAD=1 and prints its figures:
//
//	DEBATE_LOAD=1 go test -run TestLoad -v ./server/
func TestLoad(t *testing.T) {
	if os.Getenv("DEBATE_LOAD") != "1" {
		t.Skip("set DEBATE_LOAD=1 to run the load measurement")
	}
	dur := 5 * time.Second
	if v := os.Getenv("DEBATE_LOAD_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		dur = d
	}
	st, err := store.Open(context.Background(), testDB(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := New(st, Options{Logger: discardLogger()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	lc := &loadClient{base: "http://" + ln.Addr().String(), hc: &http.Client{Transport: &http.Transport{
		MaxIdleConns: 256, MaxIdleConnsPerHost: 256, DisableCompression: true}}}

	t.Run("throughput", func(t *testing.T) { loadThroughput(t, lc, dur) })
	t.Run("wake", func(t *testing.T) { loadWake(t, lc, lc, srv) })
	t.Run("one-debate", func(t *testing.T) { loadOneDebate(t, []*loadClient{lc}, st) })
}

type loadClient struct {
	base string
	hc   *http.Client
}

// call sends a request and decodes the data of the answer into out (when
// not nil); it returns the status.
func (c *loadClient) call(method, path string, body any, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && res.StatusCode < 300 {
		env := struct {
			Data any `json:"data"`
		}{out}
		if err := json.Unmarshal(raw, &env); err != nil {
			return res.StatusCode, err
		}
	}
	return res.StatusCode, nil
}

func (c *loadClient) create(id string) (api.WriteResult, error) {
	var res api.WriteResult
	st, err := c.call("POST", "/debates", api.CreateDebateRequest{DebateID: id, Title: "load", DebateType: "general_debate",
		MotionContent: "A motion of ordinary length.", ClientRequestID: "create-" + id}, &res)
	if err == nil && st != 201 {
		err = fmt.Errorf("create %s: HTTP %d", id, st)
	}
	return res, err
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }

func loadThroughput(t *testing.T, c *loadClient, dur time.Duration) {
	const writers, pollers = 32, 32
	for i := range writers {
		if _, err := c.create(fmt.Sprint("w", i)); err != nil {
			t.Fatal(err)
		}
	}
	var wmu, pmu sync.Mutex
	var wlat, plat []time.Duration
	var failures atomic.Int64
	deadline := time.Now().Add(dur)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			id := fmt.Sprint("w", i)
			target := ""
			var ctx api.DebateContext
			if _, err := c.call("GET", "/debates/"+id+"?limit=0", nil, &ctx); err == nil && ctx.Motion != nil {
				target = ctx.Motion.ID
			}
			roles := []string{"opponent", "proposer"}
			lat := make([]time.Duration, 0, 4096)
			for n := 0; time.Now().Before(deadline); n++ {
				var res api.WriteResult
				t0 := time.Now()
				st, err := c.call("POST", "/debates/"+id+"/arguments", api.ArgumentRequest{Role: roles[n%2], TargetID: target,
					Content: "A claim of ordinary length, a sentence or two of text.", ClientRequestID: fmt.Sprint(id, "-", n)}, &res)
				lat = append(lat, time.Since(t0))
				if err != nil || st != 201 {
					failures.Add(1)
					return
				}
				target = res.Argument.ID
			}
			wmu.Lock()
			wlat = append(wlat, lat...)
			wmu.Unlock()
		})
	}
	for i := range pollers {
		wg.Go(func() {
			path := fmt.Sprintf("/debates/w%d/poll?role=proposer", i%writers)
			lat := make([]time.Duration, 0, 4096)
			for time.Now().Before(deadline) {
				var p api.PollResult
				t0 := time.Now()
				st, err := c.call("GET", path, nil, &p)
				lat = append(lat, time.Since(t0))
				if err != nil || st != 200 {
					failures.Add(1)
					return
				}
			}
			pmu.Lock()
			plat = append(plat, lat...)
			pmu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if f := failures.Load(); f > 0 {
		t.Errorf("%d agents failed", f)
	}
	t.Logf("%d writers + %d pollers for %v on loopback (GOMAXPROCS=%d, one machine for server and load)", writers, pollers, elapsed.Round(time.Millisecond), runtimeProcs())
	t.Logf("writes: %d = %.0f/s  p50 %s  p99 %s", len(wlat), float64(len(wlat))/elapsed.Seconds(), ms(percentile(wlat, .50)), ms(percentile(wlat, .99)))
	t.Logf("polls:  %d = %.0f/s  p50 %s  p99 %s", len(plat), float64(len(plat))/elapsed.Seconds(), ms(percentile(plat, .50)), ms(percentile(plat, .99)))
}

// loadWake measures submit → a waiting long-poll's answer, one waiter at a
// time, on an otherwise idle server: the waiter polls through waiter, served
// by srv, and the writes go through writer (the same server, or another
// replica on the same database). It returns the median.
func loadWake(t *testing.T, waiter, writer *loadClient, srv *Server) time.Duration {
	const rounds = 200
	res, err := writer.create("wake")
	if err != nil {
		t.Fatal(err)
	}
	last := res.Argument.ID
	roles := []string{"opponent", "proposer"}
	lat := make([]time.Duration, 0, rounds)
	for n := range rounds {
		role := roles[(n+1)%2]
		got := make(chan api.PollResult, 1)
		woke := make(chan time.Time, 1)
		go func() {
			var p api.PollResult
			waiter.call("GET", "/debates/wake/poll?wait=30&role="+role+"&argument_id="+last, nil, &p)
			woke <- time.Now()
			got <- p
		}()
		waitFor(func() bool { return srv.waiting.Load() == 1 })
		t0 := time.Now()
		var w api.WriteResult
		if st, err := writer.call("POST", "/debates/wake/arguments", api.ArgumentRequest{Role: roles[n%2], TargetID: last,
			Content: "Wake up.", ClientRequestID: fmt.Sprint("wake-", n)}, &w); err != nil || st != 201 {
			t.Fatalf("submit: %d %v", st, err)
		}
		t1 := <-woke
		if p := <-got; p.Argument == nil || p.Argument.ID != w.Argument.ID {
			t.Fatalf("waiter got %+v, want %s", p, w.Argument.ID)
		}
		lat = append(lat, t1.Sub(t0))
		last = w.Argument.ID
	}
	p50 := percentile(lat, .50)
	t.Logf("wake submit → waiting long-poll, %d rounds: p50 %s  p99 %s", rounds, ms(p50), ms(percentile(lat, .99)))
	return p50
}

// loadOneDebate runs 100 concurrent writers on one debate, spread over the
// servers of clients (replicas on one database). Each reads whose turn it is
// and tries to claim it; with every third attempt it also resends an earlier
// request of its own, to the next server, which must come back as a replay of
// the original argument. At the end seq must run 1..n without gaps or
// duplicates, and hold exactly the writes that were answered as new.
func loadOneDebate(t *testing.T, clients []*loadClient, st *store.Store) {
	const writers, attempts = 100, 12
	if _, err := clients[0].create("one"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	written := map[string]string{} // argument id → client request id
	var replays, refusals atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		c, next := clients[w%len(clients)], clients[(w+1)%len(clients)]
		wg.Go(func() {
			type sent struct {
				req api.ArgumentRequest
				id  string
			}
			var mine []sent
			for n := range attempts {
				var p api.PollResult
				if _, err := c.call("GET", "/debates/one/poll?role=proposer", nil, &p); err != nil {
					t.Error(err)
					return
				}
				role := "proposer"
				if p.DebateState == "AWAITING_OPPONENT" {
					role = "opponent"
				}
				req := api.ArgumentRequest{Role: role, TargetID: p.Argument.ID, Content: "Mine.", ClientRequestID: fmt.Sprintf("one-%d-%d", w, n)}
				var res api.WriteResult
				code, err := c.call("POST", "/debates/one/arguments", req, &res)
				switch {
				case err != nil:
					t.Error(err)
					return
				case code == 201 && !res.Replay:
					mu.Lock()
					written[res.Argument.ID] = req.ClientRequestID
					mu.Unlock()
					mine = append(mine, sent{req, res.Argument.ID})
				case code == 403:
					refusals.Add(1)
				default:
					t.Errorf("write answered %d (replay %v)", code, res.Replay)
				}
				if n%3 == 2 && len(mine) > 0 {
					old := mine[n%len(mine)]
					var again api.WriteResult
					code, err := next.call("POST", "/debates/one/arguments", old.req, &again)
					if err != nil || code != 201 || !again.Replay || again.Argument.ID != old.id {
						t.Errorf("replay of %s: %d %v %+v", old.req.ClientRequestID, code, err, again.Argument)
					}
					replays.Add(1)
				}
			}
		})
	}
	wg.Wait()
	ctx, err := st.Get(context.Background(), "one", -1)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, a := range ctx.Arguments {
		if a.Seq != i+2 {
			t.Fatalf("argument %d has seq %d, want %d", i, a.Seq, i+2)
		}
		if seen[a.ClientRequestID] {
			t.Fatalf("client request id %s written twice", a.ClientRequestID)
		}
		seen[a.ClientRequestID] = true
		if written[a.ID] != a.ClientRequestID {
			t.Fatalf("argument %s (seq %d) was not answered as new", a.ID, a.Seq)
		}
	}
	if len(ctx.Arguments) != len(written) {
		t.Fatalf("%d arguments stored, %d answered as new", len(ctx.Arguments), len(written))
	}
	t.Logf("one debate, %d writers: %d new arguments (seq 2..%d contiguous), %d refusals (not their turn), %d replays all matching",
		writers, len(written), len(written)+1, refusals.Load(), replays.Load())
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }
