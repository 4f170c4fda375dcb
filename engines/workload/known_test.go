package workload_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// TestKnownAnswers checks pns and full-depth minimax against games whose
// values are known: tic-tac-toe is a draw, race to twenty-one a win for
// the first player (add 1, then make every round 4), Nim a win for the
// player to move exactly when the heaps XOR to non-zero (Bouton), the 4x3
// connect three a win for white (TestConnectThreeBoard), and
// rock-paper-scissors worth 0 to a role whose move the other sees (the
// paranoid model). Every built-in engine gives them (the compiled prover
// without -short).
func TestKnownAnswers(t *testing.T) {
	tests := []struct {
		name     string
		game     string
		workload string
		budget   workload.Budget
		want     int
		wantBest string // minimax
	}{
		{name: "tictactoe pns xplayer", game: "tictactoe", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 50},
		{name: "tictactoe pns oplayer", game: "tictactoe", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000, Role: "oplayer"}, want: 50},
		{name: "tictactoe minimax full depth", game: "tictactoe", workload: workload.Minimax, budget: workload.Budget{Depth: 9}, want: 50, wantBest: "(mark 1 1)"},
		{name: "race pns first", game: "racetotwentyone", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 100},
		{name: "race pns second", game: "racetotwentyone", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000, Role: "second"}, want: 0},
		{name: "race minimax full depth", game: "racetotwentyone", workload: workload.Minimax, budget: workload.Budget{Depth: 12}, want: 100, wantBest: "(add 1)"},
		{name: "nim345 pns first", game: "nim345", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 100},
		{name: "nim345 pns second", game: "nim345", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000, Role: "second"}, want: 0},
		// The one winning move takes 2 from the heap of 3 (1 xor 4 xor 5 = 0).
		{name: "nim345 minimax full depth", game: "nim345", workload: workload.Minimax, budget: workload.Budget{Depth: 12}, want: 100, wantBest: "(take a 2)"},
		{name: "nim123 pns first", game: "nim123", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 0},
		{name: "nim123 pns second", game: "nim123", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000, Role: "second"}, want: 100},
		{name: "connectthree pns white", game: "connectthree", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 100},
		{name: "connectthree pns black", game: "connectthree", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000, Role: "black"}, want: 0},
		{name: "connectthree minimax full depth", game: "connectthree", workload: workload.Minimax, budget: workload.Budget{Depth: 12}, want: 100, wantBest: "(drop 1)"},
		{name: "rockpaperscissors pns left", game: "rockpaperscissors", workload: workload.PNS, budget: workload.Budget{Nodes: 100_000}, want: 0},
	}
	names := []string{prover.Name, tupleprover.Name, propnet.Name}
	if !testing.Short() {
		names = append(names, compiled.Name)
	}
	built := map[[2]string]engines.Machine{} // one machine per engine and game
	for _, tt := range tests {
		for _, name := range names {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				m, ok := built[[2]string{name, tt.game}]
				if !ok {
					m = machine(t, name, load(t, tt.game))
					built[[2]string{name, tt.game}] = m
				}
				res, err := workload.Run(m, tt.workload, tt.budget, 1, time.Now().Add(time.Minute))
				require.NoError(t, err)
				switch tt.workload {
				case workload.PNS:
					require.NotNil(t, res.PNS)
					assert.Equal(t, workload.Proved, res.PNS.Status, res.Answer())
					assert.Equal(t, tt.want, res.PNS.Value, res.Answer())
					assert.Equal(t, [2]int{tt.want, tt.want}, [2]int{res.PNS.Lo, res.PNS.Hi})
					var sum int64
					for _, r := range res.PNS.Runs {
						sum += r.Nodes
					}
					assert.Equal(t, res.Nodes, sum, "the searches' expansions add up to the run's")
				case workload.Minimax:
					require.NotNil(t, res.Minimax)
					assert.Equal(t, tt.want, res.Minimax.Value, res.Answer())
					assert.Equal(t, tt.wantBest, res.Minimax.Best)
					assert.True(t, res.Minimax.Exact, "a full-depth search reaches no horizon: %s", res.Answer())
				}
			})
		}
	}
}

// TestPNSThreshold runs single two-valued searches: x can hold tic-tac-toe
// to a draw but not win it, and a budget too small to decide says unknown
// with the bounds found so far.
func TestPNSThreshold(t *testing.T) {
	tests := []struct {
		name       string
		budget     workload.Budget
		wantStatus string
		wantLoHi   [2]int
		wantAnswer string
	}{
		{name: "draw reached", budget: workload.Budget{Nodes: 100_000, Threshold: 50}, wantStatus: workload.Proved, wantLoHi: [2]int{50, 100}, wantAnswer: "xplayer >=50 proved"},
		{name: "win out of reach", budget: workload.Budget{Nodes: 100_000, Threshold: 51}, wantStatus: workload.Disproved, wantLoHi: [2]int{0, 50}, wantAnswer: "xplayer >=51 disproved"},
		{name: "too few nodes for a threshold", budget: workload.Budget{Nodes: 10, Threshold: 50}, wantStatus: workload.Unknown, wantLoHi: [2]int{0, 100}, wantAnswer: "xplayer >=50 unknown"},
		{name: "too few nodes for the value", budget: workload.Budget{Nodes: 10}, wantStatus: workload.Unknown, wantLoHi: [2]int{0, 100}, wantAnswer: "xplayer value 0..100 unknown: >=50 unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := workload.Run(proverMachine(t, "tictactoe"), workload.PNS, tt.budget, 1, time.Time{})
			require.NoError(t, err)
			require.NotNil(t, res.PNS)
			assert.Equal(t, tt.wantStatus, res.PNS.Status)
			assert.Equal(t, tt.wantLoHi, [2]int{res.PNS.Lo, res.PNS.Hi})
			assert.Equal(t, tt.wantAnswer, res.Answer())
			assert.LessOrEqual(t, res.Nodes, tt.budget.Nodes)
		})
	}
}

// TestConnectThreeBoard solves connect three on 4 columns and 3 rows by
// exhaustive search over a plain board, apart from any GDL: white, moving
// first, wins (testdata/connectthree.kif's known answer), whatever its
// first move.
func TestConnectThreeBoard(t *testing.T) {
	const w, h = 4, 3
	type board [w][h]byte // 0 blank, 1 white, 2 black
	line := func(b *board, p byte) bool {
		for x := range w {
			for y := range h {
				for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					n := 0
					for i := range 3 {
						cx, cy := x+i*d[0], y+i*d[1]
						if cx >= 0 && cx < w && cy >= 0 && cy < h && b[cx][cy] == p {
							n++
						}
					}
					if n == 3 {
						return true
					}
				}
			}
		}
		return false
	}
	memo := map[board]int{}
	var value func(b board, p byte) int // white's value, p to move
	value = func(b board, p byte) int {
		if v, ok := memo[b]; ok {
			return v
		}
		v := 50
		switch {
		case line(&b, 1):
			v = 100
		case line(&b, 2):
			v = 0
		default:
			first := true
			for x := range w {
				y := 0
				for y < h && b[x][y] != 0 {
					y++
				}
				if y == h {
					continue
				}
				nb := b
				nb[x][y] = p
				c := value(nb, 3-p)
				if first || p == 1 && c > v || p == 2 && c < v {
					v, first = c, false
				}
			}
		}
		memo[b] = v
		return v
	}
	assert.Equal(t, 100, value(board{}, 1))
	for x := range w {
		var b board
		b[x][0] = 1
		assert.Equal(t, 100, value(b, 2), "white's first move into column %d", x+1)
	}
}
