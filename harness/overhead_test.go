package harness

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// TestOverhead measures the wall time a campaign spends outside the engine:
// the fake engine sleeps exactly its SECONDS and writes its result, so
// everything beyond SECONDS per run (starting the process and its shell,
// the game and result files, classifying, appending and syncing the row) is
// the harness's. The issue wants under 1% of a 30 s run. By default it runs
// two 1 s runs and holds the overhead to 1% of 30 s (300 ms) per run;
// GDLPERF_OVERHEAD=1 runs three real 30 s runs (90 s) and holds it to 1%.
func TestOverhead(t *testing.T) {
	secs, n := 1, 2
	if os.Getenv("GDLPERF_OVERHEAD") == "1" {
		secs, n = 30, 3
	}
	e := scriptEngine(t, "sleeper", `sleep "$SECS"
printf 'version = 1\nmillisecondsTaken = %d\nnumStateChanges = 1000\nnumRollouts = 10\n' "$((SECS*1000))" > "$RESULT_FILE"`)
	o := Options{Seconds: secs, Repetitions: n, Seed: 1}
	w, err := results.OpenWriter(filepath.Join(t.TempDir(), "results.csv"))
	require.NoError(t, err)
	defer w.Close()
	c := &Campaign{
		Runs:        Plan(testGames(1), []*Engine{e}, o),
		Options:     o,
		Child:       ChildOptions{Limit: Limit(o), CPU: -1},
		Writer:      w,
		Fingerprint: ReadFingerprint(),
		SkipCompat:  true,
	}
	start := time.Now()
	sum, err := c.Execute(context.Background())
	wall := time.Since(start)
	require.NoError(t, err)
	require.Equal(t, n, sum.Ran)
	require.Zero(t, sum.Failed)
	perRun := wall / time.Duration(n)
	over := perRun - time.Duration(secs)*time.Second
	frac := float64(over) / float64(30*time.Second)
	t.Logf("%d runs of %d s: %v per run, %v outside the engine: %.3f%% of a 30 s run", n, secs, perRun.Round(time.Millisecond), over.Round(100*time.Microsecond), 100*frac)
	if secs == 30 {
		t.Logf("overhead as a fraction of the measured runs: %s%%", strconv.FormatFloat(100*float64(over)/float64(time.Duration(secs)*time.Second), 'f', 3, 64))
	}
	// Timing is noisy on shared machines: the bound is checked on request
	// (GDLPERF_OVERHEAD=1 or GDLPERF_TIMING=1), the figure always logged.
	if secs == 30 || os.Getenv("GDLPERF_TIMING") == "1" {
		assert.Less(t, frac, 0.01, "overhead over 1%% of a 30 s run")
	}
}
