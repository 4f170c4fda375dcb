package harness

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

func TestMeasureCPUShareAndContention(t *testing.T) {
	ok := func(raw string, user, wall time.Duration) Outcome {
		return Outcome{Status: results.StatusOK, Millis: 1000, StateChanges: 5000, Rollouts: 10, UserCPU: user, Wall: wall, ResultRaw: raw}
	}
	tests := []struct {
		name          string
		out           Outcome
		wantShare     string
		wantContended bool
		wantTimedCPU  int64
	}{
		{name: "the engine's own timed CPU", out: ok("version = 1\ncpuMilliseconds = 980\n", 3*time.Second, 3*time.Second), wantShare: "0.980", wantTimedCPU: 980},
		{name: "half a CPU is contended", out: ok("version = 1\ncpuMilliseconds = 500\n", time.Second, 3*time.Second), wantShare: "0.500", wantContended: true, wantTimedCPU: 500},
		{name: "no timed CPU: the whole process", out: ok("version = 1\n", 1400*time.Millisecond, 2*time.Second), wantShare: "0.700", wantContended: true},
		{name: "a failed run has no share", out: Outcome{Status: results.StatusCrash, Wall: time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Campaign{Options: Options{Seconds: 1}, Fingerprint: Fingerprint{CPUs: 2, MemoryMiB: 24000}, Measure: Measurement{GdlperfVersion: "2.0.0", Jobs: 2}}
			r := Run{Key: "k", Game: &Game{Key: "G"}, Engine: &Engine{Name: "e", Version: "1"}, Dims: Dims{Workload: "uct", Budget: "iterations=10"}}
			row := c.row(r, tt.out, time.Unix(0, 0), "0.5", 1)
			assert.Equal(t, tt.wantShare, row.CPUShare)
			assert.Equal(t, tt.wantContended, row.Contended)
			assert.Equal(t, tt.wantTimedCPU, row.TimedCPUMs)
			assert.Equal(t, "uct", row.Workload)
			assert.Equal(t, "iterations=10", row.WorkloadBudget)
			assert.Equal(t, "1", row.CPU)
			assert.Equal(t, 2, row.Jobs)
			assert.Equal(t, "2.0.0", row.GdlperfVersion)
			assert.Equal(t, 2, row.Cores)
			assert.NotEmpty(t, row.LoadAfter)
		})
	}
}

func TestMeasureSetupFigures(t *testing.T) {
	c := &Campaign{}
	out := Outcome{Status: results.StatusOK, Millis: 1000, ResultRaw: "version = 2\ndesign = magic\ncodegenMilliseconds = 120\nbuildMilliseconds = 3400\noptions = fullpass=1,legal=triggers\n"}
	row := c.row(Run{Game: &Game{}, Engine: &Engine{}}, out, time.Unix(0, 0), "", -1)
	assert.Equal(t, "magic", row.Design)
	assert.Equal(t, int64(120), row.CodegenMs)
	assert.Equal(t, int64(3400), row.BuildMs)
	assert.Equal(t, "fullpass=1,legal=triggers", row.EngineOptions)
	assert.Equal(t, "", row.CPU, "not pinned")
	assert.Equal(t, 1, row.Jobs)
}

// The machine's ID does not depend on its host name, so the ephemeral
// runners of one CI runner type share it, nor on the kernel's minor release.
func TestFingerprintIDIgnoresHost(t *testing.T) {
	a := Fingerprint{Host: "runner-abc", CPUModel: "Xeon", CPUs: 2, MemoryMiB: 24000, Governor: "performance", Kernel: "6.1.0-18-amd64", GoVersion: "go1.26.1"}
	b := a
	b.Host, b.Kernel = "runner-xyz", "6.1.0-27-amd64"
	assert.Equal(t, a.ID(), b.ID())
	b.CPUs = 4
	assert.NotEqual(t, a.ID(), b.ID())
	b = a
	b.CPUModel = "EPYC"
	assert.NotEqual(t, a.ID(), b.ID())
}

// A contended run is run again at the end of the campaign, up to
// RerunContended times per run key in all, counting the contended rows of
// earlier campaigns.
func TestCampaignRerunsContendedRuns(t *testing.T) {
	// The engine reports half a CPU for its rollouts the first two times it
	// runs on a game, a whole CPU after that.
	count := t.TempDir()
	body := `n=$(ls ` + count + ` | grep -c "$(basename "$GAME_FILE")" || true)
touch ` + count + `/"$(basename "$GAME_FILE").$n"
cpu=1000; [ "$n" -lt 2 ] && cpu=500
printf 'version = 1.0\nmillisecondsTaken = 1000\ncpuMilliseconds = %s\nnumStateChanges = 500\nnumRollouts = 50\n' $cpu > "$RESULT_FILE"`
	tests := []struct {
		name          string
		rerun         int
		before        int
		wantRows      int
		wantContended int
	}{
		{name: "off", rerun: 0, wantRows: 1, wantContended: 1},
		{name: "once", rerun: 1, wantRows: 2, wantContended: 2},
		{name: "until it is not contended", rerun: 5, wantRows: 3, wantContended: 2},
		{name: "the allowance spent before", rerun: 1, before: 1, wantRows: 1, wantContended: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range must(os.ReadDir(count)) {
				require.NoError(t, os.Remove(filepath.Join(count, f.Name())))
			}
			e := scriptEngine(t, "e", body)
			c, w, _ := campaign(t, testGames(1), []*Engine{e}, Options{Seconds: 1, Seed: 1})
			c.SkipCompat, c.RerunContended = true, tt.rerun
			if tt.before > 0 {
				c.ContendedBefore = map[string]int{c.Runs[0].Key: tt.before}
			}
			sum, err := c.Execute(context.Background())
			require.NoError(t, err)
			require.Len(t, w.rows, tt.wantRows)
			assert.Equal(t, tt.wantContended, sum.Contended)
			for i, r := range w.rows {
				assert.Equal(t, c.Runs[0].Key, r.RunKey, "a rerun is the same run")
				assert.Equal(t, i < tt.wantContended, r.Contended, "row %d", i)
			}
		})
	}
}
