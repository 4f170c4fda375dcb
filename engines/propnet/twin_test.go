package propnet_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// twinGames are the built-in games, a few mirrored ones with recursion,
// simultaneous moves, many players and large goal nets (gt_two_thirds),
// and the games of this package's testdata. Short mode leaves out the
// large boards of hex and checkers (half a minute; make test-all runs them).
func twinGames(t *testing.T) map[string]*gdl.Game {
	mirrored := []string{"hex", "checkers", "connectFourSimultaneous", "chineseCheckers4", "knightsTour", "dotsAndBoxes", "gt_two_thirds_2p"}
	if testing.Short() {
		mirrored = mirrored[2:]
	}
	return propnet.LoadGames(t, mirrored...)
}

func trace(t *testing.T, m engines.Machine, seed uint64, n int) []byte {
	var b bytes.Buffer
	err := rollout.Trace(&b, m, propnet.Name, "", seed, n)
	var ge *engines.GameError
	if err != nil && !errors.As(err, &ge) {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFastMatchesFullPass checks the fast mode against its correctness
// twin, the full pass over the same network, and the optimised network
// against the network as grounded: the traces of the same seeded rollouts
// must be identical.
func TestFastMatchesFullPass(t *testing.T) {
	games := twinGames(t)
	deferring := 0 // games with deferred edges at WithDeferFanout(1)
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			fast, err := propnet.New(g)
			require.NoError(t, err)
			read, err := propnet.New(g, propnet.WithLegal(propnet.LegalRead))
			require.NoError(t, err)
			triggers, err := propnet.New(g, propnet.WithLegal(propnet.LegalTriggers))
			require.NoError(t, err)
			unfactored, err := propnet.New(g, propnet.WithoutPartialFactoring(), propnet.WithLegal(propnet.LegalRead))
			require.NoError(t, err)
			slow, err := propnet.New(g, propnet.WithMode(propnet.FullPass))
			require.NoError(t, err)
			raw, err := propnet.New(g, propnet.WithoutOptimisation())
			require.NoError(t, err)
			// Every two-input AND gate's edge from its more read input
			// deferred, when the defaults defer none on these games.
			deferred, err := propnet.New(g, propnet.WithDeferFanout(1))
			require.NoError(t, err)
			assert.Zero(t, fast.Build.Program.DeferredGates)
			if deferred.Build.Program.DeferredGates > 0 {
				deferring++
			}
			for seed := uint64(1); seed <= 2; seed++ {
				want := trace(t, slow, seed, 3)
				for what, m := range map[string]engines.Machine{"fast": fast, "fast, legal moves read": read, "fast, legal moves by triggers": triggers, "fast, without partial factoring": unfactored, "unoptimised": raw, "fast, deferred edges": deferred} {
					mis, err := conform.CompareTraces(bytes.NewReader(want), bytes.NewReader(trace(t, m, seed, 3)))
					require.NoError(t, err)
					if mis != nil {
						t.Fatalf("%s against full pass, seed %d: %v\nmoves:\n%s", what, seed, mis, mis.HistoryText())
					}
				}
			}
			// And state by state over the reachable states of small games.
			for what, m := range map[string]engines.Machine{"fast": fast, "fast, deferred edges": deferred} {
				mis, _, err := conform.Exhaustive(slow, m, 2000)
				require.NoError(t, err)
				if mis != nil {
					t.Fatalf("%s against full pass: %v\nmoves:\n%s", what, mis, mis.HistoryText())
				}
			}
		})
	}
	assert.Greater(t, deferring, len(games)/2, "most games should have two-input AND gates to defer")
}

// walkAgainstReference compares m with the reference prover state by
// state over the whole of a small game g.
func walkAgainstReference(t *testing.T, g *gdl.Game, m engines.Machine) {
	t.Helper()
	ref, err := enginetest.Reference().New(g)
	require.NoError(t, err)
	mis, st, err := conform.Exhaustive(ref, m, 5000)
	require.NoError(t, err)
	if mis != nil {
		t.Fatalf("%v\nmoves:\n%s", mis, mis.HistoryText())
	}
	assert.True(t, st.Complete, "the whole game should be walked")
}

// TestCycles plays games whose recursive rules make cycles in the ground
// network, in the part that is propagated and in the part only the goals
// read, against the prover, state by state.
func TestCycles(t *testing.T) {
	for _, f := range []string{"testdata/reach.kif", "testdata/reach_goal.kif"} {
		t.Run(f, func(t *testing.T) {
			g, err := gdl.LoadFile(f)
			require.NoError(t, err)
			m, err := propnet.New(g)
			require.NoError(t, err)
			assert.Positive(t, m.Build.Program.CyclicComps, "the game should make cyclic components")
			walkAgainstReference(t, g, m)
			for seed := uint64(1); seed <= 3; seed++ {
				mis, err := conform.TraceCheck(enginetest.Reference(), engine(t), g, seed, 5)
				require.NoError(t, err)
				if mis != nil {
					t.Fatalf("seed %d: %v\nmoves:\n%s", seed, mis, mis.HistoryText())
				}
			}
		})
	}
}

// TestDeferredEdges builds a game shaped as pancakes88 (each move input
// read by one two-input AND gate per order of the stack) with the deferral
// bound at and just past the inputs' readers, and plays the deferred
// machine against the reference state by state and against its full-pass
// twin by traces.
func TestDeferredEdges(t *testing.T) {
	g, err := gdl.LoadFile("testdata/flips.kif")
	require.NoError(t, err)
	m, err := propnet.New(g, propnet.WithDeferFanout(6))
	require.NoError(t, err)
	assert.Equal(t, 18, m.Build.Program.DeferredGates, "six gates for each of the three moves")
	assert.Equal(t, 3, m.Build.Program.DeferredSources)
	none, err := propnet.New(g, propnet.WithDeferFanout(7))
	require.NoError(t, err)
	assert.Zero(t, none.Build.Program.DeferredGates)

	walkAgainstReference(t, g, m)
	slow, err := propnet.New(g, propnet.WithMode(propnet.FullPass))
	require.NoError(t, err)
	for seed := uint64(1); seed <= 4; seed++ {
		mis, err := conform.CompareTraces(bytes.NewReader(trace(t, slow, seed, 20)), bytes.NewReader(trace(t, m, seed, 20)))
		require.NoError(t, err)
		if mis != nil {
			t.Fatalf("seed %d: %v\nmoves:\n%s", seed, mis, mis.HistoryText())
		}
	}

	// With the defaults, the layout choice estimates the network with and
	// without deferred edges; on pancakes6 (six inputs read by 720 gates
	// each) it keeps them.
	p6, err := propnet.New(loadBase(t, "pancakes6"))
	require.NoError(t, err)
	assert.Equal(t, 4320, p6.Build.Program.DeferredGates)
	assert.Contains(t, p6.Build.LayoutChoice, "without deferred edges")
	assert.True(t, strings.HasPrefix(p6.Build.LayoutChoice, "kept: legal moves read when asked ("), p6.Build.LayoutChoice)
	// One rollout at a time (the deferred gates numbered by their arming
	// base, the next state read from the touched words) plays what the
	// machine's methods play.
	p6e := engines.Engine{Name: propnet.Name, New: func(g *gdl.Game) (engines.Machine, error) {
		return propnet.New(g, propnet.WithLanes(propnet.LanesOff))
	}}
	require.NoError(t, conform.RollerCheck(p6e, loadBase(t, "pancakes6"), 2, 300))
	if testing.Short() {
		return
	}
	// racer4 (over a million links, past the legal layout's choice) would
	// defer 319,780 gates, whose other inputs change more often than their
	// sources: 5x slower. The estimate leaves them out.
	r4, err := propnet.New(loadBase(t, "racer4"))
	require.NoError(t, err)
	assert.Zero(t, r4.Build.Program.DeferredGates)
	assert.True(t, strings.HasPrefix(r4.Build.LayoutChoice, "kept: legal moves kept by triggers, without deferred edges ("), r4.Build.LayoutChoice)
}

// TestBudgets checks that a build over its budget is refused early with
// its figures.
func TestBudgets(t *testing.T) {
	g, err := gdl.Load("builtin/breakthrough.kif", builtinRules(t, "breakthrough"))
	require.NoError(t, err)
	for _, tt := range []struct {
		name     string
		opt      propnet.Option
		wantKind propnet.RefusalKind
		wantText string
	}{
		{"time", propnet.WithMaxTime(time.Nanosecond), propnet.RefuseTime, "time budget"},
		{"memory", propnet.WithMaxMemory(1), propnet.RefuseSize, "too large to ground"},
		{"size", propnet.WithMaxSize(100), propnet.RefuseSize, "over the size budget of 100"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := propnet.New(g, tt.opt)
			var ref *propnet.RefusalError
			require.ErrorAs(t, err, &ref)
			assert.Equal(t, tt.wantKind, ref.Kind)
			assert.Contains(t, err.Error(), tt.wantText)
			assert.Regexp(t, `\d+ atoms, \d+ rule instances`, err.Error())
		})
	}
	_, err = propnet.New(g)
	assert.NoError(t, err, "the defaults build the game")
}

func builtinRules(t *testing.T, name string) []byte {
	b, ok := builtingames.Get(name)
	require.True(t, ok)
	return b.Rules
}

// TestGroundingSplitsChains builds games whose rules join long chains of
// variables (four players' guesses summed in a chain; a six-argument move
// projected onto two): variable elimination must keep their grounding
// small.
func TestGroundingSplitsChains(t *testing.T) {
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	for _, name := range []string{"gt_two_thirds_4p", "amazons"} {
		t.Run(name, func(t *testing.T) {
			g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif"))
			require.NoError(t, err)
			m, err := propnet.New(g, propnet.WithMaxTime(30*time.Second))
			require.NoError(t, err)
			assert.Less(t, m.Build.Ground.Instances, 3_000_000)
		})
	}
}
