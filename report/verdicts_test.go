package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchmath"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

// runs builds ok rows of one engine version on one game: one per rate (in
// state changes per second, over 1 s), started on the given day of
// January 2026 at the given minute plus the repetition, 2 s runs.
type runs struct {
	engine, version, game string
	day, minute           int
	rates                 []float64
}

func (r runs) rows() []results.Row {
	out := make([]results.Row, len(r.rates))
	for i, rate := range r.rates {
		out[i] = results.Row{
			RunKey:  fmt.Sprintf("%s@%s/%s/%d", r.engine, r.version, r.game, i),
			GameKey: r.game, Engine: r.engine, EngineVersion: r.version, Repetition: i,
			Status: results.StatusOK, StartTime: fmt.Sprintf("2026-01-%02dT%02d:%02d:00Z", r.day, 10+(r.minute+i)/60, (r.minute+i)%60),
			Mode: "time", TargetSeconds: 2, Machine: "m", MillisecondsTaken: 1000, StateChanges: int64(math.Round(rate)),
			TimedCPUMs: 1000, CPUShare: "1.000",
		}
	}
	return out
}

func concat(sets ...[]results.Row) []results.Row { return slices.Concat(sets...) }

// jitter returns n rates around center, spread by a fixed pattern (the
// same for every call with the same n), all distinct.
func jitter(center float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = center * (1 + 0.004*float64(i%5-2) + 0.0003*float64(i))
	}
	return out
}

func verdictsOf(d *Diff) map[string]Verdict {
	got := map[string]Verdict{}
	for _, t := range d.Tables {
		for _, g := range t.Games {
			got[g.Game] = g.Verdict
		}
	}
	return got
}

func TestContendedRule(t *testing.T) {
	tests := []struct {
		name    string
		row     results.Row
		want    bool
		wantWhy string
	}{
		{"marked by the harness", results.Row{CPUShare: "0.640", Contended: true}, true, "contended: 0.64 of a CPU"},
		{"marked, share unknown", results.Row{Contended: true}, true, "contended (marked by the harness)"},
		{"share measured, above the harness's threshold", results.Row{CPUShare: "0.850"}, false, ""},
		{"old row, fallback under 0.9", results.Row{UserCPUMs: 600, SystemCPUMs: 40, WallMs: 1000}, true, "contended: 0.64 of a CPU (user+system over wall time, setup included)"},
		{"old row, fallback above 0.9", results.Row{UserCPUMs: 950, SystemCPUMs: 30, WallMs: 1000}, false, ""},
		{"no CPU time recorded", results.Row{WallMs: 1000}, false, ""},
		{"imported gdl-perf row", results.Row{}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := contended(&tt.row)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantWhy, why)
		})
	}
}

// An engine with unchanged code against itself, where half of NEW's runs
// got 0.64 of a CPU and ran 30% slower: no verdict of speed, the contended
// runs named and counted. (Pooled, NEW's median fell 15% and every game
// was "slower" at p < 0.01.)
func TestUnchangedEngineHalfContended(t *testing.T) {
	games := []string{"BASE/a/AAAAAA", "BASE/b/BBBBBB", "BASE/c/CCCCCC"}
	var old, new []results.Row
	for i, g := range games {
		old = append(old, runs{"e", "1", g, 1, 50 * i, jitter(1000, 16)}.rows()...)
		n := runs{"e", "2", g, 1, 50*i + 20, append(jitter(1000, 16), jitter(700, 16)...)}.rows()
		for j := 16; j < 32; j++ {
			n[j].CPUShare, n[j].Contended = "0.640", true
		}
		new = append(new, n...)
	}
	d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	for _, g := range games {
		assert.Equal(t, Same, verdictsOf(d)[g], g)
	}
	assert.Zero(t, d.Count(Slower)+d.Count(Faster))
	s := d.Tables[0].Summary
	assert.Equal(t, 48, s.ContendedA)
	assert.Equal(t, 0, s.ContendedB)
	assert.InDelta(t, 1, s.GeoMean, 0.005)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	out := b.String()
	assert.Contains(t, out, "left out BASE/a/AAAAAA: new run 16 (contended: 0.64 of a CPU), new run 17 (contended: 0.64 of a CPU)")
	assert.Contains(t, out, "; 48 runs left out as contended (0 old, 48 new)")

	// Every ok run of a side contended: no rate, no verdict but inconclusive.
	var allBad []results.Row
	for _, r := range new {
		if r.Contended {
			allBad = append(allBad, r)
		}
	}
	d, err = CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: allBad}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	assert.Equal(t, 3, d.Count(Inconclusive))
	b.Reset()
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "inconclusive BASE/a/AAAAAA: every ok run of new was contended (preempted: too little of a CPU)")
}

// A campaign on a machine that is never quiet: every run of both sides got
// 0.6 of a CPU, the new version doing twice the work per CPU-second. No
// verdict (every game inconclusive, exit 5 for compare), but the ratio per
// CPU-second is said as an indication, in parentheses, game by game and as
// a geometric mean; a game where the new side disagreed with the reference
// gives none. The index says the same instead of nothing.
func TestAllContendedIndication(t *testing.T) {
	games := []string{"BASE/a/AAAAAA", "BASE/b/BBBBBB", "BASE/c/CCCCCC"}
	contend := func(rows []results.Row, cpuMs int64) []results.Row {
		for i := range rows {
			rows[i].CPUShare, rows[i].Contended, rows[i].TimedCPUMs = "0.600", true, cpuMs
		}
		return rows
	}
	var old, new []results.Row
	for i, g := range games {
		old = append(old, contend(runs{"e", "1", g, 1, 50 * i, jitter(1000, 6)}.rows(), 600)...)
		new = append(new, contend(runs{"e", "2", g, 1, 50*i + 20, jitter(1000, 6)}.rows(), 300)...)
	}
	d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	assert.Equal(t, 3, d.Count(Inconclusive))
	s := d.Tables[0].Summary
	assert.Equal(t, 3, s.CPUGames)
	assert.InDelta(t, 2, s.CPUGeoMean, 0.01)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	out := b.String()
	assert.Regexp(t, `BASE/a/AAAAAA .* \(2\.0\d*\) +inconclusive`, out)
	assert.Contains(t, out, "(a ratio in parentheses): per CPU-second of every ok run, contended ones included")
	assert.Contains(t, out, "an indication only, not a verdict: new/old per CPU-second of every ok run, contended ones included, 2.0")

	site, err := Render(concat(old, new), WithBaseline("e@1"))
	require.NoError(t, err)
	idx := string(site.Page("index.html"))
	assert.Contains(t, idx, "an indication only, not a verdict: 2.0")
	assert.Contains(t, idx, "/CPU-s</a>")

	// The new side disagreed with the reference on one game: that game
	// gives no indication.
	for i := range new {
		if new[i].GameKey == games[0] {
			new[i].Status = results.StatusWrong
		}
	}
	d, err = CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	assert.Equal(t, 2, d.Tables[0].Summary.CPUGames)
}

// The two campaigns of the issue: the old version measured, then the new
// one, 30% slower, on a machine that had meanwhile got 57% faster (the
// reference engine shows it). Compared as they are, the new version looked
// 10% faster; compare refuses, and calibrated it finds the slow-down.
func TestSeparateCampaignsSlowdown(t *testing.T) {
	const machine = 1.57
	var games []string
	for i := range 10 {
		games = append(games, fmt.Sprintf("BASE/g%02d/AAAAAA", i))
	}
	var old, oldRef, new, newRef []results.Row
	for i, g := range games {
		base := 1000 * float64(i+1)
		old = append(old, runs{"e", "1", g, 1, 10 * i, jitter(base, 6)}.rows()...)
		oldRef = append(oldRef, runs{"prover", "1", g, 2, 10 * i, jitter(base/10, 6)}.rows()...)
		new = append(new, runs{"e", "2", g, 5, 10 * i, jitter(base*0.7*machine, 6)}.rows()...)
		newRef = append(newRef, runs{"prover", "1", g, 6, 10 * i, jitter(base/10*machine, 6)}.rows()...)
	}
	oldSide := Side{Label: "OLD", Rows: old, Context: oldRef}
	newSide := Side{Label: "NEW", Rows: new, Context: newRef}

	_, err := CompareSides(oldSide, newSide, DiffOptions{Noise: 0.02})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OLD and NEW are not comparable as they are: they are separate campaigns: their start times do not interleave (OLD: 2026-01-01T10:00:00Z – 2026-01-01T11:35:00Z; NEW: 2026-01-05T10:00:00Z – 2026-01-05T11:35:00Z)")
	assert.Contains(t, err.Error(), "the machine factor is 1.570 (prover on 10 games")
	assert.Contains(t, err.Error(), "--calibrate divides NEW's rates by it")

	d, err := CompareSides(oldSide, newSide, DiffOptions{Noise: 0.02, Calibrate: true})
	require.NoError(t, err)
	require.Len(t, d.Tables, 1)
	tb := d.Tables[0]
	assert.InDelta(t, machine, tb.Factor, 1e-3)
	assert.Contains(t, tb.Calibration, "machine factor 1.570 from prover on 10 games, 95% interval [")
	assert.Equal(t, 10, d.Count(Slower))
	assert.Zero(t, d.Count(Faster))
	assert.InDelta(t, 0.7, tb.Summary.GeoMean, 1e-3)
	assert.Equal(t, Slower, tb.Overall)

	// Without the reference in one campaign, there is nothing to calibrate
	// with: refused either way.
	for _, calibrate := range []bool{false, true} {
		_, err = CompareSides(Side{Label: "OLD", Rows: old}, newSide, DiffOptions{Noise: 0.02, Calibrate: calibrate})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "OLD has no runs of the reference engine prover on machine m in 2 s")
	}
	// The reference must not be the engine compared.
	_, err = CompareSides(Side{Label: "OLD", Rows: oldRef}, Side{Label: "NEW", Rows: newRef}, DiffOptions{Calibrate: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the reference engine prover is the engine compared; name another with --reference")
}

// Within one interleaved campaign, sides whose loads differ markedly are
// refused too.
func TestDifferentConditionsRefused(t *testing.T) {
	old := runs{"e", "1", "BASE/a/AAAAAA", 1, 0, jitter(1000, 6)}.rows()
	new := runs{"e", "2", "BASE/a/AAAAAA", 1, 1, jitter(1000, 6)}.rows()
	for i := range old {
		old[i].LoadAverage, old[i].Cores = "0.40", 2
		new[i].LoadAverage, new[i].Cores = "5.00", 2
	}
	one, known := OneCampaign(conditionsOf(old), conditionsOf(new))
	require.True(t, known)
	require.True(t, one, "the start times interleave")
	_, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "their median loads differ by more than 1 per core (0.20 and 2.50)")
}

func TestTooFewRepetitions(t *testing.T) {
	game := "BASE/a/AAAAAA"
	tests := []struct {
		name      string
		n         int
		want      Verdict
		wantNeeds string
	}{
		{"3 and 3 can never reach p < 0.05", 3, Inconclusive, "needs at least 4 ok runs per side; has 3 (new) and 3 (old)"},
		{"4 and 4 can", 4, Slower, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := runs{"e", "1", game, 1, 0, jitter(1000, tt.n)}.rows()
			new := runs{"e", "2", game, 1, 1, jitter(700, tt.n)}.rows()
			d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
			require.NoError(t, err)
			g := d.Tables[0].Games[0]
			assert.Equal(t, tt.want, g.Verdict)
			assert.Equal(t, tt.wantNeeds, g.Needs("new", "old"))
			if tt.want == Inconclusive {
				assert.Equal(t, 4, d.RunsNeeded())
			}
		})
	}
}

func TestRunsNeeded(t *testing.T) {
	assert.InDelta(t, 0.1, minP(3, 3), 1e-12)
	assert.InDelta(t, 2.0/70, minP(4, 4), 1e-12)
	assert.InDelta(t, 2.0/56, minP(3, 5), 1e-12)
	assert.Equal(t, 1.0, minP(1, 1))
	assert.Equal(t, 4, RunsNeeded(0.05, 1))
	assert.Equal(t, 6, RunsNeeded(0.05, 20))
	assert.Equal(t, 9, RunsNeeded(0.05, 700))
	assert.False(t, canReject(3, 3, 0.05, 1))
	assert.True(t, canReject(3, 5, 0.05, 1), "3 against 5 can")
	// benchmath's own table agrees: 4 is where its U test stops warning.
	s3 := benchmath.NewSample([]float64{1, 2, 3}, &thresholds)
	s3b := benchmath.NewSample([]float64{4, 5, 6}, &thresholds)
	assert.InDelta(t, minP(3, 3), benchmath.AssumeNothing.Compare(s3, s3b).P, 1e-12)
}

// The null distribution of U matches a count over every arrangement.
func TestUCDF(t *testing.T) {
	for _, n := range [][2]int{{1, 1}, {2, 3}, {3, 3}, {4, 2}, {4, 5}} {
		n1, n2 := n[0], n[1]
		counts := make([]float64, n1*n2+1)
		total := 0.0
		// Every subset of n1 positions among n1+n2 for the first sample.
		for mask := 0; mask < 1<<(n1+n2); mask++ {
			if popcount(mask) != n1 {
				continue
			}
			u, below := 0, 0
			for i := range n1 + n2 {
				if mask&(1<<i) != 0 {
					u += below // first-sample value above `below` second-sample values
				} else {
					below++
				}
			}
			counts[u]++
			total++
		}
		cdf := uCDF(n1, n2)
		sum := 0.0
		for u := range counts {
			sum += counts[u]
			assert.InDelta(t, sum/total, cdf[u], 1e-12, "n1=%d n2=%d u=%d", n1, n2, u)
		}
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// The interval shown is the one the test implies: without ties it excludes
// 1 exactly when the unadjusted U test rejects at 0.05.
func TestRatioCIAgreesWithTheTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for trial := range 300 {
		n1, n2 := 4+rng.IntN(5), 4+rng.IntN(5)
		shift := 1 + 0.03*rng.NormFloat64()
		a, b := make([]float64, n1), make([]float64, n2)
		for i := range a {
			a[i] = 1000 * shift * (1 + 0.02*rng.NormFloat64())
		}
		for i := range b {
			b[i] = 1000 * (1 + 0.02*rng.NormFloat64())
		}
		lo, hi := ratioCI(a, b, Confidence)
		require.LessOrEqual(t, lo, hi)
		p := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(b), &thresholds), benchmath.NewSample(slices.Clone(a), &thresholds)).P
		assert.Equal(t, p < 0.05, lo > 1 || hi < 1, "trial %d: p %.4f, interval [%.4f, %.4f]", trial, p, lo, hi)
	}
}

func TestHolm(t *testing.T) {
	got := holm([]float64{0.01, 0.04, 0.03, math.NaN(), 0.005})
	want := []float64{0.03, 0.06, 0.06, math.NaN(), 0.02}
	for i := range want {
		if math.IsNaN(want[i]) {
			assert.True(t, math.IsNaN(got[i]))
			continue
		}
		assert.InDelta(t, want[i], got[i], 1e-12, "p %d", i)
	}
	assert.Equal(t, []float64{0.7}, holm([]float64{0.7}), "one test is not adjusted")
	assert.Equal(t, []float64{1, 1}, holm([]float64{0.7, 0.9}), "capped at 1")
}

// Twenty games of pure noise at 10 runs a side: some unadjusted p-value
// falls under 0.05 (so one game would have been called slower or faster),
// yet after Holm's adjustment no game is.
func TestNoFalseVerdictOverManyGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	var old, new []results.Row
	for i := range 20 {
		g := fmt.Sprintf("BASE/noise%02d/AAAAAA", i)
		noise := func() []float64 {
			xs := make([]float64, 10)
			for j := range xs {
				xs[j] = 1000 * (1 + 0.03*rng.NormFloat64())
			}
			return xs
		}
		old = append(old, runs{"e", "1", g, 1, 40 * i, noise()}.rows()...)
		new = append(new, runs{"e", "2", g, 1, 40*i + 20, noise()}.rows()...)
	}
	d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{})
	require.NoError(t, err)
	raw := 1.0
	for _, g := range d.Tables[0].Games {
		raw = min(raw, g.Cmp.P)
		assert.Equal(t, 20, g.Tests)
		assert.GreaterOrEqual(t, g.P, g.Cmp.P)
	}
	require.Less(t, raw, 0.05, "the seed must give an unadjusted false positive, or the test proves nothing")
	assert.Zero(t, d.Count(Slower))
	assert.Zero(t, d.Count(Faster))
	assert.Equal(t, 20, d.Count(Same))
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "p-values adjusted by Holm over 20 games")
}

// Runs of 2 s and of 3 s of one engine on one game are two cells, never
// one median; compare does not compare them.
func TestSetupsNotPooled(t *testing.T) {
	game := "BASE/a/AAAAAA"
	two := runs{"e", "1", game, 1, 0, jitter(1000, 5)}.rows()
	three := runs{"e", "1", game, 1, 10, jitter(1500, 5)}.rows()
	for i := range three {
		three[i].TargetSeconds = 3
		three[i].RunKey += "/3s"
	}
	c := Analyse(concat(two, three))
	require.Len(t, c.Groups, 2)
	assert.Equal(t, "2 s", c.Groups[0].Setup.String())
	assert.Equal(t, "3 s", c.Groups[1].Setup.String())
	for i, want := range []float64{1000, 1500} {
		cell := c.Groups[i].Cell(game, Version{"e", "1"})
		require.NotNil(t, cell)
		assert.Len(t, cell.Runs, 5)
		assert.InDelta(t, want, cell.Rate.Center, want*0.01)
	}

	// Other dimensions split too; a failed imported run of unknown length
	// joins the one length of its machine.
	rows := concat(two)
	w := two[0]
	w.Workload, w.WorkloadBudget, w.RunKey = "mcts", "playouts=100", "w"
	tr := two[0]
	tr.Transform, tr.TransformSeed, tr.RunKey = "shuffle", 3, "t"
	unknown := two[0]
	unknown.TargetSeconds, unknown.Status, unknown.RunKey = 0, results.StatusError, "u"
	c = Analyse(append(rows, w, tr, unknown))
	var setups []string
	for _, m := range c.Groups {
		setups = append(setups, m.Setup.String())
	}
	assert.Equal(t, []string{"2 s", "2 s, transform shuffle (seed 3)", "2 s, workload mcts (playouts=100)"}, setups)
	assert.Len(t, c.Groups[0].Cell(game, Version{"e", "1"}).Runs, 6)

	new := runs{"e", "2", game, 1, 20, jitter(1500, 5)}.rows()
	for i := range new {
		new[i].TargetSeconds = 3
	}
	_, err := CompareSides(Side{Label: "OLD", Rows: two}, Side{Label: "NEW", Rows: new}, DiffOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OLD and NEW have no runs of the same setup on the same machine (2 s; 3 s)")
}

// A 0.9984× difference with no significant game is not red anywhere: not
// on the index, not on the engine page, not on the pair page.
func TestColoursFollowSignificance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []results.Row
	for i := range 6 {
		g := fmt.Sprintf("BASE/g%d/AAAAAA", i)
		noise := func(c float64) []float64 {
			xs := make([]float64, 7)
			for j := range xs {
				xs[j] = c * (1 + 0.02*rng.NormFloat64())
			}
			return xs
		}
		rows = append(rows, runs{"prover", "1", g, 1, 20 * i, noise(1000)}.rows()...)
		rows = append(rows, runs{"other", "1", g, 1, 20*i + 10, noise(998.4)}.rows()...)
	}
	c := Analyse(rows)
	p := ComparePair(c.Groups[0], Version{"other", "1"}, Version{"prover", "1"})
	require.Zero(t, p.Summary.SigWins+p.Summary.SigLosses, "no game may be significant")
	require.Less(t, p.Summary.Median, 1.0)
	require.Less(t, p.Summary.GeoMean, 1.0)
	assert.Equal(t, 0, p.Summary.Overall)

	site, err := Render(rows, WithBaseline("prover"))
	require.NoError(t, err)
	index := string(site.Page("index.html"))
	median := times(p.Summary.Median)
	assert.Contains(t, index, `<td class="n ">`+median+`</td>`)
	assert.NotContains(t, index, `class="n bad"`)
	engine := string(site.Page(engineHref(Version{"other", "1"})))
	assert.NotContains(t, engine, `class="big bad"`)
	assert.NotContains(t, engine, `class="n bad"`)
	pair := string(site.Page(pairHref(versionPair{Version{"other", "1"}, Version{"prover", "1"}})))
	assert.NotContains(t, pair, `class="bad"`)
	assert.NotContains(t, pair, `class="big bad"`)
}

// A contended run is on its game's page, struck out with its reason, and
// its cell's rate is the median of the other runs.
func TestGamePageStrikesContendedRuns(t *testing.T) {
	rows := rt.Rows()
	c := Analyse(rows)
	cell := machine(t, c, rt.Machine1).Cell(rt.Reversi, propnet3)
	require.Len(t, cell.Contended, 1)
	assert.Equal(t, 8, cell.OK)
	assert.Equal(t, 7, cell.Kept())
	assert.Equal(t, 5050.0, cell.Rate.Center, "the contended run's 3000 is left out")
	site, err := Render(rows)
	require.NoError(t, err)
	page := string(site.Page(gameHref(rt.Reversi)))
	assert.Contains(t, page, `<s title="contended: 0.64 of a CPU: left out of the rate and every verdict">3.00k</s>`)
	assert.Contains(t, page, `8/8 <span class="note">(1 contended, left out)</span>`)
	assert.True(t, strings.Contains(page, `<th class="n">states/CPU-s</th>`), "the CPU-second rate beside the wall-second one")
}

// A cell whose every ok run was contended has no rate: the pages say so
// and leave it out of ranks and summaries, without failing.
func TestAllContendedCellOnPages(t *testing.T) {
	game := "BASE/a/AAAAAA"
	bad := runs{"other", "1", game, 1, 10, jitter(600, 4)}.rows()
	for i := range bad {
		bad[i].CPUShare, bad[i].Contended = "0.500", true
	}
	rows := concat(runs{"prover", "1", game, 1, 0, jitter(1000, 4)}.rows(), bad)
	c := Analyse(rows)
	cell := c.Groups[0].Cell(game, Version{"other", "1"})
	require.True(t, cell.AllContended())
	assert.False(t, cell.Measured())
	assert.Zero(t, cell.Failed())
	p := ComparePair(c.Groups[0], Version{"other", "1"}, Version{"prover", "1"})
	assert.Equal(t, ContendedA, p.Games[0].Outcome)
	assert.Equal(t, "every ok run of other@1 was contended (preempted: too little of a CPU)", p.Summary.Excluded[0].Reason)

	site, err := Render(rows, WithBaseline("prover"))
	require.NoError(t, err)
	assert.Contains(t, string(site.Page("index.html")), "⊘ 599/CPU-s", "its CPU-second rate, as an indication")
	assert.Contains(t, string(site.Page(gameHref(game))), `<td class="n">contended</td>`)
	assert.Contains(t, string(site.Page(pairHref(versionPair{Version{"other", "1"}, Version{"prover", "1"}}))), "no verdict: every ok run of other@1 was contended")

	// Runs that did not report their CPU time give no indication.
	for i := range bad {
		bad[i].TimedCPUMs = 0
	}
	site, err = Render(concat(runs{"prover", "1", game, 1, 0, jitter(1000, 4)}.rows(), bad), WithBaseline("prover"))
	require.NoError(t, err)
	assert.Contains(t, string(site.Page("index.html")), ">⊘ contended</a>")
}

// Twenty games 5% slower, each with too few runs for a verdict after the
// adjustment over 20 games: every game is inconclusive, but the geometric
// mean, with its own interval, is slower.
func TestOverallVerdictOnTheGeometricMean(t *testing.T) {
	var old, new []results.Row
	for i := range 20 {
		g := fmt.Sprintf("BASE/g%02d/AAAAAA", i)
		base := 1000 * float64(i+1)
		old = append(old, runs{"e", "1", g, 1, 10 * i, jitter(base, 4)}.rows()...)
		new = append(new, runs{"e", "2", g, 1, 10*i + 5, jitter(base*0.95, 4)}.rows()...)
	}
	d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	assert.Equal(t, 20, d.Count(Inconclusive))
	assert.Equal(t, 6, d.RunsNeeded())
	tb := d.Tables[0]
	assert.Equal(t, Slower, tb.Overall)
	assert.Less(t, tb.Summary.GeoHi, 0.98)
	assert.Equal(t, []*DiffTable{tb}, d.Overall(Slower))
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	assert.Regexp(t, `new/old geomean 0\.95\d\d \[0\.9\d+, 0\.9\d+\] \(slower\)`, b.String())
}

// Many games inconclusive for one reason take one line.
func TestInconclusiveGamesGrouped(t *testing.T) {
	var old, new []results.Row
	for i := range 7 {
		g := fmt.Sprintf("BASE/g%02d/AAAAAA", i)
		old = append(old, runs{"e", "1", g, 1, 2 * i, jitter(1000, 1)}.rows()...)
		new = append(new, runs{"e", "2", g, 1, 2*i + 1, jitter(1000, 1)}.rows()...)
	}
	old = append(old, runs{"e", "1", "BASE/z/AAAAAA", 1, 20, jitter(1000, 2)}.rows()...)
	new = append(new, runs{"e", "2", "BASE/z/AAAAAA", 1, 21, jitter(1000, 2)}.rows()...)
	d, err := CompareSides(Side{Label: "OLD", Rows: old}, Side{Label: "NEW", Rows: new}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "\ninconclusive, 7 games (BASE/g00/AAAAAA, BASE/g01/AAAAAA, BASE/g02/AAAAAA, BASE/g03/AAAAAA, BASE/g04/AAAAAA and 2 more): needs at least 6 ok runs per side (p-values adjusted over 8 games); has 1 (new) and 1 (old)\n")
	assert.Contains(t, b.String(), "\ninconclusive BASE/z/AAAAAA: needs at least 6 ok runs per side (p-values adjusted over 8 games); has 2 (new) and 2 (old)\n")
}

// In the matrix, an engine 7% behind the fastest with runs that cannot
// tell them apart takes the fastest's shade; with runs too few to test, the
// point estimate shades it.
func TestMatrixShadeFollowsSignificance(t *testing.T) {
	game := "BASE/a/AAAAAA"
	tests := []struct {
		name      string
		fast      []float64
		slow      []float64
		wantClass string
		wantTitle string
	}{
		{"overlapping runs", []float64{1000, 900, 1100, 950, 1050, 1000, 980}, []float64{930, 1040, 860, 990, 900, 930, 950}, "q0", "not significantly slower (p "},
		{"clearly slower", jitter(1000, 7), jitter(930, 7), "q1", "93% of the fastest"},
		{"one run each", []float64{1000}, []float64{930}, "q1", "93% of the fastest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := concat(runs{"fast", "1", game, 1, 0, tt.fast}.rows(), runs{"slow", "1", game, 1, 10, tt.slow}.rows())
			c := Analyse(rows)
			m := c.Groups[0]
			cell := matrixCellOf(m.Cell(game, Version{"slow", "1"}), measuredCells(m, game)[0])
			assert.Equal(t, tt.wantClass, cell.Class)
			assert.Contains(t, cell.Title, tt.wantTitle)
		})
	}
}

// Above 50 runs a side the interval uses the normal approximation of U: it
// still brackets the true ratio and excludes 1 for a clear difference.
func TestRatioCILargeSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	sample := func(c float64, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = c * (1 + 0.02*rng.NormFloat64())
		}
		return xs
	}
	lo, hi := ratioCI(sample(1000, 60), sample(1000, 70), Confidence)
	assert.Less(t, lo, 1.0)
	assert.Greater(t, hi, 1.0)
	lo, hi = ratioCI(sample(900, 60), sample(1000, 70), Confidence)
	assert.Less(t, hi, 1.0)
	assert.Greater(t, lo, 0.85)
	assert.Less(t, lo, 0.9)
}

// The engine page says which design an engine kept per game (the propnet's
// lanes, the compiled program's magic sets) when its runs name one, and
// has no design column when none does.
func TestEnginePageDesignColumn(t *testing.T) {
	game1, game2 := "BASE/a/AAAAAA", "BASE/b/BBBBBB"
	lanes := runs{"propnet", "1", game1, 1, 0, jitter(1000, 3)}.rows()
	single := runs{"propnet", "1", game2, 1, 0, jitter(900, 3)}.rows()
	for i := range lanes {
		lanes[i].Design = "lanes"
		single[i].Design = "one at a time"
	}
	site, err := Render(concat(lanes, single, runs{"prover", "1", game1, 1, 0, jitter(100, 3)}.rows()))
	require.NoError(t, err)
	page := string(site.Page(engineHref(Version{"propnet", "1"})))
	assert.Contains(t, page, `>design</th>`)
	assert.Contains(t, page, `<td class="nw">lanes</td>`)
	assert.Contains(t, page, `<td class="nw">one at a time</td>`)
	prover := string(site.Page(engineHref(Version{"prover", "1"})))
	assert.NotContains(t, prover, `>design</th>`, "no column where no run names a design")
}
