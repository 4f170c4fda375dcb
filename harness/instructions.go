package harness

// Instruction counts as a second measure (gdlperf run --measure
// instructions). Time is noisy: another process, the CPU's frequency or a
// page cache makes a run a few per cent slower or faster, so a small change of
// an engine hides in the noise of its rates. The number of user-mode
// instructions the engine executes for a fixed work is nearly deterministic,
// so a 1 % change is visible in one pair of runs (the method of
// Cachegrind-based benchmark trackers such as rustc's perf.rust-lang.org
// and CodSpeed, and of "perf stat -e instructions:u").
//
// The count of a process includes its setup (start-up, parsing, grounding,
// code generation). To leave it out, the engine runs twice in fixed-work
// mode: N and 2N seeded rollouts. Both runs do the same setup and the same
// first N rollouts, so I(2N) - I(N) is the count of N rollouts and
// (I(2N) - I(N)) / N the instructions per rollout.
//
// Two counters: Linux hardware counters through perf (perf stat -e
// instructions:u, counting the whole process tree), where the kernel exposes
// them, and Valgrind's Cachegrind (--cache-sim=no, every process of the tree
// through --trace-children=yes) elsewhere, about 50 times slower. The row
// records which counted (results.Row.Counter): their counts differ (perf
// counts what the CPU retires, Cachegrind what it simulates), so rows of the
// two counters are never compared.
//
// A process's count is not quite a function of its work: the Go runtime's
// page allocator and system monitor work by the clock, and a Go map takes a
// random hash seed in every process, so its probes differ. Each size is
// therefore counted in k processes (Counter.Processes, 3 by default) and
// the medians taken, so that one outlying process does not move the
// figure; the row's flags say k and how far the processes of a size were
// apart.
//
// Which engines it suits: those that do the same work in every process.
// Measured here with Valgrind on tic-tac-toe, 200 rollouts, per-rollout
// counts of two measurements: a fixed-work Go program and the prover
// (whose tables hash with fixed functions, engines/prover/hash.go) both
// under 0.1 % apart (before the prover's maps went, 0.1-0.6 %, σ 0.2 %).
// The other built-in engines do too since their setups choose by counted
// work, not by the clock, and build in a fixed order (before, the tuple
// prover's and the compiled engine's timed warm-ups gave ±8 % and ±12 %,
// the propnet's network in map order ±30 %): two measurements of 200-400
// rollouts, tuple prover 0.02-0.05 %, compiled 0.02-0.16 %, propnet
// 0.17 %. Not suited: JIT-compiled JVM engines (a trivial loop under java:
// ±8 % with default flags, 1.5 % with -XX:TieredStopAtLevel=1
// -XX:CICompilerCount=1 -XX:+UseSerialGC; its compiler threads race the
// interpreter).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdlperf/gdlperf/results"
)

// Names of the instruction counters, as rows record them.
const (
	CounterPerf     = results.CounterPerf
	CounterValgrind = results.CounterValgrind
)

// DefaultInstructionRollouts is N, the smaller of the two work sizes, when
// the campaign gives no --rollouts.
const DefaultInstructionRollouts = 20

// CounterEnv is the environment every engine process gets when its
// instructions are counted, before the engine's own (a manifest's env
// wins). For Go engines it takes the noise out of the count: no garbage
// collection until the heap is large (GOGC=off with a memory limit, where a
// collection runs), no asynchronous preemption signals, and GOMAXPROCS=1
// (set through ChildOptions) so that no second thread takes part in the
// work. The setting is the same for both work sizes, so it does not enter
// the difference beyond what collections the larger one needs. Go's
// runtime reads the time stamp counter with RDTSCP where the CPU has it
// (a contended lock's spin), an instruction Valgrind 3.19 (Debian 12's)
// does not run: the process dies of SIGILL under load. cpu.rdtscp=off
// makes it use RDTSC with fences, which Valgrind runs.
var CounterEnv = []string{"GOGC=off", "GOMEMLIMIT=2GiB", "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off"}

// valgrindSkip are programs Valgrind does not follow into: the Go
// toolchain the compiled engine runs in its setup (a cache hit in one run
// and a build in the other would otherwise differ by billions).
const valgrindSkip = "*/go,*/pkg/tool/*"

// Counter counts the user-mode instructions of an engine process and its
// children.
type Counter struct {
	Name string // CounterPerf or CounterValgrind
	Path string // the program
	// Why says why this counter was chosen (for valgrind: why perf was
	// not), for messages.
	Why string
	// Processes is k: each work size is counted in k processes and their
	// median taken (0 = DefaultCountProcesses).
	Processes int
}

// DefaultCountProcesses is how many processes count each work size. One
// process in a few counts more than the others (the Go runtime's work
// depends on the clock and on the random seeds of its maps; a count of
// the prover on tic-tac-toe was once 0.6 % off its pair): the median of 3
// leaves one such process out.
const DefaultCountProcesses = 3

func (c Counter) processes() int {
	if c.Processes <= 0 {
		return DefaultCountProcesses
	}
	return c.Processes
}

// counterProbe is what DetectCounter looks at; tests replace it.
type counterProbe struct {
	events   string                                                 // the sysfs folder of event sources
	lookPath func(string) (string, error)                           // exec.LookPath
	perfStat func(ctx context.Context, perf string) (string, error) // output of perf stat -x, -e instructions:u -- true
}

func systemProbe() counterProbe {
	return counterProbe{
		events:   "/sys/bus/event_source/devices",
		lookPath: exec.LookPath,
		perfStat: func(ctx context.Context, perf string) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, perf, "stat", "-x,", "-e", "instructions:u", "--", "true").CombinedOutput()
			return string(out), err
		},
	}
}

// DetectCounter chooses the instruction counter of this machine: perf when
// the kernel exposes a hardware CPU event source
// (/sys/bus/event_source/devices/cpu, or cpu_core on hybrid CPUs) and
// "perf stat -e instructions:u" counts, else Valgrind when it is on the
// PATH. want is "" or "auto" to choose, or a counter's name to insist on
// it (an error says why it cannot be used).
func DetectCounter(ctx context.Context, want string) (Counter, error) {
	return detectCounter(ctx, want, systemProbe())
}

func detectCounter(ctx context.Context, want string, p counterProbe) (Counter, error) {
	switch want {
	case "", "auto", CounterPerf, CounterValgrind:
	default:
		return Counter{}, fmt.Errorf("unknown instruction counter %q; the counters are auto, %s and %s", want, CounterPerf, CounterValgrind)
	}
	var perfWhy string
	if want != CounterValgrind {
		c, why := detectPerf(ctx, p)
		if why == "" {
			return c, nil
		}
		perfWhy = why
		if want == CounterPerf {
			return Counter{}, fmt.Errorf("cannot count instructions with perf: %s", why)
		}
	}
	vg, err := p.lookPath("valgrind")
	if err != nil {
		if want == CounterValgrind {
			return Counter{}, errors.New("cannot count instructions: valgrind is not on the PATH; install it (apt-get install valgrind)")
		}
		return Counter{}, fmt.Errorf("cannot count instructions: no hardware counters (%s) and valgrind is not on the PATH; install it (apt-get install valgrind)", perfWhy)
	}
	why := "chosen with --counter valgrind"
	if want != CounterValgrind {
		why = "no hardware counters: " + perfWhy
	}
	return Counter{Name: CounterValgrind, Path: vg, Why: why}, nil
}

// detectPerf returns the perf counter, or why it cannot count.
func detectPerf(ctx context.Context, p counterProbe) (Counter, string) {
	var source string
	for _, name := range []string{"cpu", "cpu_core"} {
		if st, err := os.Stat(filepath.Join(p.events, name)); err == nil && st.IsDir() {
			source = name
			break
		}
	}
	if source == "" {
		return Counter{}, fmt.Sprintf("%s has no cpu event source (a virtual machine or container without a PMU)", p.events)
	}
	perf, err := p.lookPath("perf")
	if err != nil {
		return Counter{}, "perf is not on the PATH (apt-get install linux-perf)"
	}
	out, err := p.perfStat(ctx, perf)
	if err != nil {
		return Counter{}, fmt.Sprintf("perf stat -e instructions:u failed: %v: %s", err, oneLine(out, 200))
	}
	n, err := parsePerfStat(out)
	if err != nil {
		return Counter{}, "perf stat -e instructions:u: " + err.Error()
	}
	if n <= 0 {
		return Counter{}, "perf stat -e instructions:u counted 0 instructions"
	}
	return Counter{Name: CounterPerf, Path: perf, Why: "hardware counters (" + source + ")"}, ""
}

// parsePerfStat reads the instructions:u count of perf stat -x, output:
// "12345,,instructions:u,..." ("<not supported>" or "<not counted>" in
// place of the number when the kernel could not count).
func parsePerfStat(text string) (int64, error) {
	var total int64
	found := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		f := strings.Split(strings.TrimSpace(sc.Text()), ",")
		if len(f) < 3 || !strings.Contains(f[2], "instructions") {
			continue
		}
		if strings.HasPrefix(f[0], "<") {
			return 0, fmt.Errorf("the kernel reports %s for %s", f[0], f[2])
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("count %q of %s is not a number", f[0], f[2])
		}
		total += n
		found = true
	}
	if !found {
		return 0, fmt.Errorf("no instructions line in its output %q", oneLine(text, 200))
	}
	return total, nil
}

// parseCachegrind reads the Ir total of one Cachegrind out file: the
// "summary:" line, in the column the "events:" line gives Ir.
func parseCachegrind(text string) (int64, error) {
	col := -1
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "events:"); ok {
			col = slices.Index(strings.Fields(rest), "Ir")
			if col < 0 {
				return 0, fmt.Errorf("events %q have no Ir", strings.TrimSpace(rest))
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "summary:"); ok {
			if col < 0 {
				return 0, errors.New("summary before the events line")
			}
			f := strings.Fields(rest)
			if col >= len(f) {
				return 0, fmt.Errorf("summary %q has no Ir column", strings.TrimSpace(rest))
			}
			n, err := strconv.ParseInt(f[col], 10, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("summary Ir %q is not a count", f[col])
			}
			return n, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no summary line (the process did not exit normally)")
}

// wrap returns the engine as run under the counter, writing its counts
// into the folder out, and the child options to run it with.
func (c Counter) wrap(e *Engine, out string, o ChildOptions) (*Engine, ChildOptions) {
	w := *e
	var prefix []string
	switch c.Name {
	case CounterPerf:
		prefix = []string{c.Path, "stat", "-x,", "-e", "instructions:u", "-o", filepath.Join(out, "perf.txt"), "--"}
	default:
		prefix = []string{c.Path, "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
			"--trace-children=yes", "--trace-children-skip=" + valgrindSkip,
			"--cachegrind-out-file=" + filepath.Join(out, "cg.%p"),
			"--log-file=" + filepath.Join(out, "valgrind.%p.log")}
		// Valgrind's own memory (the translation cache, about 120 MiB)
		// counts against the engine's resident memory.
		if o.MemoryLimit > 0 {
			o.MemoryLimit = 2*o.MemoryLimit + 256<<20
		}
	}
	w.Command = append(prefix, e.Command...)
	w.Env = append(append([]string(nil), CounterEnv...), e.Env...)
	o.GOMAXPROCS = 1
	return &w, o
}

// count reads the counts the counter left in the folder out: the sum over
// every process of the tree.
func (c Counter) count(out string) (int64, error) {
	if c.Name == CounterPerf {
		b, err := os.ReadFile(filepath.Join(out, "perf.txt"))
		if err != nil {
			return 0, fmt.Errorf("perf wrote no counts: %w", err)
		}
		return parsePerfStat(string(b))
	}
	files, err := filepath.Glob(filepath.Join(out, "cg.*"))
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("valgrind wrote no counts (it does not follow the go command and its tools: give a built program, not go run)%s", valgrindLog(out))
	}
	slices.Sort(files)
	var total int64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		n, err := parseCachegrind(string(b))
		if err != nil {
			return 0, fmt.Errorf("%s: %w%s", filepath.Base(f), err, valgrindLog(out))
		}
		total += n
	}
	return total, nil
}

// valgrindLog is the gist of Valgrind's logs in out, for an error: its
// warnings and errors (an unsupported system call, a client that died).
func valgrindLog(out string) string {
	logs, _ := filepath.Glob(filepath.Join(out, "valgrind.*.log"))
	slices.Sort(logs)
	var keep []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			// "==PID== " lines are the banner and the summary; "--PID--"
			// lines are Valgrind's warnings.
			i := strings.Index(line, "-- ")
			if strings.HasPrefix(line, "--") && i > 0 && !strings.Contains(line, "cache found") && !strings.Contains(line, "LL cache") {
				keep = append(keep, strings.TrimSpace(line[i+3:]))
			} else if strings.Contains(line, "Process terminating") || strings.Contains(line, "unhandled") {
				if j := strings.Index(line, "== "); j > 0 {
					line = line[j+3:]
				}
				keep = append(keep, strings.TrimSpace(line))
			}
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return "; valgrind: " + oneLine(strings.Join(keep, " | "), 300)
}

// The noise of a count: a Go process's count varies by about processNoise
// instructions from run to run whatever its work (the page allocator's
// searches, the system monitor thread that wakes by the clock), so N
// rollouts of fewer than SteadyWork instructions give a per-rollout count
// that may be off by over 0.2 % (the row is flagged).
const (
	processNoise = 1e5
	SteadyWork   = 50_000_000
)

// InstructionCount is the measurement of one engine on one game.
type InstructionCount struct {
	Counter   string
	N         int // rollouts of the smaller run; the larger has 2N
	Processes int // k: processes that counted each size
	// Smalls and Larges are the counts of the k processes of each size,
	// in the order run; Small and Large their medians: the instructions of
	// the whole process tree of a run of N and of 2N rollouts.
	Smalls, Larges []int64
	Small, Large   int64
	Work           int64   // Large - Small: the instructions of N rollouts
	PerRollout     float64 // Work / N
	// Spread is the largest difference between two processes of one
	// size, over Work (0 with one process a size).
	Spread float64
	// Outcome is the last larger run's, with its status an error when a
	// run failed or a count could not be had. Its times are of a counted
	// run (under Valgrind some 50 times slower): no rate.
	Outcome Outcome
}

// MeasureInstructions runs the engine (in fixed-work mode) on the game file
// with N and with 2N rollouts of seed under the counter, each size in k
// processes (Counter.Processes; smaller and larger in turn), in the folder
// dir (made when missing), and returns the median count of each size and
// their difference per rollout. The result file is result (its folder
// writable by the engine). Every fault is in the outcome, never an error,
// as RunChild's.
func (c Counter) MeasureInstructions(ctx context.Context, e *Engine, n int, seed uint64, game, result, dir string, o ChildOptions) InstructionCount {
	k := c.processes()
	m := InstructionCount{Counter: c.Name, N: n, Processes: k}
	fail := func(out Outcome, msg string) InstructionCount {
		out.Status, out.Error = results.StatusError, msg
		m.Outcome = out
		return m
	}
	if !e.FixedWork {
		return fail(Outcome{}, fmt.Sprintf("engine %s does not take --rollouts (fixed work), so its instructions cannot be counted for a fixed work; mark it fixedWork = true in the manifest when it does", e.Name))
	}
	if n <= 0 {
		return fail(Outcome{}, fmt.Sprintf("counting instructions needs a positive number of rollouts, not %d", n))
	}
	for p := range 2 * k {
		rollouts := n << (p % 2)
		out, err := os.MkdirTemp(dir, "count-")
		if err != nil {
			return fail(Outcome{}, "making the folder of the counts: "+err.Error())
		}
		defer os.RemoveAll(out)
		w, wo := c.wrap(e, out, o)
		args := []string{"--rollouts", strconv.Itoa(rollouts), "--seed", strconv.FormatUint(seed, 10), game, result, "0"}
		got := RunChild(ctx, w, args, result, wo)
		countedRun(&got)
		m.Outcome = got
		if got.Interrupted || got.Status != results.StatusOK {
			if p != 2*k-1 {
				got.Error = fmt.Sprintf("the run of %d rollouts: %s", rollouts, got.Error)
				m.Outcome = got
			}
			return m
		}
		if got.Rollouts != int64(rollouts) {
			return fail(got, fmt.Sprintf("asked for %d rollouts, the engine reported %d: not a fixed work", rollouts, got.Rollouts))
		}
		cnt, err := c.count(out)
		if err != nil {
			return fail(got, fmt.Sprintf("counting the instructions of %d rollouts with %s: %v", rollouts, c.Name, err))
		}
		if p%2 == 0 {
			m.Smalls = append(m.Smalls, cnt)
		} else {
			m.Larges = append(m.Larges, cnt)
		}
		os.RemoveAll(out)
	}
	m.Small, m.Large = medianCount(m.Smalls), medianCount(m.Larges)
	m.Work = m.Large - m.Small
	m.PerRollout = float64(m.Work) / float64(n)
	if m.Work <= 0 {
		return fail(m.Outcome, fmt.Sprintf("%d rollouts took %d instructions and %d rollouts %d: the setup's noise is larger than the work; raise --rollouts", n, m.Small, 2*n, m.Large))
	}
	m.Spread = float64(max(countRange(m.Smalls), countRange(m.Larges))) / float64(m.Work)
	if k > 1 {
		m.Outcome.Flags = append(m.Outcome.Flags, fmt.Sprintf("medians of %d processes a size, whose counts differed by up to %.3f%% of the work", k, 100*m.Spread))
	}
	if m.Work < SteadyWork {
		// 2·SteadyWork instructions: the noise of a process is 0.1 %.
		want := int64(math.Ceil(float64(n) * 2 * SteadyWork / float64(m.Work)))
		m.Outcome.Flags = append(m.Outcome.Flags, fmt.Sprintf("few instructions counted: %d rollouts took %d, under %d, so the noise of a process (about %d) is %.1f%% of them; give --rollouts %d", n, m.Work, int64(SteadyWork), int64(processNoise), 100*processNoise/float64(m.Work), want))
	}
	return m
}

// medianCount is the median of counts (of an even number, the mean of
// the middle two).
func medianCount(counts []int64) int64 {
	s := slices.Clone(counts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// countRange is the largest difference between two of counts.
func countRange(counts []int64) int64 { return slices.Max(counts) - slices.Min(counts) }

// countedRun takes back RunChild's verdict that the figures of a counted
// run are implausible: under the counter a process runs many times longer
// than the times it reports (Valgrind translates every instruction), which
// is what those checks look for in an engine that lies. The other checks
// of the result file stand.
//
// TODO(child.go): a ChildOptions field saying the run is counted, so that
// RunChild leaves out its checks of time against wall and CPU time itself.
func countedRun(out *Outcome) {
	if out.Status == results.StatusError && strings.HasPrefix(out.Error, implausiblePrefix) {
		out.Status, out.Error = results.StatusOK, ""
	}
}

// implausiblePrefix begins RunChild's error for implausible figures.
const implausiblePrefix = "implausible figures: "

// counterOnce is the counter of campaigns that were given none.
var counterOnce = sync.OnceValues(func() (Counter, error) { return DetectCounter(context.Background(), "") })

// runInstructions runs r measured in instructions (r.Dims.Measure is
// results.MeasureInstructions) in a private folder as runOne does, and
// returns its row: the counts of N = Options.Rollouts (or
// DefaultInstructionRollouts) rollouts, the rest of the row from the run of
// 2N, under the child options of the job. ctr nil detects the counter
// once. An error (no counter, no folder)
// is the harness's own: it stops the campaign.
func (c *Campaign) runInstructions(ctx context.Context, r Run, dir string, child ChildOptions, now func() time.Time, ctr *Counter) (*results.Row, Outcome, error) {
	if ctr == nil {
		got, err := counterOnce()
		if err != nil {
			return nil, Outcome{}, err
		}
		ctr = &got
	}
	rd, err := newRunDir(dir, "run-", "game.kif", r.Game.Rules)
	if err != nil {
		return nil, Outcome{}, fmt.Errorf("preparing the folder of run %s (%s on %s): %w", r.Key, r.Engine.Name, r.Game.Key, err)
	}
	defer rd.remove()
	counts, err := os.MkdirTemp(dir, "counts-")
	if err != nil {
		return nil, Outcome{}, fmt.Errorf("preparing the folder of the counts of run %s: %w", r.Key, err)
	}
	defer os.RemoveAll(counts)
	n := c.Options.Rollouts
	auto := n <= 0 || c.Options.AutoRollouts
	if n <= 0 {
		n = DefaultInstructionRollouts
	}
	start := now().UTC()
	load := LoadAverage()
	m := ctr.MeasureInstructions(ctx, r.Engine, n, r.Seed, rd.game, rd.result, counts, child)
	if auto {
		if more := autoRollouts(m); more > n {
			// Without --rollouts, a count too small for the process's
			// noise is taken again with enough rollouts.
			few := m.Work
			m = ctr.MeasureInstructions(ctx, r.Engine, more, r.Seed, rd.game, rd.result, counts, child)
			m.Outcome.Flags = append(m.Outcome.Flags, fmt.Sprintf("%d rollouts counted %d instructions, under %d: counted again with %d rollouts", n, few, int64(SteadyWork), more))
			n = more
		}
	}
	out := m.Outcome
	if out.Interrupted {
		return nil, out, nil
	}
	rd.checkGame(&out)
	recorded := out
	if r.Engine.Version != "" {
		recorded.Version = r.Engine.Version
	}
	row := c.row(r, recorded, start, load, child.CPU)
	row.Mode = "rollouts"
	row.TargetSeconds = 0
	row.TargetRollouts = n
	row.Measure = results.MeasureInstructions
	row.Counter = ctr.Name
	// A busy machine slows a counted run but hardly changes its count:
	// the row is not contended (verdicts keep it, no rerun), whatever its
	// CPU share says.
	row.Contended = false
	if out.Status == results.StatusOK {
		row.Instructions = m.Work
		row.InstructionsPerOp = strconv.FormatFloat(m.PerRollout, 'f', 1, 64)
	}
	// The outcome's flags, unless the row has them already.
	for _, f := range out.Flags {
		if !strings.Contains(row.Flags, f) {
			if row.Flags != "" {
				row.Flags += "; "
			}
			row.Flags += f
		}
	}
	return row, out, nil
}

// MaxAutoRollouts bounds the rollouts a campaign without --rollouts counts
// when DefaultInstructionRollouts are too few.
const MaxAutoRollouts = 100_000

// autoRollouts is the number of rollouts whose count is at least
// 2·SteadyWork instructions, when a good count m of fewer is not (0 when m
// failed or is enough).
func autoRollouts(m InstructionCount) int {
	if m.Outcome.Status != results.StatusOK || m.Work <= 0 || m.Work >= SteadyWork {
		return 0
	}
	want := math.Ceil(float64(m.N) * 2 * SteadyWork / float64(m.Work))
	return int(min(want, MaxAutoRollouts))
}

// InstructionVerdict is the comparison of two sets of per-rollout counts.
type InstructionVerdict struct {
	Old, New float64 // medians
	Ratio    float64 // New / Old
	// Noise is the largest relative spread (max-min over the median) of
	// either side; 0 with one sample a side.
	Noise float64
	// Verdict: "slower" (more instructions by over the threshold and
	// beyond the noise), "faster", or "same".
	Verdict string
}

// DefaultInstructionThreshold is the change of instructions per rollout
// that is a verdict: counts repeat to under 0.1 % (prover, 200 rollouts), so
// 1 % is well above their noise and well below what time can see.
const DefaultInstructionThreshold = 0.01

// CompareInstructions compares per-rollout counts of an old and a new
// version (or engine): a verdict when the medians differ by more than
// threshold (0 = DefaultInstructionThreshold) and, with several samples a
// side, the two sides do not overlap.
func CompareInstructions(old, new []float64, threshold float64) (InstructionVerdict, error) {
	if len(old) == 0 || len(new) == 0 {
		return InstructionVerdict{}, fmt.Errorf("comparing instruction counts needs samples on both sides, not %d and %d", len(old), len(new))
	}
	if threshold <= 0 {
		threshold = DefaultInstructionThreshold
	}
	v := InstructionVerdict{Old: median(old), New: median(new), Verdict: "same"}
	if v.Old <= 0 {
		return v, fmt.Errorf("old median %g instructions per rollout is not positive", v.Old)
	}
	v.Ratio = v.New / v.Old
	spread := func(xs []float64, med float64) float64 {
		return (slices.Max(xs) - slices.Min(xs)) / med
	}
	v.Noise = math.Max(spread(old, v.Old), spread(new, v.New))
	switch {
	case v.Ratio > 1+threshold && slices.Min(new) > slices.Max(old):
		v.Verdict = "slower"
	case v.Ratio < 1-threshold && slices.Max(new) < slices.Min(old):
		v.Verdict = "faster"
	}
	return v, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// WithMeasure returns the runs of a plan measured by measure ("" or
// results.DefaultMeasure for time, results.MeasureInstructions): each
// run's Dims.Measure set and its key made again from it, so that a run
// counted in instructions is never taken for the timed run of the same
// game, engine and repetition (and a timed run keeps the key gdlperf 1
// gave it).
func WithMeasure(runs []Run, o Options, measure string) []Run {
	if measure == results.DefaultMeasure {
		measure = ""
	}
	out := make([]Run, len(runs))
	for i, r := range runs {
		r.Dims.Measure = measure
		r.Key = runKey(r.Game.Key, r.Engine, r.Repetition, o, r.Dims)
		out[i] = r
	}
	return out
}
