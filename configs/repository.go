package configs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/debatehq/debate/internal/gitrepo"
)

// Repository shares a git repository with the debaters, who may then quote
// any of its files: "." (written true) for the repository the config's
// folder is in, or a folder inside another one, relative to the config's
// folder; "" (false, or left out) shares none.
type Repository string

// repositoryType is Repository's type, which the schema checker lets be
// true, false or a string.
var repositoryType = reflect.TypeFor[Repository]()

// UnmarshalJSON reads true, false or a folder's path.
func (r *Repository) UnmarshalJSON(b []byte) error {
	switch b = bytes.TrimSpace(b); string(b) {
	case "null":
		return nil
	case "true":
		*r = "."
		return nil
	case "false":
		*r = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("decode repository: %w", err)
	}
	*r = Repository(s)
	return nil
}

// MarshalJSON writes the repository of the config's own folder as true.
func (r Repository) MarshalJSON() ([]byte, error) {
	switch r {
	case "":
		return []byte("false"), nil
	case ".":
		return []byte("true"), nil
	}
	return json.Marshal(string(r))
}

// RepositoryDir is the folder whose git repository the debaters may quote,
// resolved against the config's folder; "" when none is shared.
func (c *Config) RepositoryDir() string {
	if c.SharedContext.Repository == "" {
		return ""
	}
	return c.resolve(string(c.SharedContext.Repository))
}

// validateRepository checks that the shared repository is one: that git
// finds a work tree at its folder. Only the run's shared context may share
// it, not a topic's own.
func (c *Config) validateRepository(r *reporter) {
	for i, t := range c.Topics {
		if t.SharedContext != nil && t.SharedContext.Repository != "" {
			r.at(joinPath(joinPath(indexPath("topics", i), "sharedContext"), "repository"),
				"the repository is shared with the whole run; set it on the top-level sharedContext instead")
		}
	}
	dir := c.RepositoryDir()
	if dir == "" {
		return
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "." would not tell which folder
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		r.at("sharedContext.repository", "%s is not a folder; fix the path (relative paths start at the config file's folder) or remove the field", dir)
		return
	}
	if _, err := gitrepo.Root(context.Background(), dir); err != nil {
		r.at("sharedContext.repository", "%s is not inside a git repository; run `git init` there, point repository at a folder inside one, or remove the field", dir)
	}
}
