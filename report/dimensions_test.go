package report

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

func renderDimensions(t *testing.T, opts ...Option) *Site {
	t.Helper()
	s, err := Render(rt.DimensionRows(), opts...)
	require.NoError(t, err)
	return s
}

// Sections come by workload, rollouts first, the untransformed runs before
// the transformed ones.
func TestSetupsOrderedByWorkload(t *testing.T) {
	c := Analyse(rt.DimensionRows())
	var got []string
	for _, m := range c.Groups {
		got = append(got, m.Setup.String())
	}
	assert.Equal(t, []string{
		"2 s",
		"2 s, transform optimise",
		"2 s, transform shuffle (seed 1)",
		"2 s, workload uct (iterations=200)",
		"2 s, workload pns (nodes=1000 role=first)",
	}, got)
}

// Every page reads per workload: a line of links to the first section of
// each workload, rollouts first, and each workload's figures in sections
// of their own: the index leads with one ranking per workload (propnet
// 5.6× the prover in rollouts, 3.0× in uct, 2.0× in pns), the pair page
// has a table per workload, never one that mixes them.
func TestPagesReadPerWorkload(t *testing.T) {
	s := renderDimensions(t)
	nav := regexp.MustCompile(`<nav class="workloads">Read per workload: (.*)</nav>`)
	tests := []struct {
		name, path string
		wantNav    []string // workloads in order
		want       []string // in this order on the page
	}{
		{"index", "index.html", []string{"rollouts", "uct", "pns"}, []string{
			`5.646× faster than`, `2 s, workload uct (iterations=200) runs</h2>`, `3.010× faster than`, `2 s, workload pns (nodes=1000 role=first) runs</h2>`, `2.007× faster than`}},
		{"engine", engineHref(Version{"propnet", "2-bbb"}), []string{"rollouts", "uct", "pns"}, []string{
			`· 2 s runs</h2>`, `· 2 s, workload uct (iterations=200) runs</h2>`, `<dt>rate</dt><dd>state changes per second of the uct search`, `· 2 s, workload pns (nodes=1000 role=first) runs</h2>`}},
		{"game", gameHref(rt.BuiltinTicTacToe), []string{"rollouts", "uct", "pns"}, []string{`· 2 s runs</h2>`, `workload uct (iterations=200) runs</h2>`, `workload pns (nodes=1000 role=first) runs</h2>`}},
		{"history", historyHref("prover"), []string{"rollouts", "uct", "pns"}, []string{`· 2 s runs</h2>`, `workload uct (iterations=200) runs</h2>`, `workload pns (nodes=1000 role=first) runs</h2>`}},
		{"pair", pairHref(versionPair{Version{"propnet", "2-bbb"}, prover1}), []string{"rollouts", "uct", "pns"}, []string{
			`· 2 s runs</h2>`, `5.646×</span> over the same 3 games`, `workload uct (iterations=200) runs</h2>`, `3.010×</span> over the same 3 games`, `workload pns (nodes=1000 role=first) runs</h2>`, `2.007×</span> over the same 3 games`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := string(s.Page(tt.path))
			require.NotEmpty(t, page)
			m := nav.FindStringSubmatch(page)
			require.NotNil(t, m, "the page has a workload selector")
			var got []string
			for _, a := range regexp.MustCompile(`<a href="#[^"]+">([^<]+)</a>`).FindAllStringSubmatch(m[1], -1) {
				got = append(got, a[1])
			}
			assert.Equal(t, tt.wantNav, got)
			for _, a := range regexp.MustCompile(`<a href="#([^"]+)">`).FindAllStringSubmatch(m[1], -1) {
				assert.Contains(t, page, `id="`+a[1]+`"`, "the selector's link leads to a section")
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(page[at:], w)
				if !assert.GreaterOrEqual(t, i, 0, "%q after offset %d", w, at) {
					break
				}
				at += i + len(w)
			}
		})
	}
	// One workload: no selector.
	assert.NotContains(t, string(renderFixture(t).Page("index.html")), `<nav class="workloads">`)
}

// The robustness bounds: robust when the interval lies within [0.9, 1.1],
// not robust when it lies wholly beyond, else the runs cannot tell.
func TestRobustness(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		lo, hi float64
		want   int
	}{
		{"within", 0.95, 1.04, 1},
		{"on the bounds", 0.9, 1.1, 1},
		{"slower beyond", 0.4, 0.8, -1},
		{"faster beyond", 1.2, 1.5, -1},
		{"across the lower bound", 0.85, 1.0, 0},
		{"across both", 0.5, 2, 0},
		{"no interval", nan, nan, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, robustness(&PairSummary{GeoLo: tt.lo, GeoHi: tt.hi}))
		})
	}
}

// The words of robustness agree with the intervals: one transform beyond
// 10% makes an engine not robust; an interval across a bound, cannot tell.
func TestRobustVerdictWords(t *testing.T) {
	pair := func(gm, lo, hi float64, n int) *Pair {
		return &Pair{Summary: PairSummary{GeoMean: gm, GeoLo: lo, GeoHi: hi, Compared: n}}
	}
	nan := math.NaN()
	tests := []struct {
		name       string
		pairs      []*Pair
		wantWord   string
		wantClass  string
		wantDetail string
	}{
		{"robust", []*Pair{pair(1.01, 0.97, 1.05, 3), pair(0.99, 0.95, 1.03, 3)}, "robust", "good",
			"within 10% under every transform: a 1.010× [0.9700, 1.050], b 0.9900× [0.9500, 1.030]"},
		{"not robust", []*Pair{pair(0.5, 0.45, 0.55, 3), pair(1, 0.8, 1.2, 3)}, "not robust", "bad",
			"beyond 10% under a 0.5000× [0.4500, 0.5500]; the others: b 1.000× [0.8000, 1.200]"},
		{"cannot tell", []*Pair{pair(1, 0.97, 1.03, 3), pair(1.05, 0.85, 1.3, 3)}, "cannot tell", "",
			"the 95% interval is not within 10% and not beyond it under b 1.050× [0.8500, 1.300]; within 10% under a 1.000× [0.9700, 1.030]"},
		{"one game, no interval", []*Pair{pair(1, nan, nan, 1)}, "cannot tell", "",
			"the 95% interval is not within 10% and not beyond it under a 1.000× (no interval: 1 game)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rv := robustVerdict(prover1, []string{"a", "b"}[:len(tt.pairs)], tt.pairs)
			assert.Equal(t, tt.wantWord, rv.Word)
			assert.Equal(t, tt.wantClass, rv.Class)
			assert.Equal(t, tt.wantDetail, rv.Detail)
		})
	}
}

// Per engine, the sensitivity to each transform: a table of the ratio to
// the untransformed rules per game and as the geometric mean with its
// interval, coloured only where significant, and a chart with a row per
// transform; the game page holds the transforms side by side; the index
// says in words which engines are robust.
func TestTransformSensitivity(t *testing.T) {
	s := renderDimensions(t)
	prover := string(s.Page(engineHref(prover1)))
	propnet := string(s.Page(engineHref(Version{"propnet", "2-bbb"})))
	index := string(s.Page("index.html"))
	game := string(s.Page(gameHref(rt.BuiltinTicTacToe)))

	assert.Contains(t, prover, `<h3 id="transforms-machine-m1-fingerprint_2_s-`)
	assert.Contains(t, prover, `<strong class="bad">is not robust</strong> to how the rules are written (beyond 10% under optimise 1.304× [1.256, 1.354], shuffle 0.5016× [0.4831, 0.5209])`)
	// the geometric means, coloured: both intervals exclude 1
	assert.Contains(t, prover, `<td class="n good" title="optimise: geometric mean over 3 games"><strong>1.304×</strong></td><td class="n">[1.256, 1.354]</td><td class="n bad" title="shuffle: geometric mean over 3 games"><strong>0.5016×</strong></td><td class="n">[0.4831, 0.5209]</td>`)
	// a game: significant, coloured, with the interval that agrees
	assert.Contains(t, prover, `<td class="n bad" title="BUILTIN/tictactoe/UxIcqg: 0.5000×, 95% interval [0.4926, 0.5075], significantly slower">0.5000×</td>`)
	assert.Contains(t, prover, `aria-label="rate of prover@1-aaa under each transform relative to the untransformed rules, one dot per game"`)
	assert.Contains(t, prover, `0.9× and 1.1× (within 10%: robust)`)
	// the robust engine: geometric means within 10%, not coloured (their intervals hold 1)
	assert.Contains(t, propnet, `<strong class="good">is robust</strong> to how the rules are written (within 10% under every transform: optimise 1.003× [0.9661, 1.042], shuffle 1.003× [0.9661, 1.042])`)
	assert.Contains(t, propnet, `<td class="n " title="shuffle: geometric mean over 3 games"><strong>1.003×</strong></td>`)
	// the sections of the transformed runs carry no sensitivity of their own
	assert.Equal(t, 1, strings.Count(prover, "Sensitivity to rule transforms"))

	assert.Contains(t, index, `<h2 id="robust-machine-m1-fingerprint_2_s-`)
	assert.Regexp(t, `propnet@2-bbb</a> <strong class="good">is robust</strong> \(within 10% under every transform`, index)
	assert.Regexp(t, `prover@1-aaa</a> <strong class="bad">is not robust</strong> \(beyond 10% under optimise`, index)
	assert.Contains(t, index, `under every transform of the rules (optimise, shuffle)`)

	assert.Contains(t, game, `<h3>Under each rule transform</h3>`)
	assert.Contains(t, game, `<th class="n">untransformed states/s</th><th class="n">optimise states/s</th><th class="n">ratio</th><th class="n">shuffle states/s</th><th class="n">ratio</th>`)
	assert.Regexp(t, `prover@1-aaa</a></td><td class="n">10.0k</td><td class="n">13.0k</td><td class="n good" [^>]*>1.300× <span class="note">\[1.281, 1.320\]</span></td><td class="n">5.00k</td><td class="n bad" [^>]*>0.5000× <span class="note">\[0.4926, 0.5075\]</span></td>`, game)
	// no transforms, no such sections
	plain := renderFixture(t)
	assert.NotContains(t, string(plain.Page("index.html")), "Robustness to rule transforms")
	assert.NotContains(t, string(plain.Page(engineHref(propnet2))), "Sensitivity to rule transforms")
}

// CompareAcross compares one version's cells of two groups game by game,
// with Holm's adjustment, as ComparePair does within a group.
func TestCompareAcross(t *testing.T) {
	c := Analyse(rt.DimensionRows())
	f := transformFamilies(c.Groups)
	require.Len(t, f, 1)
	var fam *transformFamily
	for _, x := range f {
		fam = x
	}
	assert.Equal(t, []string{"optimise", "shuffle"}, fam.Labels)
	p := CompareAcross(fam.Variants[1], prover1, fam.Base, prover1)
	require.Len(t, p.Games, 3)
	for _, g := range p.Games {
		assert.Equal(t, Compared, g.Outcome)
		assert.Equal(t, 3, g.Tests)
		assert.Equal(t, -1, g.Sign, g.Game)
		assert.Less(t, g.Hi, 1.0, "the interval agrees with the verdict")
	}
	assert.InDelta(t, 0.5016, p.Summary.GeoMean, 1e-4)
	assert.Equal(t, -1, p.Summary.Overall)
}

// CompareSides pairs the groups of two transforms only when asked to
// (AcrossTransforms); a transform run with two seeds gives two tables.
func TestCompareSidesAcrossTransforms(t *testing.T) {
	var none, shuffle []results.Row
	for _, r := range rt.DimensionRows() {
		if r.Engine != "prover" || r.Workload != "" {
			continue
		}
		switch r.Transform {
		case "":
			none = append(none, r)
		case "shuffle":
			shuffle = append(shuffle, r)
			r.TransformSeed, r.RunKey = 2, r.RunKey+"-2"
			shuffle = append(shuffle, r)
		}
	}
	old, new := Side{Label: "none", Rows: none}, Side{Label: "shuffle", Rows: shuffle}
	_, err := CompareSides(old, new, DiffOptions{Noise: 0.02})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "have no runs of the same setup on the same machine")
	d, err := CompareSides(old, new, DiffOptions{Noise: 0.02, AcrossTransforms: true})
	require.NoError(t, err)
	require.Len(t, d.Tables, 2, "a table per seed")
	for i, tb := range d.Tables {
		assert.Equal(t, "none", tb.Setup.Transform)
		assert.Equal(t, "shuffle", tb.NewSetup.Transform)
		assert.Equal(t, uint64(i+1), tb.NewSetup.TransformSeed)
		assert.Equal(t, Slower, tb.Overall)
		assert.Equal(t, 3, tb.Count(Slower))
		assert.Contains(t, tb.heading(), "prover@1-aaa (untransformed) → prover@1-aaa (transform shuffle (seed")
	}
}

// The index has every engine version against every other on each machine
// and setup (with 3 versions or more): the geometric mean of the speedup
// with its interval, coloured only where the interval excludes 1, each
// pair's figures the inverse of each other, linked to the pair page.
func TestIndexVersusTable(t *testing.T) {
	site := renderFixture(t)
	index := string(site.Page("index.html"))
	require.Equal(t, 1, strings.Count(index, "<h3>Engines against each other</h3>"), "machine 1 only: machine 2 has 2 versions")
	cell := regexp.MustCompile(`<td class="n ([a-z]*)" title="([^"]+) over ([^"]+): geometric mean of the speedup per game over \d+ games?[^"]*"><a href="([^"]+)">([0-9.]+)×</a>( <span class="note">\[([0-9.e+-]+), ([0-9.e+-]+)\]</span>)?`)
	cells := cell.FindAllStringSubmatch(index, -1)
	require.Len(t, cells, 6, "the 3 pairs with a common game, both ways (solo has none)")
	ratio := map[[2]string]float64{}
	for _, c := range cells {
		r, err := strconv.ParseFloat(c[5], 64)
		require.NoError(t, err)
		ratio[[2]string{c[2], c[3]}] = r
		assert.NotNil(t, site.Page(c[4]), "the link leads to the pair's page")
		if c[6] != "" {
			lo, _ := strconv.ParseFloat(c[7], 64)
			hi, _ := strconv.ParseFloat(c[8], 64)
			want := map[bool]string{true: "", false: map[bool]string{true: "good", false: "bad"}[lo > 1]}[lo <= 1 && hi >= 1]
			assert.Equal(t, want, c[1], "%s over %s: the colour agrees with the interval [%g, %g]", c[2], c[3], lo, hi)
		} else {
			assert.Empty(t, c[1], "no interval, no colour")
		}
	}
	for k, r := range ratio {
		assert.InDelta(t, 1, r*ratio[[2]string{k[1], k[0]}], 0.01, "%v: the inverse of the other way", k)
	}
	assert.InDelta(t, 0.2137, ratio[[2]string{"prover@1-aaa", "propnet@2-bbb"}], 1e-4)
	assert.Contains(t, index, `title="solo@1 and prover@1-aaa: no game where both ran ok with state changes; `)
}

// The pages of workloads and transforms, uct charts included, are the same
// bytes for the same rows in any order.
func TestDimensionPagesDeterministic(t *testing.T) {
	rows := rt.DimensionRows()
	a, err := Render(rows, WithGameInfo(builtinInfo))
	require.NoError(t, err)
	shuffled := slices.Clone(rows)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b, err := Render(shuffled, WithGameInfo(builtinInfo))
	require.NoError(t, err)
	require.Equal(t, len(a.Pages), len(b.Pages))
	for i := range a.Pages {
		assert.Equal(t, string(a.Pages[i].Body), string(b.Pages[i].Body), a.Pages[i].Path)
	}
}

// A fixed-work setup says on its pages what its rates count (rollouts
// played as a trace plays them, a cost timed runs do not have), so that
// no one compares them with timed runs; a timed setup says nothing more.
func TestFixedWorkSetupSaysWhatItMeasures(t *testing.T) {
	rows := rt.Rows()
	for i := range rows {
		rows[i].Mode, rows[i].TargetRollouts = "rollouts", 100
	}
	s, err := Render(rows)
	require.NoError(t, err)
	const says = "<dt>rate</dt><dd>state changes per second of a fixed number of rollouts, played as a trace plays them"
	for _, path := range []string{"index.html", engineHref(prover1)} {
		page := string(s.Page(path))
		assert.Contains(t, page, "100 rollouts runs</h2>", path)
		assert.Contains(t, page, says, path)
		assert.Contains(t, page, "compare with fixed-work runs only, never with timed ones", path)
	}
	assert.NotContains(t, string(renderFixture(t).Page("index.html")), "played as a trace plays them")
}

// A uct cell whose runs made under one state change per iteration is
// tree-bound: the game page says which engines' uct rates measure the
// search more than the engine, and the engine page marks the rate; the
// pair page and compare give no verdict on it and leave it out of their
// summaries; a game whose playouts dominate gets none of this.
func TestUCTTreeBoundIsSaid(t *testing.T) {
	rows := rt.DimensionRows()
	bound := rt.BuiltinTicTacToe
	other := ""
	for i := range rows {
		r := &rows[i]
		if r.Workload != "uct" {
			continue
		}
		if r.GameKey == bound {
			r.Rollouts = r.StateChanges * 10 // 0.1 state changes per iteration
		} else {
			other = r.GameKey
		}
	}
	require.NotEmpty(t, other)
	s, err := Render(rows)
	require.NoError(t, err)
	note := "made under one state change per iteration (0.10, medians)"
	page := string(s.Page(gameHref(bound)))
	uct := page[strings.Index(page, "workload uct"):]
	assert.Contains(t, uct, "The uct runs of propnet@2-bbb, prover@1-aaa "+note)
	assert.NotContains(t, page[:strings.Index(page, "workload uct")], note, "only the uct section says it")
	assert.NotContains(t, string(s.Page(gameHref(other))), "made under one state change per iteration (")
	eng := string(s.Page(engineHref(Version{"propnet", "2-bbb"})))
	assert.Equal(t, 1, strings.Count(eng, `<span class="warn" title="0.10 state changes per iteration: most uct iterations walked a tree`), "the bound game's uct rate, and only it, is marked")

	// The pair page shows its ratio but leaves it out of the summary.
	pair := string(s.Page(pairHref(versionPair{Version{"propnet", "2-bbb"}, Version{"prover", "1-aaa"}})))
	pair = pair[strings.Index(pair, "workload uct"):]
	assert.Contains(t, pair, "over the same 2 games")
	assert.Contains(t, pair, "the uct runs made under one state change per iteration: the tree holds most of the game and the rate measures the search, not the engine")
	assert.Contains(t, pair, "no verdict: the uct runs made under one state change per iteration (propnet@2-bbb 0.10, prover@1-aaa 0.10)")

	// compare: no verdict on the bound game, said with why; the other
	// games' verdicts stand.
	var uctRows []results.Row
	for _, r := range rows {
		if r.Workload == "uct" {
			uctRows = append(uctRows, r)
		}
	}
	d, err := CompareSides(Side{Label: "prover", Rows: rt.Filter(uctRows, "prover", "1-aaa")}, Side{Label: "propnet", Rows: rt.Filter(uctRows, "propnet", "2-bbb")}, DiffOptions{Noise: 0.02})
	require.NoError(t, err)
	require.Len(t, d.Tables, 1)
	got := map[string]Verdict{}
	for _, g := range d.Tables[0].Games {
		got[g.Game] = g.Verdict
	}
	assert.Equal(t, Inconclusive, got[bound])
	assert.Equal(t, Faster, got[other])
	assert.Zero(t, d.RunsNeeded(), "more runs would not help")
	var b strings.Builder
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "inconclusive "+bound+": the uct runs made under one state change per iteration (new 0.10, old 0.10): the tree holds most of the game")
}
