package results

import (
	"fmt"
	"strconv"
)

// The instructions measure (gdlperf run --measure instructions): a row's
// Measure, and the counters its Counter names.
const (
	MeasureInstructions = "instructions"
	CounterPerf         = "perf"     // Linux hardware counters, perf stat -e instructions:u
	CounterValgrind     = "valgrind" // Valgrind's Cachegrind, --cache-sim=no
)

// IsInstructions says the row counts instructions: its times are of a
// counted run (under Valgrind many times slower), not a rate.
func (r *Row) IsInstructions() bool { return r.Measure == MeasureInstructions }

// PerOp is the row's instructions per rollout, and whether it has one (an
// ok instructions row with a positive count).
func (r *Row) PerOp() (float64, bool) {
	if !r.IsInstructions() || r.Status != StatusOK || r.InstructionsPerOp == "" {
		return 0, false
	}
	x, err := strconv.ParseFloat(r.InstructionsPerOp, 64)
	if err != nil || x <= 0 {
		return 0, false
	}
	return x, true
}

// benchInstructions is the benchfmt name part and value part of an
// instructions row: the counter in the name, so that counts of perf and of
// Valgrind (which differ) never share a line, the rollouts counted as
// iterations and the instructions per rollout:
//
//	/counter=valgrind  20 983115 instructions/op
func benchInstructions(r *Row) (name, value string, ok bool) {
	x, ok := r.PerOp()
	if !ok {
		return "", "", false
	}
	return "/counter=" + benchValue(r.Counter), fmt.Sprintf("%d %s instructions/op", max(r.TargetRollouts, 1), benchNumber(x)), true
}
