package bench

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestProfServe(t *testing.T) {
	if os.Getenv("PROF") == "" {
		t.Skip()
	}
	r, err := Serve(context.Background(), ServeOptions{Writers: 32, Pollers: 32, Duration: 10 * time.Second, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + r.Text())
}

func TestProfTree(t *testing.T) {
	if os.Getenv("PROF") == "" {
		t.Skip()
	}
	r, err := Tree(context.Background(), TreeOptions{Topics: 20, Debaters: 3, Fanout: 2, Depth: 3, Latency: 100 * time.Millisecond, Concurrency: 64, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + r.Text())
}
