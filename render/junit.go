package render

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/debatehq/debate/tree"
)

// The JUnit XML elements CI servers read (GitLab, Jenkins, Buildkite):
// suites of test cases, each passing or holding one failure.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		Skipped   int         `xml:"skipped,attr"`
		Time      string      `xml:"time,attr"`
		Timestamp string      `xml:"timestamp,attr,omitempty"`
		Cases     []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// JUnit returns junit.xml for a run: one suite, one test case per topic,
// named by the topic's id and title, failing when its decision is in
// failOn. A failure's message is the decision and what was decided; its
// text, like a passing case's output, holds every verdict. reports maps a
// topic id to its report's file name.
func JUnit(run *tree.Run, failOn []tree.Outcome, reports map[string]string) ([]byte, error) {
	r := &report{run: run, w: wordsFor(run)}
	suite := junitSuite{Name: "debate", Time: seconds(run.FinishedAt.Sub(run.StartedAt).Seconds())}
	if !run.StartedAt.IsZero() {
		suite.Timestamp = run.StartedAt.UTC().Format("2006-01-02T15:04:05")
	}
	for i := range run.Topics {
		t := &run.Topics[i]
		o, _, _ := topicDecision(t)
		c := junitCase{
			Name:      t.ID + ": " + oneLine(t.Title),
			Classname: "debate." + t.ID,
			File:      reports[t.ID],
			Time:      seconds(t.FinishedAt.Sub(t.StartedAt).Seconds()),
		}
		text := r.verdictLines(t)
		if slices.Contains(failOn, o) {
			c.Failure = &junitFailure{Message: r.decisionWord(t) + ": " + r.decisionPlain(t), Type: string(o), Text: text}
			suite.Failures++
		} else {
			c.SystemOut = r.decisionWord(t) + ": " + r.decisionPlain(t) + "\n" + text
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	all := junitSuites{Name: "debate", Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suites: []junitSuite{suite}}
	body, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("render junit.xml: %w", err)
	}
	return append(append([]byte(xml.Header), body...), '\n'), nil
}

// verdictLines lists every forced verdict of a topic, one a line, with
// each judge's recommendation under a split or unstable one.
func (r *report) verdictLines(t *tree.Topic) string {
	var b strings.Builder
	for _, v := range t.Root.AllVerdicts() {
		fmt.Fprintf(&b, "- %s (%s): %s\n", oneLine(cmp.Or(v.Divergence.Title, v.DivergenceID)), v.Node, oneLine(plain(r.recommendation(v.Verdict))))
		if v.Split || v.Unstable {
			for _, vote := range v.Votes {
				fmt.Fprintf(&b, "  - %s: %s\n", r.judgeName(vote.Judge), oneLine(vote.Recommendation))
			}
		}
	}
	return b.String()
}

// oneLine collapses whitespace to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// seconds formats a duration in seconds as JUnit times are written.
func seconds(s float64) string { return fmt.Sprintf("%.3f", max(s, 0)) }
