package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		{"defaults", []string{"a", "b"}, CompareOptions{Old: "a", New: "b", Results: "gdlperf-results", Noise: 2, Reference: "prover", Metric: "time"}, 0},
		{"one engine", []string{"prover"}, CompareOptions{Old: "prover", Results: "gdlperf-results", Noise: 2, Reference: "prover", Metric: "time"}, 0},
		{"flags", []string{"a", "b", "--noise", "5", "--results", "r", "--cross-machine", "--calibrate", "--reference", "tupleprover", "--json"},
			CompareOptions{Old: "a", New: "b", Results: "r", Noise: 5, CrossMachine: true, Calibrate: true, Reference: "tupleprover", Metric: "time", JSON: true}, 0},
		{"instructions", []string{"a", "b", "--metric", "instructions"},
			CompareOptions{Old: "a", New: "b", Results: "gdlperf-results", Noise: 1, Reference: "prover", Metric: "instructions"}, 0},
		{"workloads", []string{"a", "b", "--workload", "uct,pns"},
			CompareOptions{Old: "a", New: "b", Results: "gdlperf-results", Noise: 2, Reference: "prover", Metric: "time", Workloads: []string{"uct", "pns"}}, 0},
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
		{"no arguments", nil, ExitUsage, "compare needs OLD (and NEW)"},
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

// okRuns builds ok rows of one engine version on one game, a run a
// minute from minute on the given day of January 2026: rates in state
// changes per second, spread a little.
func okRuns(engine, version, game string, day, minute int, rate float64, n int) []results.Row {
	out := make([]results.Row, n)
	for i := range out {
		r := rate * (1 + 0.004*float64(i%5-2) + 0.0003*float64(i))
		out[i] = results.Row{
			RunKey:  fmt.Sprintf("%s@%s/%s/%d", engine, version, game, i),
			GameKey: game, Engine: engine, EngineVersion: version, Repetition: i, Status: results.StatusOK,
			StartTime: fmt.Sprintf("2026-01-%02dT%02d:%02d:00Z", day, 10+(minute+i)/60, (minute+i)%60),
			Mode:      "time", TargetSeconds: 2, Machine: "m", MillisecondsTaken: 1000, StateChanges: int64(r),
			TimedCPUMs: 1000, CPUShare: "1.000",
		}
	}
	return out
}

// The README's settings (one to three repetitions) can never give a
// significant verdict: compare exits 5 and says how many runs it needs,
// never 0; with enough runs and no change it exits 0.
func TestCompareTooFewRepetitionsIsInconclusive(t *testing.T) {
	game := "BASE/ticTacToe/JRFsaQ"
	tests := []struct {
		name       string
		n          int
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"3 a side", 3, ExitInconclusive, "inconclusive BASE/ticTacToe/JRFsaQ: needs at least 4 ok runs per side; has 3 (new) and 3 (old)",
			`gdlperf: inconclusive: 1 game could not be judged ("BASE/ticTacToe/JRFsaQ"); a verdict needs at least 4 ok, uncontended runs per side (gdlperf run --reps 4)`},
		{"1 a side", 1, ExitInconclusive, "has 1 (new) and 1 (old)", "a verdict needs at least 4 ok"},
		{"4 a side, no change", 4, ExitOK, "BASE/ticTacToe/JRFsaQ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := writeRows(t, okRuns("e", "1", game, 1, 0, 1000, tt.n))
			new := writeRows(t, okRuns("e", "2", game, 1, min(1, tt.n-1), 1000, tt.n)) // start times interleave: one campaign
			code, stdout, stderr := run(t, "compare", old, new)
			assert.Equal(t, tt.wantCode, code, stderr)
			assert.Contains(t, stdout, tt.wantStdout)
			if tt.wantStderr != "" {
				assert.Contains(t, stderr, tt.wantStderr)
			} else {
				assert.Empty(t, stderr)
			}
		})
	}
}

// Old version then new version, as two campaigns, on a machine that got
// 57% faster in between: refused as it is (the factor named), slower with
// --calibrate; never faster. Both as two folders and as two versions of
// one results folder.
func TestCompareSeparateCampaigns(t *testing.T) {
	var oldRows, newRows []results.Row
	for i := range 8 {
		g := fmt.Sprintf("BASE/g%d/AAAAAA", i)
		base := 1000 * float64(i+1)
		oldRows = append(oldRows, okRuns("e", "1", g, 1, 10*i, base, 6)...)
		oldRows = append(oldRows, okRuns("prover", "1", g, 1, 10*i+6, base/10, 3)...)
		newRows = append(newRows, okRuns("e", "2", g, 5, 10*i, base*0.7*1.57, 6)...)
		newRows = append(newRows, okRuns("prover", "1", g, 5, 10*i+6, base/10*1.57, 3)...)
	}
	for i := range newRows {
		newRows[i].RunKey += "/new"
	}
	oldDir, newDir := writeRows(t, reporttest.Filter(oldRows, "e", "1")), writeRows(t, reporttest.Filter(newRows, "e", "2"))
	oldFull, newFull := writeRows(t, oldRows), writeRows(t, newRows)
	pool := writeRows(t, append(slices.Clone(oldRows), newRows...))
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"two folders without the reference", []string{oldDir, newDir, "--calibrate"}, ExitFailure, "has no runs of the reference engine prover on machine m in 2 s"},
		{"refused as they are", []string{oldDir, newDir}, ExitFailure, "are not comparable as they are: they are separate campaigns: their start times do not interleave"},
		{"two folders, calibrated", []string{oldFull, newFull, "--calibrate"}, ExitRegression, "8 games slower by more than 2%"},
		{"two versions of one folder, refused", []string{"e@1", "e@2", "--results", pool}, ExitFailure, "the machine factor is 1.571 (prover on 8 games"},
		{"two versions of one folder, calibrated", []string{"e", "--results", pool, "--calibrate"}, ExitRegression, "8 games slower by more than 2%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare"}, tt.args...)...)
			assert.Equal(t, tt.wantCode, code, stderr)
			assert.Contains(t, stderr, tt.wantStderr)
			assert.NotRegexp(t, `faster\n`, stdout, "no game is called faster")
			if tt.wantCode == ExitRegression {
				assert.Contains(t, stdout, "calibrated: machine factor 1.571 from prover on 8 games")
				assert.Regexp(t, `new/old geomean 0\.699\d \[[0-9.]+, [0-9.]+\] \(slower\)`, stdout)
			}
		})
	}
}

// A slow-down no single game shows significantly, but the geometric mean
// does (its own 95% interval below 1 - noise), is a regression: exit 3,
// not 5.
func TestCompareGeometricMeanSlower(t *testing.T) {
	var old, new []results.Row
	for i := range 20 {
		g := fmt.Sprintf("BASE/g%02d/AAAAAA", i)
		old = append(old, okRuns("e", "1", g, 1, 10*i, 1000*float64(i+1), 4)...)
		new = append(new, okRuns("e", "2", g, 1, 10*i+5, 950*float64(i+1), 4)...)
	}
	code, stdout, stderr := run(t, "compare", writeRows(t, old), writeRows(t, new))
	assert.Equal(t, ExitRegression, code, stderr)
	assert.Regexp(t, `gdlperf: regression: e@2: geometric mean new/old 0\.95\d\d, its 95% interval \[0\.9\d+, 0\.9\d+\] below 1 - 2%`, stderr)
	assert.Contains(t, stdout, "20 inconclusive")
	assert.Contains(t, stdout, "needs at least 6 ok runs per side (p-values adjusted over 20 games); has 4 (new) and 4 (old)")
}

// compare --json gives CI the verdict, the exit status and every game's
// figures without scraping text; the exit status is the same as without it.
func TestCompareJSON(t *testing.T) {
	game := "BASE/ticTacToe/JRFsaQ"
	old := writeRows(t, okRuns("e", "1", game, 1, 0, 1000, 6))
	slower := writeRows(t, okRuns("e", "2", game, 1, 1, 600, 6))
	code, stdout, stderr := run(t, "compare", old, slower, "--json")
	require.Equal(t, ExitRegression, code, stderr)
	var rep CompareReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	assert.Equal(t, ExitRegression, rep.Exit)
	assert.Contains(t, rep.Verdict, "regression: 1 game slower")
	require.Len(t, rep.Tables, 1)
	tb := rep.Tables[0]
	assert.Equal(t, "e@1", tb.OldVersion)
	assert.Equal(t, "e@2", tb.NewVersion)
	require.Len(t, tb.Games, 1)
	g := tb.Games[0]
	assert.Equal(t, game, g.Game)
	assert.Equal(t, "slower", g.Verdict)
	require.NotNil(t, g.Ratio)
	assert.InDelta(t, 0.6, *g.Ratio, 0.05)
	require.NotNil(t, g.Lo)
	require.NotNil(t, g.Hi)
	assert.Less(t, *g.Hi, 1.0, "the interval agrees with the verdict")
	assert.Equal(t, 6, g.OldRuns)

	// Too few runs: inconclusive, and the JSON says so too.
	few := writeRows(t, okRuns("e", "3", game, 1, 1, 1000, 2))
	code, stdout, _ = run(t, "compare", writeRows(t, okRuns("e", "1", game, 1, 0, 1000, 2)), few, "--json")
	require.Equal(t, ExitInconclusive, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.Equal(t, ExitInconclusive, rep.Exit)
	assert.Equal(t, "inconclusive", rep.Tables[0].Games[0].Verdict)
	assert.Nil(t, rep.Tables[0].Games[0].Hi, "an unbounded interval with 2 runs a side: null, not +Inf")
}

// A bare gdlperf compare prints its usage.
func TestCompareNoArguments(t *testing.T) {
	code, _, stderr := run(t, "compare")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "Usage:")
	assert.Contains(t, stderr, "gdlperf compare OLD [NEW]")
}

// compare --metric instructions compares the instructions per rollout of
// rows measured with --measure instructions, at a 1% threshold by default:
// a 3% slow-down measured in two separate campaigns (counts do not depend
// on the hour) is a regression, the same count is ~, and the timed rows of
// the same folders are left out.
func TestCompareInstructions(t *testing.T) {
	game := "BASE/ticTacToe/JRFsaQ"
	counted := func(version string, day int, perOp float64) []results.Row {
		rows := okRuns("e", version, game, day, 0, 1000, 4)
		for i := range rows {
			r := &rows[i]
			r.Measure, r.Counter, r.Mode, r.TargetSeconds, r.TargetRollouts = results.MeasureInstructions, "valgrind", "rollouts", 0, 20
			r.InstructionsPerOp = fmt.Sprintf("%.1f", perOp*(1+0.0005*float64(i%3-1)))
			r.RunKey += "/instructions"
			r.CPUShare = "" // counted under Valgrind: no share
		}
		// The same folders hold timed rows too, of other campaigns.
		return append(rows, okRuns("e", version, game, day+1, 0, 1000, 4)...)
	}
	old := writeRows(t, counted("1", 1, 1_000_000))
	slower := writeRows(t, counted("2", 5, 1_030_000))
	same := writeRows(t, counted("3", 9, 1_000_000))

	code, stdout, stderr := run(t, "compare", old, slower, "--metric", "instructions", "--json")
	require.Equal(t, ExitRegression, code, stderr)
	var rep CompareReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	require.Len(t, rep.Tables, 1)
	assert.Contains(t, rep.Tables[0].Setup, "measure instructions")
	assert.Equal(t, 1.0, rep.Noise, "1% by default for counts")
	g := rep.Tables[0].Games[0]
	assert.Equal(t, "slower", g.Verdict)
	require.NotNil(t, g.Ratio)
	assert.InDelta(t, 1/1.03, *g.Ratio, 0.005, "the ratio of rollouts per instruction, new/old")

	code, _, stderr = run(t, "compare", old, same, "--metric", "instructions")
	assert.Equal(t, ExitOK, code, stderr)
	code, _, stderr = run(t, "compare", old, slower, "--metric", "bogus")
	assert.Equal(t, ExitUsage, code, stderr)
}

// On a busy machine where every run was contended, compare's table says the
// runs were contended, not that they failed, and exits inconclusive.
func TestCompareAllContendedSaysSo(t *testing.T) {
	game := "BASE/ticTacToe/JRFsaQ"
	busy := func(version string, minute int) []results.Row {
		rows := okRuns("e", version, game, 1, minute, 1000, 4)
		for i := range rows {
			rows[i].Contended, rows[i].CPUShare = true, "0.400"
		}
		return rows
	}
	code, stdout, stderr := run(t, "compare", writeRows(t, busy("1", 0)), writeRows(t, busy("2", 1)))
	assert.Equal(t, ExitInconclusive, code, stderr)
	assert.Regexp(t, `BASE/ticTacToe/JRFsaQ\s+contended\s+contended`, stdout)
	assert.NotContains(t, stdout, "failed  ")
	assert.Contains(t, stdout, "every ok run of both was contended")
}

// compare works per workload: two engines of a campaign with the rollouts,
// uct and pns workloads (and transformed rollouts) get a table per
// workload and transform, each with its own ratios, never one that mixes
// them; --workload keeps the tables of the workloads named.
func TestCompareWorkloads(t *testing.T) {
	dir := writeRows(t, reporttest.DimensionRows())
	tests := []struct {
		name          string
		args          []string
		wantCode      int
		wantWorkloads []string // of the JSON tables, in order
		wantGeo       []float64
		wantErr       string
	}{
		{"every workload", nil, ExitOK, []string{"rollouts", "rollouts", "rollouts", "uct", "pns"}, []float64{5.65, 4.34, 11.3, 3.01, 2.01}, ""},
		{"uct", []string{"--workload", "uct"}, ExitOK, []string{"uct"}, []float64{3.01}, ""},
		{"uct and pns", []string{"--workload", "pns,uct"}, ExitOK, []string{"uct", "pns"}, []float64{3.01, 2.01}, ""},
		{"missing", []string{"--workload", "minimax"}, ExitFailure, nil, nil, "prover@1-aaa has no runs of workload minimax (its other workloads: rollouts, uct, pns)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare", "--results", dir, "prover", "propnet", "--json"}, tt.args...)...)
			require.Equal(t, tt.wantCode, code, stderr)
			if tt.wantErr != "" {
				assert.Contains(t, stderr, tt.wantErr)
				return
			}
			var rep CompareReport
			require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
			var workloads []string
			for i, tb := range rep.Tables {
				workloads = append(workloads, tb.Workload)
				require.NotNil(t, tb.GeoMean)
				assert.InDelta(t, tt.wantGeo[i], *tb.GeoMean, 0.01, tb.Setup)
				assert.Equal(t, "faster", tb.Overall)
				assert.Equal(t, tb.OldTransform, tb.NewTransform, "versions are compared within one transform")
				if tb.Workload == "uct" {
					assert.Equal(t, "iterations=200", tb.Budget)
				}
			}
			assert.Equal(t, tt.wantWorkloads, workloads)
		})
	}
	// The text says the workload of each table.
	code, stdout, stderr := run(t, "compare", "--results", dir, "prover", "propnet", "--workload", "uct")
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "prover@1-aaa → propnet@2-bbb on machine m1-fingerprint, 2 s, workload uct (iterations=200) runs")
	assert.Equal(t, 1, strings.Count(stdout, "summary:"))
}

// compare compares rule transforms as it compares versions, with the same
// verdicts and exit codes: ENGINE:TRANSFORM (or ENGINE@TRANSFORM when
// TRANSFORM is no version of the engine); a side without one is the
// untransformed runs.
func TestCompareTransforms(t *testing.T) {
	dir := writeRows(t, reporttest.DimensionRows())
	tests := []struct {
		name        string
		args        []string
		wantCode    int
		wantHeading string
		wantVerdict string // of every game
		wantErr     string
	}{
		{"slower under shuffle", []string{"prover:none", "prover:shuffle"}, ExitRegression,
			"prover@1-aaa (untransformed) → prover@1-aaa (transform shuffle (seed 1)) on machine m1-fingerprint, 2 s runs", "slower", ""},
		{"the issue's spelling", []string{"prover@none", "prover@optimise"}, ExitOK,
			"prover@1-aaa (untransformed) → prover@1-aaa (transform optimise (seed 1)) on machine m1-fingerprint, 2 s runs", "faster", ""},
		{"a version and a transform", []string{"prover@1-aaa:none", "prover@1-aaa:shuffle"}, ExitRegression, "", "slower", ""},
		{"no transform is none", []string{"propnet", "propnet:shuffle"}, ExitOK, "", "~", ""},
		{"the other way", []string{"prover:shuffle", "prover"}, ExitOK, "", "faster", ""},
		{"unknown transform", []string{"propnet:none", "propnet:nothing"}, ExitFailure, "", "",
			"propnet@2-bbb has no runs under transform nothing (its transforms: none, optimise, shuffle)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare", "--results", dir}, tt.args...)...)
			require.Equal(t, tt.wantCode, code, stderr)
			if tt.wantErr != "" {
				assert.Contains(t, stderr, tt.wantErr)
				return
			}
			if tt.wantHeading != "" {
				assert.Contains(t, stdout, tt.wantHeading+"\n")
			}
			assert.Equal(t, 1, strings.Count(stdout, "summary:"), "one table: the rollouts runs, the only ones under a transform")
			assert.Contains(t, stdout, "summary: 3 games: "+map[string]string{"slower": "0 faster, 3 slower", "faster": "3 faster, 0 slower", "~": "0 faster, 0 slower, 3 ~"}[tt.wantVerdict])
		})
	}
	// The JSON names the transforms.
	code, stdout, stderr := run(t, "compare", "--results", dir, "prover:none", "prover:shuffle", "--json")
	require.Equal(t, ExitRegression, code, stderr)
	var rep CompareReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	require.Len(t, rep.Tables, 1)
	tb := rep.Tables[0]
	assert.Equal(t, "none", tb.OldTransform)
	assert.Equal(t, "shuffle", tb.NewTransform)
	assert.Equal(t, "2 s, transform shuffle (seed 1)", tb.NewSetup)
	assert.Equal(t, "slower", tb.Overall)
	assert.Equal(t, "prover@1-aaa:none", rep.Old)
	require.NotNil(t, tb.GeoHi)
	assert.Less(t, *tb.GeoHi, 0.98, "the interval agrees with the verdict")
}

// A side's ":TRANSFORM" is cut off only when it names the untransformed
// rules or a chain of transforms, so a version with a colon stays whole.
func TestSplitTransform(t *testing.T) {
	tests := []struct{ arg, side, transform string }{
		{"propnet:optimise", "propnet", "optimise"},
		{"propnet@1-abc:none", "propnet@1-abc", "none"},
		{"prover:deor+dedupe", "prover", "deor+dedupe"},
		{"tp@1.0:beta", "tp@1.0:beta", ""},
		{"tp@1.0:beta:shuffle", "tp@1.0:beta", "shuffle"},
		{"propnet", "propnet", ""},
		{"propnet:", "propnet:", ""},
		{"propnet:nothing", "propnet", "nothing"},
	}
	for _, tt := range tests {
		side, tr := splitTransform(tt.arg)
		assert.Equal(t, tt.side, side, tt.arg)
		assert.Equal(t, tt.transform, tr, tt.arg)
	}
}
