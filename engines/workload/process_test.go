package workload_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

func TestProcess(t *testing.T) {
	e, ok := engines.Lookup(prover.Name)
	require.True(t, ok)
	ttt, _ := builtingames.Get("tictactoe")
	tests := []struct {
		name     string
		workload string
		budget   workload.Budget
		seconds  int
		want     map[protocol.Key]string
		wantErr  string
	}{
		{name: "minimax", workload: workload.Minimax, budget: workload.Budget{Depth: 9}, seconds: 60,
			want: map[protocol.Key]string{workload.KeyValue: "50", workload.KeyBestMove: "(mark 1 1)", protocol.KeyNumRollouts: "0", protocol.KeySeed: "3"}},
		{name: "uct", workload: workload.UCT, budget: workload.Budget{Iterations: 20}, seconds: 60,
			want: map[protocol.Key]string{workload.KeyNumIterations: "20", protocol.KeyNumRollouts: "20"}},
		{name: "no such workload", workload: "bfs", seconds: 60, wantErr: `no workload "bfs"`},
		{name: "not done in time", workload: workload.PNS, budget: workload.Budget{Nodes: 1 << 40, Threshold: 100}, seconds: 0, wantErr: "was not done by the deadline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := workload.Process{Engine: e, File: ttt.File, Rules: ttt.Rules, Workload: tt.workload, Budget: tt.budget, Seconds: tt.seconds, Seed: 3}.Run()
			require.NotNil(t, res)
			v, _ := res.Get(protocol.KeyVersion)
			assert.Equal(t, e.Version, v)
			if tt.wantErr != "" {
				require.Error(t, err)
				msg, _ := res.Get(protocol.KeyErrorMessage)
				assert.Contains(t, msg, tt.wantErr)
				return
			}
			require.NoError(t, err)
			for _, k := range []protocol.Key{protocol.KeyMillisecondsTaken, protocol.KeyNumStateChanges, protocol.KeyInitMilliseconds, workload.KeyWorkload, workload.KeyAnswer, workload.KeyNumNodes} {
				_, ok := res.Get(k)
				assert.True(t, ok, "key %s", k)
			}
			for k, want := range tt.want {
				got, _ := res.Get(k)
				assert.Equal(t, want, got, "key %s", k)
			}
		})
	}
}
