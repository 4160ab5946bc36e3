package web

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/render"
)

// Limits on what the reports listing reads.
const (
	maxReportBytes = 16 << 20 // one Markdown report
	maxRunJSON     = 64 << 20 // one run.json
	maxSubfolders  = 1000     // looked at per configured folder
)

// reports lists the batch runs found in configured folders. It reads the
// folders on every request (so new runs appear without a restart) and keeps
// the statuses read from each run.json until the file changes.
type reports struct {
	dirs []string

	mu    sync.Mutex
	cache map[string]cachedStatus
}

type cachedStatus struct {
	mod    time.Time
	size   int64
	status *runStatus
	err    string
}

// run is one run folder: its report files and, when it has a run.json, the
// statuses of its topics and motions.
type run struct {
	Name     string // the configured folder, or the subfolder's name
	Dir      string // the configured folder, as given
	Modified time.Time
	Files    []reportFile
	Status   *runStatus
	Err      string // why run.json could not be read
	Missing  bool   // the configured folder does not exist
	// key is the start of its files' keys ("<folder index>/" or
	// "<folder index>/<subfolder>/"), path its folder.
	key, path string
}

// reportFile is one Markdown report of a run, and its HTML page when the
// run wrote one. Only files of this shape are served: the keys are compared
// with the requested path, never joined to it.
type reportFile struct {
	name string
	run  string
	dir  string
	path string
	key  string // "<folder index>/<file>" or "<folder index>/<subfolder>/<file>"
	URL  string
	// Page is the address of the report's HTML page, empty without one;
	// pageKey and pagePath are its key and file.
	Page              string
	pageKey, pagePath string
}

// Name is the file's name.
func (f reportFile) Name() string { return f.name }

// Title is the report's name without ".md": what its page link reads.
func (f reportFile) Title() string { return strings.TrimSuffix(f.name, ".md") }

// runStatus is the part of run.json the list shows.
type runStatus struct {
	StartedAt  time.Time    `json:"startedAt"`
	FinishedAt time.Time    `json:"finishedAt"`
	Topics     []itemStatus `json:"topics"`
	Motions    []itemStatus `json:"motions"`
}

type itemStatus struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
	State  string `json:"state,omitempty"`
	// Decision and Cause are a topic's decision ("undecided" with its
	// cause); empty in a run.json written before decisions.
	Decision string `json:"decision,omitempty"`
	Cause    string `json:"cause,omitempty"`
}

// DecisionText is the decision as the reports write it: "decided",
// "undecided (no-verdict)"; empty without one.
func (s itemStatus) DecisionText() string {
	if s.Cause != "" {
		return s.Decision + " (" + s.Cause + ")"
	}
	return s.Decision
}

func newReports(dirs []string) *reports {
	var clean []string
	for _, d := range dirs {
		if d = strings.TrimSpace(d); d != "" {
			clean = append(clean, d)
		}
	}
	return &reports{dirs: clean, cache: map[string]cachedStatus{}}
}

// runs lists every run of every configured folder, newest first; a folder
// that does not exist is listed as missing.
func (rs *reports) runs() []run {
	var out []run
	for i, d := range rs.dirs {
		found, err := rs.scan(i, d)
		if err != nil {
			out = append(out, run{Name: d, Dir: d, Missing: true})
			continue
		}
		out = append(out, found...)
	}
	slices.SortStableFunc(out, func(a, b run) int { return b.Modified.Compare(a.Modified) })
	return out
}

// find returns the file of a listed run whose key is path: a report, the
// report's HTML page, or the HTML page of a document in the run's
// documents folder. page tells a page, served as the run wrote it, from a
// Markdown report, which f is then.
func (rs *reports) find(path string) (f reportFile, page string, ok bool) {
	idx, _, ok := strings.Cut(path, "/")
	if !ok {
		return reportFile{}, "", false
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= len(rs.dirs) || strconv.Itoa(i) != idx {
		return reportFile{}, "", false
	}
	found, err := rs.scan(i, rs.dirs[i])
	if err != nil {
		return reportFile{}, "", false
	}
	for _, r := range found {
		for _, f := range r.Files {
			switch {
			case path == f.key:
				return f, "", true
			case path == f.pageKey && f.pageKey != "":
				return reportFile{}, f.pagePath, true
			}
		}
		if name, ok := strings.CutPrefix(path, r.key+render.DocumentsDir+"/"); ok {
			if page, ok := r.document(name); ok {
				return reportFile{}, page, true
			}
		}
	}
	return reportFile{}, "", false
}

// document returns the file of the HTML page called name in the run's
// documents folder, when the folder (not a symbolic link) lists it as a
// regular file.
func (r run) document(name string) (string, bool) {
	if !strings.HasSuffix(name, ".html") {
		return "", false
	}
	dir := filepath.Join(r.path, render.DocumentsDir)
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		return "", false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if e.Name() == name && e.Type().IsRegular() {
			return filepath.Join(dir, e.Name()), true
		}
	}
	return "", false
}

// scan lists the runs of configured folder i (at dir): the folder itself and
// each direct subfolder that holds reports. Symbolic links are not followed.
func (rs *reports) scan(i int, dir string) ([]run, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list reports folder: %w", err)
	}
	var out []run
	if r, ok := rs.runAt(i, dir, "", entries); ok {
		out = append(out, r)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "raw" {
			continue
		}
		if n++; n > maxSubfolders {
			break
		}
		sub := filepath.Join(dir, e.Name())
		subEntries, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		if r, ok := rs.runAt(i, sub, e.Name(), subEntries); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// runAt makes the run of folder path (subfolder sub of configured folder i,
// or the folder itself when sub is empty) from its entries; ok is false when
// it holds no reports.
func (rs *reports) runAt(i int, path, sub string, entries []fs.DirEntry) (run, bool) {
	r := run{Name: rs.dirs[i], Dir: rs.dirs[i], key: strconv.Itoa(i) + "/", path: path}
	if sub != "" {
		r.Name, r.key = sub, r.key+sub+"/"
	}
	hasRunJSON := false
	pages := map[string]bool{} // the HTML pages beside the reports
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".html") {
			pages[e.Name()] = true
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if name == "run.json" {
			hasRunJSON = true
			r.Modified = later(r.Modified, info.ModTime())
			r.Status, r.Err = rs.status(filepath.Join(path, name), info)
			continue
		}
		if !isReport(name) {
			continue
		}
		r.Modified = later(r.Modified, info.ModTime())
		key := r.key + name
		u := "/reports/" + strconv.Itoa(i) + "/"
		if sub != "" {
			u += url.PathEscape(sub) + "/"
		}
		f := reportFile{name: name, run: r.Name, dir: r.Dir, path: filepath.Join(path, name), key: key, URL: u + url.PathEscape(name)}
		if page := strings.TrimSuffix(name, ".md") + ".html"; pages[page] {
			f.Page, f.pageKey, f.pagePath = u+url.PathEscape(page), strings.TrimSuffix(key, ".md")+".html", filepath.Join(path, page)
		}
		r.Files = append(r.Files, f)
	}
	slices.SortFunc(r.Files, func(a, b reportFile) int { return reportOrder(a.name, b.name) })
	return r, len(r.Files) > 0 || hasRunJSON
}

// isReport reports whether name is a report the list shows: summary.md, or a
// topic's or motion's Markdown report.
func isReport(name string) bool {
	if !strings.HasSuffix(name, ".md") {
		return false
	}
	return name == "summary.md" || strings.HasPrefix(name, "topic-") || strings.HasPrefix(name, "motion-")
}

// reportOrder puts summary.md first, then topics, then motions, each by name.
func reportOrder(a, b string) int {
	rank := func(n string) int {
		switch {
		case n == "summary.md":
			return 0
		case strings.HasPrefix(n, "topic-"):
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// status reads the statuses of run.json at path, from the cache while the
// file keeps its time and size.
func (rs *reports) status(path string, info fs.FileInfo) (*runStatus, string) {
	rs.mu.Lock()
	c, ok := rs.cache[path]
	rs.mu.Unlock()
	if ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.status, c.err
	}
	c = cachedStatus{mod: info.ModTime(), size: info.Size()}
	if info.Size() > maxRunJSON {
		c.err = "run.json is too large to read here"
	} else if data, err := regular.ReadFileNoFollow(path, maxRunJSON); err != nil {
		c.err = "run.json cannot be read"
	} else {
		var st runStatus
		if err := json.Unmarshal(data, &st); err != nil {
			c.err = "run.json is not valid JSON"
		} else {
			c.status = &st
		}
	}
	rs.mu.Lock()
	rs.cache[path] = c
	rs.mu.Unlock()
	return c.status, c.err
}
