package harness

import (
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/results"
)

// DefaultContendedBelow is the CPU share under which a run is contended:
// the engine got less than this part of a CPU during its timed rollouts
// (another process, or the machine's other jobs, took the rest), so its rate
// says more about the machine than about the engine. Verdicts leave such
// runs out; `gdlperf run --rerun-contended N` runs them again.
const DefaultContendedBelow = 0.9

// Measurement is how a campaign's runs are measured, recorded in every row.
type Measurement struct {
	GdlperfVersion string  // the harness's own version
	Jobs           int     // engine processes run at once (0 = 1)
	ContendedBelow float64 // CPU share threshold; 0 = DefaultContendedBelow
}

// measure fills the row's measurement columns from the outcome: the CPU
// share of the timed part and whether it was contended, the load after the
// run, what the result file says of the engine's setup, and the run's
// dimensions and concurrency.
func (m Measurement) measure(row *results.Row, r Run, out Outcome, f Fingerprint, cpu int, loadAfter string) {
	row.Workload, row.WorkloadBudget = r.Dims.Workload, r.Dims.Budget
	row.Transform, row.TransformSeed = r.Dims.Transform, r.Dims.TransformSeed
	row.Measure = r.Dims.Measure
	row.GdlperfVersion = m.GdlperfVersion
	row.Jobs = max(m.Jobs, 1)
	if cpu >= 0 {
		row.CPU = strconv.Itoa(cpu)
	}
	row.Cores, row.MemoryMiB = f.CPUs, f.MemoryMiB
	row.LoadAfter = loadAfter
	if out.ResultRaw != "" {
		res, _ := protocol.Parse(out.ResultRaw)
		get := func(k protocol.Key) string {
			v, _ := res.Get(k)
			return capText(v, 200)
		}
		num := func(k protocol.Key) int64 {
			n, err := strconv.ParseInt(get(k), 10, 64)
			if err != nil || n < 0 {
				return 0
			}
			return n
		}
		row.TimedCPUMs = num(protocol.KeyCPUMilliseconds)
		row.Design = get(protocol.KeyDesign)
		row.CodegenMs = num(protocol.KeyCodegenMilliseconds)
		row.BuildMs = num(protocol.KeyBuildMilliseconds)
		row.EngineOptions = get(protocol.KeyOptions)
	}
	if row.Status != results.StatusOK {
		return
	}
	share, ok := cpuShare(row)
	if !ok {
		return
	}
	row.CPUShare = strconv.FormatFloat(share, 'f', 3, 64)
	row.Contended = share < m.contendedBelow()
}

func (m Measurement) contendedBelow() float64 {
	if m.ContendedBelow <= 0 {
		return DefaultContendedBelow
	}
	return m.ContendedBelow
}

// cpuShare is the CPU time over the wall time of a run's timed part: the
// engine's own CPU time of its rollouts over their time when it reports it
// (gdlperf's engines do), else the whole process's user and system time
// over its wall time, which counts the setup too.
func cpuShare(row *results.Row) (float64, bool) {
	if row.TimedCPUMs > 0 && row.MillisecondsTaken > 0 {
		return float64(row.TimedCPUMs) / float64(row.MillisecondsTaken), true
	}
	if row.WallMs > 0 {
		return float64(row.UserCPUMs+row.SystemCPUMs) / float64(row.WallMs), true
	}
	return 0, false
}

// capText makes s one line of at most n bytes (engine-provided text).
func capText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n]
	}
	return s
}
