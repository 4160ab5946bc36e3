package render

import (
	"testing"

	"github.com/debatehq/debate/render/rendertest"
)

// BenchmarkTopicPage compares the HTML topic page (SVG tree, contents, one
// goldmark conversion per section) with the plain conversion of the
// Markdown report, on the three-level fixture with forced verdicts.
func BenchmarkTopicPage(b *testing.B) {
	run := rendertest.Forced()
	t := &run.Topics[0]
	b.Run("TopicHTML", func(b *testing.B) {
		for b.Loop() {
			if _, err := TopicHTML(run, t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarkdownToHTML", func(b *testing.B) {
		for b.Loop() {
			if _, err := markdownPage(t.Title, Topic(run, t)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
