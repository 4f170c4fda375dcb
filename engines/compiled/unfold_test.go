package compiled

import (
	"strings"
	"testing"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestUnfoldHelpers checks which relations are unfolded at their uses and
// the rules that result.
func TestUnfoldHelpers(t *testing.T) {
	src := `
(role a) (role b)
(index 1) (index 2)
(init (cell 1 1 a)) (init (control a))
; unfolded: a head of distinct variables, a body over the state and static
; relations without other variables
(<= (empty ?x ?y) (index ?x) (index ?y) (not (true (cell ?x ?y a))) (not (true (cell ?x ?y b))))
(<= (legal ?p (mark ?x ?y)) (true (control ?p)) (empty ?x ?y))
(<= terminal (empty 2 ?y) (not (empty ?y 2)))
; unfolded in a second round, once empty is
(<= (free ?x) (empty ?x 1))
(<= (goal a 25) (free 2))
; kept: ?y is not in the head
(<= (owned ?x) (true (cell ?x ?y a)))
(<= (goal a 100) (owned 1))
; kept: a variable twice in the head
(<= (diagonal ?x ?x) (true (cell ?x ?x a)))
(<= (goal a 0) (diagonal 2 2))
; kept: two rules
(<= (taken ?x) (true (cell ?x 1 a)))
(<= (taken ?x) (true (cell ?x 1 b)))
(<= (goal b 100) (taken 1))
; unfolded, a use of constant arguments
(<= (reach ?x) (true (cell ?x 1 a)))
(<= (goal b 0) (reach 2))
(<= (next (cell ?x ?y ?p)) (does ?p (mark ?x ?y)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (goal a 50) (not (index 3)))
(<= (goal b 50) (not (index 3)))
`
	g, err := gdl.Load("unfold.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// the negated use of empty in terminal keeps it
	if got := rulesText(unfoldHelpers(g)); !strings.Contains(got, "(<= terminal (empty 2 ?y) (not (empty ?y 2)))") || strings.Contains(got, "(reach") {
		t.Fatalf("a negated helper unfolded, or reach not:\n%s", got)
	}
	src = strings.Replace(src, "(<= terminal (empty 2 ?y) (not (empty ?y 2)))", "(<= terminal (empty 2 ?y) (index ?y))", 1)
	g, err = gdl.Load("unfold.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := rulesText(unfoldHelpers(g))
	for _, want := range []string{
		"(<= (legal ?p (mark ?x ?y)) (true (control ?p)) (index ?x) (index ?y) (not (true (cell ?x ?y a))) (not (true (cell ?x ?y b))))",
		"(<= terminal (index 2) (index ?y) (not (true (cell 2 ?y a))) (not (true (cell 2 ?y b))) (index ?y))",
		"(<= (owned ?x) (true (cell ?x ?y a)))",
		"(<= (diagonal ?x ?x) (true (cell ?x ?x a)))",
		"(<= (taken ?x) (true (cell ?x 1 b)))",
		"(<= (goal b 0) (true (cell 2 1 a)))",
		"(<= (goal a 25) (index 2) (index 1) (not (true (cell 2 1 a))) (not (true (cell 2 1 b))))",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("no rule %s in\n%s", want, got)
		}
	}
	for _, gone := range []string{"(empty", "(reach", "(free"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s) is still there:\n%s", gone, got)
		}
	}
}

func rulesText(g *gdl.Game) string {
	var b strings.Builder
	for _, r := range g.Rules {
		b.WriteString(r.String() + "\n")
	}
	return b.String()
}
