package pgtest

import (
	"context"
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
