package propnet

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// TestLanesMatchMethods plays seeded batches of rollouts in lanes and each
// of their rollouts through the methods of a fast machine and of a
// full-pass one: every rollout must make the same state changes and goals.
// The games include the testdata's cyclic components (recomputed as wholes
// in every lane) and goal-only parts.
func TestLanesMatchMethods(t *testing.T) {
	games := LoadGames(t, "connectFour", "dotsAndBoxes", "knightsTour", "breakthrough", "hex", "pentago", "blocker")
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			m, err := New(g, WithLanes(LanesOn))
			require.NoError(t, err)
			require.NotNil(t, m.lanes, "every test game can be played in lanes")
			require.True(t, m.Batch())
			// The full-pass twin is slow on larger games (hex): fewer
			// rollouts.
			for _, c := range []struct {
				mode  Mode
				seeds uint64
				n     int
			}{{Fast, 2, 150}, {FullPass, 1, 20}} {
				e := engines.Engine{Name: Name, New: func(g *gdl.Game) (engines.Machine, error) { return New(g, WithMode(c.mode)) }}
				for seed := uint64(1); seed <= c.seeds; seed++ {
					for _, sorted := range []bool{false, true} {
						require.NoError(t, conform.BatchCheck(e, g, m, seed, c.n, sorted), "%s sorted %v", c.mode, sorted)
					}
				}
			}
		})
	}
}

// TestLanesTimedRun: a timed run of a machine with lanes plays through
// them, counts every lane's state changes, and stops when its clock says.
func TestLanesTimedRun(t *testing.T) {
	g := LoadGames(t)["builtin/tictactoe"]
	m, err := New(g, WithLanes(LanesOn))
	require.NoError(t, err)
	st, err := rollout.Run(m, 100*time.Millisecond, 1)
	require.NoError(t, err)
	require.Greater(t, st.Rollouts, int64(64), "more rollouts than lanes")
	require.GreaterOrEqual(t, st.StateChanges, 5*st.Rollouts, "a tic-tac-toe rollout is at least 5 moves")
	require.Less(t, st.Elapsed, 2*time.Second)
	var sum int64
	for _, s := range st.GoalSums {
		sum += s
	}
	require.Equal(t, 100*st.Rollouts, sum, "tic-tac-toe's goals sum to 100")

	calls := 0
	steps, err := m.Rollouts(engines.Batch{Seed: 1, N: -1, Stop: func() bool { calls++; return calls == 3 }, Done: func(_, _ int64, _ []int) {}})
	require.NoError(t, err)
	require.Positive(t, steps)
	require.LessOrEqual(t, steps, int64(3*4*64), "the run stops at the third question")
}

// TestLanesReportGameErrors: a lane that has no legal move ends the batch
// with the error the machine's methods give, naming the state.
func TestLanesReportGameErrors(t *testing.T) {
	g, err := gdl.Load("stuck.kif", []byte(`
(role a) (init (step 0))
(<= (legal a go) (true (step 0)))
(<= (next (step 1)) (true (step 0)))
(<= terminal (true (step 2)))
(goal a 100)`))
	require.NoError(t, err)
	m, err := New(g, WithLanes(LanesOn))
	require.NoError(t, err)
	_, err = m.Rollouts(engines.Batch{Seed: 1, N: -1, Done: func(_, _ int64, _ []int) {}})
	require.Error(t, err)
	var ge *engines.GameError
	require.ErrorAs(t, err, &ge)
	require.Equal(t, engines.NoLegalMove, ge.Kind, fmt.Sprint(err))
	require.Contains(t, err.Error(), "(step 1)")
}

// TestLanesSpeed measures, per game of GDLPERF_LANES_SPEED=game1,game2
// (base games), the CPU rate of timed runs one rollout at a time and in
// lanes, beside the sizes and estimates the choice between them reads.
func TestLanesSpeed(t *testing.T) {
	env := os.Getenv("GDLPERF_LANES_SPEED")
	if env == "" {
		t.Skip("set GDLPERF_LANES_SPEED=ticTacToe,connectFour,... to measure")
	}
	d := time.Second
	if s := os.Getenv("GDLPERF_LANES_SECONDS"); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		d = time.Duration(f * float64(time.Second))
	}
	for _, name := range strings.Split(env, ",") {
		g, err := gdl.LoadFile(filepath.Join(enginetest.SharedDir(), "gamerepo-mirror", "base", name, name+".kif"))
		if err != nil {
			t.Logf("%-24s %v", name, err)
			continue
		}
		m, err := New(g, WithLanes(LanesOff))
		if err != nil {
			t.Logf("%-24s %v", name, err)
			continue
		}
		lp := newLaneProgram(m.p)
		if lp == nil {
			t.Logf("%-24s no lanes", name)
			continue
		}
		fastEst := layoutCost(m) + goalCost(m)
		rate := func() float64 {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(1, &ru0)
			st, err := rollout.Run(m, d, 1)
			syscall.Getrusage(1, &ru1)
			if err != nil {
				t.Logf("%-24s %v", name, err)
				return 0
			}
			cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
			return float64(st.StateChanges) / cpu.Seconds()
		}
		m.lanes = nil
		fast := rate()
		m.lanes = lp
		lanes := rate()
		if fast == 0 || lanes == 0 {
			continue
		}
		est, f := laneCost(m, lp)
		t.Logf("FEAT %s %g %g %g %g %g %g %g %g %g", name, 1e9/lanes, f.Links, f.Gates, f.Pairs, f.Draws, f.Blend, f.Iters, est, 1e9/fast)
		t.Logf("%-24s links %7d gates %6d blend %6d inputs %5d moves %5d bases %5d goalcode %6d | fast est %6.0f ns %10.0f/s | lanes %10.0f/s %6.0f ns/step | x%.2f",
			name, lp.links, lp.gates, len(lp.blend), len(lp.inputs), len(m.p.pairs), len(m.p.baseNode), len(lp.goal), fastEst, fast, lanes, 64e9/lanes, lanes/fast)
	}
}

// TestLanePCG: a lane draws exactly what rand.New(rand.NewPCG(seed, r))
// draws, for small and large bounds, powers of two and one.
func TestLanePCG(t *testing.T) {
	for seed := range uint64(4) {
		for r := range uint64(20) {
			want := rand.New(rand.NewPCG(seed, r))
			got := lanePCG{hi: seed, lo: r}
			for i := range 2000 {
				n := []int{1, 2, 3, 5, 7, 8, 9, 64, 100, 1 << 20, 3<<40 + 1, 1<<63 - 1}[i%12]
				require.Equal(t, want.IntN(n), int(got.intN(uint64(n))), "seed %d rollout %d draw %d of %d", seed, r, i, n)
			}
		}
	}
}

// TestChooseLanes: the build plays timed runs in lanes where a step of
// lanes is estimated cheaper than 64 one at a time (tic-tac-toe: a few
// hundred literals a step), and one at a time where it is not
// (connectFourLarger: its rollouts change little of a network of 18,000
// literals). The estimates count operations, so the choice is the same in
// every process.
func TestChooseLanes(t *testing.T) {
	games := LoadGames(t, "connectFourLarger")
	for name, want := range map[string]bool{"builtin/tictactoe": true, "base/connectFourLarger": false} {
		g, ok := games[name]
		if !ok {
			continue // the mirror is not there
		}
		m, err := New(g)
		require.NoError(t, err)
		t.Logf("%s: %s", name, m.Build.Lanes)
		require.Equal(t, want, m.Batch(), "%s: %s", name, m.Build.Lanes)
		require.Equal(t, map[bool]string{true: "lanes", false: "one at a time"}[want], m.Design())
		again, err := New(g)
		require.NoError(t, err)
		require.Equal(t, m.Build.Lanes, again.Build.Lanes, "the same estimates in every build")
	}
}

// TestLanesMaxSteps: a rollout that has made MaxSteps state changes is a
// resource-limit error, as in the one-at-a-time loop of a fixed-work run,
// even when its state is terminal: a game of three steps fails at
// MaxSteps 3 and plays at 4.
func TestLanesMaxSteps(t *testing.T) {
	g, err := gdl.Load("three.kif", []byte(`
(role a) (init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal a go) (true (step ?n)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= terminal (true (step 3)))
(goal a 100)`))
	require.NoError(t, err)
	m, err := New(g, WithLanes(LanesOn))
	require.NoError(t, err)
	for _, c := range []struct {
		max  int
		fail bool
	}{{3, true}, {4, false}} {
		finished := 0
		_, err := m.Rollouts(engines.Batch{Seed: 1, N: 100, Sorted: true, MaxSteps: c.max, Done: func(_, steps int64, _ []int) {
			require.Equal(t, int64(3), steps)
			finished++
		}})
		if c.fail {
			var ge *engines.GameError
			require.ErrorAs(t, err, &ge)
			require.Equal(t, engines.ResourceLimit, ge.Kind)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, 100, finished)
	}
}
