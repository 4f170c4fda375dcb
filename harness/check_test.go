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
	assert.Contains(t, rows[0].Detail, "took longer than 1s (its setup included)")
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
