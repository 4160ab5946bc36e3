// Package web is the browser face of `debate serve`: a list of the
// debates that refreshes itself (server-sent events) with a "needs you" view
// counted in the tab title, and of the batch runs' reports found in
// configured folders; a live page per debate (its argument tree over the
// server's WebSocket, the state and who is awaited, and the arbitrator's
// Intervene and Ruling controls, the ruling form beside the argument it
// answers); documents as pages with their versions and diffs; and the
// reports rendered as pages.
//
// Everything is embedded (HTML templates, one stylesheet, one script) and
// works offline. Markdown is rendered on the server by the shared goldmark
// (render.Fragment); the script only inserts that HTML or sets plain text.
// Every page carries a Content Security Policy that allows only the page's
// own script and stylesheet (by hash) and network access to its own origin
// (the WebSocket included).
//
// The server serves the UI as its server.Pages, behind its safety checks and
// token. A browser without the token gets a page asking for it, which the
// server keeps in a session cookie. A page opened with ?token= is sent by the
// server to the same address without it, the token kept in that cookie; the
// token is never written into a page or its links.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// pageSize is how many debates the list shows per page.
const pageSize = 50

// Options configure the web UI.
type Options struct {
	// Reports lists folders holding batch runs' outputs: each folder and each
	// of its direct subfolders that contains reports is shown as one run.
	Reports []string
	// Logger receives internal errors (with the request id); slog.Default()
	// when nil. Tokens and query strings are never logged.
	Logger *slog.Logger
	// Done, when set, closes when the server begins to shut down: the live
	// feeds of open pages end then, so that shutdown need not wait for them.
	Done <-chan struct{}
}

//go:embed assets
var assets embed.FS

// UI is the web UI: it serves the server's pages (server.Pages). Create it
// with New and give it to the server as server.Options.Pages.
type UI struct {
	always *http.ServeMux // paths only the UI serves
	pages  *http.ServeMux // paths that are pages for browsers and JSON for agents
	h      *handler
	// firsts holds the first path segment of every pattern of always,
	// which the path of a request for one of them begins with.
	firsts map[string]bool
}

// New returns the web UI over st: GET / (the debates and reports), the page
// of a debate at GET /debates/{id}, the list at GET /debates and a document at
// GET /documents/{id} for browsers (agents asking for JSON still get the API's
// answers there), the rendered arguments a page loads at GET
// /ui/debates/{id}/arguments, the list's live feed at GET /ui/events, and the
// reports at GET /reports/….
func New(st *store.Store, opt Options) *UI {
	h := newHandler(st, opt)
	u := &UI{always: http.NewServeMux(), pages: http.NewServeMux(), h: h, firsts: map[string]bool{}}
	u.handleAlways("GET /{$}", h.list)
	u.handleAlways("GET /ui/debates/{id}/arguments", h.arguments)
	u.handleAlways("GET /reports/{path...}", h.report)
	u.handleAlways("GET /ui/events", h.events)
	u.pages.HandleFunc("GET /debates", h.list)
	u.pages.HandleFunc("GET /debates/{id}", h.debate)
	u.pages.HandleFunc("GET /documents/{id}", h.document)
	return u
}

// handleAlways serves pattern (a method and a literal first path segment)
// with h for any client.
func (u *UI) handleAlways(pattern string, h http.HandlerFunc) {
	u.always.HandleFunc(pattern, h)
	_, p, _ := strings.Cut(pattern, " /")
	first, _, _ := strings.Cut(p, "/")
	if first == "{$}" {
		first = ""
	}
	u.firsts[first] = true
}

// Page returns the handler of the page r asks for: the UI's own paths for
// any client, the pages shared with the API only for requests that accept
// HTML. It returns nil for everything else.
func (u *UI) Page(r *http.Request) http.Handler {
	// The muxes themselves serve, so that the handlers see path values.
	if u.mayAlways(r) {
		if _, pattern := u.always.Handler(r); pattern != "" {
			return u.always
		}
	}
	if acceptsHTML(r) {
		if _, pattern := u.pages.Handler(r); pattern != "" {
			return u.pages
		}
	}
	return nil
}

// mayAlways reports whether r may be for a path of always. It is false only
// for a plain path whose first segment begins none of them, as the API's
// requests do, which then skip the mux's search for a pattern (and for the
// methods of a 405); it leaves an escaped or unclean path to the mux.
func (u *UI) mayAlways(r *http.Request) bool {
	p := r.URL.EscapedPath()
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "%.") || strings.Contains(p, "//") {
		return true
	}
	first, _, _ := strings.Cut(p[1:], "/")
	return u.firsts[first]
}

// AskToken answers a browser that asked for a page without the server's
// token with a page that asks for it; other clients get the API's JSON 401.
func (u *UI) AskToken(w http.ResponseWriter, r *http.Request) bool {
	if !acceptsHTML(r) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	u.h.page(w, r, http.StatusUnauthorized, "token", "Token required", nil)
	return true
}

type handler struct {
	done    <-chan struct{}
	st      *store.Store
	log     *slog.Logger
	reports *reports
	pages   map[string]*template.Template
	script  template.JS
	style   template.CSS
	csp     string
	states  map[string]stateInfo
	// renders holds a slot per document version being rendered: a large
	// version takes tens of megabytes to render, so they render one at a
	// time.
	renders chan struct{}
}

func newHandler(st *store.Store, opt Options) *handler {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	js := mustRead("assets/app.js")
	css := mustRead("assets/style.css")
	h := &handler{
		done:    opt.Done,
		st:      st,
		log:     opt.Logger,
		reports: newReports(opt.Reports),
		renders: make(chan struct{}, 1),
		pages:   map[string]*template.Template{},
		script:  template.JS(js),
		style:   template.CSS(css),
		csp: "default-src 'none'; script-src " + hashSource(js) + "; style-src " + hashSource(css) +
			"; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
		states: stateTable(),
	}
	funcs := template.FuncMap{"awaited": awaitedText, "wireTime": wireTime, "shortTime": shortTime,
		"stateClass":    func(s string) string { return "state " + classFor("state-", s) },
		"statusClass":   func(s string) string { return "status " + classFor("status-", s) },
		"decisionClass": func(s string) string { return "status " + classFor("decision-", s) }}
	for _, name := range []string{"list", "debate", "report", "error", "token", "document"} {
		h.pages[name] = template.Must(template.New("layout.html").Funcs(funcs).
			ParseFS(assets, "assets/layout.html", "assets/"+name+".html"))
	}
	return h
}

func mustRead(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(fmt.Sprintf("web: embedded %s: %v", name, err))
	}
	return string(b)
}

// hashSource is the CSP source allowing exactly the inline script or style
// with this text.
func hashSource(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// stateInfo is what a page shows for a state: who is awaited and what the
// arbitrator may submit.
type stateInfo struct {
	Awaited    string   `json:"awaited"`
	Arbitrator []string `json:"arbitrator"`
}

func stateTable() map[string]stateInfo {
	m := make(map[string]stateInfo, len(protocol.States))
	for _, s := range protocol.States {
		m[string(s)] = stateInfo{Awaited: awaitedText(string(s)), Arbitrator: api.Actions(s, protocol.Arbitrator)}
	}
	return m
}

// awaitedText names the roles a debate in state s waits for: those that may
// submit something other than an INTERVENTION (which the arbitrator may
// always use to stop the floor).
func awaitedText(s string) string {
	var who []string
	for _, r := range protocol.Roles {
		for _, a := range protocol.AvailableActions(protocol.State(s), r) {
			if a != protocol.Intervention {
				who = append(who, string(r))
				break
			}
		}
	}
	if len(who) == 0 {
		if protocol.State(s) == protocol.Closed {
			return "nobody (closed)"
		}
		return "—"
	}
	return strings.Join(who, ", ")
}

// classFor is a CSS class name for value v: prefix then v in lower case,
// every character but letters, digits and '_' turned into '-'.
func classFor(prefix, v string) string {
	return prefix + strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			return r
		}
		return '-'
	}, v)
}

// wireTime formats t as the API does (the script localizes it).
func wireTime(t time.Time) string { return api.FormatTime(t) }

// shortTime is t for people who read it without the script: UTC to the
// minute.
func shortTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// layoutData is what every page gives the layout.
type layoutData struct {
	Title  string
	Page   string
	Script template.JS
	Style  template.CSS
	Body   any
}

// page writes a whole page with the security headers.
func (h *handler) page(w http.ResponseWriter, r *http.Request, status int, name, title string, body any) {
	var buf bytes.Buffer
	err := h.pages[name].Execute(&buf, layoutData{Title: title, Page: name, Script: h.script, Style: h.style, Body: body})
	if err != nil {
		h.internal(w, r, fmt.Errorf("render %s page: %w", name, err))
		return
	}
	h.headers(w, "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

func (h *handler) headers(w http.ResponseWriter, contentType string) {
	hd := w.Header()
	hd.Set("Content-Type", contentType)
	hd.Set("Content-Security-Policy", h.csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cache-Control", "no-store")
}

// errorData is the body of the error page.
type errorData struct {
	Status     int
	Code       string
	Message    string
	Suggestion string
}

// fail shows err as an error page: a protocol error as it is, anything else
// as an internal error logged with the request id.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	err = unavailable(w, err)
	status, body, internal := api.Problem(err, w.Header().Get("X-Request-Id"))
	if internal {
		h.internal(w, r, err)
		return
	}
	h.page(w, r, status, "error", http.StatusText(status),
		errorData{Status: status, Code: body.Code, Message: body.Message, Suggestion: body.Suggestion})
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	h.page(w, r, http.StatusNotFound, "error", "Not found",
		errorData{Status: http.StatusNotFound, Code: api.CodeRouteNotFound, Message: msg, Suggestion: "go back to the list of debates and reports"})
}

func (h *handler) internal(w http.ResponseWriter, r *http.Request, err error) {
	id := w.Header().Get("X-Request-Id")
	h.log.Error("web: internal error", "request_id", id, "where", r.Method+" "+r.URL.Path, "err", err)
	h.headers(w, "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = fmt.Fprintf(w, "internal error (request %s)\n", id)
}

// listData is the body of the list page.
type listData struct {
	Debates    []listRow
	Total      int
	State      string
	States     []string
	Needs      int  // debates awaiting the arbitrator
	NeedsView  bool // the "needs you" view
	First      int  // 1-based index of the first debate shown
	Last       int
	NewerURL   string
	OlderURL   string
	Runs       []run
	ReportDirs int
}

type listRow struct {
	api.Debate
	Updated time.Time
	URL     string
}

// list serves the debates, newest first, filtered by ?state= or, with
// ?view=needs, those that wait for the arbitrator; and the reports. The
// count of debates that wait for the arbitrator is in the title.
func (h *handler) list(w http.ResponseWriter, r *http.Request) {
	q, err := api.ParseListQuery(r.URL.Query())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	d := listData{State: string(q.State), Runs: h.reports.runs(), ReportDirs: len(h.reports.dirs)}
	switch v := r.URL.Query().Get("view"); v {
	case "":
	case "needs":
		d.NeedsView = true
	default:
		h.fail(w, r, protocol.Errorf(protocol.CodeInvalidInput, "view: want needs or nothing, got %q", v).
			WithSuggestion("use ?view=needs for the debates that wait for you"))
		return
	}
	needs, err := h.needs(r.Context(), pageSize)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	d.Needs = needs.Total
	p := needs
	f := store.Filter{State: q.State, Offset: q.Offset, PendingFirstOpponent: q.PendingFirstOpponent, Limit: pageSize}
	if !d.NeedsView {
		if p, err = h.st.List(r.Context(), f); err != nil {
			h.fail(w, r, err)
			return
		}
	} else {
		f = store.Filter{Limit: pageSize}
	}
	d.Total = p.Total
	for _, s := range protocol.States {
		d.States = append(d.States, string(s))
	}
	for _, deb := range p.Debates {
		d.Debates = append(d.Debates, listRow{Debate: api.FromDebate(deb), Updated: deb.UpdatedAt, URL: "/debates/" + url.PathEscape(deb.ID)})
	}
	if len(p.Debates) > 0 {
		d.First, d.Last = f.Offset+1, f.Offset+len(p.Debates)
	}
	pageURL := func(offset int) string {
		v := url.Values{}
		if f.State != protocol.None {
			v.Set("state", string(f.State))
		}
		if offset > 0 {
			v.Set("offset", strconv.Itoa(offset))
		}
		if len(v) == 0 {
			return "/"
		}
		return "/?" + v.Encode()
	}
	if !d.NeedsView && f.Offset > 0 {
		d.NewerURL = pageURL(max(0, f.Offset-pageSize))
	}
	if !d.NeedsView && f.Offset+len(p.Debates) < p.Total {
		d.OlderURL = pageURL(f.Offset + len(p.Debates))
	}
	h.page(w, r, http.StatusOK, "list", countTitle(d.Needs, "Debates"), d)
}

// countTitle puts the number of debates that need the arbitrator before a
// page's title, as the tab shows it.
func countTitle(needs int, title string) string {
	if needs == 0 {
		return title
	}
	return "(" + strconv.Itoa(needs) + ") " + title
}

// debateData is the body of a debate's page; Data is the JSON the script
// reads.
type debateData struct {
	Debate  api.Debate
	Created time.Time
	Updated time.Time
	Data    pageData
}

type pageData struct {
	Debate api.Debate           `json:"debate"`
	States map[string]stateInfo `json:"states"`
}

// debate serves the live page of a debate.
func (h *handler) debate(w http.ResponseWriter, r *http.Request) {
	c, err := h.st.Get(r.Context(), r.PathValue("id"), 0)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	d := api.FromDebate(c.Debate)
	title := c.Debate.Title
	if title == "" {
		title = "Debate " + c.Debate.ID
	}
	h.page(w, r, http.StatusOK, "debate", title, debateData{Debate: d, Created: c.Debate.CreatedAt,
		Updated: c.Debate.UpdatedAt, Data: pageData{Debate: d, States: h.states}})
}

// renderedArgument is an argument with its content rendered to safe HTML, as
// GET /ui/debates/{id}/arguments returns it.
type renderedArgument struct {
	api.Argument
	HTML string `json:"html"`
	// Docs lists the ids of existing documents the content mentions; the
	// page links them to their pages.
	Docs []string `json:"docs,omitempty"`
}

// rendered is the answer of GET /ui/debates/{id}/arguments: the debate as it
// is now and its arguments after the given seq, in seq order.
type rendered struct {
	Debate    api.Debate         `json:"debate"`
	Arguments []renderedArgument `json:"arguments"`
}

// arguments serves the arguments of a debate after ?after= (a seq), their
// content rendered by the shared goldmark, in the API's envelope.
func (h *handler) arguments(w http.ResponseWriter, r *http.Request) {
	after := 0
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			h.jsonError(w, r, protocol.Errorf(protocol.CodeInvalidInput, "after: want a non-negative integer (a seq), got %q", v))
			return
		}
		after = n
	}
	deb, args, err := h.st.Since(r.Context(), r.PathValue("id"), after)
	if err != nil {
		h.jsonError(w, r, err)
		return
	}
	out := rendered{Debate: api.FromDebate(deb), Arguments: make([]renderedArgument, 0, len(args))}
	mentions := make([][]string, len(args))
	var all []string
	for i, a := range args {
		mentions[i] = docMentions(a.Content)
		all = append(all, mentions[i]...)
	}
	exists, err := h.st.ExistingDocuments(r.Context(), all)
	if err != nil {
		h.jsonError(w, r, err)
		return
	}
	for i, a := range args {
		body, err := render.Fragment([]byte(a.Content))
		if err != nil {
			h.jsonError(w, r, err)
			return
		}
		var docs []string
		for _, id := range mentions[i] {
			if exists[id] {
				docs = append(docs, id)
			}
		}
		out.Arguments = append(out.Arguments, renderedArgument{Argument: api.FromArgument(a), HTML: string(body), Docs: docs})
	}
	h.writeJSON(w, http.StatusOK, api.Envelope[rendered]{Success: true, Data: out})
}

// jsonError writes err in the API's error envelope, logging it when it is
// internal.
func (h *handler) jsonError(w http.ResponseWriter, r *http.Request, err error) {
	id := w.Header().Get("X-Request-Id")
	err = unavailable(w, err)
	status, body, internal := api.Problem(err, id)
	if internal {
		h.log.Error("web: internal error", "request_id", id, "where", r.Method+" "+r.URL.Path, "err", err)
	}
	h.writeJSON(w, status, api.Envelope[any]{Error: body})
}

// unavailable is api.Unavailable, with its Retry-After set on w, when err
// means the database could not be reached; else err.
func unavailable(w http.ResponseWriter, err error) error {
	if !store.Unavailable(err) {
		return err
	}
	w.Header().Set("Retry-After", api.RetryAfter)
	return api.Unavailable()
}

func (h *handler) writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, status = []byte(`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"internal error"}}`), http.StatusInternalServerError
	}
	h.headers(w, "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// pageCSP is the policy a run's own HTML page is served under: sandboxed
// (no script, an origin of its own, so no access to the server's), styles
// inline, images as data: only, as the page was made to need.
const pageCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"

// reportPage serves an HTML page a run wrote (a report's, or a quoted
// document's under documents/), as it is, under pageCSP.
func (h *handler) reportPage(w http.ResponseWriter, r *http.Request, path string) {
	body, err := regular.ReadFileNoFollow(path, maxReportBytes)
	if err != nil {
		h.internal(w, r, fmt.Errorf("read report page: %w", err))
		return
	}
	h.headers(w, "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", pageCSP)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// reportData is the body of a report's page.
type reportData struct {
	Run  string
	File string
	Dir  string
	HTML template.HTML
}

// report serves one report file of a listed run, rendered, or one of the
// run's HTML pages as it is. Only files the listing of the configured
// folders names are served; any other path is not found, whatever it
// contains.
func (h *handler) report(w http.ResponseWriter, r *http.Request) {
	f, page, ok := h.reports.find(r.PathValue("path"))
	if !ok {
		h.notFound(w, r, "no such report")
		return
	}
	if page != "" {
		h.reportPage(w, r, page)
		return
	}
	md, err := regular.ReadFileNoFollow(f.path, maxReportBytes)
	if err != nil {
		h.internal(w, r, fmt.Errorf("read report: %w", err))
		return
	}
	body, err := render.Fragment(md)
	if err != nil {
		h.internal(w, r, err)
		return
	}
	title := f.name
	if line, _, _ := strings.Cut(string(md), "\n"); strings.HasPrefix(line, "# ") {
		title = strings.TrimSpace(strings.TrimPrefix(line, "# "))
	}
	// render.Fragment drops raw HTML and unsafe links, so its output is
	// safe to insert as it is.
	h.page(w, r, http.StatusOK, "report", title, reportData{Run: f.run, File: f.name, Dir: f.dir, HTML: template.HTML(body)})
}
