package results

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// The benchstat commands of gdlperf results export --help work on what the
// export writes: benchstat's own reader and projections (golang.org/x/perf
// benchfmt and benchproc, as benchstat -filter/-col/-row use them) see the
// engine, version and game keys, and put every engine of a game in one row
// although built-in engines' versions are hashes that differ per engine.
func TestExportForBenchstat(t *testing.T) {
	var rows []Row
	for i, e := range []struct{ engine, version string }{{"prover", "1-894fa08e77"}, {"propnet", "1-2c03b7c03e"}, {"prover", "1-aaaaaaaaaa"}} {
		for g, game := range []string{"BASE/ticTacToe/JRFsaQ", "BASE/hex/T1MK8g"} {
			for rep := 0; rep < 3; rep++ {
				rows = append(rows, Row{
					RunKey: fmt.Sprintf("k%d%d%d", i, g, rep), GameKey: game, Engine: e.engine, EngineVersion: e.version,
					Repetition: rep, Status: StatusOK, Mode: "time", TargetSeconds: 2, MillisecondsTaken: 2000,
					StateChanges: int64(1000 * (i + 1) * (g + 1)), Rollouts: 10, GOMAXPROCS: 1, Machine: "m", Host: "h",
				})
			}
		}
	}
	var buf bytes.Buffer
	require.NoError(t, ExportBench(&buf, rows))

	// project reads the export as benchstat does and returns, per row key,
	// the column keys seen.
	project := func(filter, col, row string) map[string]map[string]int {
		f, err := benchproc.NewFilter(filter)
		require.NoError(t, err)
		var pp benchproc.ProjectionParser
		colP, err := pp.Parse(col, f)
		require.NoError(t, err)
		rowP, err := pp.Parse(row, f)
		require.NoError(t, err)
		out := map[string]map[string]int{}
		r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "all.txt")
		for r.Scan() {
			res, ok := r.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			if match, _ := f.Apply(res); !match {
				continue
			}
			rk, ck := rowP.Project(res).StringValues(), colP.Project(res).StringValues()
			if out[rk] == nil {
				out[rk] = map[string]int{}
			}
			out[rk][ck]++
		}
		require.NoError(t, r.Err())
		return out
	}

	// benchstat -col /engine -row /game all.txt: engines side by side.
	got := project("*", "/engine", "/game")
	assert.Equal(t, map[string]map[string]int{
		"BASE:ticTacToe:JRFsaQ": {"prover": 6, "propnet": 3},
		"BASE:hex:T1MK8g":       {"prover": 6, "propnet": 3},
	}, got)
	// benchstat -filter /engine:prover -col /version -row /game all.txt:
	// the versions of one engine side by side.
	got = project("/engine:prover", "/version", "/game")
	assert.Equal(t, map[string]map[string]int{
		"BASE:ticTacToe:JRFsaQ": {"1-894fa08e77": 3, "1-aaaaaaaaaa": 3},
		"BASE:hex:T1MK8g":       {"1-894fa08e77": 3, "1-aaaaaaaaaa": 3},
	}, got)
}
