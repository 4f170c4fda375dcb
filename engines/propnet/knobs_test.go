package propnet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

func TestKnobs(t *testing.T) {
	tests := []struct {
		name string
		opts []propnet.Option
		want string
	}{
		{"defaults", nil, ""},
		{"full pass", []propnet.Option{propnet.WithMode(propnet.FullPass)}, "mode=fullpass"},
		{"budgets, sorted", []propnet.Option{propnet.WithMaxTime(90 * time.Second), propnet.WithMaxSize(1000), propnet.WithMaxMemory(512 << 20)},
			"max_memory=512,max_size=1000,max_time=1m30s"},
		{"memory not in MiB", []propnet.Option{propnet.WithMaxMemory(1000)}, "max_memory=1000B"},
		{"test knobs", []propnet.Option{propnet.WithLegal(propnet.LegalTriggers), propnet.WithoutOptimisation(), propnet.WithoutPartialFactoring()},
			"legal=triggers,no_optimise=true,no_partial_factoring=true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := propnet.DefaultOptions()
			for _, f := range tt.opts {
				f(&o)
			}
			assert.Equal(t, tt.want, o.Knobs())
		})
	}
}

// The engine process reports the knobs that GDLPERF_PROPNET_* set, so a
// full-pass run's row is told from a fast one's.
func TestEngineProcessReportsKnobs(t *testing.T) {
	e, ok := engines.Lookup(propnet.Name)
	require.True(t, ok)
	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	tests := []struct {
		name string
		env  map[string]string
		want string // "" for no options key
	}{
		{"defaults", nil, ""},
		{"full pass", map[string]string{"GDLPERF_PROPNET_MODE": "fullpass"}, "mode=fullpass"},
		{"budgets", map[string]string{"GDLPERF_PROPNET_MAX_SIZE": "5000000", "GDLPERF_PROPNET_MAX_TIME": "90s"}, "max_size=5000000,max_time=1m30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			res, err := rollout.Process{Engine: e, File: "tictactoe.kif", Rules: b.Rules, Rollouts: 2, Seed: 1}.Run()
			require.NoError(t, err)
			got, ok := res.Get(protocol.KeyOptions)
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, got)
		})
	}
}
