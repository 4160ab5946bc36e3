package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/pgtest"
	"github.com/debatehq/debate/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// testDB returns a new, empty debate database for t: a SQLite file, or with
// DEBATE_TEST_STORE=postgres a database of a throwaway PostgreSQL cluster.
func testDB(t testing.TB) string {
	t.Helper()
	return pgtest.DatabaseOr(t, "debates.db")
}

// TestServeDetachPostgres: serve --detach on a postgres:// URL starts a
// server on that database, and the URL's password appears neither in what
// the command prints, nor in --status, nor on the server's command line.
func TestServeDetachPostgres(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a server process")
	}
	u, err := url.Parse(pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "s3cret") // the test cluster trusts loopback
	db := u.String()
	addr := freeAddr(t)
	vars := map[string]string{"XDG_STATE_HOME": t.TempDir(), "HOME": t.TempDir()}
	t.Cleanup(func() { invoke(t, vars, "serve", "--stop", "--addr", addr) })
	var spawned []string // the server's command line
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: call{vars: vars}.getenv,
		spawn: func(args []string) *exec.Cmd {
			spawned = append(spawned, args...)
			return helperProcess(args)
		}}
	r := result{e.main([]string{"serve", "--detach", "--addr", addr, "--db", db}), out.String(), errb.String()}
	if r.code != exitOK || !strings.Contains(r.stdout, "//REDACTED@") {
		t.Fatalf("serve --detach: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	vars["DEBATE_SERVER_URL"] = "http://" + addr
	call{vars: vars}.run(t, "create", "--debate-id", "pg1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t)
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Get(context.Background(), "pg1", 0); err != nil {
		t.Fatalf("the debate is not in the PostgreSQL database: %v", err)
	}
	status := invoke(t, vars, "serve", "--status", "--addr", addr)
	shown := r.stdout + r.stderr + status.stdout + status.stderr + strings.Join(spawned, " ")
	if len(spawned) == 0 || strings.Contains(shown, "s3cret") {
		t.Errorf("the password shows (or no server was started):\n%s", shown)
	}
}
