// Package rollout runs the random rollouts that gdlperf measures over an
// engines.Machine, writes the correctness traces that engines are compared
// by, and is the engine process of the built-in engines (ARCHITECTURE.md
// §3 and §4): Process.WriteResult and Process.WriteTrace are gdlperf
// engine run and engine trace, in this process or, for an engine with a
// program of its own, in that program (Native), whose result they complete
// with the setup figures. The protocol itself (result file, trace lines, the rollout
// loop's driver and clock) is package protocol's, which the compiled
// prover's programs share.
package rollout

import (
	"math/rand/v2"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Stats is what a run measured.
type Stats struct {
	protocol.Stats
	// GoalSums is each role's goal values summed over the finished
	// rollouts.
	GoalSums []int64
}

// Run plays random rollouts on m until d has elapsed: from the initial
// state, until a terminal state, one uniformly random legal move per role
// and the next state; at the terminal state, the goals of every role. The
// state changes of an unfinished last rollout count. A game error stops the
// run and is returned with the figures so far. A machine that is an
// engines.Roller plays the rollouts with its own loop; one that is an
// engines.BatchRoller whose build chose batches plays them in batches,
// rollout r drawing from its own stream (rand.NewPCG(seed, r)) instead of
// the run's one stream (protocol.TimedRand).
func Run(m engines.Machine, d time.Duration, seed uint64) (Stats, error) {
	return RunClock(m, protocol.NewClock(d), seed)
}

// RunClock is Run until the clock c says the time is over (protocol.Loop
// reads it).
func RunClock(m engines.Machine, c *protocol.Clock, seed uint64) (Stats, error) {
	return run(m, seed, c, -1)
}

// RunRollouts plays exactly n of the rollouts that Run plays for seed,
// whatever the time they take: the same random draws, so an engine's own
// rollout loop can be compared with the generic one (hide the Roller by
// wrapping the machine: struct{ engines.Machine }).
func RunRollouts(m engines.Machine, n int64, seed uint64) (Stats, error) {
	return run(m, seed, nil, n)
}

// run plays rollouts until the clock says the time is over or, with
// n >= 0, n rollouts are finished.
func run(m engines.Machine, seed uint64, c *protocol.Clock, n int64) (Stats, error) {
	if b, ok := m.(engines.BatchRoller); ok && b.Batch() {
		return runBatch(b, engines.Batch{Seed: seed, N: n}, c)
	}
	rng := protocol.TimedRand(seed)
	roles := len(m.Roles())
	st := Stats{GoalSums: make([]int64, roles)}
	goals := make([]int, roles)
	var roll func(stop func() bool) (int64, bool, error)
	if r, ok := m.(engines.Roller); ok {
		roll = func(stop func() bool) (int64, bool, error) { return r.Rollout(rng, stop, goals) }
	} else {
		joint := make([]engines.Move, roles)
		choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
		roll = func(stop func() bool) (int64, bool, error) {
			var steps int64
			stopped, err := playout(m, joint, choose, 0, stop, &steps, goals)
			return steps, stopped, err
		}
	}
	var err error
	st.Stats, err = protocol.Loop(c, n, func(_ int64, stop func() bool) (int64, bool, error) {
		steps, stopped, err := roll(stop)
		if err == nil && !stopped {
			st.addGoals(goals)
		}
		return steps, stopped, err
	})
	return st, err
}

// runBatch plays the rollouts of batch (its Stop and Done set here) on a
// machine that plays them in batches (engines.BatchRoller): rollout r
// draws from its own stream. The clock, when not nil, stops it.
func runBatch(b engines.BatchRoller, batch engines.Batch, c *protocol.Clock) (Stats, error) {
	st := Stats{GoalSums: make([]int64, len(b.Roles()))}
	start := time.Now()
	if c != nil {
		batch.Stop = c.Over
		start = c.Start()
	}
	batch.Done = func(_, _ int64, goals []int) {
		st.Rollouts++
		st.addGoals(goals)
	}
	steps, err := b.Rollouts(batch)
	st.StateChanges = steps
	st.Elapsed = time.Since(start)
	return st, err
}

// RunEach plays rollouts 0 to n-1 of seed as a batch run defines them
// (engines.BatchRoller; sorted: drawn from the legal moves sorted by text,
// each rollout at most MaxTraceSteps long, as RunFixed's), one after the
// other through the machine's methods (an engines.Roller's own loop too,
// unless sorted), and calls done with each one's number, state changes and
// goals: the generic twin of a batch.
func RunEach(m engines.Machine, n int64, seed uint64, sorted bool, done func(r, steps int64, goals []int)) error {
	goals := make([]int, len(m.Roles()))
	ch := protocol.NewIndexedChooser(m.MoveText, func(mv engines.Move) int { return int(mv) })
	joint := make([]engines.Move, len(m.Roles()))
	for r := int64(0); r < n; r++ {
		var steps int64
		var err error
		if sorted {
			ch.Start(seed, r)
			_, err = playout(m, joint, ch.Choose, MaxTraceSteps, nil, &steps, goals)
		} else {
			steps, _, err = PlayoutEach(m, seed, r, goals)
		}
		if err != nil {
			return err
		}
		done(r, steps, goals)
	}
	return nil
}

// PlayoutEach plays rollout r of a batch run with seed through m's methods
// (an engines.Roller's own loop when m is one): it draws from
// rand.New(rand.NewPCG(seed, r)).
func PlayoutEach(m engines.Machine, seed uint64, r int64, goals []int) (steps int64, stopped bool, err error) {
	rng := rand.New(rand.NewPCG(seed, uint64(r)))
	if ro, ok := m.(engines.Roller); ok {
		return ro.Rollout(rng, nil, goals)
	}
	joint := make([]engines.Move, len(m.Roles()))
	choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
	stopped, err = playout(m, joint, choose, 0, nil, &steps, goals)
	return steps, stopped, err
}

func (st *Stats) addGoals(goals []int) {
	for i, g := range goals {
		st.GoalSums[i] += int64(g)
	}
}

// RunFixed plays exactly n rollouts, each chosen as in a trace
// (protocol.Chooser: rollout r draws from rand.New(rand.NewPCG(seed, r))
// over the legal moves sorted by their text), so every correct engine does
// the same work and only the time differs. A rollout longer than
// MaxTraceSteps is a game error.
func RunFixed(m engines.Machine, n int, seed uint64) (Stats, error) {
	if b, ok := m.(engines.BatchRoller); ok && b.Batch() {
		return runBatch(b, engines.Batch{Seed: seed, N: int64(n), Sorted: true, MaxSteps: MaxTraceSteps}, nil)
	}
	ch := protocol.NewIndexedChooser(m.MoveText, func(mv engines.Move) int { return int(mv) })
	roles := len(m.Roles())
	st := Stats{GoalSums: make([]int64, roles)}
	joint := make([]engines.Move, roles)
	goals := make([]int, roles)
	var err error
	st.Stats, err = protocol.Loop(nil, int64(n), func(r int64, _ func() bool) (int64, bool, error) {
		ch.Start(seed, r)
		var steps int64
		_, err := playout(m, joint, ch.Choose, MaxTraceSteps, nil, &steps, goals)
		if err == nil {
			st.addGoals(goals)
		}
		return steps, false, err
	})
	return st, err
}

// Playout plays one rollout of m through its methods, as Run does without
// an engines.Roller: each role's move is legal[rng.IntN(len(legal))]. It is
// the loop a Roller's Rollout must match, for an engine mode without its
// own.
func Playout(m engines.Machine, rng *rand.Rand, stop func() bool, goals []int) (steps int64, stopped bool, err error) {
	joint := make([]engines.Move, len(m.Roles()))
	choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
	stopped, err = playout(m, joint, choose, 0, stop, &steps, goals)
	return steps, stopped, err
}

// playout plays one rollout of m, choosing each role's move with choose, and
// counts its state changes in steps; the goals of its terminal state go to
// goals. With maxSteps > 0, a rollout longer than that is a game error;
// stop, when not nil, is asked before every step and ends the rollout
// unfinished when it says so. It is the hot loop of every engine without
// an own (engines.Roller); the compiled runtime's is its twin over native
// states.
func playout(m engines.Machine, joint []engines.Move, choose func(role int, legal []engines.Move) engines.Move, maxSteps int, stop func() bool, steps *int64, goals []int) (stopped bool, err error) {
	s, err := m.Initial()
	if err != nil {
		return false, err
	}
	for step := 0; ; step++ {
		if stop != nil && stop() {
			return true, nil
		}
		if maxSteps > 0 && step >= maxSteps {
			return false, engines.Errorf(engines.ResourceLimit, "a rollout did not end within %d steps", maxSteps)
		}
		term, err := m.Terminal(s)
		if err != nil {
			return false, err
		}
		if term {
			break
		}
		for r := range joint {
			legal, err := m.Legal(s, r)
			if err != nil {
				return false, err
			}
			joint[r] = choose(r, legal)
		}
		if s, err = m.Next(s, joint); err != nil {
			return false, err
		}
		*steps++
	}
	g, err := m.Goals(s)
	copy(goals, g)
	return false, err
}
