package main

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/ops"
)

// docOut is the answer of the docs commands.
type docOut struct {
	head
	ops.Doc
}

func docsCommand() *command {
	return &command{
		name: "docs", summary: "create, version and read shared documents", noun: "docs command",
		agent: true,
		help: help{
			about: `Share long material (plans, reviews, logs) as versioned documents, and keep
arguments short: a summary and the doc_id. Documents live in the server's
database, up to 1 MiB per version. Run "debate docs <command> --help" for a
command's flags, output and exit codes.`,
			usage: "  debate docs <command> [flags]\n",
			examples: `  doc=$(debate docs create --title 'Plan v1' --file plan.md | jq -r .doc_id)
  debate docs submit "$doc" --file plan-v2.md
  debate docs get "$doc" --version 1
`,
		},
		subs: []*command{docsCreateCommand(), docsSubmitCommand(), docsGetCommand()},
	}
}

// docsCreateOptions are the flags of docs create.
type docsCreateOptions struct {
	agent
	title string
}

func docsCreateCommand() *command {
	return agentCommand("docs create", "store a new document (version 1) and print its doc_id",
		`  debate docs create {--content <s> | --file <f> | --stdin} [--title <t>]
                     [--client-request-id <k>]
`,
		"Store a new document as version 1 and print its doc_id, to cite in arguments.",
		`  debate docs create --title 'Plan' --file plan.md
  git diff | debate docs create --title 'The change' --stdin
`, true,
		func() options {
			return &docsCreateOptions{agent: agent{name: "docs create", remote: true, what: "the document", idempotent: true}}
		})
}

func (o *docsCreateOptions) flags(fs *pflag.FlagSet) {
	fs.StringVar(&o.title, "title", "", "title of the document")
	o.agent.flags(fs)
}

func (o *docsCreateOptions) args(fs *pflag.FlagSet) error {
	_, err := o.agent.args(fs)
	return err
}

func (o *docsCreateOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		content, _, err := o.readContent(e)
		if err != nil {
			return nil, err
		}
		d, err := ops.WriteDoc(ctx, s.client, ops.DocWrite{Title: o.title, Content: content, ClientRequestID: o.requestID})
		if err != nil {
			return nil, err
		}
		return docOut{success, d}, nil
	})
}

// docsSubmitOptions are the arguments of docs submit.
type docsSubmitOptions struct {
	agent
	docID string
}

func docsSubmitCommand() *command {
	return agentCommand("docs submit", "store the next version of a document",
		`  debate docs submit <doc-id> {--content <s> | --file <f> | --stdin}
                     [--client-request-id <k>]
`,
		"Store the next version of document <doc-id> and print its number.",
		"  debate docs submit \"$doc\" --file plan-v2.md\n", true,
		func() options {
			return &docsSubmitOptions{agent: agent{name: "docs submit", remote: true, what: "the new version", idempotent: true}}
		})
}

func (o *docsSubmitOptions) flags(fs *pflag.FlagSet) { o.agent.flags(fs) }

func (o *docsSubmitOptions) args(fs *pflag.FlagSet) error {
	args, err := o.agent.args(fs, "doc-id")
	if err == nil {
		o.docID = args[0]
	}
	return err
}

func (o *docsSubmitOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		content, _, err := o.readContent(e)
		if err != nil {
			return nil, err
		}
		d, err := ops.WriteDoc(ctx, s.client, ops.DocWrite{DocID: o.docID, Content: content, ClientRequestID: o.requestID})
		if err != nil {
			return nil, err
		}
		return docOut{success, d}, nil
	})
}

// docsGetOptions are the arguments and flags of docs get.
type docsGetOptions struct {
	agent
	docID string
	// version is the version to print; 0 prints the latest.
	version int
}

func docsGetCommand() *command {
	return agentCommand("docs get", "print a version of a document (the latest by default)",
		"  debate docs get <doc-id> [--version <n>]\n",
		"Print a version of document <doc-id>: its content, version and latest_version.",
		`  debate docs get "$doc"
  debate docs get "$doc" --version 1 | jq -r .document.content
`, true,
		func() options { return &docsGetOptions{agent: agent{name: "docs get", remote: true}} })
}

func (o *docsGetOptions) flags(fs *pflag.FlagSet) {
	fs.IntVar(&o.version, "version", 0, "version to print (default: the latest)")
	o.agent.flags(fs)
}

func (o *docsGetOptions) args(fs *pflag.FlagSet) error {
	args, err := o.agent.args(fs, "doc-id")
	if err != nil {
		return err
	}
	if fs.Changed("version") && o.version < 1 {
		return usagef("--version must be 1 or more (got %d)", o.version)
	}
	o.docID = args[0]
	return nil
}

func (o *docsGetOptions) run(e *env) error {
	return o.call(e, func(ctx context.Context, s conn) (any, error) {
		d, err := ops.ReadDoc(ctx, s.client, o.docID, o.version)
		if err != nil {
			return nil, err
		}
		return docOut{success, d}, nil
	})
}
