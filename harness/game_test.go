package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// The harness's game of a selected game keeps its key, its name for
// messages and its rules; NewGames keeps the selection's order.
func TestNewGames(t *testing.T) {
	selected, err := gamerepo.Select("builtin:tictactoe,builtin:hex")
	require.NoError(t, err)
	require.Len(t, selected, 2)
	games := NewGames(selected)
	require.Len(t, games, 2)
	for i, g := range games {
		assert.Equal(t, selected[i].Key, g.Key)
		assert.Equal(t, selected[i].File, g.File)
		assert.Equal(t, selected[i].Rules, g.Rules)
	}
	assert.Nil(t, NewGames(nil), "no games")
}

func TestBuiltinGame(t *testing.T) {
	tic, ok := gamerepo.Builtin("tictactoe")
	require.True(t, ok)
	tests := []struct {
		name    string
		game    string
		want    *Game
		wantErr string
	}{
		{name: "one game", game: "tictactoe", want: &Game{Key: tic.Key, File: tic.File, Rules: tic.Rules}},
		{name: "no such game", game: "nosuchgame", wantErr: "no built-in game matches nosuchgame"},
		{name: "a glob of many", game: "t*", wantErr: "built-in games, not one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := BuiltinGame(tt.game)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
