package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/debatehq/debate"

// architecture is what docs/ARCHITECTURE.md declares: each package's floor
// and the imports its diagram draws.
type architecture struct {
	floors map[string]int       // package (relative to the module) → floor
	arrows map[[2]string]string // {importer, imported} → the diagram's line
}

var (
	floorRow  = regexp.MustCompile("^\\| (\\d+) \\| `([^`]+)` \\|")
	nodeDecl  = regexp.MustCompile(`^\s*(\w+)\[([^\]]+)\]\s*$`)
	arrowLine = regexp.MustCompile(`^\s*(\w+) --> (\w+)\s*$`)
)

// readArchitecture parses the floor table of the "## Floors" section (not
// the packages still on their way) and the arrows of the Mermaid diagram.
func readArchitecture(t *testing.T, path string) architecture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := architecture{floors: map[string]int{}, arrows: map[[2]string]string{}}
	nodes := map[string]string{}
	var section string
	var arrows [][3]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			section = line
			continue
		}
		if m := floorRow.FindStringSubmatch(line); m != nil && section == "## Floors" {
			floor, _ := strconv.Atoi(m[1])
			if _, dup := a.floors[m[2]]; dup {
				t.Errorf("%s: %s has two rows", path, m[2])
			}
			a.floors[m[2]] = floor
		}
		if m := nodeDecl.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[2], "floor ") {
			nodes[m[1]] = m[2]
		}
		if m := arrowLine.FindStringSubmatch(line); m != nil {
			arrows = append(arrows, [3]string{m[1], m[2], strings.TrimSpace(line)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, ar := range arrows {
		from, to := nodes[ar[0]], nodes[ar[1]]
		if from == "" || to == "" {
			t.Errorf("%s: the arrow %q joins a node the diagram does not declare", path, ar[2])
			continue
		}
		a.arrows[[2]string{from, to}] = ar[2]
	}
	return a
}

// moduleImports returns every package of the module (relative to the
// module path) with the module's packages its non-test files import.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		var ours []string
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, modulePath+"/"); ok {
				ours = append(ours, rel)
			}
		}
		pkgs[strings.TrimPrefix(fields[0], modulePath+"/")] = ours
	}
	return pkgs
}

// TestArchitecture keeps docs/ARCHITECTURE.md true: it names every package
// go list prints and no other, every import goes to a lower floor, and every
// arrow its diagram draws is an import that goes down.
func TestArchitecture(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	doc := filepath.Join(root, "docs", "ARCHITECTURE.md")
	arch := readArchitecture(t, doc)
	pkgs := moduleImports(t, root)
	if len(pkgs) < 20 || len(arch.floors) < 20 || len(arch.arrows) < 10 {
		t.Fatalf("read %d packages, %d floor rows and %d arrows: the parse missed something", len(pkgs), len(arch.floors), len(arch.arrows))
	}
	for pkg := range pkgs {
		if _, ok := arch.floors[pkg]; !ok {
			t.Errorf("%s does not name %s: add a row to its floor table", doc, pkg)
		}
	}
	for pkg := range arch.floors {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("%s names %s, which go list does not print", doc, pkg)
		}
	}
	for pkg, imports := range pkgs {
		for _, imp := range imports {
			pf, okp := arch.floors[pkg]
			imf, oki := arch.floors[imp]
			if okp && oki && imf >= pf {
				t.Errorf("%s (floor %d) imports %s (floor %d): an import must go to a lower floor", pkg, pf, imp, imf)
			}
		}
	}
	for edge, line := range arch.arrows {
		if !slices.Contains(pkgs[edge[0]], edge[1]) {
			t.Errorf("the diagram draws %q, but %s does not import %s", line, edge[0], edge[1])
		}
	}
}
