package enginetest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
)

// Reference is the engine every other is checked against.
func Reference() engines.Engine {
	e, ok := engines.Lookup(prover.Name)
	if !ok {
		panic("enginetest: the prover is not registered")
	}
	return e
}

// SuiteGames are the mirrored games the suite runs besides the built-in
// ones: small and large boards, simultaneous moves, recursion, counters.
var SuiteGames = []string{
	// The speed panel (../shared/design/PANEL.md).
	"base/ticTacToe/ticTacToe.kif",
	"base/connectFour/connectFour.kif",
	"base/breakthrough/breakthrough.kif",
	"base/reversi/reversi.kif",
	"base/hex/hex.kif",
	"base/speedChess/speedChess.kif",
	"base/amazons/amazons.kif",
	"base/checkers/checkers.kif",
	"base/englishDraughts/englishDraughts.kif",
	"base/chineseCheckers4/chineseCheckers4.kif",
	"base/sheepAndWolf/sheepAndWolf.kif",
	"base/dotsAndBoxes/dotsAndBoxes.kif",
	"base/knightsTour/knightsTour.kif",
	"base/pentago/pentago.kif",
	"base/3pConnectFour/3pConnectFour.kif",
	"base/connectFourSimultaneous/connectFourSimultaneous.kif",
	"base/eightPuzzle/eightPuzzle.kif",
	"base/skirmish/skirmish.kif",
	"base/4pffa/4pffa.kif",
	"base/nineBoardTicTacToe/nineBoardTicTacToe.kif",
	// Walls as fixed state terms, read through arithmetic: the propnet and
	// the compiled prover read them from a static relation
	// (engines/fixedfluent).
	"base/wargame03/wargame03.kif",
	// Two Dresden games with other habits of writing.
	"dresden/tictactoe/rulesheet.kif",
	"dresden/blocks/rulesheet.kif",
}

// ShortSuiteGames are the games of SuiteGames the suite runs in short mode
// (go test -short, make test): the small ones that still have simultaneous
// moves, three and four players, one player and Dresden's habits. The
// large boards (amazons, skirmish, speedChess, reversi, ...) take minutes
// per engine; make test-all runs them.
var ShortSuiteGames = []string{
	"base/ticTacToe/ticTacToe.kif",
	"base/connectFour/connectFour.kif",
	"base/3pConnectFour/3pConnectFour.kif",
	"base/connectFourSimultaneous/connectFourSimultaneous.kif",
	"base/knightsTour/knightsTour.kif",
	"base/4pffa/4pffa.kif",
	"base/wargame03/wargame03.kif",
	"dresden/tictactoe/rulesheet.kif",
	"dresden/blocks/rulesheet.kif",
}

// SharedDir finds ../shared beside the repository by walking up from the
// working directory; "" when there is none.
func SharedDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared", "gamerepo-mirror")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return filepath.Join(dir, "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// suiteGame is a game the suite runs.
type suiteGame struct {
	name string
	game *gdl.Game
}

func suiteGames(t *testing.T) []suiteGame {
	var out []suiteGame
	for _, b := range builtingames.All() {
		g, err := gdl.Load(b.File, b.Rules)
		if err != nil {
			t.Fatalf("built-in game %s: %v", b.Name, err)
		}
		out = append(out, suiteGame{"builtin/" + b.Name, g})
	}
	shared := SharedDir()
	if shared == "" {
		t.Log("../shared not found: the suite runs on the built-in games only")
		return out
	}
	mirrored := SuiteGames
	if testing.Short() {
		mirrored = ShortSuiteGames
		t.Logf("short mode: %d of the %d mirrored suite games (make test-all runs all)", len(mirrored), len(SuiteGames))
	}
	for _, p := range mirrored {
		g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", p))
		if err != nil {
			t.Logf("skipping %s: %v", p, err)
			continue
		}
		out = append(out, suiteGame{p, g})
	}
	tests, _ := filepath.Glob(filepath.Join(shared, "reference", "ggp-base-test-games", "*.kif"))
	sort.Strings(tests)
	for _, p := range tests {
		g, err := gdl.LoadFile(p)
		if err != nil {
			continue // the invalid ones, which the validator rejects
		}
		out = append(out, suiteGame{"ggp-base/" + filepath.Base(p), g})
	}
	return out
}

// Suite checks an engine against the reference on the built-in games, a
// fixed sample of mirrored games and GGP-Base's test games: traces of
// seeded rollouts, exhaustive comparison of the first 5,000 states, and
// the metamorphic renaming check. In short mode (go test -short, make
// test) it plays ShortSuiteGames of the mirrored games and compares 1,000
// states exhaustively. A new engine gets the whole suite with one test:
//
//	func TestConformance(t *testing.T) { enginetest.Suite(t, engines.MustLookup("x")) }
func Suite(t *testing.T, e engines.Engine) {
	ref := Reference()
	// The exhaustive comparison walks this many states of each game; the
	// reference takes most of a minute for 5,000 states of breakthrough.
	maxStates := 5_000
	if testing.Short() {
		maxStates = 1_000
	}
	for _, sg := range suiteGames(t) {
		t.Run(sg.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				m, err := conform.TraceCheck(ref, e, sg.game, seed, 4)
				if err != nil {
					t.Fatal(err)
				}
				if m != nil {
					t.Fatalf("seed %d: %v\nmoves:\n%s", seed, m, m.HistoryText())
				}
			}
			rm, err := ref.New(sg.game)
			if err != nil {
				t.Fatal(err)
			}
			em, err := e.New(sg.game)
			if err != nil {
				t.Fatal(err)
			}
			if err := conform.RollerCheck(e, sg.game, 2, 20); err != nil {
				t.Fatal(err)
			}
			m, st, err := conform.Exhaustive(rm, em, maxStates)
			if err != nil {
				t.Fatal(err)
			}
			if m != nil {
				t.Fatalf("%v\nmoves:\n%s", m, m.HistoryText())
			}
			if st.Complete {
				t.Logf("exhaustive: all %d reachable states agree", st.States)
			}
			m, err = conform.Metamorphic(e, sg.game, 11, 3)
			if err != nil {
				t.Fatal(err)
			}
			if m != nil {
				t.Fatalf("%v\nmoves:\n%s", m, m.HistoryText())
			}
		})
	}
}
