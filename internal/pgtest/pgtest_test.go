package pgtest

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Two databases of the shared cluster are separate: a table made in one is
// not in the other.
func TestDatabase(t *testing.T) {
	ctx := context.Background()
	a, b := Database(t), Database(t)
	if a == b {
		t.Fatalf("both databases are %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("a table created in one test database is visible in another")
	}
}

// outcome is a testing.TB that records whether it was skipped or failed
// instead of ending the test.
type outcome struct {
	testing.TB
	skipped, failed bool
}

func (o *outcome) Skip(...any)  { o.skipped = true }
func (o *outcome) Fatal(...any) { o.failed = true }

// TestUnavailable: without PostgreSQL a test skips, unless CI is set: then
// it fails, as it does whenever the cluster does not start for another
// reason.
func TestUnavailable(t *testing.T) {
	for _, tt := range []struct {
		name, ci      string
		err           error
		skip, failure bool
	}{
		{"not installed", "", errNotInstalled, true, false},
		{"not installed, under CI", "true", errNotInstalled, false, true},
		{"broken", "", errors.New("initdb: exit status 1"), false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			o := &outcome{TB: t}
			unavailable(o, tt.err)
			if o.skipped != tt.skip || o.failed != tt.failure {
				t.Errorf("skipped %v, failed %v; want %v, %v", o.skipped, o.failed, tt.skip, tt.failure)
			}
		})
	}
}
