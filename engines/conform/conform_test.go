package conform_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// The checks are tested on the test kit's broken and limited engines.

func builtin(t *testing.T, name string) *gdl.Game {
	t.Helper()
	b, ok := builtingames.Get(name)
	require.True(t, ok)
	g, err := gdl.Load(b.File, b.Rules)
	require.NoError(t, err)
	return g
}

// counter is a one-player game of 80 steps with two moves at each.
func counter(t *testing.T) *gdl.Game {
	var b strings.Builder
	b.WriteString("(role r)\n(init (step 0))\n(legal r a)\n(legal r b)\n")
	b.WriteString("(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n")
	b.WriteString("(<= (next (took ?x)) (does r ?x))\n")
	b.WriteString("(<= terminal (true (step 80)))\n(goal r 100)\n")
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
	}
	g, err := gdl.Load("counter.kif", []byte(b.String()))
	require.NoError(t, err)
	return g
}

// replay plays a mismatch's history on two machines and compares the state
// it reaches, the way a user would reproduce a report.
func replay(t *testing.T, m *conform.Mismatch, ref, got engines.Machine) (differs bool) {
	t.Helper()
	rs, err := ref.Initial()
	require.NoError(t, err)
	gs, err := got.Initial()
	require.NoError(t, err)
	for _, joint := range m.History {
		rj := make([]engines.Move, len(joint))
		gj := make([]engines.Move, len(joint))
		for r, text := range joint {
			rl, err := ref.Legal(rs, r)
			require.NoError(t, err)
			gl, err := got.Legal(gs, r)
			require.NoError(t, err)
			rj[r] = conform.MoveTexts(ref, rl)[text]
			gj[r] = conform.MoveTexts(got, gl)[text]
		}
		rs, err = ref.Next(rs, rj)
		require.NoError(t, err)
		gs, err = got.Next(gs, gj)
		require.NoError(t, err)
	}
	if len(conform.SetDiff("state", ref.StateFacts(rs), got.StateFacts(gs))) > 0 {
		return true
	}
	rt, _ := ref.Terminal(rs)
	gt, _ := got.Terminal(gs)
	if rt != gt {
		return true
	}
	if rt {
		rg, _ := ref.Goals(rs)
		gg, _ := got.Goals(gs)
		return fmt.Sprint(rg) != fmt.Sprint(gg)
	}
	for r := range ref.Roles() {
		rl, _ := ref.Legal(rs, r)
		gl, _ := got.Legal(gs, r)
		if len(conform.SetDiff("legal", conform.Keys(conform.MoveTexts(ref, rl)), conform.Keys(conform.MoveTexts(got, gl)))) > 0 {
			return true
		}
	}
	return false
}

func TestBrokenEnginesAreCaught(t *testing.T) {
	ref := enginetest.Reference()
	ttt := builtin(t, "tictactoe")
	long := counter(t)
	for _, kind := range enginetest.BrokenKinds {
		bad := enginetest.BrokenEngine(kind, ref)
		game := ttt
		if kind == enginetest.LateWrong {
			game = long
		}
		t.Run(kind+"/trace", func(t *testing.T) {
			m, err := conform.TraceCheck(ref, bad, game, 1, 3)
			require.NoError(t, err)
			require.NotNil(t, m, "not caught")
			rm, _ := ref.New(game)
			bm, _ := bad.New(game)
			assert.True(t, replay(t, m, rm, bm), "the reported moves reproduce the difference: %v", m)
			if kind == enginetest.LateWrong {
				assert.GreaterOrEqual(t, m.Step, 50)
			}
		})
		t.Run(kind+"/exhaustive", func(t *testing.T) {
			rm, _ := ref.New(game)
			bm, _ := bad.New(game)
			m, _, err := conform.Exhaustive(rm, bm, 10_000)
			require.NoError(t, err)
			require.NotNil(t, m, "not caught")
			rm2, _ := ref.New(game)
			bm2, _ := bad.New(game)
			assert.True(t, replay(t, m, rm2, bm2), "the reported moves reproduce the difference: %v", m)
		})
	}
	// The metamorphic check catches answers that depend on names: the
	// broken engine drops the move whose name sorts first, which is
	// another move once the names change.
	t.Run(enginetest.DropLegal+"/metamorphic", func(t *testing.T) {
		m, err := conform.Metamorphic(enginetest.BrokenEngine(enginetest.DropLegal, ref), builtin(t, "rockpaperscissors"), 5, 3)
		require.NoError(t, err)
		require.NotNil(t, m, "not caught")
		assert.Equal(t, "metamorphic", m.Method)
	})
}

func TestCompareTracesReportsWhatDiffers(t *testing.T) {
	ref := enginetest.Reference()
	m, err := conform.TraceCheck(ref, enginetest.BrokenEngine(enginetest.WrongGoal, ref), builtin(t, "tictactoe"), 2, 2)
	require.NoError(t, err)
	require.NotNil(t, m)
	assert.Contains(t, m.Error(), "goals: reference")
	assert.NotEmpty(t, m.History)
	m, err = conform.TraceCheck(ref, enginetest.BrokenEngine(enginetest.KeepFact, ref), builtin(t, "tictactoe"), 2, 2)
	require.NoError(t, err)
	require.NotNil(t, m)
	assert.Contains(t, m.Error(), "state extra (cell")
	assert.Equal(t, 1, m.Step, "the first state after a move differs")
}

func TestProverAgreesWithItselfRenamed(t *testing.T) {
	for _, b := range builtingames.All() {
		t.Run(b.Name, func(t *testing.T) {
			g, err := gdl.Load(b.File, b.Rules)
			require.NoError(t, err)
			m, err := conform.Metamorphic(enginetest.Reference(), g, 3, 5)
			require.NoError(t, err)
			assert.Nil(t, m)
			text, rn := conform.Rename(g, 3)
			assert.NotContains(t, text, "(role xplayer)")
			for orig, w := range rn.To {
				assert.Equal(t, orig, rn.From[w])
			}
		})
	}
}

func TestExhaustiveTicTacToe(t *testing.T) {
	ref := enginetest.Reference()
	g := builtin(t, "tictactoe")
	a, _ := ref.New(g)
	b, _ := ref.New(g)
	m, st, err := conform.Exhaustive(a, b, 10_000)
	require.NoError(t, err)
	assert.Nil(t, m)
	assert.True(t, st.Complete)
	assert.Equal(t, 5478, st.States, "tic-tac-toe has 5478 reachable positions")
}

// skewedRoller is a machine whose own rollout loop takes the move after the
// one drawn (not the one drawn reversed: on tic-tac-toe that is the board
// turned by 180 degrees, which plays alike).
type skewedRoller struct{ engines.Machine }

func (s skewedRoller) Rollout(rng *rand.Rand, stop func() bool, goals []int) (int64, bool, error) {
	st, _ := s.Initial()
	var steps int64
	joint := make([]engines.Move, len(s.Roles()))
	for {
		if term, err := s.Terminal(st); err != nil || term {
			g, err := s.Goals(st)
			copy(goals, g)
			return steps, false, err
		}
		for r := range joint {
			legal, err := s.Legal(st, r)
			if err != nil {
				return steps, false, err
			}
			joint[r] = legal[(rng.IntN(len(legal))+1)%len(legal)]
		}
		var err error
		if st, err = s.Next(st, joint); err != nil {
			return steps, false, err
		}
		steps++
	}
}

func TestRollerCheckCatchesOtherRollouts(t *testing.T) {
	g := builtin(t, "tictactoe")
	ref := enginetest.Reference()
	honest := engines.Engine{Name: "honest", New: func(g *gdl.Game) (engines.Machine, error) {
		m, err := ref.New(g)
		return struct{ engines.Machine }{m}, err
	}}
	require.NoError(t, conform.RollerCheck(honest, g, 2, 20), "a machine without its own loop passes")
	skewed := engines.Engine{Name: "skewed", New: func(g *gdl.Game) (engines.Machine, error) {
		m, err := ref.New(g)
		return skewedRoller{m}, err
	}}
	err := conform.RollerCheck(skewed, g, 2, 20)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "own rollout loop")
}

// An engine that runs out of a resource limit has given no answer: the
// comparisons stop with a *LimitError that says where, not a mismatch.
func TestResourceLimitIsNoMismatch(t *testing.T) {
	ref := enginetest.Reference()
	g := builtin(t, "tictactoe")
	for _, tt := range []struct {
		name     string
		after    int
		compared bool
	}{
		{"at once", 0, false},
		{"after some answers", 7, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := enginetest.LimitedEngine(ref, tt.after)
			m, err := conform.TraceCheck(ref, e, g, 1, 2)
			assert.Nil(t, m)
			var le *conform.LimitError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "engine", le.Side)
			assert.Equal(t, tt.compared, le.Compared)
			assert.Contains(t, err.Error(), "the relations hold more than 10 values")

			rm, _ := ref.New(g)
			em, _ := e.New(g)
			m, st, err := conform.Exhaustive(rm, em, 1000)
			assert.Nil(t, m)
			require.ErrorAs(t, err, &le)
			assert.Contains(t, le.Where, "legal moves of role")
			assert.False(t, st.Complete)

			// A renamed copy that fails where the original does not.
			m, err = conform.Metamorphic(e, g, 1, 2)
			assert.Nil(t, m)
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tt.compared, le.Compared)
			assert.Equal(t, "engine", le.Side, "both machines are the engine's")
		})
	}
	// A real difference is still a mismatch.
	m, err := conform.TraceCheck(ref, enginetest.BrokenEngine(enginetest.DropLegal, ref), g, 1, 2)
	require.NoError(t, err)
	assert.NotNil(t, m)
}

// nextLimited is an engine that runs out of a resource limit computing
// the state after its first `after` joint moves: its trace's line of that
// step has no state (it was never computed), only the error.
type nextLimited struct {
	engines.Machine
	after, asked int
}

func (l *nextLimited) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	if l.asked++; l.asked > l.after {
		return nil, engines.Errorf(engines.ResourceLimit, "the relations hold more than 40000000 values")
	}
	return l.Machine.Next(s, joint)
}

// A resource limit met computing the next state is no mismatch either,
// though the line of that step has no state to compare (it was taken for
// a wrong state: "state missing ... error: reference none, engine
// resource-limit", a false mismatch of the compiled prover on a rewritten
// mummymaze1p).
func TestResourceLimitInNextIsNoMismatch(t *testing.T) {
	ref := enginetest.Reference()
	g := builtin(t, "tictactoe")
	for _, after := range []int{0, 5} {
		e := engines.Engine{Name: "next-limited", New: func(g *gdl.Game) (engines.Machine, error) {
			m, err := ref.New(g)
			return &nextLimited{Machine: m, after: after}, err
		}}
		m, err := conform.TraceCheck(ref, e, g, 1, 2)
		assert.Nil(t, m, "after %d", after)
		var le *conform.LimitError
		require.ErrorAs(t, err, &le, "after %d", after)
		assert.Equal(t, "engine", le.Side)
		assert.True(t, le.Compared, "the initial state was compared")
		assert.Contains(t, err.Error(), "the relations hold more than 40000000 values")
	}
}
