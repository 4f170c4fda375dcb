package results

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// ExportBench writes the ok rows that have a rate (state changes and time
// above 0) in the Go benchmark format
// (golang.org/x/perf/benchfmt), so that benchstat summarises and compares
// them. Each run is one result line
//
//	BenchmarkGame/game=BASE:ticTacToe:JRFsaQ/engine=prover/version=1.0-8 N T ns/op S states/s
//
// where N is the number of state changes, T the nanoseconds per state change,
// S the state changes per second and the -8 the run's GOMAXPROCS (left off
// when unknown). The repetitions of a pair are the samples benchstat
// summarises. The machine is described by configuration lines (goos, cpu,
// governor, kernel, goversion, host, machine) before its results; rows are
// grouped by machine, so benchstat puts each machine in its own table.
//
// Name values are escaped: '/' becomes ':' (game keys keep their three
// parts), white space, control characters, bidi controls and invalid UTF-8
// (protocol.Unsafe) become '_', and a final "-digits"
// that benchfmt would read as GOMAXPROCS gets its '-' turned into '_'.
// Compare versions of an engine with "benchstat -col /version", engines with
// "benchstat -col /engine".
func ExportBench(w io.Writer, rows []Row) error {
	var ok []*Row
	for i := range rows {
		r := &rows[i]
		if r.IsInstructions() {
			// Its times are of a counted run: only its count goes out.
			if _, _, has := benchInstructions(r); has {
				ok = append(ok, r)
			}
			continue
		}
		if r.Status == StatusOK && r.StateChanges > 0 && r.MillisecondsTaken > 0 {
			ok = append(ok, r)
		}
	}
	slices.SortStableFunc(ok, func(a, b *Row) int {
		if c := cmp.Compare(a.Machine, b.Machine); c != 0 {
			return c
		}
		return compareRows(*a, *b)
	})
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "Unit states/s better=higher")
	var cfg []string // of the previous row, as key-value pairs
	for _, r := range ok {
		next := benchConfig(r)
		if !slices.Equal(next, cfg) {
			fmt.Fprintln(bw)
			for i := 0; i < len(next); i += 2 {
				if next[i+1] == "" {
					if cfg != nil && cfg[i+1] != "" {
						fmt.Fprintf(bw, "%s:\n", next[i]) // deletes the previous machine's value
					}
				} else {
					fmt.Fprintf(bw, "%s: %s\n", next[i], next[i+1])
				}
			}
			cfg = next
		}
		name := "Game/game=" + benchValue(r.GameKey) + "/engine=" + benchValue(r.Engine) + "/version=" + benchValue(r.EngineVersion)
		instrName, instrValue, instr := benchInstructions(r)
		name += instrName
		if r.GOMAXPROCS > 0 {
			name += "-" + strconv.Itoa(r.GOMAXPROCS)
		} else if i := procsSuffix(name); i >= 0 {
			name = name[:i] + "_" + name[i+1:]
		}
		if instr {
			fmt.Fprintf(bw, "Benchmark%s %s\n", name, instrValue)
			continue
		}
		nsPerState := float64(r.MillisecondsTaken) * 1e6 / float64(r.StateChanges)
		fmt.Fprintf(bw, "Benchmark%s %d %s ns/op %s states/s\n", name, r.StateChanges, benchNumber(nsPerState), benchNumber(r.StatesPerSecond()))
	}
	return bw.Flush()
}

// benchConfig is the machine of r as benchfmt configuration, key then value.
func benchConfig(r *Row) []string {
	goos := ""
	if known(r.Kernel) {
		// The harness reads the kernel release from /proc: Linux.
		goos = "linux"
	}
	kv := []string{
		"goos", goos,
		"cpu", r.CPUModel,
		"governor", r.Governor,
		"kernel", r.Kernel,
		"goversion", r.GoVersion,
		"host", r.Host,
		"machine", r.Machine,
	}
	for i := 1; i < len(kv); i += 2 {
		if !known(kv[i]) {
			kv[i] = ""
		}
		kv[i] = configValue(kv[i])
	}
	return kv
}

func known(s string) bool { return s != "" && s != "unknown" }

// configValue makes s one line without surrounding space, control
// characters and bidi controls (protocol.Unsafe) turned into spaces.
func configValue(s string) string {
	s = strings.Map(func(r rune) rune {
		if protocol.Unsafe(r) {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// benchValue escapes a sub-benchmark value: no '/', no white space.
func benchValue(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '/':
			return ':'
		case unicode.IsSpace(r) || protocol.Unsafe(r):
			return '_'
		}
		return r
	}, s)
}

// procsSuffix returns the index of the '-' of a final "-digits" in name, or
// -1 (benchfmt's rule for a GOMAXPROCS suffix).
func procsSuffix(name string) int {
	for i := len(name) - 1; i >= 0; i-- {
		c := name[i]
		if c == '-' && i < len(name)-1 {
			return i
		}
		if c < '0' || c > '9' {
			break
		}
	}
	return -1
}

// benchNumber prints x with the precision "go test -bench" uses: five
// significant digits or all the integer digits.
func benchNumber(x float64) string {
	switch y := math.Abs(x); {
	case y == 0 || y >= 999.95:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case y >= 99.995:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case y >= 9.9995:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case y >= 0.99995:
		return strconv.FormatFloat(x, 'f', 3, 64)
	case y >= 0.099995:
		return strconv.FormatFloat(x, 'f', 4, 64)
	case y >= 0.0099995:
		return strconv.FormatFloat(x, 'f', 5, 64)
	case y >= 0.00099995:
		return strconv.FormatFloat(x, 'f', 6, 64)
	}
	return strconv.FormatFloat(x, 'f', 7, 64)
}
