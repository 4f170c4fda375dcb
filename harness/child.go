package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/results"
)

// ChildOptions bound one engine process.
type ChildOptions struct {
	// Limit is the time limit: the run's processes are killed when it has
	// passed in wall time, unless they work (pastLimit): on a busy machine
	// a run that gets a part of a CPU goes on until it has used Limit of
	// CPU time, so that the machine's load does not fail a slow engine.
	Limit       time.Duration
	MemoryLimit int64 // bytes of resident memory, summed over the run's processes; 0 = none
	GOMAXPROCS  int   // set in the child's environment when > 0
	CPU         int   // CPU to pin the child to; -1 = none
	OutputCap   int   // bytes of stdout and of stderr kept (the tail)
	// TargetSeconds is the SECONDS argument of a time-mode run; 0 for a
	// fixed-work run or when unknown, which turns off the checks of
	// millisecondsTaken against it.
	TargetSeconds int
	// TempRoot is where the run's private folder (the engine's TMPDIR and
	// GOTMPDIR, the record of its processes) is made; "" is os.TempDir().
	TempRoot string
}

// Outcome is what one engine process run produced.
type Outcome struct {
	Status       string
	Error        string
	Version      string
	Millis       int64
	StateChanges int64
	Rollouts     int64
	InitMillis   int64
	// PeakRSSKiB is the run's peak resident memory in KiB: the largest of
	// the summed VmRSS of all the run's processes at any poll (every
	// pollInterval), the VmHWM of any one of them, the ru_maxrss of those
	// the harness reaped, and the peakRSSKiB the engine reported. It is a
	// lower bound of the peak of the memory the run's processes held
	// together; the harness's own pages (shared with the engine process
	// until it execs) are not counted.
	PeakRSSKiB int64
	GOMAXPROCS int
	// UserCPU and SystemCPU are the CPU time of all the run's processes
	// that were waited for: the engine process with the descendants it
	// waited for, and the orphans the harness reaped.
	UserCPU     time.Duration
	SystemCPU   time.Duration
	Wall        time.Duration
	StderrTail  string
	Interrupted bool // the campaign was stopped during this run: do not record it
	ResultRaw   string
	// Flags are findings about a run that stays what it is (mostly ok),
	// e.g. "overran: 9800 ms for a 2 s target".
	Flags []string
}

// Caps of the strings taken from the result file.
const (
	maxVersionBytes = 200
	maxMessageBytes = 2000
)

// pollInterval is how often the run's processes are measured; every
// fullScanEvery-th poll, and the first three, look for new ones in /proc.
const (
	pollInterval  = 100 * time.Millisecond
	fullScanEvery = 5
)

// tail keeps the last n bytes written to it.
type tail struct {
	mu  sync.Mutex
	n   int
	buf []byte
	tot int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tot += int64(len(p))
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.n:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// RunChild runs the engine on the game in its own process group, with the
// given arguments after the command prefix, and classifies the outcome. It
// never fails the campaign: every fault of the engine is an Outcome. ctx
// cancelled (Ctrl-C) kills the engine and marks the outcome interrupted.
//
// The run is every process descended from the engine process, even one
// that left its session or whose parent died (see proc_linux.go): the
// memory limit counts them all, and when the engine process ends, every
// one of them that is left is killed and reaped, so no process of a run
// outlives it. The engine's TMPDIR and GOTMPDIR are a private folder that
// is removed after the run.
//
// Its phases: the run's files (createResultFile, newRunFolder), the
// command (childCommand) and its output (captureOutput), the start
// (startChild), the wait under the limits (waitChild), the clean-up of
// what is left (endRun), the figures of the processes (takeFigures) and
// the verdict (judge).
func RunChild(ctx context.Context, e *Engine, args []string, resultPath string, o ChildOptions) Outcome {
	var out Outcome
	if err := createResultFile(resultPath); err != nil {
		out.Status, out.Error = results.StatusError, "creating the result file: "+err.Error()
		return out
	}
	folder, err := newRunFolder(o.TempRoot)
	if err != nil {
		out.Status, out.Error = results.StatusError, err.Error()
		return out
	}
	defer folder.remove()
	becomeSubreaper()
	cmd := childCommand(e, args, o, folder)
	output, err := captureOutput(cmd, o.OutputCap)
	if err != nil {
		out.Status, out.Error = results.StatusError, err.Error()
		return out
	}

	// Pause our own GC while the engine runs, so it has the machine alone.
	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)

	start := time.Now()
	tr, err := startChild(cmd, o.CPU, folder, output)
	if err != nil {
		out.Status, out.Error = results.StatusError, err.Error()
		return out
	}
	defer tr.close()
	end := waitChild(ctx, cmd, tr, o)
	out.Wall = time.Since(start)
	out.Interrupted = end.interrupted
	left := endRun(cmd.Process.Pid, tr, output)
	takeFigures(&out, cmd.ProcessState, tr, output.stderr)
	judge(&out, end, cmd.ProcessState, resultPath, start.Add(o.Limit), left, tr.resident, o)
	return out
}

// childCommand is the engine process to start: the engine's command
// prefix and args, in the engine's folder, with the run's environment
// (childEnv), in a process group of its own that is killed if the
// harness dies.
func childCommand(e *Engine, args []string, o ChildOptions, folder *runFolder) *exec.Cmd {
	argv := append(append([]string(nil), e.Command...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = e.Dir
	cmd.Env = childEnv(e, o, folder)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd
}

// childOutput is the engine's stdout and stderr, read from pipes the
// harness owns into tails of at most OutputCap bytes each. Pipes we own,
// so a grandchild that keeps them open cannot block us: after the child
// exits and its processes are killed, we stop reading.
type childOutput struct {
	stdout, stderr *tail
	outR, outW     *os.File
	errR, errW     *os.File
	readers        sync.WaitGroup
}

// captureOutput connects cmd's stdout and stderr to new pipes and starts
// reading them into their tails (64 KiB each when limit <= 0).
func captureOutput(cmd *exec.Cmd, limit int) (*childOutput, error) {
	if limit <= 0 {
		limit = 64 << 10
	}
	c := &childOutput{stdout: &tail{n: limit}, stderr: &tail{n: limit}}
	var err error
	if c.outR, c.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if c.errR, c.errW, err = os.Pipe(); err != nil {
		c.outR.Close()
		c.outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = c.outW, c.errW
	c.readers.Add(2)
	go func() { defer c.readers.Done(); io.Copy(c.stdout, c.outR) }()
	go func() { defer c.readers.Done(); io.Copy(c.stderr, c.errR) }()
	return c, nil
}

// closeWriters closes the harness's copies of the pipes' write ends, once
// the child has its own (or failed to start).
func (c *childOutput) closeWriters() {
	c.outW.Close()
	c.errW.Close()
}

// abandon closes the read ends and waits for the readers: the child never
// ran, so no one else holds the pipes.
func (c *childOutput) abandon() {
	c.outR.Close()
	c.errR.Close()
	c.readers.Wait()
}

// drain waits at most d for the readers to reach the end of the pipes,
// then closes the read ends (a process the harness could not kill may hold
// a write end still).
func (c *childOutput) drain(d time.Duration) {
	finished := make(chan struct{})
	go func() { c.readers.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(d):
	}
	c.outR.Close()
	c.errR.Close()
}

// startChild starts the engine process (pinned to cpu when cpu >= 0) and
// begins to follow its processes, before anything waits for the engine
// process, so it is still there. On an error nothing of the run is left
// running and the output is closed; the error is the Outcome's message.
func startChild(cmd *exec.Cmd, cpu int, folder *runFolder, output *childOutput) (*procTracker, error) {
	err := startPinned(cmd, cpu)
	output.closeWriters()
	if err != nil {
		output.abandon()
		return nil, fmt.Errorf("starting %s: %v", cmd.Args[0], err)
	}
	pgid := cmd.Process.Pid
	tr, err := newProcTracker(pgid, folder.token, folder.record)
	if err != nil {
		syscall.Kill(-pgid, syscall.SIGKILL)
		cmd.Wait()
		output.abandon()
		return nil, errors.New("reading /proc to follow the engine's processes: " + err.Error())
	}
	return tr, nil
}

// childEnd is how the wait for the engine process ended: the error of
// cmd.Wait, and which limit, if any, stopped the run.
type childEnd struct {
	waitErr     error
	timedOut    bool          // past o.Limit (pastLimit)
	cpu, wall   time.Duration // what the run had used when it timed out
	memKilled   bool          // over o.MemoryLimit
	interrupted bool          // ctx was done
}

// pastLimit reports whether a run that has used cpu in wall is over its
// time limit: past it in wall time, and it has used the limit in CPU time
// or it waits (under waitShare of a CPU over the whole run: it hangs or
// sleeps, or the machine is too busy to run it). A run that works at
// waitShare or more of a CPU reaches its limit in CPU time by maxWall
// times its limit in wall time. (The check's bounded runs, whose limit is
// of CPU time from the start, judge waiting from wallFactor times it:
// overLimit.)
func pastLimit(cpu, wall, limit time.Duration) bool {
	return wall >= limit && (cpu >= limit || cpu.Seconds() < waitShare*wall.Seconds())
}

// waitChild waits for the engine process to end, polling the run's
// processes every pollInterval (a full scan of /proc for the first three
// polls and every fullScanEvery-th), and stops the run (stopRun) past its
// time limit (pastLimit), when ctx is done, or when the run's resident
// memory is over the memory limit.
func waitChild(ctx context.Context, cmd *exec.Cmd, tr *procTracker, o ChildOptions) childEnd {
	pgid := cmd.Process.Pid
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var end childEnd
	timer := time.NewTimer(o.Limit)
	defer timer.Stop()
	poll := time.NewTicker(pollInterval)
	defer poll.Stop()
	tr.poll(true)
	polls := 0
	// past is set once the limit has passed in wall time: from then on
	// every poll asks pastLimit
	past := false
	over := func() bool {
		end.cpu, end.wall = tr.cpu, time.Since(start)
		return pastLimit(end.cpu, end.wall, o.Limit)
	}
	for {
		select {
		case end.waitErr = <-done:
			return end
		case <-timer.C:
			tr.poll(true)
			if past = true; !over() {
				continue
			}
			end.timedOut = true
			stopRun(tr, pgid, done, &end.waitErr)
			return end
		case <-ctx.Done():
			end.interrupted = true
			stopRun(tr, pgid, done, &end.waitErr)
			return end
		case <-poll.C:
			polls++
			tr.poll(polls < 3 || polls%fullScanEvery == 0)
			if o.MemoryLimit > 0 && tr.resident > o.MemoryLimit {
				end.memKilled = true
				stopRun(tr, pgid, done, &end.waitErr)
				return end
			}
			if past && over() {
				end.timedOut = true
				stopRun(tr, pgid, done, &end.waitErr)
				return end
			}
		}
	}
}

// endRun kills whatever the run left behind, with its group, reaps it
// (waiting up to 3 s), and stops reading the output (after at most 2 s
// more). It returns how many processes were left.
func endRun(pgid int, tr *procTracker, output *childOutput) (left int) {
	syscall.Kill(-pgid, syscall.SIGKILL)
	left = tr.sweep(3 * time.Second)
	output.drain(2 * time.Second)
	return left
}

// takeFigures records what the run's processes used: the CPU time of the
// engine process (with the descendants it waited for) and of the orphans
// the harness reaped, the peak resident memory the tracker saw, and the
// tail of stderr.
func takeFigures(out *Outcome, ps *os.ProcessState, tr *procTracker, stderr *tail) {
	if ps != nil {
		out.UserCPU, out.SystemCPU = ps.UserTime(), ps.SystemTime()
	}
	out.UserCPU += tr.reapedUser
	out.SystemCPU += tr.reapedSys
	// Not the engine process's ru_maxrss: it counts the harness's pages,
	// which the process shared until it exec'ed the engine.
	out.PeakRSSKiB = max(tr.peakSum, tr.peakOne, tr.reapedMaxRSS)
	out.StderrTail = oneLine(lastLines(stderr.String(), 5), 500)
}

// judge reads the result file (as it was at the deadline at the latest)
// and gives the run its status: interrupted, timed out and over the memory
// limit first, else what the exit status and the result file say
// (classify), flagged when the engine left processes running (left).
// resident is the run's memory when it was killed over the limit.
func judge(out *Outcome, end childEnd, ps *os.ProcessState, resultPath string, deadline time.Time, left int, resident int64, o ChildOptions) {
	raw, rerr := readResultFile(resultPath, deadline)
	out.ResultRaw = string(raw)
	switch {
	case end.interrupted:
		out.Status, out.Error = results.StatusError, "interrupted"
	case end.timedOut:
		out.Status, out.Error = results.StatusTimeout, "killed after the time limit of "+timeoutText(end, o.Limit)
	case end.memKilled:
		out.Status, out.Error = results.StatusError, fmt.Sprintf("killed for using %d MiB, over the memory limit of %d MiB", resident>>20, o.MemoryLimit>>20)
	default:
		classify(out, ps, end.waitErr, raw, rerr, o)
		if left > 0 {
			out.Flags = append(out.Flags, fmt.Sprintf("left %d process(es) running after it exited (killed)", left))
		}
	}
}

// timeoutText says what a run stopped past its time limit had used: "1m0s
// (1m0s of CPU time, in 1m52s: 0.54 of a CPU)", or "1m0s (0.2s of CPU time
// in 1m0s: under 0.1 of a CPU, it waited, or the machine was too busy to
// run it)".
func timeoutText(end childEnd, limit time.Duration) string {
	share := 0.0
	if end.wall > 0 {
		share = end.cpu.Seconds() / end.wall.Seconds()
	}
	if end.cpu >= limit {
		return fmt.Sprintf("%s (%s of CPU time, in %s: %.2f of a CPU)", limit, roundDuration(end.cpu), roundDuration(end.wall), share)
	}
	return fmt.Sprintf("%s (%s of CPU time in %s: under %.1f of a CPU, it waited, or the machine was too busy to run it)", limit, roundDuration(end.cpu), roundDuration(end.wall), waitShare)
}

// childEnv is the engine's environment: the harness's, the private temp
// folder, the manifest's variables, GOMAXPROCS and the run's token last,
// which no earlier entry overrides.
func childEnv(e *Engine, o ChildOptions, f *runFolder) []string {
	env := make([]string, 0, len(os.Environ())+len(e.Env)+5)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "TMPDIR" || k == "GOTMPDIR" || k == runTokenVar {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "TMPDIR="+f.tmp, "GOTMPDIR="+f.tmp)
	env = append(env, e.Env...)
	if o.GOMAXPROCS > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.GOMAXPROCS))
	}
	return append(env, runTokenVar+"="+f.token)
}

// startPinned starts cmd; with cpu >= 0 the child inherits an affinity mask
// of that one CPU for every thread it will ever have, because it is forked
// from an OS thread that has the mask.
func startPinned(cmd *exec.Cmd, cpu int) error {
	if cpu < 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old, err := getAffinity()
	if err != nil {
		return err
	}
	if err := setAffinity(cpu); err != nil {
		return fmt.Errorf("pinning to CPU %d: %w", cpu, err)
	}
	err = cmd.Start()
	if rerr := restoreAffinity(old); rerr != nil && err == nil {
		// The thread stays locked so that the mask does not leak to others.
		runtime.LockOSThread()
	}
	return err
}

// stopRun asks the run's processes to stop (SIGTERM) and kills them
// (SIGKILL) when the engine process has not ended 2 s later.
func stopRun(tr *procTracker, pgid int, done chan error, waitErr *error) {
	syscall.Kill(-pgid, syscall.SIGTERM)
	tr.signal(syscall.SIGTERM)
	select {
	case *waitErr = <-done:
	case <-time.After(2 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		tr.signal(syscall.SIGKILL)
		*waitErr = <-done
	}
}

// classify reads the exit status and the result file.
func classify(out *Outcome, ps *os.ProcessState, waitErr error, raw []byte, rerr error, o ChildOptions) {
	if ps == nil {
		out.Status, out.Error = results.StatusCrash, fmt.Sprintf("the engine did not run: %v", waitErr)
		return
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		out.Status, out.Error = results.StatusCrash, fmt.Sprintf("killed by signal %s", ws.Signal())
		return
	}
	exit := ps.ExitCode()
	var bf badResultFile
	switch {
	case errors.Is(rerr, os.ErrNotExist):
		out.Status, out.Error = statusFor(exit), fmt.Sprintf("the engine deleted its result file (exit status %d)", exit)
		return
	case errors.As(rerr, &bf):
		out.Status, out.Error = statusFor(exit), fmt.Sprintf("%s (exit status %d)", bf, exit)
		return
	case rerr != nil:
		out.Status, out.Error = statusFor(exit), "reading the result file: "+rerr.Error()
		return
	}
	res, garbage := protocol.Parse(string(raw))
	if v, ok := res.Get(protocol.KeyVersion); ok {
		out.Version = oneLine(v, maxVersionBytes)
	}
	if msg, ok := res.Get(protocol.KeyErrorMessage); ok {
		out.Status, out.Error = results.StatusError, oneLine(msg, maxMessageBytes)
		return
	}
	switch {
	case len(strings.TrimSpace(string(raw))) == 0:
		out.Status, out.Error = statusFor(exit), fmt.Sprintf("the engine wrote no result (exit status %d)", exit)
		return
	case exit != 0:
		out.Status, out.Error = results.StatusCrash, fmt.Sprintf("exit status %d", exit)
		return
	case out.Version == "":
		out.Status, out.Error = results.StatusError, "the result file has no version"
		return
	}
	var bad []string
	if d := duplicateKeys(string(raw)); len(d) > 0 {
		bad = append(bad, fmt.Sprintf("duplicate key(s) %s", oneLine(strings.Join(d, ", "), 200)))
	}
	num := func(key protocol.Key) int64 {
		v, ok := res.Get(key)
		if !ok {
			bad = append(bad, string(key)+" is missing")
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			bad = append(bad, fmt.Sprintf("%s = %q is not a count", key, oneLine(v, 40)))
		}
		return n
	}
	out.Millis = num(protocol.KeyMillisecondsTaken)
	out.StateChanges = num(protocol.KeyNumStateChanges)
	out.Rollouts = num(protocol.KeyNumRollouts)
	opt := func(key protocol.Key) int64 {
		if v, ok := res.Get(key); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				return n
			}
		}
		return -1
	}
	out.InitMillis = opt(protocol.KeyInitMilliseconds)
	// Both are lower bounds of the truth: the engine's own VmHWM is exact
	// for its process, the harness's polls see all of them.
	out.PeakRSSKiB = max(out.PeakRSSKiB, opt(protocol.KeyPeakRSSKiB))
	out.GOMAXPROCS = int(min(max(opt(protocol.KeyGOMAXPROCS), 0), 1<<20))
	if len(bad) == 0 {
		// 10^10 state changes per second is beyond any machine.
		if out.Millis > 0 && out.StateChanges/out.Millis > 10_000_000 {
			bad = append(bad, fmt.Sprintf("%d state changes in %d ms is not believable", out.StateChanges, out.Millis))
		}
		// A rollout plays at least one move, but a search's playouts may
		// start at terminal nodes (a uct tree that holds the whole game).
		_, search := res.Get(workload.KeyWorkload)
		if !search && out.Rollouts > out.StateChanges+1 && out.StateChanges > 0 {
			bad = append(bad, fmt.Sprintf("%d rollouts but only %d state changes", out.Rollouts, out.StateChanges))
		}
		if out.Millis > out.Wall.Milliseconds()+1000 {
			bad = append(bad, fmt.Sprintf("%s = %d, but the process ran %d ms", protocol.KeyMillisecondsTaken, out.Millis, out.Wall.Milliseconds()))
		}
	}
	if len(garbage) > 0 {
		bad = append(bad, fmt.Sprintf("%d garbage line(s) in the result file, first %q", len(garbage), oneLine(garbage[0], 80)))
	}
	if len(bad) > 0 {
		out.Status, out.Error = results.StatusError, "bad result file: "+strings.Join(bad, "; ")
		return
	}
	if why := implausible(out, o); len(why) > 0 {
		out.Status, out.Error = results.StatusError, "implausible figures: "+strings.Join(why, "; ")
		return
	}
	out.Status = results.StatusOK
	if t := int64(o.TargetSeconds) * 1000; t > 0 && out.Millis > t+max(t/2, overrunGrace) {
		out.Flags = append(out.Flags, fmt.Sprintf("overran: %d ms for a %d s target", out.Millis, o.TargetSeconds))
	}
}

// The bounds of the plausibility checks (implausible). They are loose on
// purpose: a false alarm loses a real run.
const (
	// maxChangesPerCPUSecond: no engine makes more state changes per
	// second of CPU time (the fastest do about 10^7).
	maxChangesPerCPUSecond = 1_000_000_000
	// cpuGrace and wallGrace are the untimed CPU and wall time allowed
	// besides the timed loop and the reported setup (process start, result
	// file, exit): CPU time may exceed 2*cpus*(ms+init)+cpuGrace and wall
	// time 2*(ms+init)+wallGrace only when the figures lie.
	cpuGrace  = 1000 * time.Millisecond
	wallGrace = 3000 * time.Millisecond
	// overrunGrace: a time-mode run is flagged "overran" when its timed
	// loop took over max(SECONDS/2, overrunGrace) longer than SECONDS.
	overrunGrace = 2000
)

// implausible lists what contradicts the figures of a well-formed result:
//   - in a time-mode run (o.TargetSeconds > 0), millisecondsTaken of 0 or
//     under half of SECONDS: the loop runs until SECONDS have passed;
//   - over maxChangesPerCPUSecond state changes per second of the CPU time
//     of the run's processes (setup included, so this only errs on the
//     generous side);
//   - when the engine reports initMilliseconds (its untimed setup; without
//     it the setup, a compilation perhaps, is unknown and these are not
//     checked): CPU time over 2*cpus*(ms+init)+cpuGrace, where cpus is 1
//     for a pinned run and the CPUs of the harness otherwise (the loop is
//     one thread; the Go GC and a build may use more), or wall time over
//     2*(ms+init)+wallGrace.
func implausible(out *Outcome, o ChildOptions) []string {
	var why []string
	ms := out.Millis
	if t := int64(o.TargetSeconds) * 1000; t > 0 {
		if ms == 0 {
			why = append(why, fmt.Sprintf("%s = 0 for a %d s run", protocol.KeyMillisecondsTaken, o.TargetSeconds))
		} else if ms < t/2 {
			why = append(why, fmt.Sprintf("%s = %d for a %d s run, whose rollouts run for the %d s", protocol.KeyMillisecondsTaken, ms, o.TargetSeconds, o.TargetSeconds))
		}
	}
	cpu := out.UserCPU + out.SystemCPU
	if limit := maxChangesPerCPUSecond / 1000 * (cpu.Milliseconds() + 1); out.StateChanges > limit {
		why = append(why, fmt.Sprintf("%d state changes in %d ms of CPU time is over %d per CPU second", out.StateChanges, cpu.Milliseconds(), int64(maxChangesPerCPUSecond)))
	}
	if out.InitMillis >= 0 {
		timed := time.Duration(ms+out.InitMillis) * time.Millisecond
		cpus := time.Duration(runtime.NumCPU())
		if o.CPU >= 0 {
			cpus = 1
		}
		if cpu > 2*cpus*timed+cpuGrace {
			why = append(why, fmt.Sprintf("the processes used %d ms of CPU time, but %s = %d and %s = %d", cpu.Milliseconds(), protocol.KeyMillisecondsTaken, ms, protocol.KeyInitMilliseconds, out.InitMillis))
		}
		if out.Wall > 2*timed+wallGrace {
			why = append(why, fmt.Sprintf("the process ran %d ms, but %s = %d and %s = %d", out.Wall.Milliseconds(), protocol.KeyMillisecondsTaken, ms, protocol.KeyInitMilliseconds, out.InitMillis))
		}
	}
	return why
}

// duplicateKeys lists the keys that occur on more than one line of a
// result file (ParseResult keeps the last).
func duplicateKeys(text string) []string {
	count := map[string]int{}
	var dup []string
	for _, line := range strings.Split(text, "\n") {
		k, _, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.HasPrefix(k, "#") {
			continue
		}
		if count[k]++; count[k] == 2 {
			dup = append(dup, oneLine(k, 80))
		}
	}
	return dup
}

func statusFor(exit int) string {
	if exit != 0 {
		return results.StatusCrash
	}
	return results.StatusError
}

func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// oneLine is protocol.OneLine: s on one line of at most n bytes.
func oneLine(s string, n int) string { return protocol.OneLine(s, n) }
