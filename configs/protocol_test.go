package configs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// motionBody is the inside of a valid motions-only config.
const motionBody = `
  "protocol": {
    "proposer": { "model": "p-model" },
    "opponent": { "model": "o-model", "api": { "baseURL": "https://o.example/v1", "apiKey": "${KIMI_API_KEY}" } },
    "arbitrator": { "model": "a-model", "fallback": "a-fallback" },
  },
  "motions": [{ "id": "m1", "title": "Adopt the plan", "motion": "We should adopt the plan." }],`

func TestProtocolProblems(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "line:col field | message fragment"
	}{
		{
			name: "misspelt protocol field gets a hint",
			text: `{"protocol": {"proposer": {"model": "p"}, "oponent": {"model": "o"}, "arbitrator": "human"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`,
			want: []string{
				`1:43 protocol.oponent | did you mean "opponent"?`,
			},
		},
		{
			name: "misspelt top-level motions",
			text: "{" + validBody + "\n  \"motons\": [],\n}",
			want: []string{`8:3 motons | did you mean "motions"?`},
		},
		{
			name: "misspelt motion field",
			text: `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": "human"},
 "motions": [{"id": "m", "title": "T", "motoin": "M"}]}`,
			want: []string{`2:40 motions[0].motoin | did you mean "motion"?`},
		},
		{
			name: "arbitrator string other than human",
			text: `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": "person"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`,
			want: []string{`1:71 protocol.arbitrator | want "human" or an object`},
		},
		{
			name: "motions without protocol",
			text: `{"motions": [{"id": "m", "title": "T", "motion": "M"}]}`,
			want: []string{`1:1 protocol | required with motions`},
		},
		{
			name: "roles missing or without model",
			text: `{"protocol": {"opponent": {"label": "O"}, "maxTurns": 0, "debateType": "essay"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`,
			want: []string{
				`1:14 protocol.proposer | required: add {"model": "…"} for the proposer`,
				`1:14 protocol.arbitrator | required: add {"model": "…"}, or "human"`,
				`1:27 protocol.opponent.model | required`,
				`1:43 protocol.maxTurns | at least 1 (got 0)`,
				`1:58 protocol.debateType | unknown debate type "essay"`,
			},
		},
		{
			name: "role id clashes with a debater",
			text: "{" + validBody + `
  "protocol": {"proposer": {"id": "a", "model": "p"}, "opponent": {"model": "o"}, "arbitrator": "human"},
  "motions": [{"id": "m", "title": "T", "motion": "M"}],
}`,
			want: []string{`8:29 protocol.proposer.id | duplicate id "a" (already used by debaters[0])`},
		},
		{
			name: "motion ids, titles, texts and documents",
			text: `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": "human"},
 "topics": [{"id": "t", "title": "T"}], "debaters": [{"id": "a", "model": "m"}, {"id": "b", "model": "m"}], "reviewer": {"id": "r", "model": "m"},
 "motions": [{"id": "t", "title": "T", "motion": "M"}, {"id": "a b", "title": " ", "motion": "M", "documents": ["absent.md", ""]}, {"title": "T"}]}`,
			want: []string{
				`3:15 motions[0].id | duplicate id "t" (already used by a topic)`,
				`3:57 motions[1].id | "a b" cannot be used in a file name`,
				`3:70 motions[1].title | required`,
				`3:113 motions[1].documents[0] | cannot read`,
				`3:126 motions[1].documents[1] | empty file name`,
				`3:132 motions[2].id | required`,
				`3:132 motions[2].motion | required`,
			},
		},
		{
			name: "bad endpoint override on a role",
			text: `{"protocol": {"proposer": {"model": "p", "api": {"timeout": -1}}, "opponent": {"model": "o"}, "arbitrator": "human"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`,
			want: []string{`1:50 protocol.proposer.api.timeout | greater than 0`},
		},
		{
			name: "neither topics nor motions",
			text: `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": "human"}}`,
			want: []string{
				`1:1 topics | add at least one topic`,
				`1:1 reviewer | add a "reviewer"`,
				`1:1 debaters | at least two debaters (found 0)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, tt.text), Options{Getenv: testEnv})
			if err == nil {
				t.Fatal("want problems, got none")
			}
			var got []string
			for _, p := range problemsOf(t, err) {
				got = append(got, where(p)+" | "+p.Message)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for _, w := range tt.want {
				pos, frag, _ := strings.Cut(w, " | ")
				if !slices.ContainsFunc(got, func(g string) bool {
					gpos, gmsg, _ := strings.Cut(g, " | ")
					return gpos == pos && strings.Contains(gmsg, frag)
				}) {
					t.Errorf("missing problem %q in:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

func TestLoadMotions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte("# Plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "{" + strings.Replace(motionBody, `"motion": "We should adopt the plan." }`,
		`"motion": "We should adopt the plan.", "documents": ["plan.md"] }`, 1) + `
  "api": { "apiKey": "${DEBATE_API_KEY}" },
}`
	path := filepath.Join(dir, "m.jsonc")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Protocol
	if p.MaxTurns != DefaultMaxTurns || p.DebateType != DefaultDebateType || p.DB != "" {
		t.Errorf("defaults: maxTurns %d, debateType %q, db %q", p.MaxTurns, p.DebateType, p.DB)
	}
	if p.Proposer.ID != ProposerID || p.Opponent.Label != "Opponent" || p.Arbitrator.ID != ArbitratorID || p.Arbitrator.Human {
		t.Errorf("roles = %+v %+v %+v", p.Proposer, p.Opponent, p.Arbitrator)
	}
	if got := cfg.MotionIDs(); !slices.Equal(got, []string{"m1"}) {
		t.Errorf("motions = %v", got)
	}
	if m, _ := cfg.MotionByID("m1"); len(m.Docs) != 1 || m.Docs[0].Content != "# Plan\n" {
		t.Errorf("documents = %+v", m.Docs)
	}

	var ids []string
	for _, q := range cfg.Participants() {
		ids = append(ids, q.ID)
	}
	if want := []string{"proposer", "opponent", "arbitrator"}; !slices.Equal(ids, want) {
		t.Errorf("participants = %v, want %v", ids, want)
	}
	if got := cfg.Endpoint("opponent"); got.BaseURL != "https://o.example/v1" || got.APIKey != "sk-kimi" {
		t.Errorf("opponent endpoint = %+v", got)
	}
	if got := cfg.Endpoint("arbitrator"); got.APIKey != "sk-default" || got.BaseURL != "" {
		t.Errorf("arbitrator endpoint = %+v", got)
	}
	if got := cfg.Secrets(); !slices.Equal(got, []string{"sk-default", "sk-kimi"}) {
		t.Errorf("secrets = %v", got)
	}
	red := cfg.Redacted()
	b, err := json.Marshal(red)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-kimi") || !strings.Contains(string(b), `"motions"`) {
		t.Errorf("redacted config: %s", b)
	}
	red.Protocol.Opponent.API.BaseURL = "changed"
	red.Motions[0].Documents[0] = "changed"
	if cfg.Protocol.Opponent.API.BaseURL == "changed" || cfg.Motions[0].Documents[0] == "changed" {
		t.Error("Redacted copy shares memory with the original")
	}
}

// A postgres:// URL in protocol.db is kept as written, not taken for a path
// under the config's folder, and its password never reaches a Redacted copy
// (which run.json keeps).
func TestProtocolDBURL(t *testing.T) {
	const db = "postgres://debate:s3cret@db.internal:5432/debates?sslmode=require"
	text := `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": {"model": "a"}, "db": "` + db + `"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`
	cfg, err := Load(writeConfig(t, text), Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Protocol.DB != db {
		t.Errorf("db = %q, want %q unchanged", cfg.Protocol.DB, db)
	}
	red := cfg.Redacted()
	if got, want := red.Protocol.DB, "postgres://REDACTED@db.internal:5432/debates?sslmode=require"; got != want {
		t.Errorf("redacted db = %q, want %q", got, want)
	}
	if cfg.Protocol.DB != db {
		t.Error("Redacted changed the original")
	}
}

func TestHumanArbitrator(t *testing.T) {
	text := `{"protocol": {"proposer": {"model": "p"}, "opponent": {"model": "o"}, "arbitrator": "human",
  "maxTurns": 3, "debateType": "coding_plan_debate", "db": "debates.db"},
 "motions": [{"id": "m", "title": "T", "motion": "M"}]}`
	path := writeConfig(t, text)
	cfg, err := Load(path, Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Protocol.Arbitrator.Human {
		t.Fatalf("arbitrator = %+v, want human", cfg.Protocol.Arbitrator)
	}
	if got, want := cfg.Protocol.DB, filepath.Join(filepath.Dir(path), "debates.db"); got != want {
		t.Errorf("db = %q, want %q (resolved against the config's folder)", got, want)
	}
	var ids []string
	for _, q := range cfg.Participants() {
		ids = append(ids, q.ID)
	}
	if !slices.Equal(ids, []string{"proposer", "opponent"}) {
		t.Errorf("participants = %v: a human arbitrator calls no model", ids)
	}
	b, err := json.Marshal(cfg.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"arbitrator":"human"`) {
		t.Errorf("a human arbitrator encodes as %s", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back.Protocol == nil || !back.Protocol.Arbitrator.Human {
		t.Errorf("round trip: %v %+v", err, back.Protocol)
	}
}

func TestLoadMotionExample(t *testing.T) {
	cfg, err := Load("examples/motion.jsonc", Options{Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Topics) != 0 || cfg.Reviewer != nil {
		t.Errorf("a motions-only example has topics %v or a reviewer %v", cfg.TopicIDs(), cfg.Reviewer)
	}
	if cfg.Protocol.DebateType != "coding_plan_debate" || cfg.Protocol.MaxTurns != 8 {
		t.Errorf("protocol = %+v", cfg.Protocol)
	}
	m, ok := cfg.MotionByID("webhook-retries")
	if !ok || len(m.Docs) != 1 || !strings.Contains(m.Docs[0].Content, "# Plan") {
		t.Errorf("motion = %+v", m)
	}
}
