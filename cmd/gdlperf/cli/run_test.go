package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

func TestRunDryRun(t *testing.T) {
	code, stdout, stderr := run(t, "run", "--games", "builtin:tictactoe,builtin:hex", "--reps", "3", "--seconds", "2", "--dry-run")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.Len(t, lines, 7)
	assert.Contains(t, lines[6], "6 runs")
	_, again, _ := run(t, "run", "--games", "builtin:hex,builtin:tictactoe", "--reps", "3", "--seconds", "2", "--dry-run")
	assert.Equal(t, stdout, again, "same seed, same plan")
}

func TestRunWritesAndResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--games", "builtin:tictactoe,builtin:racetotwentyone", "--seconds", "1", "--results", dir}
	code, _, stderr := run(t, args...)
	require.Equal(t, 0, code, stderr)
	rows, _, err := results.LoadDir(dir)
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for _, r := range rows {
		assert.Equal(t, results.StatusOK, r.Status, r.ErrorMessage)
		assert.Greater(t, r.StateChanges, int64(0))
		assert.NotEmpty(t, r.Machine)
	}
	code, _, stderr = run(t, args...)
	require.Equal(t, 0, code)
	assert.Contains(t, stderr, "2 already done, 0 run now")
	rows, _, err = results.LoadDir(dir)
	require.NoError(t, err)
	assert.Len(t, rows, 2)
}

// The harness killed with SIGKILL in the middle of a run and started again
// loses no finished row, duplicates none, and redoes the interrupted run.
func TestRunSurvivesKill(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	args := []string{"run", "--games", "builtin", "--seconds", "1", "--results", dir}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "GDLPERF_TEST_AS_MAIN=1")
	require.NoError(t, cmd.Start())
	time.Sleep(2500 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	before, _, err := results.LoadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, before, "some runs finished before the kill")
	require.Less(t, len(before), 8, "the kill came before the end")

	code, _, stderr := run(t, args...)
	require.Equal(t, 0, code, stderr)
	after, _, err := results.LoadDir(dir)
	require.NoError(t, err)
	assert.Len(t, after, 8)
	keys := map[string]int{}
	for _, r := range after {
		keys[r.RunKey]++
		assert.Equal(t, results.StatusOK, r.Status)
	}
	assert.Len(t, keys, 8, "every run once")
	for _, b := range before {
		assert.Equal(t, 1, keys[b.RunKey])
	}
}

func TestRunUnwritableResults(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	code, _, stderr := run(t, "run", "--games", "builtin:tictactoe", "--seconds", "1", "--results", filepath.Join(file, "sub"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "results")
	assert.NotContains(t, stderr, "run now", "no engine ran")
}

func TestRunUnknownEngineOrGame(t *testing.T) {
	code, _, stderr := run(t, "run", "--engines", "nosuch", "--dry-run")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "nosuch")
	code, _, stderr = run(t, "run", "--games", "builtin:nosuch", "--dry-run")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "nosuch")
}
