package guide

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Tools are the coding agents whose custom commands Install writes.
var Tools = []string{"claude", "codex", "gemini"}

// File is one installed custom command.
type File struct {
	// Path is relative to the folder installed into.
	Path    string
	Content string
}

// descriptions are the one-line descriptions of the installed commands. They
// hold no ": ", which would end a plain YAML value in a front matter.
var descriptions = map[string]string{
	"proposer":   "Take part in a debate as the proposer (open or resume it, revise, appeal, finish)",
	"opponent":   "Take part in a debate as the opponent (review the proposal with evidence)",
	"arbitrator": "Arbitrate a debate (read appeals, rule, intervene, close)",
}

// argumentHint says what to type after the command.
const argumentHint = "<debate-id or what to debate>"

// Files returns the custom commands of tool for every role, in lang, in
// that tool's documented format: Markdown with front matter under
// .claude/commands (Claude Code) and .codex/prompts (Codex), TOML with a
// prompt under .gemini/commands (Gemini CLI).
func Files(tool, lang string) ([]File, error) {
	if !slices.Contains(Tools, tool) {
		return nil, fmt.Errorf("tool %q: want %s", tool, strings.Join(Tools, ", "))
	}
	var out []File
	for _, role := range Roles {
		body, err := Render(Options{Role: role, Lang: lang})
		if err != nil {
			return nil, err
		}
		name := "debate-" + role
		switch tool {
		case "claude":
			out = append(out, File{filepath.Join(".claude", "commands", name+".md"), markdownCommand(role, body, "$ARGUMENTS")})
		case "codex":
			out = append(out, File{filepath.Join(".codex", "prompts", name+".md"), markdownCommand(role, body, "$ARGUMENTS")})
		case "gemini":
			out = append(out, File{filepath.Join(".gemini", "commands", name+".toml"), tomlCommand(role, body)})
		}
	}
	return out, nil
}

// task ends every installed command: what the user typed after it.
func task(args string) string {
	return "\n## Your task\n\nThe user's request (a debate id to join or resume, or what to debate): " + args + "\n"
}

func markdownCommand(role, body, args string) string {
	return "---\ndescription: " + descriptions[role] + "\nargument-hint: " + argumentHint + "\n---\n\n" + body + task(args)
}

func tomlCommand(role, body string) string {
	return "description = " + tomlString(descriptions[role]) + "\nprompt = " + tomlMultiline(body+task("{{args}}")) + "\n"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// tomlMultiline quotes s as a TOML multi-line basic string.
func tomlMultiline(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"""`, `""\"`)
	return "\"\"\"\n" + s + "\"\"\""
}

// Install writes files (those Files returns) into dir, replacing earlier
// versions of them, and returns the paths written. Each file is written
// whole or not at all.
func Install(dir string, files []File) ([]string, error) {
	var written []string
	for _, f := range files {
		path := filepath.Join(dir, f.Path)
		if err := writeFile(path, f.Content); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

// writeFile writes content to path through a temporary file renamed over it.
func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".debate-guide-*")
	if err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("install %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("install %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("install %s: %w", path, err)
	}
	return nil
}
