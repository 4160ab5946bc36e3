package main

import (
	"strings"
	"testing"
)

// TestValidateCounts: validate counts what a config plays, the motions of
// a protocol config as the debaters and topics of the others.
func TestValidateCounts(t *testing.T) {
	t.Parallel()
	for config, want := range map[string]string{
		"motion.jsonc": "ok (1 motion)",
		"full.jsonc":   "ok (3 debaters, 2 topics)",
	} {
		t.Run(config, func(t *testing.T) {
			t.Parallel()
			r := invoke(t, nil, "validate", "--no-env", "-c", "../../configs/examples/"+config)
			if first, _, _ := strings.Cut(r.stdout, "\n"); r.code != exitOK || !strings.HasSuffix(first, want) {
				t.Errorf("exit %d, says %q, want %q", r.code, r.stdout, want)
			}
		})
	}
}
