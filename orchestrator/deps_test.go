package orchestrator

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine reaches the debate database only through interfaces it
// declares, so a program that links it links no SQL driver.
func TestLinksNoDatabase(t *testing.T) {
	t.Parallel()
	banDeps(t, "modernc.org/sqlite", "github.com/jackc/pgx/v5", "github.com/debatehq/debate/store")
}

// The engine records reasons as codes and words them only through the
// Sayer its caller gives, so it links no report renderer.
func TestLinksNoRenderer(t *testing.T) {
	t.Parallel()
	banDeps(t, "github.com/debatehq/debate/render", "github.com/yuin/goldmark", "html/template")
}

// banDeps fails when the engine depends on any of banned or their
// subpackages.
func banDeps(t *testing.T, banned ...string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, b := range banned {
			if pkg == b || strings.HasPrefix(pkg, b+"/") {
				t.Errorf("orchestrator depends on %s", pkg)
			}
		}
	}
}
