package conform

import (
	"bytes"
	"fmt"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// TraceCheck writes the traces of both engines for the same seed and
// rollouts in memory and compares them.
func TraceCheck(ref, e engines.Engine, g *gdl.Game, seed uint64, rollouts int) (*Mismatch, error) {
	rm, err := ref.New(g)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	em, err := e.New(g)
	if err != nil {
		return &Mismatch{Method: "trace", Diffs: []string{"the engine cannot build the game: " + err.Error()}}, nil
	}
	var rb, eb bytes.Buffer
	rollout.Trace(&rb, rm, ref.Name, ref.Version, seed, rollouts)
	rollout.Trace(&eb, em, e.Name, e.Version, seed, rollouts)
	return CompareTraces(&rb, &eb)
}

// RollerCheck plays n rollouts for each of seeds 1..seeds with the engine's
// own rollout loop, when its machine is an engines.Roller, and with the
// generic loop over its methods, and fails unless both played the same
// rollouts: the same state changes, rollouts and goal sums, and the same
// error kind when a rollout fails. A machine that plays its timed runs in
// batches (engines.BatchRoller) is checked rollout by rollout too: each
// rollout of a batch against the same rollout played through its methods.
func RollerCheck(e engines.Engine, g *gdl.Game, seeds, n int) error {
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		fast, err := e.New(g)
		if err != nil {
			return err
		}
		if b, ok := fast.(engines.BatchRoller); ok && b.Batch() {
			for _, sorted := range []bool{false, true} {
				if err := BatchCheck(e, g, b, seed, n, sorted); err != nil {
					return err
				}
			}
		}
		if _, ok := fast.(engines.Roller); !ok {
			continue
		}
		slow, err := e.New(g)
		if err != nil {
			return err
		}
		got, gerr := rollout.RunRollouts(hideBatch(fast), int64(n), seed)
		want, werr := rollout.RunRollouts(struct{ engines.Machine }{slow}, int64(n), seed)
		if errorKind(fmt.Sprint(gerr)) != errorKind(fmt.Sprint(werr)) || (gerr == nil) != (werr == nil) {
			return fmt.Errorf("seed %d: the engine's own rollout loop failed with %v, the generic loop with %v", seed, gerr, werr)
		}
		if got.StateChanges != want.StateChanges || got.Rollouts != want.Rollouts || fmt.Sprint(got.GoalSums) != fmt.Sprint(want.GoalSums) {
			return fmt.Errorf("seed %d: the engine's own rollout loop played %d rollouts, %d state changes, goal sums %v; the generic loop %d, %d, %v",
				seed, got.Rollouts, got.StateChanges, got.GoalSums, want.Rollouts, want.StateChanges, want.GoalSums)
		}
	}
	return nil
}

// hideBatch is m without its batches (an engines.Roller still), so that
// rollout.RunRollouts plays its own one-at-a-time loop.
func hideBatch(m engines.Machine) engines.Machine {
	if r, ok := m.(engines.Roller); ok {
		return struct{ engines.Roller }{r}
	}
	return struct{ engines.Machine }{m}
}

// BatchCheck plays rollouts 0 to n-1 of seed in a batch of b (a machine
// of e over g; sorted: drawing from the legal moves sorted by text, as a
// fixed-work run does) and each of them through the methods of a second
// machine of e, and fails unless every rollout made the same state changes
// and goals, or both failed with the same kind of error.
func BatchCheck(e engines.Engine, g *gdl.Game, b engines.BatchRoller, seed uint64, n int, sorted bool) error {
	type result struct {
		steps int64
		goals string
	}
	got := map[int64]result{}
	var dup error
	// A batch asks stop every few steps: a bound on the questions bounds a
	// batch whose rollouts never end (each may take rollout.MaxTraceSteps).
	asked, limit := int64(0), int64(n)*rollout.MaxTraceSteps
	stop := func() bool { asked++; return asked > limit }
	maxSteps := 0
	if sorted {
		maxSteps = rollout.MaxTraceSteps
	}
	total, gerr := b.Rollouts(engines.Batch{Seed: seed, N: int64(n), Sorted: sorted, MaxSteps: maxSteps, Stop: stop, Done: func(r, steps int64, goals []int) {
		if _, ok := got[r]; (ok || r < 0 || r >= int64(n)) && dup == nil {
			dup = fmt.Errorf("seed %d: the batch finished rollout %d twice or out of range", seed, r)
		}
		got[r] = result{steps, fmt.Sprint(goals)}
	}})
	if dup != nil {
		return dup
	}
	if asked > limit {
		return fmt.Errorf("seed %d: the batch of %d rollouts did not finish in %d state changes", seed, n, total)
	}
	slow, err := e.New(g)
	if err != nil {
		return err
	}
	var want int64
	werr := rollout.RunEach(struct{ engines.Machine }{slow}, int64(n), seed, sorted, func(r, steps int64, goals []int) {
		want += steps
		if gr, ok := got[r]; gerr == nil && (!ok || gr != (result{steps, fmt.Sprint(goals)})) && err == nil {
			err = fmt.Errorf("seed %d (sorted %v): rollout %d: the batch made %d state changes, goals %s; the machine's methods %d, goals %v", seed, sorted, r, gr.steps, gr.goals, steps, goals)
		}
	})
	if errorKind(fmt.Sprint(gerr)) != errorKind(fmt.Sprint(werr)) || (gerr == nil) != (werr == nil) {
		return fmt.Errorf("seed %d: the batch failed with %v, the machine's methods with %v", seed, gerr, werr)
	}
	if err != nil || gerr != nil {
		return err
	}
	if total != want {
		return fmt.Errorf("seed %d: the batch counted %d state changes, its rollouts made %d", seed, total, want)
	}
	return nil
}
