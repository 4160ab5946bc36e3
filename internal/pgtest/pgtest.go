// Package pgtest gives tests a real PostgreSQL server: a throwaway cluster
// started from the installed PostgreSQL binaries (Debian's postgresql
// package: /usr/lib/postgresql/*/bin) with initdb into a temporary folder and
// pg_ctl on a free loopback port, run as the unprivileged postgres user when
// the tests run as root. One cluster serves all the tests of a package: it
// starts on first use and Main stops it after the tests; every test gets a
// database of its own.
//
// Without PostgreSQL installed, tests that ask for a database are skipped
// with a message saying so, unless the CI variable is set: then they fail.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// errNotInstalled means no PostgreSQL server binaries were found.
var errNotInstalled = errors.New("PostgreSQL is not installed (no initdb and pg_ctl under /usr/lib/postgresql/*/bin or on PATH); install Debian's postgresql package")

var (
	once    sync.Once
	shared  *Cluster
	initErr error
	dbs     atomic.Int64
)

// Main runs the tests of a package and then stops the cluster, if a test
// started one. Call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

// Database returns the URL of a new, empty database in the package's shared
// cluster (started on first use), dropped when t ends. It skips t when
// PostgreSQL is not installed, or fails it when the CI variable is set.
func Database(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, initErr = Start() })
	if initErr != nil {
		unavailable(t, initErr)
		return ""
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbs.Add(1))
	ctx := context.Background()
	if err := shared.exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal("pgtest:", err)
	}
	t.Cleanup(func() {
		if err := shared.exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Error("pgtest:", err)
		}
	})
	return shared.URL(name)
}

// Own starts a cluster for t alone, stopped when t ends: for a test that
// stops or restarts the server, which the shared cluster's other tests must
// not see. It skips t as Database does.
func Own(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start()
	if err != nil {
		unavailable(t, err)
		return nil
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error("pgtest:", err)
		}
	})
	return c
}

// unavailable ends t, whose cluster could not start: a skip when PostgreSQL
// is not installed and the CI variable is unset, else a failure, so that a
// CI run never passes without its PostgreSQL half.
func unavailable(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, errNotInstalled) && os.Getenv("CI") == "" {
		t.Skip("skipping the PostgreSQL run:", err)
		return
	}
	t.Fatal("pgtest:", err)
}

// Restart stops the server as an administrator does (pg_ctl restart -m
// fast: sessions are ended with admin_shutdown) and starts it again on the
// same port.
func (c *Cluster) Restart() error {
	if out, err := c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-m", "fast", "-w", "-t", "60", "restart"); err != nil {
		return fmt.Errorf("pg_ctl restart: %w: %s%s", err, out, c.log())
	}
	return nil
}

// StoreEnv names the variable that moves the tests of packages using
// DatabaseOr onto PostgreSQL: DEBATE_TEST_STORE=postgres.
const StoreEnv = "DEBATE_TEST_STORE"

// DatabaseOr returns a new database for t: one of the shared cluster (as
// Database) when $DEBATE_TEST_STORE is "postgres", else the SQLite file
// sqliteFile in a temporary folder of t. A package's tests that take their
// databases from it run on either backend.
func DatabaseOr(t testing.TB, sqliteFile string) string {
	t.Helper()
	if os.Getenv(StoreEnv) == "postgres" {
		return Database(t)
	}
	return filepath.Join(t.TempDir(), sqliteFile)
}

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	bin  string // folder of initdb, pg_ctl
	dir  string // temporary folder: data/, the socket and the log
	port int
	as   string // user to run the binaries as; "" for the current one
}

// Start creates and starts a cluster. Its only role is the superuser
// "debate", trusted on the loopback address (the server listens nowhere
// else). fsync is off: the cluster lives as long as the tests.
func Start() (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin}
	if os.Geteuid() == 0 {
		// initdb refuses to run as root.
		c.as = "postgres"
	}
	c.dir, err = os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	if c.as != "" {
		if err := chown(c.dir, c.as); err != nil {
			os.RemoveAll(c.dir)
			return nil, fmt.Errorf("start postgres: %w", err)
		}
	}
	if out, err := c.run("initdb", "-D", c.data(), "-U", "debate", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		os.RemoveAll(c.dir)
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	// The port is free when picked; another process may take it before the
	// server binds it, so try a few.
	for range 5 {
		if c.port, err = freePort(); err != nil {
			break
		}
		opts := strings.Join([]string{
			"-p", strconv.Itoa(c.port), "-k", c.dir, "-c", "listen_addresses=127.0.0.1",
			"-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=300",
		}, " ")
		var out []byte
		out, err = c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start")
		if err == nil {
			return c, nil
		}
		err = fmt.Errorf("pg_ctl start: %w: %s%s", err, out, c.log())
	}
	os.RemoveAll(c.dir)
	return nil, err
}

// URL returns the URL of database name in the cluster.
func (c *Cluster) URL(name string) string {
	return fmt.Sprintf("postgres://debate@127.0.0.1:%d/%s?sslmode=disable", c.port, name)
}

// Stop stops the server at once and removes its folder.
func (c *Cluster) Stop() error {
	out, err := c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop")
	if err != nil {
		err = fmt.Errorf("pg_ctl stop: %w: %s", err, out)
	}
	return errors.Join(err, os.RemoveAll(c.dir))
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "log"))
	return string(b)
}

// run runs one of the cluster's programs as the cluster's user.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	path := filepath.Join(c.bin, prog)
	var cmd *exec.Cmd
	if c.as != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.as, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	// pg_ctl start sends the server's output to its log (-l), so the
	// server does not hold the pipe open.
	return cmd.CombinedOutput()
}

func (c *Cluster) exec(ctx context.Context, sql string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// findBin returns the folder holding initdb and pg_ctl: the newest
// /usr/lib/postgresql/N/bin, else the one on PATH.
func findBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil && isFile(filepath.Join(filepath.Dir(p), "initdb")) {
		return filepath.Dir(p), nil
	}
	return "", errNotInstalled
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func chown(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("running as root, the cluster needs the %s user: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
