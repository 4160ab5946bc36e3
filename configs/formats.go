package configs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// UnmarshalJSON accepts a single format name ("markdown") or a list of them
// (["markdown", "html"]). null leaves the list unchanged.
func (f *Formats) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decode format: %w", err)
		}
		*f = Formats{s}
		return nil
	default:
		var list []string
		if err := json.Unmarshal(b, &list); err != nil {
			return fmt.Errorf("decode formats: %w", err)
		}
		*f = list
		return nil
	}
}

// Has reports whether format is in the list.
func (f Formats) Has(format string) bool {
	return slices.Contains(f, format)
}
