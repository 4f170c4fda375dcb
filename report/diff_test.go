package report

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

func versions(rows []results.Row, engine, version string) Side {
	return Side{Label: engine + "@" + version, Rows: rt.Filter(rows, engine, version)}
}

func TestCompareSidesVerdicts(t *testing.T) {
	rows := rt.Rows()
	d, err := CompareSides(versions(rows, "propnet", "2-bbb"), versions(rows, "propnet", "3-ccc"), DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	require.Len(t, d.Tables, 1, "machine 2 has no propnet@3: only machine 1 is compared")
	want := map[string]Verdict{
		rt.TicTacToe:   Faster,
		rt.ConnectFour: Slower,
		rt.Hex:         Fixed,
		rt.Script:      Broken,
		rt.Zero:        Same,
		rt.Breakthru:   Same,
		rt.Reversi:     Same,         // significant, but 1% is within the 2% noise
		rt.SpeedChess:  Inconclusive, // one run each: too few for a verdict
	}
	got := map[string]Verdict{}
	for _, g := range d.Tables[0].Games {
		got[g.Game] = g.Verdict
	}
	assert.Equal(t, want, got)
	assert.Equal(t, 1, d.Count(Slower))
	assert.Equal(t, 1, d.Count(Broken))
	assert.Equal(t, []string{rt.Script}, d.Games(Broken))
	assert.Contains(t, d.Warnings, "machine m2-fingerprint is only in propnet@2-bbb: its runs are not compared")
	assert.Equal(t, []string{rt.SpeedChess}, d.Games(Inconclusive))
	assert.Equal(t, 6, d.RunsNeeded(), "5 and 5 runs give at best p = 0.0079, times 8 games by Holm")
	for _, g := range d.Tables[0].Games {
		if g.Game == rt.SpeedChess {
			assert.Equal(t, "needs at least 6 ok runs per side (p-values adjusted over 8 games); has 1 (new) and 1 (old)", g.Needs("new", "old"))
		}
	}

	// With no noise allowance, reversi's significant 1% counts.
	d, err = CompareSides(versions(rows, "propnet", "2-bbb"), versions(rows, "propnet", "3-ccc"), DiffOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, d.Count(Faster))
}

func TestCompareSidesGolden(t *testing.T) {
	rows := rt.Rows()
	d, err := CompareSides(versions(rows, "propnet", "2-bbb"), versions(rows, "propnet", "3-ccc"), DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	golden(t, "compare.golden", b.Bytes())
}

func TestCompareSidesErrors(t *testing.T) {
	rows := rt.Rows()
	m2 := func(rows []results.Row) []results.Row {
		var out []results.Row
		for _, r := range rows {
			if r.Machine == rt.Machine2 {
				out = append(out, r)
			}
		}
		return out
	}
	tests := []struct {
		name    string
		old     Side
		new     Side
		opts    DiffOptions
		wantErr string
	}{
		{"empty side", Side{Label: "OLD"}, versions(rows, "propnet", "3-ccc"), DiffOptions{}, "OLD has no results"},
		{"two versions on a side", Side{Label: "OLD", Rows: rows}, versions(rows, "propnet", "3-ccc"), DiffOptions{},
			"OLD holds 2 versions of engine propnet (propnet@2-bbb, propnet@3-ccc); compare engine versions instead, as propnet@2-bbb"},
		{"different machines", Side{Label: "OLD", Rows: m2(rt.Filter(rows, "propnet", "2-bbb"))}, versions(rows, "propnet", "3-ccc"), DiffOptions{},
			"OLD and propnet@3-ccc were measured on different machines (machine m2-fingerprint; machine m1-fingerprint), and rates of two machines are not comparable; --cross-machine compares them anyway"},
		{"no common engine", versions(rows, "solo", "1"), Side{Label: "NEW", Rows: append(rt.Filter(rows, "prover", "1-aaa"), rt.Filter(rows, "propnet", "3-ccc")...)}, DiffOptions{},
			"solo@1 and NEW have no engine in common (solo@1; propnet@3-ccc, prover@1-aaa)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompareSides(tt.old, tt.new, tt.opts)
			require.Error(t, err)
			assert.Equal(t, tt.wantErr, err.Error())
		})
	}
}

func TestCompareSidesCrossMachine(t *testing.T) {
	rows := rt.Rows()
	var old []results.Row
	for _, r := range rt.Filter(rows, "propnet", "2-bbb") {
		if r.Machine == rt.Machine2 {
			old = append(old, r)
		}
	}
	// Machine 2's runs are of another day: a separate campaign.
	_, err := CompareSides(Side{Label: "OLD", Rows: old}, versions(rows, "propnet", "3-ccc"), DiffOptions{CrossMachine: true, Noise: 0.02})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OLD and propnet@3-ccc are not comparable as they are: they are separate campaigns")
	assert.Contains(t, err.Error(), "OLD has no runs of the reference engine prover on machine m2-fingerprint in 2 s")

	// Calibrated by the prover of each machine (ten times faster on
	// machine 1), the ratio is machine 1's own: 60k / 10 over 5k.
	var prover2 []results.Row
	for _, r := range rt.Filter(rows, "prover", "1-aaa") {
		if r.Machine == rt.Machine2 {
			prover2 = append(prover2, r)
		}
	}
	d, err := CompareSides(Side{Label: "OLD", Rows: old, Context: prover2},
		Side{Label: "propnet@3-ccc", Rows: rt.Filter(rows, "propnet", "3-ccc"), Context: rt.Filter(rows, "prover", "1-aaa")},
		DiffOptions{CrossMachine: true, Noise: 0.02, Calibrate: true})
	require.NoError(t, err)
	assert.Contains(t, d.Warnings[0], "comparing machine m2-fingerprint (OLD) with machine m1-fingerprint")
	assert.Equal(t, "propnet@2-bbb on machine m2-fingerprint → propnet@3-ccc on machine m1-fingerprint, 2 s runs", d.Tables[0].heading())
	assert.InDelta(t, 10.0, d.Tables[0].Factor, 1e-9)
	assert.Equal(t, "machine factor 10.00 from prover on 1 game: propnet@3-ccc's rates are divided by it", d.Tables[0].Calibration)
	i := slices.IndexFunc(d.Tables[0].Games, func(g DiffGame) bool { return g.Game == rt.TicTacToe })
	require.GreaterOrEqual(t, i, 0)
	assert.InDelta(t, 1.2, d.Tables[0].Games[i].Ratio, 1e-9)
}

// Two result sets of the same engine name with one version each compare
// directly, as do two different engines.
func TestCompareSidesDifferentEngines(t *testing.T) {
	rows := rt.Rows()
	d, err := CompareSides(versions(rows, "prover", "1-aaa"), versions(rows, "propnet", "2-bbb"), DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	require.Len(t, d.Tables, 2, "both machines ran both")
	assert.Equal(t, rt.Machine1, d.Tables[0].OldMachine)
	assert.Equal(t, Failing, d.Tables[0].Games[2].Verdict, "hex: prover failed every run, propnet still one")
	assert.Equal(t, rt.Machine2, d.Tables[1].OldMachine)
	assert.Len(t, d.Tables[1].Games, 1)
}

// One run a game on each side cannot interleave even in one campaign: the
// refusal says so and names the repetitions that would tell.
func TestSeparateCampaignsOneRunAGame(t *testing.T) {
	at := func(engine string, min int) results.Row {
		return results.Row{RunKey: engine, GameKey: "BASE/g/h", Engine: engine, EngineVersion: "1", Status: results.StatusOK,
			Mode: "time", TargetSeconds: 2, MillisecondsTaken: 2000, StateChanges: 1000, Machine: "m",
			StartTime: time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC).Format(time.RFC3339)}
	}
	_, err := CompareSides(Side{Label: "a", Rows: []results.Row{at("a", 0)}}, Side{Label: "b", Rows: []results.Row{at("b", 1)}}, DiffOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "they are separate campaigns")
	assert.Contains(t, err.Error(), "with one run a game on a side, the runs of one campaign cannot interleave either: give gdlperf run --reps 4 or more")
}

// Runs of two workloads on one game are one run a cell each.
func TestOneRunAGameIsPerSetup(t *testing.T) {
	rows := []results.Row{{GameKey: "G", Mode: "time", TargetSeconds: 2}, {GameKey: "G", Mode: "time", TargetSeconds: 2, Workload: "uct", WorkloadBudget: "iterations=0"}}
	assert.True(t, oneRunAGame(rows))
	assert.False(t, oneRunAGame(append(rows, rows[0])))
}
