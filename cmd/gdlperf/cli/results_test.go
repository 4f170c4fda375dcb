package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/gdlperf/gdlperf/results"
)

// execResults runs "gdlperf results ARGS..." through NewCmdResults and
// returns the exit code Main would give.
func execResults(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := NewCmdResults(&IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	markUsageErrors(cmd)
	err := cmd.Execute()
	code = exitCode(err)
	if err != nil {
		fmt.Fprintln(&errb, "gdlperf:", err)
	}
	return code, out.String(), errb.String()
}

func resultsRow(i int, game, engine string, rep int, status string) results.Row {
	return results.Row{
		RunKey: fmt.Sprintf("k%03d", i), GameKey: game, Engine: engine, EngineVersion: "1.0", Repetition: rep,
		Status: status, StartTime: "2026-01-02T03:04:05Z", Mode: "time", TargetSeconds: 30,
		MillisecondsTaken: 30000, StateChanges: int64(1000 + i), Rollouts: 10, GOMAXPROCS: 1,
		Host: "node1", Machine: "m1", CPUModel: "Test CPU", Kernel: "6.1.0", GoVersion: "go1.26.0",
	}
}

func writeResults(t *testing.T, path string, rows ...results.Row) {
	t.Helper()
	w, err := results.OpenWriter(path)
	require.NoError(t, err)
	require.NoError(t, w.AppendRows(rows))
	require.NoError(t, w.Close())
}

func TestResultsMerge(t *testing.T) {
	dir := t.TempDir()
	a := []results.Row{
		resultsRow(0, "BASE/a/1", "prover", 0, results.StatusOK),
		resultsRow(1, "BASE/a/1", "prover", 1, results.StatusOK),
		resultsRow(2, "BASE/a/1", "propnet", 0, results.StatusOK),
	}
	b := []results.Row{
		a[2], // a duplicate
		resultsRow(3, "BASE/a/1", "propnet", 1, results.StatusCrash),
		resultsRow(4, "BASE/b/1", "prover", 0, results.StatusOK),
	}
	writeResults(t, filepath.Join(dir, "shards", "s1.csv"), a...)
	writeResults(t, filepath.Join(dir, "shards", "s2.csv"), b...)
	out := filepath.Join(dir, "merged.csv")

	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantOut    []string
		wantErr    string
		wantNotOut string
	}{
		{
			name:     "stats and missing cells",
			args:     []string{"merge", filepath.Join(dir, "shards"), "--out", out},
			wantCode: ExitOK,
			wantOut: []string{
				"read 6 rows from 2 files\n", "dropped 1 exact duplicate\n", "wrote 5 rows to " + out + "\n",
				"3 (game, engine) cells with fewer than 2 ok runs (inferred; set --reps):",
				"BASE/a/1  propnet  1   2\n", "BASE/b/1  propnet  0   0\n", "BASE/b/1  prover   1   1\n",
			},
		},
		{
			name:     "again, with the output as an input",
			args:     []string{"merge", out, filepath.Join(dir, "shards", "s2.csv"), "-o", out, "--reps", "1"},
			wantCode: ExitOK,
			wantOut:  []string{"read 8 rows from 2 files\n", "dropped 3 exact duplicates\n", "wrote 5 rows", "1 (game, engine) cell with fewer than 1 ok run:\n"},
		},
		{name: "no --out", args: []string{"merge", dir}, wantCode: ExitUsage, wantErr: `required flag(s) "out" not set`},
		{name: "no inputs", args: []string{"merge", "--out", out}, wantCode: ExitUsage, wantErr: "requires at least 1 arg"},
		{name: "negative reps", args: []string{"merge", dir, "--out", out, "--reps", "-1"}, wantCode: ExitUsage, wantErr: "--reps"},
		{name: "missing input", args: []string{"merge", filepath.Join(dir, "nope.csv"), "--out", filepath.Join(dir, "x.csv")}, wantCode: ExitFailure, wantErr: "nope.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := execResults(t, tt.args...)
			require.Equal(t, tt.wantCode, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			for _, w := range tt.wantOut {
				assert.Contains(t, stdout, w)
			}
			if tt.wantErr != "" {
				assert.Contains(t, stderr, tt.wantErr)
			}
		})
	}
	rows, err := results.Load(out)
	require.NoError(t, err)
	assert.Len(t, rows, 5)
}

func TestResultsMergeOptions(t *testing.T) {
	var got *ResultsMergeOptions
	cmd := NewCmdResultsMerge(&IO{}, func(o *ResultsMergeOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a.csv", "dir", "--out", "m.csv", "--reps", "3"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, []string{"a.csv", "dir"}, got.Inputs)
	assert.Equal(t, "m.csv", got.Out)
	assert.Equal(t, 3, got.Reps)
}

func TestResultsImport(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "ENGINE_X.csv")
	lines := "BASE/ticTacToe/JRFsaQ;ENGINE_X;1;true;;30000;1000;100\n" +
		"BASE/hex/T1MK8g;ENGINE_X;1;false;Exception; with a semicolon;0;0;0\n"
	require.NoError(t, os.WriteFile(src, []byte(lines), 0o644))
	resultsDir := filepath.Join(dir, "res")
	imported := filepath.Join(resultsDir, "imported-ENGINE_X.csv")

	code, stdout, stderr := execResults(t, "import", src, "--results", resultsDir)
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, src+": imported 2 rows into "+imported+" (0 already there)\n", stdout)
	first, err := os.ReadFile(imported)
	require.NoError(t, err)

	// Re-import: nothing new, same file.
	code, stdout, stderr = execResults(t, "import", src, "--results", resultsDir)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "imported 0 rows into "+imported+" (2 already there)")
	again, err := os.ReadFile(imported)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))

	// More lines later: only the new one is added.
	require.NoError(t, os.WriteFile(src, []byte(lines+"BASE/ticTacToe/JRFsaQ;ENGINE_X;1;true;;30001;1001;100\nbad line\n"), 0o644))
	code, stdout, stderr = execResults(t, "import", src, "--results", resultsDir, "--source", "lab-2016")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stdout, "imported 3 rows", "another source is another machine")
	assert.Contains(t, stderr, "lab-2016:4: 1 fields")
	assert.Contains(t, stderr, "1 line could not be imported")

	rows, _, err := results.LoadDir(resultsDir)
	require.NoError(t, err)
	require.Len(t, rows, 5)
	assert.Equal(t, "Exception; with a semicolon", rows[1].ErrorMessage)
	assert.Equal(t, "lab-2016", rows[4].Machine)

	// A gdlperf results file is refused.
	code, _, stderr = execResults(t, "import", imported, "--results", resultsDir)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "is a gdlperf results file already")

	code, _, stderr = execResults(t, "import", filepath.Join(dir, "missing.csv"), "--results", resultsDir)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "missing.csv")
}

func TestResultsImportRealFiles(t *testing.T) {
	files, _ := filepath.Glob("../../../../shared/reference/gdlperf-results-2016/*/*.csv")
	if len(files) == 0 {
		t.Skip("no gdl-perf results in ../shared")
	}
	resultsDir := t.TempDir()
	code, stdout, stderr := execResults(t, append([]string{"import", "--results", resultsDir}, files...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, len(files), strings.Count(stdout, "(0 already there)"))
	rows, written, err := results.LoadDir(resultsDir)
	require.NoError(t, err)
	assert.Len(t, written, len(files))
	assert.Len(t, rows, 8392)

	code, stdout, _ = execResults(t, "export", "--results", resultsDir)
	require.Equal(t, ExitOK, code)
	n := 0
	r := benchfmt.NewReader(strings.NewReader(stdout), "export")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatal(rec)
		case *benchfmt.Result:
			n++
		}
	}
	require.NoError(t, r.Err())
	withRate := 0
	for _, r := range rows {
		if r.Status == results.StatusOK && r.StateChanges > 0 {
			withRate++
		}
	}
	assert.Equal(t, 7866, withRate, "37 of the 7903 ok rows have no state change")
	assert.Equal(t, withRate, n, "one result per ok row with a rate")
}

func TestResultsExport(t *testing.T) {
	dir := t.TempDir()
	writeResults(t, filepath.Join(dir, "a.csv"),
		resultsRow(0, "BASE/ticTacToe/JRFsaQ", "prover", 0, results.StatusOK),
		resultsRow(1, "BASE/ticTacToe/JRFsaQ", "prover", 1, results.StatusOK),
		resultsRow(2, "BASE/ticTacToe/JRFsaQ", "propnet", 0, results.StatusTimeout),
	)
	empty := t.TempDir()
	failedOnly := t.TempDir()
	writeResults(t, filepath.Join(failedOnly, "a.csv"), resultsRow(0, "G/g/h", "e", 0, results.StatusCrash))

	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{
			name:     "bench",
			args:     []string{"export", "--results", dir},
			wantCode: ExitOK,
			wantOut: "Unit states/s better=higher\n\ngoos: linux\ncpu: Test CPU\nkernel: 6.1.0\ngoversion: go1.26.0\nhost: node1\nmachine: m1\n" +
				"BenchmarkGame/game=BASE:ticTacToe:JRFsaQ/engine=prover/version=1.0-1 1000 30000000 ns/op 33.33 states/s\n" +
				"BenchmarkGame/game=BASE:ticTacToe:JRFsaQ/engine=prover/version=1.0-1 1001 29970030 ns/op 33.37 states/s\n",
		},
		{name: "explicit format", args: []string{"export", "--results", dir, "--format", "bench"}, wantCode: ExitOK, wantOut: "BenchmarkGame/"},
		{name: "json", args: []string{"export", "--results", dir, "--format", "json"}, wantCode: ExitOK, wantOut: `"game_key": "BASE/ticTacToe/JRFsaQ"`},
		{name: "markdown", args: []string{"export", "--results", dir, "--format", "markdown"}, wantCode: ExitOK, wantOut: "| BASE/ticTacToe/JRFsaQ | prover | 1.0 |"},
		{name: "unknown format", args: []string{"export", "--results", dir, "--format", "xml"}, wantCode: ExitUsage, wantErr: `unknown --format "xml"`},
		{name: "no results files", args: []string{"export", "--results", empty}, wantCode: ExitFailure, wantErr: "no results files"},
		{name: "missing folder", args: []string{"export", "--results", filepath.Join(empty, "nope")}, wantCode: ExitFailure, wantErr: "nope"},
		{name: "only failures", args: []string{"export", "--results", failedOnly}, wantCode: ExitOK, wantErr: "no ok runs among the 1 rows"},
		{name: "arguments", args: []string{"export", "x"}, wantCode: ExitUsage, wantErr: "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := execResults(t, tt.args...)
			require.Equal(t, tt.wantCode, code, "stderr: %s", stderr)
			if tt.name == "bench" {
				assert.Equal(t, tt.wantOut, stdout)
			} else if tt.wantOut != "" {
				assert.Contains(t, stdout, tt.wantOut)
			}
			if tt.wantErr != "" {
				assert.Contains(t, stderr, tt.wantErr)
			}
		})
	}
}

func TestResultsExportOptions(t *testing.T) {
	var got *ResultsExportOptions
	cmd := NewCmdResultsExport(&IO{}, func(o *ResultsExportOptions) error { got = o; return nil })
	cmd.SetArgs(nil)
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "gdlperf-results", got.ResultsDir)
	assert.Equal(t, "benchfmt", got.Format)

	var imp *ResultsImportOptions
	icmd := NewCmdResultsImport(&IO{}, func(o *ResultsImportOptions) error { imp = o; return nil })
	icmd.SetArgs([]string{"x.csv", "y.csv"})
	require.NoError(t, icmd.Execute())
	assert.Equal(t, []string{"x.csv", "y.csv"}, imp.Files)
	assert.Equal(t, "gdlperf-results", imp.ResultsDir)
	assert.Equal(t, results.DefaultImportSource, imp.Source)
}

// A merged file written into the folder it merges is idempotent, and the
// commands that read the folder count each run once.
func TestResultsMergeIntoTheResultsFolder(t *testing.T) {
	dir := t.TempDir()
	writeResults(t, filepath.Join(dir, "node1.csv"),
		resultsRow(0, "BASE/ticTacToe/JRFsaQ", "prover", 0, results.StatusOK),
		resultsRow(1, "BASE/ticTacToe/JRFsaQ", "prover", 1, results.StatusOK),
		resultsRow(2, "BASE/ticTacToe/JRFsaQ", "propnet", 0, results.StatusTimeout),
	)
	out := filepath.Join(dir, "all.csv")
	code, stdout, stderr := execResults(t, "merge", dir, "--out", out)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "wrote 3 rows")
	first := readFile(t, out)
	code, stdout, stderr = execResults(t, "merge", dir, "--out", out)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "read 6 rows from 2 files")
	assert.Contains(t, stdout, "wrote 3 rows")
	assert.Equal(t, first, readFile(t, out), "merging again writes the same bytes")

	code, stdout, stderr = execResults(t, "export", "--results", dir, "--format", "csv")
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, 4, strings.Count(stdout, "\n"), "a header and 3 rows: %s", stdout)
	assert.Contains(t, stderr, "node1.csv: 3 rows repeat runs of "+out)
	assert.Contains(t, stderr, "counted once")

	site := filepath.Join(t.TempDir(), "site")
	code, _, stderr = run(t, "report", "--results", dir, "--out", site)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "from 3 rows")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
