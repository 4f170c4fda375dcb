package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runInfo(t *testing.T, args ...string) (err error, stdout string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := newCmdEngineInfo(&IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	err = cmd.Execute()
	return err, out.String()
}

func TestNewCmdEngineInfoOptions(t *testing.T) {
	var got *EngineInfoOptions
	cmd := NewCmdEngineInfo(&IO{}, func(o *EngineInfoOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"propnet", "game.kif", "--max-time", "5s", "--max-memory", "100", "--max-size", "7", "--no-optimise"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "propnet", got.Engine)
	assert.Equal(t, "game.kif", got.Game)
	assert.Equal(t, 5*time.Second, got.MaxTime)
	assert.Equal(t, int64(100), got.MaxMemory)
	assert.Equal(t, 7, got.MaxSize)
	assert.True(t, got.NoOptimise)
}

func TestEngineInfoPropnet(t *testing.T) {
	err, out := runInfo(t, "propnet", "builtin:tictactoe")
	require.NoError(t, err)
	for _, want := range []string{"build time", "grounding", "as grounded", "optimised", "components", "links", "AND gates", "OR gates", "NOT gates", "transitions", "base propositions", "input propositions", "runtime"} {
		assert.Contains(t, out, want)
	}
	assert.Regexp(t, `base propositions\s+29\s+29`, out)
	assert.Regexp(t, `input propositions\s+20\s+\d+`, out)
	// Tic-tac-toe's network is small: its timed runs play in lanes, and
	// the line says by which estimates.
	assert.Regexp(t, `timed runs: 64 rollouts at once in lanes \(estimated ns per state change: in lanes \d+, one at a time \d+\)`, out)
}

func TestEngineInfoRefusesOverBudget(t *testing.T) {
	for _, tt := range []struct {
		name, game, flag, value, want string
	}{
		{"memory", "builtin:breakthrough", "--max-memory", "1", "too-large"},
		{"time", "builtin:tictactoe", "--max-time", "1ns", "time-budget"},
		{"size", "builtin:breakthrough", "--max-size", "100", "size budget of 100"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err, _ := runInfo(t, "propnet", tt.game, tt.flag, tt.value)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, ExitFailure, exitCode(err))
		})
	}
}

func TestEngineInfoOtherEngine(t *testing.T) {
	err, _ := runInfo(t, "prover", "builtin:tictactoe")
	require.Error(t, err)
	assert.Equal(t, ExitUsage, exitCode(err))
}

// TestEngineInfoArgs runs engine info with the arguments in
// GDLPERF_INFO_ARGS (until the command is registered under gdlperf engine).
func TestEngineInfoArgs(t *testing.T) {
	args := strings.Fields(os.Getenv("GDLPERF_INFO_ARGS"))
	if len(args) == 0 {
		t.Skip("set GDLPERF_INFO_ARGS")
	}
	err, out := runInfo(t, args...)
	t.Log("\n" + out)
	if err != nil {
		t.Fatal(err)
	}
}

// For an engine with programs of its own, info shows the program, its
// setup, the designs the generator made and the one the program keeps.
func TestEngineInfoCompiled(t *testing.T) {
	err, out := runInfo(t, "compiled", "builtin:tictactoe")
	require.NoError(t, err)
	for _, want := range []string{"program", "setup", "designs", "bottom-up: ", "magic sets: ", "bytes of source", "start-up"} {
		assert.Contains(t, out, want)
	}
	assert.Regexp(t, `keeps the design (bottom-up|magic sets)`, out)
	err, out = runInfo(t, "compiled", "builtin:tictactoe")
	require.NoError(t, err)
	assert.Contains(t, out, "(a cache hit)")
}
