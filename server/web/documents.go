package web

import (
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/debatehq/debate/internal/linediff"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/server/api"
)

// documentData is the body of a document's page: one version rendered, the
// list of versions, and the diff from another version.
type documentData struct {
	Doc      api.Document
	Created  time.Time
	HTML     template.HTML
	Versions []versionLink
	From     int // the version the diff starts from; 0: no diff
	Diff     []linediff.Line
	Added    int
	Removed  int
}

type versionLink struct {
	Version int
	URL     string
	Current bool
}

// document serves a document as a page: ?version= (the latest by default)
// rendered, links to every version, and the diff from ?from= (the version
// before by default) to the version shown.
func (h *handler) document(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	version, err := api.QueryInt(q, "version", 0)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	id := r.PathValue("id")
	doc, err := h.st.GetDocument(r.Context(), id, version)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	from, err := api.QueryInt(q, "from", doc.Version-1)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if from >= doc.Version {
		h.fail(w, r, protocol.Errorf(protocol.CodeInvalidInput, "from: want a version older than %d, got %d", doc.Version, from).
			WithSuggestion("compare with an earlier version, e.g. from=1"))
		return
	}
	body, err := render.Fragment([]byte(doc.Content))
	if err != nil {
		h.internal(w, r, err)
		return
	}
	d := documentData{Doc: api.FromDocument(doc), Created: doc.CreatedAt, HTML: template.HTML(body), From: from}
	for v := 1; v <= doc.LatestVersion; v++ {
		d.Versions = append(d.Versions, versionLink{Version: v, URL: documentURL(id, v, 0), Current: v == doc.Version})
	}
	if from > 0 {
		old, err := h.st.GetDocument(r.Context(), id, from)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		d.Diff = linediff.Texts(old.Content, doc.Content)
		for _, l := range d.Diff {
			switch l.Op {
			case '+':
				d.Added++
			case '-':
				d.Removed++
			}
		}
	}
	title := doc.Title
	if title == "" {
		title = "Document " + doc.ID
	}
	// render.Fragment keeps raw HTML and unsafe links out, so its output is
	// safe to insert as it is.
	h.page(w, r, http.StatusOK, "document", title, d)
}

// documentURL is the page of a version of a document (0: the latest), with
// the diff from version from (0: the version before).
func documentURL(id string, version, from int) string {
	u := "/documents/" + url.PathEscape(id)
	v := url.Values{}
	if version > 0 {
		v.Set("version", strconv.Itoa(version))
	}
	if from > 0 {
		v.Set("from", strconv.Itoa(from))
	}
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	return u
}

// docIDPattern matches the ids the store gives documents (UUIDs).
var docIDPattern = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// docMentions lists the document ids text mentions, each once, in order of
// first mention; whether they exist is for the store to say.
func docMentions(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range docIDPattern.FindAllString(text, -1) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
