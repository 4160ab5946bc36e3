package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/store"
)

// ServeOptions describe the load on a protocol server.
type ServeOptions struct {
	Writers  int           // agents writing, each on a debate of its own
	Pollers  int           // agents polling without waiting, as in vjcspy/aweave
	Duration time.Duration // of the measured load
	// WakeRounds is the number of submit → waiting long-poll measurements,
	// made during the load and again once it is over (50 when 0).
	WakeRounds int
	// Dir holds the database; a temporary folder, removed afterwards, when
	// empty.
	Dir string
	// Server, when set, runs the server in a process of its own, as it runs
	// in use, beside the load generator; when nil the server runs in this
	// process, sharing its scheduler and garbage collector with the load.
	Server Spawn
}

// Check reports the first option out of range, naming its flag.
func (o ServeOptions) Check() error {
	switch {
	case o.Writers < 1 || o.Writers > 1000:
		return fmt.Errorf("--writers must be from 1 to 1000 (got %d)", o.Writers)
	case o.Pollers < 0 || o.Pollers > 1000:
		return fmt.Errorf("--pollers must be from 0 to 1000 (got %d)", o.Pollers)
	case o.Duration < 100*time.Millisecond || o.Duration > time.Hour:
		return fmt.Errorf("--duration must be from 100ms to 1h (got %v)", o.Duration)
	}
	return nil
}

// Latencies summarizes the latencies of one kind of request, in
// milliseconds.
type Latencies struct {
	Count  int     `json:"count"`
	PerSec float64 `json:"perSecond,omitempty"`
	P50    float64 `json:"p50Ms"`
	P99    float64 `json:"p99Ms"`
	Max    float64 `json:"maxMs"`
}

// ServeReport is what Serve measured.
type ServeReport struct {
	Version    int     `json:"version"` // ReportVersion
	Writers    int     `json:"writers"`
	Pollers    int     `json:"pollers"`
	DurationMS float64 `json:"durationMs"` // of the load, as it ran
	// GOMAXPROCS and the machine's load average (1 minute) before and after:
	// the load generator runs on the same machine as the server.
	GOMAXPROCS int       `json:"gomaxprocs"`
	LoadBefore string    `json:"loadBefore,omitempty"`
	LoadAfter  string    `json:"loadAfter,omitempty"`
	Writes     Latencies `json:"writes"`
	Polls      Latencies `json:"polls"`
	WakeLoaded Latencies `json:"wakeUnderLoad"` // submit → waiting long-poll, during the load
	WakeIdle   Latencies `json:"wakeIdle"`      // the same once the load is over
	Errors     int       `json:"errors"`        // requests that failed or were refused
	FirstError string    `json:"firstError,omitempty"`
	// InProcess is set when the server ran in the load generator's
	// process. CPU per request is the CPU of both ÷ requests; ServerCPU and
	// LoadCPU split it where the server ran in a process of its own.
	InProcess  bool    `json:"inProcess"`
	CPUPerReq  float64 `json:"cpuPerRequestMs"`
	ServerCPU  float64 `json:"serverCpuPerRequestMs,omitempty"`
	LoadCPU    float64 `json:"loadCpuPerRequestMs,omitempty"`
	Arguments  int     `json:"arguments"`     // stored when the load ended
	SeqChecked bool    `json:"seqContiguous"` // every debate's seq runs 1..n
}

// Serve starts a protocol server on a new database on loopback, drives it
// with the agents of o for o.Duration and measures it.
func Serve(ctx context.Context, o ServeOptions) (*ServeReport, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.WakeRounds <= 0 {
		o.WakeRounds = 50
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "debate-bench-")
		if err != nil {
			return nil, fmt.Errorf("bench serve: %w", err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	db := filepath.Join(dir, "debate.db")
	var t *target
	var err error
	if o.Server != nil {
		t, err = childTarget(ctx, o.Server, db)
	} else {
		t, err = inProcess(ctx, db)
	}
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = t.stop()
		}
	}()

	agents := o.Writers + o.Pollers + 2
	addr, err := wireAddr(t.base)
	if err != nil {
		return nil, err
	}
	c := &agent{base: t.base, addr: addr, waiting: t.waiting, hc: &http.Client{Transport: &http.Transport{
		MaxIdleConns: agents, MaxIdleConnsPerHost: agents, DisableCompression: true}}}
	defer c.hc.CloseIdleConnections()

	r := &ServeReport{Version: ReportVersion, Writers: o.Writers, Pollers: o.Pollers, GOMAXPROCS: gomaxprocs(), InProcess: o.Server == nil}
	heads := make([]string, o.Writers)
	for i := range heads {
		if heads[i], err = c.create(fmt.Sprintf("bench-%d", i)); err != nil {
			return nil, err
		}
	}
	if _, err := c.create("bench-wake"); err != nil {
		return nil, err
	}

	if err := c.measure(ctx, o, t, heads, r); err != nil {
		return nil, err
	}
	c.hc.CloseIdleConnections()
	stopped = true
	if err := t.stop(); err != nil {
		return r, err
	}
	r.Arguments, r.SeqChecked, err = checkSeqs(ctx, db, o.Writers)
	if err != nil {
		return r, err
	}
	return r, nil
}

// measure drives the writers, pollers and wake-ups of o against t for
// o.Duration, the writers on the debates whose heads are given, then the
// wake-ups of an idle server, and puts the figures in r.
func (c *agent) measure(ctx context.Context, o ServeOptions, t *target, heads []string, r *ServeReport) error {
	var errs errorCount
	r.LoadBefore = loadAverage()
	lctx, cancel := context.WithTimeout(ctx, o.Duration)
	defer cancel()
	wlat := make([][]time.Duration, o.Writers)
	plat := make([][]time.Duration, o.Pollers)
	var wake []time.Duration
	cpu0, scpu0, start := testkit.CPUTime(), t.cpu(), time.Now()
	var wg sync.WaitGroup
	for i := range o.Writers {
		wg.Go(func() { wlat[i] = c.write(lctx, fmt.Sprintf("bench-%d", i), heads[i], &errs) })
	}
	for i := range o.Pollers {
		wg.Go(func() { plat[i] = c.poll(lctx, fmt.Sprintf("bench-%d", i%o.Writers), &errs) })
	}
	wg.Go(func() { wake = c.wake(lctx, "bench-wake", o.WakeRounds, &errs) })
	wg.Wait()
	elapsed, cpu, scpu := time.Since(start), testkit.CPUTime()-cpu0, t.cpu()-scpu0
	r.LoadAfter = loadAverage()
	if err := ctx.Err(); err != nil {
		return err
	}
	r.DurationMS = ms(elapsed)
	r.Writes = summarize(slices.Concat(wlat...), elapsed)
	r.Polls = summarize(slices.Concat(plat...), elapsed)
	r.WakeLoaded = summarize(wake, 0)
	idle := c.wake(ctx, "bench-wake", o.WakeRounds, &errs)
	r.WakeIdle = summarize(idle, 0)
	if n := float64(r.Writes.Count + r.Polls.Count); n > 0 {
		r.CPUPerReq = ms(cpu+scpu) / n
		if !r.InProcess {
			r.ServerCPU, r.LoadCPU = ms(scpu)/n, ms(cpu)/n
		}
	}
	r.Errors, r.FirstError = errs.get()
	return nil
}

// target is the server under load.
type target struct {
	base    string
	waiting func() int // long-polls the server holds; nil when unknown
	cpu     func() time.Duration
	stop    func() error
}

// inProcess starts a server on db in this process.
func inProcess(ctx context.Context, db string) (*target, error) {
	quiet := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, db, store.Options{Logger: quiet})
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	srv := server.New(st, server.Options{Logger: quiet})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, errors.Join(fmt.Errorf("bench serve: %w", err), st.Close())
	}
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, ln) }()
	return &target{base: "http://" + ln.Addr().String(), waiting: srv.Waiting,
		cpu: func() time.Duration { return 0 }, // counted in this process's
		stop: func() error {
			cancel()
			return errors.Join(<-served, st.Close())
		}}, nil
}

// agent is the HTTP side of the load generator: requests built once, and
// answers read only as far as the next request needs.
type agent struct {
	base    string     // http://host:port, for net/http
	addr    string     // host:port, for the load's wires
	waiting func() int // long-polls the server holds; nil when unknown
	hc      *http.Client
}

// errorCount counts failed requests and keeps the first error.
type errorCount struct {
	n     atomic.Int64
	mu    sync.Mutex
	first string
}

func (e *errorCount) add(err error) {
	if e.n.Add(1) == 1 {
		e.mu.Lock()
		e.first = err.Error()
		e.mu.Unlock()
	}
}

func (e *errorCount) get() (int, string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return int(e.n.Load()), e.first
}

// do sends a request and returns the answer's body; a status other than
// want is an error quoting the body.
func (a *agent) do(ctx context.Context, method, path string, body []byte, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("%s %s: HTTP %d: %s", method, path, res.StatusCode, strings.TrimSpace(string(b)))
	}
	return b, nil
}

// idPrefix starts data.argument.id in a write's answer as the server
// encodes it (after data.debate, whose strings, escaped, cannot hold it);
// argumentID decodes the JSON only when it is not there.
var idPrefix = []byte(`"argument":{"id":"`)

// argumentID reads data.argument.id from a write's answer.
func argumentID(b []byte) (string, error) {
	if _, rest, ok := bytes.Cut(b, idPrefix); ok {
		if id, _, ok := bytes.Cut(rest, []byte(`"`)); ok && len(id) > 0 && bytes.IndexByte(id, '\\') < 0 {
			return string(id), nil
		}
	}
	var v struct {
		Data struct {
			Argument struct {
				ID string `json:"id"`
			} `json:"argument"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Data.Argument.ID == "" {
		return "", fmt.Errorf("no argument id in the answer %.200q", b)
	}
	return v.Data.Argument.ID, nil
}

// create opens a debate and returns its MOTION's id.
func (a *agent) create(id string) (string, error) {
	body, _ := json.Marshal(map[string]string{"debate_id": id, "title": "Bench debate " + id, "debate_type": "general_debate",
		"motion_content": "A motion of ordinary length: the cache is invalidated by events, not by a TTL.", "client_request_id": "create-" + id})
	b, err := a.do(context.Background(), http.MethodPost, "/debates", body, http.StatusCreated)
	if err != nil {
		return "", fmt.Errorf("bench serve: create %s: %w", id, err)
	}
	return argumentID(b)
}

// cycle is the writers' round as vjcspy/aweave's agents play it: the opponent
// answers, the proposer answers, the opponent again, the proposer appeals,
// the arbitrator rules without closing, the proposer aligns with a CLAIM.
var cycle = []struct{ path, role string }{
	{"/arguments", "opponent"},
	{"/arguments", "proposer"},
	{"/arguments", "opponent"},
	{"/appeal", ""},
	{"/ruling", ""},
	{"/arguments", "proposer"},
}

// body is one write's request body.
func body(step int, target, key string) []byte {
	const content = "A claim of ordinary length, a sentence or two: the cache warm-up must come before the switch."
	var v any
	switch c := cycle[step]; c.path {
	case "/ruling":
		v = map[string]any{"content": "Keep to the plan; answer the open point.", "close": false, "client_request_id": key}
	default:
		m := map[string]string{"target_id": target, "content": content, "client_request_id": key}
		if c.role != "" {
			m["role"] = c.role
		}
		v = m
	}
	b, _ := json.Marshal(v)
	return b
}

// write plays the cycle on one debate until ctx ends and returns the
// latencies of its writes.
func (a *agent) write(ctx context.Context, debate, head string, errs *errorCount) []time.Duration {
	lat := make([]time.Duration, 0, 4096)
	c := &wire{addr: a.addr}
	defer c.close()
	prefix := "/debates/" + debate
	for n := 0; ; n++ {
		step := n % len(cycle)
		req := body(step, head, fmt.Sprintf("%s-%d", debate, n))
		t0 := time.Now()
		b, err := c.do(ctx, http.MethodPost, prefix+cycle[step].path, req, http.StatusCreated)
		if ctx.Err() != nil {
			return lat
		}
		lat = append(lat, time.Since(t0))
		if err == nil {
			head, err = argumentID(b)
		}
		if err != nil {
			errs.add(err)
			return lat
		}
	}
}

// poll polls one debate without waiting until ctx ends and returns the
// latencies.
func (a *agent) poll(ctx context.Context, debate string, errs *errorCount) []time.Duration {
	lat := make([]time.Duration, 0, 4096)
	c := &wire{addr: a.addr}
	defer c.close()
	path := "/debates/" + debate + "/poll?role=proposer"
	for {
		t0 := time.Now()
		_, err := c.do(ctx, http.MethodGet, path, nil, http.StatusOK)
		if ctx.Err() != nil {
			return lat
		}
		lat = append(lat, time.Since(t0))
		if err != nil {
			errs.add(err)
			return lat
		}
	}
}

// settle is how long a wake round lets its long-poll reach a server in
// another process before it submits: such a server does not say which polls
// it holds. A poll that arrives later answers at once, and its time is
// measured all the same.
const settle = 5 * time.Millisecond

// errTurn is a wake round's write refused because it was not the writer's
// turn.
var errTurn = errors.New("not the writer's turn")

// wake measures, up to rounds times, the time from the start of a submit to
// the answer of a long-poll already waiting for it on debate.
func (a *agent) wake(ctx context.Context, debate string, rounds int, errs *errorCount) []time.Duration {
	var lat []time.Duration
	for n := range rounds {
		d, err := a.round(ctx, debate, n)
		if errors.Is(err, errTurn) {
			// A write the load's end cut at the client landed after the
			// turn was read: read it again.
			d, err = a.round(ctx, debate, n)
		}
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			errs.add(err)
			break
		}
		lat = append(lat, d)
	}
	return lat
}

// round is one wake measurement: it reads whose turn it is, starts a
// long-poll for the other party, waits until the server holds it (or, where
// the server cannot say, for settle), submits
// the party's CLAIM and returns the time from the submit to the poll's answer.
func (a *agent) round(ctx context.Context, debate string, n int) (time.Duration, error) {
	b, err := a.do(ctx, http.MethodGet, "/debates/"+debate+"/poll?role=proposer", nil, http.StatusOK)
	if err != nil {
		return 0, err
	}
	var p struct {
		Data struct {
			State    string `json:"debate_state"`
			Argument struct {
				ID string `json:"id"`
			} `json:"argument"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return 0, fmt.Errorf("poll %s: %w", debate, err)
	}
	writer, waiter := "opponent", "proposer"
	if p.Data.State == "AWAITING_PROPOSER" {
		writer, waiter = waiter, writer
	}
	head := p.Data.Argument.ID

	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	waiting := 0
	if a.waiting != nil {
		waiting = a.waiting()
	}
	woke := make(chan error, 1)
	var at time.Time
	go func() {
		_, err := a.do(pctx, http.MethodGet, fmt.Sprintf("/debates/%s/poll?wait=30&role=%s&argument_id=%s", debate, waiter, head), nil, http.StatusOK)
		at = time.Now()
		woke <- err
	}()
	if a.waiting == nil {
		time.Sleep(settle)
	}
	// The count is the server's, over every debate: other agents' polls
	// that end meanwhile can hide this one, so the wait for it is bounded
	// by a second and ends as soon as the poll has answered.
	held := time.Now().Add(time.Second)
	for a.waiting != nil && a.waiting() <= waiting && ctx.Err() == nil && len(woke) == 0 && time.Now().Before(held) {
		time.Sleep(100 * time.Microsecond)
	}
	t0 := time.Now()
	req, _ := json.Marshal(map[string]string{"role": writer, "target_id": head, "content": "Wake up.",
		"client_request_id": fmt.Sprintf("wake-%d-%d", t0.UnixNano(), n)})
	if _, err := a.do(ctx, http.MethodPost, "/debates/"+debate+"/arguments", req, http.StatusCreated); err != nil {
		cancel()
		<-woke
		if strings.Contains(err.Error(), "HTTP 403") {
			err = fmt.Errorf("%w: %w", errTurn, err)
		}
		return 0, err
	}
	if err := <-woke; err != nil {
		return 0, err
	}
	return at.Sub(t0), nil
}

// summarize sorts d and returns its count, rate over elapsed (when given)
// and percentiles.
func summarize(d []time.Duration, elapsed time.Duration) Latencies {
	if len(d) == 0 {
		return Latencies{}
	}
	slices.Sort(d)
	q := func(p float64) float64 { return ms(d[min(len(d)-1, int(float64(len(d))*p))]) }
	l := Latencies{Count: len(d), P50: q(0.50), P99: q(0.99), Max: ms(d[len(d)-1])}
	if elapsed > 0 {
		l.PerSec = float64(len(d)) / elapsed.Seconds()
	}
	return l
}

// checkSeqs reads every writer's debate and checks that seq runs 1..n
// without gaps; it returns the number of arguments stored.
func checkSeqs(ctx context.Context, db string, writers int) (int, bool, error) {
	st, err := store.Open(ctx, db, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return 0, false, fmt.Errorf("bench serve: check: %w", err)
	}
	defer st.Close()
	total, ok := 0, true
	for i := range writers {
		c, err := st.Get(ctx, fmt.Sprintf("bench-%d", i), -1)
		if err != nil {
			return total, false, fmt.Errorf("bench serve: check: %w", err)
		}
		total += 1 + len(c.Arguments)
		for j, a := range c.Arguments {
			ok = ok && a.Seq == j+2
		}
	}
	return total, ok, nil
}
