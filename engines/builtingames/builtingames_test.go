package builtingames_test

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
)

func TestAll(t *testing.T) {
	games := builtingames.All()
	require.GreaterOrEqual(t, len(games), 8)
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name
		assert.Equal(t, "builtin/"+g.Name+".kif", g.File)
		assert.NotEmpty(t, g.Rules)
		got, ok := builtingames.Get(g.Name)
		require.True(t, ok, g.Name)
		assert.Equal(t, g, got)
	}
	assert.True(t, sort.StringsAreSorted(names), "sorted by name: %v", names)
	_, ok := builtingames.Get("nosuchgame")
	assert.False(t, ok)
	// All returns a copy.
	games[0].Name = "changed"
	assert.NotEqual(t, "changed", builtingames.All()[0].Name)
}
