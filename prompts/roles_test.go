package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
)

// roleFixture is a coding-plan debate in its fourth argument: the MOTION, the
// opponent's review, the proposer's appeal, and the arbitrator's ruling.
func roleFixture(lang string) (MotionText, Turn) {
	doc := StoredDocument{ID: "0196a1b2-doc", Version: 1, Path: "plan.md",
		Content: "# Plan\n\n1. Add a `deliveries` table.\n2. Retry with exponential backoff, capped at 6 h.\n\n```sql\nSELECT … FOR UPDATE SKIP LOCKED\n```"}
	mt := MotionText{Title: "Retry failed webhook deliveries", Text: "Adopt the attached plan for retrying failed webhook deliveries.", Documents: []StoredDocument{doc}}
	motion := "Adopt the attached plan for retrying failed webhook deliveries.\n\nDocuments (stored in the debate database; retrieve the full text by id):\n- `0196a1b2-doc` (version 1): plan.md"
	claim := "**C1**: a delivery that times out may have reached the customer; retrying it sends a duplicate. Add an idempotency key header.\n\n**m1**: name the status `dead`, not `failed`."
	appeal := "C1 is disputed: the opponent wants an idempotency key; I think duplicates are acceptable.\n\nOptions:\n1. Add the key now.\n2. Document at-least-once delivery.\n3. Another solution of the arbitrator's choosing."
	ruling := "Option 1: add the idempotency key now. m1 is accepted."
	if lang == "zh" {
		mt.Title, mt.Text = "重试失败的 webhook 投递", "采纳附件中重试失败 webhook 投递的计划。"
		motion = "采纳附件中重试失败 webhook 投递的计划。\n\n文档（保存在辩论数据库中，可按 id 获取全文）：\n- `0196a1b2-doc`（第 1 版）：plan.md"
		claim = "**C1**：超时的投递可能已经到达客户；重试会造成重复。加上幂等键请求头。\n\n**m1**：状态名用 `dead`，不要用 `failed`。"
		appeal = "C1 有争议：反对方要求幂等键；我认为重复可以接受。\n\n选项：\n1. 现在加上幂等键。\n2. 在文档中说明至少一次投递。\n3. 由仲裁方选择的其他方案。"
		ruling = "选项 1：现在加上幂等键。接受 m1。"
	}
	turn := Turn{
		DebateType: "coding_plan_debate",
		Title:      mt.Title,
		Motion:     motion,
		Documents:  []StoredDocument{doc},
		History: []Argument{
			{Seq: 2, Type: "CLAIM", Role: "opponent", Reply: 1, Content: claim},
			{Seq: 3, Type: "APPEAL", Role: "proposer", Reply: 2, Content: appeal},
			{Seq: 4, Type: "RULING", Role: "arbitrator", Reply: 3, Content: ruling},
		},
		Turn:     2,
		MaxTurns: 4,
	}
	turn.Newest = turn.History[2]
	return mt, turn
}

// roleCases renders every role template of r for one language, keyed by
// golden file name.
func roleCases(t *testing.T, r *Roles, lang string) map[string][]Message {
	t.Helper()
	mt, turn := roleFixture(lang)
	out := map[string][]Message{}
	add := func(name string, msgs []Message, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s/%s: %v", lang, name, err)
		}
		out[name] = msgs
	}
	text, err := r.Motion(mt)
	add("protocol_motion", []Message{{Role: RoleUser, Content: text}}, err)

	// The proposer aligns with the ruling.
	msgs, err := r.Proposer(turn)
	add("protocol_proposer", msgs, err)

	// A general debate's proposer on its last allowed reply.
	final := turn
	final.DebateType, final.Documents, final.Final, final.Turn = "general_debate", nil, true, 4
	final.History = turn.History[:1]
	final.Newest = final.History[0]
	msgs, err = r.Proposer(final)
	add("protocol_proposer_final", msgs, err)

	// The opponent's first claim on a general motion, then its review of
	// the revised plan.
	first := Turn{DebateType: "general_debate", Title: "Four-day week", Motion: "We should move to a four-day week.",
		Newest: Argument{Seq: 1, Type: "MOTION", Role: "proposer"}, Turn: 1, MaxTurns: 12}
	msgs, err = r.Opponent(first)
	add("protocol_opponent_first", msgs, err)
	review := turn
	review.History = append(review.History[:3:3], Argument{Seq: 5, Type: "CLAIM", Role: "proposer", Reply: 4, Content: "C1 fixed: every delivery carries `Idempotency-Key: <delivery id>`."})
	review.Newest = review.History[3]
	review.Turn = 3
	msgs, err = r.Opponent(review)
	add("protocol_opponent", msgs, err)

	// The arbitrator on the appeal, and on a forced final appeal.
	ruleOn := turn
	ruleOn.History = turn.History[:2]
	ruleOn.Newest = ruleOn.History[1]
	msgs, err = r.Arbitrator(ruleOn)
	add("protocol_arbitrator", msgs, err)
	ruleOn.Final = true
	msgs, err = r.Arbitrator(ruleOn)
	add("protocol_arbitrator_final", msgs, err)

	msgs, err = r.Repair(Repair{Previous: `{"action": "rebut", "content": "…"}`, Error: `action "rebut": want "claim", "appeal" or "resolution"`})
	add("protocol_repair", msgs, err)
	return out
}

func TestRolesGolden(t *testing.T) {
	for _, lang := range Languages() {
		r, err := NewRoles(lang, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Language() != lang {
			t.Errorf("language = %q, want %q", r.Language(), lang)
		}
		for name, msgs := range roleCases(t, r, lang) {
			t.Run(lang+"/"+name, func(t *testing.T) {
				golden.Assert(t, filepath.Join("testdata", lang, name+".golden"), []byte(format(msgs)))
				for _, m := range msgs {
					if m.Role == RoleAssistant {
						continue
					}
					if bad := emptyHeadings(m.Content); len(bad) > 0 {
						t.Errorf("%s: headings without content: %q", m.Role, bad)
					}
					for _, bad := range []string{"<no value>", "\n\n\n", " \n"} {
						if strings.Contains(m.Content, bad) {
							t.Errorf("%s message contains %q", m.Role, bad)
						}
					}
				}
			})
		}
	}
}

// TestRolesRules checks what the rules say in every language: the plan
// rules' severity tags appear only in a coding-plan debate, and the final
// reply and ruling say so.
func TestRolesRules(t *testing.T) {
	for _, lang := range Languages() {
		r, err := NewRoles(lang, "")
		if err != nil {
			t.Fatal(err)
		}
		_, turn := roleFixture(lang)
		for _, typ := range []string{"general_debate", "coding_plan_debate"} {
			turn.DebateType = typ
			for role, build := range map[string]func(Turn) ([]Message, error){"proposer": r.Proposer, "opponent": r.Opponent, "arbitrator": r.Arbitrator} {
				msgs, err := build(turn)
				if err != nil {
					t.Fatal(err)
				}
				system := msgs[0].Content
				if got, want := strings.Contains(system, "`C1`"), typ == "coding_plan_debate"; got != want {
					t.Errorf("%s %s %s: severity tags shown = %v, want %v", lang, typ, role, got, want)
				}
			}
		}
		turn.Final = false
		plain, _ := r.Arbitrator(turn)
		turn.Final = true
		final, _ := r.Arbitrator(turn)
		if last, before := final[len(final)-1].Content, plain[len(plain)-1].Content; len(last) <= len(before) || !strings.Contains(last, "true") {
			t.Errorf("%s: the final ruling's prompt does not ask to close:\n%s", lang, last)
		}
		if final[0].Content != plain[0].Content {
			t.Errorf("%s: the final ruling's system message differs from the others':\n%s", lang, final[0].Content)
		}
	}
}

func TestRolesOverride(t *testing.T) {
	dir := t.TempDir()
	override := "{{define \"system\"}}Be brief.{{end}}{{define \"user\"}}Answer #{{.Newest.Seq}}: {{template \"_role\" .Newest.Role}}.{{end}}"
	if err := os.WriteFile(filepath.Join(dir, "protocol_opponent.tmpl"), []byte(override), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New("en", dir); err != nil {
		t.Fatalf("the step templates refuse a role override: %v", err)
	}
	r, err := NewRoles("en", dir)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := r.Opponent(Turn{Newest: Argument{Seq: 3, Role: "proposer"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := format(msgs); got != "### system\nBe brief.\n\n### user\nAnswer #3: proposer.\n" {
		t.Errorf("override rendered %q", got)
	}

	bad := []struct{ file, text, want string }{
		{"protocol_proposer.tmpl", `{{define "user"}}{{.Nope}}{{end}}`, "Nope"},
		{"protocol_common.tmpl", `{{define "user"}}x{{end}}`, "only templates"},
		{"protocol_repair.tmpl", `{{define "system"}}x{{end}}{{define "user"}}x{{end}}`, "takes only \"user\""},
	}
	for _, b := range bad {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, b.file), []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := NewRoles("en", d); err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), b.file) {
			t.Errorf("%s: err = %v, want one naming the file and %q", b.file, err, b.want)
		}
	}
}
