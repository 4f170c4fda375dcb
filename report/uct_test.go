package report

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/gdlperf/gdlperf/engines/propnet"
	_ "github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/gamerepo"
	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

func TestUCTPoints(t *testing.T) {
	tests := []struct {
		name string
		top  int64
		want []int64
	}{
		{"below ten", 7, []int64{7}},
		{"ten", 10, []int64{10}},
		{"two hundred", 200, []int64{10, 20, 50, 100, 200}},
		{"between", 750, []int64{10, 20, 50, 100, 200, 500, 750}},
		{"two thousand", 2000, []int64{10, 20, 50, 100, 200, 500, 1000, 2000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, uctPoints(tt.top)) })
	}
}

func TestUCTBudget(t *testing.T) {
	assert.Equal(t, int64(200), uctBudget("iterations=200"))
	assert.Equal(t, int64(0), uctBudget("iterations=0"))
	assert.Equal(t, int64(0), uctBudget(""))
}

// builtinInfo gives the rules of the built-in games, as gdlperf report does.
func builtinInfo(game string) (GameInfo, bool) {
	for _, g := range gamerepo.Builtins() {
		if g.Key == game {
			return GameInfo{RulesFile: g.File, Rules: g.Rules}, true
		}
	}
	return GameInfo{}, false
}

var uctTitle = regexp.MustCompile(`<title>(xplayer [^<]*)</title>`)

// The uct chart of a game page: the mean of each root move at 10, 20, 50,
// 100 and 200 iterations (the runs' budget), one line per move, replayed
// with the seed of the runs' first repetition; it says how it was made.
// The same chart comes out of every engine that replays it (the search is
// deterministic), and the page says why when it has no chart.
func TestUCTChart(t *testing.T) {
	s := renderDimensions(t, WithGameInfo(builtinInfo))
	page := string(s.Page(gameHref(rt.BuiltinTicTacToe)))
	uct := page[strings.Index(page, "workload uct (iterations=200) runs</h2>"):]
	uct = uct[:strings.Index(uct, "<h2")]
	assert.Contains(t, uct, `<h3>Root moves by iterations</h3>`)
	assert.Contains(t, uct, `aria-label="mean value of each root move against uct iterations on BUILTIN/tictactoe/UxIcqg"`)
	assert.Contains(t, uct, "replayed by the report with propnet on the game&#39;s rules, seed 100 (the seed of the runs&#39; repetition 0), at 10, 20, 50, 100, 200 iterations")
	assert.Contains(t, uct, "so the chart is every correct engine&#39;s")
	titles := uctTitle.FindAllStringSubmatch(uct, -1)
	assert.Len(t, titles, 9*5, "a line of 5 points for each of xplayer's 9 opening moves (oplayer has one move)")
	assert.Contains(t, uct, "xplayer (mark 3 3) after 10 iterations: mean 100.00 over 1 visits")
	// the rollouts section has no uct chart
	assert.Equal(t, 1, strings.Count(page, "Root moves by iterations"), "only the uct section has one")

	for _, engine := range []string{"prover", "tupleprover"} {
		t.Run(engine, func(t *testing.T) {
			other := renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{Engines: []string{engine}}))
			got := uctTitle.FindAllStringSubmatch(string(other.Page(gameHref(rt.BuiltinTicTacToe))), -1)
			assert.Equal(t, titles, got, "every correct engine draws the same chart")
		})
	}

	t.Run("fallback", func(t *testing.T) {
		page := string(renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{Engines: []string{"nosuch", "prover"}})).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.Contains(t, page, "replayed by the report with prover on the game")
		assert.Contains(t, page, "It was replayed with prover because there is no built-in engine nosuch.")
		assert.Equal(t, titles, uctTitle.FindAllStringSubmatch(page, -1))
	})
	t.Run("no engine", func(t *testing.T) {
		page := string(renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{Engines: []string{"nosuch"}})).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.Contains(t, page, "No uct chart: there is no built-in engine nosuch.")
	})
	t.Run("no rules", func(t *testing.T) {
		page := string(renderDimensions(t).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.Contains(t, page, "No uct chart: the report needs the game&#39;s rules to replay the search")
	})
	t.Run("off", func(t *testing.T) {
		page := string(renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{MaxIterations: -1})).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.NotContains(t, page, "Root moves by iterations")
	})
	t.Run("capped", func(t *testing.T) {
		page := string(renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{MaxIterations: 50})).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.Contains(t, page, "at 10, 20, 50 iterations")
		assert.Contains(t, page, "The runs&#39; budget is 200 iterations; the chart stops at 50.")
	})
	t.Run("out of time", func(t *testing.T) {
		page := string(renderDimensions(t, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{Timeout: time.Nanosecond})).Page(gameHref(rt.BuiltinTicTacToe)))
		assert.Contains(t, page, "No uct chart: The replay of 10 iterations did not finish within the report&#39;s 1ns for this chart")
	})
}

// Timed uct runs (iterations=0) chart up to the most iterations a run made.
func TestUCTChartTimedRuns(t *testing.T) {
	rows := rt.DimensionRows()
	var uct []results.Row
	for _, r := range rows {
		if r.Workload == "uct" && r.GameKey == rt.BuiltinTicTacToe {
			r.WorkloadBudget = "iterations=0"
			uct = append(uct, r)
		}
	}
	require.NotEmpty(t, uct)
	s, err := Render(uct, WithGameInfo(builtinInfo), WithUCTChart(UCTChart{MaxIterations: 100}))
	require.NoError(t, err)
	page := string(s.Page(gameHref(rt.BuiltinTicTacToe)))
	assert.Contains(t, page, "at 10, 20, 50, 100 iterations")
	assert.Contains(t, page, "The runs were timed; the most iterations a run of this game made is the last point, capped at 100.")
}
