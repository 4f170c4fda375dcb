package transform

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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
// shows the transformed game. It reports whether the comparison stopped at
// a resource limit (no answer, after what agreed before it).
func requireEquivalent(t testing.TB, e engines.Engine, g namedGame, res *Result, seed uint64, rollouts int) (limited bool) {
	t.Helper()
	m, err := equivalent(e, g.game, res, seed, rollouts)
	var le *conform.LimitError
	if errors.As(err, &le) {
		return true // a resource limit is no answer
	}
	require.NoError(t, err)
	if m != nil {
		t.Fatalf("%s on %s transformed by %v (seed %d): %v\nhistory:\n%s\nreproduce: gdlperf transform %s --seed %d %s", e.Name, g.name, res.Names, res.Seed, m, m.HistoryText(), joinNames(res.Names), res.Seed, g.name)
	}
	return false
}

// timeLimited is e whose machines answer a resource limit error to Legal
// once d has passed since their first Legal (there the trace line keeps the
// state, which a comparison needs to call it a limit), so that a slow game (the prover on
// amazons under adversarial) ends as "no answer" after d.
func timeLimited(e engines.Engine, d time.Duration) engines.Engine {
	return engines.Engine{Name: e.Name, Version: e.Version, New: func(g *gdl.Game) (engines.Machine, error) {
		m, err := e.New(g)
		if err != nil {
			return nil, err
		}
		return &limitedMachine{Machine: m, limit: d}, nil
	}}
}

type limitedMachine struct {
	engines.Machine
	limit    time.Duration
	deadline time.Time // set by the first question
}

func (l *limitedMachine) over() error {
	if l.deadline.IsZero() {
		l.deadline = time.Now().Add(l.limit)
	}
	if time.Now().After(l.deadline) {
		return engines.Errorf(engines.ResourceLimit, "the test's time limit passed")
	}
	return nil
}

func (l *limitedMachine) Legal(s engines.State, role int) ([]engines.Move, error) {
	if err := l.over(); err != nil {
		return nil, err
	}
	return l.Machine.Legal(s, role)
}

func joinNames(n []string) string { return strings.Join(n, ",") }

func traceOf(w *bytes.Buffer, m engines.Machine, seed uint64, n int) error {
	return rollout.Trace(w, m, "prover", "test", seed, n)
}
