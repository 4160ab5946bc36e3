package tree

import (
	"errors"
	"fmt"
	"math"
)

// CheckFigures reports the first stance figure or judge audit figure of the
// run that no run could have written: a count below zero or above its
// total, an interval or an expected share that is not a number within 0–1.
// Its error names the figure as run.json places it
// ("topics[2].stances.moved: count 5 above its total 3"), so that a run.json
// damaged or edited by hand is refused before its numbers reach a table.
func (r *Run) CheckFigures() error {
	if err := r.Stances.check("stances"); err != nil {
		return err
	}
	for i, t := range r.Topics {
		if err := t.Stances.check(fmt.Sprintf("topics[%d].stances", i)); err != nil {
			return err
		}
	}
	for i, a := range r.Audit {
		at := fmt.Sprintf("audit[%d]", i)
		for _, c := range []struct {
			name string
			c    Check
		}{{"first", a.First}, {"middle", a.Middle}, {"last", a.Last}, {"longest", a.Longest}, {"sameFamily", a.SameFamily}} {
			if err := checkShare(c.c.Share); err != nil {
				return fmt.Errorf("%s.%s: %w", at, c.name, err)
			}
			if !unit(c.c.Expected) {
				return fmt.Errorf("%s.%s: expected share %g is not within 0–1", at, c.name, c.c.Expected)
			}
		}
		if err := checkShare(a.OrderFlips); err != nil {
			return fmt.Errorf("%s.orderFlips: %w", at, err)
		}
	}
	return nil
}

// check reports the first impossible figure of f, written at field.
func (f *StanceFigures) check(field string) error {
	if f == nil {
		return nil
	}
	for _, s := range []struct {
		name string
		s    Share
	}{{"moved", f.Moved}, {"conformity", f.Conformity}, {"persuasion", f.Persuasion}, {"loneConceded", f.LoneConceded}, {"majorityVerdicts", f.MajorityVerdicts}} {
		if err := checkShare(s.s); err != nil {
			return fmt.Errorf("%s.%s: %w", field, s.name, err)
		}
	}
	return nil
}

// checkShare reports what is impossible in s.
func checkShare(s Share) error {
	switch {
	case s.Count < 0 || s.Of < 0:
		return fmt.Errorf("count %d of %d is negative", s.Count, s.Of)
	case s.Count > s.Of:
		return fmt.Errorf("count %d above its total %d", s.Count, s.Of)
	case !unit(s.Interval.Low) || !unit(s.Interval.High) || s.Interval.Low > s.Interval.High:
		return errors.New("interval is not within 0–1")
	}
	return nil
}

// unit reports whether x is a number within 0–1.
func unit(x float64) bool { return !math.IsNaN(x) && x >= 0 && x <= 1 }
