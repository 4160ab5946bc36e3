package prompts

import (
	"fmt"
	"slices"
	"strings"
)

// The protocol role prompts live beside the step templates, one file per
// role call, and share the helper templates of protocol_common.tmpl (which
// may define only names starting with "_"):
//
//	protocol_motion      the MOTION's content (user part only): Motion
//	protocol_proposer    the proposer's reply to the newest argument: Turn
//	protocol_opponent    the opponent's CLAIM: Turn
//	protocol_arbitrator  the arbitrator's RULING: Turn
//	protocol_repair      sent after an answer that could not be used (user only): Repair
//
// A prompts.dir override replaces any of them by file name, like a step's.
var roleSteps = []struct {
	name   string
	sample func() any
}{
	{"protocol_motion", func() any { return MotionText{} }},
	{"protocol_proposer", func() any { return Turn{} }},
	{"protocol_opponent", func() any { return Turn{} }},
	{"protocol_arbitrator", func() any { return Turn{} }},
	{"protocol_repair", func() any { return Repair{} }},
}

// roleCommon is the file of helper templates every role template can call.
const roleCommon = "protocol_common"

// RoleNames returns the file names (without ".tmpl") of the protocol role
// templates, the shared helper file included.
func RoleNames() []string {
	out := []string{roleCommon}
	for _, s := range roleSteps {
		out = append(out, s.name)
	}
	return out
}

// overridable reports whether a file named name+".tmpl" may appear in a
// template override folder.
func overridable(name string) bool {
	return slices.Contains(Names(), name) || slices.Contains(RoleNames(), name)
}

// StoredDocument is a document kept in the debate database, as a role sees
// it: its id and version, the file it came from, and its text.
type StoredDocument struct {
	ID      string
	Version int
	Path    string
	Content string
}

// Argument is one argument of a protocol debate as a role sees it. Reply is
// the seq of the argument it answers (0 for none).
type Argument struct {
	Seq     int
	Type    string // MOTION, CLAIM, APPEAL, RULING, INTERVENTION, RESOLUTION
	Role    string // proposer, opponent, arbitrator
	Reply   int
	Content string
}

// MotionText is the data of the MOTION's content: the motion as configured
// and the documents stored for it.
type MotionText struct {
	Title     string
	Text      string
	Documents []StoredDocument
}

// Turn is the data of a role's call in a protocol debate.
type Turn struct {
	// DebateType selects the rules: "general_debate" or "coding_plan_debate".
	DebateType string
	Title      string
	Motion     string // the MOTION's content as stored
	Documents  []StoredDocument
	// History is every argument after the MOTION, oldest first.
	History []Argument
	// Newest is the argument this call answers (for the arbitrator: the
	// APPEAL, RESOLUTION or INTERVENTION to rule on).
	Newest Argument
	// Turn is the number of the proposer's reply being asked for (the
	// opponent's CLAIM opens that turn); MaxTurns the limit.
	Turn     int
	MaxTurns int
	// Final is set on the proposer's last allowed reply, which must be an
	// APPEAL or a RESOLUTION, and on the ruling that answers it, which closes
	// the debate.
	Final bool
}

// Roles is a parsed, checked set of protocol role templates for one
// language, with any overrides applied. It is safe for concurrent use.
type Roles struct {
	set *Set
}

// NewRoles loads the role templates of language ("" means "en"), replacing
// each one for which overrideDir ("" for none) holds a file of the same
// name. Every template is parsed and test-rendered here, as New does for the
// step templates.
func NewRoles(language, overrideDir string) (*Roles, error) {
	if language == "" {
		language = languages[0]
	}
	if !slices.Contains(languages, language) {
		return nil, fmt.Errorf("prompts: unknown language %q (known: %s)", language, strings.Join(languages, ", "))
	}
	texts := map[string]string{}
	origins := map[string]string{}
	for _, name := range RoleNames() {
		file := language + "/" + name + ext
		b, err := embedded.ReadFile("templates/" + file)
		if err != nil {
			return nil, fmt.Errorf("prompts: embedded template %s: %w", file, err)
		}
		texts[name] = string(b)
		origins[name] = "embedded " + file
	}
	if overrideDir != "" {
		if err := readOverrides(overrideDir, texts, origins); err != nil {
			return nil, err
		}
	}
	if err := checkCommon(texts[roleCommon]); err != nil {
		return nil, fmt.Errorf("prompts: %s: %w", origins[roleCommon], err)
	}
	s := &Set{language: language, steps: map[string]*stepTemplate{}}
	for _, st := range roleSteps {
		t, err := parseStep(st.name, texts[st.name])
		if err == nil && st.name == "protocol_repair" && t.Lookup("system") != nil {
			err = fmt.Errorf("%s: defines \"system\", but the repair continues the role's conversation and takes only \"user\"", st.name+ext)
		}
		if err == nil {
			_, err = t.New(roleCommon + ext).Parse(texts[roleCommon])
		}
		if err == nil {
			err = check(t, st.sample())
		}
		if err != nil {
			return nil, fmt.Errorf("prompts: %s: %w", origins[st.name], err)
		}
		s.steps[st.name] = &stepTemplate{tmpl: t, source: texts[st.name], origin: origins[st.name]}
	}
	return &Roles{set: s}, nil
}

// checkCommon checks that the shared file defines only templates whose
// names start with "_".
func checkCommon(text string) error {
	t, err := parseText(roleCommon+ext, text)
	if err != nil {
		return err
	}
	if t.Tree != nil && strings.TrimSpace(t.Tree.Root.String()) != "" {
		return fmt.Errorf("%s: text outside {{define}} blocks", roleCommon+ext)
	}
	for _, tt := range t.Templates() {
		if n := tt.Name(); n != t.Name() && !strings.HasPrefix(n, "_") {
			return fmt.Errorf("%s: defines %q; this file may define only templates whose names start with \"_\"", roleCommon+ext, n)
		}
	}
	return nil
}

// Language returns the role templates' language.
func (r *Roles) Language() string { return r.set.language }

// Source returns the text of a role template as it is used, after overrides.
func (r *Roles) Source(name string) (string, error) { return r.set.Source(name) }

// Motion returns the content of a debate's MOTION.
func (r *Roles) Motion(d MotionText) (string, error) {
	msgs, err := r.set.render("protocol_motion", d)
	if err != nil {
		return "", err
	}
	return msgs[len(msgs)-1].Content, nil
}

// Proposer returns the messages of the proposer's reply call, which answers
// with a JSON object {"action": "claim" | "appeal" | "resolution",
// "content": "…"}.
func (r *Roles) Proposer(d Turn) ([]Message, error) { return r.set.render("protocol_proposer", d) }

// Opponent returns the messages of the opponent's call, which answers with
// the CLAIM's text.
func (r *Roles) Opponent(d Turn) ([]Message, error) { return r.set.render("protocol_opponent", d) }

// Arbitrator returns the messages of the arbitrator's call, which answers
// with a JSON object {"close": true | false, "content": "…"}.
func (r *Roles) Arbitrator(d Turn) ([]Message, error) {
	return r.set.render("protocol_arbitrator", d)
}

// Repair returns the messages to append to a role's conversation when its
// answer could not be used: the previous answer as an assistant message, then
// a user message with the problem.
func (r *Roles) Repair(d Repair) ([]Message, error) {
	msgs, err := r.set.render("protocol_repair", d)
	if err != nil {
		return nil, err
	}
	return append([]Message{{Role: RoleAssistant, Content: d.Previous}}, msgs...), nil
}
