package quality

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/debatehq/debate/internal/regular"
)

// Problem is one question with its expected answer.
type Problem struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// Arithmetic returns n problems of Du et al.'s arithmetic task,
// a+b*c+d-e*f with integers from 0 to 29, drawn from seed.
func Arithmetic(n int, seed uint64) []Problem {
	rng := rand.New(rand.NewPCG(seed, 0x61726974686d))
	ps := make([]Problem, n)
	for i := range ps {
		var v [6]int
		for j := range v {
			v[j] = rng.IntN(30)
		}
		ps[i] = Problem{
			ID: fmt.Sprintf("arithmetic-%04d", i+1),
			Question: fmt.Sprintf("What is the result of %d+%d*%d+%d-%d*%d?",
				v[0], v[1], v[2], v[3], v[4], v[5]),
			Answer: strconv.Itoa(v[0] + v[1]*v[2] + v[3] - v[4]*v[5]),
		}
	}
	return ps
}

// Bounds on a task file: one line, and the file read as a whole.
const (
	maxLine = 1 << 20
	// MaxTaskBytes bounds what is read of a task file: 256 MiB.
	MaxTaskBytes = 256 << 20
)

// readTaskFile returns the first n tasks (all when n is 0) of the JSONL
// task file at path, a regular file, reading no further than the n-th.
func readTaskFile(path string, n int) ([]Problem, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--task: %w", err)
	}
	defer f.Close()
	return readTasks(f, path, n)
}

// ReadTasks reads a JSONL task file: one {"id","question","answer"} object a
// line, blank lines skipped. A bad line is an error naming name and the line.
// An answer may be a JSON string or number; a missing id is the line number.
func ReadTasks(r io.Reader, name string) ([]Problem, error) { return readTasks(r, name, 0) }

// readTasks reads tasks as ReadTasks does, stopping after the n-th when n
// is positive, and at most MaxTaskBytes of r.
func readTasks(r io.Reader, name string, n int) ([]Problem, error) {
	lr := &io.LimitedReader{R: r, N: MaxTaskBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var ps []Problem
	seen := map[string]int{}
	for line := 1; (n <= 0 || len(ps) < n) && sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		p, err := decodeTask(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if p.ID == "" {
			p.ID = strconv.Itoa(line)
		}
		if first, ok := seen[p.ID]; ok {
			return nil, fmt.Errorf("%s:%d: id %q is already the id of line %d: give every task its own id", name, line, p.ID, first)
		}
		seen[p.ID] = line
		ps = append(ps, p)
	}
	if lr.N == 0 && (n <= 0 || len(ps) < n) {
		return nil, fmt.Errorf("%s: %w: more than %s, the limit", name, regular.ErrTooLarge, regular.Size(MaxTaskBytes))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line is longer than %d bytes", name, maxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: no tasks: write one {\"id\",\"question\",\"answer\"} object a line", name)
	}
	return ps, nil
}

// decodeTask decodes one line of a task file.
func decodeTask(b []byte) (Problem, error) {
	var raw struct {
		ID       json.RawMessage `json:"id"`
		Question *string         `json:"question"`
		Answer   json.RawMessage `json:"answer"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Problem{}, fmt.Errorf("not a task object (%v): write {\"id\",\"question\",\"answer\"}", err)
	}
	if dec.More() {
		return Problem{}, errors.New("more than one JSON value on the line: write one task a line")
	}
	var p Problem
	var err error
	if p.ID, err = scalar(raw.ID); err != nil {
		return Problem{}, fmt.Errorf("id: %w", err)
	}
	if raw.Question == nil || strings.TrimSpace(*raw.Question) == "" {
		return Problem{}, errors.New("question: missing or empty: give the question as a string")
	}
	p.Question = *raw.Question
	if p.Answer, err = scalar(raw.Answer); err != nil || strings.TrimSpace(p.Answer) == "" {
		return Problem{}, errors.New("answer: missing or empty: give the expected answer as a string or a number")
	}
	return p, nil
}

// scalar returns a JSON string's text or a JSON number's digits.
func scalar(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("want a string or a number (got %s)", raw)
}
