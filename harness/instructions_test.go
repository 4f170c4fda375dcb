package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	_ "github.com/gdlperf/gdlperf/engines/propnet"
	_ "github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/results"
)

func TestParseCachegrind(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    int64
		wantErr string
	}{
		{name: "Ir only", text: "desc: I1 cache: none\ncmd: /x\nevents: Ir\nfl=a.go\nfn=main\n1 5\nsummary: 55463780\n", want: 55463780},
		{name: "Ir among others", text: "events: Dr Ir Dw\nsummary: 1 2 3\n", want: 2},
		{name: "no summary", text: "events: Ir\nfl=a.go\n", wantErr: "no summary line"},
		{name: "no events", text: "summary: 5\n", wantErr: "before the events line"},
		{name: "no Ir event", text: "events: Dr\nsummary: 5\n", wantErr: "have no Ir"},
		{name: "short summary", text: "events: Dr Ir\nsummary: 5\n", wantErr: "no Ir column"},
		{name: "not a count", text: "events: Ir\nsummary: -5\n", wantErr: `"-5" is not a count`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCachegrind(tt.text)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParsePerfStat(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    int64
		wantErr string
	}{
		{name: "one line", text: "# started on Tue\n\n123456,,instructions:u,1000,100.00,,\n", want: 123456},
		{name: "hybrid cores add up", text: "100,,cpu_core/instructions:u/,1,100.00,,\n20,,cpu_atom/instructions:u/,1,100.00,,\n", want: 120},
		{name: "not supported", text: "<not supported>,,instructions:u,0,100.00,,\n", wantErr: "<not supported>"},
		{name: "not counted", text: "<not counted>,,instructions:u,0,0.00,,\n", wantErr: "<not counted>"},
		{name: "no line", text: "perf: command not found\n", wantErr: "no instructions line"},
		{name: "garbage count", text: "12x,,instructions:u,,\n", wantErr: `"12x" of instructions:u is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePerfStat(tt.text)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDetectCounter(t *testing.T) {
	withCPU := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(withCPU, "cpu"), 0o755))
	noCPU := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(noCPU, "software"), 0o755))
	counts := func(context.Context, string) (string, error) { return "5000,,instructions:u,1,100.00,,\n", nil }
	unsupported := func(context.Context, string) (string, error) {
		return "<not supported>,,instructions:u,0,100.00,,\n", nil
	}
	tests := []struct {
		name      string
		want      string
		events    string
		programs  []string // on the PATH
		perfStat  func(context.Context, string) (string, error)
		wantName  string
		wantWhy   string
		wantError string
	}{
		{name: "hardware counters", events: withCPU, programs: []string{"perf", "valgrind"}, perfStat: counts, wantName: CounterPerf, wantWhy: "hardware counters (cpu)"},
		{name: "no cpu event source", events: noCPU, programs: []string{"perf", "valgrind"}, perfStat: counts, wantName: CounterValgrind, wantWhy: "has no cpu event source"},
		{name: "kernel cannot count", events: withCPU, programs: []string{"perf", "valgrind"}, perfStat: unsupported, wantName: CounterValgrind, wantWhy: "<not supported>"},
		{name: "perf fails", events: withCPU, programs: []string{"perf", "valgrind"}, perfStat: func(context.Context, string) (string, error) {
			return "Permission denied", errors.New("exit status 255")
		}, wantName: CounterValgrind, wantWhy: "exit status 255: Permission denied"},
		{name: "no perf", events: withCPU, programs: []string{"valgrind"}, perfStat: counts, wantName: CounterValgrind, wantWhy: "perf is not on the PATH"},
		{name: "neither", events: noCPU, programs: nil, perfStat: counts, wantError: "no hardware counters (" + noCPU + " has no cpu event source (a virtual machine or container without a PMU)) and valgrind is not on the PATH; install it (apt-get install valgrind)"},
		{name: "valgrind asked for", want: "valgrind", events: withCPU, programs: []string{"perf", "valgrind"}, perfStat: counts, wantName: CounterValgrind, wantWhy: "chosen with --counter valgrind"},
		{name: "valgrind asked for, missing", want: "valgrind", events: withCPU, programs: []string{"perf"}, perfStat: counts, wantError: "valgrind is not on the PATH; install it (apt-get install valgrind)"},
		{name: "perf asked for, no counters", want: "perf", events: noCPU, programs: []string{"perf", "valgrind"}, perfStat: counts, wantError: "cannot count instructions with perf: " + noCPU + " has no cpu event source"},
		{name: "unknown counter", want: "papi", events: withCPU, perfStat: counts, wantError: `unknown instruction counter "papi"; the counters are auto, perf and valgrind`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := counterProbe{
				events: tt.events,
				lookPath: func(name string) (string, error) {
					for _, p := range tt.programs {
						if p == name {
							return "/usr/bin/" + name, nil
						}
					}
					return "", exec.ErrNotFound
				},
				perfStat: tt.perfStat,
			}
			c, err := detectCounter(context.Background(), tt.want, p)
			if tt.wantError != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantError)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantName, c.Name)
			assert.Equal(t, "/usr/bin/"+tt.wantName, c.Path)
			assert.Contains(t, c.Why, tt.wantWhy)
		})
	}
}

func TestCompareInstructions(t *testing.T) {
	tests := []struct {
		name        string
		old, new    []float64
		threshold   float64
		wantVerdict string
		wantRatio   float64
		wantErr     string
	}{
		{name: "3% more, one sample a side", old: []float64{1000}, new: []float64{1030}, wantVerdict: "slower", wantRatio: 1.03},
		{name: "3% less", old: []float64{1000, 1001}, new: []float64{970, 971}, wantVerdict: "faster", wantRatio: 970.5 / 1000.5},
		{name: "noise under the threshold", old: []float64{1000, 1002, 1001}, new: []float64{1004, 1003, 1005}, wantVerdict: "same", wantRatio: 1004.0 / 1001},
		{name: "over the threshold but overlapping", old: []float64{1000, 1100}, new: []float64{1050, 1200}, wantVerdict: "same", wantRatio: 1125.0 / 1050},
		{name: "a wider threshold", old: []float64{1000}, new: []float64{1030}, threshold: 0.05, wantVerdict: "same", wantRatio: 1.03},
		{name: "no old samples", new: []float64{1}, wantErr: "needs samples on both sides, not 0 and 1"},
		{name: "zero old", old: []float64{0}, new: []float64{1}, wantErr: "not positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := CompareInstructions(tt.old, tt.new, tt.threshold)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerdict, v.Verdict)
			assert.InDelta(t, tt.wantRatio, v.Ratio, 1e-9)
		})
	}
}

// valgrindCounter is the Valgrind counter, or the test is skipped.
func valgrindCounter(t *testing.T) Counter {
	t.Helper()
	c, err := DetectCounter(context.Background(), CounterValgrind)
	if err != nil {
		t.Skip(err.Error())
	}
	return c
}

var (
	instrEngineOnce sync.Once
	instrEnginePath string
	instrEngineErr  error
)

// instrEngine builds testdata/instrengine once per test binary.
func instrEngine(t *testing.T, work string) *Engine {
	t.Helper()
	instrEngineOnce.Do(func() {
		dir, err := os.MkdirTemp("", "instrengine-")
		if err != nil {
			instrEngineErr = err
			return
		}
		instrEnginePath = filepath.Join(dir, "instrengine")
		out, err := exec.Command("go", "build", "-o", instrEnginePath, "./testdata/instrengine").CombinedOutput()
		if err != nil {
			instrEngineErr = fmt.Errorf("building testdata/instrengine: %v: %s", err, out)
		}
	})
	if instrEngineErr != nil {
		if errors.Is(instrEngineErr, exec.ErrNotFound) {
			t.Skip("needs go on the PATH")
		}
		require.NoError(t, instrEngineErr)
	}
	return &Engine{Name: "instrengine", Version: work, Command: []string{instrEnginePath}, Env: []string{"WORK=" + work}, FixedWork: true}
}

func TestMain(m *testing.M) {
	if name := os.Getenv(helperEngineVar); name != "" {
		os.Exit(helperEngine(name, os.Args))
	}
	code := m.Run()
	if instrEnginePath != "" {
		os.RemoveAll(filepath.Dir(instrEnginePath))
	}
	os.Exit(code)
}

// helperEngineVar makes the test binary a built-in engine process, as
// gdlperf engine run NAME is: --rollouts N --seed S GAME RESULT SECONDS.
const helperEngineVar = "GDLPERF_TEST_HELPER_ENGINE"

func helperEngine(name string, args []string) int {
	var rollouts int
	var seed uint64
	rest := args[1:]
	for len(rest) >= 2 && (rest[0] == "--rollouts" || rest[0] == "--seed") {
		n, err := strconv.ParseUint(rest[1], 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if rest[0] == "--rollouts" {
			rollouts = int(n)
		} else {
			seed = n
		}
		rest = rest[2:]
	}
	if len(rest) != 3 {
		fmt.Fprintln(os.Stderr, "usage: --rollouts N --seed S GAME RESULT SECONDS")
		return 2
	}
	e, ok := engines.Lookup(name)
	if !ok {
		fmt.Fprintln(os.Stderr, "no engine", name)
		return 2
	}
	src, err := os.ReadFile(rest[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	res, _ := rollout.Process{Engine: e, File: rest[0], Rules: src, Rollouts: rollouts, Seed: seed}.Run()
	if err := res.WriteFile(rest[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// builtinEngine runs a built-in engine in the test binary.
func builtinEngine(t *testing.T, name string) *Engine {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	e, ok := engines.Lookup(name)
	require.True(t, ok, name)
	return &Engine{Name: name, Version: e.Version, Command: []string{exe}, Env: []string{helperEngineVar + "=" + name}, FixedWork: true, Builtin: true}
}

// measure counts the instructions of e on tic-tac-toe with n and 2n rollouts.
func measure(t *testing.T, c Counter, e *Engine, n int) InstructionCount {
	t.Helper()
	tic, ok := gamerepo.Builtin("tictactoe")
	require.True(t, ok)
	dir := t.TempDir()
	game := filepath.Join(dir, "game.kif")
	require.NoError(t, os.WriteFile(game, tic.Rules, 0o400))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "out"), 0o700))
	m := c.MeasureInstructions(context.Background(), e, n, 7, game, filepath.Join(dir, "out", "result.txt"), dir,
		ChildOptions{Limit: 5 * time.Minute, CPU: -1, TempRoot: dir})
	require.Equal(t, results.StatusOK, m.Outcome.Status, "%s %s", m.Outcome.Error, m.Outcome.StderrTail)
	require.Positive(t, m.Small)
	require.Greater(t, m.Large, m.Small)
	assert.Equal(t, m.Large-m.Small, m.Work)
	assert.InDelta(t, float64(m.Work)/float64(n), m.PerRollout, 1e-6)
	assert.Equal(t, int64(2*n), m.Outcome.Rollouts, "the outcome is the run of 2N")
	return m
}

func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Min(a, b) }

// The same engine version measured twice with the harness's measurement
// (Valgrind, 3 processes a size) differs by under 0.5 % (done-when of issue
// 17 item 4): the fixed-work test program and the prover on tic-tac-toe.
// The prover hashes with fixed functions (engines/prover/hash.go), so what
// varies between its processes is the Go runtime's own work (its page
// allocator and system monitor, the move texts' map of the rollout loop):
// about 0.05 % (σ) of a measurement of 200 rollouts.
func TestInstructionsRepeatable(t *testing.T) {
	if testing.Short() {
		t.Skip("24 counted runs, about a minute")
	}
	c := valgrindCounter(t)
	tests := []struct {
		name    string
		engine  func() *Engine
		n       int
		wantMax float64
	}{
		{name: "fixed work", engine: func() *Engine {
			e := instrEngine(t, "1")
			e.Env = append(e.Env, "ITERATIONS=100000") // about 1e7 instructions a rollout
			return e
		}, n: 10, wantMax: 0.005},
		// 200 rollouts are about 1.4e8 instructions, so the noise of a
		// process (about 1e5) is under 0.1 % of them.
		{name: "prover", engine: func() *Engine { return builtinEngine(t, "prover") }, n: 200, wantMax: 0.005},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.engine()
			a := measure(t, c, e, tt.n)
			b := measure(t, c, e, tt.n)
			d := relDiff(a.PerRollout, b.PerRollout)
			t.Logf("%s: %s on tic-tac-toe, %.1f and %.1f instructions per rollout: %.3f%% apart (counts of N: %v and %v, of 2N: %v and %v)", c.Name, e.Name, a.PerRollout, b.PerRollout, 100*d, a.Smalls, b.Smalls, a.Larges, b.Larges)
			assert.Less(t, d, tt.wantMax)
		})
	}
}

// perf is tested where the kernel exposes hardware counters.
func TestInstructionsPerf(t *testing.T) {
	c, err := DetectCounter(context.Background(), CounterPerf)
	if err != nil {
		t.Skip(err.Error())
	}
	e := instrEngine(t, "1")
	a := measure(t, c, e, 10)
	b := measure(t, c, e, 10)
	assert.Less(t, relDiff(a.PerRollout, b.PerRollout), 0.005)
}

// A 3 % slower variant is caught 10 times in 10, and the same variant
// measured twice is never taken for a change.
func TestInstructionsCatchThreePercent(t *testing.T) {
	if testing.Short() {
		t.Skip("40 counted runs, about 40 s")
	}
	c := valgrindCounter(t)
	c.Processes = 1 // the program's count repeats to 0.02 %: one process a size is enough
	base, slow := instrEngine(t, "1"), instrEngine(t, "1.03")
	base.Env = append(base.Env, "ITERATIONS=100000")
	slow.Env = append(slow.Env, "ITERATIONS=100000")
	var prev float64
	for i := range 10 {
		a := measure(t, c, base, 3)
		b := measure(t, c, slow, 3)
		v, err := CompareInstructions([]float64{a.PerRollout}, []float64{b.PerRollout}, 0)
		require.NoError(t, err)
		t.Logf("trial %d: %.0f and %.0f instructions per rollout, ratio %.4f", i, a.PerRollout, b.PerRollout, v.Ratio)
		assert.Equal(t, "slower", v.Verdict, "trial %d", i)
		if i > 0 {
			same, err := CompareInstructions([]float64{prev}, []float64{a.PerRollout}, 0)
			require.NoError(t, err)
			assert.Equal(t, "same", same.Verdict, "trial %d: the base against itself, ratio %.4f", i, same.Ratio)
		}
		prev = a.PerRollout
	}
}

// fakeValgrind is a counter whose program stands in for Valgrind: it runs
// the engine and writes a Cachegrind summary of 1000000 + 1000 instructions
// a rollout, plus OUTLIER in the OUTLIER_AT-th process it counts (1-based,
// numbered in the file SEQ).
func fakeValgrind(t *testing.T, k int) Counter {
	t.Helper()
	path := filepath.Join(t.TempDir(), "valgrind")
	script := `#!/bin/sh
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--cachegrind-out-file=*) out="${1#--cachegrind-out-file=}" ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
"$@" || exit $?
seq=$(( $(cat "$SEQ" 2>/dev/null || echo 0) + 1 ))
echo $seq > "$SEQ"
ir=$(( 1000000 + 1000 * $3 ))
[ "$seq" = "$OUTLIER_AT" ] && ir=$(( ir + OUTLIER ))
printf 'events: Ir
summary: %d
' $ir > "$(echo "$out" | sed "s/%p/$$/")"
`
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return Counter{Name: CounterValgrind, Path: path, Processes: k}
}

// Each size is counted in k processes and the medians taken, so that one
// process that counts more than the others does not move the figure.
func TestMeasureInstructionsMedian(t *testing.T) {
	tests := []struct {
		name      string
		k         int
		outlierAt int // the process (1-based; odd: N rollouts, even: 2N) that counts 50000 more
		wantPer   float64
		wantK     int
		wantFlag  string
	}{
		{name: "one process a size: the outlier is in the figure", k: 1, outlierAt: 2, wantPer: 1000 + 50000/10.0, wantK: 1},
		{name: "default: 3 processes a size", k: 0, outlierAt: 0, wantPer: 1000, wantK: 3, wantFlag: "medians of 3 processes a size, whose counts differed by up to 0.000% of the work"},
		{name: "an outlier of the larger size is left out", k: 3, outlierAt: 4, wantPer: 1000, wantK: 3, wantFlag: "whose counts differed by up to 500.000% of the work"},
		{name: "an outlier of the smaller size is left out", k: 3, outlierAt: 5, wantPer: 1000, wantK: 3},
		{name: "5 processes a size", k: 5, outlierAt: 1, wantPer: 1000, wantK: 5, wantFlag: "medians of 5 processes a size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			game := filepath.Join(dir, "game.kif")
			require.NoError(t, os.WriteFile(game, []byte("(role r)"), 0o644))
			e := fakeEngine(t, `n=$2; shift 4; printf 'version = 1\nmillisecondsTaken = 1\nnumStateChanges = %d\nnumRollouts = %d\n' $((10 * n)) $n > "$2"`)
			e.FixedWork = true
			e.Env = []string{"SEQ=" + filepath.Join(dir, "seq"), "OUTLIER=50000", "OUTLIER_AT=" + strconv.Itoa(tt.outlierAt)}
			c := fakeValgrind(t, tt.k)
			m := c.MeasureInstructions(context.Background(), e, 10, 1, game, filepath.Join(dir, "result.txt"), dir, ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: dir})
			require.Equal(t, results.StatusOK, m.Outcome.Status, m.Outcome.Error)
			assert.Equal(t, tt.wantK, m.Processes)
			assert.Len(t, m.Smalls, tt.wantK)
			assert.Len(t, m.Larges, tt.wantK)
			assert.InDelta(t, tt.wantPer, m.PerRollout, 1e-9)
			assert.Equal(t, m.Large-m.Small, m.Work)
			assert.Equal(t, int64(20), m.Outcome.Rollouts, "the outcome is a run of 2N")
			if tt.wantK == 1 {
				assert.Zero(t, m.Spread)
				assert.NotContains(t, strings.Join(m.Outcome.Flags, "; "), "processes a size")
			}
			if tt.wantFlag != "" {
				assert.Contains(t, strings.Join(m.Outcome.Flags, "; "), tt.wantFlag)
			}
		})
	}
}

func TestMeasureInstructionsFaults(t *testing.T) {
	c := valgrindCounter(t)
	dir := t.TempDir()
	game := filepath.Join(dir, "game.kif")
	require.NoError(t, os.WriteFile(game, []byte("(role r)"), 0o644))
	o := ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: dir}
	tests := []struct {
		name      string
		engine    *Engine
		n         int
		wantError string
	}{
		{name: "not fixed work", engine: &Engine{Name: "timed", Command: []string{"/bin/true"}}, n: 5,
			wantError: "engine timed does not take --rollouts (fixed work)"},
		{name: "no rollouts", engine: &Engine{Name: "e", Command: []string{"/bin/true"}, FixedWork: true}, n: 0,
			wantError: "needs a positive number of rollouts, not 0"},
		{name: "the smaller run fails", engine: &Engine{Name: "e", Command: []string{"/bin/false"}, FixedWork: true}, n: 5,
			wantError: "the run of 5 rollouts: "},
		{name: "not the work asked for", engine: func() *Engine {
			e := fakeEngine(t, "shift 4; "+result("version = 1", "millisecondsTaken = 1", "numStateChanges = 10", "numRollouts = 3"))
			e.FixedWork = true
			return e
		}(), n: 5, wantError: "asked for 5 rollouts, the engine reported 3: not a fixed work"},
		{name: "exec into the go command", engine: func() *Engine {
			bin := t.TempDir()
			goCmd := filepath.Join(bin, "go")
			require.NoError(t, os.WriteFile(goCmd, []byte("#!/bin/sh\nshift 4; "+result("version = 1", "millisecondsTaken = 1", "numStateChanges = 10", "numRollouts = 5")+"\n"), 0o755))
			e := fakeEngine(t, "exec "+goCmd+` "$@"`)
			e.FixedWork = true
			return e
		}(), n: 5, wantError: "valgrind wrote no counts (it does not follow the go command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.MeasureInstructions(context.Background(), tt.engine, tt.n, 1, game, filepath.Join(dir, "result.txt"), dir, o)
			assert.NotEqual(t, results.StatusOK, m.Outcome.Status)
			assert.Contains(t, m.Outcome.Error, tt.wantError)
			assert.Zero(t, m.PerRollout)
		})
	}
}

// The campaign's run of a measure-instructions run key: one row with the
// count of N rollouts, its counter, and the figures of the 2N run.
func TestRunInstructionsRow(t *testing.T) {
	c := valgrindCounter(t)
	e := instrEngine(t, "1")
	camp := &Campaign{Options: Options{Rollouts: 3}, Measure: Measurement{GdlperfVersion: "test"}}
	r := Run{Key: "k1", Game: &Game{Key: "LOCAL/g/abc", Rules: []byte("(role r)")}, Engine: e, Seed: 9, Dims: Dims{Measure: results.MeasureInstructions}}
	dir := t.TempDir()
	row, out, err := camp.runInstructions(context.Background(), r, dir, ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: dir}, time.Now, &c)
	require.NoError(t, err)
	require.Equal(t, results.StatusOK, row.Status, row.ErrorMessage)
	assert.Equal(t, results.MeasureInstructions, row.Measure)
	assert.Equal(t, CounterValgrind, row.Counter)
	assert.Equal(t, "rollouts", row.Mode)
	assert.Equal(t, 3, row.TargetRollouts)
	assert.Equal(t, int64(6), row.Rollouts, "the row's figures are the 2N run's")
	assert.Equal(t, int64(6), out.Rollouts)
	per, ok := row.PerOp()
	require.True(t, ok, row.InstructionsPerOp)
	assert.InDelta(t, float64(row.Instructions)/3, per, 0.1)
	// Seed 9, rollouts 3..5: (9+3)%7+5 + (9+4)%7+5 + (9+5)%7+5 = 10+11+5
	// state changes of 20000 xorshift steps, at least 3 instructions each.
	assert.Greater(t, row.Instructions, int64(26*20000*3))
	assert.False(t, row.Contended, "a busy machine does not spoil a count")
	assert.Contains(t, row.Flags, "medians of 3 processes a size, whose counts differed by up to ", "the row says k")
	assert.Contains(t, row.Flags, "few instructions counted: 3 rollouts took", "under SteadyWork")
	assert.Contains(t, row.Flags, fmt.Sprintf("; give --rollouts %d", int64(math.Ceil(3*2*SteadyWork/float64(row.Instructions)))))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "the run's folders are removed")

	// An engine that is not in fixed-work mode gets an error row.
	timed := &Engine{Name: "timed", Version: "1", Command: []string{"/bin/true"}}
	r.Engine = timed
	row, _, err = camp.runInstructions(context.Background(), r, dir, ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: dir}, time.Now, &c)
	require.NoError(t, err)
	assert.Equal(t, results.StatusError, row.Status)
	assert.Contains(t, row.ErrorMessage, "does not take --rollouts")
	assert.Equal(t, results.MeasureInstructions, row.Measure)
	assert.Empty(t, row.InstructionsPerOp)
}

// Without --rollouts, a count of DefaultInstructionRollouts that is too
// small for a process's noise is taken again with enough rollouts (at most
// MaxAutoRollouts), and the row says so; with --rollouts it is only flagged
// (TestRunInstructionsRow).
func TestRunInstructionsAutoRollouts(t *testing.T) {
	dir := t.TempDir()
	e := fakeEngine(t, `n=$2; shift 4; printf 'version = 1\nmillisecondsTaken = 1\nnumStateChanges = %d\nnumRollouts = %d\n' $((10 * n)) $n > "$2"`)
	e.FixedWork, e.Version = true, "1"
	e.Env = []string{"SEQ=" + filepath.Join(dir, "seq"), "OUTLIER=0", "OUTLIER_AT=0"}
	c := fakeValgrind(t, 1) // 1000 instructions a rollout
	camp := &Campaign{Measure: Measurement{GdlperfVersion: "test"}}
	r := Run{Key: "k1", Game: &Game{Key: "LOCAL/g/abc", Rules: []byte("(role r)")}, Engine: e, Seed: 9, Dims: Dims{Measure: results.MeasureInstructions}}
	row, _, err := camp.runInstructions(context.Background(), r, dir, ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: dir}, time.Now, &c)
	require.NoError(t, err)
	require.Equal(t, results.StatusOK, row.Status, row.ErrorMessage)
	assert.Equal(t, MaxAutoRollouts, row.TargetRollouts, "20 rollouts of 1000 instructions want 100,000 for 10^8")
	assert.Equal(t, int64(1000*MaxAutoRollouts), row.Instructions)
	assert.Contains(t, row.Flags, fmt.Sprintf("20 rollouts counted 20000 instructions, under %d: counted again with %d rollouts", int64(SteadyWork), MaxAutoRollouts))
	assert.NotContains(t, row.Flags, "give --rollouts 100000", "the recount is enough")
}

func TestWithMeasure(t *testing.T) {
	games := []*Game{{Key: "BUILTIN/a/x"}, {Key: "BUILTIN/b/y"}}
	engs := []*Engine{{Name: "p", Version: "1", FixedWork: true}, {Name: "q", Version: "2", FixedWork: true}}
	o := Options{Rollouts: 20, Repetitions: 2, Seed: 3}
	plan := Plan(games, engs, o)
	tests := []struct {
		name      string
		measure   string
		wantDims  string
		wantSameK bool
	}{
		{name: "time by default", measure: "", wantDims: "", wantSameK: true},
		{name: "time said", measure: results.DefaultMeasure, wantDims: "", wantSameK: true},
		{name: "instructions", measure: results.MeasureInstructions, wantDims: results.MeasureInstructions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithMeasure(plan, o, tt.measure)
			require.Len(t, got, len(plan))
			keys := map[string]bool{}
			for i, r := range got {
				assert.Equal(t, tt.wantDims, r.Dims.Measure)
				assert.Equal(t, tt.wantSameK, r.Key == plan[i].Key, "run %d", i)
				assert.Equal(t, plan[i].Seed, r.Seed, "the same rollouts either way")
				keys[r.Key] = true
			}
			assert.Len(t, keys, len(plan), "keys stay distinct")
			again := WithMeasure(plan, o, tt.measure)
			assert.Equal(t, got, again, "keys are stable")
		})
	}
	assert.Empty(t, plan[0].Dims.Measure, "the plan given is not changed")
}

func TestValgrindLog(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want string
	}{
		{name: "banner only", log: "==7== Cachegrind, a cache and branch-prediction profiler\n==7== Command: /x\n--7-- warning: L3 cache found, using its data for the LL simulation.\n--7-- warning: specified LL cache: line_size 64\n", want: ""},
		{name: "unsupported system call", log: "==7== Command: /x\n--7-- WARNING: unhandled amd64-linux syscall: 451\n--7-- You may be able to write your own handler.\n", want: "; valgrind: WARNING: unhandled amd64-linux syscall: 451 | You may be able to write your own handler."},
		{name: "client killed", log: "==7== \n==7== Process terminating with default action of signal 11 (SIGSEGV)\n", want: "; valgrind: Process terminating with default action of signal 11 (SIGSEGV)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "valgrind.7.log"), []byte(tt.log), 0o644))
			assert.Equal(t, tt.want, valgrindLog(dir))
		})
	}
}
