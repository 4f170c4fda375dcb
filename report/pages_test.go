package report

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
)

// The lead's words agree with the verdict on the geometric mean: faster or
// slower only when its interval excludes 1, and every figure says what it
// is over.
func TestLeadText(t *testing.T) {
	bl := prover1
	tests := []struct {
		name                                  string
		s                                     PairSummary
		wantVerb, wantFactor, wantClass, want string
	}{
		{"faster", PairSummary{Compared: 8, GeoMean: 63.2, GeoLo: 40, GeoHi: 99.5, Overall: 1},
			"ran", "63.20× faster than", "good", "geometric mean of the speedup per game over 8 games, 95% interval [40.00, 99.50]"},
		{"slower", PairSummary{Compared: 3, GeoMean: 0.5, GeoLo: 0.4, GeoHi: 0.6, Overall: -1, ExcludedGames: 1},
			"ran", "2.000× slower than", "bad", "geometric mean of the speedup per game over 3 games: 0.5000×, 95% interval [0.4000, 0.6000]; 1 game excluded"},
		{"interval spans 1", PairSummary{Compared: 8, GeoMean: 1.3, GeoLo: 0.9, GeoHi: 1.8},
			"was", "about as fast as", "", "no significant difference; geometric mean of the speedup per game over 8 games: 1.300×, 95% interval [0.9000, 1.800]"},
		{"one game", PairSummary{Compared: 1, GeoMean: 5, GeoLo: math.NaN(), GeoHi: math.NaN()},
			"was", "about as fast as", "", "no significant difference; geometric mean of the speedup per game over 1 game: 5.000×, too few games for an interval"},
		{"no common game", PairSummary{ExcludedGames: 9, GeoMean: math.NaN()},
			"could not be compared with", "", "", "no game where both ran ok with state changes; 9 games excluded"},
		{"every run contended", PairSummary{ExcludedGames: 20, ContendedA: 60, ContendedB: 58, GeoMean: math.NaN()},
			"could not be compared with", "", "", "no game where both ran ok, uncontended, with state changes (118 runs left out as contended, under 0.9 of a CPU: rerun on a quieter machine, or with gdlperf run --rerun-contended); 20 games excluded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verb, factor, class, detail := leadText(&tt.s, bl)
			assert.Equal(t, tt.wantVerb, verb)
			assert.Equal(t, tt.wantFactor, factor)
			assert.Equal(t, tt.wantClass, class)
			assert.Equal(t, tt.want, detail)
		})
	}
}

// The index opens with the engines ranked by the geometric mean of their
// speedups, the baseline among them at 1×, the engines without a common
// game last, on each machine.
func TestIndexLeadRanked(t *testing.T) {
	index := string(renderFixture(t).Page("index.html"))
	lead := index[:strings.Index(index, "<p>Engine versions:")+1]
	var order []string
	for _, m := range regexp.MustCompile(`<li><a href="engine/[^"]*">([^<]*)</a> (ran|is|was|could)`).FindAllStringSubmatch(lead, -1) {
		order = append(order, m[1]+" "+m[2])
	}
	assert.Equal(t, []string{
		"propnet@3-ccc ran", "propnet@2-bbb ran", "prover@1-aaa is", "solo@1 could", // machine 1
		"propnet@2-bbb was", "prover@1-aaa is", // machine 2: one run a side, no verdict
	}, order)
	assert.Contains(t, lead, `ran <strong class="good">4.679× faster than</strong> <a href="pair/propnet_2-bbb-90914661b6_vs_prover_1-aaa-27eca9636b.html">prover@1-aaa</a> (geometric mean of the speedup per game over 6 games, 95% interval [3.361, 6.515]; 2 games excluded).`)
	assert.Contains(t, lead, `aria-label="speedup of each engine version over prover@1-aaa, one dot per game"`)
}

// Chart points are SVG circles, each with the title of its game (escaped);
// the pair chart is the ratio per game, not a log-log scatter of rates.
func TestChartPointsHaveTitles(t *testing.T) {
	s := renderFixture(t)
	pair := string(s.Page(pairHref(versionPair{propnet2, prover1})))
	circles := regexp.MustCompile(`<circle [^>]*><title>([^<]*)</title></circle>`).FindAllStringSubmatch(pair, -1)
	require.Len(t, circles, 7, "one point per compared game: 6 on machine 1, 1 on machine 2")
	assert.Equal(t, "BASE/speedChess/bPnisA: 7.000×, no significant difference", circles[0][1], "highest ratio first")
	assert.Equal(t, "BASE/reversi/d8UMeA: 6.250×, 95% interval [6.176, 6.326], significantly faster", circles[1][1])
	assert.Contains(t, pair, `<title>LOCAL/&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp;/h4sh&#39;: 3.000×`)
	assert.Contains(t, pair, "ratio (propnet@2-bbb / prover@1-aaa) (log scale)")
	assert.NotContains(t, pair, "states/s (log scale)")
	assert.Equal(t, strings.Count(pair, "<circle "), strings.Count(pair, "<title>")-1, "every circle has a title (the page's own title aside)")
}

// A ratio chart whose ratios lie within a factor of 4 uses a linear axis.
func TestNarrowRatiosLinearAxis(t *testing.T) {
	pair := string(renderFixture(t).Page(pairHref(versionPair{propnet3, propnet2})))
	assert.Contains(t, pair, ">ratio (propnet@3-ccc / propnet@2-bbb)</text>")
	assert.Contains(t, pair, ">1×</text>")
	assert.Contains(t, pair, ">1.25×</text>")
	assert.NotContains(t, pair, ">0×</text>", "the axis spans the ratios, not 0")
}

// The history page lists an engine's versions in the order measured, with
// the change against the previous version, and colours a game's rate only
// where it changed significantly.
func TestHistoryPage(t *testing.T) {
	s := renderFixture(t, WithVerdicts(rt.CheckRows()))
	h := string(s.Page(historyHref("propnet")))
	require.NotEmpty(t, h)
	i2, i3 := strings.Index(h, `propnet@2-bbb</a></td><td class="nw">2026-01-11</td>`), strings.Index(h, `propnet@3-ccc</a></td><td class="nw">2026-01-11</td>`)
	require.GreaterOrEqual(t, i2, 0)
	assert.Greater(t, i3, i2, "versions by first run")
	assert.Contains(t, h, `<td class="n ">1.001×</td><td class="n">[0.7889, 1.270]</td><td class=""><a href="../pair/propnet_3-ccc-29ea2dea19_vs_propnet_2-bbb-90914661b6.html">~</a></td>`)
	assert.Contains(t, h, `<td class="bad" title="propnet@3-ccc on BASE/connectFour/WAIKTw: 6.00k states/s; 0.7500× of propnet@2-bbb&#39;s, 95% interval [0.7379, 0.7623]">6.00k</td>`)
	assert.Contains(t, h, `<s>60.0k</s>`, "a wrong rate is struck out")
	assert.Contains(t, string(s.Page("index.html")), `<a href="history/propnet-`)
	assert.Contains(t, string(s.Page(engineHref(propnet2))), `The history of propnet</a>`)
	assert.Contains(t, string(s.Page(historyHref("solo"))), "One version measured here: no history yet.")
}

func TestPrettyName(t *testing.T) {
	tests := []struct {
		name string
		l    link
		want string
	}{
		{"short version", versionLink(propnet2), "propnet@2-bbb"},
		{"hash version", versionLink(Version{"propnet", "1-0123456789abcdef"}), `<span title="propnet@1-0123456789abcdef">propnet@1-012345…</span>`},
		{"game key", gameLink(rt.TicTacToe), `<span class="mute">BASE/</span>ticTacToe<span class="mute">/JRFsaQ</span>`},
		{"escaped", gameLink(`BASE/<b>&/h"1`), `<span class="mute">BASE/</span>&lt;b&gt;&amp;<span class="mute">/h&#34;1</span>`},
		{"not a key", gameLink(rt.Script), `LOCAL/&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp;/h4sh&#39;`},
		{"other", link{Text: "run", Href: "game/x.html#run-1"}, "run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(prettyName(tt.l)))
		})
	}
}

// A long engine version (a hash of its code) is shortened in links and
// chart labels and kept whole in their titles.
func TestLongVersionsShortened(t *testing.T) {
	rows := rt.Rows()
	for i := range rows {
		if rows[i].EngineVersion == "2-bbb" {
			rows[i].EngineVersion = "2-0123456789abcdef"
		}
	}
	s, err := Render(rows)
	require.NoError(t, err)
	game := string(s.Page(gameHref(rt.TicTacToe)))
	assert.Contains(t, game, `<span title="propnet@2-0123456789abcdef">propnet@2-012345…</span></a>`)
	assert.Contains(t, game, `>propnet@2-012345…</text>`, "the chart's label")
	assert.NotContains(t, game, `>propnet@2-0123456789abcdef</text>`)
}

// With more games than labelled rows fit, a ratio chart is the sorted
// profile: still a titled point per game, and its three highest and three
// lowest points labelled with their games.
func TestProfileChartTitledAndLabelled(t *testing.T) {
	rows := syntheticRows(2, maxBars+5, 3)
	s, err := Render(rows, WithBaseline("engine00"))
	require.NoError(t, err)
	a, b := Version{"engine01", "1.1"}, Version{"engine00", "1.0"}
	page := string(s.Page(pairHref(versionPair{a, b})))
	require.NotEmpty(t, page)
	titles := regexp.MustCompile(`<circle [^>]*><title>BASE/game\d{3}/h\d+: [^<]*</title></circle>`).FindAllString(page, -1)
	p := ComparePair(Analyse(rows).Groups[0], a, b)
	assert.Len(t, titles, p.Summary.Compared, "a titled point per compared game")
	assert.Greater(t, p.Summary.Compared, maxBars)
	labels := regexp.MustCompile(`font-weight:bold;fill:#333">(\d)</text>`).FindAllStringSubmatch(page, -1)
	require.Len(t, labels, 6, "the three highest and the three lowest")
	assert.Equal(t, "6", labels[5][1])
	assert.Regexp(t, `Numbered: 1 BASE/game\d{3}/h\d+ \([0-9.]+×\), 2 BASE/`, page, "the caption names them")
}

// The matrix says its unit, the reference of the checks says so in its
// column and cells instead of looking unchecked, and the two reddest
// shades of the legend differ.
func TestMatrixReadable(t *testing.T) {
	s := renderFixture(t, WithVerdicts(rt.CheckRows()))
	index := string(s.Page("index.html"))
	assert.Contains(t, index, `<th>game <span class="note">· cells: median state changes per second</span></th>`)
	assert.Contains(t, index, `prover@1-aaa</a> <span class="note">· reference</span></th>`)
	assert.Contains(t, index, `title="prover@1-aaa on BASE/reversi/d8UMeA: 800 states/s, 16% of the fastest
correctness: the reference: the other engines are checked against it"><a href="game/BASE_reversi_d8UMeA-2525a25c9c.html">800</a><span class="ck ck-ref">ref</span></td>`)
	assert.NotContains(t, index, `propnet@2-bbb</a> <span class="note">· reference</span>`)
	game := string(s.Page(gameHref(rt.Hex)))
	assert.Contains(t, game, `prover@1-aaa</a></td><td class="nw"><span class="ck ck-ref">ref</span> the reference</td>`)
	css := string(styleCSS)
	q6 := regexp.MustCompile(`\.q6\{background:(#[0-9a-f]{6})`).FindStringSubmatch(css)
	q7 := regexp.MustCompile(`\.q7\{background:(#[0-9a-f]{6})`).FindStringSubmatch(css)
	require.Len(t, q6, 2)
	require.Len(t, q7, 2)
	r6, err := strconv.ParseUint(q6[1][1:3], 16, 8)
	require.NoError(t, err)
	r7, err := strconv.ParseUint(q7[1][1:3], 16, 8)
	require.NoError(t, err)
	assert.Greater(t, int(r6)-int(r7), 0x40, "q7 (%s) is much darker than q6 (%s), not another bright red", q7[1], q6[1])
}
