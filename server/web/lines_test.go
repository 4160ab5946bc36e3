package web

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/debatehq/debate/guide"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// guideAppeal returns the example APPEAL of the proposer's guide in lang.
func guideAppeal(t *testing.T, lang string) string {
	t.Helper()
	text, err := guide.Render(guide.Options{Role: "proposer", Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```markdown\n(.*?)```").FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no example APPEAL in the %s proposer guide", lang)
	}
	return m[1]
}

// TestArgumentKeepsLines: the page shows an argument's lines and lists as
// the agent wrote them: the guides' APPEAL layout, the same without blank
// lines, and a plain list.
func TestArgumentKeepsLines(t *testing.T) {
	t.Parallel()
	en, zh := guideAppeal(t, "en"), guideAppeal(t, "zh")
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{"guide en", en, []string{
			"<p><strong>Question:</strong> should the cache", "</p>\n<p><strong>Context:</strong> plan v2",
			"<ol>\n<li>Keep write-through", "<li>The arbitrator proposes another way.</li>\n</ol>"}},
		{"guide zh", zh, []string{"<p><strong>问题:</strong>", "</p>\n<p><strong>背景:</strong>", "<ol>\n<li>保留写穿"}},
		{"guide en without blank lines", strings.ReplaceAll(en, "\n\n", "\n"), []string{
			"<strong>Question:</strong> should the cache be written through or invalidated on update?<br>\n<strong>Context:</strong>",
			"<ol>\n<li>Keep write-through"}},
		{"plain lines", "Question: which key?\nContext: the plan's v2.", []string{"<p>Question: which key?<br>\nContext: the plan's v2.</p>"}},
		{"list", "- a\n- b", []string{"<ul>\n<li>a</li>\n<li>b</li>\n</ul>"}},
		{"list under a line", "Options:\n- a\n- b", []string{"<p>Options:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>"}},
	}
	f := newFixture(t, "", nil, store.Options{})
	for i, tt := range tests {
		id := "lines-" + string(rune('a'+i))
		m := f.create(id, tt.name, "Adopt the plan.")
		c := f.submit(protocol.Write{DebateID: id, Type: protocol.Claim, Role: protocol.Opponent, TargetID: m.ID,
			Content: "A race in writeThrough.", ClientRequestID: id + "-c"})
		f.submit(protocol.Write{DebateID: id, Type: protocol.Appeal, Role: protocol.Proposer, TargetID: c.ID,
			Content: tt.content, ClientRequestID: id + "-a"})
		p := f.get("/ui/debates/"+id+"/arguments", "", "")
		var env api.Envelope[rendered]
		if err := json.Unmarshal([]byte(p.body), &env); err != nil || !env.Success || len(env.Data.Arguments) != 3 {
			t.Fatalf("%s: rendered arguments: %v %s", tt.name, err, p.body)
		}
		got := env.Data.Arguments[2].HTML
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: missing %q in\n%s", tt.name, w, got)
			}
		}
	}
}
