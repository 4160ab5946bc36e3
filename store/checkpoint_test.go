package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/debatehq/debate/protocol"
)

// TestCheckpointBoundsWAL writes without pause from 16 goroutines while 4
// others read, with a checkpoint asked for every 50 frames, and checks that
// checkpoints ran off the write path and kept the WAL file (whose size is its
// high-water mark) far below the frames committed: the WAL restarted.
func TestCheckpointBoundsWAL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes for a few seconds")
	}
	const every, writers, writes = 50, 16, 200
	// About a page per argument, so that a batch commits many frames.
	content := strings.Repeat("a claim of a page ", 200)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "debate.db")
	s := openAt(t, path, Options{checkpointEvery: every})
	targets := make([]string, writers)
	for g := range writers {
		targets[g] = mustCreate(t, s, fmt.Sprint("d", g)).ID
	}

	var stop atomic.Bool
	var readers, wg sync.WaitGroup
	for g := range 4 {
		readers.Go(func() {
			// Poll as agents do, past the heads kept in memory: the
			// newest argument, then the last few, a millisecond apart.
			// (Readers that always overlap would keep any checkpoint from
			// restarting the WAL: SQLite's checkpoint starvation.)
			id := fmt.Sprint("d", g)
			for !stop.Load() {
				_, a, err := sqliteOf(s).readNewest(ctx, id)
				if err == nil {
					_, _, err = s.Since(ctx, id, a.Seq-3)
				}
				if err != nil {
					t.Error(err)
					return
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
	frames0 := sqliteOf(s).ckpt.frames.Load()
	for g := range writers {
		wg.Go(func() {
			id, target := fmt.Sprint("d", g), targets[g]
			roles := []protocol.Role{protocol.Opponent, protocol.Proposer}
			for i := range writes {
				res, err := s.Submit(ctx, protocol.Write{DebateID: id, Type: protocol.Claim, Role: roles[i%2], TargetID: target,
					Content: content, ClientRequestID: fmt.Sprint("k", i)})
				if err != nil {
					t.Error(err)
					return
				}
				target = res.Argument.ID
			}
		})
	}
	wg.Wait()
	stop.Store(true)
	readers.Wait()

	committed := sqliteOf(s).ckpt.frames.Load() - frames0
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	walFrames := st.Size() / (4096 + 24)
	t.Logf("%d frames committed in %d batches; %d checkpoints, %d restarts; WAL file %d frames",
		committed, sqliteOf(s).wr.commits.Load(), sqliteOf(s).ckpt.passes.Load(), sqliteOf(s).ckpt.restarts.Load(), walFrames)
	if sqliteOf(s).ckpt.passes.Load() == 0 || sqliteOf(s).ckpt.restarts.Load() == 0 {
		t.Fatal("no checkpoint ran, or none copied every frame")
	}
	// Without restarts the WAL would hold every frame committed. With them
	// it holds the limit, plus what is committed until a catch-up succeeds:
	// a few checkpoints' worth, more on a machine busy elsewhere.
	if limit := int64(walLimit * every); committed < 10*limit {
		t.Fatalf("only %d frames committed: too few to tell a bounded WAL from a growing one", committed)
	} else if walFrames > committed/3 {
		t.Errorf("the WAL grew to %d frames of the %d committed", walFrames, committed)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
}
