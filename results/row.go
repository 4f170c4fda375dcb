// Package results stores one CSV row per engine process run (ARCHITECTURE.md
// §6): append-only files, one writer per file, every row flushed and synced
// before the next run, torn last lines repaired, resume by run key, merge of
// files from shards and machines, and import of gdl-perf's rows.
package results

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
}

// StatesPerSecond is the rate of a successful run, or 0.
func (r *Row) StatesPerSecond() float64 {
	if r.Status != StatusOK || r.MillisecondsTaken <= 0 {
		return 0
	}
	return float64(r.StateChanges) * 1000 / float64(r.MillisecondsTaken)
}
