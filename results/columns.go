package results

import (
	"fmt"
	"strconv"
	"strings"
)

// setters decode each column of Row without reflection: loading is what a
// resumed campaign waits for, and gocsv's reflection made it several times
// slower. Rows are still written by gocsv, and the tests check that these
// setters read back exactly what gocsv reads (TestDecodeMatchesGocsv) and
// cover every csv tag of Row (TestSettersCoverRow).
var setters = map[string]func(r *Row, s string) error{
	"run_key":             str(func(r *Row) *string { return &r.RunKey }),
	"game_key":            str(func(r *Row) *string { return &r.GameKey }),
	"engine":              str(func(r *Row) *string { return &r.Engine }),
	"engine_version":      str(func(r *Row) *string { return &r.EngineVersion }),
	"repetition":          integer(func(r *Row) *int { return &r.Repetition }),
	"status":              str(func(r *Row) *string { return &r.Status }),
	"error_message":       str(func(r *Row) *string { return &r.ErrorMessage }),
	"start_time":          str(func(r *Row) *string { return &r.StartTime }),
	"mode":                str(func(r *Row) *string { return &r.Mode }),
	"target_seconds":      integer(func(r *Row) *int { return &r.TargetSeconds }),
	"target_rollouts":     integer(func(r *Row) *int { return &r.TargetRollouts }),
	"milliseconds_taken":  integer(func(r *Row) *int64 { return &r.MillisecondsTaken }),
	"state_changes":       integer(func(r *Row) *int64 { return &r.StateChanges }),
	"rollouts":            integer(func(r *Row) *int64 { return &r.Rollouts }),
	"init_milliseconds":   integer(func(r *Row) *int64 { return &r.InitMilliseconds }),
	"peak_rss_kib":        integer(func(r *Row) *int64 { return &r.PeakRSSKiB }),
	"user_cpu_ms":         integer(func(r *Row) *int64 { return &r.UserCPUMs }),
	"system_cpu_ms":       integer(func(r *Row) *int64 { return &r.SystemCPUMs }),
	"wall_ms":             integer(func(r *Row) *int64 { return &r.WallMs }),
	"gomaxprocs":          integer(func(r *Row) *int { return &r.GOMAXPROCS }),
	"seed":                unsigned(func(r *Row) *uint64 { return &r.Seed }),
	"shard":               str(func(r *Row) *string { return &r.Shard }),
	"host":                str(func(r *Row) *string { return &r.Host }),
	"machine":             str(func(r *Row) *string { return &r.Machine }),
	"cpu_model":           str(func(r *Row) *string { return &r.CPUModel }),
	"governor":            str(func(r *Row) *string { return &r.Governor }),
	"load_average":        str(func(r *Row) *string { return &r.LoadAverage }),
	"go_version":          str(func(r *Row) *string { return &r.GoVersion }),
	"kernel":              str(func(r *Row) *string { return &r.Kernel }),
	"stderr_tail":         str(func(r *Row) *string { return &r.StderrTail }),
	"workload":            str(func(r *Row) *string { return &r.Workload }),
	"workload_budget":     str(func(r *Row) *string { return &r.WorkloadBudget }),
	"transform":           str(func(r *Row) *string { return &r.Transform }),
	"transform_seed":      unsigned(func(r *Row) *uint64 { return &r.TransformSeed }),
	"measure":             str(func(r *Row) *string { return &r.Measure }),
	"gdlperf_version":     str(func(r *Row) *string { return &r.GdlperfVersion }),
	"cpu":                 str(func(r *Row) *string { return &r.CPU }),
	"jobs":                integer(func(r *Row) *int { return &r.Jobs }),
	"timed_cpu_ms":        integer(func(r *Row) *int64 { return &r.TimedCPUMs }),
	"cpu_share":           str(func(r *Row) *string { return &r.CPUShare }),
	"contended":           boolean(func(r *Row) *bool { return &r.Contended }),
	"load_after":          str(func(r *Row) *string { return &r.LoadAfter }),
	"cores":               integer(func(r *Row) *int { return &r.Cores }),
	"memory_mib":          integer(func(r *Row) *int64 { return &r.MemoryMiB }),
	"flags":               str(func(r *Row) *string { return &r.Flags }),
	"design":              str(func(r *Row) *string { return &r.Design }),
	"codegen_ms":          integer(func(r *Row) *int64 { return &r.CodegenMs }),
	"build_ms":            integer(func(r *Row) *int64 { return &r.BuildMs }),
	"engine_options":      str(func(r *Row) *string { return &r.EngineOptions }),
	"instructions":        integer(func(r *Row) *int64 { return &r.Instructions }),
	"instructions_per_op": str(func(r *Row) *string { return &r.InstructionsPerOp }),
	"counter":             str(func(r *Row) *string { return &r.Counter }),
}

// boolean reads what gocsv writes for a bool ("true", "false"); an empty
// cell is false.
func boolean(field func(*Row) *bool) func(*Row, string) error {
	return func(r *Row, s string) error {
		switch strings.TrimSpace(s) {
		case "", "false", "0":
			*field(r) = false
		case "true", "1":
			*field(r) = true
		default:
			return fmt.Errorf("%q is not true or false", s)
		}
		return nil
	}
}

func str(field func(*Row) *string) func(*Row, string) error {
	return func(r *Row, s string) error { *field(r) = s; return nil }
}

// integer reads a decimal integer; an empty cell is 0, as with gocsv.
func integer[T int | int64](field func(*Row) *T) func(*Row, string) error {
	return func(r *Row, s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			*field(r) = 0
			return nil
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		if int64(T(v)) != v {
			return fmt.Errorf("%q is out of range", s)
		}
		*field(r) = T(v)
		return nil
	}
}

func unsigned(field func(*Row) *uint64) func(*Row, string) error {
	return func(r *Row, s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			*field(r) = 0
			return nil
		}
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an unsigned integer", s)
		}
		*field(r) = v
		return nil
	}
}

// decodeRecords turns records (header first) into rows. Unknown columns are
// ignored; lines gives the file line of each record for errors.
func decodeRecords(name string, records [][]string, lines []int) ([]Row, error) {
	hdr := records[0]
	set := make([]func(*Row, string) error, len(hdr))
	for i, h := range hdr {
		set[i] = setters[h]
	}
	rows := make([]Row, len(records)-1)
	for i, rec := range records[1:] {
		r := &rows[i]
		for j, s := range rec {
			if set[j] == nil {
				continue
			}
			if err := set[j](r, s); err != nil {
				return nil, fmt.Errorf("%s:%d: column %s: %w", name, lines[i+1], hdr[j], err)
			}
		}
	}
	return rows, nil
}
