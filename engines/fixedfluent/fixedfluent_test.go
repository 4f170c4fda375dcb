package fixedfluent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/fixedfluent"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// maze is a one-player game whose walls never change: their only next
// rule is a frame rule. EXTRA is replaced by each test's extra rules.
const maze = `
(role robot)
(init (at 1))
(init (wall 2))
(init (wall 4))
(init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal robot (go ?y)) (true (at ?x)) (succ ?x ?y) (not (true (wall ?y))))
(legal robot stay)
(<= (next (at ?y)) (does robot (go ?y)))
(<= (next (at ?x)) (does robot stay) (true (at ?x)))
(<= (next (wall ?x)) (true (wall ?x)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 4)))
(goal robot 100)
`

func load(t *testing.T, src string) *gdl.Game {
	t.Helper()
	g, err := gdl.Load("maze.kif", []byte(src))
	require.NoError(t, err)
	require.Empty(t, g.Findings.Errors())
	return g
}

func texts(rules []*gdl.Rule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.String()
	}
	return out
}

// The walls are read from a static relation of their init facts; the
// frame rule stays (the walls stay in every state), and the other
// fluents, which change, are read from true as before.
func TestRewriteReadsFixedFluentsFromInit(t *testing.T) {
	g := load(t, maze)
	rw := fixedfluent.Rewrite(g.Rules)
	require.NotNil(t, rw)
	got := texts(rw)
	assert.Contains(t, got, "(<= (legal robot (go ?y)) (true (at ?x)) (succ ?x ?y) (not (#fixed_wall_1 ?y)))")
	assert.Contains(t, got, "(<= (next (wall ?x)) (true (wall ?x)))")
	assert.Contains(t, got, "(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))")
	assert.Equal(t, "(<= (#fixed_wall_1 ?v0) (init (wall ?v0)))", got[len(got)-1])
	assert.Len(t, rw, len(g.Rules)+1)
	a := gdl.Analyse(rw)
	fixed := a.Relations[gdl.Intern("#fixed_wall_1")]
	require.NotNil(t, fixed)
	assert.False(t, fixed.UsesState, "the fixed relation is static")
	assert.False(t, a.Relations[gdl.SymLegal].UsesMoves)
}

// A fluent is fixed only when frame rules are its only next rules, with
// distinct variables; a next rule with a variable head may make any
// fluent, so nothing is fixed.
func TestRewriteLeavesChangingFluents(t *testing.T) {
	for name, extra := range map[string]string{
		"another next rule": `(<= (next (wall 3)) (does robot stay))`,
		"a variable head":   `(<= (next ?x) (true (at 9)) (true ?x))`,
	} {
		g := load(t, maze+extra)
		assert.Nil(t, fixedfluent.Rewrite(g.Rules), name)
	}
	// (next (pair ?x ?x)) copies only the pairs of equal arguments: not
	// a frame rule, and pair is the only other fluent
	g := load(t, `
(role robot)
(init (pair 1 1))
(init (pair 1 2))
(<= (next (pair ?x ?x)) (true (pair ?x ?x)))
(legal robot stay)
(<= terminal (true (pair 1 2)))
(goal robot 100)
`)
	assert.Nil(t, fixedfluent.Rewrite(g.Rules))
	// no fluent at all
	g = load(t, "(role robot) (legal robot stay) (terminal) (goal robot 100)")
	assert.Nil(t, fixedfluent.Rewrite(g.Rules))
}
