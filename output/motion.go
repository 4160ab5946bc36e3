package output

import "github.com/debatehq/debate/tree"

// MotionFile returns the report file name of a motion:
// "motion-<id>-<slug>.md". Characters of the id other than ASCII letters,
// digits, '.', '_' and '-' become '-'.
func MotionFile(m *tree.Motion) string {
	return "motion-" + safeID(m.ID) + "-" + Slug(m.Title) + ".md"
}

// normalizeMotions returns copies of the motions with nil lists made empty,
// or nil when there are none (the field is then left out of run.json).
func normalizeMotions(ms []tree.Motion) []tree.Motion {
	if len(ms) == 0 {
		return nil
	}
	out := make([]tree.Motion, len(ms))
	for i, m := range ms {
		m.Documents = orEmpty(m.Documents)
		m.Arguments = orEmpty(m.Arguments)
		m.Fallbacks = orEmpty(m.Fallbacks)
		out[i] = m
	}
	return out
}
