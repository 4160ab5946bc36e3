package render

import (
	"strings"
	"testing"
)

// TestFragmentDisarmsActiveContent checks that markup in Markdown is shown
// as the text it is and that no script link survives.
func TestFragmentDisarmsActiveContent(t *testing.T) {
	tests := []struct {
		name    string
		md      string
		want    []string
		notWant []string
	}{
		{"script", "a\n\n<script>alert(1)</script>\n\nb", []string{"<p>a</p>", "&lt;script&gt;alert(1)&lt;/script&gt;", "<p>b</p>"}, []string{"<script"}},
		{"inline html", `x <img src=x onerror="alert(2)"> y`, []string{"x &lt;img src=x onerror=&quot;alert(2)&quot;&gt; y"}, []string{"<img"}},
		{"type", "returns Vec<String> or <b>x</b>", []string{"returns Vec&lt;String&gt; or &lt;b&gt;x&lt;/b&gt;"}, []string{"<b>"}},
		{"javascript link", "[go](javascript:alert(3))", []string{"<p>go</p>"}, []string{"javascript:", "<a"}},
		{"javascript autolink", "<javascript:alert(4)>", []string{"javascript:alert(4)"}, []string{"<a"}},
		{"other scheme", "[f](file:///etc/passwd) [t](tel:123) [r](relative.html) [u](../up.md)", []string{"<p>f t r u</p>"}, []string{"<a"}},
		{"sibling report", "[topic](topic-a-b.md)", []string{`<a href="topic-a-b.md">topic</a>`}, nil},
		{"allowed links", "[h](https://a.example) [m](mailto:x@a.example) [p](#here) x@b.example", []string{`<a href="https://a.example">h</a>`, `<a href="mailto:x@a.example">m</a>`, `<a href="#here">p</a>`, `<a href="mailto:x@b.example">x@b.example</a>`}, nil},
		{"alignment", "| a | b |\n|--:|:-:|\n| 1 | 2 |", []string{`<td class="align-right">1</td>`, `<td class="align-center">2</td>`}, []string{"style="}},
		{"image", "![cat](https://example.com/cat.png)", []string{`<a href="https://example.com/cat.png">cat</a>`}, []string{"<img"}},
		{"line breaks kept", "Question: which key?\nContext: v2", []string{"<p>Question: which key?<br>\nContext: v2</p>"}, nil},
		{"list under a line", "Options:\n- a\n- b", []string{"<p>Options:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>"}, nil},
		{"gfm", "| a |\n|---|\n| ~~b~~ |", []string{"<table>", "<del>b</del>"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Fragment([]byte(tt.md))
			if err != nil {
				t.Fatal(err)
			}
			got := string(out)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in\n%s", w, got)
				}
			}
			if strings.Contains(got, "<html") || strings.Contains(got, "<main") {
				t.Errorf("fragment has a page around it:\n%s", got)
			}
		})
	}
}
