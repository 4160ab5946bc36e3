package orchestrator

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// questionID finds the divergence ids a panel judge is asked to decide.
var questionID = regexp.MustCompile("(?m)^### `([^`]+)`: ")

// entryID finds the parties of a judge prompt's entries.
var entryID = regexp.MustCompile("(?m)^### .* \\(`([^`]+)`\\)$")

// firstEntry returns the id of the party whose entry a judge prompt lists
// first.
func firstEntry(user string) string {
	_, rest, _ := strings.Cut(user, "## The debate of this round\n\n### ")
	_, id, _ := strings.Cut(rest, "`")
	id, _, _ = strings.Cut(id, "`")
	return id
}

// panelJudge answers as judge model would: the chair's forced verdict lists
// one divergence between party-a and party-b; a panel verdict decides the
// divergences asked. Each verdict favours pick(the call), recommending
// "<model> says <favors>". Debaters answer with plain text.
func panelJudge(pick map[string]func(scripted.Call) string) func(scripted.Call) scripted.Reply {
	return func(c scripted.Call) scripted.Reply {
		choose, ok := pick[c.Model]
		if !ok {
			return scripted.Text("an argument that names no one")
		}
		favors := choose(c)
		if favors == "fail" {
			return scripted.Status(503, "service unavailable")
		}
		verdict := func(id string) map[string]string {
			return map[string]string{"divergenceId": id, "favors": favors, "recommendation": c.Model + " says " + favors, "reasoning": "because " + favors}
		}
		if ids := questionID.FindAllStringSubmatch(c.Last(), -1); len(ids) > 0 {
			var vs []any
			for _, m := range ids {
				vs = append(vs, verdict(m[1]))
			}
			return scripted.Fenced(map[string]any{"forcedVerdicts": vs})
		}
		sides := map[string]string{}
		for _, m := range entryID.FindAllStringSubmatch(c.Last(), -1) {
			sides[m[1]] = "its claim"
		}
		d := map[string]any{"id": "d1", "title": "the one question", "sides": sides, "uninvolved": []string{}}
		return scripted.Fenced(map[string]any{"consensus": []any{}, "divergences": []any{d}, "forcedVerdicts": []any{verdict("d1")}})
	}
}

func always(id string) func(scripted.Call) string {
	return func(scripted.Call) string { return id }
}

// listedFirst favours the party whose entry the prompt lists first.
func listedFirst(c scripted.Call) string { return firstEntry(c.Last()) }

// panelConfig is two debaters debating one round, judged by a panel of the
// models given, labelled and in config order.
func panelConfig(models ...string) *configs.Config {
	cfg := testConfig(1, "t1")
	cfg.Debaters = cfg.Debaters[:2]
	cfg.Reviewer = nil
	for i, m := range models {
		cfg.Judges = append(cfg.Judges, configs.Participant{ID: "judge-" + string(rune('1'+i)), Model: m})
	}
	cfg.ApplyDefaults()
	cfg.Fallback.RetryDelay = 1
	return cfg
}

// TestPanel: every judge of a panel votes on each forced verdict; the
// majority of favors decides, with the chair's recommendation when it is in
// the majority; a tie is split; a failing judge drops out of the vote, and
// the node fails only when no judge answers; recusal and the order check
// leave votes out.
func TestPanel(t *testing.T) {
	t.Parallel()
	type want struct {
		status    tree.Status
		favors    string
		rec       string
		split     bool
		unstable  bool
		votes     []tree.VoteStatus
		errorsFor []string // judges with a recorded failure
		// voteModels are the models the votes were given with, when not the
		// judges' configured ones.
		voteModels []string
	}
	tests := []struct {
		name   string
		models []string
		pick   map[string]func(scripted.Call) string
		params func(*configs.Params)
		config func(*configs.Config)
		want   want
	}{
		{
			name:   "one judge always fails",
			models: []string{"j1", "j2", "j3"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-a"), "j2": always("fail"), "j3": always("party-a")},
			want: want{status: tree.Forced, favors: "party-a", rec: "j1 says party-a",
				votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteDropped, tree.VoteCounted}, errorsFor: []string{"judge-2"}},
		},
		{
			name:   "a 1-1 tie is split",
			models: []string{"j1", "j2"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-a"), "j2": always("party-b")},
			want:   want{status: tree.Forced, split: true, votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteCounted}},
		},
		{
			name:   "the chair in the minority",
			models: []string{"j1", "j2", "j3"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-a"), "j2": always("party-b"), "j3": always("party-b")},
			want:   want{status: tree.Forced, favors: "party-b", rec: "j2 says party-b", votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteCounted, tree.VoteCounted}},
		},
		{
			name:   "a failing chair hands the chair on",
			models: []string{"j1", "j2", "j3"},
			pick:   map[string]func(scripted.Call) string{"j1": always("fail"), "j2": always("none"), "j3": always("none")},
			want: want{status: tree.Forced, favors: "none", rec: "j2 says none",
				votes: []tree.VoteStatus{tree.VoteDropped, tree.VoteCounted, tree.VoteCounted}, errorsFor: []string{"judge-1"}},
		},
		{
			name:   "no judge answers",
			models: []string{"j1", "j2"},
			pick:   map[string]func(scripted.Call) string{"j1": always("fail"), "j2": always("fail")},
			want:   want{status: tree.Failed, errorsFor: []string{"judge-1", "judge-2"}},
		},
		{
			name:   "recusal",
			models: []string{"j1", "vendor/model-a", "j3"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-a"), "vendor/model-a": always("party-a"), "j3": always("party-b")},
			params: func(p *configs.Params) { p.Recuse = true },
			want:   want{status: tree.Forced, split: true, votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteRecused, tree.VoteCounted}},
		},
		{
			name:   "recusal of a debater's fallback",
			models: []string{"j1", "j2", "j3"},
			pick:   map[string]func(scripted.Call) string{"model-a": always("fail"), "j1": always("party-a"), "j2": always("party-a"), "j3": always("party-b")},
			params: func(p *configs.Params) { p.Recuse = true },
			config: func(c *configs.Config) { c.Debaters[0].Fallback = "j2" },
			want:   want{status: tree.Forced, split: true, votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteRecused, tree.VoteCounted}},
		},
		{
			name:   "recusal of a judge's fallback",
			models: []string{"j1", "j2", "j3"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-a"), "j2": always("fail"), "model-a": always("party-a"), "j3": always("party-b")},
			params: func(p *configs.Params) { p.Recuse = true },
			config: func(c *configs.Config) { c.Judges[1].Fallback = "model-a" },
			want: want{status: tree.Forced, split: true, votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteRecused, tree.VoteCounted},
				voteModels: []string{"j1", "model-a", "j3"}},
		},
		{
			name:   "swap",
			models: []string{"j1", "j2"},
			pick:   map[string]func(scripted.Call) string{"j1": always("party-b"), "j2": listedFirst},
			params: func(p *configs.Params) { p.VerdictCheck = configs.VerdictCheckSwap },
			want: want{status: tree.Forced, favors: "party-b", rec: "j1 says party-b", unstable: true,
				votes: []tree.VoteStatus{tree.VoteCounted, tree.VoteUnstable}},
		},
		{
			name:   "a panel of one with the order check",
			models: []string{"j1"},
			pick:   map[string]func(scripted.Call) string{"j1": listedFirst},
			params: func(p *configs.Params) { p.VerdictCheck = configs.VerdictCheckSwap },
			want:   want{status: tree.Forced, unstable: true, votes: []tree.VoteStatus{tree.VoteUnstable}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := panelConfig(tc.models...)
			if tc.params != nil {
				tc.params(&cfg.Params)
			}
			if tc.config != nil {
				tc.config(cfg)
			}
			run, _ := runFake(t, cfg, 7, panelJudge(tc.pick))
			root := run.Topics[0].Root
			if root.Status != tc.want.status {
				t.Fatalf("status %s (%s), want %s", root.Status, root.StopReason, tc.want.status)
			}
			var failed []string
			for _, e := range root.Errors {
				if strings.HasPrefix(e.Participant, "judge-") && !slices.Contains(failed, e.Participant) {
					failed = append(failed, e.Participant)
				}
			}
			if !slices.Equal(failed, tc.want.errorsFor) {
				t.Errorf("failures recorded for %v, want %v", failed, tc.want.errorsFor)
			}
			if tc.want.status == tree.Failed {
				return
			}
			v := root.Judgment.ForcedVerdicts[0]
			if v.Favors != tc.want.favors || v.Recommendation != tc.want.rec || v.Split != tc.want.split || v.Unstable != tc.want.unstable {
				t.Errorf("verdict favors %q, recommendation %q, split %v, unstable %v; want %q, %q, %v, %v",
					v.Favors, v.Recommendation, v.Split, v.Unstable, tc.want.favors, tc.want.rec, tc.want.split, tc.want.unstable)
			}
			var statuses []tree.VoteStatus
			for i, x := range v.Votes {
				statuses = append(statuses, x.Status)
				model := cfg.Judges[i].Model
				if tc.want.voteModels != nil {
					model = tc.want.voteModels[i]
				}
				if x.Judge != cfg.Judges[i].ID || x.Model != model {
					t.Errorf("vote %d by %s (%s), want %s (%s)", i, x.Judge, x.Model, cfg.Judges[i].ID, model)
				}
				if x.Status != tree.VoteCounted && x.Reason == "" {
					t.Errorf("vote %d is %s without a reason", i, x.Status)
				}
			}
			if !slices.Equal(statuses, tc.want.votes) {
				t.Errorf("votes %v, want %v", statuses, tc.want.votes)
			}
			if v.Split {
				var recs []string
				for _, x := range v.Votes {
					if x.Status == tree.VoteCounted {
						recs = append(recs, x.Recommendation)
					}
				}
				if len(recs) != 2 || recs[0] == recs[1] {
					t.Errorf("a split verdict keeps both sides' recommendations, got %q", recs)
				}
			}
		})
	}
}

// TestPanelBlindFavors: a panel's votes name debaters by id though the
// judges answered with the aliases they were shown.
func TestPanelBlindFavors(t *testing.T) {
	t.Parallel()
	cfg := panelConfig("j1", "j2", "j3")
	cfg.Params.Blind = nil
	run, _ := runFake(t, cfg, 7, panelJudge(map[string]func(scripted.Call) string{
		"j1": listedFirst, "j2": listedFirst, "j3": listedFirst,
	}))
	v := run.Topics[0].Root.Judgment.ForcedVerdicts[0]
	for _, x := range v.Votes {
		if x.Favors != "party-a" && x.Favors != "party-b" {
			t.Errorf("vote of %s favors %q, want a debater's id", x.Judge, x.Favors)
		}
	}
}

// TestOrderCheckDropsVerdict: a judge that gives its verdict, then fails
// when asked again with the sides reversed, leaves a missing verdict whose
// vote the order check dropped, and the verdict says so.
func TestOrderCheckDropsVerdict(t *testing.T) {
	t.Parallel()
	cfg := panelConfig("j1")
	cfg.Params.VerdictCheck = configs.VerdictCheckSwap
	// A panel of one gives its verdict with the triage; the call that asks
	// for verdicts is the one with the sides reversed, and it fails.
	pick := func(c scripted.Call) string {
		if questionID.MatchString(c.Last()) {
			return "fail"
		}
		return "party-a"
	}
	run, _ := runFake(t, cfg, 7, panelJudge(map[string]func(scripted.Call) string{"j1": pick}))
	root := run.Topics[0].Root
	if root.Judgment == nil || len(root.Judgment.ForcedVerdicts) == 0 {
		t.Fatalf("no forced verdict: status %s (%s)", root.Status, root.StopReason)
	}
	v := root.Judgment.ForcedVerdicts[0]
	if !v.Missing || !v.OrderCheckDropped() || len(v.Votes) != 1 || !strings.HasPrefix(v.Votes[0].Reason, tree.OrderCheckReason) {
		t.Errorf("verdict %+v: want it missing, its one vote dropped by the order check", v)
	}
}
