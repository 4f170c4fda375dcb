package compiled

import (
	"strings"
	"testing"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestStaticRun: a run of static literals after a literal over the state
// (hex's legal moves: the player in control, then every cell of the board)
// is read from one static relation of their join, computed at start-up, so
// the cells' terms are its auxiliary columns instead of lookups in every
// state; a run that shares a variable with the literals before it is left
// as it is.
func TestStaticRun(t *testing.T) {
	src := `
(role a) (role b)
(index 1) (index 2) (index 3)
(init (control a))
(<= (legal ?p (place ?x ?y)) (true (control ?p)) (index ?x) (index ?y) (not (true (cell ?x ?y a))) (not (true (cell ?x ?y b))))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (cell ?x ?y ?p)) (does ?p (place ?x ?y)))
(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= terminal (true (cell 3 3 ?p)))
(goal a 50) (goal b 50)
`
	// the legal rule's two cells are auxiliary columns: the rules look
	// nothing up
	if code := bottomUpSource(t, src); strings.Contains(code, "S.Lookup") || !strings.Contains(code, "!E.Holds(A") {
		t.Errorf("the legal rule looks its cells up in every state:\n%s", code)
	}
	shared := strings.Replace(src, "(index ?x) (index ?y)", "(side ?p ?x) (index ?y)", 1) + "(side a 1) (side a 2) (side b 2) (side b 3)\n"
	if code := bottomUpSource(t, shared); !strings.Contains(code, "S.Lookup3(") {
		t.Errorf("a run that shares ?p with the literal before it is joined at start-up:\n%s", code)
	}
}

// TestAuxFromMatchedRow: a term whose variables a static relation's row
// holds, some bound before and matched by the row (knightsTour's moves:
// the knight's square from the state, its jumps from a static relation
// found by that square), is an auxiliary column of that relation rather
// than interned in every state.
func TestAuxFromMatchedRow(t *testing.T) {
	src := `
(role r)
(jump 1 1 2 3) (jump 1 1 3 2) (jump 2 3 1 1) (jump 3 2 1 1)
(init (at 1 1))
(<= (legal r (move ?x ?y ?u ?v)) (true (at ?x ?y)) (jump ?x ?y ?u ?v))
(<= (next (at ?u ?v)) (does r (move ?x ?y ?u ?v)))
(<= terminal (true (at 3 2)))
(goal r 100)
`
	code := bottomUpSource(t, src)
	if n := strings.Count(code, "S.Intern4("); n == 0 || n != strings.Count(code, "] = S.Intern4(") {
		t.Errorf("the legal rule interns its move in every state:\n%s", code)
	}
}

// bottomUpSource returns the rules' code of the bottom-up design of the
// game src.
func bottomUpSource(t *testing.T, src string) string {
	t.Helper()
	g, err := gdl.Load("game.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate(g, "test", "sha")
	if err != nil {
		t.Fatal(err)
	}
	return string(out.files["bu/rules0.go"])
}
