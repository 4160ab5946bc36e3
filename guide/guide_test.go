package guide

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render"
)

// TestGuidesGolden pins every guide, for each role, type selection and
// language, so that a change to them is reviewed as text.
func TestGuidesGolden(t *testing.T) {
	for _, lang := range Langs {
		for _, role := range Roles {
			for _, typ := range append([]string{""}, Types...) {
				name := role + "-" + lang
				if typ != "" {
					name += "-" + typ
				}
				t.Run(name, func(t *testing.T) {
					got, err := Render(Options{Role: role, Type: typ, Lang: lang})
					if err != nil {
						t.Fatal(err)
					}
					golden.Assert(t, filepath.Join("testdata", name+".md"), []byte(got))
				})
			}
		}
	}
}

// TestGuideContent checks what every guide must tell an agent.
func TestGuideContent(t *testing.T) {
	must := map[string][]string{
		"proposer": {"debate get-context", "debate wait", "--role proposer", "debate submit", "debate appeal",
			"debate request-completion", "debate docs create", "debate docs submit", "align_to_ruling", "wait_for_ruling",
			"debate_closed", "retry_command", "| 4 |", "| 6 |", "| 7 |"},
		"opponent": {"debate get-context", "debate wait", "--role opponent", "debate submit", "debate docs get",
			"wait_for_proposer", "wait_for_ruling", "debate_closed", "retry_command"},
		"arbitrator": {"debate list --state AWAITING_ARBITRATOR", "debate ruling", "--close", "debate intervention", "debate open"},
	}
	for _, lang := range Langs {
		for role, want := range must {
			got, err := Render(Options{Role: role, Type: "coding_plan_debate", Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range append(want, "C1", "M1", "m1", "protocol_wait", "next_wait", "protocol_get_context") {
				if !strings.Contains(got, s) {
					t.Errorf("%s guide (%s) lacks %q", role, lang, s)
				}
			}
			if strings.Contains(got, "general_debate\n") {
				t.Errorf("%s guide for coding_plan_debate states general_debate's rules", role)
			}
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	for _, o := range []Options{{Role: "judge"}, {Role: "proposer", Type: "chat"}, {Role: "proposer", Lang: "fr"}} {
		if _, err := Render(o); err == nil {
			t.Errorf("Render(%+v) accepted", o)
		}
	}
	if _, err := Files("cursor", "en"); err == nil || !strings.Contains(err.Error(), "claude, codex, gemini") {
		t.Errorf("Files(cursor) = %v", err)
	}
}

// TestInstall checks each tool's documented format: Markdown with a front
// matter giving description and argument-hint, the arguments in
// $ARGUMENTS (Claude Code, Codex); TOML with description and a prompt that
// takes {{args}} (Gemini CLI).
func TestInstall(t *testing.T) {
	tests := []struct {
		tool, ext, dir, args string
	}{
		{"claude", ".md", ".claude/commands", "$ARGUMENTS"},
		{"codex", ".md", ".codex/prompts", "$ARGUMENTS"},
		{"gemini", ".toml", ".gemini/commands", "{{args}}"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			dir := t.TempDir()
			// An earlier install is replaced.
			old := filepath.Join(dir, tt.dir, "debate-proposer"+tt.ext)
			if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(old, []byte("stale"), 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := Files(tt.tool, "en")
			if err != nil {
				t.Fatal(err)
			}
			written, err := Install(dir, files)
			if err != nil {
				t.Fatal(err)
			}
			if len(written) != len(Roles) {
				t.Fatalf("wrote %v", written)
			}
			for i, role := range Roles {
				want := filepath.Join(dir, tt.dir, "debate-"+role+tt.ext)
				if written[i] != want {
					t.Errorf("wrote %s, want %s", written[i], want)
				}
				b, err := os.ReadFile(want)
				if err != nil {
					t.Fatal(err)
				}
				s := string(b)
				guide, _ := Render(Options{Role: role, Lang: "en"})
				switch tt.ext {
				case ".md":
					if !strings.HasPrefix(s, "---\ndescription: "+descriptions[role]+"\nargument-hint: ") || !strings.Contains(s, "\n---\n\n# Debate guide: "+role) {
						t.Errorf("%s: no front matter:\n%.200s", want, s)
					}
					if !strings.Contains(s, guide) {
						t.Errorf("%s does not hold the whole guide", want)
					}
				case ".toml":
					if !strings.HasPrefix(s, "description = \""+descriptions[role]+"\"\nprompt = \"\"\"\n# Debate guide: "+role) || !strings.HasSuffix(s, "\"\"\"\n") {
						t.Errorf("%s: not a description and a multi-line prompt:\n%.200s", want, s)
					}
					if body := strings.TrimSuffix(strings.SplitN(s, `prompt = """`, 2)[1], "\"\"\"\n"); strings.Contains(body, `"""`) {
						t.Errorf("%s: the prompt's text closes its string early", want)
					}
				}
				if !strings.Contains(s, tt.args) {
					t.Errorf("%s does not take the user's arguments (%s)", want, tt.args)
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, tt.dir)); len(entries) != len(Roles) {
				t.Errorf("%d files in %s, want %d (no temporary file left)", len(entries), tt.dir, len(Roles))
			}
		})
	}
}

// TestInstalledTextIsInert: the installed commands run nothing and ask for
// no argument by themselves: no "!`" or "!{" (shell execution in Claude Code
// and Gemini CLI), no "$NAME" but $ARGUMENTS (a named argument in Codex), and
// descriptions that stay one plain YAML value.
func TestInstalledTextIsInert(t *testing.T) {
	for _, lang := range Langs {
		for _, role := range Roles {
			g, err := Render(Options{Role: role, Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"!`", "!{", "$"} {
				if strings.Contains(g, bad) {
					t.Errorf("%s guide (%s) holds %q", role, lang, bad)
				}
			}
		}
	}
	for role, d := range descriptions {
		if strings.Contains(d, ": ") || strings.ContainsAny(d, "#\n") {
			t.Errorf("description of %s is not a plain YAML value: %q", role, d)
		}
	}
	if strings.ContainsAny(argumentHint[:1], "[{&*!|>'\"%@`") || strings.ContainsAny(argumentHint, ",:#") {
		t.Errorf("argument hint %q is not a plain YAML string", argumentHint)
	}
}

func TestTOMLMultiline(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\n", "\"\"\"\nplain\n\"\"\""},
		{`a\b`, "\"\"\"\n" + `a\\b` + "\"\"\""},
		{`say """hi"""`, "\"\"\"\n" + `say ""\"hi""\"` + "\"\"\""},
	}
	for _, tt := range tests {
		if got := tomlMultiline(tt.in); got != tt.want {
			t.Errorf("tomlMultiline(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGuideWords checks what the guides say about what the commands print:
// where <debate-id> comes from, which argument is the newest right after
// create, that the proposer hands the id to the opponent's user, and that the
// APPEAL layout they prescribe renders as separate paragraphs and a list on
// the web page.
func TestGuideWords(t *testing.T) {
	t.Parallel()
	for _, lang := range Langs {
		for _, role := range Roles {
			got, err := Render(Options{Role: role, Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"`<debate-id>`", "`generate-id`", "`id`", "`debate_id`"}
			switch role {
			case "proposer":
				want = append(want, "`debate guide opponent`", "`motion`")
			case "opponent":
				want = append(want, "`motion`", "`last_argument_id`")
			}
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s guide (%s) lacks %q", role, lang, w)
				}
			}
			if role != "proposer" {
				continue
			}
			_, appeal, ok := strings.Cut(got, "```markdown\n")
			appeal, _, _ = strings.Cut(appeal, "```")
			if !ok {
				t.Fatalf("%s guide (%s) shows no APPEAL layout", role, lang)
			}
			html, err := render.Fragment([]byte(appeal))
			if err != nil {
				t.Fatal(err)
			}
			if p, li := strings.Count(string(html), "<p>"), strings.Count(string(html), "<li>"); p != 2 || li != 3 || !strings.Contains(string(html), "<ol>") {
				t.Errorf("%s guide (%s): the APPEAL layout renders as %d paragraphs and %d list items, want 2 and 3:\n%s", role, lang, p, li, html)
			}
		}
	}
}
