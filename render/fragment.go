package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/parser"
)

// siblingReport reports whether a link points at a Markdown report in the
// same folder: a plain file name ending in ".md".
func siblingReport(dest string) bool {
	return plainDest.MatchString(dest) && strings.HasSuffix(dest, ".md") && strings.Trim(dest, ".") != "md"
}

// Fragment renders Markdown into an HTML fragment (no page around it) with
// the same goldmark as HTML: GFM, raw HTML shown as escaped text, links only
// to http(s), mailto, the page itself or a Markdown report beside it (a bare
// file name ending in ".md", as summary.md links its topics), images turned
// into links, control characters made visible. The web UI inserts its
// output into pages as it is.
func Fragment(md []byte) ([]byte, error) {
	var out bytes.Buffer
	ctx := parser.NewContext()
	ctx.Set(ownPages, siblingReport)
	if err := markdown.Convert([]byte(visible(string(md))), &out, parser.WithContext(ctx)); err != nil {
		return nil, fmt.Errorf("render markdown fragment: %w", err)
	}
	return out.Bytes(), nil
}
