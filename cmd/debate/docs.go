package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/server/api"
)

// docOut is the answer of the docs commands.
type docOut struct {
	head
	DocID         string `json:"doc_id"`
	Version       int    `json:"version"`
	LatestVersion int    `json:"latest_version"`
	Title         string `json:"title"`
	// Replay is set on writes: true when the write repeated an earlier one
	// with the same client request id.
	Replay   *bool        `json:"replay,omitempty"`
	Document api.Document `json:"document"`
}

func documentOut(r api.DocumentResult, write bool) docOut {
	out := docOut{head: success, DocID: r.Document.ID, Version: r.Document.Version,
		LatestVersion: r.Document.LatestVersion, Title: r.Document.Title, Document: r.Document}
	if write {
		out.Replay = &r.Replay
	}
	return out
}

// docsCommands are the subcommands of docs.
var docsCommands = []command{
	{"create", "store a new document (version 1) and print its doc_id", docsCreateCmd},
	{"submit", "store the next version of a document", docsSubmitCmd},
	{"get", "print a version of a document (the latest by default)", docsGetCmd},
}

func docsHelp() string {
	var b strings.Builder
	b.WriteString(`Share long material (plans, reviews, logs) as versioned documents, and keep arguments short:
a summary and the doc_id. Documents live in the server's database, up to 1 MiB per version.

USAGE
  debate docs <command> [flags]

COMMANDS
`)
	for _, c := range docsCommands {
		fmt.Fprintf(&b, "  %-7s %s\n", c.name, c.summary)
	}
	b.WriteString(`
EXAMPLES
  doc=$(debate docs create --title 'Plan v1' --file plan.md | jq -r .doc_id)
  debate docs submit "$doc" --file plan-v2.md
  debate docs get "$doc" --version 1

Run "debate docs <command> --help" for its flags, output and exit codes.
`)
	return b.String()
}

func docsCmd(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(e.stdout, showHelp(docsHelp()))
		return exitOK
	}
	for _, c := range docsCommands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	var names []string
	for _, c := range docsCommands {
		names = append(names, c.name)
	}
	if near, ok := configs.Closest(args[0], names); ok {
		return e.unknownAgentCommand("docs "+args[0], "debate docs "+near)
	}
	a := newAgent(e, "docs")
	return a.fail(context.Background(), usagef("unknown docs command %q: want create, submit or get", args[0]))
}

// docsCreateOptions are the flags of docs create.
type docsCreateOptions struct {
	title string
}

func docsCreateCmd(e *env, args []string) int {
	var o docsCreateOptions
	a := newAgent(e, "docs create")
	a.withServer()
	a.fs.StringVar(&o.title, "title", "", "title of the document")
	a.withContent("the document", false)
	a.withRequestID()
	help := a.help("debate docs create {--content <s> | --file <f> | --stdin} [--title <t>] [--client-request-id <k>]",
		`Store a new document as version 1 and print its doc_id, to cite in arguments.`,
		"  debate docs create --title 'Plan' --file plan.md\n  git diff | debate docs create --title 'The change' --stdin\n")
	return a.run(args, help, nil, func(ctx context.Context, s conn, _ []string) (any, error) {
		return o.run(ctx, a, s)
	})
}

func (o *docsCreateOptions) run(ctx context.Context, a *agent, s conn) (any, error) {
	content, _, err := a.readContent()
	if err != nil {
		return nil, err
	}
	r, err := s.client.CreateDocument(ctx, api.CreateDocumentRequest{Title: o.title, Content: content, ClientRequestID: a.requestID})
	if err != nil {
		return nil, err
	}
	return documentOut(r, true), nil
}

// docsSubmitOptions are the arguments of docs submit.
type docsSubmitOptions struct {
	docID string
}

func docsSubmitCmd(e *env, args []string) int {
	var o docsSubmitOptions
	a := newAgent(e, "docs submit")
	a.withServer()
	a.withContent("the new version", false)
	a.withRequestID()
	help := a.help("debate docs submit <doc-id> {--content <s> | --file <f> | --stdin} [--client-request-id <k>]",
		`Store the next version of document <doc-id> and print its number.`,
		"  debate docs submit \"$doc\" --file plan-v2.md\n")
	return a.run(args, help, []string{"doc-id"}, func(ctx context.Context, s conn, args []string) (any, error) {
		o.docID = args[0]
		return o.run(ctx, a, s)
	})
}

func (o *docsSubmitOptions) run(ctx context.Context, a *agent, s conn) (any, error) {
	content, _, err := a.readContent()
	if err != nil {
		return nil, err
	}
	r, err := s.client.SubmitDocument(ctx, o.docID, api.SubmitDocumentRequest{Content: content, ClientRequestID: a.requestID})
	if err != nil {
		return nil, err
	}
	return documentOut(r, true), nil
}

// docsGetOptions are the arguments and flags of docs get.
type docsGetOptions struct {
	docID string
	// version is the version to print; 0 prints the latest.
	version int
}

func docsGetCmd(e *env, args []string) int {
	var o docsGetOptions
	a := newAgent(e, "docs get")
	a.withServer()
	a.fs.IntVar(&o.version, "version", 0, "version to print (default: the latest)")
	help := a.help("debate docs get <doc-id> [--version <n>]",
		`Print a version of document <doc-id>: its content, version and latest_version.`,
		"  debate docs get \"$doc\"\n  debate docs get \"$doc\" --version 1 | jq -r .document.content\n")
	return a.run(args, help, []string{"doc-id"}, func(ctx context.Context, s conn, args []string) (any, error) {
		if a.fs.Changed("version") && o.version < 1 {
			return nil, usagef("--version must be 1 or more (got %d)", o.version)
		}
		o.docID = args[0]
		return o.run(ctx, s)
	})
}

func (o *docsGetOptions) run(ctx context.Context, s conn) (any, error) {
	r, err := s.client.GetDocument(ctx, o.docID, o.version)
	if err != nil {
		return nil, err
	}
	return documentOut(r, false), nil
}
