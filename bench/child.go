package bench

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/debatehq/debate/server/daemon"
)

// Spawn returns the command that runs a protocol server with args (--addr,
// --db and --token); it prints "listening on http://host:port" on stderr
// once it accepts connections and stops cleanly on SIGTERM, as debate serve
// does.
type Spawn func(args []string) (*exec.Cmd, error)

// childTarget starts the server of spawn on a free loopback port with the
// database db, in a process of its own supervised by daemon.Launch, and
// returns once it answers /health. The caller must stop it.
func childTarget(ctx context.Context, spawn Spawn, db string) (*target, error) {
	// An empty --token: a DEBATE_AUTH_TOKEN in the environment must not
	// lock the load generator out.
	cmd, err := spawn([]string{"--addr", "127.0.0.1:0", "--db", db, "--token="})
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	c, err := daemon.Launch(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("bench serve: %w", err)
	}
	stop := func() error {
		if err := c.Stop(); err != nil {
			return fmt.Errorf("bench serve: %w", err)
		}
		return nil
	}
	return &target{base: c.URL, cpu: func() time.Duration { return processCPU(c.PID()) }, stop: stop}, nil
}
