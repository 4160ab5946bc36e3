package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// reportLayout is what the browser measures on a report page.
type reportLayout struct {
	Overflow  int      `json:"overflow"`  // how far the page scrolls sideways
	Client    int      `json:"client"`    // the window's width
	LastRight float64  `json:"lastRight"` // where the rightmost last table column ends
	Tables    int      `json:"tables"`
	Labels    []string `json:"labels"` // SVG labels that leave their box
	SVGShown  bool     `json:"svgShown"`
	TreeCut   int      `json:"treeCut"` // how far the tree's drawing scrolls inside its figure
	Keys      []string `json:"keys"`    // the legend's colours, in its order
}

// measure reads the page's layout: its sideways scroll, the right edge of
// the last shown column of every table (the header's, or in stacked rows
// every cell's), every SVG label whose box (getBBox) leaves its rect, how
// far the tree's figure scrolls sideways and the legend's colours.
const measure = `(() => {
	const d = document.documentElement;
	let right = 0, tables = 0;
	for (const t of document.querySelectorAll("main table")) {
		tables++;
		for (const c of t.querySelectorAll("tr > :last-child")) {
			const r = c.getBoundingClientRect();
			if (r.width > 0) right = Math.max(right, r.right);
		}
	}
	const labels = [];
	let shown = false;
	for (const a of document.querySelectorAll("figure.tree svg a")) {
		const rect = a.querySelector("rect");
		if (!rect || rect.getBoundingClientRect().width === 0) continue;
		shown = true;
		const r = rect.getBBox();
		for (const t of a.querySelectorAll("text")) {
			const b = t.getBBox();
			if (b.x < r.x + 2 || b.x + b.width > r.x + r.width - 2) labels.push(t.textContent + " (" + Math.round(b.width) + " of " + r.width + " px)");
		}
	}
	let cut = 0;
	for (const f of document.querySelectorAll("figure.tree")) cut = Math.max(cut, f.scrollWidth - f.clientWidth);
	const keys = [...document.querySelectorAll(".legend .dot")].map(k => getComputedStyle(k).backgroundColor);
	return {overflow: d.scrollWidth - d.clientWidth, client: d.clientWidth, lastRight: right, tables: tables, labels: labels, svgShown: shown, treeCut: cut, keys: keys};
})()`

// TestReportsFitWindow opens the topic, motion and summary page goldens in
// headless Chromium at 360, 375 and 390 px (phones), 1,024 and 1,280 px: no
// page scrolls sideways, every table's last column ends inside the window,
// every SVG label shown stays inside its box, the tree's drawing (four
// leaves on page_every_status.html) does not scroll inside its figure, and
// each status in the legend has a colour of its own. With
// $DEBATE_REPORT_SCREENSHOTS set it saves screenshots of a topic, a motion
// and a summary page at 360, 375 and 1,280 px there: the first screen and
// the part that is hardest to fit. With $DEBATE_REPORT_PAGES naming a
// run's output folder, its pages are measured too. Without Chromium it skips, saying so,
// except under CI=true, where .ci/run has installed it and its absence is a
// failure; with -short it skips.
func TestReportsFitWindow(t *testing.T) {
	bin := os.Getenv("DEBATE_CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if bin == "" {
			bin, _ = exec.LookPath(name)
		}
	}
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium found under CI (.ci/run installs the chromium package; or set DEBATE_CHROMIUM)")
		}
		t.Skip("no Chromium found (set DEBATE_CHROMIUM or install chromium): skipping the browser test")
	}
	if testing.Short() {
		t.Skip("-short: skipping the browser test")
	}
	var pages []string
	for _, pattern := range []string{"report_*.html", "page_*.html", "motion_*.html"} {
		found, err := filepath.Glob(filepath.Join("testdata", pattern))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	if dir := os.Getenv("DEBATE_REPORT_PAGES"); dir != "" {
		found, err := filepath.Glob(filepath.Join(dir, "*.html"))
		if err != nil || len(found) == 0 {
			t.Fatalf("DEBATE_REPORT_PAGES=%s holds no pages: %v", dir, err)
		}
		pages = append(pages, found...)
	}
	kinds := map[string]int{}
	for _, p := range pages {
		switch {
		case strings.Contains(p, "summary"):
			kinds["summary"]++
		case strings.HasPrefix(filepath.Base(p), "motion_"):
			kinds["motion"]++
		default:
			kinds["topic"]++
		}
	}
	if kinds["summary"] == 0 || kinds["motion"] == 0 || kinds["topic"] == 0 {
		t.Fatalf("want topic, motion and summary goldens, found %v", kinds)
	}
	// The pages to photograph, each with the parts of it to take apart from
	// the window's first screen, and the widths to photograph them at.
	shots := map[string][]string{
		"page_every_status.html":        {".overview", "details.node"},
		"report_forced_billing-db.html": {".overview", "details.node"},
		"motion_deep.html":              {".argtree", "#arg-10", "main > table"},
		"report_forced_summary.html":    {"main table"},
	}
	shotWidths := map[int64]bool{360: true, 375: true, 1280: true}
	dir := os.Getenv("DEBATE_REPORT_SCREENSHOTS")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.UserDataDir(t.TempDir()))
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	for _, width := range []int64{360, 375, 390, 1024, 1280} {
		if _, err := chromedp.Run(bctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatalf("viewport %d px: %v", width, err)
		}
		for _, page := range pages {
			abs, err := filepath.Abs(page)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.RunResponse(bctx, chromedp.Navigate("file://"+abs)); err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			got, err := chromedp.Run(bctx, chromedp.Evaluate[reportLayout](measure))
			if err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			if got.Overflow > 0 {
				t.Errorf("%s at %d px: scrolls sideways by %d px", page, width, got.Overflow)
			}
			if got.Tables > 0 && got.LastRight > float64(got.Client) {
				t.Errorf("%s at %d px: a table's last column ends at %.0f of %d px", page, width, got.LastRight, got.Client)
			}
			for _, l := range got.Labels {
				t.Errorf("%s at %d px: SVG label leaves its box: %s", page, width, l)
			}
			if got.TreeCut > 0 {
				t.Errorf("%s at %d px: the tree's drawing scrolls sideways by %d px", page, width, got.TreeCut)
			}
			if distinct := len(slices.Compact(slices.Sorted(slices.Values(got.Keys)))); distinct != len(got.Keys) {
				t.Errorf("%s at %d px: the legend's %d statuses have %d colours: %v", page, width, len(got.Keys), distinct, got.Keys)
			}
			if width == 375 && !strings.HasPrefix(filepath.Base(page), "motion_") {
				decisionOnFirstScreen(t, bctx, page)
			}
			if sels := shots[filepath.Base(page)]; dir != "" && sels != nil && shotWidths[width] {
				name := fmt.Sprintf("%s-%d", strings.TrimSuffix(filepath.Base(page), ".html"), width)
				png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatalf("screenshot %s: %v", page, err)
				}
				if err := os.WriteFile(filepath.Join(dir, name+"-top.png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
				for i, sel := range sels {
					png, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.CSS(sel)))
					if err != nil {
						t.Fatalf("screenshot %s of %s: %v", sel, page, err)
					}
					if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-part%d.png", name, i+1)), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// firstDecision finds the top of the page's first decision, the paragraph
// or heading that opens with the word "Decision" (决定 in Chinese), and
// the viewport's height.
const firstDecision = `(() => {
	for (const e of document.querySelectorAll("main p, main h2")) {
		const s = e.textContent.trim();
		if (/^(Decision|决定|各议题的决定)/.test(s)) return [e.getBoundingClientRect().top, innerHeight];
	}
	return [-1, innerHeight];
})()`

// decisionOnFirstScreen checks that a topic or summary page, on a phone of
// 375 × 667 px, shows its decision on the first screen, then sets the
// viewport back to 375 × 900.
func decisionOnFirstScreen(t *testing.T, bctx context.Context, page string) {
	t.Helper()
	if _, err := chromedp.Run(bctx, chromedp.EmulateViewport(375, 667)); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Run(bctx, chromedp.EmulateViewport(375, 900))
	got, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](firstDecision))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if got[0] < 0 || got[0]+40 > got[1] {
		t.Errorf("%s at 375 × 667 px: the decision starts at %.0f px, not on the first screen", page, got[0])
	}
}
