package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
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

func TestSlice(t *testing.T) {
	items := []string{"t1", "t2", "t3", "t4", "t5", "m1", "m2"}
	tests := []struct {
		items []string
		n     int
		want  [][]string
	}{
		{items, 1, [][]string{items}},
		{items, 2, [][]string{{"t1", "t3", "t5", "m2"}, {"t2", "t4", "m1"}}},
		{items, 3, [][]string{{"t1", "t4", "m2"}, {"t2", "t5"}, {"t3", "m1"}}},
		{items, 7, [][]string{{"t1"}, {"t2"}, {"t3"}, {"t4"}, {"t5"}, {"m1"}, {"m2"}}},
		{[]string{"t1", "t2"}, 4, [][]string{{"t1"}, {"t2"}, {}, {}}},
		{nil, 2, [][]string{{}, {}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d items in %d", len(tt.items), tt.n), func(t *testing.T) {
			var all []string
			for i := 1; i <= tt.n; i++ {
				got := slice(tt.items, tree.Shard{Index: i, Count: tt.n})
				if !slices.Equal(got, tt.want[i-1]) {
					t.Errorf("slice %d/%d = %q, want %q", i, tt.n, got, tt.want[i-1])
				}
				if d := len(got) - len(tt.items)/tt.n; d < 0 || d > 1 {
					t.Errorf("slice %d/%d holds %d items: not balanced", i, tt.n, len(got))
				}
				all = append(all, got...)
			}
			slices.Sort(all)
			want := slices.Sorted(slices.Values(tt.items))
			if !slices.Equal(all, want) {
				t.Errorf("the slices hold %q together, want every item once: %q", all, want)
			}
		})
	}
}

func TestConfigDigest(t *testing.T) {
	base := func() *configs.Config {
		return &configs.Config{
			API:      configs.API{BaseURL: "https://api.example/v1", APIKey: "sk-one"},
			Debaters: []configs.Participant{{ID: "a", Model: "m-a"}, {ID: "b", Model: "m-b"}},
			Params:   configs.Params{MaxRounds: 3, Concurrency: 8},
			Topics:   []configs.Topic{{ID: "t1", Title: "One"}, {ID: "t2", Title: "Two"}},
			SharedContext: configs.SharedContext{Files: []string{"d.md"},
				Documents: []configs.Document{{Path: "d.md", Content: "v1"}}},
			Output:   configs.Output{Dir: "out", Format: configs.Formats{"markdown"}},
			Protocol: &configs.Protocol{MaxTurns: 4, DB: "a.db"},
		}
	}
	items := []string{"t1", "t2"}
	want, err := configDigest(base(), items)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(*configs.Config)
		items []string
		same  bool
	}{
		{"another API key", func(c *configs.Config) { c.API.APIKey = "sk-two" }, items, true},
		{"another output folder and formats", func(c *configs.Config) { c.Output = configs.Output{Dir: "shard-2", Format: configs.Formats{"html"}} }, items, true},
		{"another concurrency", func(c *configs.Config) { c.Params.Concurrency = 2 }, items, true},
		{"another debate database", func(c *configs.Config) { c.Protocol.DB = "b.db" }, items, true},
		{"another --max-rounds", func(c *configs.Config) { c.Params.MaxRounds = 2 }, items, false},
		{"another topic title", func(c *configs.Config) { c.Topics[1].Title = "Deux" }, items, false},
		{"another model", func(c *configs.Config) { c.Debaters[0].Model = "m-z" }, items, false},
		{"another shared document", func(c *configs.Config) { c.SharedContext.Documents[0].Content = "v2" }, items, false},
		{"another max turns", func(c *configs.Config) { c.Protocol.MaxTurns = 5 }, items, false},
		{"another selection", func(*configs.Config) {}, []string{"t1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.edit(c)
			got, err := configDigest(c, tt.items)
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tt.same {
				t.Errorf("digest %s, base %s: same = %v, want %v", got, want, got == want, tt.same)
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
