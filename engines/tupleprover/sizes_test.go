package tupleprover

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestMeasureSizes: on tic-tac-toe, the static relations are measured
// exactly and the state's relations averaged over the states of random
// steps; a work budget too small for the static relations leaves them
// (and every state) unmeasured, without an error.
func TestMeasureSizes(t *testing.T) {
	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	g, err := gdl.Load(b.File, b.Rules)
	require.NoError(t, err)
	sz, err := MeasureSizes(g, 1_000_000, time.Minute)
	require.NoError(t, err)
	assert.True(t, sz.Statics)
	assert.Greater(t, sz.States, 20, "the random steps play several rollouts")
	cell := sz.True[Functor{gdl.Intern("cell"), 3}]
	assert.Equal(t, 9.0, cell.N, "every state has nine cells")
	assert.Equal(t, []float64{3, 3}, cell.Dist[:2], "three rows and three columns")
	assert.Equal(t, 1.0, sz.True[Functor{gdl.Intern("control"), 1}].N)
	assert.Equal(t, 2.0, sz.Rels[gdl.Intern("role")].N, "a static relation, exactly")
	legal := sz.Rels[gdl.Intern("legal")]
	assert.Greater(t, legal.N, 2.0)
	assert.Less(t, legal.N, 10.0, "at most nine marks and a noop")

	sums, err := gdl.Load("sums.kif", enginetest.SumsGame(300))
	require.NoError(t, err)
	all, err := MeasureSizes(sums, 10_000_000, time.Minute)
	require.NoError(t, err)
	assert.True(t, all.Statics)
	assert.Equal(t, 301.0*302/2, all.Rels[gdl.Intern("sum")].N, "the sums of two numbers up to 300")
	assert.Equal(t, 1.0, all.Rels[gdl.Intern("total")].N)
	assert.Equal(t, 1.0, all.True[Functor{gdl.Intern("a"), 1}].N)
	few, err := MeasureSizes(sums, 1000, time.Minute)
	require.NoError(t, err, "a limit is not an error")
	assert.False(t, few.Statics)
	assert.Zero(t, few.States)
	assert.NotContains(t, few.Rels, gdl.Intern("sum"), "a static relation not finished is not measured")
}
