package render

import (
	"bytes"
	"fmt"
)

// Fragment renders Markdown into an HTML fragment (no page around it) with
// the same goldmark as HTML: GFM, raw HTML omitted, javascript:, vbscript:,
// file: and non-image data: links emptied, images turned into links. The web
// UI inserts its output into pages as it is.
func Fragment(md []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := markdown.Convert(md, &out); err != nil {
		return nil, fmt.Errorf("render markdown fragment: %w", err)
	}
	return out.Bytes(), nil
}
