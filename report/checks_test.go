package report

import (
	"html"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

var turbo = Version{"turbo", "0.9"}

// Runs with status wrong (a perf run of a version that failed the check on
// the game) are failed runs, never measurements, and make the cell wrong
// even without check rows.
func TestWrongRunsAreFailuresNotMeasurements(t *testing.T) {
	rows := rt.Rows()
	wrongTic, wrongC4 := 0, 0
	for i := range rows {
		r := &rows[i]
		if r.Engine != "propnet" || r.EngineVersion != "3-ccc" || r.Machine != rt.Machine1 {
			continue
		}
		switch {
		case r.GameKey == rt.TicTacToe: // every run
			require.NotZero(t, r.StateChanges, "the wrong runs keep their counts: they must still not count")
			r.Status, r.ErrorMessage = results.StatusWrong, "failed the correctness check: trace mismatch"
			wrongTic++
		case r.GameKey == rt.ConnectFour && r.Repetition < 2: // two of five
			r.Status, r.ErrorMessage = results.StatusWrong, "failed the correctness check: trace mismatch"
			wrongC4++
		}
	}
	require.Equal(t, 7, wrongTic)
	require.Equal(t, 2, wrongC4)
	_, before := fixture(t)
	c := Analyse(rows)
	m := machine(t, c, rt.Machine1)
	assert.Equal(t, machine(t, before, rt.Machine1).Failed+9, m.Failed, "wrong runs are failed runs")

	tic := m.Cell(rt.TicTacToe, propnet3)
	assert.Equal(t, 0, tic.OK)
	assert.Equal(t, 7, tic.Failed())
	assert.False(t, tic.Measured())
	assert.Empty(t, tic.Rates())
	assert.True(t, tic.Wrong)

	c4 := m.Cell(rt.ConnectFour, propnet3)
	assert.Equal(t, 5, c4.OK)
	assert.Len(t, c4.Rates(), 5, "only the ok runs' rates")
	assert.True(t, c4.Measured())
	assert.True(t, c4.Wrong, "a version that failed the check on a game has no valid speed there")
	assert.False(t, m.Cell(rt.Hex, propnet3).Wrong)

	p := ComparePair(m, propnet3, prover1)
	assert.Equal(t, []Exclusion{{Outcome: WrongA, Reason: "propnet@3-ccc disagreed with the reference (correctness check mismatch)", Games: []string{rt.ConnectFour, rt.TicTacToe}}}, p.Summary.Excluded[:1])
	for _, g := range p.Games {
		if g.Game == rt.TicTacToe || g.Game == rt.ConnectFour {
			assert.True(t, math.IsNaN(g.Ratio), g.Game)
			assert.Zero(t, g.Sign, g.Game)
		}
	}
	assert.NotContains(t, p.Summary.OnlyAFailed, rt.TicTacToe, "listed once, as a wrong answer")

	s, err := Render(rows)
	require.NoError(t, err)
	index := string(s.Page("index.html"))
	assert.Contains(t, index, `>✗ wrong</a>`, "every run wrong: a failed cell")
	assert.Contains(t, index, `<td class="wrong warn" title="propnet@3-ccc on BASE/connectFour/WAIKTw: 5.97k states/s, struck out: the version disagreed with the reference`)
	assert.Contains(t, index, "runs marked wrong (the version failed the correctness check on this game)")
	assert.Contains(t, index, "Correctness against the reference:", "the legend")
	assert.Contains(t, index, "No correctness verdicts were given, but some runs have status <em>wrong</em>")
	assert.NotContains(t, index, `<h2 id="correctness">`, "no table of verdicts without check rows")
	engine := string(s.Page(engineHref(propnet3)))
	assert.Contains(t, engine, "failed the correctness check: trace mismatch", "in the error table")
	assert.Contains(t, engine, `<dt class="bad">runs marked wrong</dt><dd><details><summary>2 games</summary>`)
	assert.Contains(t, engine, "<s title=\"struck out: it disagreed with the reference\">5.97k</s>")
}

// A mismatch verdict leaves the game out of its version's median and
// geometric mean against the baseline, and the pages say so.
func TestMismatchExcludedFromGeomean(t *testing.T) {
	rows, plain := fixture(t)
	var want []float64
	for _, g := range ComparePair(machine(t, plain, rt.Machine1), propnet3, prover1).Games {
		if g.Outcome == Compared && g.Game != rt.TicTacToe && g.Game != rt.Script {
			want = append(want, math.Log(g.Ratio))
		}
	}
	require.Len(t, want, 4)
	sum := 0.0
	for _, l := range want {
		sum += l
	}
	geo := math.Exp(sum / float64(len(want)))

	c := Analyse(rows)
	c.markMismatches(newCheckIndex(rt.CheckRows()))
	p := ComparePair(machine(t, c, rt.Machine1), propnet3, prover1)
	assert.Equal(t, 4, p.Summary.Compared)
	assert.InDelta(t, geo, p.Summary.GeoMean, 1e-12)
	assert.Equal(t, Exclusion{Outcome: WrongA, Reason: "propnet@3-ccc disagreed with the reference (correctness check mismatch)", Games: []string{rt.TicTacToe, rt.Script}}, p.Summary.Excluded[0])
	assert.Equal(t, 5, p.Summary.Wins+p.Summary.Losses+p.Summary.Ties, "the wrong games are neither wins nor losses (the 4 compared and Zero are)")

	// propnet@2 agreed: nothing of it is excluded for correctness.
	p2 := ComparePair(machine(t, c, rt.Machine1), propnet2, prover1)
	for _, e := range p2.Summary.Excluded {
		assert.False(t, e.Outcome.Wrong())
	}

	s := renderFixture(t, WithVerdicts(rt.CheckRows()))
	index := string(s.Page("index.html"))
	row := index[strings.Index(index, `<tr><td><a href="engine/propnet_3-ccc`):]
	row = row[:strings.Index(row, "</tr>")]
	assert.Contains(t, row, ">"+FormatRatio(geo)+"×<")
	assert.Contains(t, row, `<td class="n bad">2</td>`, "excluded for a mismatch")
	engine := string(s.Page(engineHref(propnet3)))
	assert.Contains(t, engine, "<li>2: propnet@3-ccc disagreed with the reference (correctness check mismatch)")
	assert.Contains(t, engine, "Left out: 2 games where it disagreed with the reference.")
	game := string(s.Page(gameHref(rt.TicTacToe)))
	assert.Contains(t, game, "Left out: 1 engine version that disagreed with the reference.")
}

// The matrix: marks, titles, struck speeds, and the colour of the others
// relative to the fastest valid speed.
func TestMatrixShowsVerdicts(t *testing.T) {
	s := renderFixture(t, WithVerdicts(rt.CheckRows()))
	index := string(s.Page("index.html"))
	// propnet@3 was fastest on tic-tac-toe but disagreed: propnet@2 is the fastest valid speed.
	assert.Contains(t, index, `<td class="q0" title="propnet@2-bbb on BASE/ticTacToe/JRFsaQ: 50.0k states/s, 100% of the fastest`)
	assert.Contains(t, index, `<td class="wrong" title="propnet@3-ccc on BASE/ticTacToe/JRFsaQ: 60.0k states/s, struck out:`)
	assert.Contains(t, index, "correctness: mismatch (trace ✗ 4 rollouts, metamorphic ✓ 8 rollouts): trace: legal moves of role 0 missing (mark 2 2); state extra (cell 2 2 x); reference prover@1-aaa")
	assert.Contains(t, index, `<span class="ck ck-bad">✗</span>`)
	assert.Contains(t, index, `<span class="ck ck-err">!</span>`, "propnet@2's Hex check failed to run")
	assert.Contains(t, index, `<span class="ck ck-unk">?</span>`, "solo is unchecked")
	assert.Contains(t, index, "correctness: unchecked (trace ?, exhaustive ?): trace: the engine&#39;s manifest names no trace command")
	assert.Contains(t, index, "propnet@3-ccc on BASE/hex/T1MK8g: 3.10k states/s, 100% of the fastest\ncorrectness: agreed (trace ✓ 31 rollouts)", "a retried check counts by its latest row")
	assert.NotContains(t, index, "interrupted")
	assert.Contains(t, index, "<p class=\"legend\">Correctness against the reference:")

	// The index's correctness table: every version that ran or was checked.
	table := index[strings.Index(index, `<h2 id="correctness">`):strings.Index(index, `<h2 id="machine-`)]
	for _, want := range []string{
		`propnet@2-bbb</a></td><td class="nw">prover@1-aaa</td><td class="n">7</td><td class="n">0</td><td class="n">1</td><td class="n">0</td><td class="n">1</td>`,
		`propnet@3-ccc</a></td><td class="nw">prover@1-aaa</td><td class="n">6</td><td class="n bad">2</td><td class="n">0</td><td class="n">0</td><td class="n">0</td>`,
		`solo@1</a></td><td class="nw">prover@1-aaa</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">1</td><td class="n">0</td>`,
		`turbo@0.9</a></td><td class="nw">prover@1-aaa</td><td class="n">0</td><td class="n bad">1</td>`,
	} {
		assert.Contains(t, table, want)
	}

	// Without verdicts: no marks, and a note that the speeds are unverified.
	plain := string(renderFixture(t).Page("index.html"))
	assert.NotContains(t, plain, `class="ck `)
	assert.Contains(t, plain, "No correctness verdicts were given: these speeds are unverified")
}

// The engine and game pages list verdicts and mismatches; a version that
// was only checked gets a page; a game that was only checked is named
// without a link.
func TestEngineAndGamePagesShowVerdicts(t *testing.T) {
	s := renderFixture(t, WithVerdicts(rt.CheckRows()))
	e3 := string(s.Page(engineHref(propnet3)))
	assert.Contains(t, e3, `<h2 id="correctness">Correctness</h2>`)
	assert.Contains(t, e3, "<tr><td>trace</td><td class=\"n\">6</td><td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">670</td><td class=\"n\">—</td></tr>")
	assert.Contains(t, e3, "<td>exhaustive</td><td class=\"n\">—</td><td class=\"n\">—</td><td class=\"n\">3</td>", "exhaustive: no seed, no rollout; step 3")
	assert.Contains(t, e3, `<span>--rollouts</span> <span>4</span></code>`)
	assert.Contains(t, e3, "<li>noop (mark 1 2)</li>")

	e2 := string(s.Page(engineHref(propnet2)))
	assert.Contains(t, e2, "the engine&#39;s trace of 1 rollout(s) took longer than 30s")
	assert.Contains(t, e2, "<h3>Mismatches</h3>\n<p>None.</p>")
	assert.Contains(t, e2, `<li>BASE/checkOnly/QQQQQQ</li>`, "a game without a page is not linked")
	assert.NotContains(t, e2, "checkOnly/QQQQQQ</a>")
	assert.Contains(t, e2, `<dt>never checked</dt><dd><details><summary>1 game</summary>`)

	tp := s.Page(engineHref(turbo))
	require.NotNil(t, tp, "a version that was only checked has a page")
	assert.Contains(t, string(tp), "none: the initial state differs")
	assert.NotContains(t, string(tp), "On machine")

	solo := string(s.Page(engineHref(solo1)))
	assert.Contains(t, solo, "exhaustive checks need a built-in engine")
	assert.Contains(t, solo, "<h3>Not verified</h3>")

	tic := string(s.Page(gameHref(rt.TicTacToe)))
	for _, want := range []string{
		`<tr class="failed"><td class="nw"><a href="../engine/propnet_3-ccc-29ea2dea19.html">propnet@3-ccc</a></td><td class="nw"><span class="ck ck-bad">✗</span> mismatch</td><td>trace ✗ 4 rollouts<br>metamorphic ✓ 8 rollouts</td>`,
		`<td class="nw"><span class="ck ck-ok">✓</span> agreed</td><td>exhaustive ✓ 5478 states (every reachable one)<br>metamorphic ✓ 8 rollouts</td>`,
		`<td class="n">—</td><td class="nw"><a href="../engine/propnet_3-ccc-29ea2dea19.html">propnet@3-ccc</a></td><td class="nw" title="correctness: mismatch`,
	} {
		assert.Contains(t, tic, want)
	}
	assert.Contains(t, string(s.Page(gameHref(rt.ConnectFour))), `<a href="../engine/turbo_0_9-874d3e6c41.html">turbo@0.9</a>`, "never run there: still its verdict")
	assert.NotContains(t, string(s.Page(gameHref(rt.OnlyOne))), "No engine version was checked on this game")
	assert.Contains(t, string(s.Page(gameHref(rt.Zero))), "<td class=\"nw\">never checked</td>", "propnet@2 never checked Zero")
}

// Check rows in any order give the same bytes.
func TestVerdictsDeterministic(t *testing.T) {
	rows, checks := rt.Rows(), rt.CheckRows()
	a, err := Render(rows, WithVerdicts(checks))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		r2, c2 := slices.Clone(rows), slices.Clone(checks)
		rng.Shuffle(len(r2), func(i, j int) { r2[i], r2[j] = r2[j], r2[i] })
		rng.Shuffle(len(c2), func(i, j int) { c2[i], c2[j] = c2[j], c2[i] })
		b, err := Render(r2, WithVerdicts(c2))
		require.NoError(t, err)
		require.Equal(t, len(a.Pages), len(b.Pages))
		for i := range a.Pages {
			assert.Equal(t, a.Pages[i].Path, b.Pages[i].Path)
			assert.Equal(t, string(a.Pages[i].Body), string(b.Pages[i].Body), a.Pages[i].Path)
		}
	}
}

// What differed, the move history and the command are escaped; the pages
// still need no network and every link leads somewhere.
func TestVerdictsEscaped(t *testing.T) {
	checks := rt.CheckRows()
	checks[0].Engine = `eng<i>ne`
	checks[1].EngineVersion = `1"><script>`
	checks[2].Reference = `<img src=x onerror=alert(1)>`
	s, err := Render(rt.Rows(), WithVerdicts(checks))
	require.NoError(t, err)
	for _, p := range s.Pages {
		body := strings.ToLower(string(p.Body))
		for _, bad := range []string{"<script", "<b>", "<i>", "<img"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s contains %q unescaped", p.Path, bad)
			}
		}
	}
	for _, path := range []string{engineHref(propnet3), gameHref(rt.Script)} {
		page := string(s.Page(path))
		assert.Contains(t, page, html.EscapeString(rt.MismatchDetail), path)
		for _, step := range strings.Split(rt.MismatchHistory, " | ") {
			assert.Contains(t, page, "<li>"+html.EscapeString(step)+"</li>", path)
		}
		assert.Contains(t, page, `<span>&#39;LOCAL/&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp;/h4sh&#39;\&#39;&#39;&#39;</span>`, path)
	}
}

func TestVerdictPagesSelfContainedAndLinked(t *testing.T) {
	checkSiteLinks(t, renderFixture(t, WithVerdicts(rt.CheckRows())))
}
