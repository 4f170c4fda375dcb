package compiled_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/compiled"
)

// TestMachineClose: a closed machine's program is gone and its questions
// fail cleanly.
func TestMachineClose(t *testing.T) {
	tg := builtin(t, "tictactoe")
	m, err := compiled.New(tg.game)
	require.NoError(t, err)
	s, err := m.Initial()
	require.NoError(t, err)
	moves, err := m.Legal(s, 0)
	require.NoError(t, err)
	assert.Len(t, moves, 9)
	texts := map[string]bool{}
	for _, mv := range moves {
		texts[m.MoveText(mv)] = true
	}
	assert.True(t, texts["(mark 1 1)"] && texts["(mark 3 3)"], "%v", texts)
	require.NoError(t, m.Close())
	_, err = m.Initial()
	assert.Error(t, err)
}

// TestTraceFlags: the trace's rollouts default to 1, may be 0, and must
// not be negative.
func TestTraceFlags(t *testing.T) {
	tg := builtin(t, "tictactoe")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	out, err := exec.Command(prog.Path, "-trace", "-", "-rollouts", "0", tg.path).Output()
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(out), "\n"))
	err = exec.Command(prog.Path, "-trace", "-", "-rollouts", "-2", tg.path).Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())
	sameTrace(t, proverTrace(t, tg.game, 1, 1), programTrace(t, prog, tg.path, 1, 1))
	out, err = exec.Command(prog.Path, "-trace", "-", tg.path).Output()
	require.NoError(t, err)
	assert.Equal(t, string(proverTrace(t, tg.game, 1, 1)[strings.IndexByte(string(proverTrace(t, tg.game, 1, 1)), '\n'):]), string(out[strings.IndexByte(string(out), '\n'):]))
}
