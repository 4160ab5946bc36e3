package main

import (
	"context"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a loopback address where nothing listens.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestServerOnDemand: with no server running, debate create starts one on
// its loopback address with the default database, serve --status reports
// it and --stop ends it; with DEBATE_AUTO_START=0 the same command fails
// with exit 6 and says how to start one.
func TestServerOnDemand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a server process")
	}
	addr := freeAddr(t)
	data, state := t.TempDir(), t.TempDir()
	vars := map[string]string{
		"DEBATE_SERVER_URL": "http://" + addr, "XDG_DATA_HOME": data, "XDG_STATE_HOME": state,
		"HOME": t.TempDir(), autoStartVar: "1",
	}
	t.Cleanup(func() { invoke(t, vars, "serve", "--stop", "--addr", addr) })

	created := call{vars: vars, notices: true}.run(t, "create", "--debate-id", "d1", "--title", "T", "--type", "general_debate", "--content", "M").mustOK(t)
	if created.str("debate_id") != "d1" {
		t.Fatalf("%s", created.stdout)
	}
	// The command says that it started a server, where, on which database
	// and how to stop it: on stderr for a person, in the JSON for an agent.
	stopCmd := "debate serve --stop --addr " + addr
	db := filepath.Join(data, "debate", "debate.db")
	if !strings.Contains(created.stderr, "a server was started there in the background") ||
		!strings.Contains(created.stderr, db) || !strings.Contains(created.stderr, "\n  "+stopCmd+"\n") {
		t.Errorf("stderr does not say which server was started and how to stop it:\n%s", created.stderr)
	}
	if created.str("server_started", "stop") != stopCmd || created.str("server_started", "database") != db ||
		created.str("server_started", "url") != "http://"+addr {
		t.Errorf("server_started in the JSON: %v", created.get("server_started"))
	}
	if _, err := os.Stat(filepath.Join(data, "debate", "debate.db")); err != nil {
		t.Errorf("the server did not use the default database: %v", err)
	}
	// The next command finds the server running and starts no other.
	call{vars: vars}.run(t, "get-context", "--debate-id", "d1").mustOK(t)

	status := invoke(t, vars, "serve", "--status", "--addr", addr)
	if status.code != exitOK || !strings.Contains(status.stdout, "running, answers /health") || !strings.Contains(status.stdout, "http://"+addr) {
		t.Fatalf("serve --status: exit %d\n%s%s", status.code, status.stdout, status.stderr)
	}
	pidFile, logFile, _ := (&env{getenv: call{vars: vars}.getenv}).supervisor().Files(addr)
	for _, f := range []string{pidFile, logFile} {
		if !strings.HasPrefix(f, filepath.Join(state, "debate")) {
			t.Errorf("%s is not under XDG_STATE_HOME/debate", f)
		}
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}

	stop := invoke(t, vars, "serve", "--stop", "--addr", addr)
	if stop.code != exitOK || !strings.Contains(stop.stdout, "stopped pid") {
		t.Fatalf("serve --stop: exit %d\n%s%s", stop.code, stop.stdout, stop.stderr)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Errorf("pid file left after --stop: %v", err)
	}
	if r := invoke(t, vars, "serve", "--status", "--addr", addr); r.code != exitFailed || !strings.Contains(r.stdout, "no background server") {
		t.Errorf("serve --status after --stop: exit %d\n%s", r.code, r.stdout)
	}
	if r := invoke(t, vars, "serve", "--stop", "--addr", addr); r.code != exitFailed {
		t.Errorf("serve --stop with nothing to stop: exit %d", r.code)
	}

	// A server started for a command that names a debate of another server
	// says it is probably the wrong one.
	other := freeAddr(t)
	elsewhere := maps.Clone(vars)
	elsewhere["XDG_DATA_HOME"] = t.TempDir() // its default database is empty
	t.Cleanup(func() { invoke(t, elsewhere, "serve", "--stop", "--addr", other) })
	wrong := call{vars: elsewhere, notices: true}.run(t, "get-context", "--debate-id", "d1", "--server", "http://"+other)
	wrong.wantError(t, exitNotFound, "DEBATE_NOT_FOUND")
	if s := wrong.str("error", "suggestion"); !strings.Contains(s, "probably not the server") || !strings.Contains(s, "debate serve --stop --addr "+other) {
		t.Errorf("not found on a server just started: suggestion %q", s)
	}
	invoke(t, elsewhere, "serve", "--stop", "--addr", other)

	vars[autoStartVar] = "0"
	a := call{vars: vars}.run(t, "create", "--debate-id", "d2", "--title", "T", "--type", "general_debate", "--content", "M", "--timeout", "1s")
	a.wantError(t, exitUnreachable, "UNREACHABLE")
	if s := a.str("error", "suggestion"); !strings.Contains(s, "DEBATE_AUTO_START") || !strings.Contains(s, "debate serve") {
		t.Errorf("suggestion %q names neither DEBATE_AUTO_START nor debate serve", s)
	}
}

// TestServeDetach: serve --detach starts a server on the given database
// and refuses a second one on the same address.
func TestServeDetach(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a server process")
	}
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "team.db")
	vars := map[string]string{"XDG_STATE_HOME": t.TempDir(), "HOME": t.TempDir()}
	t.Cleanup(func() { invoke(t, vars, "serve", "--stop", "--addr", addr) })
	r := invoke(t, vars, "serve", "--detach", "--addr", addr, "--db", db)
	if r.code != exitOK || !strings.Contains(r.stdout, "started in the background") || !strings.Contains(r.stdout, db) {
		t.Fatalf("serve --detach: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	vars["DEBATE_SERVER_URL"] = "http://" + addr
	call{vars: vars}.run(t, "list").mustOK(t)
	if _, err := os.Stat(db); err != nil {
		t.Errorf("--db not used: %v", err)
	}
	if r := invoke(t, vars, "serve", "--detach", "--addr", addr); r.code != exitFailed || !strings.Contains(r.stderr, "already runs") {
		t.Errorf("second --detach: exit %d\n%s", r.code, r.stderr)
	}
	// The state folder deleted under a running server: the server writes
	// its pid file again, and --stop finds it.
	pidFile, _, _ := (&env{getenv: call{vars: vars}.getenv}).supervisor().Files(addr)
	if err := os.RemoveAll(filepath.Dir(pidFile)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * pidFileCheck)
	for _, err := os.Stat(pidFile); err != nil; _, err = os.Stat(pidFile) {
		if time.Now().After(deadline) {
			t.Fatalf("the pid file was not written again after the state folder was deleted: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := invoke(t, vars, "serve", "--status", "--addr", addr); r.code != exitOK || !strings.Contains(r.stdout, "running, answers /health") {
		t.Errorf("--status after the state folder was deleted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := invoke(t, vars, "serve", "--stop", "--addr", addr); r.code != exitOK || !strings.Contains(r.stdout, "stopped pid") {
		t.Fatalf("--stop after the state folder was deleted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := invoke(t, vars, "serve", "--detach", "--addr", addr, "--db", db); r.code != exitOK {
		t.Fatalf("serve --detach again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A server started in the foreground has no pid file, but answers.
	fg := newAgentServer(t, "")
	if r := invoke(t, vars, "serve", "--status", "--addr", strings.TrimPrefix(fg.url, "http://")); r.code != exitOK || !strings.Contains(r.stdout, "no pid file") {
		t.Errorf("--status of a foreground server: exit %d\n%s", r.code, r.stdout)
	}
	if r := invoke(t, vars, "serve", "--detach", "--stop"); r.code != exitUsage {
		t.Errorf("--detach --stop: exit %d", r.code)
	}
}

// TestAutoStartOnlyWhereItShould: no server is started for a non-loopback
// URL, when DEBATE_AUTO_START is 0, or when something listens already.
func TestAutoStartOnlyWhereItShould(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	free := freeAddr(t)
	tests := []struct {
		name, url, auto string
	}{
		{"remote host", "http://192.0.2.1:3456", "1"},
		{"remote name", "http://debate.example.com", "1"},
		{"https", "https://127.0.0.1:" + strings.Split(free, ":")[1], "1"},
		{"turned off", "http://" + free, "0"},
		{"turned off with false", "http://" + free, "false"},
		{"something listens", "http://" + busy.Addr().String(), "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := &env{
				getenv: call{vars: map[string]string{autoStartVar: tt.auto, "XDG_STATE_HOME": t.TempDir()}}.getenv,
				spawn: func(args []string) *exec.Cmd {
					t.Errorf("started a server: %v", args)
					return exec.Command("false")
				},
			}
			started, err := e.autoStart(context.Background(), conn{url: tt.url})
			if started != nil || err != nil {
				t.Errorf("autoStart(%s) = %v, %v", tt.url, started, err)
			}
		})
	}
}

// TestOpen: debate open hands the web UI's URL (a debate's page, the token
// when set) to $BROWSER; BROWSER=echo prints it.
func TestOpen(t *testing.T) {
	t.Parallel()
	srv := newAgentServer(t, "")
	tests := []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"list", map[string]string{"BROWSER": "echo"}, nil, srv.url + "/\n"},
		{"debate", map[string]string{"BROWSER": "echo"}, []string{"d 1"}, srv.url + "/debates/d%201\n"},
		{"token", map[string]string{"BROWSER": "echo", "DEBATE_AUTH_TOKEN": "s3&cret"}, []string{"d1"}, srv.url + "/debates/d1?token=s3%26cret\n"},
		{"placeholder", map[string]string{"BROWSER": "echo at=%s"}, []string{"d1"}, "at=" + srv.url + "/debates/d1\n"},
		{"first of a list", map[string]string{"BROWSER": "echo" + string(os.PathListSeparator) + "false"}, []string{"d1"}, srv.url + "/debates/d1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.vars["DEBATE_SERVER_URL"] = srv.url
			r := invoke(t, tt.vars, append([]string{"open"}, tt.args...)...)
			if r.code != exitOK || r.stdout != tt.want {
				t.Errorf("exit %d, printed %q, want %q (%s)", r.code, r.stdout, tt.want, r.stderr)
			}
		})
	}
	r := invoke(t, map[string]string{"BROWSER": "no-such-browser-x", "DEBATE_SERVER_URL": srv.url, "DEBATE_AUTH_TOKEN": "s3cret"}, "open", "d1")
	if r.code != exitFailed || !strings.Contains(r.stderr, "/debates/d1") || strings.Contains(r.stderr, "s3cret") {
		t.Errorf("missing browser: exit %d, stderr %q (want the URL without the token)", r.code, r.stderr)
	}
	if r := invoke(t, nil, "open", "a", "b"); r.code != exitUsage {
		t.Errorf("two ids: exit %d", r.code)
	}
}

// TestOpenWithoutBrowser: on a machine without a browser, where the system
// opener lists every browser it did not find and the URL with its token,
// debate open prints one line, its own, naming the URL without the token
// and the way out. It changes PATH, so it runs alone.
func TestOpenWithoutBrowser(t *testing.T) {
	srv := newAgentServer(t, "")
	dir := t.TempDir()
	// What xdg-open prints and returns when it finds no browser.
	script := "#!/bin/sh\n" +
		"for b in www-browser links2 elinks links lynx w3m; do echo \"/usr/bin/xdg-open: 882: $b: not found\" >&2; done\n" +
		"echo \"xdg-open: no method available for opening '$1'\" >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, systemOpener()), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	r := invoke(t, map[string]string{"DEBATE_SERVER_URL": srv.url, "DEBATE_AUTH_TOKEN": "s3cret"}, "open", "d1")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != exitFailed || len(lines) != 1 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and one line", r.code, r.stdout, r.stderr, exitFailed)
	}
	for _, want := range []string{"start a browser for " + srv.url + "/debates/d1?token=…", systemOpener() + ": exit status 3", "set BROWSER"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("stderr %q lacks %q", lines[0], want)
		}
	}
	if strings.Contains(r.stderr, "s3cret") {
		t.Errorf("stderr shows the token: %q", r.stderr)
	}
}

// TestStopLeavesAnotherProgramAlone: a pid file whose process runs but
// does not listen on the address (the pid reused by another program) makes
// --stop signal nothing and remove the pid file.
func TestStopLeavesAnotherProgramAlone(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	vars := map[string]string{"XDG_STATE_HOME": t.TempDir()}
	e := &env{getenv: call{vars: vars}.getenv}
	pidFile, _, err := e.supervisor().Files(addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(pidFile), 0o700); err != nil {
		t.Fatal(err)
	}
	// This test's own process stands for the other program.
	if err := os.WriteFile(pidFile, []byte(`{"pid":`+strconv.Itoa(os.Getpid())+`,"url":"http://`+addr+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, vars, "serve", "--stop", "--addr", addr)
	if r.code != exitFailed || !strings.Contains(r.stderr, "left alone") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Errorf("pid file kept: %v", err)
	}
}

// TestUnreachableRedacted: a server URL with credentials that nothing
// answers on is named, in the suggestion and in the detail of the failed
// request, without them.
func TestUnreachableRedacted(t *testing.T) {
	t.Parallel()
	server := "http://bob:hunter2@" + freeAddr(t)
	a := call{vars: map[string]string{autoStartVar: "0"}}.run(t, "list", "--server", server, "--timeout", "1s")
	a.wantError(t, exitUnreachable, "UNREACHABLE")
	for _, secret := range []string{"bob", "hunter2", "***"} {
		if strings.Contains(a.stdout, secret) {
			t.Errorf("the answer shows %q: %s", secret, a.stdout)
		}
	}
	if d := a.str("error", "detail"); !strings.Contains(d, "http://REDACTED@") {
		t.Errorf("detail %q does not name the server as redact.URL masks it", d)
	}
}
