package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/store"
)

// chromium finds a Chromium or Chrome binary: $DEBATE_CHROMIUM, then the
// usual names on PATH.
func chromium() string {
	if p := os.Getenv("DEBATE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// cutProxy forwards TCP connections to a server and can cut them all (and
// refuse new ones for a while), which is how a page sees its WebSocket drop
// without the server going away.
type cutProxy struct {
	ln      net.Listener
	backend string

	mu      sync.Mutex
	conns   map[net.Conn]bool
	refused bool
	wg      sync.WaitGroup
}

func newCutProxy(t *testing.T, backend string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, backend: backend, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.cut(false)
		p.wg.Wait()
	})
	return p
}

func (p *cutProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refused := p.refused
		p.mu.Unlock()
		if refused {
			c.Close()
			continue
		}
		b, err := net.Dial("tcp", p.backend)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[b] = true, true
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, b)
		go p.pipe(b, c)
	}
}

func (p *cutProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// cut closes every connection; with refuse, new ones are closed at once
// until cut is called again with refuse false.
func (p *cutProxy) cut(refuse bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refused = refuse
	for c := range p.conns {
		c.Close()
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// browser is a headless Chromium for one test: it collects the page's
// exceptions and security errors, and takes screenshots into
// $DEBATE_WEB_SCREENSHOTS when that is set.
type browser struct {
	t        *testing.T
	ctx      context.Context
	prefix   string
	mu       sync.Mutex
	problems []string
}

// newBrowser starts Chromium with a window of width × height, or skips the
// test when there is none (or with -short), except under CI, where .ci/run
// has installed it and its absence is a failure. It is stopped at the
// test's end, after the problems it saw are reported.
func newBrowser(t *testing.T, prefix string, width, height int) *browser {
	t.Helper()
	bin := chromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium found under CI (.ci/run installs the chromium package; or set DEBATE_CHROMIUM)")
		}
		t.Skip("no Chromium found (set DEBATE_CHROMIUM or install chromium): skipping the browser test")
	}
	if testing.Short() {
		t.Skip("-short: skipping the browser test")
	}
	b := &browser{t: t, prefix: prefix}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height))
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, fmt.Sprintf("exception at %d:%d: %s", e.ExceptionDetails.LineNumber, e.ExceptionDetails.ColumnNumber, e.ExceptionDetails.Text))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError && (e.Entry.Source == cdplog.EntrySourceSecurity || e.Entry.Source == cdplog.EntrySourceJavascript || e.Entry.Source == cdplog.EntrySourceViolation) {
				b.problems = append(b.problems, string(e.Entry.Source)+": "+e.Entry.Text)
			}
		}
	}))
	b.ctx = bctx
	t.Cleanup(func() {
		b.mu.Lock()
		if len(b.problems) > 0 {
			t.Errorf("the browser reported problems:\n%s", strings.Join(b.problems, "\n"))
		}
		b.mu.Unlock()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Error("the browser test ran out of time")
		}
		cancelBrowser()
		cancelAlloc()
		cancel()
	})
	return b
}

// shot saves a screenshot of the whole page as <prefix><name>.png.
func (b *browser) shot(name string) {
	dir := os.Getenv("DEBATE_WEB_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, b.prefix+name+".png"), png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// step runs actions, failing the test with the page's text when one fails.
func (b *browser) step(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.shot("failed")
		body, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string]("document.body.innerText"))
		b.t.Fatalf("%s: %v\npage text:\n%s", what, err, body)
	}
}

// follow runs an action that makes the page navigate (a click on a link, a
// reload) and waits for the new page's response.
func (b *browser) follow(what string, action chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, action)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	if res.Status != 200 {
		b.t.Fatalf("%s: status %d", what, res.Status)
	}
}

// until waits for a JavaScript expression to be true.
func until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(25*time.Millisecond),
		chromedp.WithPollingTimeout(10*time.Second))
}

func stateIs(s string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`document.getElementById('ui-state').textContent === %q`, s))
}

func enabled(id string, want bool) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`document.getElementById(%q).disabled === %v`, id, !want))
}

func errorShown(parts ...string) chromedp.Action[chromedp.Void] {
	cond := `!document.getElementById('ui-error').hidden`
	for _, p := range parts {
		cond += fmt.Sprintf(` && document.getElementById('ui-error').textContent.includes(%q)`, p)
	}
	return until(cond)
}

// serveUI serves the API and the web UI over st (listing the batch runs of
// the reports folders) on a loopback port until the test ends, and returns
// the listener's address.
func serveUI(t *testing.T, st *store.Store, token string, reports ...string) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveCtx, stopServe := context.WithCancel(context.Background())
	srv := server.New(st, server.Options{Token: token, Logger: log,
		Pages: New(st, Options{Logger: log, Done: serveCtx.Done(), Reports: reports})})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serveCtx, ln) }()
	t.Cleanup(func() {
		stopServe()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// TestBrowser drives a debate page in headless Chromium: the MOTION shows,
// an argument written through the store appears live (also after the
// connection drops under the page), refusals are shown, Intervene and a
// closing Ruling change the state, and the controls end disabled.
func TestBrowser(t *testing.T) {
	b := newBrowser(t, "", 420, 900)
	const token = "browser-token-123"
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), store.Options{ContentLimit: 200})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	proxy := newCutProxy(t, serveUI(t, st, token))
	base := "http://" + proxy.ln.Addr().String()

	motion, err := st.Create(context.Background(), protocol.NewDebate{ID: "b1", Title: "Ship on Fridays?", Type: protocol.GeneralDebate,
		Content: "We should **ship on Fridays**.\n\n<script>window.pwned = 1</script>", ClientRequestID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	step, shot, bctx := b.step, b.shot, b.ctx

	pageURL := base + "/debates/b1?token=" + url.QueryEscape(token)
	step("open the debate page",
		chromedp.Navigate(pageURL),
		until(`document.querySelector('#ui-tree .arg-motion .body strong') !== null`),
		until(`document.querySelector('#ui-tree .arg-motion').textContent.includes('ship on Fridays')`),
		until(`document.getElementById('ui-conn').textContent === 'live'`),
		stateIs("AWAITING_OPPONENT"),
		until(`document.getElementById('ui-awaited').textContent === 'opponent'`),
		enabled("ui-intervene", true), enabled("ui-ruling", false), enabled("ui-close", false),
	)
	pwned, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.pwned === 1 || document.querySelector('#ui-tree script') !== null`))
	if err != nil || pwned {
		t.Errorf("the MOTION's <script> reached the page (%v)", err)
	}
	shot("1-motion")

	claim, err := st.Submit(context.Background(), protocol.Write{DebateID: "b1", Type: protocol.Claim, Role: protocol.Opponent,
		TargetID: motion.Argument.ID, Content: "Weekends are for *rest*.", ClientRequestID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	step("see the CLAIM appear live, under the MOTION",
		until(`document.querySelector('#ui-tree .arg-motion > .kids > .arg-claim .body em') !== null`),
		stateIs("AWAITING_PROPOSER"),
		until(`document.getElementById('ui-awaited').textContent === 'proposer'`),
	)

	// The connection drops and cannot be made again for a while.
	proxy.cut(true)
	step("see the page notice the drop", until(`document.getElementById('ui-conn').textContent.startsWith('disconnected')`),
		enabled("ui-intervene", false))
	proxy.cut(false)
	if _, err := st.Submit(context.Background(), protocol.Write{DebateID: "b1", Type: protocol.Claim, Role: protocol.Proposer,
		TargetID: claim.Argument.ID, Content: "Then we ship on Thursdays.", ClientRequestID: "c2"}); err != nil {
		t.Fatal(err)
	}
	step("reconnect and see what was written meanwhile",
		until(`document.getElementById('ui-conn').textContent === 'live'`),
		until(`document.querySelectorAll('#ui-tree .arg').length === 3`),
		until(`document.querySelector('#ui-tree .arg-claim .arg-claim') !== null`),
		stateIs("AWAITING_OPPONENT"),
		enabled("ui-intervene", true),
	)

	step("a refused intervention (too long) shows the server's message and suggestion",
		chromedp.SetValue(chromedp.ID("ui-content"), strings.Repeat("x", 250)),
		chromedp.Click(chromedp.ID("ui-intervene")),
		errorShown("CONTENT_TOO_LARGE", "limit is 200", "document"),
		stateIs("AWAITING_OPPONENT"),
		enabled("ui-intervene", true),
	)
	shot("2-refused")

	step("intervene",
		chromedp.SetValue(chromedp.ID("ui-content"), "Stop: **stay on topic**."),
		chromedp.Click(chromedp.ID("ui-intervene")),
		stateIs("INTERVENTION_PENDING"),
		until(`document.getElementById('ui-awaited').textContent === 'arbitrator'`),
		until(`document.querySelector('#ui-tree .arg-intervention .body strong') !== null`),
		until(`document.getElementById('ui-error').hidden`),
		enabled("ui-intervene", false), enabled("ui-ruling", true), enabled("ui-close", true),
	)

	step("the ruling form moves beside the intervention it answers, quoting it",
		until(`document.querySelector('#ui-tree .arg-intervention > #ui-controls') !== null`),
		until(`document.getElementById('ui-quote').textContent.includes('INTERVENTION #4 by arbitrator')`),
		until(`document.querySelector('#ui-quote strong').textContent === 'stay on topic'`),
	)
	shot("3-ruling-form")

	step("an empty ruling is caught before it is sent",
		until(`document.getElementById('ui-content').value === ''`),
		chromedp.Click(chromedp.ID("ui-ruling")),
		errorShown("Write the ruling first"),
		stateIs("INTERVENTION_PENDING"),
	)
	if c, err := st.Get(context.Background(), "b1", -1); err != nil || len(c.Arguments) != 3 {
		t.Fatalf("the empty ruling reached the store: %v", err)
	}

	step("closing asks for confirmation; cancel keeps the debate open",
		chromedp.SetValue(chromedp.ID("ui-content"), "Closed: Fridays stay **frozen**."),
		chromedp.Click(chromedp.ID("ui-close")),
		chromedp.Click(chromedp.ID("ui-ruling")),
		until(`!document.getElementById('ui-confirm').hidden`),
		chromedp.Click(chromedp.ID("ui-confirm-no")),
		until(`document.getElementById('ui-confirm').hidden`),
		stateIs("INTERVENTION_PENDING"),
	)

	step("rule and close",
		chromedp.Click(chromedp.ID("ui-ruling")),
		until(`!document.getElementById('ui-confirm').hidden`),
		chromedp.Click(chromedp.ID("ui-confirm-yes")),
		stateIs("CLOSED"),
		until(`document.getElementById('ui-awaited').textContent === 'nobody (closed)'`),
		until(`document.querySelector('#ui-tree .arg-ruling .body strong') !== null`),
		enabled("ui-intervene", false), enabled("ui-ruling", false), enabled("ui-close", false),
		until(`document.getElementById('ui-error').hidden`),
		until(`document.getElementById('ui-notice').textContent === 'Ruling recorded as #5.'`),
		until(`document.querySelector('#ui-controls-home + #ui-controls') !== null`),
		// Closed: the notice and the hint stay, the form goes.
		until(`getComputedStyle(document.getElementById('ui-content')).display === 'none'`),
		until(`getComputedStyle(document.getElementById('ui-hint')).display !== 'none'`),
	)
	shot("4-closed")

	c, err := st.Get(context.Background(), "b1", -1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Debate.State != protocol.Closed || len(c.Arguments) != 4 {
		t.Errorf("store: state %s with %d arguments after the MOTION, want CLOSED with 4", c.Debate.State, len(c.Arguments))
	}
	if last := c.Arguments[len(c.Arguments)-1]; last.Type != protocol.Ruling || last.Content != "Closed: Fridays stay **frozen**." {
		t.Errorf("last argument %s %q, want the ruling", last.Type, last.Content)
	}

	// The list opened with ?token= drops it from the address, and its links
	// never carry it.
	step("open the list",
		chromedp.Navigate(base+"/?token="+url.QueryEscape(token)),
		until(`document.querySelector('a[href^="/debates/b1"]') !== null`),
		until(`!location.search.includes('token=') && !document.body.innerHTML.includes('token=')`),
		until(`document.body.textContent.includes('CLOSED')`),
	)
	shot("5-list")
}
