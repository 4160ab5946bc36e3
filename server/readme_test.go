package server

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestReadmeHealth: the answer of GET /health that the README shows is the
// server's, byte for byte once compacted.
func TestReadmeHealth(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?m)^\\| `GET /health` \\| `([^`]+)`").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no row for GET /health with its answer")
	}
	f := newFixture(t, Options{})
	r := f.call("GET", "/health", "")
	var got, want bytes.Buffer
	if err := json.Compact(&got, []byte(r.raw)); err != nil {
		t.Fatalf("health answered %d %q: %v", r.status, r.raw, err)
	}
	if err := json.Compact(&want, m[1]); err != nil {
		t.Fatalf("the README's answer %q is no JSON: %v", m[1], err)
	}
	if got.String() != want.String() {
		t.Errorf("GET /health answers %s, the README shows %s", got.String(), want.String())
	}
}
