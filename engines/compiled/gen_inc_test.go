package compiled

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestVolatileFunctors: the facts no rule of next keeps ((control ?p) of
// tic-tac-toe, a constant made by a move) are volatile, those a frame rule
// keeps (its cells) are not; in the incremental design the unit of legal,
// which reads (true (control ?r)), is plain, and the units that read only
// kept facts (terminal's lines) are counted.
func TestVolatileFunctors(t *testing.T) {
	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	g, err := gdl.Load(b.File, b.Rules)
	require.NoError(t, err)
	v := volatileFunctors(splitNext(g))
	assert.Equal(t, map[fkey]bool{{gdl.Intern("control"), 1}: true}, v)

	src := "(role p)\n(init (s 0))\n(succ 0 1)\n(succ 1 2)\n(legal p go)\n(<= (next (s ?y)) (true (s ?x)) (succ ?x ?y))\n(<= (next done) (does p go) (true (s 1)))\n(<= (next (kept ?x)) (true (kept ?x)))\n(<= terminal (true done))\n(goal p 100)\n"
	g2, err := gdl.Load("t.kif", []byte(src))
	require.NoError(t, err)
	v2 := volatileFunctors(splitNext(g2))
	assert.Equal(t, map[fkey]bool{{gdl.Intern("s"), 1}: true, {gdl.Intern("done"), 0}: true}, v2)

	whole := strings.Replace(src, "(<= (next (kept ?x)) (true (kept ?x)))", "(<= (next ?f) (true ?f) (not (true done)))", 1)
	g3, err := gdl.Load("whole.kif", []byte(whole))
	require.NoError(t, err)
	assert.Empty(t, volatileFunctors(splitNext(g3)), "a rule keeps every fact")

	out, err := generateIncremental(g, nil, defaultSizeLimits, "v", "sha")
	require.NoError(t, err)
	engine := string(out.files["in/engine.go"])
	assert.NotContains(t, engine, "in.Legal =", "legal reads (control ?r): plain")
	assert.Contains(t, engine, "in.Term =", "terminal reads the cells: counted")
	assert.Contains(t, engine, "in.Goal =", "goal reads the cells: counted")
}
