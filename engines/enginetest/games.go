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

// LooseMagicGame is a one-player game whose relation ahead is asked with
// its first argument bound from legal, after (not (blocked ?x)), and from
// blocked's own rule: with magic sets' copies shared by call sites,
// ahead's magic relation reads (not (blocked ?x)) and blocked's copy
// reads ahead's, a cycle through a negation that the game itself does not
// have (slaughter's threatened_with_capture and blocks_bishop_threat). The
// player is blocked by a wall ahead at first and stays, which removes it.
const LooseMagicGame = `(role r)
(init (at 1))
(init (wall 4))
(init (road 2)) (init (road 3)) (init (road 4)) (init (road 5))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= (ahead ?x ?y) (succ ?x ?y) (true (road ?y)))
(<= (ahead ?x ?z) (succ ?x ?y) (true (road ?y)) (ahead ?y ?z))
(<= (blocked ?x) (true (at ?x)) (ahead ?x ?y) (true (wall ?y)))
(<= (legal r (go ?y)) (true (at ?x)) (not (blocked ?x)) (ahead ?x ?y))
(<= (legal r stay) (true (at ?x)) (blocked ?x))
(<= (next (at ?y)) (does r (go ?y)))
(<= (next (at ?x)) (does r stay) (true (at ?x)))
(<= (next (wall ?w)) (true (wall ?w)) (not (does r stay)))
(<= (next (road ?y)) (true (road ?y)) (not (does r (go ?y))))
(<= terminal (true (at 5)))
(<= (goal r 100) (true (at 5)))
(<= (goal r 0) (not (true (at 5))))
`
