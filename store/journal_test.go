package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestJournal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "out", ".journal.db")
	j, err := OpenJournal(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := j.Lookup(ctx, "k1"); ok || err != nil {
		t.Fatalf("empty journal: ok %v err %v", ok, err)
	}
	for _, kv := range [][2]string{{"k1", "one"}, {"k2", "two"}, {"k1", "uno"}, {NoteKey("run id"), "r1"}} {
		if err := j.Record(ctx, kv[0], []byte(kv[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		fresh bool
		want  map[string]string
		n     int
	}{
		{"resumed keeps entries", false, map[string]string{"k1": "uno", "k2": "two"}, 2},
		{"fresh starts empty", true, map[string]string{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := OpenJournal(ctx, path, tt.fresh)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if n, err := j.Len(ctx); n != tt.n || err != nil {
				t.Errorf("Len = %d, %v; want %d", n, err, tt.n)
			}
			for _, k := range []string{"k1", "k2"} {
				v, ok, err := j.Lookup(ctx, k)
				if err != nil {
					t.Fatal(err)
				}
				if want, has := tt.want[k]; ok != has || string(v) != want {
					t.Errorf("Lookup(%s) = %q, %v; want %q, %v", k, v, ok, want, has)
				}
			}
		})
	}
}
