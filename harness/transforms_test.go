package harness

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// A run of a transform plays the rewritten rules (an external engine gets
// them as its game file) under the original game's key; a transform that
// fails is an error row of that run, and the engine is not run.
func TestCampaignTransforms(t *testing.T) {
	game, err := BuiltinGame("tictactoe")
	require.NoError(t, err)
	bad := &Game{Key: "LOCAL/bad/hash", File: "bad.kif", Rules: []byte("(role r)\n")}
	seen := t.TempDir()
	e := scriptEngine(t, "copier", `cp "$GAME_FILE" `+seen+`/"$(basename "$(dirname "$GAME_FILE")")".kif; `+fastBody)
	o := Options{Seconds: 1, Seed: 1, Dims: []Dims{{}, {Transform: "rename", TransformSeed: 3}}}
	c, w, _ := campaign(t, []*Game{game, bad}, []*Engine{e}, o)
	c.SkipCompat = true
	_, err = c.Execute(context.Background())
	require.NoError(t, err)
	require.Len(t, w.rows, 4)
	var files [][]byte
	ents, err := os.ReadDir(seen)
	require.NoError(t, err)
	for _, f := range ents {
		b, err := os.ReadFile(filepath.Join(seen, f.Name()))
		require.NoError(t, err)
		files = append(files, b)
	}
	for _, r := range w.rows {
		switch {
		case r.GameKey == game.Key:
			assert.Equal(t, results.StatusOK, r.Status, r.ErrorMessage)
		case r.Transform == "rename":
			assert.Equal(t, results.StatusError, r.Status, "the rewrite of an invalid game fails")
			assert.Contains(t, r.ErrorMessage, "transform rename (seed 3) of LOCAL/bad/hash")
		}
	}
	var original, renamed int
	for _, b := range files {
		if string(b) == string(game.Rules) {
			original++
		} else if string(b) != string(bad.Rules) {
			renamed++
			assert.NotContains(t, string(b), "xplayer", "renamed")
		}
	}
	assert.Equal(t, 1, original, "the plain run got the rules as written")
	assert.Equal(t, 1, renamed, "the rename run got the rewrite")
}
