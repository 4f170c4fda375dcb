package propnet_test

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// threadCPU is the CPU time of the calling thread (lock it first): on a
// shared machine it measures the work, not the waiting.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuRate plays rollouts for about d of CPU time and returns state changes
// per CPU second.
func cpuRate(m engines.Machine, d time.Duration) (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	var changes int64
	for seed := uint64(0); ; seed++ {
		st, err := rollout.Run(m, 50*time.Millisecond, seed)
		if err != nil {
			return 0, err
		}
		changes += st.StateChanges
		if used := threadCPU() - start; used >= d {
			return float64(changes) / used.Seconds(), nil
		}
	}
}

// TestSpeed measures the propnet (and with GDLPERF_SPEED_PROVER=1 the
// prover) on base games by CPU time: GDLPERF_SPEED=game1,game2.
func TestSpeed(t *testing.T) {
	env := os.Getenv("GDLPERF_SPEED")
	if env == "" {
		t.Skip("set GDLPERF_SPEED=ticTacToe,connectFour,... to measure")
	}
	for _, name := range strings.Split(env, ",") {
		g := loadBase(t, name)
		pm, err := engine(t).New(g)
		if err != nil {
			t.Fatal(err)
		}
		best := 0.0
		for range 3 {
			r, err := cpuRate(pm, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			best = max(best, r)
		}
		line := ""
		if os.Getenv("GDLPERF_SPEED_PROVER") != "" {
			rm, _ := enginetest.Reference().New(g)
			r, err := cpuRate(rm, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			line = " prover " + ftoa(r) + " ratio " + ftoa(best/r)
		}
		t.Logf("%-24s propnet %10.0f states/CPU-s%s", name, best, line)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// TestFixedWork plays GDLPERF_FIXED=game:rollouts random rollouts (for perf
// stat: the same work every time).
func TestFixedWork(t *testing.T) {
	env := os.Getenv("GDLPERF_FIXED")
	if env == "" {
		t.Skip("set GDLPERF_FIXED=game:rollouts")
	}
	name, n, _ := strings.Cut(env, ":")
	rollouts, _ := strconv.Atoi(n)
	m, err := engine(t).New(loadBase(t, name))
	if err != nil {
		t.Fatal(err)
	}
	joint := make([]engines.Move, len(m.Roles()))
	changes := 0
	for r := range rollouts {
		rng := rand.New(rand.NewPCG(1, uint64(r)))
		s, _ := m.Initial()
		for {
			if term, _ := m.Terminal(s); term {
				break
			}
			for role := range joint {
				legal, _ := m.Legal(s, role)
				joint[role] = legal[rng.IntN(len(legal))]
			}
			s, _ = m.Next(s, joint)
			changes++
		}
		m.Goals(s)
	}
	t.Logf("%d state changes", changes)
}

// TestRollerWork plays GDLPERF_ROLLER=game:rollouts rollouts through the
// machine's own loop (rollout.RunRollouts: the loop timed runs use, in
// lanes where the build chose them),
// seed 1: for counting instructions per rollout (Cachegrind the test binary
// at two counts and take the difference over the rollouts added).
func TestRollerWork(t *testing.T) {
	env := os.Getenv("GDLPERF_ROLLER")
	if env == "" {
		t.Skip("set GDLPERF_ROLLER=game:rollouts")
	}
	name, n, _ := strings.Cut(env, ":")
	rollouts, err := strconv.Atoi(n)
	if err != nil {
		t.Fatal(err)
	}
	m, err := engine(t).New(loadBase(t, name))
	if err != nil {
		t.Fatal(err)
	}
	st, err := rollout.RunRollouts(m, int64(rollouts), 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rollouts, %d state changes", st.Rollouts, st.StateChanges)
}
