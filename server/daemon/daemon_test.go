package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func getenv(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestChildEnv(t *testing.T) {
	t.Parallel()
	s := Supervisor{Getenv: getenv(map[string]string{"XDG_DATA_HOME": "/data", "HOME": "/home/a"})}
	got := s.childEnv([]string{"PATH=/bin", "DEBATE_DB=/elsewhere.db", "HOME=/root", "DEBATE_AUTH_TOKEN=old"}, "tok")
	want := []string{"PATH=/bin", "XDG_DATA_HOME=/data", "HOME=/home/a", "DEBATE_AUTH_TOKEN=tok"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv = %q, want %q", got, want)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		vars       map[string]string
		addr, want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/state", "HOME": "/home/a"}, "127.0.0.1:3456", "/state/debate/serve-127.0.0.1-3456"},
		{map[string]string{"HOME": "/home/a"}, "[::1]:80", "/home/a/.local/state/debate/serve---1-80"},
	}
	for _, tt := range tests {
		pid, log, err := Supervisor{Getenv: getenv(tt.vars)}.Files(tt.addr)
		if err != nil || pid != filepath.FromSlash(tt.want)+".pid" || log != filepath.FromSlash(tt.want)+".log" {
			t.Errorf("Files(%s) = %s, %s, %v; want %s.pid and .log", tt.addr, pid, log, err, tt.want)
		}
	}
}

func TestReadDamagedPidFile(t *testing.T) {
	t.Parallel()
	s := Supervisor{Getenv: getenv(map[string]string{"XDG_STATE_HOME": t.TempDir()})}
	if _, ok, err := s.Read("127.0.0.1:1"); ok || err != nil {
		t.Fatalf("Read without a pid file = %v, %v", ok, err)
	}
	pid, _, _ := s.Files("127.0.0.1:1")
	if err := os.MkdirAll(filepath.Dir(pid), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pid, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Read("127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Read of a damaged pid file: %v", err)
	}
}

// TestKeepPidFile: the pid file is written again once deleted, and removed
// when the server stops.
func TestKeepPidFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state", "serve.pid")
	record := []byte(`{"pid":1}`)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			KeepPidFile(ctx, path, record, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
		}()
		time.Sleep(time.Second + time.Millisecond) // one round of the keeper, in the bubble's time
		synctest.Wait()
		if b, err := os.ReadFile(path); err != nil || string(b) != string(record) {
			t.Fatalf("the deleted pid file was not written again: %q, %v", b, err)
		}
		cancel()
		<-done
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("the pid file is left after the server stopped: %v", err)
		}
	})
}
