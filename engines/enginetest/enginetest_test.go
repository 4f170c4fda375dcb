package enginetest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProverConformance runs the suite on the reference against itself (in
// short mode on its short list of games).
func TestProverConformance(t *testing.T) {
	Suite(t, Reference())
}

// TestShortSuiteGamesAreSuiteGames: short mode runs a subset of the suite's
// mirrored games, not other games (a misspelt name would be skipped).
func TestShortSuiteGamesAreSuiteGames(t *testing.T) {
	require.NotEmpty(t, ShortSuiteGames)
	for _, p := range ShortSuiteGames {
		assert.Contains(t, SuiteGames, p)
	}
}
