// Package ghrunner reads a step's log as the GitHub Actions runner does and
// returns the workflow commands it would act on, so that tests can check
// that nothing but a program's own commands comes through.
//
// The rules are the runner's: the log is split into lines at \n, \r and
// \r\n; a line whose text, after its leading white space, starts with "::"
// and has a second "::" later is a command when the word between them (up
// to a space) is a known command name, in any case; otherwise a line that
// holds "##[" anywhere and a "]" after it is a command when the word after
// "##[" is known. Once "stop-commands" has run, no command is acted on
// until one named by its token comes.
package ghrunner

import (
	"strings"
	"unicode"
)

// Command is a workflow command the runner would act on.
type Command struct {
	Line       int               // 1-based line of the log
	Name       string            // as written
	Properties map[string]string // unescaped
	Data       string            // unescaped
	Legacy     bool              // found by the "##[" form
}

// known are the commands the runner acts on.
var known = map[string]bool{
	"stop-commands": true, "set-env": true, "set-output": true, "save-state": true, "add-mask": true, "add-path": true,
	"add-matcher": true, "remove-matcher": true, "debug": true, "warning": true, "error": true, "notice": true,
	"group": true, "endgroup": true, "echo": true,
}

// Commands returns, in order, the commands the runner would act on in log.
func Commands(log string) []Command {
	stopToken := ""
	var out []Command
	for i, line := range Lines(log) {
		c, ok := parseV2(line, stopToken)
		if !ok {
			c, ok = parseV1(line, stopToken)
		}
		if !ok {
			continue
		}
		c.Line = i + 1
		name := strings.ToLower(c.Name)
		switch {
		case stopToken != "":
			if name != strings.ToLower(stopToken) {
				continue
			}
			stopToken = ""
		case name == "stop-commands":
			stopToken = c.Data
		}
		out = append(out, c)
	}
	return out
}

// Lines splits log as the runner reads a stream: at "\r\n", "\n" and "\r".
func Lines(log string) []string {
	var lines []string
	for len(log) > 0 {
		i := strings.IndexAny(log, "\r\n")
		if i < 0 {
			lines = append(lines, log)
			break
		}
		lines = append(lines, log[:i])
		if log[i] == '\r' && i+1 < len(log) && log[i+1] == '\n' {
			i++
		}
		log = log[i+1:]
	}
	return lines
}

// isKnown tells whether name is a command now: a known one, or the token
// that resumes commands after stop-commands.
func isKnown(name, stopToken string) bool {
	return known[strings.ToLower(name)] || stopToken != "" && strings.EqualFold(name, stopToken)
}

// parseV2 reads the "::name k=v,k=v::data" form.
func parseV2(line, stopToken string) (Command, bool) {
	s := strings.TrimLeftFunc(line, unicode.IsSpace)
	if !strings.HasPrefix(s, "::") {
		return Command{}, false
	}
	end := strings.Index(s[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	info, data := s[2:2+end], s[2+end+2:]
	name, props, _ := strings.Cut(info, " ")
	if name == "" || !isKnown(name, stopToken) {
		return Command{}, false
	}
	c := Command{Name: name, Properties: map[string]string{}, Data: unescape(data, dataEscapes)}
	for _, p := range strings.Split(strings.TrimSpace(props), ",") {
		if k, v, ok := strings.Cut(p, "="); ok && k != "" && v != "" {
			c.Properties[k] = unescape(v, propertyEscapes)
		}
	}
	return c, true
}

// parseV1 reads the "##[name k=v;k=v]data" form, anywhere in a line.
func parseV1(line, stopToken string) (Command, bool) {
	at := strings.Index(line, "##[")
	if at < 0 {
		return Command{}, false
	}
	rb := strings.IndexByte(line[at:], ']')
	if rb < 0 {
		return Command{}, false
	}
	info, data := line[at+3:at+rb], line[at+rb+1:]
	name, props, _ := strings.Cut(info, " ")
	if name == "" || !isKnown(name, stopToken) {
		return Command{}, false
	}
	c := Command{Name: name, Properties: map[string]string{}, Data: unescape(data, legacyEscapes), Legacy: true}
	for _, p := range strings.Split(props, ";") {
		if k, v, ok := strings.Cut(p, "="); ok && k != "" && v != "" {
			c.Properties[k] = unescape(v, legacyEscapes)
		}
	}
	return c, true
}

// The runner's escapes, undone in this order.
var (
	dataEscapes     = []string{"%0D", "\r", "%0A", "\n", "%25", "%"}
	propertyEscapes = []string{"%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%"}
	legacyEscapes   = []string{"%3B", ";", "%0D", "\r", "%0A", "\n", "%5D", "]", "%25", "%"}
)

// unescape undoes escapes one after another, as the runner does.
func unescape(s string, escapes []string) string {
	for i := 0; i < len(escapes); i += 2 {
		s = strings.ReplaceAll(s, escapes[i], escapes[i+1])
	}
	return s
}

// Injections are texts that a model, a provider or a file could hold to
// make the runner act: each workflow command GitHub documents, in both
// forms, at a line's start, after white space, after other text, and split
// across lines.
var Injections = []string{
	"##[add-mask]X",
	"refused: ##[stop-commands]tok",
	"::error::X",
	"  ::warning file=a.go,line=1::X",
	"\t::notice title=T::X",
	"\u00a0\u3000::debug::X",
	"::add-mask::secret",
	"::stop-commands::tok",
	"::tok::",
	"::set-output name=decision-counts::{}",
	"::set-env name=NODE_OPTIONS::--require=/tmp/x",
	"::add-path::/tmp/evil",
	"::save-state name=s::X",
	"::add-matcher::/tmp/m.json",
	"::remove-matcher owner=o::",
	"::group::X",
	"::endgroup::",
	"::echo::on",
	"::ERROR::upper case",
	"text before ##[error]X",
	"###[warning]X",
	"##[group]X",
	"t1\n::error::X\ndecision-counts={}",
	"a\r::error::after a carriage return",
	"a\r\n::error::after CRLF",
	"%0A::error::escaped newline",
}

// Outputs reads a $GITHUB_OUTPUT file as the runner does: lines name=value,
// and blocks that start name<<delimiter and end at a line that is the
// delimiter (whichever of "=" and "<<" comes first decides); a name set
// twice keeps its last value.
func Outputs(file string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(file, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		eq, here := strings.Index(line, "="), strings.Index(line, "<<")
		switch {
		case line == "":
		case eq >= 0 && (here < 0 || eq < here):
			out[line[:eq]] = line[eq+1:]
		case here >= 0:
			name, delim := line[:here], line[here+2:]
			var value []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				value = append(value, lines[i])
			}
			out[name] = strings.Join(value, "\n")
		}
	}
	return out
}
