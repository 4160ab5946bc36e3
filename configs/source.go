package configs

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// source remembers where each field of a loaded config was written.
type source struct {
	file string
	text []byte         // the file as read, before comments were blanked
	keys map[string]int // field path → byte offset of its key (array element: of the element)
	objs map[string]int // object path → byte offset of its opening brace ("" is the root)
	bad  map[string]bool
}

func newSource(file string, text []byte) *source {
	return &source{
		file: file,
		text: text,
		keys: map[string]int{},
		objs: map[string]int{},
		bad:  map[string]bool{},
	}
}

// lineCol turns a byte offset into a 1-based line and a 1-based column
// counted in runes.
func (s *source) lineCol(off int) (line, col int) {
	if off < 0 {
		return 0, 0
	}
	off = min(off, len(s.text))
	line = 1 + bytes.Count(s.text[:off], []byte("\n"))
	start := bytes.LastIndexByte(s.text[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(s.text[start:off])
}

// written reports whether the field at path appears in the file.
func (s *source) written(path string) bool {
	if s == nil {
		return false
	}
	_, ok := s.keys[path]
	return ok
}

// suppressed reports whether path or one of its ancestors already has a
// structural problem (unknown field, wrong type), so that validation does not
// report the same mistake twice.
func (s *source) suppressed(path string) bool {
	if s == nil {
		return false
	}
	for {
		if s.bad[path] {
			return true
		}
		if path == "" {
			return false
		}
		path = parentPath(path)
	}
}

// offset finds where to point for path: its key, else the nearest enclosing
// object's brace or key.
func (s *source) offset(path string) int {
	for {
		if off, ok := s.keys[path]; ok {
			return off
		}
		if off, ok := s.objs[path]; ok {
			return off
		}
		if path == "" {
			return -1
		}
		path = parentPath(path)
	}
}

// objOffset finds the opening brace of the object at path, or of the nearest
// enclosing one.
func (s *source) objOffset(path string) int {
	for {
		if off, ok := s.objs[path]; ok {
			return off
		}
		if path == "" {
			return s.offset(path)
		}
		path = parentPath(path)
	}
}

// parentPath strips the last segment of a field path: "a.b" → "a",
// "a[2]" → "a", "a" → "".
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i >= 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

// joinPath appends a field name to a path.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// indexPath appends an array index to a path.
func indexPath(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// keyPath appends a map key to a path.
func keyPath(path, key string) string {
	return fmt.Sprintf("%s[%q]", path, key)
}

// reporter collects located problems.
type reporter struct {
	src  *source // nil when the config was not loaded from a file
	file string
	ps   []Problem
	// warnings are what a load tells but does not refuse.
	warnings []Problem
}

func (r *reporter) make(field string, off int, msg string) Problem {
	p := Problem{File: r.file, Field: field, Message: msg}
	if r.src != nil && off >= 0 {
		p.Line, p.Col = r.src.lineCol(off)
	}
	return p
}

// at reports a problem located at the key of the field at path.
func (r *reporter) at(path, format string, args ...any) {
	if r.src.suppressed(path) {
		return
	}
	off := -1
	if r.src != nil {
		off = r.src.offset(path)
	}
	r.ps = append(r.ps, r.make(path, off, fmt.Sprintf(format, args...)))
}

// warn reports a warning located at the key of the field at path.
func (r *reporter) warn(path, format string, args ...any) {
	w := reporter{src: r.src, file: r.file}
	w.at(path, format, args...)
	r.warnings = append(r.warnings, w.ps...)
}

// missing reports a required field that is absent (or empty), located at the
// field's key when it is written, else at the enclosing object's brace.
func (r *reporter) missing(obj, name, format string, args ...any) {
	path := joinPath(obj, name)
	if r.src.written(path) {
		r.at(path, format, args...)
		return
	}
	if r.src.suppressed(path) {
		return
	}
	off := -1
	if r.src != nil {
		off = r.src.objOffset(obj)
	}
	r.ps = append(r.ps, r.make(path, off, fmt.Sprintf(format, args...)))
}
