package results

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

func TestRowPerOp(t *testing.T) {
	tests := []struct {
		name    string
		measure string
		status  string
		perOp   string
		want    float64
		wantOK  bool
	}{
		{name: "counted", measure: MeasureInstructions, status: StatusOK, perOp: "983114.5", want: 983114.5, wantOK: true},
		{name: "timed", measure: "", status: StatusOK, perOp: "983114.5"},
		{name: "failed", measure: MeasureInstructions, status: StatusError, perOp: "983114.5"},
		{name: "empty", measure: MeasureInstructions, status: StatusOK},
		{name: "garbage", measure: MeasureInstructions, status: StatusOK, perOp: "lots"},
		{name: "zero", measure: MeasureInstructions, status: StatusOK, perOp: "0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Row{Measure: tt.measure, Status: tt.status, InstructionsPerOp: tt.perOp}
			got, ok := r.PerOp()
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// Counted rows go out as instructions/op with their counter in the name,
// never as a rate (their times are of a run under the counter).
func TestExportBenchInstructions(t *testing.T) {
	timed := sampleRow(0)
	counted := sampleRow(0)
	counted.RunKey, counted.Measure, counted.Counter = "counted", MeasureInstructions, CounterValgrind
	counted.Mode, counted.TargetRollouts, counted.GOMAXPROCS = "rollouts", 20, 1
	counted.Instructions, counted.InstructionsPerOp = 19662290, "983114.5"
	perf := counted
	perf.RunKey, perf.Counter, perf.InstructionsPerOp = "perf", CounterPerf, "612000.0"
	failed := counted
	failed.RunKey, failed.Status, failed.InstructionsPerOp = "failed", StatusError, ""
	var buf bytes.Buffer
	require.NoError(t, ExportBench(&buf, []Row{timed, counted, perf, failed}))

	values := map[string]map[string]float64{}
	iters := map[string]int{}
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "export.txt")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			name := rec.Name.String()
			require.NotContains(t, values, name, "one line per row")
			values[name] = map[string]float64{}
			iters[name] = rec.Iters
			for _, v := range rec.Values {
				values[name][v.Unit] = v.Value
			}
		}
	}
	require.NoError(t, r.Err())
	prefix := "Game/game=BASE:ticTacToe:JRFsaQ/engine=prover/version=1.0"
	require.Len(t, values, 3, buf.String())
	assert.Contains(t, values[prefix+"-1"], "sec/op", buf.String())
	assert.Equal(t, map[string]float64{"instructions/op": 983114}, values[prefix+"/counter=valgrind-1"])
	assert.Equal(t, 20, iters[prefix+"/counter=valgrind-1"])
	assert.Equal(t, map[string]float64{"instructions/op": 612000}, values[prefix+"/counter=perf-1"])
}
