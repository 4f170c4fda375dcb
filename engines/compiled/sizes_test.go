package compiled

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestSizesDebug logs the sizer's estimates for GDLPERF_SIZES_GAME.
func TestSizesDebug(t *testing.T) {
	path := os.Getenv("GDLPERF_SIZES_GAME")
	if path == "" {
		t.Skip("set GDLPERF_SIZES_GAME")
	}
	g, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s := measureSizes(g)
	t.Logf("%s, run %+v", time.Since(start), s.run)
	for name, st := range s.stats {
		t.Logf("%s: n %.1f dist %v (%d)", name.Name(), st.n, st.dist, st.count)
	}
	for k, st := range s.trueStats {
		t.Logf("true %s/%d: n %.1f dist %v (%d)", k.name.Name(), k.arity, st.n, st.dist, st.count)
	}
}

// TestSizesTicTacToe: the sizer measures the static relations exactly.
func TestSizesTicTacToe(t *testing.T) {
	src := "(role x)\n(index 1)\n(index 2)\n(index 3)\n(<= (pair ?a ?b) (index ?a) (index ?b))\n(init (cell 1 1 b))\n(<= (legal x go) (true (cell ?a ?b b)))\n(<= (next (cell 1 1 x)) (does x go))\n(<= terminal (true (cell 1 1 x)))\n(goal x 100)\n"
	g, err := gdl.Load("t.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := measureSizes(g)
	if st := s.stats[gdl.Intern("pair")]; st == nil || st.n != 9 || st.dist[0] != 3 {
		t.Fatalf("pair: %+v", st)
	}
	if st := s.trueStats[fkey{gdl.Intern("cell"), 3}]; st == nil || st.n != 1 {
		t.Fatalf("true cell: %+v", st)
	}
}

// busy keeps every processor busy with goroutines burning CPU until the
// returned function is called.
func busy() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for {
				select {
				case <-done:
					return
				default:
				}
				for j := range 1 << 16 {
					x ^= j * x
				}
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

// generateTwice generates g within lim on a quiet process and again with
// every processor kept busy.
func generateTwice(t *testing.T, g *gdl.Game, lim sizeLimits) (quiet, loaded *generated) {
	t.Helper()
	quiet, err := generateWithin(g, lim, "v", "sha")
	require.NoError(t, err)
	stop := busy()
	loaded, err = generateWithin(g, lim, "v", "sha")
	stop()
	require.NoError(t, err)
	return quiet, loaded
}

// requireSameProgram: the two generations wrote the same files, byte for
// byte, and the time cap cut neither.
func requireSameProgram(t *testing.T, a, b *generated) {
	t.Helper()
	require.Equal(t, len(a.files), len(b.files))
	for name, src := range a.files {
		if other := b.files[name]; !bytes.Equal(src, other) {
			al, bl := strings.Split(string(src), "\n"), strings.Split(string(other), "\n")
			i := 0
			for i < len(al) && i < len(bl) && al[i] == bl[i] {
				i++
			}
			t.Fatalf("%s differs between a quiet and a busy machine from line %d: %q, then %q", name, i+1, al[min(i, len(al)-1)], bl[min(i, len(bl)-1)])
		}
	}
	for _, r := range append(append([]sizeRun(nil), a.sizes...), b.sizes...) {
		require.False(t, r.timedOut, "the size estimates were cut by the time cap after %d units of work (%s)", r.work, r.elapsed)
	}
}

// TestGenerateIgnoresLoad: the size estimates, and so the program, depend
// on counted work only, not on how busy the machine is: the same game
// generated on a quiet process and with every processor kept busy gives
// byte-identical sources, both with the default limits (under which the
// built-in games finish their steps) and with a work bound that cuts the
// estimates short mid-way.
func TestGenerateIgnoresLoad(t *testing.T) {
	cut := defaultSizeLimits
	cut.maxWork = 60_000
	for _, tc := range []struct {
		game    string
		lim     sizeLimits
		cutWork bool // the work bound cuts the estimates short
	}{
		{"connectfour", defaultSizeLimits, false},
		{"hex", defaultSizeLimits, false},
		{"breakthrough", cut, true},
	} {
		t.Run(tc.game, func(t *testing.T) {
			b, ok := builtingames.Get(tc.game)
			require.True(t, ok)
			g, err := gdl.Load(b.File, b.Rules)
			require.NoError(t, err)
			quiet, loaded := generateTwice(t, g, tc.lim)
			requireSameProgram(t, quiet, loaded)
			for _, r := range quiet.sizes {
				assert.Equal(t, tc.cutWork, r.out, "the sizer stopped by a limit after %d units of work", r.work)
			}
		})
	}
}

// TestGeneratePanelWithinWork: on the panel games the time cap is not what
// stops the sizer, and the games whose estimates the work bound cuts
// (reversi, skirmish) get the same program on a busy machine.
func TestGeneratePanelWithinWork(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the twenty panel games (-short)")
	}
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	for _, name := range []string{"ticTacToe", "connectFour", "breakthrough", "reversi", "hex", "speedChess", "amazons", "checkers",
		"englishDraughts", "chineseCheckers4", "sheepAndWolf", "dotsAndBoxes", "knightsTour", "pentago", "3pConnectFour",
		"connectFourSimultaneous", "eightPuzzle", "skirmish", "4pffa", "nineBoardTicTacToe"} {
		t.Run(name, func(t *testing.T) {
			g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif"))
			require.NoError(t, err)
			if name == "reversi" || name == "skirmish" {
				quiet, loaded := generateTwice(t, g, defaultSizeLimits)
				requireSameProgram(t, quiet, loaded)
				return
			}
			out, err := generate(g, "v", "sha")
			require.NoError(t, err)
			for _, r := range out.sizes {
				require.False(t, r.timedOut, "the size estimates were cut by the time cap after %d units of work (%s)", r.work, r.elapsed)
			}
		})
	}
}

// TestSizesTimeCap: the time cap still stops the sizer, quietly, and the
// design's stats say that the program depends on the machine's speed.
func TestSizesTimeCap(t *testing.T) {
	b, ok := builtingames.Get("connectfour")
	require.True(t, ok)
	g, err := gdl.Load(b.File, b.Rules)
	require.NoError(t, err)
	lim := defaultSizeLimits
	lim.timeCap = time.Nanosecond
	out, err := generateWithin(g, lim, "v", "sha")
	require.NoError(t, err)
	require.NotEmpty(t, out.sizes)
	for _, r := range out.sizes {
		assert.True(t, r.timedOut && r.out, "%+v", r)
		assert.Less(t, r.work, 2*sizeCheckEvery, "the clock is read every %d units", sizeCheckEvery)
	}
	assert.Contains(t, out.stats, "cut by the time cap of 1ns")
	assert.Contains(t, out.stats, "depends on the machine's speed")
}

// listGame is a game in the shape of laikLee_hex and sudoku: a static
// relation of every row of eight of ten elements (100M rows, past what a
// program may compute whole at start-up), asked only about rows the state
// makes.
const listGame = `(role p)
(init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(el a) (el b) (el c) (el d) (el e) (el f) (el g) (el h) (el i) (el j)
(<= (row ?a ?b ?c ?d ?e ?f ?g ?h)
    (el ?a) (el ?b) (el ?c) (el ?d) (el ?e) (el ?f) (el ?g) (el ?h))
(<= (goodRow ?x ?y) (row ?x ?y a a a a a a))
(<= (pair ?x ?y) (el ?x) (el ?y))
(<= (legal p (pick ?x)) (true (step ?s)) (el ?x) (row ?x a b c d e f g))
(<= (next (step ?n)) (true (step ?s)) (succ ?s ?n))
(<= (next (chosen ?x)) (does p (pick ?x)))
(<= (next (chosen ?x)) (true (chosen ?x)))
(<= terminal (true (step 4)))
(<= (goal p 100) (true (chosen ?x)) (goodRow ?x ?x) (pair ?x a))
(<= (goal p 0) (not (true (chosen a))) (not (true (chosen b))))
(<= (goal p 0) (true (step ?s)) (distinct ?s 4))
`

// TestLargeStatics: the static relations too large to compute whole are
// the one past the budget and those that read it; the small ones are not.
func TestLargeStatics(t *testing.T) {
	g, err := gdl.Load("list.kif", []byte(listGame))
	require.NoError(t, err)
	// a small budget, as isList is past any (the program's own is
	// largeBudget)
	lim := sizeLimits{maxWork: 300_000, maxTuples: 50_000, timeCap: sizeTimeCap}
	large := largeStatics(g, lim)
	var names []string
	for n := range large {
		names = append(names, n.Name())
	}
	assert.ElementsMatch(t, []string{"row", "goodrow"}, names)
	assert.False(t, measureSizesWithin(g, lim).run.statics, "the sizer stops before the static relations are done")
	// Past largeTotal budgets, the components left are kept whole: of
	// three large relations, the first two (in dependency order) are
	// found.
	three := strings.Replace(listGame, "(<= (pair ?x ?y) (el ?x) (el ?y))", `(<= (pair ?x ?y) (el ?x) (el ?y))
(<= (big2 (m ?a ?b ?c ?d ?e ?f ?g)) (el ?a) (el ?b) (el ?c) (el ?d) (el ?e) (el ?f) (el ?g))
(<= (big3 (n ?a ?b ?c ?d ?e ?f ?g)) (el ?a) (el ?b) (el ?c) (el ?d) (el ?e) (el ?f) (el ?g))
(<= (legal p (pick2 ?x)) (true (step 0)) (el ?x) (big2 (m ?x a a a a a a)) (big3 (n ?x a a a a a a)))`, 1)
	g3, err := gdl.Load("three.kif", []byte(three))
	require.NoError(t, err)
	large = largeStatics(g3, lim)
	found := 0
	for _, n := range []string{"row", "big2", "big3"} {
		if large[gdl.Intern(n)] {
			found++
		}
	}
	assert.Equal(t, 2, found, "%v", large)

	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	ttt, err := gdl.Load("tictactoe.kif", b.Rules)
	require.NoError(t, err)
	assert.Empty(t, largeStatics(ttt, lim))
	assert.True(t, measureSizesWithin(ttt, lim).run.statics)
}

// TestSizesFromTupleProver: the tuple prover measures the sizes where the
// naive evaluation stops before it records a state (here in the static
// sums of numbers up to 300, as on gt_two_thirds); where the tuple prover
// cannot compute the static relations (a budget too small), the naive
// evaluation measures, and the program's stats say so.
func TestSizesFromTupleProver(t *testing.T) {
	g, err := gdl.Load("sums.kif", enginetest.SumsGame(300))
	require.NoError(t, err)
	s := measureSizes(g)
	require.True(t, s.run.tuple)
	assert.True(t, s.run.statics)
	assert.Greater(t, s.run.states, 5)
	if st := s.stats[gdl.Intern("total")]; assert.NotNil(t, st) {
		assert.Equal(t, 1.0, st.n, "one total a state")
	}
	if st := s.stats[gdl.Intern("sum")]; assert.NotNil(t, st) {
		assert.Equal(t, 301.0*302/2, st.n, "the static sums, exactly")
	}
	if st := s.trueStats[fkey{gdl.Intern("b"), 1}]; assert.NotNil(t, st) {
		assert.Equal(t, 1.0, st.n)
		assert.Equal(t, []float64{1}, st.dist, "the arguments' columns only")
	}
	naive := measureSizesWithin(g, sizeLimits{maxWork: 1000, maxTuples: sizeMaxTuples, timeCap: sizeTimeCap})
	assert.False(t, naive.run.tuple)
	assert.False(t, naive.run.statics, "the naive evaluation does not finish the sums")
	out, err := generate(g, "v", "sha")
	require.NoError(t, err)
	assert.NotContains(t, out.stats, "naive")
	out, err = generateWithin(g, sizeLimits{maxWork: 1000, maxTuples: sizeMaxTuples, timeCap: sizeTimeCap}, "v", "sha")
	require.NoError(t, err)
	assert.Contains(t, out.stats, "sizes by the naive evaluation over 0 states")
}
