package compiled_test

import (
	"testing"
)

// TestTraces compares the program's own traces (-trace) with the prover's,
// byte for byte apart from the header, on the built-in games and a few
// mirrored ones (short mode leaves out reversi, which no other short test
// builds; make test-all runs it).
func TestTraces(t *testing.T) {
	for _, name := range []string{"tictactoe", "connectfour", "breakthrough", "eightpuzzle", "hex", "racetotwentyone", "rockpaperscissors", "threeplayerlines"} {
		t.Run("builtin/"+name, func(t *testing.T) {
			checkTrace(t, builtin(t, name), 1, 3)
		})
	}
	for _, rel := range []string{"base/ticTacToe/ticTacToe.kif", "base/connectFour/connectFour.kif", "base/breakthrough/breakthrough.kif", "base/reversi/reversi.kif"} {
		t.Run(rel, func(t *testing.T) {
			if testing.Short() && rel == "base/reversi/reversi.kif" {
				t.Skip("slow to build: make test-all runs it")
			}
			checkTrace(t, mirrored(t, rel), 7, 2)
		})
	}
}
