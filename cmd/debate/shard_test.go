package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want tree.Shard
		err  string
	}{
		{in: "1/1", want: tree.Shard{Index: 1, Count: 1}},
		{in: "2/4", want: tree.Shard{Index: 2, Count: 4}},
		{in: "10/10", want: tree.Shard{Index: 10, Count: 10}},
		{in: "2", err: `--shard "2": want i/n, e.g. --shard 1/4`},
		{in: "", err: `--shard "": want i/n`},
		{in: "a/b", err: `--shard "a/b": want i/n`},
		{in: "1/2/3", err: `--shard "1/2/3": want i/n`},
		{in: "0/2", err: `--shard "0/2": the slice must be between 1 and 2, counting from 1 (got 0)`},
		{in: "3/2", err: `--shard "3/2": the slice must be between 1 and 2, counting from 1 (got 3)`},
		{in: "-1/2", err: `between 1 and 2`},
		{in: "1/0", err: `--shard "1/0": the number of slices must be at least 1 (got 0)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseShard(tt.in)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want %q", err, tt.err)
			case tt.err == "" && got != tt.want:
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// FuzzParseShard: any value either is refused as a usage error or names a
// slice 1 ≤ i ≤ n that prints back as the numbers it was given.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "2/4", "0/2", "3/2", "1/0", "x", "", "1/2/3", " 1 / 2 ", "-1/-1", "99999999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := parseShard(s)
		if err != nil {
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "--shard") {
				t.Fatalf("parseShard(%q): %v is not a usage error naming the flag", s, err)
			}
			return
		}
		if sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count {
			t.Fatalf("parseShard(%q) = %+v", s, sh)
		}
		if again, err := parseShard(sh.String()); err != nil || again != sh {
			t.Fatalf("%q → %s → %+v, %v", s, sh, again, err)
		}
	})
}
