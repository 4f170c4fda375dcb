package report

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/transform"
	"github.com/gdlperf/gdlperf/results"
)

// ContendedShare is the CPU share under which a run counts as contended
// when its row does not say (the harness's default threshold).
const ContendedShare = 0.9

// CPUShare is the share of a CPU a run got: the row's cpu_share (CPU over
// wall time of the timed part), or, in rows written before that column,
// (user_cpu_ms + system_cpu_ms) / wall_ms of the whole child process, which
// includes its setup. ok is false when neither is known (no CPU time or no
// wall time recorded, as in imported gdl-perf rows).
func CPUShare(r *results.Row) (share float64, ok bool) {
	if r.CPUShare != "" {
		s, err := strconv.ParseFloat(r.CPUShare, 64)
		return s, err == nil
	}
	cpu := r.UserCPUMs + r.SystemCPUMs
	if cpu <= 0 || r.WallMs <= 0 {
		return 0, false
	}
	return float64(cpu) / float64(r.WallMs), true
}

// contended says whether a run was contended, so that its rate is no
// measurement of the engine and is left out of every median, test and
// verdict (it is still listed, struck out): the harness marked it (its
// share of a CPU was under the campaign's threshold), or the row predates
// that mark and the share computed from it (CPUShare's fallback) is under
// ContendedShare. The reason says how much of a CPU it got.
func contended(r *results.Row) (bool, string) {
	share, known := CPUShare(r)
	switch {
	case r.Contended && known:
		return true, fmt.Sprintf("contended: %.2f of a CPU", share)
	case r.Contended:
		return true, "contended (marked by the harness)"
	case r.CPUShare == "" && known && share < ContendedShare:
		return true, fmt.Sprintf("contended: %.2f of a CPU (user+system over wall time, setup included)", share)
	}
	return false, ""
}

// Setup is what a run measured beyond its game and engine: the mode and
// its target, the workload, the rule transform and the measure. Runs of two
// setups are never pooled into one median, nor compared with each other: a
// Group holds the runs of one fingerprint and one setup.
type Setup struct {
	Mode          string // "time" or "rollouts" ("" read as time)
	Target        int    // seconds in time mode, rollouts in rollouts mode
	Workload      string // results.DefaultWorkload when the cell is empty
	Budget        string
	Transform     string // results.DefaultTransform when empty
	TransformSeed uint64
	Measure       string // results.DefaultMeasure when empty
	// Jobs is the number of engine processes the campaign ran at once
	// (gdlperf run --jobs; 1 for old rows): jobs share caches, memory
	// bandwidth and the chip's power budget, so runs of different jobs are
	// never pooled nor compared as one setup.
	Jobs int
}

func setupOf(r *results.Row) Setup {
	s := Setup{Mode: r.Mode, Target: r.TargetSeconds, Workload: r.WorkloadName(), Budget: r.WorkloadBudget,
		Transform: r.TransformName(), Measure: r.MeasureName(), Jobs: max(r.Jobs, 1)}
	if s.Mode == "" {
		s.Mode = "time"
	}
	if s.Mode == "rollouts" {
		s.Target = r.TargetRollouts
	}
	if s.Transform != results.DefaultTransform {
		s.TransformSeed = r.TransformSeed
	}
	return s
}

// String is "2 s", "1000 rollouts", followed by the dimensions not at
// their defaults: "2 s, workload mcts (playouts=100), transform shuffle
// (seed 3), measure instructions".
func (s Setup) String() string {
	var parts []string
	switch {
	case s.Target == 0:
		parts = append(parts, "unknown length")
	case s.Mode == "time":
		parts = append(parts, fmt.Sprintf("%d s", s.Target))
	case s.Mode == "rollouts":
		parts = append(parts, plural(s.Target, "rollout"))
	default:
		parts = append(parts, fmt.Sprintf("mode %s, target %d", s.Mode, s.Target))
	}
	if s.Workload != results.DefaultWorkload || s.Budget != "" {
		w := "workload " + s.Workload
		if s.Budget != "" {
			w += " (" + s.Budget + ")"
		}
		parts = append(parts, w)
	}
	if s.Transform != results.DefaultTransform {
		if transform.Seeded(strings.Split(strings.ReplaceAll(s.Transform, "+", ","), ",")) {
			parts = append(parts, fmt.Sprintf("transform %s (seed %d)", s.Transform, s.TransformSeed))
		} else {
			parts = append(parts, "transform "+s.Transform)
		}
	}
	if s.Measure != results.DefaultMeasure {
		parts = append(parts, "measure "+s.Measure)
	}
	if s.Jobs > 1 {
		parts = append(parts, fmt.Sprintf("%d jobs at once", s.Jobs))
	}
	return strings.Join(parts, ", ")
}

// compareSetups orders setups for the pages: by workload (rollouts first,
// then uct, pns, minimax, then any other by name), then the untransformed
// runs before the transformed ones, then by their text.
func compareSetups(a, b Setup) int {
	return cmp.Or(cmp.Compare(workloadRank(a.Workload), workloadRank(b.Workload)), strings.Compare(a.Workload, b.Workload),
		cmp.Compare(transformed(a), transformed(b)),
		strings.Compare(a.String(), b.String()))
}

// transformed is 1 for a setup under a rule transform, else 0.
func transformed(s Setup) int {
	if s.Transform != results.DefaultTransform {
		return 1
	}
	return 0
}

// loadPerCore is the 1-minute load when the run started over the
// machine's logical CPUs; ok is false when either is unknown.
func loadPerCore(r *results.Row) (float64, bool) {
	if r.LoadAverage == "" || r.Cores <= 0 {
		return 0, false
	}
	l, err := strconv.ParseFloat(r.LoadAverage, 64)
	if err != nil {
		return 0, false
	}
	return l / float64(r.Cores), true
}
