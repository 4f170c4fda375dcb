package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/transform"
	"github.com/gdlperf/gdlperf/results"
)

// Check methods.
const (
	MethodTrace       = "trace"
	MethodExhaustive  = "exhaustive"
	MethodMetamorphic = "metamorphic"
	// MethodTransforms plays the engine's traces on the game and on each
	// of TransformChecks' rewrites of it and compares them.
	MethodTransforms = "transforms"
)

// SetupAllowance is the time an engine's setup may take on top of a
// check's budget: the first round of a trace check and a self-check may
// take this long even with a shorter budget. A minute, as the grace of a
// benchmark run, is more than the propnet's default build budget (40 s).
const SetupAllowance = time.Minute

// Checker runs the correctness checks of engines against a reference.
type Checker struct {
	Exe       string         // the gdlperf binary, for self-checks and the reference's workloads
	Reference engines.Engine // run in-process, or as a process of Exe for workloads
	Budget    time.Duration  // per engine, game and method
	Seed      uint64
	Rollouts  int // > 0: exactly this many rollouts in one round, no doubling
	MaxStates int // exhaustive bound
	Methods   []string
	WorkDir   string
	Host      string
	Now       func() time.Time
	// Setup is the allowance for an engine's setup (0: SetupAllowance).
	Setup time.Duration
	// Workloads are the workloads and budgets MethodWorkload compares
	// (nil: DefaultCheckWorkloads).
	Workloads []Dims
	// ReferenceTime bounds the reference's run of each workload on a
	// game, in CPU time (0: ReferenceWorkloadTime); the budget, when
	// longer, bounds it instead. The reference runs as a process of Exe.
	ReferenceTime time.Duration

	// refs keeps the reference's workload answers, shared by the copies
	// of a Checker that a CheckCampaign makes (nil: made on first use).
	refs *refCache
}

func (c *Checker) setup() time.Duration {
	if c.Setup > 0 {
		return c.Setup
	}
	return SetupAllowance
}

// CheckKey identifies a check row, so a resumed check skips it.
func CheckKey(game string, e *Engine, method string, seed uint64, rollouts int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d\x00%d", game, e.Name, e.Version, method, seed, rollouts)))
	return hex.EncodeToString(h[:8])
}

// Key is the CheckKey of method m of engine e on game with the checker's
// seed and rollouts: the workload method's key names its budgets when they
// are not DefaultCheckWorkloads, so that a check with other budgets is not
// taken for the default one. Whatever looks a verdict up uses it.
func (c *Checker) Key(game string, e *Engine, m string) string {
	if m == MethodWorkload && c.Workloads != nil && !slices.Equal(c.Workloads, DefaultCheckWorkloads) {
		var b []string
		for _, d := range c.Workloads {
			b = append(b, d.Workload+" "+d.Budget)
		}
		m += " (" + strings.Join(b, ", ") + ")"
	}
	return CheckKey(game, e, m, c.Seed, c.Rollouts)
}

func (c *Checker) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Check runs every method on one engine and game and returns one row per
// method. Checks may run at once (on copies of the Checker whose Methods
// differ).
func (c *Checker) Check(ctx context.Context, e *Engine, g *Game) []results.CheckRow {
	var rows []results.CheckRow
	// A folder of its own: checks of one game by several engines may run
	// at once.
	h := sha256.Sum256(g.Rules)
	dir, werr := os.MkdirTemp(c.WorkDir, "check-")
	gameFile := filepath.Join(dir, "game-"+hex.EncodeToString(h[:8])+".kif")
	if werr == nil {
		defer os.RemoveAll(dir)
		werr = os.WriteFile(gameFile, g.Rules, 0o644)
	}
	for _, m := range c.Methods {
		start := c.now()
		row := results.CheckRow{
			CheckKey:         c.Key(g.Key, e, m),
			GameKey:          g.Key,
			Engine:           e.Name,
			EngineVersion:    e.Version,
			Reference:        c.Reference.Name,
			ReferenceVersion: c.Reference.Version,
			Method:           m,
			Seed:             c.Seed,
			StartTime:        start.UTC().Format(time.RFC3339),
			Host:             c.Host,
		}
		switch {
		case werr != nil:
			row.Verdict, row.Detail = results.VerdictError, "writing the game file: "+werr.Error()
		case m == MethodTrace && len(e.TraceCommand) == 0:
			row.Verdict, row.Detail = results.VerdictUnchecked, "the engine's manifest names no trace command"
		case m == MethodTrace:
			c.trace(ctx, e, g, gameFile, &row)
		case m == MethodTransforms && len(e.TraceCommand) == 0:
			row.Verdict, row.Detail = results.VerdictUnchecked, "the engine's manifest names no trace command"
		case m == MethodTransforms:
			c.transforms(ctx, e, g, gameFile, &row)
		case m == MethodWorkload:
			c.workloads(ctx, e, g, gameFile, &row)
		case !e.Builtin:
			row.Verdict, row.Detail = results.VerdictUnchecked, m+" checks need a built-in engine"
		default:
			c.selfCheck(ctx, e, g, gameFile, m, &row)
		}
		row.Millis = c.now().Sub(start).Milliseconds()
		rows = append(rows, row)
	}
	return rows
}

// trace compares the engine's traces with the reference's, doubling the
// rollouts from 1 (a new seed each round) until the budget is spent or a
// mismatch is found.
func (c *Checker) trace(ctx context.Context, e *Engine, g *Game, gameFile string, row *results.CheckRow) {
	game, err := gdl.Load(g.File, g.Rules)
	if err != nil {
		row.Verdict, row.Detail = results.VerdictError, oneLine("the game is invalid: "+err.Error(), 500)
		return
	}
	deadline := c.now().Add(c.Budget)
	traceFile := filepath.Join(c.WorkDir, "trace-"+row.CheckKey+".jsonl")
	defer os.Remove(traceFile)
	for round := 0; ; round++ {
		seed, n := c.Seed+uint64(round), 1<<min(round, 20)
		if c.Rollouts > 0 {
			seed, n = c.Seed, c.Rollouts
		}
		rm, err := c.Reference.New(game)
		if err != nil {
			row.Verdict, row.Detail = results.VerdictError, "the reference cannot build the game: "+err.Error()
			return
		}
		var ref bytes.Buffer
		rollout.Trace(&ref, rm, c.Reference.Name, c.Reference.Version, seed, n)
		left := time.Until(deadline)
		if c.Rollouts > 0 || round == 0 {
			// The first round includes the engine's setup (a propnet's
			// grounding, a compiled program's build), which may take
			// longer than a short budget and end in a refusal whose
			// reason belongs in the verdict.
			left = max(left, c.setup())
		}
		argv := append(append([]string(nil), e.TraceCommand...), gameFile, traceFile, "--seed", strconv.FormatUint(seed, 10), "--rollouts", strconv.Itoa(n))
		// A round after the first is bounded by what is left of the
		// budget, in wall time (a round cut short is the budget spent);
		// the first, or a fixed number of rollouts, by CPU time, so that
		// a busy machine does not fail an engine for being slow.
		b, stderr, err := runBounded(ctx, argv, e.Dir, e.Env, left, c.Rollouts > 0 || round == 0)
		got, rerr := os.ReadFile(traceFile)
		switch {
		case ctx.Err() != nil:
			row.Verdict, row.Detail = results.VerdictError, "interrupted"
			return
		case b.TimedOut && row.Rollouts > 0:
			row.Verdict = results.VerdictOK // the budget ran out: what was compared agreed
			return
		case b.TimedOut:
			row.Verdict, row.Detail = results.VerdictError, fmt.Sprintf("the engine's trace of %d rollout(s) took %s (its setup included)", n, b)
			return
		case rerr != nil || len(got) == 0:
			row.Verdict, row.Detail = results.VerdictError, oneLine(fmt.Sprintf("the engine wrote no trace (%v): %s", err, stderr), 500)
			return
		}
		m, cerr := conform.CompareTraces(&ref, bytes.NewReader(got))
		if cerr != nil {
			row.Verdict, row.Detail = limitVerdict(cerr, row.Rollouts > 0), cerr.Error()
			return
		}
		if m != nil {
			row.Verdict = results.VerdictMismatch
			row.Seed, row.Rollouts = seed, n
			c.describe(row, m, e, g)
			return
		}
		row.Rollouts += n
		row.Seed = c.Seed
		if c.Rollouts > 0 || c.now().After(deadline) {
			row.Verdict = results.VerdictOK
			return
		}
	}
}

func (c *Checker) describe(row *results.CheckRow, m *conform.Mismatch, e *Engine, g *Game) {
	row.Rollout, row.Step = m.Rollout, m.Step
	row.Detail = oneLine(strings.Join(m.Diffs, "; "), 2000)
	steps := make([]string, len(m.History))
	for i, j := range m.History {
		steps[i] = strings.Join(j, " ")
	}
	row.History = strings.Join(steps, " | ")
	row.Reproduce = fmt.Sprintf("gdlperf check --engines %s --games %s --methods %s --seed %d --rollouts %d", e.Name, ShellQuote(g.Key), row.Method, row.Seed, max(row.Rollouts, 1))
}

// SelfCheckResult is what "gdlperf engine selfcheck" prints.
type SelfCheckResult struct {
	Verdict  string     `json:"verdict"`
	Detail   string     `json:"detail,omitempty"`
	Rollout  int        `json:"rollout,omitempty"`
	Step     int        `json:"step,omitempty"`
	History  [][]string `json:"history,omitempty"`
	States   int        `json:"states,omitempty"`
	Complete bool       `json:"complete,omitempty"`
	Rollouts int        `json:"rollouts,omitempty"`
}

// SelfCheck runs an in-process check of a built-in engine (what "gdlperf
// engine selfcheck" does in a child process, so that a hanging engine is
// killed by the budget).
func SelfCheck(ref, e engines.Engine, g *gdl.Game, method string, seed uint64, rollouts, maxStates int, budget time.Duration) SelfCheckResult {
	var m *conform.Mismatch
	var res SelfCheckResult
	switch method {
	case MethodExhaustive:
		rm, err := ref.New(g)
		if err != nil {
			return SelfCheckResult{Verdict: results.VerdictError, Detail: "reference: " + err.Error()}
		}
		em, err := e.New(g)
		if err != nil {
			return SelfCheckResult{Verdict: results.VerdictError, Detail: err.Error()}
		}
		var st conform.ExhaustiveStats
		var deadline time.Time
		if budget > 0 {
			deadline = time.Now().Add(budget)
		}
		m, st, err = conform.ExhaustiveUntil(rm, em, maxStates, deadline)
		res.States, res.Complete = st.States, st.Complete
		if err != nil {
			res.Verdict, res.Detail = limitVerdict(err, false), err.Error()
			return res
		}
	case MethodMetamorphic:
		var err error
		m, err = conform.Metamorphic(e, g, seed, rollouts)
		if err != nil {
			return SelfCheckResult{Verdict: limitVerdict(err, false), Detail: err.Error()}
		}
		res.Rollouts = rollouts
	default:
		return SelfCheckResult{Verdict: results.VerdictError, Detail: "unknown method " + method}
	}
	if m != nil {
		res.Verdict = results.VerdictMismatch
		res.Detail = strings.Join(m.Diffs, "; ")
		res.Rollout, res.Step, res.History = m.Rollout, m.Step, m.History
		return res
	}
	res.Verdict = results.VerdictOK
	return res
}

// limitVerdict is the verdict of a check that stopped with err: one that
// stopped at a resource limit of the engine or the reference after some of
// the game agreed (or, for a trace, after earlier rounds did) is ok, as a
// check that ran out of its budget is; the detail says where it stopped.
// Anything else is an error.
func limitVerdict(err error, agreedBefore bool) string {
	var le *conform.LimitError
	if errors.As(err, &le) && (le.Compared || agreedBefore) {
		return results.VerdictOK
	}
	return results.VerdictError
}

func (c *Checker) selfCheck(ctx context.Context, e *Engine, g *Game, gameFile, method string, row *results.CheckRow) {
	rollouts := 5
	if c.Rollouts > 0 {
		rollouts = c.Rollouts
	}
	argv := []string{c.Exe, "engine", "selfcheck", e.Name, gameFile, "--method", method,
		"--seed", strconv.FormatUint(c.Seed, 10), "--rollouts", strconv.Itoa(rollouts), "--max-states", strconv.Itoa(c.MaxStates), "--reference", c.Reference.Name, "--budget", c.Budget.String()}
	out := filepath.Join(c.WorkDir, "selfcheck-"+row.CheckKey+".json")
	argv = append(argv, "--out", out)
	defer os.Remove(out)
	limit := c.Budget + c.setup()
	bd, stderr, err := runBounded(ctx, argv, "", nil, limit, true)
	b, rerr := os.ReadFile(out)
	var res SelfCheckResult
	switch {
	case ctx.Err() != nil:
		row.Verdict, row.Detail = results.VerdictError, "interrupted"
		return
	case bd.TimedOut:
		row.Verdict, row.Detail = results.VerdictError, fmt.Sprintf("the %s check took %s (a budget of %s and %s for the engine's setup)", method, bd, c.Budget, c.setup())
		return
	case rerr != nil || json.Unmarshal(b, &res) != nil:
		row.Verdict, row.Detail = results.VerdictError, oneLine(fmt.Sprintf("the %s check failed (%v): %s", method, err, stderr), 500)
		return
	}
	row.Verdict, row.States, row.Complete, row.Rollouts = res.Verdict, res.States, res.Complete, res.Rollouts
	row.Detail = oneLine(res.Detail, 2000)
	if res.Verdict == results.VerdictMismatch {
		c.describe(row, &conform.Mismatch{Method: method, Rollout: res.Rollout, Step: res.Step, Diffs: []string{res.Detail}, History: res.History}, e, g)
		row.Detail = oneLine(res.Detail, 2000)
	}
}

// wallFactor and waitShare stop a bounded run that waits instead of
// working: on a busy machine an engine gets a share of a CPU and its limit
// is of the work it did, but one that has run wallFactor times its limit
// in wall time at under waitShare of a CPU (it hangs, or sleeps) is
// stopped. A run at waitShare or more reaches its CPU limit by maxWall
// times the limit; that is the wall time an engine process is given.
const (
	wallFactor = 3
	maxWall    = engines.WaitedFactor // as an engine's build budget
	waitShare  = 1.0 / maxWall
)

// overLimit reports whether a run bounded by limit of CPU time that has
// used cpu in wall is to be stopped: it has used its limit, or it waits
// (at under waitShare of a CPU after wallFactor times the limit). So a run
// ends by maxWall times its limit.
func overLimit(cpu, wall, limit time.Duration) bool {
	waits := wall >= wallFactor*limit && cpu.Seconds() < waitShare*wall.Seconds()
	return cpu >= limit || waits
}

// bound is how a bounded run ended: whether it was stopped at its limit,
// of which kind, and the CPU and wall time it had used.
type bound struct {
	TimedOut  bool
	ByCPU     bool // the limit was of CPU time (else of wall time)
	Limit     time.Duration
	CPU, Wall time.Duration
}

// String says what a run that timed out took: "longer than 1m0s of CPU
// time (in 1m32s: 0.65 of a CPU)", or, stopped as one that waits, "longer
// than 3m0s at 0.01 of a CPU (2s of its limit of 1m0s of CPU time: it
// waited, it did not work)".
func (b bound) String() string {
	share := 0.0
	if b.Wall > 0 {
		share = b.CPU.Seconds() / b.Wall.Seconds()
	}
	switch {
	case !b.ByCPU:
		return fmt.Sprintf("longer than %s", roundDuration(b.Limit))
	case b.CPU >= b.Limit:
		return fmt.Sprintf("longer than %s of CPU time (in %s: %.2f of a CPU)", roundDuration(b.Limit), roundDuration(b.Wall), share)
	}
	return fmt.Sprintf("longer than %s at %.2f of a CPU (%s of its limit of %s of CPU time: it waited, it did not work)",
		roundDuration(b.Wall), share, roundDuration(b.CPU), roundDuration(b.Limit))
}

// roundDuration rounds d to the second, or to a tenth of one under 10 s.
func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// runBounded runs argv in its own process group and kills the group when
// ctx ends or at its limit: with byCPU, when the group has used limit of
// CPU time (so that a busy machine, which gives it a part of a CPU, does
// not turn a slow engine into a failed one), or has run wallFactor times
// limit in wall time at under waitShare of a CPU (it waits: it hangs or
// sleeps); otherwise after limit of wall time. Where /proc cannot be read
// the limit is of wall time.
func runBounded(ctx context.Context, argv []string, dir string, env []string, limit time.Duration, byCPU bool) (b bound, stderrTail string, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	errTail := &tail{n: 16 << 10}
	cmd.Stderr = errTail
	cmd.WaitDelay = 2 * time.Second // a grandchild holding stderr open
	var procs *procScanner
	if byCPU {
		if procs, err = newProcScanner(); err != nil {
			byCPU, procs = false, nil
		} else {
			defer procs.close()
		}
	}
	b = bound{ByCPU: byCPU, Limit: limit}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return b, "", err
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timeout <-chan time.Time
	var tick <-chan time.Time
	if byCPU {
		t := time.NewTicker(min(max(limit/50, 20*time.Millisecond), 500*time.Millisecond))
		defer t.Stop()
		tick = t.C
	} else {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		timeout = timer.C
	}
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick:
			if cpu, cerr := procs.groupCPU(pgid); cerr == nil {
				b.CPU = max(b.CPU, cpu)
			}
			if !overLimit(b.CPU, time.Since(start), limit) {
				continue
			}
			b.TimedOut = true
		case <-timeout:
			b.TimedOut = true
		case <-ctx.Done():
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		err = <-done
		break wait
	}
	b.Wall = time.Since(start)
	if !b.TimedOut && cmd.ProcessState != nil {
		b.CPU = max(b.CPU, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	return b, lastLines(errTail.String(), 5), err
}

// TransformCheck is one rewrite the transforms method plays: a transform
// and its seed.
type TransformCheck struct {
	Name string
	Seed uint64
}

func (tc TransformCheck) String() string {
	if tc.Name == transform.Shuffle || tc.Name == transform.Rename {
		return fmt.Sprintf("%s (seed %d)", tc.Name, tc.Seed)
	}
	return tc.Name
}

// TransformChecks are the rewrites the transforms method plays, each on
// its own: every transform of package transform, shuffle with two seeds.
var TransformChecks = []TransformCheck{
	{transform.Shuffle, 1}, {transform.Shuffle, 2}, {transform.Adversarial, 1}, {transform.Rename, 1},
	{transform.Reorder, 1}, {transform.Deor, 1}, {transform.Inline, 1}, {transform.Dedupe, 1},
	{transform.Condense, 1}, {transform.Optimise, 1},
}

// transformRollouts is the transforms method's rollouts per trace when the
// checker names none.
const transformRollouts = 4

// transforms runs the engine's trace command on the game and on each
// rewrite of TransformChecks (the rewritten rulesheet is the game file, as
// for a benchmark run) with the same seed and rollouts, and compares: a
// rewrite that keeps the names must give the same trace; a renamed game's
// trace, its names mapped back, must be what the reference plays on the
// original along the same joint moves (transform.Follow), since renaming
// changes the sort order the moves are drawn from. Every trace may take
// the budget or the setup allowance, whichever is longer. The first
// difference is a mismatch naming the rewrite, with the commands that
// reproduce it. A built-in engine is not given a rewrite that loads to
// the original's program (transform.Result.Unchanged: gdl.Load reads the
// same rules in the same order, as every built-in engine loads a game),
// whose trace is the original's by construction; the verdict lists those
// apart. An external engine reads the text, and plays every rewrite.
func (c *Checker) transforms(ctx context.Context, e *Engine, g *Game, gameFile string, row *results.CheckRow) {
	game, err := gdl.Load(g.File, g.Rules)
	if err != nil {
		row.Verdict, row.Detail = results.VerdictError, oneLine("the game is invalid: "+err.Error(), 500)
		return
	}
	n := transformRollouts
	if c.Rollouts > 0 {
		n = c.Rollouts
	}
	row.Seed = c.Seed
	dir := filepath.Dir(gameFile)
	limit := max(c.Budget, c.setup())
	// trace returns the engine's trace of file, or why it has none.
	trace := func(file, tag, label string) ([]byte, string) {
		out := filepath.Join(dir, "trace-"+tag+".jsonl")
		defer os.Remove(out)
		argv := append(append([]string(nil), e.TraceCommand...), file, out, "--seed", strconv.FormatUint(c.Seed, 10), "--rollouts", strconv.Itoa(n))
		b, stderr, err := runBounded(ctx, argv, e.Dir, e.Env, limit, true)
		got, rerr := os.ReadFile(out)
		switch {
		case ctx.Err() != nil:
			return nil, "interrupted"
		case b.TimedOut:
			return nil, fmt.Sprintf("the engine's trace of %d rollout(s) of %s took %s (its setup included)", n, label, b)
		case rerr != nil || len(got) == 0:
			return nil, oneLine(fmt.Sprintf("the engine wrote no trace of %s (%v): %s", label, err, stderr), 500)
		}
		return got, ""
	}
	orig, why := trace(gameFile, "original", "the original game")
	if why != "" {
		row.Verdict, row.Detail = results.VerdictError, why
		return
	}
	// A rewrite the engine gives no trace of (a time-out: a left-to-right
	// prover on a shuffled large game) fails the check, but the other
	// rewrites are still played, so that the verdict says which agree.
	var agreed, same, unplayed []string
	var firstWhy string
	for _, tc := range TransformChecks {
		reproduce := fmt.Sprintf("gdlperf transform %s --seed %d %s -o x.kif && gdlperf check --engines %s --games %s --methods %s --seed %d --rollouts %d",
			tc.Name, tc.Seed, ShellQuote(g.Key), e.Name, ShellQuote(g.Key), MethodTransforms, c.Seed, n)
		res, err := transform.Run([]string{tc.Name}, tc.Seed, g.File, g.Rules)
		if err != nil {
			row.Verdict, row.Detail, row.Reproduce = results.VerdictError, oneLine(fmt.Sprintf("transform %s: %v", tc, err), 2000), reproduce
			return
		}
		if e.Builtin && res.Unchanged && res.Renaming == nil {
			// A built-in engine loads the rewrite to the original's
			// program (gdl.Load: the same rules in the same order), so
			// its trace is the original's by construction: playing it
			// would only cost a setup (a compiled program's build).
			same = append(same, tc.String())
			continue
		}
		file := filepath.Join(dir, fmt.Sprintf("transform-%s-%d.kif", tc.Name, tc.Seed))
		if err := os.WriteFile(file, res.Text, 0o644); err != nil {
			row.Verdict, row.Detail = results.VerdictError, "writing the transformed game: "+err.Error()
			return
		}
		got, why := trace(file, fmt.Sprintf("%s-%d", tc.Name, tc.Seed), "the game transformed by "+tc.String())
		os.Remove(file)
		if ctx.Err() != nil {
			row.Verdict, row.Detail = results.VerdictError, why
			return
		}
		if why != "" {
			if firstWhy == "" {
				firstWhy, row.Reproduce = why, reproduce
			}
			unplayed = append(unplayed, tc.String())
			continue
		}
		var m *conform.Mismatch
		var cerr error
		if res.Renaming == nil {
			m, cerr = conform.CompareTraces(bytes.NewReader(orig), bytes.NewReader(got))
		} else {
			var mapped, followed bytes.Buffer
			if err := transform.MapTrace(bytes.NewReader(got), &mapped, res.Back); err != nil {
				m = &conform.Mismatch{Method: MethodTransforms, Diffs: []string{"the engine's trace of the renamed game: " + err.Error()}}
			} else if rm, err := c.Reference.New(game); err != nil {
				row.Verdict, row.Detail = results.VerdictError, "the reference cannot build the game: "+err.Error()
				return
			} else if err := transform.Follow(&followed, rm, bytes.NewReader(mapped.Bytes())); err != nil {
				row.Verdict, row.Detail = results.VerdictError, "the reference cannot follow the renamed game's trace: "+err.Error()
				return
			} else {
				m, cerr = conform.CompareTraces(&followed, &mapped)
			}
		}
		if cerr != nil {
			if row.Verdict = limitVerdict(cerr, len(agreed) > 0); row.Verdict != results.VerdictOK {
				row.Detail = oneLine(fmt.Sprintf("transform %s: %v", tc, cerr), 2000)
				return
			}
			agreed = append(agreed, tc.String()+" (up to a resource limit)")
			continue
		}
		if m != nil {
			row.Verdict = results.VerdictMismatch
			row.Rollouts = n
			c.describe(row, m, e, g)
			row.Detail = oneLine(fmt.Sprintf("transform %s: the transformed game plays otherwise: %s", tc, strings.Join(m.Diffs, "; ")), 2000)
			row.Reproduce = reproduce
			return
		}
		agreed = append(agreed, tc.String())
	}
	row.Rollouts = n
	row.Detail = fmt.Sprintf("%d rewrites play as the original (%d rollouts each): %s", len(agreed), n, strings.Join(agreed, ", "))
	if len(same) > 0 {
		row.Detail += fmt.Sprintf("; %d load to the original's program, the same rules in the same order (nothing to play): %s", len(same), strings.Join(same, ", "))
	}
	if len(unplayed) == 0 {
		row.Verdict = results.VerdictOK
		return
	}
	row.Verdict = results.VerdictError
	row.Detail = oneLine(fmt.Sprintf("%d of %d rewrites not played (%s): %s; %s", len(unplayed), len(TransformChecks), strings.Join(unplayed, ", "), firstWhy, row.Detail), 2000)
}
