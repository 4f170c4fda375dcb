package prover_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
)

// playRollouts plays n seeded random rollouts within budget.
func playRollouts(m *prover.Machine, n int, seed uint64, budget time.Duration) (steps int, err error) {
	m.Prover().SetDeadline(time.Now().Add(budget))
	defer m.Prover().SetDeadline(time.Time{})
	for r := 0; r < n; r++ {
		rng := rand.New(rand.NewPCG(seed, uint64(r)))
		s, err := m.Initial()
		if err != nil {
			return steps, err
		}
		for {
			term, err := m.Terminal(s)
			if err != nil {
				return steps, err
			}
			if term {
				break
			}
			joint := make([]engines.Move, len(m.Roles()))
			for role := range joint {
				legal, err := m.Legal(s, role)
				if err != nil {
					return steps, err
				}
				joint[role] = legal[rng.IntN(len(legal))]
			}
			if s, err = m.Next(s, joint); err != nil {
				return steps, err
			}
			steps++
		}
		if _, err := m.Goals(s); err != nil {
			return steps, err
		}
	}
	return steps, nil
}

// TestCorpusRollouts plays 3 seeded rollouts of every valid mirrored
// rulesheet with a budget of 60 s each (make corpus-check). Without
// GDLPERF_CORPUS it plays one rollout of each with a budget of 20 s, for CI
// (make test-all); in short mode (make test) one of every seventh game.
func TestCorpusRollouts(t *testing.T) {
	games := enginetest.MirroredGames(t)
	n, every, budget := 1, 1, 20*time.Second
	switch {
	case os.Getenv("GDLPERF_CORPUS") != "":
		n, every, budget = 3, 1, 60*time.Second
	case testing.Short():
		every = 7
	}
	var valid, failed int
	for i, g := range games {
		if i%every != 0 {
			continue
		}
		src, err := os.ReadFile(g.Path)
		if err != nil {
			t.Fatal(err)
		}
		game, err := gdl.Load(g.Path, src)
		if err != nil {
			var inv *gdl.InvalidError
			if !errors.As(err, &inv) {
				t.Errorf("%s: %v", g.Path, err)
			}
			continue
		}
		valid++
		start := time.Now()
		steps, err := playRollouts(prover.NewMachine(game), n, 1, budget)
		if err != nil {
			failed++
			t.Logf("FAIL %s (%s): after %d steps, %s: %v", g.Name(), g.ID, steps, time.Since(start).Round(time.Millisecond), err)
			continue
		}
		t.Logf("ok %s: %d steps in %s", g.Name(), steps, time.Since(start).Round(time.Millisecond))
	}
	t.Logf("%d valid games, %d failed or timed out (%.1f%%)", valid, failed, 100*float64(failed)/float64(max(valid, 1)))
	if float64(failed) > 0.03*float64(valid) {
		t.Errorf("%d of %d valid games failed; the goal is under 3%%", failed, valid)
	}
}
