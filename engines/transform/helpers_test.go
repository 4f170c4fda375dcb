package transform

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

// checkedTransforms are the transforms the tests run on every game, with
// every seed (the seed only matters to shuffle and rename).
var checkedTransforms = []string{Shuffle, Adversarial, Rename, Reorder, Deor, Inline, Dedupe, Condense, Optimise}

type namedGame struct {
	name string
	src  []byte
	game *gdl.Game
}

func builtinGames(t testing.TB) []namedGame {
	t.Helper()
	var out []namedGame
	for _, b := range builtingames.All() {
		g, err := gdl.Load(b.File, b.Rules)
		require.NoError(t, err)
		out = append(out, namedGame{b.Name, b.Rules, g})
	}
	require.Len(t, out, 8)
	return out
}

func lookup(t testing.TB, name string) engines.Engine {
	t.Helper()
	e, ok := engines.Lookup(name)
	require.True(t, ok, name)
	return e
}

// tuple is the tuple prover (registered by its package's init).
var _ = tupleprover.Name

// equivalent plays the engine on the original game and on the transformed
// one and returns the first difference: for a chain without rename both
// traces of seed and rollouts must be equal; with rename, the transformed
// game's trace, mapped back, must be what the engine plays on the original
// along the same joint moves (Follow).
func equivalent(e engines.Engine, orig *gdl.Game, res *Result, seed uint64, rollouts int) (*conform.Mismatch, error) {
	om, err := e.New(orig)
	if err != nil {
		return nil, fmt.Errorf("original: %w", err)
	}
	tm, err := e.New(res.Game)
	if err != nil {
		return &conform.Mismatch{Method: "transforms", Diffs: []string{"the engine cannot build the transformed game: " + err.Error()}}, nil
	}
	var tb bytes.Buffer
	rollout.Trace(&tb, tm, e.Name, e.Version, seed, rollouts)
	if res.Renaming == nil {
		var ob bytes.Buffer
		rollout.Trace(&ob, om, e.Name, e.Version, seed, rollouts)
		return conform.CompareTraces(&ob, &tb)
	}
	var mapped, followed bytes.Buffer
	if err := MapTrace(&tb, &mapped, res.Back); err != nil {
		return nil, err
	}
	if err := Follow(&followed, om, bytes.NewReader(mapped.Bytes())); err != nil {
		return nil, err
	}
	return conform.CompareTraces(&followed, &mapped)
}

// requireEquivalent fails the test with the mismatch and the command that
// shows the transformed game.
func requireEquivalent(t testing.TB, e engines.Engine, g namedGame, res *Result, seed uint64, rollouts int) {
	t.Helper()
	m, err := equivalent(e, g.game, res, seed, rollouts)
	var le *conform.LimitError
	if errors.As(err, &le) {
		return // a resource limit is no answer
	}
	require.NoError(t, err)
	if m != nil {
		t.Fatalf("%s on %s transformed by %v (seed %d): %v\nhistory:\n%s\nreproduce: gdlperf transform %s --seed %d %s", e.Name, g.name, res.Names, res.Seed, m, m.HistoryText(), joinNames(res.Names), res.Seed, g.name)
	}
}

func joinNames(n []string) string { return strings.Join(n, ",") }

func traceOf(w *bytes.Buffer, m engines.Machine, seed uint64, n int) error {
	return rollout.Trace(w, m, "prover", "test", seed, n)
}
