package harness

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/results"

	_ "github.com/gdlperf/gdlperf/engines/prover"
)

// An engine whose trace never ends is a failed check with a reason, within
// the budget and the setup allowance; the check goes on.
func TestCheckHangingTraceIsAnError(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "trace.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755))
	ref, ok := engines.Lookup("prover")
	require.True(t, ok)
	tic, err := BuiltinGame("tictactoe")
	require.NoError(t, err)
	c := &Checker{Reference: ref, Budget: 200 * time.Millisecond, Setup: time.Second, Seed: 1, Methods: []string{MethodTrace}, WorkDir: dir}
	e := &Engine{Name: "hangs", Version: "1", TraceCommand: []string{script}}
	start := time.Now()
	rows := c.Check(context.Background(), e, tic)
	assert.Less(t, time.Since(start), 10*time.Second)
	require.Len(t, rows, 1)
	assert.Equal(t, results.VerdictError, rows[0].Verdict)
	assert.Regexp(t, `took longer than 3(\.\d)?s at 0\.0\d of a CPU \(0(\.\d)?s of its limit of 1s of CPU time: it waited, it did not work\) \(its setup included\)`, rows[0].Detail)
}

// The limits that fail a check are of CPU time: a child that works is
// stopped when it has used its limit of CPU; one that uses none (here: one
// that sleeps, as a hung one does) is not stopped at the limit in wall
// time, only at 3 times it.
func TestRunBoundedByCPU(t *testing.T) {
	ctx := context.Background()
	const limit = 300 * time.Millisecond
	b, _, _ := runBounded(ctx, []string{"sh", "-c", "while :; do :; done"}, "", nil, limit, true)
	assert.True(t, b.TimedOut, "a busy loop is stopped")
	assert.Positive(t, b.CPU, "its CPU time is read")
	assert.True(t, b.CPU >= limit || b.Wall >= wallFactor*limit, "stopped at its CPU limit or the wall-time cap: %+v", b)

	b, _, err := runBounded(ctx, []string{"sleep", "0.6"}, "", nil, limit, true)
	assert.NoError(t, err)
	assert.False(t, b.TimedOut, "0.6 s of waiting is under 3 times a limit of 0.3 s, and used no CPU")
	assert.GreaterOrEqual(t, b.Wall, 600*time.Millisecond)

	b, _, _ = runBounded(ctx, []string{"sleep", "30"}, "", nil, limit, true)
	assert.True(t, b.TimedOut)
	assert.Less(t, b.Wall, 5*time.Second, "stopped at 3 times the limit")

	// Without byCPU the limit is of wall time, as for the budget's rounds.
	b, _, _ = runBounded(ctx, []string{"sleep", "30"}, "", nil, limit, false)
	assert.True(t, b.TimedOut)
	assert.Less(t, b.Wall, 2*time.Second)
	assert.Equal(t, "longer than 300ms", b.String())
}

// A run is stopped at its CPU limit however long it took, or as one that
// waits: at 3 times the limit in wall time with under a tenth of a CPU. A
// run that works on a busy machine, at a fifth of a CPU, goes on past 3
// times its limit (it was stopped there, with its limit unused, when the
// wall-time cap did not look at the CPU share); by 10 times it has used
// its limit or is under a tenth of a CPU.
func TestOverLimit(t *testing.T) {
	const l = time.Minute
	for _, tt := range []struct {
		cpu, wall time.Duration
		want      bool
	}{
		{59 * time.Second, 60 * time.Second, false},
		{60 * time.Second, 61 * time.Second, true},
		{60 * time.Second, 10 * l, true},
		{0, 2*l + 59*time.Second, false},
		{17 * time.Second, 3 * l, true},
		{0, 3 * l, true},
		{19 * time.Second, 3 * l, false},
		{36 * time.Second, 3 * l, false},
		{55 * time.Second, 5 * l, false},
		{59 * time.Second, 9 * l, false},
		{59 * time.Second, 10 * l, true},
	} {
		assert.Equal(t, tt.want, overLimit(tt.cpu, tt.wall, l), "%s of CPU in %s", tt.cpu, tt.wall)
	}
}

func TestBoundString(t *testing.T) {
	assert.Equal(t, "longer than 1m0s of CPU time (in 1m32s: 0.65 of a CPU)",
		bound{TimedOut: true, ByCPU: true, Limit: time.Minute, CPU: 60 * time.Second, Wall: 92 * time.Second}.String())
	assert.Equal(t, "longer than 3m0s at 0.01 of a CPU (2s of its limit of 1m0s of CPU time: it waited, it did not work)",
		bound{TimedOut: true, ByCPU: true, Limit: time.Minute, CPU: 2 * time.Second, Wall: 3 * time.Minute}.String())
	assert.Equal(t, "longer than 1m0s", bound{TimedOut: true, Limit: time.Minute, Wall: time.Minute}.String())
}

// An engine that stops at a resource limit gives no answer: the check is
// ok when what it compared before agreed (as when the budget runs out) and
// an error when it compared nothing, never a mismatch.
func TestSelfCheckResourceLimit(t *testing.T) {
	ref, _ := engines.Lookup("prover")
	tic, _ := gamerepo.Builtin("tictactoe")
	g, err := gdl.Load(tic.File, tic.Rules)
	require.NoError(t, err)
	for _, tt := range []struct {
		after int
		want  string
	}{{0, results.VerdictError}, {40, results.VerdictOK}} {
		e := enginetest.LimitedEngine(ref, tt.after)
		for _, method := range []string{MethodExhaustive, MethodMetamorphic} {
			res := SelfCheck(ref, e, g, method, 1, 3, 1000, 5*time.Second)
			assert.Equal(t, tt.want, res.Verdict, "%s after %d", method, tt.after)
			assert.Contains(t, res.Detail, "stopped at a resource limit", method)
		}
	}
}
