package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func readResult(t *testing.T, path string) *protocol.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r, garbage := protocol.Parse(string(b))
	require.Empty(t, garbage)
	return r
}

func TestEngineRunWritesGdlPerfResult(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	code, _, stderr := run(t, "engine", "run", "prover", "builtin:tictactoe", out, "1")
	require.Equal(t, 0, code, stderr)
	r := readResult(t, out)
	for _, k := range []protocol.Key{"version", "millisecondsTaken", "numStateChanges", "numRollouts", "initMilliseconds", "peakRSSKiB", "gomaxprocs", "seed"} {
		v, ok := r.Get(k)
		require.True(t, ok, "missing key %s", k)
		if k != "version" {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err, "%s = %s", k, v)
			assert.GreaterOrEqual(t, n, int64(0), k)
		}
	}
	ms, _ := r.Get("millisecondsTaken")
	n, _ := strconv.Atoi(ms)
	// The engine stops after SECONDS (a loaded machine may deschedule it
	// past the end for a while; no speed is asserted).
	assert.GreaterOrEqual(t, n, 1000, "millisecondsTaken")
	assert.Less(t, n, 10_000, "millisecondsTaken")
	changes, _ := r.Get("numStateChanges")
	c, _ := strconv.Atoi(changes)
	assert.Greater(t, c, 0)
	_, bad := r.Get("errorMessage")
	assert.False(t, bad)
}

func TestEngineRunReportsBadGameInResultFile(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "broken.kif")
	require.NoError(t, os.WriteFile(game, []byte("(role x)\n(init (cell 1)\n"), 0o644))
	out := filepath.Join(dir, "out.txt")
	code, _, _ := run(t, "engine", "run", "prover", game, out, "1")
	assert.Equal(t, ExitFailure, code)
	r := readResult(t, out)
	msg, ok := r.Get("errorMessage")
	require.True(t, ok)
	assert.Contains(t, msg, "broken.kif:2:1")
	_, ok = r.Get("version")
	assert.True(t, ok)
}

func TestEngineRunUnknownEngine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	code, _, stderr := run(t, "engine", "run", "nosuch", "builtin:tictactoe", out, "1")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "nosuch")
	msg, ok := readResult(t, out).Get("errorMessage")
	require.True(t, ok)
	assert.Contains(t, msg, "nosuch")
}

func TestEngineTraceIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl")
	for _, p := range []string{a, b} {
		code, _, stderr := run(t, "engine", "trace", "prover", "builtin:connectfour", p, "--seed", "7", "--rollouts", "3")
		require.Equal(t, 0, code, stderr)
	}
	code, _, stderr := run(t, "engine", "trace", "prover", "builtin:connectfour", c, "--seed", "8", "--rollouts", "3")
	require.Equal(t, 0, code, stderr)
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	bc, _ := os.ReadFile(c)
	assert.Equal(t, ba, bb, "same seed, same trace")
	assert.NotEqual(t, ba, bc, "another seed, another trace")
	lines := strings.Split(strings.TrimSpace(string(ba)), "\n")
	assert.Contains(t, lines[0], `"roles":["red","black"]`)
	assert.Contains(t, lines[len(lines)-1], `"terminal":true`)
}

func TestValidate(t *testing.T) {
	code, stdout, _ := run(t, "validate", "builtin:tictactoe")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, stdout, "valid")

	dir := t.TempDir()
	bad := filepath.Join(dir, "unsafe.kif")
	require.NoError(t, os.WriteFile(bad, []byte("(role r)\n(<= (legal r ?m) (not (p ?m)))\n(goal r 100)\nterminal\n"), 0o644))
	code, stdout, _ = run(t, "validate", bad)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stdout, "unsafe.kif:2:1: error:")
	assert.Contains(t, stdout, "[unsafe]")

	code, _, _ = run(t, "validate")
	assert.Equal(t, ExitUsage, code)
}

func TestEngineList(t *testing.T) {
	code, stdout, _ := run(t, "engine", "list")
	require.Equal(t, 0, code)
	assert.Regexp(t, `prover\s+1-[0-9a-f]{10}`, stdout)
}
