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

	"github.com/gdlperf/gdlperf/engines/gdl"
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

func TestResultRoundTrip(t *testing.T) {
	var r rollout.Result
	r.Set("version", "1")
	r.Set("errorMessage", "two\nlines")
	r.SetInt("numRollouts", 3)
	path := filepath.Join(t.TempDir(), "res.txt")
	require.NoError(t, r.WriteFile(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "version = 1\nerrorMessage = two lines\nnumRollouts = 3\n", string(b))
	back, garbage := rollout.ParseResult(string(b) + "garbage line\nextraKey = kept\n")
	assert.Equal(t, []string{"garbage line"}, garbage)
	v, _ := back.Get("extraKey")
	assert.Equal(t, "kept", v)
}
