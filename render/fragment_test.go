package render

import (
	"strings"
	"testing"
)

func TestFragmentDropsActiveContent(t *testing.T) {
	tests := []struct {
		name    string
		md      string
		want    []string
		notWant []string
	}{
		{"script", "a\n\n<script>alert(1)</script>\n\nb", []string{"<p>a</p>", "<p>b</p>"}, []string{"<script", "alert(1)"}},
		{"inline html", `x <img src=x onerror="alert(2)"> y`, []string{"x", "y"}, []string{"<img", "onerror"}},
		{"javascript link", "[go](javascript:alert(3))", []string{">go</a>"}, []string{"javascript:", "alert(3)"}},
		{"image", "![cat](https://example.com/cat.png)", []string{`<a href="https://example.com/cat.png">cat</a>`}, []string{"<img"}},
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
