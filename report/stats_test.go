package report

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
)

func TestAnalyzeGroupsByMachine(t *testing.T) {
	_, c := fixture(t)
	require.Len(t, c.Groups, 2)
	m1, m2 := machine(t, c, rt.Machine1), machine(t, c, rt.Machine2)
	assert.Equal(t, []Version{propnet2, propnet3, prover1, solo1}, m1.Versions, "by engine, then oldest first")
	assert.Equal(t, []Version{propnet2, prover1}, m2.Versions)
	assert.Len(t, m1.Games, 9)
	assert.Equal(t, []string{rt.TicTacToe}, m2.Games)

	// Machine 2's single run never reaches machine 1's cell.
	c1, c2 := m1.Cell(rt.TicTacToe, prover1), m2.Cell(rt.TicTacToe, prover1)
	assert.Len(t, c1.Runs, 7)
	assert.Len(t, c2.Runs, 1)
	assert.Equal(t, 10000.0, c1.Rate.Center)
	assert.Equal(t, 1000.0, c2.Rate.Center)
	assert.Equal(t, "2026-01-10", day(m1.First))
	assert.Equal(t, []string{"host-m1"}, m1.Hosts)
}

func TestCellStatistics(t *testing.T) {
	_, c := fixture(t)
	m := machine(t, c, rt.Machine1)
	tests := []struct {
		name       string
		game       string
		v          Version
		wantOK     int
		wantFailed int
		wantMedian float64
		wantFinite bool // a finite 95% interval needs 6 runs
	}{
		{"seven ok runs", rt.TicTacToe, prover1, 7, 0, 10000, true},
		{"one of five failed", rt.Hex, propnet2, 4, 1, 3005, false},
		{"every run failed", rt.Hex, prover1, 0, 5, 0, false},
		{"zero state changes", rt.Zero, propnet2, 7, 0, 0, true},
		{"one repetition", rt.SpeedChess, prover1, 1, 0, 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cell := m.Cell(tt.game, tt.v)
			require.NotNil(t, cell)
			assert.Equal(t, tt.wantOK, cell.OK)
			assert.Equal(t, tt.wantFailed, cell.Failed())
			assert.Equal(t, tt.wantMedian, cell.Rate.Center)
			assert.Equal(t, tt.wantOK > 0, cell.Measured())
			if cell.Measured() {
				assert.Equal(t, tt.wantFinite, finite(cell.Rate.Lo) && finite(cell.Rate.Hi))
			}
		})
	}
	cell := m.Cell(rt.TicTacToe, prover1)
	assert.Equal(t, 500.0, cell.Rollouts, "median rollouts per second")
	assert.Equal(t, 43.0, cell.InitMs)
	assert.Equal(t, int64(30600), cell.PeakRSSKiB)
	assert.Equal(t, 0.2, m.Cell(rt.Hex, propnet2).ErrorRate())
}

// With 6 or more runs the interval of the median is finite, as benchstat's.
func TestCellIntervalWithSixRuns(t *testing.T) {
	rows := rt.Rows()[:0]
	for i, v := range []int64{100, 101, 99, 102, 98, 100} {
		r := rt.Rows()[0]
		r.Repetition, r.StateChanges, r.RunKey = i, v*2, "x"+string(rune('a'+i))
		rows = append(rows, r)
	}
	c := Analyse(rows)
	cell := c.Groups[0].Cell(rows[0].GameKey, prover1)
	assert.Equal(t, 100.0, cell.Rate.Center)
	assert.Equal(t, 98.0, cell.Rate.Lo)
	assert.Equal(t, 102.0, cell.Rate.Hi)
	assert.Equal(t, "±2%", FormatSpread(cell.Rate))
}

func TestComparePairOutcomes(t *testing.T) {
	_, c := fixture(t)
	m := machine(t, c, rt.Machine1)
	p := ComparePair(m, propnet2, prover1)
	byGame := map[string]PairGame{}
	for _, g := range p.Games {
		byGame[g.Game] = g
	}
	tests := []struct {
		game        string
		wantOutcome Outcome
		wantRatio   float64
		wantSign    int
	}{
		{rt.TicTacToe, Compared, 5, 1},
		{rt.ConnectFour, Compared, 4, 1},
		{rt.Hex, FailB, math.NaN(), 0},
		{rt.Zero, ZeroA, 0, -1},
		{rt.SpeedChess, Compared, 7, 0},
		{rt.OnlyOne, 0, 0, 0}, // not in the pair: neither ran it
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			g, ok := byGame[tt.game]
			if tt.game == rt.OnlyOne {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.wantOutcome, g.Outcome)
			if math.IsNaN(tt.wantRatio) {
				assert.True(t, math.IsNaN(g.Ratio))
			} else {
				assert.InDelta(t, tt.wantRatio, g.Ratio, 1e-9)
			}
			assert.Equal(t, tt.wantSign, g.Sign)
		})
	}
	assert.False(t, byGame[rt.SpeedChess].Testable, "one run each cannot be significant")
	assert.True(t, byGame[rt.TicTacToe].Testable)
}

// The geometric mean is never poisoned: a zero rate and a failure are
// excluded and counted with their reasons.
func TestSummaryExcludesZerosAndFailures(t *testing.T) {
	_, c := fixture(t)
	m := machine(t, c, rt.Machine1)
	s := ComparePair(m, propnet2, prover1).Summary
	assert.Equal(t, 8, s.Games)
	assert.Equal(t, 6, s.Compared)
	assert.Equal(t, 2, s.ExcludedGames)
	require.Len(t, s.Excluded, 2)
	assert.Equal(t, ZeroA, s.Excluded[0].Outcome)
	assert.Equal(t, []string{rt.Zero}, s.Excluded[0].Games)
	assert.Contains(t, s.Excluded[0].Reason, "propnet@2-bbb ran ok but made 0 state changes")
	assert.Equal(t, FailB, s.Excluded[1].Outcome)
	assert.Equal(t, []string{rt.Hex}, s.Excluded[1].Games)
	assert.Equal(t, []string{rt.Hex}, s.OnlyBFailed)
	assert.Empty(t, s.OnlyAFailed)
	assert.Equal(t, 1, s.PartialFailuresA)

	// Ratios: ticTacToe 5, connectFour 4, script 3, breakthrough 4, reversi 6.25, speedChess 7.
	assert.InDelta(t, 4.5, s.Median, 1e-9)
	want := math.Pow(5*4*3*4*6.25*7, 1.0/6)
	assert.InDelta(t, want, s.GeoMean, 1e-9)
	assert.InDelta(t, (50000+8000+900+4000+5000+700)/(10000+2000+300+1000+800+100.0), s.SumRatio, 1e-9)
	assert.Equal(t, 6, s.Wins, "zero rate is a loss, failures are neither")
	assert.Equal(t, 1, s.Losses)
	assert.Equal(t, 5, s.SigWins)
	assert.Equal(t, 1, s.SigLosses)
	assert.Equal(t, 1, s.Untestable)
	assert.NotZero(t, s.GeoMean)
}

func TestSummaryOfNothingIsNaN(t *testing.T) {
	s := Summarize(nil, "a", "b")
	assert.True(t, math.IsNaN(s.GeoMean))
	assert.True(t, math.IsNaN(s.Median))
	assert.Equal(t, "—", FormatRatio(s.GeoMean))
}

func TestParseVersion(t *testing.T) {
	assert.Equal(t, Version{"prover", "1-abc"}, ParseVersion("prover@1-abc"))
	assert.Equal(t, Version{"prover", ""}, ParseVersion("prover"))
	assert.Equal(t, "prover", Version{"prover", ""}.String())
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"rate zero", FormatRate(0), "0"},
		{"rate small", FormatRate(0.5), "0.500"},
		{"rate", FormatRate(12.34), "12.3"},
		{"rate k", FormatRate(45678), "45.7k"},
		{"rate rounds up a prefix", FormatRate(999999), "1.00M"},
		{"ratio", FormatRatio(383.55145), "383.6"},
		{"ratio 1", FormatRatio(1.0523), "1.052"},
		{"ratio small", FormatRatio(0.048171), "0.04817"},
		{"ratio inf", FormatRatio(math.Inf(1)), "∞"},
		{"ratio nan", FormatRatio(math.NaN()), "—"},
		{"interval", FormatInterval(0.95, 1.1), "[0.9500, 1.100]"},
		{"interval unbounded", FormatInterval(0, math.Inf(1)), "±∞"},
		{"percent", FormatPercent(0.2), "20%"},
		{"kib", FormatKiB(30400), "29.7 MiB"},
		{"ms", FormatMs(42), "42 ms"},
		{"ms unknown", FormatMs(-1), "—"},
		{"tick", tickRate(1000), "1k"},
		{"tick ratio", tickRatio(0.01), "0.01"},
		{"plain", plain("a\tb\x1b[31m\n"), "a?b?[31m?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.got) })
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct {
		name string
		key  string
	}{
		{"game key", "BASE/ticTacToe/JRFsaQ"},
		{"traversal", "../../etc/passwd"},
		{"dot dot", ".."},
		{"empty", ""},
		{"leading dash", "-rf"},
		{"html", `<script>alert("x")</script>`},
		{"nul and newline", "a\x00b\nc"},
		{"long", string(make([]byte, 300))},
		{"unicode", "Spiel/Mühle/äöü"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := SafeName(tt.key)
			assert.Regexp(t, `^[A-Za-z0-9_][A-Za-z0-9_-]{0,47}-[0-9a-f]{10}$`, n)
			assert.Equal(t, n, SafeName(tt.key), "deterministic")
			if k, dup := seen[n]; dup {
				t.Errorf("%q and %q share the name %s", k, tt.key, n)
			}
			seen[n] = tt.key
		})
	}
	assert.NotEqual(t, SafeName("BASE/Hex/x"), SafeName("BASE/hex/x"), "names differ on case-insensitive file systems")
	assert.NotEqual(t, SafeName("a/b"), SafeName("a_b"))
}

func TestFormatPercent(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{{0, "0%"}, {1, "100%"}, {0.2, "20%"}, {0.005, "0.5%"}, {0.000255, "0.026%"}, {0.0000012, "0.00012%"}} {
		assert.Equal(t, tt.want, FormatPercent(tt.f), "%v", tt.f)
	}
}
