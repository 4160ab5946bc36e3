package output

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/golden"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/render/rendertest"
	"github.com/debatehq/debate/tree"
)

func TestSlug(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Should we adopt Kafka?", "should-we-adopt-kafka"},
		{"  Leading, trailing -- and   repeated   separators!  ", "leading-trailing-and-repeated-separators"},
		{"Café crème brûlée à la française", "cafe-creme-brulee-a-la-francaise"},
		{"Straße und Œuvre", "strasse-und-oeuvre"},
		{"Việt Nam: kiến trúc hệ thống", "viet-nam-kien-truc-he-thong"},
		{"是否迁移到 Kafka 和 Go", "kafka-go"},
		{"是否将消息队列迁移？", "8b59df1a"},
		{"🚀 Launch 🔥 plan", "launch-plan"},
		{"🚀🔥", "275479e3"},
		{"", "e3b0c442"}, // the first bytes of SHA-256, so names stay the same across versions
		{"CON", "con-topic"},
		{"con", "con-topic"},
		{"Lpt1", "lpt1-topic"},
		{"console", "console"},
		{"../../etc/passwd", "etc-passwd"},
		{`C:\Windows\System32`, "c-windows-system32"},
		{"a/b\\c:d*e?f\"g<h>i|j", "a-b-c-d-e-f-g-h-i-j"},
		{"Should the billing service move from PostgreSQL to a distributed SQL database?", "should-the-billing-service-move-from-postgresql-to"},
		{strings.Repeat("x", 80), strings.Repeat("x", 50)},
		{"word " + strings.Repeat("y", 60), "word-" + strings.Repeat("y", 45)},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			got := Slug(tt.title)
			if got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.title, got, tt.want)
			}
			if Slug(tt.title) != got {
				t.Error("Slug is not stable")
			}
			if len(got) == 0 || len(got) > 50 {
				t.Errorf("len = %d", len(got))
			}
			for _, r := range got {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
					t.Errorf("Slug(%q) has %q", tt.title, r)
				}
			}
			if strings.HasPrefix(got, "-") || strings.HasSuffix(got, "-") || strings.Contains(got, "--") {
				t.Errorf("Slug(%q) = %q has stray hyphens", tt.title, got)
			}
		})
	}
}

func TestTopicFile(t *testing.T) {
	tests := []struct{ id, title, want string }{
		{"topic-6", "Kafka or RabbitMQ?", "topic-topic-6-kafka-or-rabbitmq.md"},
		{"6", "是否将消息队列迁移？", "topic-6-8b59df1a.md"},
		{"../x", "T", "topic-..-x-t.md"},
		{"a b", "T", "topic-a-b-t.md"},
	}
	for _, tt := range tests {
		if got := TopicFile(&tree.Topic{ID: tt.id, Title: tt.title}); got != tt.want {
			t.Errorf("TopicFile(%q, %q) = %q, want %q", tt.id, tt.title, got, tt.want)
		}
	}
}

// listFiles returns every file under dir, relative, sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name    string
		run     *tree.Run
		opt     Options
		want    []string // in the order Write returns them
		hasHTML bool
	}{
		{"markdown by default", rendertest.Forced(), Options{},
			[]string{"topic-billing-db-should-the-billing-service-move-from-postgresql-to.md", "summary.md", "run.json"}, false},
		{"json only", rendertest.Converged(), Options{Formats: []string{"json"}},
			[]string{"run.json"}, false},
		{"every format and raw", rendertest.Interrupted(), Options{
			Formats: []string{"markdown", "json", "html"},
			Raw:     []RawFile{{"repo-layout-root-party-a-position.json", []byte(`{"request":{}}`)}, {"repo-layout-root-judge.json", []byte(`{}`)}},
		}, []string{
			"topic-owners-require-code-owners-approval-for-every-merge.md",
			"topic-repo-layout-monorepo-or-one-repository-per-service.md",
			"summary.md",
			"topic-owners-require-code-owners-approval-for-every-merge.html",
			"topic-repo-layout-monorepo-or-one-repository-per-service.html",
			"summary.html",
			"run.json",
			"raw/repo-layout-root-party-a-position.json",
			"raw/repo-layout-root-judge.json",
		}, true},
		{"failed run, html", rendertest.Failed(), Options{Formats: []string{"html"}},
			[]string{"topic-flags-adopt-feature-flags-as-a-managed-service-or-build.html", "summary.html", "run.json"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out", "nested")
			paths, err := Write(dir, tt.run, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var rel []string
			for _, p := range paths {
				r, _ := filepath.Rel(dir, p)
				rel = append(rel, filepath.ToSlash(r))
			}
			if !slices.Equal(rel, tt.want) {
				t.Errorf("Write returned\n%q\nwant\n%q", rel, tt.want)
			}
			sorted := slices.Sorted(slices.Values(tt.want))
			if got := listFiles(t, dir); !slices.Equal(got, sorted) {
				t.Errorf("folder holds %q, want %q (no temporary files)", got, sorted)
			}
			for i, p := range paths {
				body, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case strings.HasSuffix(p, ".md") && rel[i] != "summary.md":
					if want := render.Topic(tt.run, &tt.run.Topics[i]); !bytes.Equal(body, want) {
						t.Errorf("%s is not the rendered topic report", rel[i])
					}
				case rel[i] == "summary.md":
					if !bytes.Equal(body, render.Summary(tt.run, reportNames(tt.run))) {
						t.Error("summary.md is not the rendered summary")
					}
				case strings.HasSuffix(p, ".html"):
					if !bytes.HasPrefix(body, []byte("<!DOCTYPE html>")) {
						t.Errorf("%s is not an HTML page", rel[i])
					}
				case rel[i] == "run.json":
					run, err := DecodeRun(body)
					if err != nil {
						t.Fatal(err)
					}
					if len(run.Topics) != len(tt.run.Topics) || run.Topics[0].Root.Summarize() != tt.run.Topics[0].Root.Summarize() {
						t.Error("run.json does not hold the run")
					}
				}
				if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o644 {
					t.Errorf("%s: mode %v, %v", rel[i], info.Mode(), err)
				}
			}
			if tt.hasHTML {
				summary, _ := os.ReadFile(filepath.Join(dir, "summary.html"))
				if !bytes.Contains(summary, []byte("<title>Debate summary</title>")) {
					t.Error("summary.html lacks its title")
				}
			}
		})
	}
}

func TestWriteOverwritesAndCollisions(t *testing.T) {
	run := rendertest.Converged()
	second := run.Topics[0]
	second.ID = "PAGINATION" // same file name but for case
	run.Topics = append(run.Topics, second)
	dir := t.TempDir()
	for range 2 {
		paths, err := Write(dir, run, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 4 || filepath.Base(paths[0]) == filepath.Base(paths[1]) {
			t.Fatalf("paths = %q", paths)
		}
		if !strings.HasSuffix(paths[1], "-2.md") {
			t.Errorf("colliding name = %q, want a -2 suffix", paths[1])
		}
		summary, err := os.ReadFile(filepath.Join(dir, "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths[:2] {
			if link := "](" + filepath.Base(p) + ")"; !strings.Contains(string(summary), link) {
				t.Errorf("summary.md has no link %q to its report", link)
			}
		}
	}
	if n := len(listFiles(t, dir)); n != 4 {
		t.Errorf("%d files after two writes, want 4", n)
	}
}

func TestWriteRawNames(t *testing.T) {
	dir := t.TempDir()
	raw := []RawFile{
		{"../escape.json", []byte("1")}, {`a\b:c.json`, []byte("2")}, {"", []byte("3")},
		{"..", []byte("4")}, {"same.json", []byte("5")}, {"SAME.json", []byte("6")},
	}
	paths, err := Write(dir, rendertest.Converged(), Options{Formats: []string{"json"}, Raw: raw})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"run.json", "raw/..-escape.json", "raw/a-b-c.json", "raw/x", "raw/raw", "raw/same.json", "raw/SAME-2.json"}
	for i, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		if i >= len(want) || filepath.ToSlash(rel) != want[i] {
			t.Fatalf("Write returned %q, want %q under %s", paths, want, dir)
		}
		if i > 0 {
			if body, _ := os.ReadFile(p); string(body) != string(raw[i-1].Body) {
				t.Errorf("%s holds %q, want %q", rel, body, raw[i-1].Body)
			}
		}
	}
	if len(listFiles(t, filepath.Dir(dir))) != len(want) {
		t.Error("a raw file was written outside the output folder")
	}
}

func TestWriteRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"unknown format", Options{Formats: []string{"pdf"}}, `output format "pdf"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			_, err := Write(dir, rendertest.Converged(), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Error("the folder was created although the options were refused")
			}
		})
	}
}

// TestWriteKeepsGoingOnFailure puts a folder where run.json belongs: that
// file fails, every other file is still written, and nothing temporary stays.
func TestWriteKeepsGoingOnFailure(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "run.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json", "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	paths, err := Write(dir, rendertest.Failed(), Options{})
	if err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Fatalf("err = %v, want a run.json error", err)
	}
	if len(paths) != 2 {
		t.Errorf("wrote %q, want the topic report and the summary", paths)
	}
	want := []string{"run.json/keep", "summary.md", "topic-flags-adopt-feature-flags-as-a-managed-service-or-build.md"}
	if got := listFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("folder holds %q, want %q", got, want)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	if err := writeFile(path, []byte("previous\n")); err != nil {
		t.Fatal(err)
	}
	// A write that fails half-way leaves the previous file as it was.
	boom := errors.New("disk full")
	err := writeAtomic(path, func(w io.Writer) error {
		if _, err := w.Write([]byte("half of the new")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "summary.md") {
		t.Fatalf("err = %v, want the fill error wrapped with the path", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous\n" {
		t.Errorf("file = %q after a failed write, want the previous content", got)
	}
	if got := listFiles(t, dir); !slices.Equal(got, []string{"summary.md"}) {
		t.Errorf("folder holds %q, want no temporary file", got)
	}
	// A write that succeeds replaces it whole.
	if err := writeFile(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("file = %q, want the new content", got)
	}
	// A folder that does not exist is an error naming the path.
	if err := writeFile(filepath.Join(dir, "missing", "x.md"), nil); err == nil || !strings.Contains(err.Error(), "x.md") {
		t.Errorf("err = %v", err)
	}
}

func TestRunJSONGolden(t *testing.T) {
	for _, f := range rendertest.Fixtures() {
		t.Run(f.Name, func(t *testing.T) {
			body, err := EncodeRun(f.Run)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", "run_"+f.Name+".json"), body)
		})
	}
}

// TestRunJSONRoundTrip decodes every golden run.json and encodes it again:
// the bytes must be the file's.
func TestRunJSONRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "run_*.json"))
	if len(files) < 5 {
		t.Fatalf("found %d golden run.json files, want one per fixture", len(files))
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			run, err := DecodeRun(data)
			if err != nil {
				t.Fatal(err)
			}
			again, err := EncodeRun(run)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Errorf("decode → encode differs from the file:\n%s", golden.Diff(string(data), string(again)))
			}
		})
	}
}

func TestEncodeRunNormalizes(t *testing.T) {
	root := &tree.Node{ID: "root", Status: tree.Failed, Judgment: &tree.Judgment{Divergences: []tree.Divergence{{ID: "D1"}}}}
	run := &tree.Run{Topics: []tree.Topic{{ID: "t", Root: root}}}
	body, err := EncodeRun(run)
	if err != nil {
		t.Fatal(err)
	}
	s := string(body)
	for _, want := range []string{`"schemaVersion": 5`, `"positions": {}`, `"errors": []`, `"children": []`, `"consensus": []`, `"sides": {}`, `"uninvolved": []`, `"fallbacks": []`, `"debaters": []`} {
		if !strings.Contains(s, want) {
			t.Errorf("run.json lacks %s", want)
		}
	}
	if strings.Contains(s, "null") {
		t.Errorf("run.json holds null:\n%s", s)
	}
	if !strings.HasSuffix(s, "}\n") {
		t.Error("run.json lacks its trailing newline")
	}
	if run.SchemaVersion != 0 || root.Positions != nil || root.Judgment.Consensus != nil {
		t.Error("EncodeRun modified its argument")
	}
}

func TestEncodeRunKeepsHTMLCharacters(t *testing.T) {
	run := rendertest.Converged()
	run.Topics[0].Root.Positions["party-a"] = "a <b> & c"
	body, _ := EncodeRun(run)
	if !bytes.Contains(body, []byte(`"a <b> & c"`)) {
		t.Error("EncodeRun escaped <, > or &")
	}
}

func TestDecodeRunRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", "{", "decode run.json"},
		{"no version", `{"topics":[]}`, "no schemaVersion"},
		{"newer version", `{"schemaVersion":99}`, "schemaVersion 99 is newer"},
		{"wrong type", `{"schemaVersion":"1"}`, "decode run.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeRun([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// reportNames returns the report file names Write gives a run's topics and
// motions, by id.
func reportNames(run *tree.Run) map[string]string {
	used := map[string]bool{}
	out := map[string]string{}
	for i := range run.Topics {
		out[run.Topics[i].ID] = uniqueName(TopicFile(&run.Topics[i]), used)
	}
	for i := range run.Motions {
		out[run.Motions[i].ID] = uniqueName(MotionFile(&run.Motions[i]), used)
	}
	return out
}

// TestDecodeOlderRunSettles: a run.json written before topics carried their
// decision reads with each topic's decision worked out from its tree.
func TestDecodeOlderRunSettles(t *testing.T) {
	t.Parallel()
	old := `{"schemaVersion": 2, "topics": [{"id": "t", "status": "forced", "root": {"id": "root", "status": "forced",
		"judgment": {"consensus": [], "divergences": [], "forcedVerdicts": [{"divergenceId": "D1", "missing": true}]}}}]}`
	run, err := DecodeRun([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Topics[0]; got.Decision != tree.Undecided || got.Cause != tree.CauseNoVerdict || got.Verdicts.Missing != 1 {
		t.Errorf("decision %s, verdicts %+v; want undecided (no-verdict), 1 missing", got.DecisionText(), got.Verdicts)
	}
}
