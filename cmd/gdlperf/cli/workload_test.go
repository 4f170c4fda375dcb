package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// engine run --workload runs a search instead of rollouts and writes its
// answer: minimax to full depth finds tic-tac-toe a draw, for every engine
// that runs in this process.
func TestEngineRunWorkload(t *testing.T) {
	for _, engine := range []string{"prover", "tupleprover", "propnet"} {
		t.Run(engine, func(t *testing.T) {
			result := filepath.Join(t.TempDir(), "result.txt")
			code, _, stderr := run(t, "engine", "run", engine, "builtin:tictactoe", result, "120", "--workload", "minimax", "--depth", "9")
			require.Equal(t, 0, code, stderr)
			b, err := os.ReadFile(result)
			require.NoError(t, err)
			res, garbage := protocol.Parse(string(b))
			require.Empty(t, garbage)
			get := func(k string) string {
				v, _ := res.Get(protocol.Key(k))
				return v
			}
			assert.Equal(t, "minimax", get("workload"))
			assert.Equal(t, "50", get("value"), "tic-tac-toe is a draw")
			assert.Equal(t, "18297", get("numNodes"), "every correct engine searches the same tree")
			assert.NotEmpty(t, get("millisecondsTaken"))
		})
	}
	result := filepath.Join(t.TempDir(), "result.txt")
	code, _, _ := run(t, "engine", "run", "prover", "builtin:tictactoe", result, "10", "--workload", "nosuch")
	assert.NotEqual(t, 0, code)
	b, _ := os.ReadFile(result)
	assert.Contains(t, string(b), "errorMessage = ")
	assert.Contains(t, string(b), "no workload")
}
