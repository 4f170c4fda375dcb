package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/results"
)

// ChildOptions bound one engine process.
type ChildOptions struct {
	Limit       time.Duration // wall-clock limit; the process group is killed after it
	MemoryLimit int64         // bytes of resident memory; 0 = none
	GOMAXPROCS  int           // set in the child's environment when > 0
	CPU         int           // CPU to pin the child to; -1 = none
	OutputCap   int           // bytes of stdout and of stderr kept (the tail)
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
	PeakRSSKiB   int64
	GOMAXPROCS   int
	UserCPU      time.Duration
	SystemCPU    time.Duration
	Wall         time.Duration
	StderrTail   string
	Interrupted  bool // the campaign was stopped during this run: do not record it
	ResultRaw    string
}

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
func RunChild(ctx context.Context, e *Engine, args []string, resultPath string, o ChildOptions) Outcome {
	var out Outcome
	if err := os.WriteFile(resultPath, nil, 0o644); err != nil {
		out.Status, out.Error = results.StatusError, "creating the result file: "+err.Error()
		return out
	}
	argv := append(append([]string(nil), e.Command...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = e.Dir
	cmd.Env = append(os.Environ(), e.Env...)
	if o.GOMAXPROCS > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(o.GOMAXPROCS))
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cap := o.OutputCap
	if cap <= 0 {
		cap = 64 << 10
	}
	stdout, stderr := &tail{n: cap}, &tail{n: cap}
	// Pipes we own, so a grandchild that keeps them open cannot block us:
	// after the child exits and its group is killed, we stop reading.
	outR, outW, err := os.Pipe()
	if err != nil {
		out.Status, out.Error = results.StatusError, err.Error()
		return out
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		out.Status, out.Error = results.StatusError, err.Error()
		return out
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); io.Copy(stderr, errR) }()

	// Pause our own GC while the engine runs, so it has the machine alone.
	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)

	start := time.Now()
	err = startPinned(cmd, o.CPU)
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		readers.Wait()
		out.Status, out.Error = results.StatusError, fmt.Sprintf("starting %s: %v", argv[0], err)
		return out
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var (
		timedOut, memKilled bool
		peakRSS             int64
		waitErr             error
	)
	timer := time.NewTimer(o.Limit)
	defer timer.Stop()
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
wait:
	for {
		select {
		case waitErr = <-done:
			break wait
		case <-timer.C:
			timedOut = true
			killGroup(pgid, done, &waitErr)
			break wait
		case <-ctx.Done():
			out.Interrupted = true
			killGroup(pgid, done, &waitErr)
			break wait
		case <-poll.C:
			if o.MemoryLimit > 0 {
				rss := groupRSS(pgid)
				peakRSS = max(peakRSS, rss)
				if rss > o.MemoryLimit {
					memKilled = true
					killGroup(pgid, done, &waitErr)
					break wait
				}
			}
		}
	}
	out.Wall = time.Since(start)
	// Whatever the child left behind in its group goes too.
	syscall.Kill(-pgid, syscall.SIGKILL)
	finished := make(chan struct{})
	go func() { readers.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(2 * time.Second):
	}
	outR.Close()
	errR.Close()

	if ps := cmd.ProcessState; ps != nil {
		out.UserCPU, out.SystemCPU = ps.UserTime(), ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			out.PeakRSSKiB = ru.Maxrss // KiB on Linux
		}
	}
	out.StderrTail = oneLine(lastLines(stderr.String(), 5), 500)
	raw, rerr := os.ReadFile(resultPath)
	out.ResultRaw = string(raw)
	switch {
	case out.Interrupted:
		out.Status, out.Error = results.StatusError, "interrupted"
	case timedOut:
		out.Status, out.Error = results.StatusTimeout, fmt.Sprintf("killed after the time limit of %s", o.Limit)
	case memKilled:
		out.Status, out.Error = results.StatusError, fmt.Sprintf("killed for using %d MiB, over the memory limit of %d MiB", peakRSS>>20, o.MemoryLimit>>20)
	default:
		classify(&out, cmd.ProcessState, waitErr, raw, rerr)
	}
	return out
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

func killGroup(pgid int, done chan error, waitErr *error) {
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case *waitErr = <-done:
		syscall.Kill(-pgid, syscall.SIGKILL)
	case <-time.After(2 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		*waitErr = <-done
	}
}

// groupRSS sums the resident memory of the processes in a process group.
func groupRSS(pgid int) int64 {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var total int64
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pid != pgid {
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			// pgrp is the 5th field, after the parenthesised command.
			s := string(stat)
			i := strings.LastIndexByte(s, ')')
			if i < 0 {
				continue
			}
			f := strings.Fields(s[i+1:])
			if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
				continue
			}
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				if f := strings.Fields(rest); len(f) > 0 {
					kib, _ := strconv.ParseInt(f[0], 10, 64)
					total += kib << 10
				}
			}
		}
	}
	return total
}

// classify reads the exit status and the result file.
func classify(out *Outcome, ps *os.ProcessState, waitErr error, raw []byte, rerr error) {
	if ps == nil {
		out.Status, out.Error = results.StatusCrash, fmt.Sprintf("the engine did not run: %v", waitErr)
		return
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		out.Status, out.Error = results.StatusCrash, fmt.Sprintf("killed by signal %s", ws.Signal())
		return
	}
	res, garbage := rollout.ParseResult(string(raw))
	out.Version, _ = res.Get("version")
	if msg, ok := res.Get("errorMessage"); ok {
		out.Status, out.Error = results.StatusError, oneLine(msg, 2000)
		return
	}
	exit := ps.ExitCode()
	switch {
	case errors.Is(rerr, os.ErrNotExist):
		out.Status, out.Error = statusFor(exit), fmt.Sprintf("the engine deleted its result file (exit status %d)", exit)
		return
	case rerr != nil:
		out.Status, out.Error = statusFor(exit), "reading the result file: "+rerr.Error()
		return
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
	num := func(key string) int64 {
		v, ok := res.Get(key)
		if !ok {
			bad = append(bad, key+" is missing")
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			bad = append(bad, fmt.Sprintf("%s = %q is not a count", key, v))
		}
		return n
	}
	out.Millis = num("millisecondsTaken")
	out.StateChanges = num("numStateChanges")
	out.Rollouts = num("numRollouts")
	opt := func(key string) int64 {
		if v, ok := res.Get(key); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				return n
			}
		}
		return -1
	}
	out.InitMillis = opt("initMilliseconds")
	if rss := opt("peakRSSKiB"); rss >= 0 {
		out.PeakRSSKiB = rss
	}
	out.GOMAXPROCS = int(max(opt("gomaxprocs"), 0))
	if len(bad) == 0 {
		// 10^10 state changes per second is beyond any machine.
		if out.Millis > 0 && out.StateChanges/out.Millis > 10_000_000 {
			bad = append(bad, fmt.Sprintf("%d state changes in %d ms is not believable", out.StateChanges, out.Millis))
		}
		if out.Rollouts > out.StateChanges+1 && out.StateChanges > 0 {
			bad = append(bad, fmt.Sprintf("%d rollouts but only %d state changes", out.Rollouts, out.StateChanges))
		}
		if out.Millis > out.Wall.Milliseconds()+1000 {
			bad = append(bad, fmt.Sprintf("millisecondsTaken = %d, but the process ran %d ms", out.Millis, out.Wall.Milliseconds()))
		}
	}
	if len(garbage) > 0 {
		bad = append(bad, fmt.Sprintf("%d garbage line(s) in the result file, first %q", len(garbage), oneLine(garbage[0], 80)))
	}
	if len(bad) > 0 {
		out.Status, out.Error = results.StatusError, "bad result file: "+strings.Join(bad, "; ")
		return
	}
	out.Status = results.StatusOK
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

// oneLine makes s one line of at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
