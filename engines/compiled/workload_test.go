package compiled_test

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
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// TestProgramWorkloads pins the program's own workload runs (-workload,
// engines/workload's searches over its engine) to engines/workload's over
// the reference prover, on the built-in games: root statistics, values,
// best moves, proof results, node and state change counts are equal
// (workload.CompareKeys), for each design.
func TestProgramWorkloads(t *testing.T) {
	budgets := []struct {
		name   string
		budget workload.Budget
		flags  []string
	}{
		{workload.UCT, workload.Budget{Iterations: 300}, []string{"-iterations", "300"}},
		{workload.PNS, workload.Budget{Nodes: 3000}, []string{"-nodes", "3000"}},
		{workload.Minimax, workload.Budget{Depth: 3}, []string{"-depth", "3"}},
	}
	for _, b := range builtingames.All() {
		t.Run(b.Name, func(t *testing.T) {
			tg := builtin(t, b.Name)
			prog, err := compiled.Native(tg.game, tg.rules)
			require.NoError(t, err)
			// the designs the program has (prog.Info: "NAME: ..." a line,
			// "NAME: left out: ..." for a design that could not be made)
			var designs []string
			for _, d := range []struct{ flag, name string }{{"bottom-up", "bottom-up"}, {"magic", "magic sets"}} {
				for _, line := range prog.Info {
					if strings.HasPrefix(line, d.name+": ") && !strings.HasPrefix(line, d.name+": left out") {
						designs = append(designs, d.flag)
					}
				}
			}
			require.NotEmpty(t, designs, prog.Info)
			for _, w := range budgets {
				want, werr := workload.Run(prover.NewMachine(tg.game), w.name, w.budget, 7, time.Time{})
				ref := protocol.NewResult("ref")
				want.SetKeys(ref)
				ref.SetInt(protocol.KeyNumStateChanges, want.StateChanges)
				for _, d := range designs {
					args := append([]string{"-workload", w.name, "-seed", "7", "-design", d}, w.flags...)
					code, got, stderr := runProgram(t, prog.Path, append(args, tg.path, "60")...)
					if werr != nil {
						assert.Equal(t, 1, code, "%s %s: the reference failed (%v), the program did not", w.name, d, werr)
						continue
					}
					require.Equal(t, 0, code, "%s %s: %s", w.name, d, stderr)
					assert.NoError(t, workload.CompareKeys(ref, got), "%s %s", w.name, d)
					assert.Equal(t, engine(t).Version, get(got, protocol.KeyVersion))
					assert.Equal(t, map[string]string{"bottom-up": "bottom-up", "magic": "magic sets"}[d], get(got, protocol.KeyDesign))
				}
			}
		})
	}
}

// TestWorkloadEngineProcess runs a workload's engine process as gdlperf
// engine run --workload does for an engine with a program of its own
// (rollout.Process with the workload's flags): the program runs the
// search, and the result file gets its answer, its design and the setup
// figures. An engine without a program refuses the flags.
func TestWorkloadEngineProcess(t *testing.T) {
	res := filepath.Join(t.TempDir(), "result.txt")
	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	args := []string{"-workload", workload.Minimax, "-depth", "9"}
	var out, errb bytes.Buffer
	p := rollout.Process{Engine: engine(t), File: b.File, Rules: b.Rules, Seconds: 60, Seed: 1, ProgramArgs: args}
	require.NoError(t, p.WriteResult(res, &out, &errb), errb.String())
	text, err := os.ReadFile(res)
	require.NoError(t, err)
	r, garbage := protocol.Parse(string(text))
	assert.Empty(t, garbage)
	assert.Equal(t, "50", get(r, workload.KeyValue))
	assert.Equal(t, "xplayer value 50 best (mark 1 1) depth 9 exact", get(r, workload.KeyAnswer))
	for _, k := range []protocol.Key{protocol.KeyDesign, protocol.KeyCodegenMilliseconds, protocol.KeyBuildMilliseconds, protocol.KeyInitMilliseconds} {
		_, ok := r.Get(k)
		assert.True(t, ok, "result key %s", k)
	}

	pe, ok := engines.Lookup("prover")
	require.True(t, ok)
	p.Engine = pe
	err = p.WriteResult(res, &out, &errb)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has no program of its own")
}
