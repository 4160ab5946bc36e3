package render

import (
	"strings"
	"testing"
)

// TestTableLabels: a table wide enough to stack gives each cell its
// column's heading as written, escaped, markup left out; a narrow table is
// left as it is.
func TestTableLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		md        string
		want, not []string
	}{
		{"wide", "| **Name** | `Vec<T>` | b<script> | a\" onmouseover=\"x |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n",
			[]string{`<table class="stack">`, `<td data-label="Name">1</td>`, `<td data-label="Vec&lt;T&gt;">2</td>`,
				`<td data-label="b&lt;script&gt;">3</td>`, `<td data-label="a&quot; onmouseover=&quot;x">4</td>`},
			[]string{"<script>", `" onmouseover`}},
		{"narrow", "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n", []string{"<td>1</td>"}, []string{"stack", "data-label"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := Fragment([]byte(tt.md))
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %s:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("has %s:\n%s", n, got)
				}
			}
		})
	}
}
