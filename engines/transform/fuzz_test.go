package transform

import (
	"testing"

	"github.com/gdlperf/gdlperf/engines/prover"
)

// FuzzTransformChains runs the built-in games through random chains of
// transforms: every chain must give a valid game that plays as the
// original does (the prover, two rollouts of the fuzzed seed).
func FuzzTransformChains(f *testing.F) {
	games := builtinGames(f)
	for gi := range games {
		for ti := range checkedTransforms {
			f.Add(uint8(gi), []byte{uint8(ti)}, uint64(1))
		}
		f.Add(uint8(gi), []byte{0, 2, 3, 7}, uint64(gi))
		f.Add(uint8(gi), []byte{5, 6, 7, 1}, uint64(2))
	}
	p := lookup(f, prover.Name)
	f.Fuzz(func(t *testing.T, game uint8, chain []byte, seed uint64) {
		if len(chain) == 0 || len(chain) > 4 {
			return
		}
		g := games[int(game)%len(games)]
		names := make([]string, len(chain))
		for i, b := range chain {
			names[i] = checkedTransforms[int(b)%len(checkedTransforms)]
		}
		res, err := Run(names, seed, g.name, g.src)
		if err != nil {
			t.Fatalf("%s through %v (seed %d): %v", g.name, names, seed, err)
		}
		requireEquivalent(t, p, g, res, seed, 2)
	})
}
