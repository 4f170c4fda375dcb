package compiled_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	_ "github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/protocol"
	_ "github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// TestEngineProcess runs the engine process of gdlperf engine run and
// engine trace (rollout.Process) with the compiled engine, as the harness
// does: the result file gets the setup figures and the trace is the
// prover's.
func TestEngineProcess(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "result.txt")
	var out, errb bytes.Buffer
	process := func(engine, game string, rollouts int, seed uint64) rollout.Process {
		e, ok := engines.Lookup(engine)
		require.True(t, ok, engine)
		b, ok := builtingames.Get(game)
		require.True(t, ok, game)
		return rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Rollouts: rollouts, Seed: seed}
	}
	require.NoError(t, process("compiled", "tictactoe", 3, 1).WriteResult(res, &out, &errb), errb.String())
	b, err := os.ReadFile(res)
	require.NoError(t, err)
	r, garbage := protocol.Parse(string(b))
	assert.Empty(t, garbage)
	for _, k := range []protocol.Key{"version", "millisecondsTaken", "numStateChanges", "numRollouts", "initMilliseconds", "cpuMilliseconds", "peakRSSKiB", "gomaxprocs", "seed", "design", "codegenMilliseconds", "buildMilliseconds"} {
		_, ok := r.Get(k)
		assert.True(t, ok, "result key %s", k)
	}

	traces := map[string]string{}
	for _, e := range []string{"prover", "compiled"} {
		path := filepath.Join(dir, e+".jsonl")
		require.NoError(t, process(e, "connectfour", 3, 4).WriteTrace(path, &out, &errb), errb.String())
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		traces[e] = string(b)
	}
	p := strings.SplitN(traces["prover"], "\n", 2)
	c := strings.SplitN(traces["compiled"], "\n", 2)
	require.Len(t, c, 2)
	assert.Contains(t, c[0], `"engine":"compiled"`)
	assert.Equal(t, p[1], c[1])
}
