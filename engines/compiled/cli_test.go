package compiled_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/cmd/gdlperf/cli"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// TestCLI runs gdlperf engine run and engine trace with the compiled
// engine, as the harness does: the result file gets the setup figures and
// the trace is the prover's.
func TestCLI(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "result.txt")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"engine", "run", "--rollouts", "3", "compiled", "builtin:tictactoe", res, "0"}, nil, &out, &errb)
	require.Equal(t, 0, code, errb.String())
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
		code := cli.Main([]string{"engine", "trace", "--seed", "4", "--rollouts", "3", e, "builtin:connectfour", path}, nil, &out, &errb)
		require.Equal(t, 0, code, errb.String())
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
