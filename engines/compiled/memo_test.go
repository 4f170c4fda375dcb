package compiled

import (
	"strings"
	"testing"
)

// TestMemoBySource: a term that a rule builds from the arguments of one
// true fact (ticTacToe's rows: (cell ?m 2 ?x) from the fact (cell ?m 1
// ?x)) or of one move is read from a memo by that fact's or move's id
// instead of the store's hash table in every state; a term whose
// variables come from two facts is looked up as before.
func TestMemoBySource(t *testing.T) {
	src := `
(role x) (role o)
(index 1) (index 2)
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
(init (control x)) (init (pick 1))
(<= (legal ?p (mark ?m ?n)) (true (control ?p)) (true (cell ?m ?n b)))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (cell ?m ?n ?p)) (does ?p (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
(<= (next (cell ?m ?n b)) (true (cell ?m ?n b)) (not (marked ?m ?n)))
(<= (marked ?m ?n) (does ?p (mark ?m ?n)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= (next (pick ?k)) (true (pick ?j)) (index ?k))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (distinct ?x b))
(<= (next (seen ?m ?p)) (true (pick ?m)) (true (control ?p)))
(<= terminal (row ?m ?x))
(<= terminal (not (open)))
(<= open (true (cell ?m ?n b)))
(goal x 50) (goal o 50)
`
	code := bottomUpSource(t, src)
	// the row: (cell ?m 2 ?x) by the id of the fact (cell ?m 1 ?x); the
	// move's next cell: (cell ?m ?n b) by the id of the move (mark ?m ?n)
	for _, want := range []string{".Put(w", ".Put(m"} {
		if !strings.Contains(code, want) {
			t.Errorf("no memo %q:\n%s", want, code)
		}
	}
	// (seen ?m ?p): ?m from one fact, ?p from another
	if !strings.Contains(code, ".Add1(S.Intern2(") {
		t.Errorf("a term read from two facts is not looked up in the store:\n%s", code)
	}
	for _, line := range strings.Split(code, "\n") {
		if strings.Contains(line, ".Put(") && !strings.Contains(line, "S.Lookup") && !strings.Contains(line, "S.Intern") {
			t.Errorf("a memo falls back to no lookup: %s", line)
		}
	}
}
