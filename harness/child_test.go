package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// fakeEngine writes a shell script engine: it gets GAME RESULT SECONDS as
// $1 $2 $3.
func fakeEngine(t *testing.T, body string) *Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine.sh")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return &Engine{Name: "fake", Version: "1", Command: []string{path}}
}

const okResult = `printf 'version = 1\nmillisecondsTaken = 1000\nnumStateChanges = 5000\nnumRollouts = 100\n' > "$2"`

func runFake(t *testing.T, body string, o ChildOptions) Outcome {
	t.Helper()
	e := fakeEngine(t, body)
	dir := t.TempDir()
	game := filepath.Join(dir, "game.kif")
	require.NoError(t, os.WriteFile(game, []byte("(role r)"), 0o644))
	if o.Limit == 0 {
		o.Limit = 5 * time.Second
	}
	if o.CPU == 0 {
		o.CPU = -1
	}
	if o.TempRoot == "" {
		o.TempRoot = dir
	}
	return RunChild(context.Background(), e, []string{game, filepath.Join(dir, "result.txt"), "1"}, filepath.Join(dir, "result.txt"), o)
}

// needPerl skips a test whose fake engine is a perl one-liner (perl is
// part of every Debian and Ubuntu system, python is not).
func needPerl(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("needs perl")
	}
}

// result is a fake engine's line that writes a result file of the given
// lines.
func result(lines ...string) string {
	return "printf '" + strings.Join(lines, "\\n") + "\\n' > \"$2\""
}

func TestChildFaults(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		opts       ChildOptions
		perl       bool // the fake engine needs perl
		parallel   bool // the fake engine mostly sleeps: run beside the others
		wantStatus string
		wantError  string
		maxWall    time.Duration
		check      func(t *testing.T, out Outcome)
	}{
		{name: "ok", body: okResult, wantStatus: results.StatusOK, check: func(t *testing.T, out Outcome) { assert.Empty(t, out.Flags) }},
		{name: "crash by signal", body: "kill -SEGV $$", wantStatus: results.StatusCrash, wantError: "signal"},
		{name: "non-zero exit, no result", body: "echo boom >&2; exit 3", wantStatus: results.StatusCrash, wantError: "exit status 3"},
		{name: "hang", body: "sleep 100", opts: ChildOptions{Limit: 500 * time.Millisecond}, parallel: true, wantStatus: results.StatusTimeout,
			wantError: "killed after the time limit of 500ms (", maxWall: 4 * time.Second,
			check: func(t *testing.T, out Outcome) {
				assert.Regexp(t, `of CPU time in [0-9.]+m?s: under 0\.1 of a CPU, it waited`, out.Error)
			}},
		// Past its limit in wall time, a run that works at a part of a CPU
		// (here half of one, as on a busy machine) goes on until it has
		// used the limit in CPU time: this one needs 1.2 s of CPU.
		{name: "works past the limit at half a CPU", perl: true, body: `perl -MTime::HiRes=sleep -e 'sub cpu { my @t = times; $t[0] + $t[1] } for (;;) { my $t = cpu(); 1 while cpu() < $t + 0.02; sleep 0.02; last if cpu() >= 1.2 }'; ` + result("version = 1", "millisecondsTaken = 3000", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{Limit: 2 * time.Second}, wantStatus: results.StatusOK,
			check: func(t *testing.T, out Outcome) {
				assert.Greater(t, out.Wall, 2*time.Second, "the run went past its limit in wall time")
			}},
		{name: "spins past the limit", perl: true, body: `perl -e '1 while 1'`, opts: ChildOptions{Limit: time.Second}, wantStatus: results.StatusTimeout,
			wantError: "killed after the time limit of 1s (1", maxWall: 14 * time.Second,
			check: func(t *testing.T, out Outcome) {
				assert.Regexp(t, `of CPU time, in [0-9.]+m?s: [01]\.\d\d of a CPU\)`, out.Error)
				assert.GreaterOrEqual(t, out.UserCPU+out.SystemCPU, time.Second)
			}},
		{name: "ignores SIGTERM", body: "trap '' TERM; while :; do sleep 1; done", opts: ChildOptions{Limit: 300 * time.Millisecond}, parallel: true, wantStatus: results.StatusTimeout, maxWall: 5 * time.Second},
		{name: "grandchild keeps pipes open", body: "sleep 100 & " + okResult, wantStatus: results.StatusOK, maxWall: 4 * time.Second},
		{name: "megabytes on stdout", body: "head -c 30000000 /dev/zero; " + okResult, wantStatus: results.StatusOK},
		{name: "deletes its result file", body: "rm -f \"$2\"", wantStatus: results.StatusError, wantError: "deleted its result file"},
		{name: "garbage", body: `printf 'version = 1\n\x01\x02 garbage\nmillisecondsTaken = 1000\nnumStateChanges = 5\nnumRollouts = 1\n' > "$2"`, wantStatus: results.StatusError, wantError: "garbage"},
		{name: "no version", body: `printf 'millisecondsTaken = 1000\nnumStateChanges = 5\nnumRollouts = 1\n' > "$2"`, wantStatus: results.StatusError, wantError: "no version"},
		{name: "exit 0 with no result", body: "exit 0", wantStatus: results.StatusError, wantError: "no result"},
		{name: "negative count", body: `printf 'version = 1\nmillisecondsTaken = 1000\nnumStateChanges = -5\nnumRollouts = 1\n' > "$2"`, wantStatus: results.StatusError, wantError: "not a count"},
		{name: "absurd count", body: `printf 'version = 1\nmillisecondsTaken = 1000\nnumStateChanges = 99999999999999\nnumRollouts = 1\n' > "$2"`, wantStatus: results.StatusError, wantError: "not believable"},
		{name: "engine error", body: `printf 'version = 1\nerrorMessage = no legal move\n' > "$2"; exit 1`, wantStatus: results.StatusError, wantError: "no legal move"},
		// Its time limit is long enough for a busy machine to give it the
		// CPU it takes to fill 200 MiB (at load 8 on two cores it had not
		// in the default 5 s).
		{name: "memory without bound", body: "tail /dev/zero", opts: ChildOptions{MemoryLimit: 200 << 20, Limit: 15 * time.Second}, wantStatus: results.StatusError, wantError: "memory limit", maxWall: 20 * time.Second},

		// The result file is read only if it is a regular file of at most 1 MiB.
		{name: "result file is a named pipe", body: `rm -f "$2"; mkfifo "$2"`, wantStatus: results.StatusError, wantError: "the result file is a named pipe", maxWall: 4 * time.Second},
		{name: "result file links to /dev/zero", body: `rm -f "$2"; ln -s /dev/zero "$2"`, wantStatus: results.StatusError, wantError: "the result file is a symbolic link", maxWall: 4 * time.Second},
		{name: "result file links to a result", body: `printf 'version = 1\nmillisecondsTaken = 1000\nnumStateChanges = 5\nnumRollouts = 1\n' > "$2.real"; rm -f "$2"; ln -s "$2.real" "$2"`, wantStatus: results.StatusError, wantError: "symbolic link"},
		{name: "result file is a folder", body: `rm -f "$2"; mkdir "$2"`, wantStatus: results.StatusError, wantError: "the result file is a folder"},
		{name: "result file over 1 MiB", body: okResult + `; head -c 2000000 /dev/zero | tr '\0' '#' >> "$2"`, wantStatus: results.StatusError, wantError: "the result file is over 1 MiB"},
		{name: "result file renamed into place", body: `printf 'version = 1\nmillisecondsTaken = 1000\nnumStateChanges = 5\nnumRollouts = 1\n' > "$2.tmp"; mv "$2.tmp" "$2"`, wantStatus: results.StatusOK},
		{name: "version of 500 kB", body: `{ printf 'version = '; head -c 500000 /dev/zero | tr '\0' v; printf '\nmillisecondsTaken = 1000\nnumStateChanges = 5\nnumRollouts = 1\n'; } > "$2"`, wantStatus: results.StatusOK,
			check: func(t *testing.T, out Outcome) { assert.LessOrEqual(t, len(out.Version), maxVersionBytes+3) }},
		{name: "count of 500 kB", body: `{ printf 'version = 1\nmillisecondsTaken = '; head -c 500000 /dev/zero | tr '\0' 7; printf '\nnumStateChanges = 5\nnumRollouts = 1\n'; } > "$2"`, wantStatus: results.StatusError, wantError: "not a count",
			check: func(t *testing.T, out Outcome) { assert.Less(t, len(out.Error), 1000) }},

		// A process of the run that left the session still counts.
		{name: "setsid grandchild holds memory and a CPU", perl: true, body: `setsid perl -e '$x = "a" x (150<<20); 1 while 1' & sleep 30`,
			opts: ChildOptions{MemoryLimit: 200 << 20, Limit: 20 * time.Second}, wantStatus: results.StatusError, wantError: "memory limit", maxWall: 15 * time.Second},

		// Figures that contradict each other or the run.
		{name: "duplicate keys", body: result("version = 1", "millisecondsTaken = 1000", "numStateChanges = 5000", "numStateChanges = 9000000", "numRollouts = 100"),
			wantStatus: results.StatusError, wantError: "duplicate key(s) numStateChanges"},
		{name: "zero milliseconds", body: result("version = 1", "millisecondsTaken = 0", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{TargetSeconds: 1}, wantStatus: results.StatusError, wantError: "implausible figures: millisecondsTaken = 0 for a 1 s run"},
		{name: "milliseconds under the target", body: result("version = 1", "millisecondsTaken = 300", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{TargetSeconds: 1}, wantStatus: results.StatusError, wantError: "implausible figures: millisecondsTaken = 300 for a 1 s run"},
		{name: "state changes per CPU second", body: result("version = 1", "millisecondsTaken = 1000", "numStateChanges = 5000000000", "numRollouts = 100"),
			wantStatus: results.StatusError, wantError: "implausible figures: 5000000000 state changes"},
		{name: "under-reported time, CPU", perl: true, parallel: true, body: `perl -e 'for (;;) { for (1..100000) {} last if (times())[0] >= 1.2 }'; ` + result("version = 1", "millisecondsTaken = 1", "initMilliseconds = 0", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{Limit: 60 * time.Second}, wantStatus: results.StatusError, wantError: "implausible figures: the processes used"},
		{name: "under-reported time, wall", parallel: true, body: `sleep 3.4; ` + result("version = 1", "millisecondsTaken = 100", "initMilliseconds = 0", "numStateChanges = 5000", "numRollouts = 100"),
			wantStatus: results.StatusError, wantError: "implausible figures: the process ran"},
		{name: "setup not timed", parallel: true, body: `sleep 2; ` + result("version = 1", "millisecondsTaken = 1000", "initMilliseconds = 1500", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{TargetSeconds: 1}, wantStatus: results.StatusOK},
		{name: "overran", parallel: true, body: `sleep 2.2; ` + result("version = 1", "millisecondsTaken = 3100", "numStateChanges = 5000", "numRollouts = 100"),
			opts: ChildOptions{TargetSeconds: 1}, wantStatus: results.StatusOK,
			check: func(t *testing.T, out Outcome) {
				assert.Equal(t, []string{"overran: 3100 ms for a 1 s target"}, out.Flags)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.perl {
				needPerl(t)
			}
			if tt.parallel {
				t.Parallel()
			}
			start := time.Now()
			out := runFake(t, tt.body, tt.opts)
			assert.Equal(t, tt.wantStatus, out.Status, "error: %s; stderr: %s", out.Error, out.StderrTail)
			if tt.wantError != "" {
				assert.Contains(t, out.Error, tt.wantError)
			}
			if tt.maxWall > 0 {
				assert.Less(t, time.Since(start), tt.maxWall)
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

func TestChildKeepsStderrTail(t *testing.T) {
	out := runFake(t, "i=0; while [ $i -lt 1000 ]; do echo line $i >&2; i=$((i+1)); done; exit 2", ChildOptions{})
	assert.Equal(t, results.StatusCrash, out.Status)
	assert.True(t, strings.HasSuffix(out.StderrTail, "line 999"), out.StderrTail)
	assert.NotContains(t, out.StderrTail, "line 1 ")
}

func TestChildPinnedToCPU(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs")
	}
	out := runFake(t, `grep Cpus_allowed_list /proc/self/status >&2; exit 1`, ChildOptions{CPU: 1})
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	assert.Contains(t, out.StderrTail, "Cpus_allowed_list:")
	// The shell's own mask is the one it was started with.
	assert.Regexp(t, `Cpus_allowed_list:\s+1$`, out.StderrTail)
}

func TestChildInterrupted(t *testing.T) {
	e := fakeEngine(t, "sleep 100")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	out := RunChild(ctx, e, nil, filepath.Join(dir, "r.txt"), ChildOptions{Limit: time.Minute, CPU: -1})
	assert.True(t, out.Interrupted)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// The peak memory of a run is its engine's, whatever the size of the
// harness: the engine process shares the harness's pages until it execs,
// and its ru_maxrss counts them.
func TestChildPeakRSSIsTheEngines(t *testing.T) {
	needPerl(t)
	ballast := make([]byte, 300<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1 // resident
	}
	out := runFake(t, `perl -e '$x = ""; vec($x, (80<<20) - 1, 8) = 1; select(undef, undef, undef, 0.3)'; `+okResult, ChildOptions{})
	require.Equal(t, results.StatusOK, out.Status, out.Error)
	t.Logf("peak %d KiB", out.PeakRSSKiB)
	assert.Greater(t, out.PeakRSSKiB, int64(80<<10), "the engine's 80 MiB")
	assert.Less(t, out.PeakRSSKiB, int64(200<<10), "not the harness's 300 MiB")
	runtime.KeepAlive(ballast)
}

// The engine's peakRSSKiB stands when the harness saw less.
func TestChildPeakRSSReported(t *testing.T) {
	out := runFake(t, result("version = 1", "millisecondsTaken = 1000", "numStateChanges = 5000", "numRollouts = 100", "peakRSSKiB = 7777777"), ChildOptions{})
	require.Equal(t, results.StatusOK, out.Status, out.Error)
	assert.Equal(t, int64(7777777), out.PeakRSSKiB)
}

// Following the run's processes allocates nothing per poll, so the harness,
// whose GC is paused during the run, does not grow.
func TestChildDoesNotGrow(t *testing.T) {
	var before, after runtime.MemStats
	runFake(t, okResult, ChildOptions{MemoryLimit: 1 << 30}) // warm up
	runtime.ReadMemStats(&before)
	out := runFake(t, "sleep 1.5; "+okResult, ChildOptions{MemoryLimit: 1 << 30})
	runtime.ReadMemStats(&after)
	require.Equal(t, results.StatusOK, out.Status, out.Error)
	// About 15 polls; the fixed cost of a run is under 200 kB.
	t.Logf("%d bytes allocated during the run", after.TotalAlloc-before.TotalAlloc)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(400<<10))
}

func TestProcTrackerPollAllocatesNothing(t *testing.T) {
	tr, err := newProcTracker(os.Getpid(), "x", nil)
	require.NoError(t, err)
	defer tr.close()
	tr.poll(true)
	assert.Zero(t, testing.AllocsPerRun(20, func() { tr.poll(true) }))
	assert.Zero(t, testing.AllocsPerRun(20, func() { tr.poll(false) }))
}

// No process of a run outlives it, even one that left the session or whose
// parent died, and the run's temp folder (the engine's TMPDIR, where a go
// build keeps its work) goes too, also when the run is killed.
func TestChildLeavesNothing(t *testing.T) {
	const burner = `sh -c 'echo $$ > "$PIDFILE"; while :; do :; done'`
	tests := []struct {
		name       string
		spawn      string // starts a CPU burner that writes its pid to $PIDFILE
		then       string // after the burner started
		opts       ChildOptions
		wantStatus string
		wantFlags  []string
	}{
		{name: "setsid grandchild", spawn: `setsid ` + burner + ` &`},
		{name: "double fork", spawn: `(setsid ` + burner + ` &) &`},
		{name: "new process group", spawn: `perl -e 'setpgrp(0, 0); open(F, ">", $ENV{PIDFILE}); print F "$$\n"; close F; 1 while 1' &`},
		{name: "killed at the time limit", spawn: `setsid ` + burner + ` &`, then: "sleep 100", opts: ChildOptions{Limit: time.Second}, wantStatus: results.StatusTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.spawn, "perl") {
				needPerl(t)
			}
			root := t.TempDir()
			pidFile := filepath.Join(root, "pid")
			tmpFile := filepath.Join(root, "tmpdir")
			then, want, flags := tt.then, tt.wantStatus, tt.wantFlags
			if then == "" {
				then, want, flags = okResult, results.StatusOK, []string{"left 1 process(es) running after it exited (killed)"}
			}
			body := `export PIDFILE=` + pidFile + `; mktemp -d > ` + tmpFile + `; ` + tt.spawn +
				` while [ ! -s "$PIDFILE" ]; do sleep 0.01; done; ` + then
			o := tt.opts
			o.TempRoot = root
			out := runFake(t, body, o)
			require.Equal(t, want, out.Status, out.Error)
			assert.Equal(t, flags, out.Flags)
			b, err := os.ReadFile(pidFile)
			require.NoError(t, err)
			pid := strings.TrimSpace(string(b))
			_, err = os.Stat("/proc/" + pid)
			assert.True(t, os.IsNotExist(err), "process %s of the run is still there", pid)
			b, err = os.ReadFile(tmpFile)
			require.NoError(t, err)
			tmp := strings.TrimSpace(string(b))
			assert.True(t, strings.HasPrefix(tmp, filepath.Join(root, childPrefix)), "the engine's TMPDIR %s is the run's", tmp)
			left, err := filepath.Glob(filepath.Join(root, childPrefix+"*"))
			require.NoError(t, err)
			assert.Empty(t, left)
		})
	}
}

// BenchmarkProcTrackerPoll is the harness's cost of one poll of a run
// while the engine runs: a scan of /proc, or a look at the run's known
// processes.
func BenchmarkProcTrackerPoll(b *testing.B) {
	for _, full := range []bool{true, false} {
		b.Run(fmt.Sprintf("full=%v", full), func(b *testing.B) {
			tr, err := newProcTracker(os.Getpid(), "x", nil)
			require.NoError(b, err)
			defer tr.close()
			tr.poll(true)
			for b.Loop() {
				tr.poll(full)
			}
		})
	}
}
