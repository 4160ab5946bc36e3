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
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"modernc.org/sqlite", "github.com/jackc/pgx/v5", "github.com/debatehq/debate/store"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("orchestrator depends on %s", pkg)
			}
		}
	}
}
