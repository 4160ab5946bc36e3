package web

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/server"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// clock is a store clock that moves one second per reading, so that every
// write has its own, predictable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

type fixture struct {
	t    testing.TB
	st   *store.Store
	ts   *httptest.Server
	logs *testkit.Buffer
}

func newFixture(t testing.TB, token string, reports []string, stOpt store.Options) *fixture {
	t.Helper()
	return newFixtureOpts(t, token, Options{Reports: reports}, stOpt)
}

// newFixtureDone is a fixture whose live feeds end when done closes.
func newFixtureDone(t testing.TB, done <-chan struct{}) *fixture {
	t.Helper()
	return newFixtureOpts(t, "", Options{Done: done}, store.Options{})
}

func newFixtureOpts(t testing.TB, token string, opt Options, stOpt store.Options) *fixture {
	t.Helper()
	if stOpt.Now == nil {
		stOpt.Now = (&clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}).now
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "debate.db"), stOpt)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	opt.Logger = log
	srv := server.New(st, server.Options{Token: token, Logger: log, Pages: New(st, opt)})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	return &fixture{t: t, st: st, ts: ts, logs: logs}
}

func (f *fixture) create(id, title, motion string) protocol.Argument {
	f.t.Helper()
	res, err := f.st.Create(context.Background(), protocol.NewDebate{ID: id, Title: title, Type: protocol.GeneralDebate,
		Content: motion, ClientRequestID: "create-" + id})
	if err != nil {
		f.t.Fatal(err)
	}
	return res.Argument
}

func (f *fixture) submit(w protocol.Write) protocol.Argument {
	f.t.Helper()
	res, err := f.st.Submit(context.Background(), w)
	if err != nil {
		f.t.Fatal(err)
	}
	return res.Argument
}

type page struct {
	status int
	header http.Header
	body   string
}

// get requests path with the given Accept header (and an Authorization
// header when auth is not empty), following no redirect.
func (f *fixture) get(path, accept, auth string) page {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.ts.URL+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	client := *f.ts.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return page{status: res.StatusCode, header: res.Header, body: string(b)}
}

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

var mainRE = regexp.MustCompile(`(?s)<main id="main">\n(.*)</main>`)

// mainOf is the page's own content: everything but the shared layout, the
// stylesheet and the script.
func mainOf(t testing.TB, body string) string {
	t.Helper()
	m := mainRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no <main> in page:\n%s", body)
	}
	return m[1]
}

// seed makes three debates in three states, the newest last.
func seed(f *fixture) {
	m := f.create("d-old", "Tabs or spaces", "Spaces.")
	f.create("d-mid", "Monorepo?", "One repository for everything.")
	m3 := f.create("d-new", "Ship on Fridays", "We should ship on **Fridays**.")
	f.submit(protocol.Write{DebateID: "d-new", Type: protocol.Claim, Role: protocol.Opponent, TargetID: m3.ID,
		Content: "Weekends are for rest.", ClientRequestID: "c1"})
	c := f.submit(protocol.Write{DebateID: "d-old", Type: protocol.Claim, Role: protocol.Opponent, TargetID: m.ID,
		Content: "Tabs.", ClientRequestID: "c2"})
	f.submit(protocol.Write{DebateID: "d-old", Type: protocol.Appeal, Role: protocol.Proposer, TargetID: c.ID,
		Content: "Rule, please.", ClientRequestID: "c3"})
}

func TestPages(t *testing.T) {
	f := newFixture(t, "", nil, store.Options{})
	seed(f)
	tests := []struct {
		name, path, accept string
		status             int
		contentType        string
		golden             string
		want               []string
	}{
		{"list", "/", browserAccept, 200, "text/html", "list.html",
			[]string{"<title>(1) Debates · debate</title>", `href="/debates/d-old"`, "AWAITING_ARBITRATOR", "awaiting arbitrator", "awaiting proposer", "awaiting opponent"}},
		{"list for browsers at /debates", "/debates", browserAccept, 200, "text/html", "", []string{`href="/debates/d-mid"`}},
		{"list filtered", "/?state=AWAITING_PROPOSER", browserAccept, 200, "text/html", "list_filtered.html",
			[]string{"Ship on Fridays", `<option value="AWAITING_PROPOSER" selected>`}},
		{"needs you", "/?view=needs", browserAccept, 200, "text/html", "list_needs.html",
			[]string{"<title>(1) Debates · debate</title>", `href="/debates/d-old"`, "1 debate waits for your ruling"}},
		{"view refused", "/?view=mine", browserAccept, 400, "text/html", "", []string{"view: want needs or nothing"}},
		{"list filter refused", "/?state=SLEEPING", browserAccept, 400, "text/html", "",
			[]string{"INVALID_INPUT", "unknown state", "AWAITING_OPPONENT, AWAITING_PROPOSER"}},
		{"debate page", "/debates/d-old", browserAccept, 200, "text/html", "debate.html",
			[]string{"Tabs or spaces", `"state":"AWAITING_ARBITRATOR"`, `"arbitrator":["RULING"]`, "awaiting"}},
		{"debate page not found", "/debates/nope", browserAccept, 404, "text/html", "",
			[]string{"DEBATE_NOT_FOUND", "nope"}},
		{"API keeps JSON for agents", "/debates/d-old", "application/json", 200, "application/json", "",
			[]string{`"success":true`, `"motion"`}},
		{"API keeps JSON for curl", "/debates", "*/*", 200, "application/json", "", []string{`"total":3`}},
		{"API keeps JSON when HTML is refused", "/debates/d-old", "text/html;q=0, application/json", 200, "application/json", "",
			[]string{`"success":true`}},
		{"rendered arguments", "/ui/debates/d-new/arguments?after=1", "", 200, "application/json", "",
			[]string{`"seq":2`, `"html":"\u003cp\u003eWeekends are for rest.\u003c/p\u003e\n"`}},
		{"rendered arguments bad after", "/ui/debates/d-new/arguments?after=x", "", 400, "application/json", "",
			[]string{"INVALID_INPUT"}},
		{"rendered arguments not found", "/ui/debates/nope/arguments", "", 404, "application/json", "",
			[]string{"DEBATE_NOT_FOUND"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := f.get(tt.path, tt.accept, "")
			if p.status != tt.status {
				t.Fatalf("status %d, want %d:\n%s", p.status, tt.status, p.body)
			}
			if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
				t.Errorf("Content-Type %q, want %s", ct, tt.contentType)
			}
			for _, w := range tt.want {
				if !strings.Contains(p.body, w) {
					t.Errorf("missing %q in:\n%s", w, p.body)
				}
			}
			if tt.golden != "" {
				golden.Assert(t, filepath.Join("testdata", tt.golden), []byte(mainOf(t, p.body)))
			}
		})
	}
}

func TestListOrder(t *testing.T) {
	f := newFixture(t, "", nil, store.Options{})
	seed(f)
	body := f.get("/", browserAccept, "").body
	// d-old was updated last (its APPEAL), then d-new, then d-mid.
	iOld, iNew, iMid := strings.Index(body, "/debates/d-old"), strings.Index(body, "/debates/d-new"), strings.Index(body, "/debates/d-mid")
	if iOld < 0 || iNew < 0 || iMid < 0 || !(iOld < iNew && iNew < iMid) {
		t.Errorf("want d-old, d-new, d-mid (last updated first); positions %d %d %d", iOld, iNew, iMid)
	}
	filtered := f.get("/?state=AWAITING_OPPONENT", browserAccept, "").body
	if !strings.Contains(filtered, "/debates/d-mid") || strings.Contains(filtered, "/debates/d-old") || strings.Contains(filtered, "/debates/d-new") {
		t.Errorf("filter AWAITING_OPPONENT shows other debates:\n%s", mainOf(t, filtered))
	}
}

func TestListPages(t *testing.T) {
	f := newFixture(t, "", nil, store.Options{})
	for i := range pageSize + 3 {
		f.create("p"+strconv.Itoa(i), "Debate "+strconv.Itoa(i), "Motion.")
	}
	first := f.get("/", browserAccept, "").body
	if n := strings.Count(first, `<li class="debate">`); n != pageSize {
		t.Errorf("first page has %d debates, want %d", n, pageSize)
	}
	if !strings.Contains(first, `href="/?offset=50"`) || strings.Contains(first, `rel="prev"`) {
		t.Errorf("first page: want an Older link to offset 50 and no Newer link:\n%s", mainOf(t, first))
	}
	second := f.get("/?offset=50", browserAccept, "").body
	if n := strings.Count(second, `<li class="debate">`); n != 3 {
		t.Errorf("second page has %d debates, want 3", n)
	}
	if !strings.Contains(second, `href="/" rel="prev"`) || strings.Contains(second, `rel="next"`) {
		t.Errorf("second page: want a Newer link to / and no Older link:\n%s", mainOf(t, second))
	}
	if p := f.get("/?offset=-1", browserAccept, ""); p.status != http.StatusBadRequest {
		t.Errorf("offset=-1: status %d, want 400", p.status)
	}
}

// TestXSS puts active content in a title, a MOTION, a CLAIM and a report and
// checks that none of it reaches a page or the rendered arguments.
func TestXSS(t *testing.T) {
	evil := rendertest.XSS
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "summary.md"), "# Summary\n\n"+evil)
	f := newFixture(t, "", []string{dir}, store.Options{})
	m := f.create("x1", rendertest.XSSTitle, evil)
	f.submit(protocol.Write{DebateID: "x1", Type: protocol.Claim, Role: protocol.Opponent, TargetID: m.ID, Content: evil, ClientRequestID: "c1"})

	pages := map[string]string{
		"list":   f.get("/", browserAccept, "").body,
		"debate": f.get("/debates/x1", browserAccept, "").body,
		"report": f.get("/reports/0/summary.md", browserAccept, "").body,
	}
	for name, body := range pages {
		content := mainOf(t, body)
		// The page's data block is JSON with every '<' escaped.
		if m := dataRE.FindStringSubmatch(content); m != nil {
			if strings.Contains(m[1], "<") {
				t.Errorf("%s page's data has a raw '<': %s", name, m[1])
			}
			content = strings.Replace(content, m[0], "", 1)
		}
		for _, bad := range rendertest.ActiveContent(content) {
			t.Errorf("%s page %s:\n%s", name, bad, content)
		}
	}
	if !strings.Contains(pages["report"], "<strong>bold</strong>") {
		t.Errorf("report lost its Markdown:\n%s", mainOf(t, pages["report"]))
	}

	p := f.get("/ui/debates/x1/arguments", "", "")
	var env api.Envelope[rendered]
	if err := json.Unmarshal([]byte(p.body), &env); err != nil || !env.Success || len(env.Data.Arguments) != 2 {
		t.Fatalf("rendered arguments: %v %s", err, p.body)
	}
	for _, a := range env.Data.Arguments {
		for _, bad := range rendertest.ActiveContent(a.HTML) {
			t.Errorf("argument #%d html %s:\n%s", a.Seq, bad, a.HTML)
		}
		// Markup is shown as the text it is; a javascript: link keeps its text.
		if !strings.Contains(a.HTML, "<strong>bold</strong>") || !strings.Contains(a.HTML, "<p>link</p>") || !strings.Contains(a.HTML, "&lt;script&gt;") {
			t.Errorf("argument #%d lost its Markdown:\n%s", a.Seq, a.HTML)
		}
	}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="ui-data">(.*?)</script>`)

var scriptRE = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
var styleRE = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

func TestSecurityHeaders(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "summary.md"), "# Summary\n")
	f := newFixture(t, "", []string{dir}, store.Options{})
	f.create("d1", "T", "M")
	for _, path := range []string{"/", "/debates/d1", "/reports/0/summary.md", "/debates/missing"} {
		p := f.get(path, browserAccept, "")
		csp := p.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "connect-src 'self'", "base-uri 'none'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "*") {
			t.Errorf("%s: CSP %q allows too much", path, csp)
		}
		for _, c := range []struct {
			re     *regexp.Regexp
			source string
		}{{scriptRE, "script-src"}, {styleRE, "style-src"}} {
			m := c.re.FindStringSubmatch(p.body)
			if m == nil {
				t.Fatalf("%s: no inline %s", path, c.source)
			}
			sum := sha256.Sum256([]byte(m[1]))
			if want := c.source + " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q does not allow the page's own %s (%s)", path, csp, c.source, want)
			}
		}
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
			"X-Frame-Options": "DENY", "Cache-Control": "no-store"} {
			if got := p.header.Get(h); got != want {
				t.Errorf("%s: %s %q, want %q", path, h, got, want)
			}
		}
	}
}

func TestAuth(t *testing.T) {
	const token = "s3cret-Token-42"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "summary.md"), "# Summary\n")
	f := newFixture(t, token, []string{dir}, store.Options{})
	f.create("d1", "T", "M")
	paths := []string{"/", "/debates", "/debates/d1", "/ui/debates/d1/arguments", "/reports/0/summary.md"}
	for _, path := range paths {
		if p := f.get(path, browserAccept, ""); p.status != http.StatusUnauthorized || !strings.Contains(p.body, `id="ui-token-form"`) {
			t.Errorf("%s without a token: %d %s, want the page asking for the token", path, p.status, p.body)
		}
		if p := f.get(path, "application/json", ""); p.status != http.StatusUnauthorized || !strings.Contains(p.body, `"AUTH_FAILED"`) {
			t.Errorf("%s without a token, as JSON: %d %s", path, p.status, p.body)
		}
		// ?token= is exchanged for the session cookie by a redirect to the
		// address without it.
		p := f.get(path+sep(path)+"token="+token, browserAccept, "")
		if p.status != http.StatusSeeOther || p.header.Get("Location") != path || !strings.Contains(p.header.Get("Set-Cookie"), "="+token) {
			t.Errorf("%s with ?token=: %d to %q, cookie %q; want 303 to %s with the session cookie",
				path, p.status, p.header.Get("Location"), p.header.Get("Set-Cookie"), path)
		}
		if p := f.get(path, browserAccept, "Bearer "+token); p.status != http.StatusOK || strings.Contains(p.body, token) {
			t.Errorf("%s with a Bearer header: %d (the page must not contain the token)", path, p.status)
		}
	}
	if p := f.get("/?token=wrong", browserAccept, ""); p.status != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", p.status)
	}
	if strings.Contains(f.logs.String(), token) {
		t.Errorf("the log contains the token:\n%s", f.logs.String())
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const runJSON = `{"schemaVersion":1,"startedAt":"2026-03-01T08:00:00Z","finishedAt":"2026-03-01T08:05:00Z",
"topics":[{"id":"t1","title":"Caching","status":"converged"},{"id":"t2","title":"Billing DB","status":"forced"}],
"motions":[{"id":"m1","title":"Adopt Go","status":"failed","state":"AWAITING_OPPONENT"}]}`

// reportTree makes a reports folder: a run at its top, a run in a
// subfolder, files that are not reports, a link to a secret outside, and the
// secret itself next to the folder.
func reportTree(t *testing.T) (dir, secret string) {
	base := t.TempDir()
	dir = filepath.Join(base, "out")
	secret = filepath.Join(base, "secret.md")
	writeFile(t, secret, "# Secret\n\nTOP-SECRET-CONTENT\n")
	writeFile(t, filepath.Join(dir, "summary.md"), "# Run summary\n\nSee [the topic](topic-t1-caching.md).\n")
	writeFile(t, filepath.Join(dir, "topic-t1-caching.md"), "# Caching\n\nConverged.\n")
	writeFile(t, filepath.Join(dir, "motion-m1-adopt-go.md"), "# Adopt Go\n\nArguments.\n")
	writeFile(t, filepath.Join(dir, "run.json"), runJSON)
	writeFile(t, filepath.Join(dir, "notes.txt"), "not a report TOP-SECRET-CONTENT")
	writeFile(t, filepath.Join(dir, "README.md"), "not a report TOP-SECRET-CONTENT")
	writeFile(t, filepath.Join(dir, "raw", "topic-raw.md"), "raw TOP-SECRET-CONTENT")
	writeFile(t, filepath.Join(dir, "2026-03-02", "summary.md"), "# Second run\n")
	writeFile(t, filepath.Join(dir, "2026-03-02", "deeper", "summary.md"), "# Too deep TOP-SECRET-CONTENT\n")
	if err := os.Symlink(secret, filepath.Join(dir, "topic-link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(dir, "linked-run")); err != nil {
		t.Fatal(err)
	}
	return dir, secret
}

func TestReports(t *testing.T) {
	dir, _ := reportTree(t)
	missing := filepath.Join(t.TempDir(), "not-yet")
	f := newFixture(t, "", []string{dir, missing}, store.Options{})
	list := f.get("/", browserAccept, "").body
	content := mainOf(t, list)
	for _, want := range []string{
		`href="/reports/0/summary.md"`, `href="/reports/0/topic-t1-caching.md"`, `href="/reports/0/motion-m1-adopt-go.md"`,
		`href="/reports/0/2026-03-02/summary.md"`, "Caching", "converged", "Billing DB", "forced", "Adopt Go", "failed",
		"does not exist",
	} {
		if !strings.Contains(content, want) {
			t.Errorf("list lacks %q:\n%s", want, content)
		}
	}
	for _, bad := range []string{"notes.txt", "README.md", "topic-raw.md", "topic-link.md", "deeper", "linked-run", "TOP-SECRET"} {
		if strings.Contains(content, bad) {
			t.Errorf("list shows %q:\n%s", bad, content)
		}
	}
	// Summary, topics, motions: in that order.
	if i, j, k := strings.Index(content, "0/summary.md"), strings.Index(content, "topic-t1"), strings.Index(content, "motion-m1"); !(i < j && j < k) {
		t.Errorf("files out of order: summary %d, topic %d, motion %d", i, j, k)
	}

	for path, want := range map[string]string{
		"/reports/0/summary.md":            `<a href="topic-t1-caching.md">the topic</a>`,
		"/reports/0/topic-t1-caching.md":   "<h1",
		"/reports/0/motion-m1-adopt-go.md": "Adopt Go",
		"/reports/0/2026-03-02/summary.md": "Second run",
	} {
		p := f.get(path, browserAccept, "")
		if p.status != http.StatusOK || !strings.Contains(p.body, want) {
			t.Errorf("%s: %d, want %q in:\n%s", path, p.status, want, p.body)
		}
	}
	golden.Assert(t, filepath.Join("testdata", "report.html"), []byte(strings.ReplaceAll(mainOf(t, f.get("/reports/0/summary.md", browserAccept, "").body), dir, "<dir>")))
}

func TestReportTraversal(t *testing.T) {
	dir, _ := reportTree(t)
	f := newFixture(t, "", []string{dir}, store.Options{})
	for _, path := range []string{
		"/reports/0/../secret.md",
		"/reports/0/%2e%2e/secret.md",
		"/reports/0/..%2fsecret.md",
		"/reports/0/%2e%2e%2fsecret.md",
		"/reports/0/2026-03-02/../../secret.md",
		"/reports/0/2026-03-02/%2e%2e/%2e%2e/secret.md",
		"/reports/0/topic-link.md",
		"/reports/0/notes.txt",
		"/reports/0/README.md",
		"/reports/0/raw/topic-raw.md",
		"/reports/0/2026-03-02/deeper/summary.md",
		"/reports/0/linked-run/secret.md",
		"/reports/0/" + escaped(filepath.Join("..", "secret.md")),
		"/reports/0/%2F" + strings.TrimPrefix(escaped(filepath.Join(filepath.Dir(dir), "secret.md")), "/"),
		"/reports/00/summary.md",
		"/reports/+0/summary.md",
		"/reports/1/summary.md",
		"/reports/-1/summary.md",
		"/reports/0",
		"/reports/summary.md",
		"/reports/0/summary.md%00",
	} {
		p := f.get(path, browserAccept, "")
		if p.status == http.StatusOK || strings.Contains(p.body, "TOP-SECRET") {
			t.Errorf("%s: status %d, served:\n%s", path, p.status, p.body)
		}
	}
}

func escaped(p string) string { return strings.ReplaceAll(filepath.ToSlash(p), "/", "%2F") }

func TestAwaited(t *testing.T) {
	tests := map[protocol.State]string{
		protocol.AwaitingOpponent:    "opponent",
		protocol.AwaitingProposer:    "proposer",
		protocol.AwaitingArbitrator:  "arbitrator",
		protocol.InterventionPending: "arbitrator",
		protocol.Closed:              "nobody (closed)",
	}
	for s, want := range tests {
		if got := awaitedText(string(s)); got != want {
			t.Errorf("awaited(%s) = %q, want %q", s, got, want)
		}
	}
	// The page's controls follow the protocol's table.
	st := stateTable()
	for s, acts := range map[protocol.State][]string{
		protocol.AwaitingOpponent: {"INTERVENTION"}, protocol.AwaitingProposer: {"INTERVENTION"},
		protocol.AwaitingArbitrator: {"RULING"}, protocol.InterventionPending: {"RULING"}, protocol.Closed: {},
	} {
		if got := st[string(s)].Arbitrator; strings.Join(got, ",") != strings.Join(acts, ",") {
			t.Errorf("arbitrator actions in %s: %v, want %v", s, got, acts)
		}
	}
}

// TestReportsDecisionsAndPages: the list shows a topic's decision (with
// its cause) rather than its node status, and links a report's HTML page
// where the run wrote one, served as it is in a sandbox of its own; a
// report without a page links its Markdown.
func TestReportsDecisionsAndPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	writeFile(t, filepath.Join(dir, "run.json"), `{"schemaVersion":4,"startedAt":"2026-03-01T08:00:00Z","finishedAt":"2026-03-01T08:05:00Z",
"topics":[{"id":"t1","title":"Caching","status":"forced","decision":"decided"},{"id":"t2","title":"Billing DB","status":"forced","decision":"undecided","cause":"no-verdict"}]}`)
	writeFile(t, filepath.Join(dir, "summary.md"), "# Run summary\n")
	writeFile(t, filepath.Join(dir, "summary.html"), "<!DOCTYPE html><title>Run summary</title><p>the page</p>")
	writeFile(t, filepath.Join(dir, "topic-t1-caching.md"), "# Caching\n")
	f := newFixture(t, "", []string{dir}, store.Options{})
	content := mainOf(t, f.get("/", browserAccept, "").body)
	for _, want := range []string{`decision-decided">decided<`, `decision-undecided">undecided (no-verdict)<`,
		`<a href="/reports/0/summary.html">summary</a>`, `href="/reports/0/summary.md">Markdown<`, `<a href="/reports/0/topic-t1-caching.md">topic-t1-caching.md</a>`} {
		if !strings.Contains(content, want) {
			t.Errorf("list lacks %q:\n%s", want, content)
		}
	}
	if strings.Contains(content, "forced") {
		t.Errorf("list shows the node status forced:\n%s", content)
	}
	p := f.get("/reports/0/summary.html", browserAccept, "")
	if p.status != http.StatusOK || p.body != "<!DOCTYPE html><title>Run summary</title><p>the page</p>" ||
		!strings.HasPrefix(p.header.Get("Content-Security-Policy"), "sandbox;") {
		t.Errorf("summary.html: %d, CSP %q:\n%s", p.status, p.header.Get("Content-Security-Policy"), p.body)
	}
	if p := f.get("/reports/0/topic-t1-caching.html", browserAccept, ""); p.status != http.StatusNotFound {
		t.Errorf("a page the run did not write: %d", p.status)
	}
}

// TestReportDocuments: the HTML page of a document a run's quotes link to
// (documents/<file>.html) is served as the run's report pages are, in the
// run at the folder's top and in a subfolder; nothing else under documents/
// is: not the text copies, not a symbolic link, not a folder that is one,
// not a path that leaves the folder.
func TestReportDocuments(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	secret := filepath.Join(base, "secret.html")
	writeFile(t, secret, "TOP-SECRET-CONTENT")
	const page = "<!DOCTYPE html><title>quote.go</title><pre id=L3>func Find()</pre>"
	writeFile(t, filepath.Join(dir, "topic-t1-caching.md"), "# Caching\n")
	writeFile(t, filepath.Join(dir, "documents", "quote__quote.go.html"), page)
	writeFile(t, filepath.Join(dir, "documents", "quote__quote.go"), "func Find()")
	writeFile(t, filepath.Join(dir, "documents", "deeper", "x.html"), "TOP-SECRET-CONTENT")
	writeFile(t, filepath.Join(dir, "2026-03-02", "summary.md"), "# Second run\n")
	writeFile(t, filepath.Join(dir, "2026-03-02", "documents", "a.md.html"), page)
	writeFile(t, filepath.Join(dir, "not-a-run", "documents", "a.md.html"), "TOP-SECRET-CONTENT")
	writeFile(t, filepath.Join(dir, "linked-docs", "summary.md"), "# Third run\n")
	for link, target := range map[string]string{
		filepath.Join(dir, "documents", "link.html"):   secret,
		filepath.Join(dir, "linked-docs", "documents"): base,
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, "", []string{dir}, store.Options{})
	for _, path := range []string{"/reports/0/documents/quote__quote.go.html", "/reports/0/2026-03-02/documents/a.md.html"} {
		p := f.get(path, browserAccept, "")
		if p.status != http.StatusOK || p.body != page || p.header.Get("Content-Security-Policy") != pageCSP {
			t.Errorf("%s: %d, CSP %q:\n%s", path, p.status, p.header.Get("Content-Security-Policy"), p.body)
		}
	}
	for _, path := range []string{
		"/reports/0/documents/quote__quote.go",
		"/reports/0/documents/link.html",
		"/reports/0/documents/deeper/x.html",
		"/reports/0/documents/",
		"/reports/0/documents",
		"/reports/0/documents/../../secret.html",
		"/reports/0/documents/%2e%2e/%2e%2e/secret.html",
		"/reports/0/documents/..%2f..%2fsecret.html",
		"/reports/0/not-a-run/documents/a.md.html",
		"/reports/0/linked-docs/documents/secret.html",
		"/reports/0/linked-docs/documents/out/documents/quote__quote.go.html",
		"/reports/1/documents/quote__quote.go.html",
	} {
		p := f.get(path, browserAccept, "")
		if p.status == http.StatusOK || strings.Contains(p.body, "TOP-SECRET") {
			t.Errorf("%s: status %d, served:\n%s", path, p.status, p.body)
		}
	}
}
