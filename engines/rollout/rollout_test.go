package rollout_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

const testGames = "../../../shared/reference/ggp-base-test-games"

func machine(t *testing.T, name string) *prover.Machine {
	t.Helper()
	path := filepath.Join(testGames, name+".kif")
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	g, err := gdl.LoadFile(path)
	require.NoError(t, err)
	return prover.NewMachine(g)
}

// The GGP-Base games whose expectation is "random rollouts reach a terminal
// state without error".
func TestRolloutsReachTerminal(t *testing.T) {
	for _, name := range []string{"test_case_2b", "test_case_2c", "simpleMutex", "connectFour", "ticTacToe"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, rollout.Trace(&buf, machine(t, name), "prover", "test", 1, 5))
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			ends := 0
			for _, l := range lines {
				if strings.Contains(l, `"terminal":true`) {
					ends++
					assert.Contains(t, l, `"goals":[`)
				}
			}
			assert.Equal(t, 5, ends)
		})
	}
}

func TestRunCountsStateChanges(t *testing.T) {
	m := machine(t, "ticTacToe")
	st, err := rollout.Run(m, 200*time.Millisecond, 1)
	require.NoError(t, err)
	assert.Greater(t, st.Rollouts, int64(0))
	assert.GreaterOrEqual(t, st.StateChanges, 5*st.Rollouts, "a tic-tac-toe rollout has at least 5 moves")
	assert.GreaterOrEqual(t, st.Elapsed, 200*time.Millisecond)
}

func TestTraceReportsGameError(t *testing.T) {
	src := "(role r)\n(init s)\n(<= (legal r go) (true s))\n(<= (next t) (does r go))\n(<= terminal (true u))\n(goal r 100)\n"
	g, err := gdl.Load("stuck.kif", []byte(src))
	require.NoError(t, err)
	var buf bytes.Buffer
	err = rollout.Trace(&buf, prover.NewMachine(g), "prover", "test", 1, 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-legal-move")
	last := strings.Split(strings.TrimSpace(buf.String()), "\n")
	assert.Contains(t, last[len(last)-1], `"error":"no-legal-move: role r has no legal move in the state {t}"`)
}

// designed and tuned machines add their design and knobs to the result.
type designed struct {
	*prover.Machine
	design, knobs string
}

func (d designed) Design() string { return d.design }
func (d designed) Knobs() string  { return d.knobs }

func TestProcessResult(t *testing.T) {
	rules, err := os.ReadFile(filepath.Join(testGames, "ticTacToe.kif"))
	if err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name      string
		new       func(g *gdl.Game) (engines.Machine, error)
		rollouts  int
		wantExtra map[protocol.Key]string
		wantErr   string
	}{
		{"plain", func(g *gdl.Game) (engines.Machine, error) { return prover.NewMachine(g), nil }, 4, nil, ""},
		{"designed and tuned", func(g *gdl.Game) (engines.Machine, error) {
			return designed{prover.NewMachine(g), "magic sets", "mode=fullpass"}, nil
		}, 4, map[protocol.Key]string{protocol.KeyDesign: "magic sets", protocol.KeyOptions: "mode=fullpass"}, ""},
		{"defaults say nothing", func(g *gdl.Game) (engines.Machine, error) { return designed{prover.NewMachine(g), "", ""}, nil }, 4, nil, ""},
		{"setup fails", func(*gdl.Game) (engines.Machine, error) { return nil, engines.Errorf(engines.UnsupportedErr, "no") }, 4, nil, "unsupported: no"},
		{"setup panics", func(*gdl.Game) (engines.Machine, error) { panic("bug") }, 4, nil, "engine e panicked: bug"},
		{"timed", func(g *gdl.Game) (engines.Machine, error) { return prover.NewMachine(g), nil }, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := rollout.Process{Engine: engines.Engine{Name: "e", Version: "v", New: tt.new}, File: "ticTacToe.kif", Rules: rules, Rollouts: tt.rollouts, Seed: 2}
			res, err := p.Run()
			require.NotNil(t, res)
			if tt.wantErr != "" {
				require.Error(t, err)
				msg, _ := res.Get(protocol.KeyErrorMessage)
				assert.True(t, strings.HasPrefix(msg, tt.wantErr), msg)
				return
			}
			require.NoError(t, err)
			keys := []protocol.Key{protocol.KeyVersion, protocol.KeyMillisecondsTaken, protocol.KeyNumStateChanges, protocol.KeyNumRollouts,
				protocol.KeyInitMilliseconds, protocol.KeyCPUMilliseconds, protocol.KeyPeakRSSKiB, protocol.KeyGOMAXPROCS, protocol.KeySeed}
			for _, k := range []protocol.Key{protocol.KeyDesign, protocol.KeyOptions} {
				if v, ok := tt.wantExtra[k]; ok {
					keys = append(keys, k)
					got, _ := res.Get(k)
					assert.Equal(t, v, got)
				}
			}
			assert.Equal(t, keys, res.Keys())
			if tt.rollouts > 0 {
				n, _ := res.Get(protocol.KeyNumRollouts)
				assert.Equal(t, "4", n)
			}
		})
	}
}
