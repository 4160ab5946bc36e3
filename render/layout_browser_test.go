package render

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSummaryFitsWindow opens each summary page golden in headless Chromium
// at 1,024 and 1,280 px: the page never scrolls sideways and the table's
// last column (Cost) ends inside the window. It skips without Chromium or
// with -short.
func TestSummaryFitsWindow(t *testing.T) {
	bin := os.Getenv("DEBATE_CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if bin == "" {
			bin, _ = exec.LookPath(name)
		}
	}
	if bin == "" {
		t.Skip("no Chromium found (set DEBATE_CHROMIUM or install chromium): skipping the browser test")
	}
	if testing.Short() {
		t.Skip("-short: skipping the browser test")
	}
	pages, err := filepath.Glob(filepath.Join("testdata", "report_*_summary.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no summary goldens: %v", err)
	}
	for _, width := range []int{1024, 1280} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
			chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-background-networking", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, 900))
		bctx, cancelBrowser := chromedp.NewContext(actx)
		for _, page := range pages {
			abs, err := filepath.Abs(page)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.RunResponse(bctx, chromedp.Navigate("file://"+abs)); err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			type layout struct {
				Overflow  int     `json:"overflow"`
				CostRight float64 `json:"costRight"`
				Client    int     `json:"client"`
			}
			got, err := chromedp.Run(bctx, chromedp.Evaluate[layout](`(() => {
				const d = document.documentElement, th = document.querySelector("table th:last-child");
				return {overflow: d.scrollWidth - d.clientWidth, costRight: th ? th.getBoundingClientRect().right : 0, client: d.clientWidth};
			})()`))
			if err != nil {
				t.Fatalf("%s at %d px: %v", page, width, err)
			}
			if got.Overflow > 0 || got.CostRight > float64(got.Client) {
				t.Errorf("%s at %d px: scrolls sideways by %d px; last column ends at %.0f of %d px", page, width, got.Overflow, got.CostRight, got.Client)
			}
		}
		cancelBrowser()
		cancelAlloc()
		cancel()
	}
}
