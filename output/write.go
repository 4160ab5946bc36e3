// Package output writes a run's folder — topic reports, summary.md, run.json,
// HTML pages and raw responses, each file atomically —, tells a CI job what
// the run decided (GitHub Actions' summary, outputs and annotations), and
// shows a run's progress on the terminal.
package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// The report formats a run can ask for. JSON (run.json) is written whatever
// is asked, because CI consumes it.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatHTML     = "html"
	// FormatJUnit writes junit.xml: a test case per topic, failing when
	// its decision is in Options.FailOn.
	FormatJUnit = "junit"
)

// Options says what Write writes beside run.json.
type Options struct {
	// Formats lists markdown, json, html and junit. Markdown is written
	// when it is listed or when the list is empty; HTML and junit.xml when
	// they are listed.
	Formats []string
	// Raw files are written under raw/ when there are any.
	Raw []RawFile
	// FailOn lists the decisions whose topics fail in junit.xml.
	FailOn []tree.Outcome
	// Documents are the shared documents the run's debaters could quote. A
	// copy of each one a verified quote points into is written under
	// documents/ (render.DocumentFile), for the reports' links to the lines
	// quoted: the text as it is beside the Markdown, a page with numbered
	// lines beside the HTML.
	Documents []Document
}

// Document is a shared document by the name the run's quotes give it.
type Document struct {
	Name string
	Text string
}

// RawFile is one file of raw requests and responses, secrets already removed.
// Name is a file name; Write replaces any character that is not safe in one
// (path separators included) and makes repeated names unique.
type RawFile struct {
	Name string
	Body []byte
}

// file is one file of the run folder, its path relative to the folder.
type file struct {
	name string
	body []byte
}

// Write writes a run's folder at dir, creating it if needed: a Markdown report
// per topic (TopicFile; a name that collides with an earlier topic's gets
// "-2", "-3"… before ".md"), one per motion (MotionFile), summary.md, their
// .html pages when asked, run.json, and raw/ when there are raw files. Each
// file is written atomically. A run with failed or interrupted nodes is
// written like any other. Write returns the paths it wrote, in that order; when a file cannot
// be written it still writes the others and returns every error joined.
func Write(dir string, run *tree.Run, opt Options) ([]string, error) {
	markdown, html, junit, err := formats(opt.Formats)
	if err != nil {
		return nil, err
	}
	var files, pages []file
	var errs []error
	addPage := func(name string, page []byte, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		pages = append(pages, file{htmlName(name), page})
	}
	used := map[string]bool{}
	reports := map[string]string{} // the Markdown report of every topic and motion, by id
	for i := range run.Topics {
		t := &run.Topics[i]
		name := uniqueName(TopicFile(t), used)
		reports[t.ID] = name
		if markdown {
			files = append(files, file{name, render.Topic(run, t)})
		}
		if html {
			page, err := render.TopicHTML(run, t)
			addPage(name, page, err)
		}
	}
	for i := range run.Motions {
		m := &run.Motions[i]
		name := uniqueName(MotionFile(m), used)
		reports[m.ID] = name
		if markdown {
			files = append(files, file{name, render.Motion(run, m)})
		}
		if html {
			page, err := render.MotionHTML(run, m)
			addPage(name, page, err)
		}
	}
	if markdown {
		files = append(files, file{"summary.md", render.Summary(run, reports)})
	}
	if html {
		htmlPages := make(map[string]string, len(reports))
		for id, name := range reports {
			htmlPages[id] = htmlName(name)
		}
		page, err := render.SummaryHTML(run, htmlPages)
		addPage("summary.md", page, err)
	}
	files = append(files, pages...)
	if junit {
		if body, err := render.JUnit(run, opt.FailOn, reports); err != nil {
			errs = append(errs, err)
		} else {
			files = append(files, file{"junit.xml", body})
		}
	}
	body, err := EncodeRun(run)
	if err != nil {
		errs = append(errs, err)
	} else {
		files = append(files, file{"run.json", body})
	}
	files = append(files, documentFiles(run, opt.Documents, markdown, html, &errs)...)
	rawUsed := map[string]bool{}
	for _, r := range opt.Raw {
		files = append(files, file{filepath.Join("raw", uniqueName(rawName(r.Name), rawUsed)), r.Body})
	}

	written, err := writeAll(dir, files)
	if err != nil {
		return nil, err
	}
	return written.paths, errors.Join(append(errs, written.errs...)...)
}

// writing is what writeAll did: the paths it wrote and the files it could
// not write.
type writing struct {
	paths []string
	errs  []error
}

// writeAll writes files under dir, creating dir and the files' folders; it
// fails when a folder cannot be made and otherwise goes on past a file it
// cannot write.
func writeAll(dir string, files []file) (writing, error) {
	var w writing
	for _, d := range append([]file{{name: "."}}, files...) {
		sub := filepath.Join(dir, filepath.Dir(d.name))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return w, fmt.Errorf("create folder %s: %w", sub, err)
		}
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := writeFile(path, f.body); err != nil {
			w.errs = append(w.errs, err)
			continue
		}
		w.paths = append(w.paths, path)
	}
	syncDir(dir)
	return w, nil
}

// documentFiles returns the copies of the documents that a verified quote
// of run points into: the text with the Markdown reports, the numbered page
// with the HTML ones.
func documentFiles(run *tree.Run, docs []Document, markdown, html bool, errs *[]error) []file {
	var out []file
	for _, name := range render.QuotedDocuments(run) {
		i := slices.IndexFunc(docs, func(d Document) bool { return d.Name == name })
		if i < 0 {
			continue
		}
		path := filepath.FromSlash(render.DocumentFile(name))
		if markdown {
			out = append(out, file{path, []byte(docs[i].Text)})
		}
		if html {
			page, err := render.DocumentHTML(run, name, docs[i].Text)
			if err != nil {
				*errs = append(*errs, err)
				continue
			}
			out = append(out, file{path + ".html", page})
		}
	}
	return out
}

// htmlName returns the name of the HTML page of a Markdown report.
func htmlName(md string) string {
	return strings.TrimSuffix(md, ".md") + ".html"
}

// formats reads the requested formats.
func formats(list []string) (markdown, html, junit bool, err error) {
	markdown = len(list) == 0
	for _, f := range list {
		switch f {
		case FormatMarkdown:
			markdown = true
		case FormatHTML:
			html = true
		case FormatJUnit:
			junit = true
		case FormatJSON:
		default:
			return false, false, false, fmt.Errorf("output format %q: must be one of markdown, json, html, junit", f)
		}
	}
	return markdown, html, junit, nil
}

// rawName makes a raw file name a plain file name: characters other than
// ASCII letters, digits, '.', '_' and '-' become '-', and a name of dots only
// becomes "raw".
func rawName(name string) string {
	name = safeID(name)
	if strings.Trim(name, ".") == "" {
		return "raw"
	}
	return name
}

// uniqueName returns name, or name with "-2", "-3"… before its extension when
// a name equal to it but for case was already used, and marks it used.
func uniqueName(name string, used map[string]bool) string {
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 2; used[strings.ToLower(name)]; i++ {
		name = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
	used[strings.ToLower(name)] = true
	return name
}

// writeFile writes body to path atomically.
func writeFile(path string, body []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	})
}

// writeAtomic writes a file through fill into a temporary file in the same
// folder, syncs it and renames it over path, so that path holds either its
// previous content or the whole new one. On failure no temporary file is
// left behind.
func writeAtomic(path string, fill func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// syncDir flushes a folder's entries to disk where the OS allows it, so that
// renames survive a crash. It is best effort: some systems cannot sync a
// folder.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
