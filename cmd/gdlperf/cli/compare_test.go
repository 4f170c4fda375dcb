package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

// writeRows writes rows as a results file in a new folder and returns the
// folder.
func writeRows(t *testing.T, rows []results.Row) string {
	t.Helper()
	dir := t.TempDir()
	w, err := results.OpenWriter(filepath.Join(dir, "rows.csv"))
	require.NoError(t, err)
	require.NoError(t, w.AppendRows(rows))
	require.NoError(t, w.Close())
	return dir
}

func without(rows []results.Row, game string) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if r.GameKey != game {
			out = append(out, r)
		}
	}
	return out
}

func onMachine(rows []results.Row, machine string) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if r.Machine == machine {
			out = append(out, r)
		}
	}
	return out
}

func TestNewCmdCompareOptions(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		want     CompareOptions
		wantCode int
	}{
		{"defaults", []string{"a", "b"}, CompareOptions{Old: "a", New: "b", Results: "gdlperf-results", Noise: 2, Reference: "prover"}, 0},
		{"one engine", []string{"prover"}, CompareOptions{Old: "prover", Results: "gdlperf-results", Noise: 2, Reference: "prover"}, 0},
		{"flags", []string{"a", "b", "--noise", "5", "--results", "r", "--cross-machine", "--calibrate", "--reference", "tupleprover"},
			CompareOptions{Old: "a", New: "b", Results: "r", Noise: 5, CrossMachine: true, Calibrate: true, Reference: "tupleprover"}, 0},
		{"negative noise", []string{"a", "b", "--noise", "-1"}, CompareOptions{}, ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *CompareOptions
			cmd := NewCmdCompare(&IO{}, func(o *CompareOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			err := cmd.Execute()
			if tt.wantCode != 0 {
				var ee *exitError
				require.ErrorAs(t, err, &ee)
				assert.Equal(t, tt.wantCode, ee.code)
				return
			}
			require.NoError(t, err)
			got.IO = nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

// compare of two versions in a results folder: the fixture's propnet@3
// breaks a game (exit 4) and slows another; stdout and stderr are golden.
func TestCompareVersions(t *testing.T) {
	dir := writeRows(t, reporttest.Rows())
	for _, args := range [][]string{
		{"propnet@2-bbb", "propnet@3-ccc"},
		{"propnet"},                  // one engine with two versions: older is OLD
		{"propnet", "propnet"},       // the same, spelled twice
		{"propnet@2-bbb", "propnet"}, // the other version
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare", "--results", dir}, args...)...)
			assert.Equal(t, ExitNewFailures, code, stderr)
			golden(t, "compare_versions.stdout.golden", stdout)
			golden(t, "compare_versions.stderr.golden", stderr)
		})
	}
}

func TestCompareFoldersExitCodes(t *testing.T) {
	rows := reporttest.Rows()
	old := writeRows(t, reporttest.Filter(rows, "propnet", "2-bbb"))
	tests := []struct {
		name       string
		new        []results.Row
		wantCode   int
		wantStderr string
	}{
		{"newly failing and slower", reporttest.Filter(rows, "propnet", "3-ccc"), ExitNewFailures,
			`gdlperf: regression: 1 game newly failing ("LOCAL/<script>alert(\"x\")</script>&amp;/h4sh'"); 1 game slower by more than 2% ("BASE/connectFour/WAIKTw")`},
		{"slower only", without(reporttest.Filter(rows, "propnet", "3-ccc"), reporttest.Script), ExitRegression,
			`gdlperf: regression: 1 game slower by more than 2% ("BASE/connectFour/WAIKTw")`},
		{"no regression, one game with one run a side", without(without(reporttest.Filter(rows, "propnet", "3-ccc"), reporttest.Script), reporttest.ConnectFour), ExitInconclusive,
			`gdlperf: inconclusive: 1 game could not be judged ("BASE/speedChess/bPnisA"); a verdict needs at least 5 ok, uncontended runs per side (gdlperf run --reps 5)`},
		{"no regression", without(without(without(reporttest.Filter(rows, "propnet", "3-ccc"), reporttest.Script), reporttest.ConnectFour), reporttest.SpeedChess), ExitOK, ""},
		{"same rows", onMachine(without(without(reporttest.Filter(rows, "propnet", "2-bbb"), reporttest.SpeedChess), reporttest.Hex), reporttest.Machine1), ExitOK, ""},
		{"same rows, too few of them", reporttest.Filter(rows, "propnet", "2-bbb"), ExitInconclusive,
			`gdlperf: inconclusive: 3 games could not be judged ("BASE/hex/T1MK8g", "BASE/speedChess/bPnisA", "BASE/ticTacToe/JRFsaQ")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "compare", old, writeRows(t, tt.new))
			assert.Equal(t, tt.wantCode, code, stderr)
			assert.Contains(t, stdout, "summary: ")
			if tt.wantStderr != "" {
				assert.Contains(t, stderr, tt.wantStderr)
			} else {
				assert.NotContains(t, stderr, "regression")
				assert.NotContains(t, stderr, "inconclusive")
			}
		})
	}
}

func TestCompareToolErrors(t *testing.T) {
	dir := writeRows(t, reporttest.Rows())
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"unknown engine", []string{"nosuch@1", "propnet@2-bbb"}, ExitFailure,
			"nosuch@1 is neither a results file or folder nor an engine in " + dir + " (engines there: propnet, prover, solo)"},
		{"unknown version", []string{"propnet@9", "propnet@2-bbb"}, ExitFailure, "engine propnet has no version 9 in " + dir + "; it has versions 2-bbb, 3-ccc"},
		{"one engine with one version", []string{"prover"}, ExitFailure, "with one argument, engine prover must have two versions in " + dir + "; it has version 1-aaa"},
		{"a folder with two versions", []string{dir, "propnet@3-ccc"}, ExitFailure, "holds 2 versions of engine propnet"},
		{"no results", []string{"propnet@2-bbb", "propnet@3-ccc", "--results", filepath.Join(dir, "missing")}, ExitFailure, "engine versions are looked up in --results"},
		{"no arguments", nil, ExitUsage, "accepts between 1 and 2 arg(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"compare", "--results", dir}, tt.args...)
			code, _, stderr := run(t, args...)
			assert.Equal(t, tt.wantCode, code)
			assert.Contains(t, stderr, tt.wantStderr)
		})
	}
}

// A bare engine name is an engine even when a file of that name is in the
// current folder (an external engine's binary often is).
func TestCompareEngineNamedLikeAFile(t *testing.T) {
	dir := writeRows(t, reporttest.Rows())
	_, want, _ := run(t, "compare", "--results", dir, "propnet")
	cwd := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "propnet"), []byte("\x7fELF not results"), 0o755))
	t.Chdir(cwd)
	code, stdout, stderr := run(t, "compare", "--results", dir, "propnet")
	assert.Equal(t, ExitNewFailures, code, stderr)
	assert.Equal(t, want, stdout)
	assert.Contains(t, stdout, "propnet@2-bbb")

	// ./propnet is the file.
	code, _, stderr = run(t, "compare", "--results", dir, "./propnet", "propnet")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "propnet")
}
