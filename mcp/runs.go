package mcp

import (
	"context"
	"fmt"
	"mime"
	"path"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/debatehq/debate/ops"
)

// cancelWait is how long run_cancel waits for the run's reports.
const cancelWait = 30 * time.Second

// runID names a run.
type runID struct {
	ID string `json:"id" jsonschema:"the run's id, as run_start or run_list gave it"`
}

// statusIn is the input of run_status.
type statusIn struct {
	ID          string  `json:"id" jsonschema:"the run's id, as run_start or run_list gave it"`
	WaitSeconds float64 `json:"waitSeconds,omitempty" jsonschema:"wait up to this many seconds (at most 50) for the run to end, with progress notifications meanwhile; 0 answers at once"`
}

// runList is the answer of run_list.
type runList struct {
	Runs []ops.Status `json:"runs" jsonschema:"the runs this server started, newest first"`
}

// addRunTools adds the run tools and the reports' resources to s.
func addRunTools(s *sdk.Server, runs *ops.Runs) {
	sdk.AddTool(s, &sdk.Tool{Name: "run_start", Title: "Start a debate run",
		Description: `Start a batch debate run and return its status at once, with its id and output folder. Give either config (the path of a JSONC config) or question plus models (an inline question played with the default config's judge and endpoint). A run's spend is capped: by the config's budget.maxCost or by maxCost. demo plays a scripted debate with no model called. Then follow it with run_status (waitSeconds) and read run_decision.`},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ops.Start) (*sdk.CallToolResult, ops.Status, error) {
			return answer(runs.Begin(in))
		})
	sdk.AddTool(s, &sdk.Tool{Name: "run_status", Title: "Status of a run",
		Description: `Where a run stands: its state (running, finished, cancelled, failed), topics done of all, calls, tokens, spend, each topic's live line, and once ended its reports (resources). With waitSeconds (at most 50) the call returns when the run ends or the wait is over, sending progress notifications meanwhile; call it again while the state is running.`},
		func(ctx context.Context, req *sdk.CallToolRequest, in statusIn) (*sdk.CallToolResult, ops.Status, error) {
			return answer(runs.Status(ctx, in.ID, wait(in.WaitSeconds, 0), progress(ctx, req)))
		})
	sdk.AddTool(s, &sdk.Tool{Name: "run_decision", Title: "What a run decided",
		Description: `What an ended run decided, compact whatever its size: per topic its decision (agreed, decided, split, undecided with a cause), its verdicts, what stays disputed and its report's URI; the counts per decision; and the gate (params.failOn) with the topics that failed it.`},
		func(ctx context.Context, _ *sdk.CallToolRequest, in runID) (*sdk.CallToolResult, ops.Decision, error) {
			return answer(runs.Decision(in.ID))
		})
	sdk.AddTool(s, &sdk.Tool{Name: "run_cancel", Title: "Cancel a run",
		Description: `Stop a run. Its reports are written with the topics still going marked interrupted; the answer is its status once they are.`},
		func(ctx context.Context, _ *sdk.CallToolRequest, in runID) (*sdk.CallToolResult, ops.Status, error) {
			return answer(runs.Cancel(ctx, in.ID, cancelWait))
		})
	sdk.AddTool(s, &sdk.Tool{Name: "run_list", Title: "Recent runs",
		Description: `The runs this server started, newest first, each with its state, counts and folder.`},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, runList, error) {
			return nil, runList{Runs: runs.List()}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "report", Title: "A run's report",
		Description: "A file a run wrote: summary.md, run.json, topic-<id>-<slug>.md, the HTML pages. run_status lists them.",
		URITemplate: ops.ReportURI("{id}", "{name}")},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return readReport(runs, req.Params.URI)
		})
}

// readReport reads the report at uri.
func readReport(runs *ops.Runs, uri string) (*sdk.ReadResourceResult, error) {
	rest, ok := strings.CutPrefix(uri, ops.ReportsURI)
	id, name, cut := strings.Cut(rest, "/")
	if !ok || !cut || name == "" {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	b, err := runs.Report(id, name)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	typ := mime.TypeByExtension(path.Ext(name))
	if strings.HasSuffix(name, ".md") {
		typ = "text/markdown"
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: typ, Text: string(b)}}}, nil
}

// progress returns what sends a client that asked for progress the status
// of a run as it changes: the progress counts the calls and topics
// finished (both only grow), the message says where the run stands.
func progress(ctx context.Context, req *sdk.CallToolRequest) func(ops.Status) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	last := -1
	return func(st ops.Status) {
		p := st.Calls + st.Done
		if p <= last {
			return
		}
		last = p
		msg := fmt.Sprintf("%d of %d topics done, %d calls, %d tokens, cost %.4f", st.Done, st.Total, st.Calls, st.Tokens, st.Cost)
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(p), Message: msg})
	}
}
