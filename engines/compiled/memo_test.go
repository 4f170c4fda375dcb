package compiled

import (
	"regexp"
	"strings"
	"testing"
)

// memoGame builds terms in its rules from one source (a fact, a move),
// from two (a move and a variable, a fact and a static relation's row, two
// facts), from three facts and from four (TestMemo, TestMemoTraces).
const memoGame = `
(role x) (role o)
(index 1) (index 2)
(adj 1 2) (adj 2 1)
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
(init (control x)) (init (pick 1)) (init (step 1))
(<= (legal ?p (mark ?m ?n)) (true (control ?p)) (true (cell ?m ?n b)))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (cell ?m ?n ?p)) (does ?p (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
(<= (next (cell ?m ?n b)) (true (cell ?m ?n b)) (not (marked ?m ?n)))
(<= (marked ?m ?n) (does ?p (mark ?m ?n)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= (next (pick ?k)) (true (pick ?j)) (succ ?j ?k) (index ?k))
(<= (next (pick ?j)) (true (pick ?j)) (true (control o)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= (next (seen ?m ?p)) (true (pick ?m)) (true (control ?p)))
(<= (next (trio ?a ?b ?c)) (true (pick ?a)) (true (control ?b)) (true (step ?c)))
(<= (next (quad ?a ?b ?c ?d)) (true (pick ?a)) (true (control ?b)) (true (step ?c)) (true (cell ?d 1 x)))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (distinct ?x b))
(<= (beside ?x) (true (cell ?m 1 ?x)) (distinct ?x b) (adj ?m ?k) (not (true (cell ?k 1 ?x))))
(<= terminal (row ?m ?x))
(<= terminal (beside o))
(<= terminal (true (step 6)))
(<= terminal (not open))
(<= open (true (cell ?m ?n b)))
(<= (goal x 100) (won x))
(<= (goal x 0) (not (won x)))
(<= (goal o 100) (won o))
(<= (goal o 0) (not (won o)))
(<= (won ?p) (row ?m ?p))
(<= (won ?p) (beside ?p))
`

// TestMemo: a term that a rule builds from the arguments of one true fact
// (the row: (cell ?m 2 ?x) from the fact (cell ?m 1 ?x)) or of one move is
// read from a memo by that fact's or move's id instead of the store's hash
// table in every state; from a move and the value of a variable (the
// player's mark), or a fact and a static relation's row (beside's (cell ?k
// 1 ?x), negated), by both; from two facts or more, looked up as before
// (the pairs of facts that meet are more than a memo keeps).
func TestMemo(t *testing.T) {
	code := bottomUpSource(t, memoGame)
	for _, want := range []struct{ what, re string }{
		{"row: by the fact", `M\d+\.Put\(w\d+, S\.Lookup3\(`},
		{"a move's next cell: by the move", `M\d+\.Put\(m\d+, S\.Lookup3\(`},
		{"a move's mark: by the move and the player", `M\d+\.Put\(m\d+, v\d+, S\.Intern3\(`},
		{"seen: looked up (two facts)", `\.Add1\(S\.Intern2\(`},
		{"trio: looked up", `\.Add1\(S\.Intern3\(`},
		{"beside: by a fact and a static row", `M\d+\.Put\((w\d+, row\d+|row\d+, w\d+), S\.Lookup3\(`},
		{"quad: looked up", `\.Add1\(S\.Intern4\(`},
	} {
		if !regexp.MustCompile(want.re).MatchString(code) {
			t.Errorf("%s: no %s in\n%s", want.what, want.re, code)
		}
	}
	for _, line := range strings.Split(code, "\n") {
		if strings.Contains(line, ".Put(") && !strings.Contains(line, "S.Lookup") && !strings.Contains(line, "S.Intern") {
			t.Errorf("a memo falls back to no lookup: %s", line)
		}
	}
}
