package configs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/debatehq/debate/internal/regular"
)

// Options tune Load.
type Options struct {
	// DryRun turns a ${NAME} whose variable is not set from a problem into a
	// warning (Config.Warnings); the reference is then kept as written.
	DryRun bool
	// NoEnv reads no environment variable: every ${NAME} is kept as written
	// and named in Config.Unread, so that a config can be checked where its
	// secrets are absent (a pull request from a fork).
	NoEnv bool
	// Getenv looks up environment variables; nil means os.LookupEnv.
	Getenv func(name string) (string, bool)
	// Templates, when set, checks the template overrides of prompts.dir for
	// the config's language; its error becomes a problem at prompts.dir.
	// configs does not know the templates: its caller does.
	Templates func(language, dir string) error
}

// Load reads the JSONC config at path and returns it ready to use: comments
// and trailing commas are allowed; unknown fields and values of the wrong
// type are rejected (with a "did you mean" hint for misspelt names); ${NAME}
// in any string is replaced from the environment; a "judge" becomes the
// Reviewer; defaults are applied (see ApplyDefaults); relative output.dir and
// prompts.dir are resolved against the config file's folder; and the result
// is validated, shared-context files included.
//
// The file must be a regular file of at most MaxConfigBytes. When it cannot
// be read the error wraps the read error. Otherwise
// every problem found is returned at once as Problems, each located at the
// key of the offending field (for a missing field, the brace of the object
// that should hold it), in file order.
func Load(path string, opt Options) (*Config, error) {
	text, err := regular.ReadFile(path, MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return load(path, text, opt)
}

func load(path string, text []byte, opt Options) (*Config, error) {
	src := newSource(path, text)
	r := &reporter{src: src, file: path}
	cfg, err := decode(src, r, text)
	if err != nil {
		return nil, err
	}
	warnings, keyVars := cfg.expand(r, opt)

	cfg.Path = path
	cfg.Dir = filepath.Dir(path)
	cfg.src = src
	cfg.foldJudge(r)
	cfg.applyDefaults(src)
	cfg.Output.Dir = cfg.resolve(cfg.Output.Dir)
	cfg.Prompts.Dir = cfg.resolve(cfg.Prompts.Dir)
	cfg.Cache.Dir = cfg.resolve(cfg.Cache.Dir)
	if cfg.Protocol != nil && !strings.Contains(cfg.Protocol.DB, "://") {
		cfg.Protocol.DB = cfg.resolve(cfg.Protocol.DB)
	}
	cfg.validate(r)
	if opt.Templates != nil && cfg.Prompts.Dir != "" && len(r.ps) == 0 {
		if err := opt.Templates(cfg.Prompts.Language, cfg.Prompts.Dir); err != nil {
			r.at("prompts.dir", "%v; fix the file or remove it from the folder to use the built-in template", err)
		}
	}

	if len(r.ps) > 0 {
		sortProblems(r.ps)
		return nil, Problems(r.ps)
	}
	cfg.rememberKeyVariables(keyVars)
	warnings = append(warnings, cfg.SelfPreference()...)
	warnings = append(warnings, cfg.OneFamily()...)
	warnings = append(warnings, cfg.skippedWarnings(r)...)
	warnings = append(warnings, r.warnings...)
	sortProblems(warnings)
	cfg.Warnings = warnings
	return cfg, nil
}

// decode parses text as JSONC, checks its fields against the config's
// types (problems go to r) and decodes it strictly; a syntax error or a
// failed decoding is returned as the config's problems.
func decode(src *source, r *reporter, text []byte) (*Config, error) {
	// Parse a copy: the tree aliases its input and Standardize rewrites it,
	// while src.text must stay as the user wrote it.
	v, err := hujson.Parse(bytes.Clone(text))
	if err != nil {
		return nil, Problems{r.syntaxProblem(err)}
	}
	if v.Value.Kind() != '{' {
		return nil, Problems{r.make("", v.StartOffset, "the config must be a JSON object: { ... }")}
	}
	ck := &checker{src: src, rep: r}
	ck.check(&v, reflect.TypeFor[Config](), "", v.StartOffset)
	v.Standardize()

	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(v.Pack()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		r.ps = append(r.ps, r.make("", -1, fmt.Sprintf("decode: %v", err)))
		sortProblems(r.ps)
		return nil, Problems(r.ps)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		r.ps = append(r.ps, r.make("", -1, "unexpected data after the top-level object"))
	}
	return &cfg, nil
}

// expand replaces the ${NAME} references of the config's strings from the
// environment. An unset variable is one problem, at its first use, naming
// the others; a dry run only warns of it, and with NoEnv nothing is read
// and the variables are listed in Unread. It returns the warnings and the
// variable each api.apiKey value came from.
func (cfg *Config) expand(r *reporter, opt Options) ([]Problem, map[string]string) {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	var warnings []Problem
	keyVars := map[string]string{} // the value of an api.apiKey → the variable it came from
	if opt.NoEnv {
		getenv = func(string) (string, bool) { return "", false }
	}
	var unset []string               // variables not set, in the order first met
	unsetAt := map[string][]string{} // each one's fields
	expandAll(reflect.ValueOf(cfg).Elem(), "", getenv, func(field, name string) {
		if opt.NoEnv {
			if !slices.Contains(cfg.Unread, name) {
				cfg.Unread = append(cfg.Unread, name)
			}
			return
		}
		if opt.DryRun {
			warnings = append(warnings, r.make(field, r.src.offset(field),
				fmt.Sprintf("environment variable %s is not set (a dry run does not need it)", name)))
			return
		}
		if unsetAt[name] == nil {
			unset = append(unset, name)
		}
		unsetAt[name] = append(unsetAt[name], field)
	}, func(field, name string) {
		if field == "apiKey" || strings.HasSuffix(field, ".apiKey") {
			val, _ := getenv(name)
			keyVars[val] = name
		}
	})
	for _, name := range unset {
		also := ""
		if fields := unsetAt[name][1:]; len(fields) > 0 {
			also = " (also read by " + strings.Join(fields, ", ") + ")"
		}
		r.at(unsetAt[name][0], "environment variable %s is not set%s; export it, or write the value in the file", name, also)
	}
	return warnings, keyVars
}

var syntaxErrorPattern = regexp.MustCompile(`(?s)^hujson: line (\d+), column (\d+): (.*)$`)

// syntaxProblem turns a hujson parse error into a located problem. hujson
// counts columns in bytes; the problem counts runes like every other.
func (r *reporter) syntaxProblem(err error) Problem {
	m := syntaxErrorPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return r.make("", -1, fmt.Sprintf("syntax error: %v", err))
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(r.src.text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return r.make("", off+col-1, "syntax error: "+m[3])
}
