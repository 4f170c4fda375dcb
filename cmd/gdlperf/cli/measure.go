package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

// Measures are the values of gdlperf run --measure.
var Measures = []string{results.DefaultMeasure, results.MeasureInstructions}

// MeasureOptions are the flags of gdlperf run that say how its runs are
// measured.
type MeasureOptions struct {
	Measure string // "time" (the default) or "instructions"
	Counter string // the instruction counter: "auto" (the default), "perf" or "valgrind"
}

// measureHelp is the long help of the measure flags, for gdlperf run.
const measureHelp = `With --measure instructions every run counts the user-mode instructions
per rollout instead of timing: the engine plays N and then 2N seeded
rollouts (N = --rollouts; without it 20, or more where 20 count too few)
under an instruction counter,
and the row records (I(2N) - I(N)) / N, which leaves the setup out. The
counter is perf (Linux hardware counters, instructions:u) where the kernel
exposes them, else Valgrind's Cachegrind (apt-get install valgrind; some 50
times slower); --counter chooses one, and the row names it. Give N enough
rollouts for 10^8 instructions (a row under 5*10^7 is flagged): a process's
count varies by about 10^5 whatever its work.

It suits engines that do the same work in every process: native code, Go
(run with GOGC=off, GOMAXPROCS=1 and no asynchronous preemption; the
built-in engines' counts repeat to under 0.2 %: their setups choose by
counted work, not by the clock), so compare and ab --metric instructions can
tell a 1 % change from one pair of runs where time needs many. It does not
suit engines whose setup adapts to the time it takes, or a JIT-compiled
JVM (a trivial loop: 8 % apart with default flags, 1.5 % with
-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC). Only
fixed-work engines (--rollouts) can be counted.`

// addMeasureFlags binds --measure and --counter.
func addMeasureFlags(f *pflag.FlagSet, o *MeasureOptions) {
	f.StringVar(&o.Measure, "measure", results.DefaultMeasure, "what a run measures: time (state changes per second) or instructions (per rollout, counted; see --counter)")
	f.StringVar(&o.Counter, "counter", "auto", "instruction counter of --measure instructions: auto, perf or valgrind")
}

// MeasureChoice is what the measure flags resolve to.
type MeasureChoice struct {
	// Dims is the runs' Dims.Measure: "" for time (so that run keys stay
	// those of gdlperf 1), results.MeasureInstructions otherwise.
	Dims string
	// Counter counts the instructions; nil for time.
	Counter *harness.Counter
	// Rollouts is the --rollouts to plan with: as given, or
	// harness.DefaultInstructionRollouts for instructions without one.
	Rollouts int
}

// resolve checks the measure flags against the rest of the command line
// and, for instructions, finds the counter (an error names what to
// install). It says on w which counter counts and why.
func (o MeasureOptions) resolve(ctx context.Context, rollouts int, w io.Writer) (MeasureChoice, error) {
	return o.resolveWith(ctx, rollouts, w, harness.DetectCounter)
}

func (o MeasureOptions) resolveWith(ctx context.Context, rollouts int, w io.Writer, detect func(context.Context, string) (harness.Counter, error)) (MeasureChoice, error) {
	m := MeasureChoice{Rollouts: rollouts}
	counter := o.Counter
	if counter == "" {
		counter = "auto"
	}
	switch o.Measure {
	case "", results.DefaultMeasure:
		if counter != "auto" {
			return m, usage(fmt.Errorf("--counter %s needs --measure instructions", counter))
		}
		return m, nil
	case results.MeasureInstructions:
	default:
		return m, usage(fmt.Errorf("unknown --measure %q; the measures are %s", o.Measure, strings.Join(Measures, ", ")))
	}
	if !slices.Contains([]string{"auto", harness.CounterPerf, harness.CounterValgrind}, counter) {
		return m, usage(fmt.Errorf("unknown --counter %q; the counters are auto, %s and %s", counter, harness.CounterPerf, harness.CounterValgrind))
	}
	if rollouts < 0 {
		return m, usage(errors.New("--rollouts must not be negative"))
	}
	c, err := detect(ctx, counter)
	if err != nil {
		return m, err
	}
	m.Dims, m.Counter = results.MeasureInstructions, &c
	more := ""
	if m.Rollouts == 0 {
		m.Rollouts = harness.DefaultInstructionRollouts
		more = fmt.Sprintf(" (more where that counts under %d instructions)", int64(harness.SteadyWork))
	}
	fmt.Fprintf(w, "counting instructions with %s (%s): %d and %d rollouts per run%s, the difference is the row's\n", c.Name, c.Why, m.Rollouts, 2*m.Rollouts, more)
	return m, nil
}
