package output

import "testing"

func TestBar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		done, total, width int
		want               string
	}{
		{0, 5, 5, "░░░░░ 0/5 problems"},
		{3, 5, 5, "███░░ 3/5 problems"},
		{5, 5, 5, "█████ 5/5 problems"},
		{7, 5, 5, "█████ 7/5 problems"},
		{0, 0, 3, "░░░ 0/0 problems"},
	} {
		if got := Bar(tc.done, tc.total, tc.width, "problems"); got != tc.want {
			t.Errorf("Bar(%d, %d, %d) = %q, want %q", tc.done, tc.total, tc.width, got, tc.want)
		}
	}
}
