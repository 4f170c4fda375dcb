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
// error kind when a rollout fails.
func RollerCheck(e engines.Engine, g *gdl.Game, seeds, n int) error {
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		fast, err := e.New(g)
		if err != nil {
			return err
		}
		if _, ok := fast.(engines.Roller); !ok {
			return nil
		}
		slow, err := e.New(g)
		if err != nil {
			return err
		}
		got, gerr := rollout.RunRollouts(fast, int64(n), seed)
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
