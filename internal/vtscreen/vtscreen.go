// Package vtscreen emulates the screen of a terminal from the bytes a
// program writes to it, for tests of what a person would see: printable
// text wraps at the width (wide characters take two columns), "\n" starts
// the next line (as a terminal's output processing turns it into "\r\n"),
// and the cursor and erase sequences a progress display uses (CUU, ED, EL)
// act on the screen. Other escape sequences are ignored. The screen has no
// height limit: rows scrolled off a real terminal stay here.
package vtscreen

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/textwidth"
)

// Screen is an emulated terminal screen.
type Screen struct {
	width   int
	rows    []row
	r, c    int
	pending bool // the last column was written: the next character wraps
}

type row struct {
	cells   []string // one per column; "" after a wide character
	wrapped bool     // the text continues on the next row
}

// New returns an empty screen of the given width.
func New(width int) *Screen {
	return &Screen{width: width, rows: []row{{}}}
}

// Write emulates b on the screen. It never fails.
func (s *Screen) Write(b []byte) (int, error) {
	str := string(b)
	for i := 0; i < len(str); {
		switch ch := str[i]; {
		case ch == 0x1b:
			i += s.escape(str[i:])
		case ch == '\r':
			s.c, s.pending = 0, false
			i++
		case ch == '\n':
			s.c, s.pending = 0, false
			s.down()
			i++
		case ch < 0x20 || ch == 0x7f:
			i++
		default:
			r, n := utf8.DecodeRuneInString(str[i:])
			s.put(r)
			i += n
		}
	}
	return len(b), nil
}

// escape handles the escape sequence at the start of str and returns its
// length.
func (s *Screen) escape(str string) int {
	if len(str) < 2 || str[1] != '[' {
		return min(len(str), 2)
	}
	j := 2
	for j < len(str) && (str[j] >= '0' && str[j] <= '9' || str[j] == ';' || str[j] == '?') {
		j++
	}
	if j == len(str) {
		return j
	}
	param := str[2:j]
	n, err := strconv.Atoi(param)
	if err != nil {
		n = 0
	}
	switch str[j] {
	case 'A':
		s.r, s.pending = max(0, s.r-max(1, n)), false
	case 'J':
		if n == 0 {
			s.eraseRow(s.c)
			s.rows = s.rows[:s.r+1]
			s.rows[s.r].wrapped = false
		}
	case 'K':
		switch n {
		case 0:
			s.eraseRow(s.c)
		case 2:
			s.eraseRow(0)
		}
	}
	return j + 1
}

// eraseRow erases the cursor's row from column from.
func (s *Screen) eraseRow(from int) {
	rw := &s.rows[s.r]
	if from < len(rw.cells) {
		rw.cells = rw.cells[:from]
	}
}

func (s *Screen) down() {
	s.r++
	for s.r >= len(s.rows) {
		s.rows = append(s.rows, row{})
	}
}

func (s *Screen) put(r rune) {
	w := textwidth.RuneWidth(r)
	if w == 0 {
		return
	}
	if s.pending || s.c+w > s.width {
		s.rows[s.r].wrapped = true
		s.c, s.pending = 0, false
		s.down()
	}
	rw := &s.rows[s.r]
	for len(rw.cells) < s.c+w {
		rw.cells = append(rw.cells, " ")
	}
	rw.cells[s.c] = string(r)
	if w == 2 {
		rw.cells[s.c+1] = ""
	}
	s.c += w
	if s.c >= s.width {
		s.c, s.pending = s.width-1, true
	}
}

// Rows returns the screen's rows as text, trailing spaces and trailing empty
// rows removed.
func (s *Screen) Rows() []string {
	var out []string
	for _, rw := range s.rows {
		out = append(out, strings.TrimRight(strings.Join(rw.cells, ""), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// Lines returns the screen's text as lines: rows joined where the terminal
// wrapped a line that did not fit.
func (s *Screen) Lines() []string {
	rows := s.Rows()
	var out []string
	var cur strings.Builder
	for i, text := range rows {
		cur.WriteString(text)
		if i < len(s.rows) && s.rows[i].wrapped && i+1 < len(rows) {
			continue
		}
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}
