package cli

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

func TestMeasureFlags(t *testing.T) {
	valgrind := func(_ context.Context, want string) (harness.Counter, error) {
		if want == harness.CounterPerf {
			return harness.Counter{}, errors.New("cannot count instructions with perf: no cpu event source")
		}
		return harness.Counter{Name: harness.CounterValgrind, Path: "/usr/bin/valgrind", Why: "no hardware counters"}, nil
	}
	tests := []struct {
		name         string
		args         []string
		rollouts     int
		wantDims     string
		wantCounter  string
		wantRollouts int
		wantCode     int
		wantErr      string
		wantNote     string
	}{
		{name: "time by default", wantRollouts: 0},
		{name: "time said", args: []string{"--measure", "time"}, rollouts: 5, wantRollouts: 5},
		{name: "instructions default rollouts", args: []string{"--measure", "instructions"}, wantDims: results.MeasureInstructions, wantCounter: harness.CounterValgrind, wantRollouts: harness.DefaultInstructionRollouts,
			wantNote: "counting instructions with valgrind (no hardware counters): 20 and 40 rollouts per run"},
		{name: "instructions with rollouts", args: []string{"--measure", "instructions", "--counter", "valgrind"}, rollouts: 50, wantDims: results.MeasureInstructions, wantCounter: harness.CounterValgrind, wantRollouts: 50,
			wantNote: "50 and 100 rollouts"},
		{name: "perf unavailable", args: []string{"--measure", "instructions", "--counter", "perf"}, wantCode: ExitFailure, wantErr: "cannot count instructions with perf"},
		{name: "counter without instructions", args: []string{"--counter", "valgrind"}, wantCode: ExitUsage, wantErr: "--counter valgrind needs --measure instructions"},
		{name: "unknown measure", args: []string{"--measure", "cycles"}, wantCode: ExitUsage, wantErr: `unknown --measure "cycles"; the measures are time, instructions`},
		{name: "unknown counter", args: []string{"--measure", "instructions", "--counter", "papi"}, wantCode: ExitUsage, wantErr: `unknown --counter "papi"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o MeasureOptions
			f := pflag.NewFlagSet("run", pflag.ContinueOnError)
			addMeasureFlags(f, &o)
			require.NoError(t, f.Parse(tt.args))
			var note bytes.Buffer
			m, err := o.resolveWith(context.Background(), tt.rollouts, &note, valgrind)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Equal(t, tt.wantCode, exitCode(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantDims, m.Dims)
			assert.Equal(t, tt.wantRollouts, m.Rollouts)
			if tt.wantCounter == "" {
				assert.Nil(t, m.Counter)
				assert.Empty(t, note.String())
				return
			}
			require.NotNil(t, m.Counter)
			assert.Equal(t, tt.wantCounter, m.Counter.Name)
			assert.Contains(t, note.String(), tt.wantNote)
		})
	}
}
