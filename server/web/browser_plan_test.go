package web

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/store"
)

// TestBrowserCodingPlan is an arbitrator's session on a coding_plan_debate
// whose plan is a document: the token page lets the person in, the list
// turns the debate into "needs you" live when the proposer appeals, the
// document opens from the argument that names it at version 2 with the diff
// from version 1, the ruling is written in the form beside the appeal, and
// closing is confirmed.
func TestBrowserCodingPlan(t *testing.T) {
	b := newBrowser(t, "plan-", 1000, 900)
	const token = "plan-token-456"
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "debate.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	base := "http://" + serveUI(t, st, token)

	plan, _, err := st.CreateDocument(ctx, protocol.NewDocument{Title: "Cache rollout plan",
		Content: "# Cache rollout\n\n1. Add the Redis cache behind a flag.\n2. Turn the flag on for 10% of traffic.\n3. Turn it on for everyone.\n"})
	if err != nil {
		t.Fatal(err)
	}
	write := func(w protocol.Write) protocol.Argument {
		t.Helper()
		w.DebateID = "plan"
		res, err := st.Submit(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		return res.Argument
	}
	created, err := st.Create(ctx, protocol.NewDebate{ID: "plan", Title: "Cache rollout", Type: protocol.CodingPlanDebate,
		Content: "Please review the plan in document " + plan.ID + ".", ClientRequestID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	c1 := write(protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: created.Argument.ID, ClientRequestID: "o1",
		Content: "**C1**: step 3 sends every request to a cold cache. Warm it up first."})
	if _, _, err := st.SubmitDocument(ctx, plan.ID, "# Cache rollout\n\n1. Add the Redis cache behind a flag.\n2. Warm the cache up from the access log.\n3. Turn the flag on for 10% of traffic.\n4. Turn it on for everyone.\n", "v2"); err != nil {
		t.Fatal(err)
	}
	c2 := write(protocol.Write{Type: protocol.Claim, Role: protocol.Proposer, TargetID: c1.ID, ClientRequestID: "p1",
		Content: "Fixed C1: " + plan.ID + " version 2 warms the cache up in step 2."})
	c3 := write(protocol.Write{Type: protocol.Claim, Role: protocol.Opponent, TargetID: c2.ID, ClientRequestID: "o2",
		Content: "**M1**: warming from the access log replays writes. Use a read-only replay."})

	b.step("a person without the token is asked for it, and let in",
		chromedp.Navigate(base+"/"),
		until(`document.getElementById('ui-token-form') !== null`),
	)
	b.shot("1-token")
	b.step("type the token",
		chromedp.SetValue(chromedp.ID("ui-token"), "wrong"),
		chromedp.Click(chromedp.CSS(`#ui-token-form button`)),
		until(`!document.getElementById('ui-token-error').hidden`),
		chromedp.SetValue(chromedp.ID("ui-token"), token),
	)
	b.follow("open with the right token", chromedp.Click(chromedp.CSS(`#ui-token-form button`)))
	b.step("the list",
		until(`document.querySelector('a[href="/debates/plan"]') !== null`),
		until(`document.title === 'Debates · debate'`),
		until(`document.getElementById('ui-list-live').textContent === 'This list updates itself.'`),
	)

	appeal := write(protocol.Write{Type: protocol.Appeal, Role: protocol.Proposer, TargetID: c3.ID, ClientRequestID: "p2",
		Content: "M1 is about the warm-up source. Options:\n\n- **A**: replay GET requests only.\n- **B**: warm from a nightly snapshot.\n- **C**: the arbitrator proposes another way."})
	b.step("the list shows the appeal live, counted in the tab title",
		until(`document.title === '(1) Debates · debate'`),
		until(`document.getElementById('ui-needs').textContent === '1'`),
		until(`document.querySelector('.debate .state').textContent === 'AWAITING_ARBITRATOR'`),
	)
	b.shot("2-list")

	// The list may be swapped for a fresher one at any time: click in one go.
	b.follow("open the debate", chromedp.Evaluate[chromedp.Void](`document.querySelector('a[href="/debates/plan"]').click()`))
	b.step("the arguments link the plan",
		stateIs("AWAITING_ARBITRATOR"),
		until(fmt.Sprintf(`document.querySelectorAll('#ui-tree a.doc-link[href="/documents/%s"]').length === 2`, plan.ID)),
	)
	b.follow("open the document from the MOTION", chromedp.Click(chromedp.CSS(`#ui-tree .arg-motion a.doc-link`)))
	b.step("the document at version 2, with the diff from version 1",
		until(`document.getElementById('doc-version') !== null`),
		until(`document.getElementById('doc-version').textContent === 'version 2 of 2'`),
		until(`document.getElementById('diff-h').textContent.startsWith('Changes from version 1 to 2')`),
		until(`[...document.querySelectorAll('.diff-add')].some(e => e.textContent.includes('Warm the cache up from the access log.'))`),
		until(`document.querySelector('.document li:nth-child(2)').textContent === 'Warm the cache up from the access log.'`),
	)
	b.shot("3-document")

	b.follow("back to the debate", chromedp.NavigateBack())
	b.step("the ruling form is beside the appeal, quoting it",
		stateIs("AWAITING_ARBITRATOR"),
		until(`document.querySelector('#ui-tree .arg-appeal > #ui-controls') !== null`),
		until(`document.getElementById('ui-controls-h').textContent === 'Your ruling on APPEAL #5'`),
		until(`document.getElementById('ui-quote').textContent.includes('the arbitrator proposes another way')`),
		enabled("ui-ruling", true),
	)
	b.step("rule, closing the debate, and confirm",
		chromedp.SetValue(chromedp.ID("ui-content"), "Take **B**: warm from the nightly snapshot, then roll out."),
		chromedp.Click(chromedp.ID("ui-close")),
		chromedp.Click(chromedp.ID("ui-ruling")),
		until(`!document.getElementById('ui-confirm').hidden`),
	)
	b.shot("4-confirm")
	b.step("confirm",
		chromedp.Click(chromedp.ID("ui-confirm-yes")),
		stateIs("CLOSED"),
		until(`document.querySelector('#ui-tree .arg-appeal > .kids > .arg-ruling .body strong') !== null`),
		until(`document.getElementById('ui-notice').textContent === 'Ruling recorded as #6.'`),
	)
	b.shot("5-closed")

	c, err := st.Get(ctx, "plan", 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Arguments[0]; c.Debate.State != protocol.Closed || r.Type != protocol.Ruling || r.ParentID != appeal.ID ||
		r.Content != "Take **B**: warm from the nightly snapshot, then roll out." {
		t.Errorf("store: %s, last argument %+v; want CLOSED by the ruling on the appeal", c.Debate.State, r)
	}
}
