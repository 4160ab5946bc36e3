package tree

import "testing"

func TestParseStance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       Stance
	}{
		{"kept", "I stand by it.\n\nStance: kept", Stance{Stance: StanceKept}},
		{"moved to a party", "…\nStance: moved to Debater 1 — their cache argument holds", Stance{Stance: StanceMoved, Toward: "Debater 1", Reason: "their cache argument holds"}},
		{"moved without a party", "Stance: moved — I now see both sides", Stance{Stance: StanceMoved, Reason: "I now see both sides"}},
		{"bold keyword", "**Stance:** moved to Debater 2 - fine", Stance{Stance: StanceMoved, Toward: "Debater 2", Reason: "fine"}},
		{"the last line counts", "Stance: kept\nlater\nStance: moved to B — b", Stance{Stance: StanceMoved, Toward: "B", Reason: "b"}},
		{"chinese", "立场：转向 辩手 2 — 他的论据更强", Stance{Stance: StanceMoved, Toward: "辩手 2", Reason: "他的论据更强"}},
		{"missing", "No closing line here.", Stance{Stance: StanceNotStated}},
		{"malformed", "Stance: undecided", Stance{Stance: StanceNotStated}},
		{"empty", "", Stance{Stance: StanceNotStated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := ParseStance(tt.text)
			if got != tt.want {
				t.Errorf("ParseStance(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}
