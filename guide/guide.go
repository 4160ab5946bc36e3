// Package guide holds the role guides that AI agents (and people) read to
// take part in a protocol debate through the debate command line: one
// embedded template per role and language, the rules of each debate type,
// and the files that install them as the custom commands of coding agents.
package guide

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"strings"
	"text/template"
)

//go:embed templates
var files embed.FS

// Roles are the roles a guide is written for, in the order they are listed.
var Roles = []string{"proposer", "opponent", "arbitrator"}

// Types are the debate types whose rules a guide states.
var Types = []string{"general_debate", "coding_plan_debate"}

// Langs are the languages of the guides; the first is the default.
var Langs = []string{"en", "zh"}

var templates = func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, lang := range Langs {
		out[lang] = template.Must(template.ParseFS(files, "templates/"+lang+"/*.md.tmpl"))
	}
	return out
}()

// Options select a guide.
type Options struct {
	Role string
	// Type limits the rules to one debate type; empty states every type's.
	Type string
	// Lang is en (the default when empty) or zh.
	Lang string
}

// data is what the templates see.
type data struct {
	// Type is the debate type the commands use.
	Type string
	// Types are the debate types whose rules are stated.
	Types []string
}

// Render returns the guide o selects, in Markdown.
func Render(o Options) (string, error) {
	if !slices.Contains(Roles, o.Role) {
		return "", fmt.Errorf("role %q: want %s", o.Role, strings.Join(Roles, ", "))
	}
	if o.Lang == "" {
		o.Lang = Langs[0]
	}
	t, ok := templates[o.Lang]
	if !ok {
		return "", fmt.Errorf("language %q: want %s", o.Lang, strings.Join(Langs, " or "))
	}
	d := data{Type: "coding_plan_debate", Types: Types}
	if o.Type != "" {
		if !slices.Contains(Types, o.Type) {
			return "", fmt.Errorf("debate type %q: want %s", o.Type, strings.Join(Types, " or "))
		}
		d = data{Type: o.Type, Types: []string{o.Type}}
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, o.Role+".md.tmpl", d); err != nil {
		return "", fmt.Errorf("render the %s guide: %w", o.Role, err)
	}
	return tidy(b.String()), nil
}

// tidy collapses the runs of blank lines that template actions leave.
func tidy(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return strings.TrimLeft(s, "\n")
}
