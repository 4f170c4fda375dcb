package compiled_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// TestDesignTraces forces each design of the program (-design) and
// compares its traces with the prover's: bottom-up and magic sets play
// the same game. Short mode leaves out merrills (its bottom-up program is
// slow to play; make test-all runs it).
func TestDesignTraces(t *testing.T) {
	games := []struct {
		name string
		tg   func(t *testing.T) testGame
		slow bool
	}{
		{"builtin/tictactoe", func(t *testing.T) testGame { return builtin(t, "tictactoe") }, false},
		{"base/hitori", func(t *testing.T) testGame { return mirrored(t, "base/hitori/hitori.kif") }, false},
		{"base/merrills", func(t *testing.T) testGame { return mirrored(t, "base/merrills/merrills.kif") }, true},
		// magic sets' copies shared by call sites, negations inside them
		{"base/blobwars", func(t *testing.T) testGame { return mirrored(t, "base/blobwars/blobwars.kif") }, false},
		// shared copies close cycles through negations: relations
		// computed whole (bottom-up plays 25 states a second)
		{"base/crissrace", func(t *testing.T) testGame { return mirrored(t, "base/crissrace/crissrace.kif") }, true},
		// three designs: magic sets' copies shared and per call site
		{"base/connectFourLarger", func(t *testing.T) testGame { return mirrored(t, "base/connectFourLarger/connectFourLarger.kif") }, false},
		// the incremental design's other paths: (true ?p) read whole (a
		// unit recounted at each change), (true gameend) of a constant,
		// goal's rules stratified by their arguments (a plain unit that
		// reads itself), recursion over the state (plain units whose
		// readers recount)
		{"base/switches", func(t *testing.T) testGame { return mirrored(t, "base/switches/switches.kif") }, false},
		{"base/ad_game_2x2", func(t *testing.T) testGame { return mirrored(t, "base/ad_game_2x2/ad_game_2x2.kif") }, false},
		{"base/futoshiki4", func(t *testing.T) testGame { return mirrored(t, "base/futoshiki4/futoshiki.kif") }, false},
		{"builtin/hex", func(t *testing.T) testGame { return builtin(t, "hex") }, false},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			if g.slow && testing.Short() {
				t.Skip("slow: make test-all runs it")
			}
			tg := g.tg(t)
			prog, err := compiled.Native(tg.game, tg.rules)
			require.NoError(t, err)
			want := proverTrace(t, tg.game, 3, 1)
			for _, d := range []string{"bottom-up", "magic", "magic-sites", "incremental"} {
				if !hasDesign(prog.Info, d) {
					t.Logf("no design %s: %q", d, prog.Info)
					continue
				}
				got := programTrace(t, prog, tg.path, 3, 1, "-design", d)
				sameTrace(t, want, got)
			}
		})
	}
}

// TestLooseMagic: slaughter's shared magic copies close a cycle through a
// negation that a magic relation's rule reads, computed whole as well, and
// its copies per call site are past the source limit: the negation is left
// out of the magic relations' rules, and the shared copies so made play
// as the prover (before, bottom-up was the only design: a state a second).
func TestLooseMagic(t *testing.T) {
	tg := mirrored(t, "base/slaughter/slaughter.kif")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	require.True(t, hasDesign(prog.Info, "magic"), "%q", prog.Info)
	assert.False(t, hasDesign(prog.Info, "magic-sites"), "%q", prog.Info)
	code, r, stderr := runProgram(t, prog.Path, "-rollouts", "1", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "magic sets", get(r, "design"))
	sameTrace(t, proverTrace(t, tg.game, 5, 1), programTrace(t, prog, tg.path, 5, 1, "-design", "magic"))
}

// hasDesign reports whether the program whose generator's figures are
// info has the design that -design d names.
func hasDesign(info []string, d string) bool {
	name := map[string]string{"bottom-up": "bottom-up", "magic": "magic sets", "magic-sites": "magic sets per call site", "magic-demand": "magic sets, large statics on demand", "incremental": "incremental"}[d]
	for _, line := range info {
		if rest, ok := strings.CutPrefix(line, name+": "); ok {
			return !strings.HasPrefix(rest, "left out")
		}
	}
	return false
}

// TestDesignChoice: on crisscross, whose relations bottom-up computes
// whole for thousands of times the work that the questions need, the
// warm-up keeps magic sets; a forced design is the one run.
func TestDesignChoice(t *testing.T) {
	tg := mirrored(t, "base/crisscross/crisscross.kif")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	code, r, stderr := runProgram(t, prog.Path, "-rollouts", "1", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "magic sets", get(r, "design"))
	keys := r.Keys()
	assert.Equal(t, protocol.KeyDesign, keys[len(keys)-1])

	code, r, stderr = runProgram(t, prog.Path, "-design", "magic", "-rollouts", "1", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "magic sets", get(r, "design"))

	code, _, _ = runProgram(t, prog.Path, "-design", "sideways", tg.path, "0")
	assert.Equal(t, 2, code)
}

// TestEmptyGuards: the units that a guard (rt.Unit.Guard) skips derive
// nothing. With GDLPERF_COMPILED_CHECK_EMPTY the program runs each skipped
// unit all the same and panics if it derives a tuple; the traces of both
// designs must still be the prover's. The magic-sets programs have guards
// (their units read a magic relation that is often empty).
func TestEmptyGuards(t *testing.T) {
	t.Setenv("GDLPERF_COMPILED_CHECK_EMPTY", "1")
	for _, name := range []string{"base/hitori/hitori.kif", "base/crisscross/crisscross.kif"} {
		t.Run(name, func(t *testing.T) {
			tg := mirrored(t, name)
			prog, err := compiled.Native(tg.game, tg.rules)
			require.NoError(t, err)
			src, err := os.ReadFile(filepath.Join(filepath.Dir(prog.Path), "ms", "engine.go"))
			require.NoError(t, err)
			assert.Contains(t, string(src), "Guard: [][]*rt.Rel{{")
			want := proverTrace(t, tg.game, 2, 2)
			for _, d := range []string{"bottom-up", "magic"} {
				sameTrace(t, want, programTrace(t, prog, tg.path, 2, 2, "-design", d))
			}
		})
	}
}

// TestLargeStaticOnDemand: a static relation too large to compute whole
// (every row of eight of ten elements, as laikLee_hex's isList and
// sudoku's exactlyFirst) is asked on demand by the fallback design,
// loaded because bottom-up's start-up stops at the program's limit on
// values; its traces are the prover's. On tic-tac-toe there is no
// fallback design.
func TestLargeStaticOnDemand(t *testing.T) {
	tg := sourceGame(t, "list.kif", compiled.ListGameForTest)
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	require.True(t, hasDesign(prog.Info, "magic-demand"), "%q", prog.Info)
	code, r, stderr := runProgram(t, prog.Path, "-rollouts", "1", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "magic sets, large statics on demand", get(r, "design"))
	sameTrace(t, proverTrace(t, tg.game, 4, 3), programTrace(t, prog, tg.path, 4, 3))

	ttt := builtin(t, "tictactoe")
	tprog, err := compiled.Native(ttt.game, ttt.rules)
	require.NoError(t, err)
	assert.False(t, hasDesign(tprog.Info, "magic-demand"), "%q", tprog.Info)
	for _, line := range tprog.Info {
		assert.NotContains(t, line, "large statics", "no line for a design that is not needed")
	}
}

// TestMemoTraces: memoGame's terms read through memos (by a fact, a move,
// a move and a player, a fact and a static row) play as the prover in every
// design.
func TestMemoTraces(t *testing.T) {
	tg := sourceGame(t, "memo.kif", compiled.MemoGameForTest)
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	want := proverTrace(t, tg.game, 5, 20)
	for _, d := range []string{"bottom-up", "magic", "magic-sites", "incremental"} {
		if !hasDesign(prog.Info, d) {
			continue
		}
		sameTrace(t, want, programTrace(t, prog, tg.path, 5, 20, "-design", d))
	}
}
