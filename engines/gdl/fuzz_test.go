package gdl

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// fuzzSeeds are small games and fragments that reach every stage: parse
// errors, findings, or-expansion, (not (distinct ..)), reordering, the
// validator's graph checks.
var fuzzSeeds = []string{
	tinyGame,
	"(role xplayer) (role oplayer)\n(init (cell 1 1 b))\n(init (control xplayer))\n" +
		"(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))\n" +
		"(<= (legal xplayer noop) (true (control oplayer)))\n" +
		"(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))\n" +
		"(<= (next (control oplayer)) (true (control xplayer)))\n" +
		"(<= terminal (not open))\n(<= open (true (cell ?m ?n b)))\n" +
		"(<= (goal xplayer 100) (line x))\n(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))\n",
	"(<= (p ?x) (or (q ?x) (r ?x)) (not (or (s ?x) t)) (distinct ?x a))",
	"(<= (b ?x) (c ?y) (domain ?x) (not (distinct ?x ?y)))\n(<= z (not (distinct p q)))",
	"(<= (r ?v1 (f ?v1)) (r ?v2 ?v1) (q ?v2))\n(r 0 0)\n(q 0)",
	"(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))\n(<= p (not p))",
	"; comment (\n(foo)\n(<= (legal robot giveup))\n(<= whiteWin (true (cell 1 x)))\n(<= terminal whitewin)",
	"(role x))",
	"(role x",
	"(<= terminal (not (not p)))",
	"(cell \x00)",
	"(p \xff)",
	"(<= (r (f ?x)) (r ?x))\n(legal (does a b) c)\n(?x a)\n()\n(<=)\n(distinct a b)",
	"(ROLE R)\r\n(INIT (Cell 1))\r\n",
}

// fuzzBudget is how long any input under fuzzFastBytes may take; real games
// of 80 KB are checked in under 10 ms.
const (
	fuzzBudget    = 2 * time.Second
	fuzzFastBytes = 64 << 10
)

// checkSyntaxError checks the properties of a reader error: a *SyntaxError
// with a position inside the input.
func checkSyntaxError(t *testing.T, data []byte, err error) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error is a %T, not a *SyntaxError: %v", err, err)
	}
	if se.Pos.Line < 1 || se.Pos.Col < 1 {
		t.Fatalf("syntax error without a position: %v", se)
	}
	if lines := lineCount(data); se.Pos.Line > lines {
		t.Fatalf("syntax error on line %d of a %d-line input: %v", se.Pos.Line, lines, se)
	}
}

// lineCount is the number of lines of data as the reader counts them: LF,
// CRLF and a lone CR (old Mac line ends) each end a line.
func lineCount(data []byte) int32 {
	n := int32(1)
	for i, c := range data {
		if c == '\n' || c == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			n++
		}
	}
	return n
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		rules, fs, err := Parse("fuzz.kif", data, DefaultLimits)
		if d := time.Since(start); len(data) < fuzzFastBytes && d > fuzzBudget {
			t.Fatalf("Parse took %v on %d bytes", d, len(data))
		}
		if err != nil {
			checkSyntaxError(t, data, err)
			return
		}
		for _, f := range fs {
			if f.Pos.Line < 1 || f.Pos.Col < 1 {
				t.Fatalf("finding without a position: %v", f)
			}
		}
		// The canonical text of the parsed rules reads back as the same rules.
		text := joinRules(rules)
		again, _, err := Parse("again.kif", []byte(text), Limits{})
		if err != nil {
			t.Fatalf("printed rules do not parse: %v\n%s", err, text)
		}
		if got := joinRules(again); got != text {
			t.Fatalf("printing is not stable:\nfirst:  %s\nsecond: %s", text, got)
		}
	})
}

func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		g, err := Check("fuzz.kif", data, DefaultLimits)
		if d := time.Since(start); len(data) < fuzzFastBytes && d > fuzzBudget {
			t.Fatalf("Check took %v on %d bytes", d, len(data))
		}
		if err != nil {
			checkSyntaxError(t, data, err)
			return
		}
		if g == nil {
			t.Fatal("Check returned neither a game nor an error")
		}
		// Every finding points into the file; only a missing keyword has
		// no place to point at.
		lines := lineCount(data)
		for _, f := range g.Findings {
			if f.File != "fuzz.kif" {
				t.Fatalf("finding for another file: %v", f)
			}
			if f.Pos.Line == 0 && f.Code != CodeMissing {
				t.Fatalf("finding without a position: %v", f)
			}
			if f.Pos.Line > lines {
				t.Fatalf("finding on line %d of a %d-line input: %v", f.Pos.Line, lines, f)
			}
		}
		// Printing the cleaned rules and checking them again gives no
		// syntax error. Cleaning may make the text longer (or-expansion)
		// and terms deeper ((not (distinct ?x (f ..)))), so the size limits
		// of the first reading do not apply to the second.
		text := joinRules(g.Rules)
		lim := Limits{MaxRules: DefaultLimits.MaxRules}
		g2, err := Check("printed.kif", []byte(text), lim)
		if err != nil {
			t.Fatalf("printed cleaned rules do not read back: %v\n%s", err, text)
		}
		// Cleaning is idempotent: the cleaned rules are already clean.
		if got := joinRules(g2.Rules); got != text {
			t.Fatalf("cleaning the cleaned rules changed them:\nfirst:  %s\nsecond: %s", text, got)
		}
		// A valid game stays valid.
		if len(g.Findings.Errors()) == 0 && len(g2.Findings.Errors()) > 0 {
			t.Fatalf("valid game invalid once printed: %s\n%s", describe(g2.Findings.Errors()), text)
		}
	})
}

func joinRules(rules []*Rule) string {
	var b strings.Builder
	for _, r := range rules {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}
