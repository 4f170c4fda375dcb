package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckRowsAppendLoadAndRepair(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, CheckDir, "host.csv")
	a := CheckRow{CheckKey: "k1", GameKey: "G", Engine: "e", EngineVersion: "1", Method: "trace", Verdict: VerdictOK}
	b := CheckRow{CheckKey: "k2", GameKey: "G", Engine: "e", EngineVersion: "1", Method: "exhaustive", Verdict: VerdictMismatch,
		Detail: `goals: reference [100 0], engine [0 0]; "quoted", with commas`, Reproduce: "gdlperf check --engines e"}
	require.NoError(t, AppendCheckRows(path, []CheckRow{a}))
	require.NoError(t, AppendCheckRows(path, []CheckRow{b}))

	// A crash in the middle of a row leaves a torn last line.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	f.WriteString("k3,G,e,1,prover,1,trace,o")
	f.Close()
	rows, err := LoadCheckRows(dir)
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Equal(t, b.Detail, rows[1].Detail)

	c := CheckRow{CheckKey: "k3", GameKey: "H", Engine: "e", EngineVersion: "1", Method: "trace", Verdict: VerdictError}
	require.NoError(t, AppendCheckRows(path, []CheckRow{c}))
	rows, err = LoadCheckRows(dir)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, "k3", rows[2].CheckKey)

	// Results loading ignores the check folder.
	perf, _, err := LoadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, perf)

	v := Verdicts(rows)
	assert.Equal(t, VerdictMismatch, v[VerdictKey{"G", "e", "1"}].Verdict)
	assert.Contains(t, v[VerdictKey{"G", "e", "1"}].Detail, "reproduce: gdlperf check")
	assert.Equal(t, VerdictError, v[VerdictKey{"H", "e", "1"}].Verdict)
}

func TestExportFormats(t *testing.T) {
	rows := []Row{
		{RunKey: "b", GameKey: "BASE/x/h", Engine: "prover", EngineVersion: "1", Status: StatusOK, MillisecondsTaken: 1000, StateChanges: 500, Rollouts: 10},
		{RunKey: "a", GameKey: "BASE/a|b/h", Engine: "prover", EngineVersion: "1", Status: StatusError, ErrorMessage: "no <legal> move | x"},
	}
	var md, js, cs strings.Builder
	require.NoError(t, Export(&md, "markdown", rows))
	assert.Contains(t, md.String(), `| BASE/a\|b/h | prover | 1 | 0 | error |  | 0 | 0 | 0 | no &lt;legal&gt; move \| x |`)
	assert.Contains(t, md.String(), "| BASE/x/h | prover | 1 | 0 | ok | 500 |")
	require.NoError(t, Export(&js, "json", rows))
	var objs []map[string]string
	require.NoError(t, json.Unmarshal([]byte(js.String()), &objs))
	require.Len(t, objs, 2)
	assert.Equal(t, "BASE/a|b/h", objs[0]["game_key"], "sorted by game")
	assert.Equal(t, "500", objs[1]["state_changes"])
	require.NoError(t, Export(&cs, "csv", rows))
	assert.True(t, strings.HasPrefix(cs.String(), "run_key,game_key,"))
	assert.Error(t, Export(&cs, "xml", rows))
}

func TestVerdictsCountTheLatestRowOfACheck(t *testing.T) {
	rows := []CheckRow{
		{CheckKey: "k", GameKey: "G", Engine: "e", EngineVersion: "1", Verdict: VerdictError, Detail: "timed out"},
		{CheckKey: "k", GameKey: "G", Engine: "e", EngineVersion: "1", Verdict: VerdictOK},
	}
	assert.Equal(t, VerdictOK, Verdicts(rows)[VerdictKey{"G", "e", "1"}].Verdict)
}
