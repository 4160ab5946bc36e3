package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
	"unicode"

	"github.com/debatehq/debate/internal/regular"
)

//go:embed templates
var embedded embed.FS

// ext is the file-name extension of a template file.
const ext = ".tmpl"

// languages are the embedded template sets; the first is the default.
var languages = []string{"en", "zh"}

// steps lists every template in the order a debate uses them, with the data
// type its builder executes it with.
var steps = []struct {
	name   string
	sample func() any // a value of the step's data type, for the checks at New
}{
	{"root_position", func() any { return RootPosition{} }},
	{"child_position_involved", func() any { return ChildPosition{Involved: true} }},
	{"child_position_uninvolved", func() any { return ChildPosition{} }},
	{"rebuttal", func() any { return Rebuttal{} }},
	{"triage", func() any { return Judge{} }},
	{"forced_verdict", func() any { return Judge{} }},
	{"panel_verdict", func() any { return PanelVerdict{Questions: []Question{{}}} }},
	{"repair", func() any { return Repair{} }},
	{"synthesis", func() any { return Synthesis{} }},
	{"edits", func() any { return Edits{} }},
}

// Names returns the name of every step's template, in step order. A step's
// template file is its name plus ".tmpl".
func Names() []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.name
	}
	return out
}

// Languages returns the languages with an embedded template set; the first
// is the default.
func Languages() []string { return slices.Clone(languages) }

// stepTemplate is one parsed step template with the text it came from.
type stepTemplate struct {
	tmpl   *template.Template
	source string
	origin string // where the text came from, for error messages
}

// Set is a parsed, checked set of prompt templates for one language, with
// any overrides applied. It is safe for concurrent use.
type Set struct {
	language string
	steps    map[string]*stepTemplate
}

// New loads the embedded templates of language ("" means "en"), then
// replaces each one for which overrideDir ("" for none) holds a file of the
// same name. Every template is parsed and test-rendered here, so a broken
// template (a syntax error, an unknown field, a missing "user" part) fails at
// once with its file name and line.
//
// Each file defines a "user" template and, except repair, optionally a
// "system" one; text outside these definitions is an error. A file in
// overrideDir whose name is not a step's file name is an error as well;
// names starting with "." are ignored.
func New(language, overrideDir string) (*Set, error) {
	if language == "" {
		language = languages[0]
	}
	if !slices.Contains(languages, language) {
		return nil, fmt.Errorf("prompts: unknown language %q (known: %s)", language, strings.Join(languages, ", "))
	}
	texts := make(map[string]string, len(steps))
	origins := make(map[string]string, len(steps))
	for _, st := range steps {
		file := language + "/" + st.name + ext
		b, err := embedded.ReadFile("templates/" + file)
		if err != nil {
			return nil, fmt.Errorf("prompts: embedded template %s: %w", file, err)
		}
		texts[st.name] = string(b)
		origins[st.name] = "embedded " + file
	}
	if overrideDir != "" {
		if err := readOverrides(overrideDir, texts, origins); err != nil {
			return nil, err
		}
	}
	s := &Set{language: language, steps: make(map[string]*stepTemplate, len(steps))}
	for _, st := range steps {
		t, err := parseStep(st.name, texts[st.name])
		if err != nil {
			return nil, fmt.Errorf("prompts: %s: %w", origins[st.name], err)
		}
		if err := check(t, st.sample()); err != nil {
			return nil, fmt.Errorf("prompts: %s: %w", origins[st.name], err)
		}
		s.steps[st.name] = &stepTemplate{tmpl: t, source: texts[st.name], origin: origins[st.name]}
	}
	return s, nil
}

// readOverrides replaces texts by the files of dir.
func readOverrides(dir string, texts, origins map[string]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("prompts: template override folder: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name, ok := strings.CutSuffix(e.Name(), ext)
		if !ok || !overridable(name) || e.IsDir() {
			valid := make([]string, 0, len(steps))
			for _, n := range append(Names(), RoleNames()...) {
				valid = append(valid, n+ext)
			}
			return fmt.Errorf("prompts: template override %s: unknown template file name (valid names: %s)",
				filepath.Join(dir, e.Name()), strings.Join(valid, ", "))
		}
		path := filepath.Join(dir, e.Name())
		b, err := regular.ReadFile(path, MaxTemplateBytes)
		if err != nil {
			return fmt.Errorf("prompts: template override: %w", err)
		}
		texts[name] = string(b)
		origins[name] = path
	}
	return nil
}

// parseStep parses one step's template file and checks its parts.
func parseStep(name, text string) (*template.Template, error) {
	t, err := parseText(name+ext, text)
	if err != nil {
		return nil, err
	}
	if t.Tree != nil {
		for _, n := range t.Tree.Root.Nodes {
			off := int(n.Position())
			if tn, ok := n.(*parse.TextNode); ok {
				lead := len(tn.Text) - len(bytes.TrimLeftFunc(tn.Text, unicode.IsSpace))
				if lead == len(tn.Text) {
					continue
				}
				off += lead
			}
			return nil, fmt.Errorf("%s:%d: text outside {{define \"system\"}} and {{define \"user\"}} is never sent",
				name+ext, lineOf(text, off))
		}
	}
	if t.Lookup("user") == nil {
		return nil, fmt.Errorf("%s: no {{define \"user\"}} template", name+ext)
	}
	if name == "repair" && t.Lookup("system") != nil {
		return nil, fmt.Errorf("%s: defines \"system\", but the repair step continues the judge's conversation and takes only \"user\"", name+ext)
	}
	for _, tt := range t.Templates() {
		if n := tt.Name(); n != t.Name() && n != "system" && n != "user" && !strings.HasPrefix(n, "_") {
			return nil, fmt.Errorf("%s: unknown template %q (define \"system\", \"user\", or templates whose names start with \"_\")", name+ext, n)
		}
	}
	return t, nil
}

// parseText parses a template text with the options every prompt template uses:
// a missing map key is an error, and the helper functions are available.
func parseText(name, text string) (*template.Template, error) {
	return template.New(name).Option("missingkey=error").Funcs(funcs).Parse(text)
}

// lineOf returns the 1-based line of byte offset off in text.
func lineOf(text string, off int) int {
	return 1 + strings.Count(text[:min(off, len(text))], "\n")
}

// check bounds the template calls of t (countCalls) and renders every part
// of t with an empty and with a fully populated value of sample's type, so
// that a reference to an unknown field fails at load time rather than in
// the middle of a run.
func check(t *template.Template, sample any) error {
	if err := countCalls(t); err != nil {
		return err
	}
	full := reflect.New(reflect.TypeOf(sample)).Elem()
	full.Set(reflect.ValueOf(sample))
	populate(full)
	// Keep the flag that chose the template: only its branch is ever rendered.
	if f := full.FieldByName("Involved"); f.IsValid() {
		f.SetBool(reflect.ValueOf(sample).FieldByName("Involved").Bool())
	}
	for _, data := range []any{sample, full.Interface()} {
		for _, part := range []string{"system", "user"} {
			if tt := t.Lookup(part); tt != nil {
				if err := tt.Execute(newCapped(discard{}), data); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// populate fills v with non-zero values: strings, numbers, true, and two
// elements in every slice.
func populate(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("text")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range s.Len() {
			populate(s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				populate(v.Field(i))
			}
		}
	}
}

// discard is an io.Writer that drops what it gets.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Language returns the set's language.
func (s *Set) Language() string { return s.language }

// Source returns the text of a step's template as it is used, after
// overrides. name is one of Names(), with or without ".tmpl".
func (s *Set) Source(name string) (string, error) {
	st, err := s.step(strings.TrimSuffix(name, ext))
	if err != nil {
		return "", err
	}
	return st.source, nil
}

func (s *Set) step(name string) (*stepTemplate, error) {
	st, ok := s.steps[name]
	if !ok {
		return nil, fmt.Errorf("prompts: unknown template %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return st, nil
}

// render executes a step's templates with data: a system message when the
// template defines a non-empty one, then the user message. Text fields are tidied first:
// trailing white space and leading blank lines are dropped.
func (s *Set) render(name string, data any) ([]Message, error) {
	st, err := s.step(name)
	if err != nil {
		return nil, err
	}
	data = tidy(reflect.ValueOf(data)).Interface()
	var msgs []Message
	for _, part := range []struct{ name, role string }{{"system", RoleSystem}, {"user", RoleUser}} {
		t := st.tmpl.Lookup(part.name)
		if t == nil {
			continue
		}
		raw, err := execute(t, data)
		if err != nil {
			return nil, fmt.Errorf("prompts: render %s (%s): %w", name, st.origin, err)
		}
		text, breaks := cutBreaks(raw)
		if part.role == RoleSystem {
			if text == "" {
				continue
			}
			breaks = []int{len(text)}
		}
		msgs = append(msgs, Message{Role: part.role, Content: text, Breaks: breaks})
	}
	return msgs, nil
}

// buffers holds the buffers that templates execute into, so that a render
// allocates its text once, at its final size, instead of at every growth.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer put back in buffers: a rare huge prompt's
// memory is not kept.
const maxPooled = 1 << 20

// execute runs t with data and returns what it wrote, trimmed of white space.
func execute(t *template.Template, data any) (string, error) {
	b := buffers.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= maxPooled {
			b.Reset()
			buffers.Put(b)
		}
	}()
	if err := t.Execute(newCapped(b), data); err != nil {
		return "", err
	}
	return string(bytes.TrimSpace(b.Bytes())), nil
}

// breakMark is what {{breakpoint}} renders to before render cuts it out;
// breakEdge, a private-use character, opens and closes it.
const (
	breakEdge = "\uE000"
	breakMark = breakEdge + "breakpoint" + breakEdge
)

// cutBreaks returns text without its break marks and the offsets where they
// were, leaving out one at the start or twice at one place; white space
// before a mark ends the stable part too. The parts between marks lose the
// mark's private-use character and bytes that are not UTF-8 (as a request
// body's encoding would replace them), so that no two parts join into a
// mark that nobody placed.
func cutBreaks(text string) (string, []int) {
	if !strings.Contains(text, breakMark) {
		return text, nil
	}
	var b strings.Builder
	var breaks []int
	for i, part := range strings.Split(text, breakMark) {
		if i > 0 && b.Len() > 0 && (len(breaks) == 0 || breaks[len(breaks)-1] != b.Len()) {
			breaks = append(breaks, b.Len())
		}
		b.WriteString(strings.ToValidUTF8(strings.ReplaceAll(part, breakEdge, ""), "\uFFFD"))
	}
	out := strings.TrimSpace(b.String())
	lead := strings.Index(b.String(), out)
	kept := breaks[:0]
	for _, o := range breaks {
		if o -= lead; o > 0 && o <= len(out) {
			kept = append(kept, o)
		}
	}
	return out, kept
}

// tidy returns v with every string passed through tidyText: v itself when
// that changes none, else a copy that shares what did not change.
func tidy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		if t := tidyText(v.String()); t != v.String() {
			return reflect.ValueOf(t).Convert(v.Type())
		}
	case reflect.Slice:
		var s reflect.Value // the copy, made at the first change
		for i := range v.Len() {
			e := tidy(v.Index(i))
			if e == v.Index(i) {
				continue
			}
			if !s.IsValid() {
				s = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(s, v)
			}
			s.Index(i).Set(e)
		}
		if s.IsValid() {
			return s
		}
	case reflect.Struct:
		var c reflect.Value
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			f := tidy(v.Field(i))
			if f == v.Field(i) {
				continue
			}
			if !c.IsValid() {
				c = reflect.New(v.Type()).Elem()
				c.Set(v)
			}
			c.Field(i).Set(f)
		}
		if c.IsValid() {
			return c
		}
	}
	return v
}

// tidyText drops trailing white space and leading blank lines, keeping the
// indentation of the first non-blank line, and the private-use character of
// break marks: only a template places a breakpoint, never a text it shows.
func tidyText(s string) string {
	s = strings.ReplaceAll(s, breakEdge, "")
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
	if i < 0 {
		return ""
	}
	if j := strings.LastIndexByte(s[:i], '\n'); j >= 0 {
		s = s[j+1:]
	}
	return s
}

// RootPosition returns the messages of a root node's position call.
func (s *Set) RootPosition(d RootPosition) ([]Message, error) {
	return s.render("root_position", d)
}

// ChildPosition returns the messages of a child node's position call, from
// the involved or the uninvolved template as d.Involved says. A Path that
// starts with the root title or ends with the node's own title is shortened
// so that neither is shown twice.
func (s *Set) ChildPosition(d ChildPosition) ([]Message, error) {
	if n := len(d.Path); n > 0 && tidyText(d.Path[n-1]) == tidyText(d.Title) {
		d.Path = d.Path[:n-1]
	}
	if len(d.Path) > 0 && tidyText(d.Path[0]) == tidyText(d.RootTitle) {
		d.Path = d.Path[1:]
	}
	name := "child_position_uninvolved"
	if d.Involved {
		name = "child_position_involved"
	}
	return s.render(name, d)
}

// Rebuttal returns the messages of a rebuttal call.
func (s *Set) Rebuttal(d Rebuttal) ([]Message, error) {
	return s.render("rebuttal", d)
}

// Triage returns the messages of the judge's triage call.
func (s *Set) Triage(d Judge) ([]Message, error) {
	return s.render("triage", d)
}

// ForcedVerdict returns the messages of the judge's call at the round limit,
// which must settle every point still disputed.
func (s *Set) ForcedVerdict(d Judge) ([]Message, error) {
	return s.render("forced_verdict", d)
}

// PanelVerdict returns the messages of a panel judge's forced verdicts on
// divergences already listed; it is also the order check's second asking.
func (s *Set) PanelVerdict(d PanelVerdict) ([]Message, error) {
	return s.render("panel_verdict", d)
}

// Repair returns the messages to append to the judge's original
// conversation when its answer was invalid: the previous answer as an
// assistant message, then a user message with the error that asks for the
// corrected JSON alone.
func (s *Set) Repair(d Repair) ([]Message, error) {
	msgs, err := s.render("repair", d)
	if err != nil {
		return nil, err
	}
	return append([]Message{{Role: RoleAssistant, Content: d.Previous}}, msgs...), nil
}

// Synthesis returns the messages of the call that writes a topic's
// conclusion.
func (s *Set) Synthesis(d Synthesis) ([]Message, error) {
	return s.render("synthesis", d)
}

// Edits returns the messages of the call that proposes edits to the
// shared-context documents.
func (s *Set) Edits(d Edits) ([]Message, error) {
	return s.render("edits", d)
}
