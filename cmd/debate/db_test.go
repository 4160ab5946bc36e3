package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/debatehq/debate/internal/pgtest"
)

// testStoreEnv picks the debate database of the motion tests: with
// DEBATE_TEST_STORE=postgres they play motions on databases of a throwaway
// PostgreSQL cluster (internal/pgtest), otherwise on SQLite files.
const testStoreEnv = "DEBATE_TEST_STORE"

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// testDB returns a new, empty debate database for t, of the backend
// testStoreEnv picks.
func testDB(t testing.TB) string {
	t.Helper()
	if os.Getenv(testStoreEnv) == "postgres" {
		return pgtest.Database(t)
	}
	return filepath.Join(t.TempDir(), "debates.db")
}
