package enginetest

import (
	"fmt"
	"strings"
)

// SumsGame is a one-player game of ten steps whose static relation sum
// holds every sum x+y=z of numbers up to max (recursive over succ:
// (max+1)(max+2)/2 tuples, slow to compute naively) and whose per-state
// relation total holds one tuple a state, for tests of size estimates.
func SumsGame(max int) []byte {
	var b strings.Builder
	b.WriteString(`(role p)
(num 0)
(<= (num ?y) (succ ?x ?y))
(<= (sum ?x 0 ?x) (num ?x))
(<= (sum ?x ?y ?z) (succ ?ym ?y) (sum ?x ?ym ?zm) (succ ?zm ?z))
(init (a 0))
(init (b 3))
(<= (total ?z) (true (a ?x)) (true (b ?y)) (sum ?x ?y ?z))
(<= (legal p go) (true (a ?x)))
(<= (next (a ?y)) (true (a ?x)) (succ ?x ?y))
(<= (next (b ?y)) (true (b ?y)))
(<= terminal (true (a 10)))
(<= (goal p 100) (total 13))
(<= (goal p 0) (not (total 13)))
`)
	for i := range max {
		fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
	}
	return []byte(b.String())
}
