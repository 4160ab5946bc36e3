package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/guide"
)

// guideCommands returns the command lines of a guide as printed by
// "debate guide": every line of a sh block that starts with "debate ".
func guideCommands(t *testing.T, role, typ, lang string) [][]string {
	t.Helper()
	r := invoke(t, nil, "guide", role, "--type", typ, "--lang", lang)
	if r.code != exitOK {
		t.Fatalf("debate guide %s: exit %d: %s", role, r.code, r.stderr)
	}
	var cmds [][]string
	in := false
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
		case in && strings.HasPrefix(line, "debate "):
			words, err := shellWords(line)
			if err != nil {
				t.Fatalf("%s guide: %q: %v", role, line, err)
			}
			cmds = append(cmds, words[1:])
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("%s guide shows no command", role)
	}
	return cmds
}

// shellWords splits a command line as a POSIX shell does for the quoting
// guides use: plain words and single-quoted strings.
func shellWords(line string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		quote bool
		word  bool
	)
	for _, r := range line {
		switch {
		case quote && r == '\'':
			quote = false
		case quote:
			cur.WriteRune(r)
		case r == '\'':
			quote, word = true, true
		case r == ' ':
			if word {
				words = append(words, cur.String())
				cur.Reset()
				word = false
			}
		case strings.ContainsRune(`"$\|&;<>()`+"`", r) && !(r == '<' || r == '>'):
			return nil, fmt.Errorf("character %q needs a shell the guides do not assume", r)
		default:
			cur.WriteRune(r)
			word = true
		}
	}
	if quote {
		return nil, fmt.Errorf("unterminated quote")
	}
	if word {
		words = append(words, cur.String())
	}
	return words, nil
}

// guided is one agent following a guide: it fills the guide's placeholders
// with what the commands it ran printed.
type guided struct {
	c    call
	dir  string // where the files its commands name live
	vals map[string]string
}

func newGuided(c call, dir string) *guided {
	return &guided{c: c, dir: dir, vals: map[string]string{}}
}

// fill replaces the placeholders and makes --file paths absolute; content
// replaces the value of --content when not empty.
func (g *guided) fill(t *testing.T, words []string, content string) []string {
	t.Helper()
	out := slices.Clone(words)
	for i, w := range out {
		for _, p := range []string{"debate-id", "argument-id", "doc-id"} {
			if strings.Contains(w, "<"+p+">") {
				v, ok := g.vals[p]
				if !ok {
					t.Fatalf("%q: no %s known yet", strings.Join(words, " "), p)
				}
				w = strings.ReplaceAll(w, "<"+p+">", v)
			}
		}
		if i > 0 && out[i-1] == "--file" {
			w = filepath.Join(g.dir, w)
		}
		if i > 0 && out[i-1] == "--content" && content != "" {
			w = content
		}
		out[i] = w
	}
	return out
}

// learn keeps the values the guides' placeholders stand for.
func (g *guided) learn(a answer) {
	if v := a.str("doc_id"); v != "" {
		g.vals["doc-id"] = v
	}
	if v := a.str("id"); v != "" {
		g.vals["debate-id"] = v
	}
	if v := a.str("debate_id"); v != "" {
		g.vals["debate-id"] = v
	}
	if v := a.str("argument_id"); v != "" {
		g.vals["argument-id"] = v
	}
	if v := a.str("last_argument_id"); v != "" {
		g.vals["argument-id"] = v
	}
}

// do runs a filled command line, which must succeed, and learns from it.
func (g *guided) do(args []string) (answer, error) {
	a, err := g.c.exec(args...)
	if err == nil && (a.code != exitOK || a.get("success") != true) {
		err = fmt.Errorf("%q: exit %d:\n%s", strings.Join(args, " "), a.code, a.stdout)
	}
	if err == nil {
		g.learn(a)
	}
	return a, err
}

// writeFiles creates the files the guides' commands read.
func writeFiles(t *testing.T) string {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"plan.md":   "# Plan\n\n1. Add a read-through cache in front of store.Get.\n",
		"appeal.md": "Question: write-through or invalidate?\nContext: see the plan.\n1. Write-through.\n2. Invalidate.\n3. The arbitrator proposes another way.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// move makes the move the debate awaits, as the other parties would:
// the awaited side answers the newest argument, the arbitrator rules.
func move(t *testing.T, c call, id string) {
	t.Helper()
	ctx := c.run(t, "get-context", "--debate-id", id).mustOK(t)
	last := ctx.str("last_argument_id")
	switch ctx.str("state") {
	case "AWAITING_OPPONENT":
		c.run(t, "submit", "--debate-id", id, "--role", "opponent", "--target-id", last, "--content", "C1: no eviction (cache.go:10).").mustOK(t)
	case "AWAITING_PROPOSER":
		c.run(t, "submit", "--debate-id", id, "--role", "proposer", "--target-id", last, "--content", "C1: accepted, LRU added.").mustOK(t)
	case "AWAITING_ARBITRATOR", "INTERVENTION_PENDING":
		c.run(t, "ruling", "--debate-id", id, "--content", "Option 2.").mustOK(t)
	}
}

// awaits reports whether the debate awaits role.
func awaits(t *testing.T, c call, id, role string) bool {
	state := c.run(t, "get-context", "--debate-id", id).mustOK(t).str("state")
	return state == "AWAITING_"+strings.ToUpper(role) || state == "CLOSED"
}

// TestGuideCommandsRun runs every command line of every guide, in order,
// against a server, as an agent following the guide would: before each wait
// the other parties make the move the debate awaits. A guide that shows a
// command the program refuses fails here.
func TestGuideCommandsRun(t *testing.T) {
	t.Parallel()
	for _, lang := range guide.Langs {
		for _, typ := range guide.Types {
			for _, role := range guide.Roles {
				t.Run(lang+"/"+typ+"/"+role, func(t *testing.T) {
					t.Parallel()
					srv := newAgentServer(t, "")
					c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url, "BROWSER": "echo"}}
					g := newGuided(c, writeFiles(t))
					if role != "proposer" {
						// The proposer opened the debate; the arbitrator is
						// asked once it has been appealed.
						doc := c.run(t, "docs", "create", "--title", "Plan", "--content", "the plan").mustOK(t)
						c.run(t, "create", "--debate-id", "d1", "--title", "Cache", "--type", typ, "--content", "see doc "+doc.str("doc_id")).mustOK(t)
						g.vals["debate-id"], g.vals["doc-id"] = "d1", doc.str("doc_id")
						if role == "arbitrator" {
							move(t, c, "d1")
							ctx := c.run(t, "get-context", "--debate-id", "d1").mustOK(t)
							c.run(t, "appeal", "--debate-id", "d1", "--target-id", ctx.str("last_argument_id"), "--content", "1. A 2. B 3. The arbitrator proposes another way.").mustOK(t)
						}
					}
					for _, words := range guideCommands(t, role, typ, lang) {
						args := g.fill(t, words, "")
						switch args[0] {
						case "wait":
							id := g.vals["debate-id"]
							if role == "arbitrator" {
								move(t, c, id)
							}
							for i := 0; i < 3 && !awaits(t, c, id, role) && role != "arbitrator"; i++ {
								move(t, c, id)
							}
							args = append(args, "--deadline", "20s")
						case "open":
							r := invoke(t, c.vars, args...)
							if want := srv.url + "/debates/" + g.vals["debate-id"] + "\n"; r.code != exitOK || r.stdout != want {
								t.Errorf("%q: exit %d, printed %q, want %q (%s)", strings.Join(args, " "), r.code, r.stdout, want, r.stderr)
							}
							continue
						}
						if _, err := g.do(args); err != nil {
							t.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// script is what a scripted agent writes; its commands come from its guide.
type script struct {
	t    *testing.T
	g    *guided
	cmds [][]string
	log  *[]string
	mu   *sync.Mutex
}

// run runs the guide's first command line that starts with words (with
// content as its --content when not empty).
func (s script) run(content string, words ...string) (answer, error) {
	for _, c := range s.cmds {
		if len(c) >= len(words) && slices.Equal(c[:len(words)], words) {
			args := s.g.fill(s.t, c, content)
			a, err := s.g.do(args)
			s.mu.Lock()
			*s.log = append(*s.log, strings.Join(words, " ")+" -> "+a.str("action")+a.str("status"))
			s.mu.Unlock()
			return a, err
		}
	}
	return answer{}, fmt.Errorf("the guide shows no %q command", strings.Join(words, " "))
}

// runWith is run for a command whose guide line has a flag with a given
// value (such as --role proposer).
func (s script) runWith(content string, flag, value string, words ...string) (answer, error) {
	for _, c := range s.cmds {
		i := slices.Index(c, flag)
		if len(c) >= len(words) && slices.Equal(c[:len(words)], words) && i > 0 && i+1 < len(c) && c[i+1] == value {
			a, err := s.g.do(s.g.fill(s.t, c, content))
			s.mu.Lock()
			*s.log = append(*s.log, strings.Join(words, " ")+" -> "+a.str("action")+a.str("status"))
			s.mu.Unlock()
			return a, err
		}
	}
	return answer{}, fmt.Errorf("the guide shows no %q command with %s %s", strings.Join(words, " "), flag, value)
}

// TestGuidedAgents plays a whole coding_plan_debate with two scripted
// agents that use only the command lines of their guides and act on the
// action wait prints, as the guides say: the opponent raises severity-
// tagged issues with evidence, the proposer answers each, appeals when they
// still disagree, aligns to the arbitrator's ruling and finishes.
func TestGuidedAgents(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	c := call{vars: map[string]string{"DEBATE_SERVER_URL": srv.url}}
	var (
		mu  sync.Mutex
		log []string
	)
	newScript := func(role string) script {
		return script{t: t, g: newGuided(c, writeFiles(t)), cmds: guideCommands(t, role, "coding_plan_debate", "en"), log: &log, mu: &mu}
	}
	prop, opp, arb := newScript("proposer"), newScript("opponent"), newScript("arbitrator")
	debateID := make(chan string, 1)
	errs := make(chan error, 2)

	go func() { // the proposer
		errs <- func() error {
			if _, err := prop.run("", "generate-id"); err != nil {
				return err
			}
			if _, err := prop.run("", "docs", "create"); err != nil {
				return err
			}
			if _, err := prop.run("", "create"); err != nil {
				return err
			}
			debateID <- prop.g.vals["debate-id"]
			answered := 0
			for {
				w, err := prop.runWith("", "--role", "proposer", "wait")
				if err != nil {
					return err
				}
				switch w.str("action") {
				case "respond":
					answered++
					switch answered {
					case 1:
						if _, err := prop.run("", "docs", "submit"); err != nil {
							return err
						}
						_, err = prop.runWith("C1: accepted, eviction added (plan v2). M1: disagree: store.Get is already bounded (store.go:40). m1: needs clarification: which flag name?",
							"--role", "proposer", "submit")
					case 2:
						_, err = prop.run("", "appeal")
					default:
						_, err = prop.run("", "request-completion")
					}
				case "align_to_ruling":
					_, err = prop.runWith("Aligned to the RULING: option 2 taken, plan v2 updated.", "--role", "proposer", "submit")
				case "wait_for_ruling", "":
				case "debate_closed":
					return nil
				default:
					return fmt.Errorf("proposer: unexpected action %q", w.str("action"))
				}
				if err != nil {
					return err
				}
			}
		}()
	}()

	go func() { // the opponent, given the debate id by the user
		errs <- func() error {
			opp.g.vals["debate-id"] = <-debateID
			ctx, err := opp.run("", "get-context")
			if err != nil {
				return err
			}
			if ctx.str("state") != "AWAITING_OPPONENT" {
				return fmt.Errorf("opponent joined in %s", ctx.str("state"))
			}
			opp.g.vals["doc-id"] = strings.TrimSuffix(strings.TrimPrefix(ctx.str("motion", "content"), "Plan for a read-through cache: see doc "), ".")
			if _, err := opp.run("", "docs", "get"); err != nil {
				return err
			}
			issues := []string{
				"C1: no eviction: the cache grows without bound (cache.go:10). M1: store.Get is unbounded (store.go:40). m1: name the flag cacheTTL (config.go:12).",
				"M1 still open: store.go:40 loops over every row. C1 withdrawn.",
				"Aligned plan checked: nothing open.",
			}
			for n := 0; ; {
				if _, err := opp.runWith(issues[min(n, len(issues)-1)], "--role", "opponent", "submit"); err != nil {
					return err
				}
				n++
				for {
					w, err := opp.runWith("", "--role", "opponent", "wait")
					if err != nil {
						return err
					}
					if a := w.str("action"); a == "respond" {
						break
					} else if a == "debate_closed" {
						return nil
					}
				}
			}
		}()
	}()

	// The arbitrator rules on the appeal, from its guide's commands.
	deadline := time.Now().Add(30 * time.Second)
	for {
		l, err := arb.run("", "list", "--state", "AWAITING_ARBITRATOR")
		if err != nil {
			t.Fatal(err)
		}
		if ds, _ := l.get("debates").([]any); len(ds) == 1 {
			arb.g.vals["debate-id"] = ds[0].(map[string]any)["id"].(string)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no appeal reached the arbitrator:\n%s", strings.Join(log, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := arb.run("", "get-context"); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.run("Option 2: invalidate on update; the proposer updates the plan.", "ruling"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("%v\nlog:\n%s", err, strings.Join(log, "\n"))
		}
	}

	final := c.run(t, "get-context", "--debate-id", arb.g.vals["debate-id"]).mustOK(t)
	var got []string
	for _, a := range final.get("arguments").([]any) {
		m := a.(map[string]any)
		got = append(got, m["role"].(string)+" "+m["type"].(string))
	}
	want := []string{
		"opponent CLAIM", "proposer CLAIM", "opponent CLAIM", "proposer APPEAL", "arbitrator RULING",
		"proposer CLAIM", "opponent CLAIM", "proposer RESOLUTION", "arbitrator RULING",
	}
	if final.str("state") != "CLOSED" || !slices.Equal(got, want) {
		t.Errorf("state %s, arguments:\n%s\nwant:\n%s\nlog:\n%s", final.str("state"), strings.Join(got, "\n"), strings.Join(want, "\n"), strings.Join(log, "\n"))
	}
	doc := c.run(t, "docs", "get", prop.g.vals["doc-id"]).mustOK(t)
	if doc.get("latest_version") != float64(2) {
		t.Errorf("the plan has %v versions, want 2 (the proposer revised it)", doc.get("latest_version"))
	}
}
