package harness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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
