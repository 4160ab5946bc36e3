package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/debatehq/debate/internal/regular"
	"github.com/debatehq/debate/output"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// auditOptions are the flags and arguments of "debate audit".
type auditOptions struct {
	dirs   []string
	asJSON bool
}

func auditCommand() *command {
	return &command{
		name: "audit", summary: "stance figures and the judge audit over many run folders",
		help: help{
			about: `Read the run.json of each run folder (a team's last CI runs) and print, over
all of them, the stance figures (who moved, toward the majority or not, with
95% intervals) and the judge audit per judge model: how often the favoured
debater was the one read first, in the middle or last, wrote the longest
answer, or shares the judge's model family, beside what no bias would give.
A check is flagged only when its exact 95% interval (Clopper-Pearson)
excludes that expectation, so a few verdicts are never flagged: the tables
say when they are too few for any check to be. A node read twice (a re-run
answered from the journal or the call cache, a merged run beside its shards:
the same topic and node, the same answers and the same judgment) is counted
once.

A folder without run.json is refused with its path, and so is a run.json that
is not a regular file (a link, a device, a pipe), one of a schema version
this program does not know, or one holding a figure no run writes (a count
above its total, an interval outside 0-1); the other folders are still read.
Runs of an older schema (before version 4) are read but recorded no stances
and no reading order, so they add nothing to the tables; they are named as
such.`,
			usage: "  debate audit <run-folder>... [--json]\n",
			examples: `  # The last runs a CI job kept as artifacts.
  debate audit runs/*

  # The same as JSON, for a dashboard.
  debate audit runs/* --json > audit.json
`,
			exits: `  0    every folder was read
  2    no folder named, or a folder refused (no run.json, not a regular file,
       of an unknown schema version, or with impossible figures); the others
       are still audited
`,
		},
		options: func() options { return &auditOptions{} },
	}
}

func (o *auditOptions) flags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.asJSON, "json", false, "print the tables as JSON")
}

func (o *auditOptions) args(fs *pflag.FlagSet) error {
	o.dirs = fs.Args()
	if len(o.dirs) == 0 {
		return usagef("name the run folders to audit: debate audit <run-folder>...")
	}
	return nil
}

// auditedRun is one folder as the audit read it.
type auditedRun struct {
	Dir           string `json:"dir"`
	SchemaVersion int    `json:"schemaVersion"`
	// Recorded is false for a run of a schema that kept no stances and no
	// reading order.
	Recorded bool `json:"recorded"`
	run      *tree.Run
}

// refusal is a folder the audit could not read.
type refusal struct {
	Dir   string `json:"dir"`
	Error string `json:"error"`
}

// auditReport is what "debate audit --json" prints: the folders read and
// refused, and the figures over the nodes of the runs read, each distinct
// node counted once (tree.Combine).
type auditReport struct {
	Runs    []auditedRun `json:"runs"`
	Refused []refusal    `json:"refused"`
	tree.Evidence
}

// firstRecording is the schema version from which run.json records stances
// and the order each judge read.
const firstRecording = 4

// readAudited reads dir's run.json as merge does (a regular file, never
// through a symbolic link, at most output.MaxRunBytes), refusing a missing
// file, an unknown schema version or a figure no run could have written,
// with the path.
func readAudited(dir string) (auditedRun, error) {
	path := filepath.Join(dir, "run.json")
	b, err := regular.ReadFileNoFollow(path, output.MaxRunBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return auditedRun{}, fmt.Errorf("%s: no run.json: not a run folder (\"debate run --output %s\" writes one)", dir, dir)
	}
	if err != nil {
		return auditedRun{}, err
	}
	var head struct {
		SchemaVersion int `json:"schemaVersion"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return auditedRun{}, fmt.Errorf("%s: %w", path, err)
	}
	if head.SchemaVersion < 1 || head.SchemaVersion > tree.SchemaVersion {
		return auditedRun{}, fmt.Errorf("%s: schemaVersion %d is not one this program knows (1 to %d): audit it with the debate version that wrote it", path, head.SchemaVersion, tree.SchemaVersion)
	}
	run, err := output.DecodeRun(b)
	if err != nil {
		return auditedRun{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := run.CheckFigures(); err != nil {
		return auditedRun{}, fmt.Errorf("%s: %w: the file is damaged or was edited; audit the folders without it", path, err)
	}
	return auditedRun{Dir: dir, SchemaVersion: head.SchemaVersion, Recorded: head.SchemaVersion >= firstRecording, run: run}, nil
}

// run audits every folder it can read and prints the tables.
func (o *auditOptions) run(e *env) error {
	rep := auditReport{Runs: []auditedRun{}, Refused: []refusal{}}
	var runs []*tree.Run
	for _, d := range o.dirs {
		a, err := readAudited(d)
		if err != nil {
			rep.Refused = append(rep.Refused, refusal{Dir: d, Error: err.Error()})
			fmt.Fprintf(e.stderr, "debate audit: %v\n", err)
			continue
		}
		rep.Runs = append(rep.Runs, a)
		runs = append(runs, a.run)
	}
	rep.Evidence = tree.Combine(runs...)
	if rep.Audit == nil {
		rep.Audit = []tree.JudgeAudit{}
	}
	if o.asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprintf(e.stdout, "# Audit of %d runs\n\n", len(rep.Runs))
		for _, r := range rep.Runs {
			note := ""
			if !r.Recorded {
				note = fmt.Sprintf(" — schema %d: no stances or reading order recorded", r.SchemaVersion)
			}
			fmt.Fprintf(e.stdout, "- %s (schema %d)%s\n", r.Dir, r.SchemaVersion, note)
		}
		if rep.Repeated > 0 {
			fmt.Fprintf(e.stdout, "\n%d of the %d nodes read repeat a node read already (a re-run answered from the journal or the cache, a merged run beside its shards) and are counted once.\n",
				rep.Repeated, rep.Nodes+rep.Repeated)
		}
		fmt.Fprintf(e.stdout, "\n%s", render.Audit(rep.Stances, rep.Audit, ""))
	}
	if len(rep.Refused) > 0 {
		return usageError{fmt.Errorf("%d of %d folders refused", len(rep.Refused), len(o.dirs))}
	}
	return nil
}
