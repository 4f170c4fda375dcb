// Package results stores one CSV row per engine process run (ARCHITECTURE.md
// §6): append-only files, one writer per file, every row flushed and synced
// before the next run, torn last lines repaired, resume by run key, merge of
// files from shards and machines, and import of gdl-perf's rows.
package results

import "fmt"

// Status of a run.
const (
	StatusOK      = "ok"      // the engine reported its counts
	StatusError   = "error"   // the engine reported an error, or its result file was unusable
	StatusTimeout = "timeout" // killed after the time limit
	StatusCrash   = "crash"   // killed by a signal or exited non-zero without a result
	StatusWrong   = "wrong"   // ran, but the engine version failed the correctness check on this game
)

// Row is one engine process run. Field order is the column order.
type Row struct {
	RunKey            string `csv:"run_key"`            // stable id of (game, engine, version, repetition, mode, seconds)
	GameKey           string `csv:"game_key"`           // REPO/key/hash
	Engine            string `csv:"engine"`             // engine name
	EngineVersion     string `csv:"engine_version"`     // the version the engine reported (or its manifest's)
	Repetition        int    `csv:"repetition"`         // 0-based
	Status            string `csv:"status"`             // ok, error, timeout, crash, wrong
	ErrorMessage      string `csv:"error_message"`      // one line
	StartTime         string `csv:"start_time"`         // RFC 3339, UTC
	Mode              string `csv:"mode"`               // "time" or "rollouts"
	TargetSeconds     int    `csv:"target_seconds"`     // time mode
	TargetRollouts    int    `csv:"target_rollouts"`    // fixed-work mode
	MillisecondsTaken int64  `csv:"milliseconds_taken"` // the engine's own rollout time
	StateChanges      int64  `csv:"state_changes"`
	Rollouts          int64  `csv:"rollouts"`
	InitMilliseconds  int64  `csv:"init_milliseconds"`
	PeakRSSKiB        int64  `csv:"peak_rss_kib"`
	UserCPUMs         int64  `csv:"user_cpu_ms"`
	SystemCPUMs       int64  `csv:"system_cpu_ms"`
	WallMs            int64  `csv:"wall_ms"` // the whole child process, as the harness saw it
	GOMAXPROCS        int    `csv:"gomaxprocs"`
	Seed              uint64 `csv:"seed"`
	Shard             string `csv:"shard"` // "i/n", or "" when unsharded
	Host              string `csv:"host"`
	Machine           string `csv:"machine"` // fingerprint id: a hash of the fields below
	CPUModel          string `csv:"cpu_model"`
	Governor          string `csv:"governor"`
	LoadAverage       string `csv:"load_average"` // 1-minute load when the run started
	GoVersion         string `csv:"go_version"`
	Kernel            string `csv:"kernel"`
	StderrTail        string `csv:"stderr_tail"` // of a failed run, one line

	// The columns below came with gdlperf 2 (one header migration for all
	// of them: OpenWriter rewrites an older file with this header, rows
	// keeping their values and the new cells empty). Empty cells of old
	// rows read as the defaults named here.

	// The run's dimensions beside game, engine, version and repetition:
	// each is part of the run key when it is not its default (RunKeyParts).
	Workload       string `csv:"workload"`        // "" or "rollouts" (the gdl-perf loop); others name a search workload
	WorkloadBudget string `csv:"workload_budget"` // the workload's budget, "name=value" ("" for rollouts)
	Transform      string `csv:"transform"`       // rule transform of the game file: "" or "none", else its name(s)
	TransformSeed  uint64 `csv:"transform_seed"`  // seed of a seeded transform
	Measure        string `csv:"measure"`         // "" or "time"; "instructions" for instruction-count rows

	// How the run was measured.
	GdlperfVersion string `csv:"gdlperf_version"` // the harness's own version
	CPU            string `csv:"cpu"`             // the CPU the engine was pinned to, "" for none
	Jobs           int    `csv:"jobs"`            // engine processes the campaign ran at once (0 in old rows: 1)
	TimedCPUMs     int64  `csv:"timed_cpu_ms"`    // user+system CPU of the timed part, as the engine reported it (0: not reported)
	CPUShare       string `csv:"cpu_share"`       // CPU over wall time of the timed part, "0.973" ("" when not measured)
	Contended      bool   `csv:"contended"`       // CPUShare under the campaign's threshold: left out of verdicts
	LoadAfter      string `csv:"load_after"`      // 1-minute load when the run ended
	Cores          int    `csv:"cores"`           // logical CPUs of the machine
	MemoryMiB      int64  `csv:"memory_mib"`      // the machine's memory
	Flags          string `csv:"flags"`           // remarks on an ok run ("overran: ..."), "; "-separated

	// What the engine said of its setup.
	Design            string `csv:"design"`              // the design an engine kept (compiled, tupleprover)
	CodegenMs         int64  `csv:"codegen_ms"`          // compiled: code generation
	BuildMs           int64  `csv:"build_ms"`            // compiled: go build (0 on a cache hit)
	EngineOptions     string `csv:"engine_options"`      // the engine's non-default knobs, "k=v,k=v"
	Instructions      int64  `csv:"instructions"`        // measure instructions: user-mode instructions of the counted work
	InstructionsPerOp string `csv:"instructions_per_op"` // measure instructions: per rollout, setup excluded
	Counter           string `csv:"counter"`             // measure instructions: "perf" or "valgrind"
}

// Defaults of the run dimensions, as an empty cell reads.
const (
	DefaultWorkload  = "rollouts"
	DefaultTransform = "none"
	DefaultMeasure   = "time"
)

// WorkloadName is the row's workload, with the default for an empty cell.
func (r *Row) WorkloadName() string { return orDefault(r.Workload, DefaultWorkload) }

// TransformName is the row's transform, with the default for an empty cell.
func (r *Row) TransformName() string { return orDefault(r.Transform, DefaultTransform) }

// MeasureName is the row's measure, with the default for an empty cell.
func (r *Row) MeasureName() string { return orDefault(r.Measure, DefaultMeasure) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// RunKeyParts are the parts a run key is made of beyond game, engine,
// version, repetition, mode, target and campaign seed: the dimensions that
// are not at their defaults, as "name=value", in a fixed order. A run at
// every default has none, so the keys of campaigns written before these
// dimensions existed stay valid. Concurrency and pinning (jobs, cpu) are not
// parts: the same run on another CPU is the same run.
func RunKeyParts(workload, budget, transform string, transformSeed uint64, measure string) []string {
	var parts []string
	if workload != "" && workload != DefaultWorkload {
		parts = append(parts, "workload="+workload)
	}
	if budget != "" {
		parts = append(parts, "budget="+budget)
	}
	if transform != "" && transform != DefaultTransform {
		parts = append(parts, "transform="+transform)
		parts = append(parts, fmt.Sprintf("transform_seed=%d", transformSeed))
	}
	if measure != "" && measure != DefaultMeasure {
		parts = append(parts, "measure="+measure)
	}
	return parts
}

// StatesPerCPUSecond is the rate of a successful run over the CPU time of
// its timed part, or 0 when the engine did not report that time.
func (r *Row) StatesPerCPUSecond() float64 {
	if r.Status != StatusOK || r.TimedCPUMs <= 0 {
		return 0
	}
	return float64(r.StateChanges) * 1000 / float64(r.TimedCPUMs)
}

// StatesPerSecond is the rate of a successful run, or 0.
func (r *Row) StatesPerSecond() float64 {
	if r.Status != StatusOK || r.MillisecondsTaken <= 0 {
		return 0
	}
	return float64(r.StateChanges) * 1000 / float64(r.MillisecondsTaken)
}
