package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/debatehq/debate/internal/testkit"
	"github.com/debatehq/debate/store"
)

// TestServe starts the command on a free loopback port with a token from the
// environment, calls it, sends SIGTERM and checks the clean exit and the
// database left behind.
func TestServe(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "sub", "debate.db")
	var stderr testkit.Buffer
	sigs := make(chan chan<- os.Signal, 1)
	e := &env{
		stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr,
		getenv: func(k string) (string, bool) {
			if k == "DEBATE_AUTH_TOKEN" {
				return "tok", true
			}
			return "", false
		},
		notify: func(c chan<- os.Signal) { sigs <- c },
	}
	code := make(chan int, 1)
	go func() { code <- e.main([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}) }()
	sig := <-sigs
	url := regexp.MustCompile(`listening on (http://\S+)`)
	select {
	case c := <-code:
		t.Fatalf("serve exited with %d: %s", c, stderr.String())
	case <-stderr.Appears(url):
	}
	base := url.FindStringSubmatch(stderr.String())[1]
	for _, tt := range []struct {
		auth   string
		status int
	}{{"", 401}, {"Bearer tok", 200}} {
		req, _ := http.NewRequest("GET", base+"/health", nil)
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.status {
			t.Errorf("health with %q: %d, want %d", tt.auth, res.StatusCode, tt.status)
		}
	}
	if strings.Contains(stderr.String(), "warning") {
		t.Errorf("warned on loopback with a token: %s", stderr.String())
	}
	sig <- os.Interrupt
	if c := <-code; c != exitOK {
		t.Fatalf("exit %d after SIGTERM: %s", c, stderr.String())
	}
	if strings.Contains(stderr.String(), "tok\n") || strings.Contains(stderr.String(), "=tok") {
		t.Errorf("the token is printed: %s", stderr.String())
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestServeCommandLine(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	db := filepath.Join(t.TempDir(), "debate.db")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"help", []string{"help", "serve"}, exitOK, []string{"USAGE", "FLAGS", "EXAMPLES", "EXIT CODES", "--addr", "--db", "--token", "DEBATE_AUTH_TOKEN", "/debates/{id}/poll"}, nil},
		{"listed", []string{"--help"}, exitOK, []string{"serve "}, nil},
		{"stray argument", []string{"serve", "now"}, exitUsage, nil, []string{`unexpected argument "now"`}},
		{"unknown flag", []string{"serve", "--port", "1"}, exitUsage, nil, []string{"unknown flag: --port"}},
		{"address in use", []string{"serve", "--addr", busy.Addr().String(), "--db", db}, exitFailed, nil, []string{"address already in use"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

// TestTuneGC: serving raises the collector's target unless GOGC is set, and
// puts the previous target back when done.
func TestTuneGC(t *testing.T) {
	t.Parallel()
	current := func() int {
		v := debug.SetGCPercent(100)
		debug.SetGCPercent(v)
		return v
	}
	before := current()
	for _, tt := range []struct {
		name string
		vars map[string]string
		want int
	}{
		{"GOGC unset", nil, gcPercent},
		{"GOGC empty", map[string]string{"GOGC": ""}, gcPercent},
		{"GOGC set", map[string]string{"GOGC": "50"}, before},
	} {
		restore := tuneGC(call{vars: tt.vars}.getenv)
		if got := current(); got != tt.want {
			t.Errorf("%s: GC percent %d while serving, want %d", tt.name, got, tt.want)
		}
		restore()
		if got := current(); got != before {
			t.Errorf("%s: GC percent %d after, want %d back", tt.name, got, before)
		}
	}
}
