package output

import (
	"fmt"
	"strings"
)

// Bar draws done of total as a bar of width cells followed by the count and
// what is counted ("███░░ 3/5 problems"): the progress display of a run
// measured in items rather than topics (debate bench quality).
func Bar(done, total, width int, noun string) string {
	full := 0
	if total > 0 {
		full = min(max(done, 0)*width/total, width)
	}
	return fmt.Sprintf("%s%s %d/%d %s", strings.Repeat("█", full), strings.Repeat("░", width-full), done, total, noun)
}
