package prompts

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/debatehq/debate/internal/golden"
)

// format renders messages as the golden files show them.
func format(msgs []Message) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n%s\n", m.Role, m.Content)
	}
	return b.String()
}

// build renders one step of f, by template name.
func build(t *testing.T, s *Set, f fixture, name string) []Message {
	t.Helper()
	var msgs []Message
	var err error
	switch name {
	case "root_position":
		msgs, err = s.RootPosition(f.root)
	case "child_position_involved":
		msgs, err = s.ChildPosition(f.involved)
	case "child_position_uninvolved":
		msgs, err = s.ChildPosition(f.uninvolved)
	case "rebuttal":
		msgs, err = s.Rebuttal(f.rebuttal)
	case "triage":
		msgs, err = s.Triage(f.triage)
	case "forced_verdict":
		msgs, err = s.ForcedVerdict(f.forced)
	case "panel_verdict":
		msgs, err = s.PanelVerdict(panelOf(f.forced))
	case "repair":
		msgs, err = s.Repair(f.repair)
	case "synthesis":
		msgs, err = s.Synthesis(f.synthesis)
	case "edits":
		msgs, err = s.Edits(f.edits)
	default:
		t.Fatalf("no fixture for template %q", name)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return msgs
}

// buildMinimal renders the steps of m, keyed by a golden file name.
func buildMinimal(t *testing.T, s *Set, m minimal) map[string][]Message {
	t.Helper()
	out := map[string][]Message{}
	add := func(name string, msgs []Message, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = msgs
	}
	msgs, err := s.RootPosition(m.root)
	add("minimal_root_position", msgs, err)
	msgs, err = s.ChildPosition(m.child)
	add("minimal_child_position_uninvolved", msgs, err)
	msgs, err = s.Triage(m.triage)
	add("minimal_triage", msgs, err)
	msgs, err = s.ForcedVerdict(m.forced)
	add("minimal_forced_verdict", msgs, err)
	msgs, err = s.ForcedVerdict(m.budget)
	add("minimal_forced_verdict_budget", msgs, err)
	return out
}

var fixtures = map[string]func() fixture{"en": enFixture, "zh": zhFixture}

func mustNew(t *testing.T, language, dir string) *Set {
	t.Helper()
	s, err := New(language, dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGolden(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		f := fixtures[lang]()
		for _, name := range Names() {
			t.Run(lang+"/"+name, func(t *testing.T) {
				golden.Assert(t, filepath.Join("testdata", lang, name+".golden"), []byte(format(build(t, s, f, name))))
			})
		}
		for name, msgs := range buildMinimal(t, s, minimalFixture(f)) {
			t.Run(lang+"/"+name, func(t *testing.T) {
				golden.Assert(t, filepath.Join("testdata", lang, name+".golden"), []byte(format(msgs)))
			})
		}
	}
}

var heading = regexp.MustCompile(`^(#{1,6}) `)

// emptyHeadings returns the Markdown headings of text (outside code fences)
// with nothing under them before the next heading of the same or a higher
// level, or the end.
func emptyHeadings(text string) []string {
	type h struct {
		line  string
		level int
		body  bool
	}
	var open []*h
	var bad []string
	closeTo := func(level int) {
		for len(open) > 0 && open[len(open)-1].level >= level {
			top := open[len(open)-1]
			if !top.body {
				bad = append(bad, top.line)
			}
			open = open[:len(open)-1]
		}
	}
	fence := "" // the open code fence, if any
	for _, line := range strings.Split(text, "\n") {
		if ticks := line[:len(line)-len(strings.TrimLeft(line, "`"))]; len(ticks) >= 3 {
			switch {
			case fence == "":
				fence = ticks
			case ticks == fence && strings.TrimSpace(line) == ticks:
				fence = ""
			}
		}
		if m := heading.FindStringSubmatch(line); m != nil && fence == "" {
			closeTo(len(m[1]))
			for _, o := range open {
				o.body = true // a sub-heading counts as content only if it has some
			}
			open = append(open, &h{line: line, level: len(m[1])})
			continue
		}
		if strings.TrimSpace(line) != "" {
			for _, o := range open {
				o.body = true
			}
		}
	}
	closeTo(0)
	return bad
}

func TestEmptyHeadings(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"## A\ntext\n## B\ntext", nil},
		{"## A\n\n## B\ntext", []string{"## A"}},
		{"## A\ntext\n## B\n", []string{"## B"}},
		{"## A\n### B\ntext", nil},
		{"```\n## not a heading\n```\n## A\nx", nil},
		{"````\n```\n## not a heading\n```\n````\n## A\nx", nil},
	}
	for _, tt := range tests {
		if got := emptyHeadings(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("emptyHeadings(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestRenderingIsClean checks every rendered message, with full and with
// minimal data: no empty section, no stray blank lines or trailing spaces,
// no "<no value>".
func TestRenderingIsClean(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		f := fixtures[lang]()
		all := buildMinimal(t, s, minimalFixture(f))
		for _, name := range Names() {
			all[name] = build(t, s, f, name)
		}
		for name, msgs := range all {
			for _, m := range msgs {
				where := lang + "/" + name + "/" + m.Role
				if m.Role == RoleAssistant {
					continue // the judge's own answer, sent back as is
				}
				if bad := emptyHeadings(m.Content); len(bad) > 0 {
					t.Errorf("%s: headings without content: %q", where, bad)
				}
				if strings.Contains(m.Content, "\n\n\n") {
					t.Errorf("%s: more than one blank line in a row:\n%s", where, m.Content)
				}
				if strings.Contains(m.Content, "<no value>") {
					t.Errorf("%s: renders <no value>", where)
				}
				for i, line := range strings.Split(m.Content, "\n") {
					if strings.TrimRight(line, " \t") != line {
						t.Errorf("%s: line %d has trailing white space: %q", where, i+1, line)
					}
				}
				if m.Content == "" || m.Content != strings.TrimSpace(m.Content) {
					t.Errorf("%s: content empty or not trimmed", where)
				}
			}
		}
	}
}

func TestLanguages(t *testing.T) {
	def := mustNew(t, "", "")
	if def.Language() != "en" {
		t.Errorf("default language = %q, want en", def.Language())
	}
	en, zh := mustNew(t, "en", ""), mustNew(t, "zh", "")
	for _, name := range Names() {
		d, _ := def.Source(name)
		e, _ := en.Source(name)
		z, _ := zh.Source(name)
		if d != e {
			t.Errorf("%s: default set differs from en", name)
		}
		if e == z {
			t.Errorf("%s: en and zh templates are the same text", name)
		}
	}
}

// TestEmbeddedFiles checks that each language has exactly one file per step
// and per protocol role template.
func TestEmbeddedFiles(t *testing.T) {
	var want []string
	for _, n := range append(Names(), RoleNames()...) {
		want = append(want, n+ext)
	}
	slices.Sort(want)
	for _, lang := range Languages() {
		entries, err := fs.ReadDir(embedded, "templates/"+lang)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("templates/%s holds %q, want %q", lang, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	want := []string{"root_position", "child_position_involved", "child_position_uninvolved", "rebuttal",
		"triage", "forced_verdict", "panel_verdict", "repair", "synthesis", "edits"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	Names()[0] = "changed"
	if Names()[0] != "root_position" {
		t.Error("Names() exposes its backing array")
	}
}

func TestSource(t *testing.T) {
	s := mustNew(t, "en", "")
	for _, name := range []string{"triage", "triage.tmpl"} {
		src, err := s.Source(name)
		if err != nil {
			t.Fatalf("Source(%q): %v", name, err)
		}
		if !strings.Contains(src, `{{define "system"`) || !strings.Contains(src, "{{.MaxRounds}}") {
			t.Errorf("Source(%q) does not look like the triage template:\n%s", name, src)
		}
	}
	if _, err := s.Source("verdict"); err == nil || !strings.Contains(err.Error(), "forced_verdict") {
		t.Errorf("Source(unknown) error = %v, want one listing the known names", err)
	}
}

// writeOverrides creates a folder holding the given files.
func writeOverrides(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// nested returns a template whose user part calls a template that calls
// the next one width times, depth levels down.
func nested(depth, width int) string {
	var b strings.Builder
	b.WriteString(`{{define "user"}}{{template "_l1" .}}{{end}}`)
	for i := 1; i < depth; i++ {
		fmt.Fprintf(&b, `{{define "_l%d"}}%s{{end}}`, i, strings.Repeat(fmt.Sprintf(`{{template "_l%d" .}}`, i+1), width))
	}
	fmt.Fprintf(&b, `{{define "_l%d"}}x{{end}}`, depth)
	return b.String()
}

// TestOverrideFilesBounded: an override that is a FIFO, a device behind a
// link or too large is refused at once, naming it.
func TestOverrideFilesBounded(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	tests := []struct {
		name  string
		setup func(path string) error
		want  string
	}{
		{"a FIFO", func(path string) error { return syscall.Mkfifo(path, 0o600) }, "not a regular file"},
		{"a link to /dev/zero", func(path string) error { return os.Symlink("/dev/zero", path) }, "not a regular file"},
		{"too large", func(path string) error {
			return os.WriteFile(path, []byte(`{{define "user"}}`+strings.Repeat("x", MaxTemplateBytes)+`{{end}}`), 0o644)
		}, "file too large: more than 1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "triage.tmpl")
			if err := tt.setup(path); err != nil {
				t.Fatal(err)
			}
			_, err := New("en", filepath.Dir(path))
			if err == nil || !strings.Contains(err.Error(), path+": "+tt.want) {
				t.Errorf("New: %v, want an error saying %q", err, path+": "+tt.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name     string
		language string
		files    map[string]string // nil: no override folder
		missing  bool              // point at a folder that does not exist
		want     []string          // substrings of the error
	}{
		{name: "unknown language", language: "fr", want: []string{`"fr"`, "en, zh"}},
		{
			name:  "syntax error",
			files: map[string]string{"rebuttal.tmpl": "{{define \"user\"}}\n## Your position\n{{.Own}\n{{end}}"},
			want:  []string{"rebuttal.tmpl:3", "bad character"},
		},
		{
			name:  "unknown field",
			files: map[string]string{"triage.tmpl": "{{define \"user\"}}\n{{.Title}}\n{{range .Entries}}{{.Party.Name}}{{end}}\n{{end}}"},
			want:  []string{"triage.tmpl:3", "Name"},
		},
		{
			name:  "unknown field in an optional section",
			files: map[string]string{"root_position.tmpl": "{{define \"user\"}}{{with .Annotations}}{{.Text}}{{end}}{{end}}"},
			want:  []string{"root_position.tmpl:1", "Text"},
		},
		{
			name:  "unknown function",
			files: map[string]string{"synthesis.tmpl": "{{define \"user\"}}{{upper .Title}}{{end}}"},
			want:  []string{"synthesis.tmpl:1", "upper"},
		},
		{
			name:  "unknown file name",
			files: map[string]string{"triage.tmpl": "{{define \"user\"}}x{{end}}", "verdict.tmpl": "x"},
			want:  []string{"verdict.tmpl", "valid names", "forced_verdict.tmpl", "root_position.tmpl"},
		},
		{
			name:  "no user part",
			files: map[string]string{"rebuttal.tmpl": "{{define \"system\"}}x{{end}}"},
			want:  []string{"rebuttal.tmpl", `"user"`},
		},
		{
			name:  "system part in repair",
			files: map[string]string{"repair.tmpl": "{{define \"system\"}}x{{end}}{{define \"user\"}}{{.Error}}{{end}}"},
			want:  []string{"repair.tmpl", `"system"`},
		},
		{
			name:  "text outside the parts",
			files: map[string]string{"edits.tmpl": "{{define \"user\"}}x{{end}}\nstray text"},
			want:  []string{"edits.tmpl:2", "outside"},
		},
		{
			name:  "unknown part name",
			files: map[string]string{"edits.tmpl": "{{define \"user\"}}x{{end}}{{define \"assistant\"}}y{{end}}"},
			want:  []string{"edits.tmpl", `"assistant"`},
		},
		{
			name:  "calls nested ten deep, ten at each level",
			files: map[string]string{"triage.tmpl": nested(10, 10)},
			want:  []string{"triage.tmpl", `{{define "user"}} makes more than 10000 {{template}} calls`},
		},
		{
			name:  "a template that calls itself",
			files: map[string]string{"triage.tmpl": `{{define "user"}}{{template "_a" .}}{{end}}{{define "_a"}}{{if .Round}}{{template "_a" .}}{{end}}{{end}}`},
			want:  []string{"triage.tmpl", `template "_a" calls itself`},
		},
		{
			name: "a prompt past the size limit",
			files: map[string]string{"triage.tmpl": `{{define "_big"}}` + strings.Repeat("x", 100_000) + `{{end}}{{define "user"}}` +
				strings.Repeat(`{{template "_big"}}`, 700) + `{{end}}`},
			want: []string{"triage.tmpl", "longer than 64 MiB"},
		},
		{name: "missing folder", missing: true, want: []string{"override folder", "no-such-folder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := ""
			if tt.files != nil {
				dir = writeOverrides(t, tt.files)
			}
			if tt.missing {
				dir = filepath.Join(t.TempDir(), "no-such-folder")
			}
			s, err := New(tt.language, dir)
			if err == nil {
				t.Fatalf("New succeeded (%v), want an error", s)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if dir != "" && !tt.missing && tt.name != "unknown file name" {
				if !strings.Contains(err.Error(), dir) {
					t.Errorf("error %q does not name the override's path", err)
				}
			}
		})
	}
}

func TestOverrideReplacesOneStep(t *testing.T) {
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			override := "{{define \"user\"}}Rebut, {{.Party.Label}}:\n{{.Own}}{{end}}\n"
			dir := writeOverrides(t, map[string]string{"rebuttal.tmpl": override, ".hidden": "ignored"})
			base, over := mustNew(t, lang, ""), mustNew(t, lang, dir)
			f := fixtures[lang]()
			for _, name := range Names() {
				src, err := over.Source(name)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := base.Source(name)
				got := build(t, over, f, name)
				if name == "rebuttal" {
					want = override
					wantMsgs := []Message{{Role: RoleUser, Content: "Rebut, " + f.rebuttal.Party.Label + ":\n" + f.rebuttal.Own}}
					if !reflect.DeepEqual(got, wantMsgs) {
						t.Errorf("overridden rebuttal = %+v, want %+v", got, wantMsgs)
					}
				} else if b := build(t, base, f, name); !reflect.DeepEqual(got, b) {
					t.Errorf("%s changed although only rebuttal.tmpl was overridden", name)
				}
				if src != want {
					t.Errorf("Source(%q) = %q, want %q", name, src, want)
				}
			}
		})
	}
}

func TestMissingSystemGivesUserOnly(t *testing.T) {
	dir := writeOverrides(t, map[string]string{
		"triage.tmpl":    "{{define \"user\"}}{{.Title}}{{end}}",
		"synthesis.tmpl": "{{define \"system\"}} {{end}}{{define \"user\"}}{{.Title}}{{end}}",
	})
	s := mustNew(t, "en", dir)
	f := enFixture()
	for _, name := range []string{"triage", "synthesis"} {
		msgs := build(t, s, f, name)
		if len(msgs) != 1 || msgs[0].Role != RoleUser {
			t.Errorf("%s: got %+v, want one user message", name, msgs)
		}
	}
}

func TestMissingKeyIsAnError(t *testing.T) {
	tmpl, err := parseText("t.tmpl", "{{.present}} {{.absent}}")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = tmpl.Execute(&b, map[string]string{"present": "x"})
	if err == nil || !strings.Contains(err.Error(), `"absent"`) {
		t.Errorf("executing with a missing map key: err = %v, output %q; want an error naming the key", err, b.String())
	}
}

func TestRepair(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		r := fixtures[lang]().repair
		msgs, err := s.Repair(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 2 {
			t.Fatalf("%s: Repair returned %d messages, want 2", lang, len(msgs))
		}
		if msgs[0].Role != RoleAssistant || msgs[0].Content != r.Previous {
			t.Errorf("%s: first message = %+v, want the previous answer as assistant", lang, msgs[0])
		}
		if msgs[1].Role != RoleUser || !strings.Contains(msgs[1].Content, r.Error) || !strings.Contains(msgs[1].Content, "```json") {
			t.Errorf("%s: second message = %+v, want a user message with the error and the json fence", lang, msgs[1])
		}
	}
}

func TestChildPositionPicksTemplate(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		f := fixtures[lang]()
		d := f.involved
		inv, err := s.ChildPosition(d)
		if err != nil {
			t.Fatal(err)
		}
		d.Involved = false
		un, err := s.ChildPosition(d)
		if err != nil {
			t.Fatal(err)
		}
		if inv[0].Content == un[0].Content {
			t.Errorf("%s: involved and uninvolved parties get the same system prompt", lang)
		}
		for _, want := range []string{"(a)", "(b)"} {
			if !strings.Contains(un[0].Content, want) {
				t.Errorf("%s: uninvolved prompt lacks the choice %s", lang, want)
			}
		}
	}
}

// TestChildPositionContext checks the context control: a child prompt holds
// the divergence, every side's summary and the party's own previous
// position and rebuttal; its size grows with depth only by the path titles.
func TestChildPositionContext(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		base := fixtures[lang]().involved
		base.Path = nil
		size := func(path []string) int {
			d := base
			d.Path = path
			msgs, err := s.ChildPosition(d)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range msgs {
				n += len(m.Content)
			}
			return n
		}
		msgs, err := s.ChildPosition(base)
		if err != nil {
			t.Fatal(err)
		}
		all := format(msgs)
		for _, want := range []string{base.Title, base.PreviousPosition, base.PreviousRebuttal, base.Sides[0].Claim, base.Uninvolved[0].Label} {
			if !strings.Contains(all, strings.Split(want, "\n")[0]) {
				t.Errorf("%s: child prompt lacks %q", lang, want)
			}
		}
		depth1 := size(nil)
		var path []string
		titles := 0
		header := 0
		for depth := 2; depth <= 8; depth++ {
			title := fmt.Sprintf("Divergence at depth %d: which layer owns retries?", depth-1)
			path = append(path, title)
			titles += len(title)
			got := size(path)
			// The path section: a heading and the root title once, then one
			// numbered line per ancestor.
			if depth == 2 {
				header = got - depth1 - titles
			}
			if limit := depth1 + header + titles + 8*(depth-2); got > limit {
				t.Errorf("%s: depth %d prompt is %d bytes, want at most %d (depth 1: %d, path titles: %d)",
					lang, depth, got, limit, depth1, titles)
			}
		}
		if header > 200+len(base.RootTitle) {
			t.Errorf("%s: the path section costs %d bytes beyond its titles", lang, header)
		}
	}
}

func TestChildPositionPathNormalised(t *testing.T) {
	s := mustNew(t, "en", "")
	d := enFixture().involved
	want, err := s.ChildPosition(d)
	if err != nil {
		t.Fatal(err)
	}
	d.Path = append([]string{d.RootTitle}, append(d.Path, d.Title)...)
	got, err := s.ChildPosition(d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a path that repeats the root and node titles renders differently:\n%s", golden.Diff(format(want), format(got)))
	}
}

// judgeJSON extracts and decodes the example of a judge prompt.
func judgeJSON(t *testing.T, system string) map[string]any {
	t.Helper()
	m := regexp.MustCompile("(?s)```json\n(.*?)\n```").FindStringSubmatch(system)
	if m == nil {
		t.Fatalf("no ```json fence in:\n%s", system)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
		t.Fatalf("the example is not valid JSON: %v\n%s", err, m[1])
	}
	return v
}

// TestJudgeShape checks the JSON example of the judge prompts: valid JSON of
// the right shape, using exactly the given party ids.
func TestJudgeShape(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		for _, ids := range [][]string{{"alpha", "beta"}, {"party-a", "party-b", "party-c"}, {"p1", "p2", "p3", "p4"}} {
			d := fixtures[lang]().forced
			d.PartyIDs = ids
			d.MaxRounds = 7
			for _, step := range []string{"triage", "forced_verdict"} {
				t.Run(fmt.Sprintf("%s/%s/%d", lang, step, len(ids)), func(t *testing.T) {
					var msgs []Message
					var err error
					if step == "triage" {
						msgs, err = s.Triage(d)
					} else {
						msgs, err = s.ForcedVerdict(d)
					}
					if err != nil {
						t.Fatal(err)
					}
					sys := msgs[0].Content
					v := judgeJSON(t, sys)
					keys := []string{"consensus", "divergences", "stances"}
					if step == "forced_verdict" {
						keys = append(keys, "forcedVerdicts")
					}
					var got []string
					for k := range v {
						got = append(got, k)
					}
					slices.Sort(got)
					slices.Sort(keys)
					if !slices.Equal(got, keys) {
						t.Errorf("top-level keys %q, want %q", got, keys)
					}
					div := v["divergences"].([]any)[0].(map[string]any)
					var named []string
					for k := range div["sides"].(map[string]any) {
						named = append(named, k)
					}
					for _, u := range div["uninvolved"].([]any) {
						named = append(named, u.(string))
					}
					slices.Sort(named)
					want := slices.Sorted(slices.Values(ids))
					if !slices.Equal(named, want) {
						t.Errorf("sides and uninvolved name %q, want each of %q once", named, want)
					}
					for _, id := range ids {
						if !strings.Contains(sys, "`"+id+"`") {
							t.Errorf("party id %q is not listed among the allowed ids", id)
						}
					}
					if step == "forced_verdict" {
						fv := v["forcedVerdicts"].([]any)[0].(map[string]any)
						if fv["divergenceId"] != div["id"] {
							t.Errorf("example verdict refers to %v, its divergence is %v", fv["divergenceId"], div["id"])
						}
					}
				})
			}
		}
	}
}

func TestFuncs(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"hang", hang(2, "a\nb\n\nc"), "a\n  b\n\n  c"},
		{"indent", indent(2, "a\nb"), "  a\n  b"},
		{"indent blank", indent(2, ""), ""},
		{"indent blank lines", indent(2, "\na\n\nb"), "\n  a\n\n  b"},
		{"take short", strings.Join(funcs["take"].(func(int, []string) []string)(5, []string{"a", "b"}), ","), "a,b"},
		{"take", strings.Join(funcs["take"].(func(int, []string) []string)(1, []string{"a", "b"}), ","), "a"},
		{"drop all", strings.Join(funcs["drop"].(func(int, []string) []string)(3, []string{"a", "b"}), ","), ""},
		{"drop", strings.Join(funcs["drop"].(func(int, []string) []string)(1, []string{"a", "b"}), ","), "b"},
		{"tidy", tidyText("\n\n  code\nmore  \n\n"), "  code\nmore"},
		{"tidy blank", tidyText(" \n \t"), ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if got, want := fence("a\n```go\nx\n```"), "````\na\n```go\nx\n```\n````"; got != want {
		t.Errorf("fence = %q, want %q", got, want)
	}
	if got, want := fence("a"), "```\na\n```"; got != want {
		t.Errorf("fence = %q, want %q", got, want)
	}
	j, err := toJSON(`a "quoted" <id>`)
	if err != nil || j != `"a \"quoted\" <id>"` {
		t.Errorf("toJSON = %s, %v", j, err)
	}
}

func TestTidyKeepsInput(t *testing.T) {
	d := RootPosition{Title: "T\n", Annotations: []string{"a\n"}}
	s := mustNew(t, "en", "")
	if _, err := s.RootPosition(d); err != nil {
		t.Fatal(err)
	}
	if d.Annotations[0] != "a\n" {
		t.Error("rendering changed the caller's data")
	}
}

func TestForcedVerdictReason(t *testing.T) {
	for _, lang := range Languages() {
		s := mustNew(t, lang, "")
		m := minimalFixture(fixtures[lang]())
		limit, err := s.ForcedVerdict(m.forced)
		if err != nil {
			t.Fatal(err)
		}
		budget, err := s.ForcedVerdict(m.budget)
		if err != nil {
			t.Fatal(err)
		}
		word := map[string]string{"en": "budget", "zh": "预算"}[lang]
		if all := limit[0].Content + limit[1].Content; strings.Contains(all, word) {
			t.Errorf("%s: a round-limit verdict mentions the budget:\n%s", lang, all)
		}
		if !strings.Contains(budget[1].Content, word) {
			t.Errorf("%s: a budget verdict does not say the budget is spent:\n%s", lang, budget[1].Content)
		}
	}
}

// BenchmarkChildPosition renders a child position prompt at depth 1 and at
// depth 8 and reports both sizes: the deeper prompt may exceed the shallower
// one only by its parent titles.
func BenchmarkChildPosition(b *testing.B) {
	s, err := New("en", "")
	if err != nil {
		b.Fatal(err)
	}
	d := enFixture().involved
	d.Path = nil
	size := func(d ChildPosition) int {
		msgs, err := s.ChildPosition(d)
		if err != nil {
			b.Fatal(err)
		}
		return len(msgs[0].Content) + len(msgs[1].Content)
	}
	shallow := size(d)
	for i := range 7 {
		d.Path = append(d.Path, fmt.Sprintf("Parent divergence %d: which layer owns the retry policy?", i+1))
	}
	deep := size(d)
	for b.Loop() {
		size(d)
	}
	b.ReportMetric(float64(shallow), "bytes@depth1")
	b.ReportMetric(float64(deep), "bytes@depth8")
	b.ReportMetric(float64(deep)/float64(shallow), "depth8/depth1")
}

// TestTidy checks that render's data is tidied at every depth without
// touching the caller's copy, and that data already tidy is not copied.
func TestTidy(t *testing.T) {
	t.Parallel()
	sides := func(claim string) []Side { return []Side{{Party{"a", "A"}, "kept"}, {Party{"b", "B"}, claim}} }
	tests := []struct {
		name string
		in   ChildPosition
		want ChildPosition
	}{
		{"tidy already", ChildPosition{Title: "t", Path: []string{"p"}, Sides: sides("c")},
			ChildPosition{Title: "t", Path: []string{"p"}, Sides: sides("c")}},
		{"field", ChildPosition{Title: "\n\nt  \n", Path: []string{"p"}},
			ChildPosition{Title: "t", Path: []string{"p"}}},
		{"slice element", ChildPosition{Path: []string{"p", "q \n"}},
			ChildPosition{Path: []string{"p", "q"}}},
		{"field of a slice element", ChildPosition{Sides: sides("\n  c\n\n")},
			ChildPosition{Sides: sides("  c")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := fmt.Sprintf("%#v", tt.in)
			got := tidy(reflect.ValueOf(tt.in)).Interface().(ChildPosition)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("tidy:\n got %#v\nwant %#v", got, tt.want)
			}
			if after := fmt.Sprintf("%#v", tt.in); after != before {
				t.Errorf("the caller's data changed:\n%s\n%s", before, after)
			}
			if reflect.DeepEqual(tt.in, tt.want) && len(got.Path) > 0 && &got.Path[0] != &tt.in.Path[0] {
				t.Error("tidy data was copied")
			}
		})
	}
}
