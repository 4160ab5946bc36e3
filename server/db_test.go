package server

import (
	"os"
	"testing"

	"github.com/debatehq/debate/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// testDB returns a new, empty database for t: a SQLite file, or with
// DEBATE_TEST_STORE=postgres a database of a throwaway PostgreSQL cluster.
func testDB(t testing.TB) string {
	t.Helper()
	return pgtest.DatabaseOr(t, "debate.db")
}
