package batch

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/tree"
)

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

func TestSelect(t *testing.T) {
	t.Parallel()
	cfg := &configs.Config{
		Topics:  []configs.Topic{{ID: "t1"}, {ID: "t2"}, {ID: "t3"}},
		Motions: []configs.Motion{{ID: "m1"}, {ID: "m2"}},
	}
	tests := []struct {
		name            string
		ids             []string
		shard           *tree.Shard
		topics, motions []string
		unknown         string
		wantShard       bool
	}{
		{name: "nothing named: everything", topics: []string{"t1", "t2", "t3"}, motions: []string{"m1", "m2"}},
		{name: "named ids in config order", ids: []string{"m2", "t3", "t1"}, topics: []string{"t1", "t3"}, motions: []string{"m2"}},
		{name: "only a motion", ids: []string{"m1"}, topics: []string{}, motions: []string{"m1"}},
		{name: "an unknown id", ids: []string{"t1", "nope"}, unknown: "nope"},
		{name: "a slice of everything", shard: &tree.Shard{Index: 2, Count: 2}, topics: []string{"t2"}, motions: []string{"m1"}, wantShard: true},
		{name: "a slice of the named", ids: []string{"t1", "m2"}, shard: &tree.Shard{Index: 1, Count: 2}, topics: []string{"t1"}, motions: []string{}, wantShard: true},
		{name: "an empty slice", ids: []string{"t1"}, shard: &tree.Shard{Index: 2, Count: 2}, topics: []string{}, motions: []string{}, wantShard: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sel, err := Select(cfg, tt.ids, tt.shard)
			if tt.unknown != "" {
				var u *UnknownIDError
				if !errors.As(err, &u) || u.ID != tt.unknown || !slices.Equal(u.Known, []string{"t1", "t2", "t3", "m1", "m2"}) {
					t.Fatalf("error %v, want an UnknownIDError for %q listing every id", err, tt.unknown)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sel.Topics, tt.topics) || !slices.Equal(sel.Motions, tt.motions) {
				t.Errorf("selected %q and %q, want %q and %q", sel.Topics, sel.Motions, tt.topics, tt.motions)
			}
			if got := sel.Shard != nil; got != tt.wantShard {
				t.Fatalf("shard %+v, want one: %v", sel.Shard, tt.wantShard)
			}
			if sel.Shard != nil && (*sel.Shard != tree.Shard{Index: tt.shard.Index, Count: tt.shard.Count, Digest: sel.Shard.Digest} || sel.Shard.Digest == "") {
				t.Errorf("shard %+v, want %s with a digest", sel.Shard, tt.shard)
			}
		})
	}
}
