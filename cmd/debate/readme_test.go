package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestReadmeSynopses: every synopsis in the README's list of commands is
// the USAGE its command's help prints, line breaks and indentation aside.
func TestReadmeSynopses(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)### Commands\n\n```\n(.*?)```").FindSubmatch(b)
	if block == nil {
		t.Fatal("README has no ### Commands block")
	}
	synopses := map[string]string{} // command → its synopsis, one line
	name := ""
	for _, line := range strings.Split(string(block[1]), "\n") {
		if rest, ok := strings.CutPrefix(line, "debate "); ok {
			name = strings.Fields(rest)[0]
		}
		if name != "" && line != "" {
			synopses[name] = strings.TrimSpace(synopses[name] + " " + strings.Join(strings.Fields(line), " "))
		}
	}
	if len(synopses) < 6 {
		t.Fatalf("README lists %d commands: %v", len(synopses), synopses)
	}
	for name, synopsis := range synopses {
		if name == "help" {
			continue
		}
		r := invoke(t, nil, "help", name)
		usage := regexp.MustCompile(`(?s)\nUSAGE\n(.*?)\n\n`).FindStringSubmatch(r.stdout)
		if usage == nil {
			t.Errorf("debate help %s prints no USAGE:\n%s", name, r.stdout)
			continue
		}
		if want := strings.Join(strings.Fields(usage[1]), " "); synopsis != want {
			t.Errorf("README's synopsis of %s:\n  %s\ndebate help %s:\n  %s", name, synopsis, name, want)
		}
	}
}

// TestReadmeSchemaVersion: the README's sketch of run.json carries the
// schema version runs write.
func TestReadmeSchemaVersion(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`"schemaVersion": (\d+)`).FindAllSubmatch(b, -1)
	if len(got) == 0 {
		t.Fatal("README has no run.json sketch with its schemaVersion")
	}
	for _, m := range got {
		if string(m[1]) != strconv.Itoa(tree.SchemaVersion) {
			t.Errorf("README says schemaVersion %s, runs write %d", m[1], tree.SchemaVersion)
		}
	}
}
