package propnet_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

var benchGames = []string{"ticTacToe", "connectFour", "breakthrough", "reversi", "hex", "speedChess", "pancakes88", "checkers", "dotsAndBoxes"}

func loadBase(tb testing.TB, name string) *gdl.Game {
	tb.Helper()
	shared := enginetest.SharedDir()
	if shared == "" {
		tb.Skip("../shared not found")
	}
	g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif"))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkRollouts measures the random-rollout loop of a benchmark run
// (rollout.Run) on base games; the figure to watch is states/s.
func BenchmarkRollouts(b *testing.B) {
	for _, name := range benchGames {
		b.Run(name, func(b *testing.B) {
			m, err := propnet.New(loadBase(b, name))
			if err != nil {
				b.Fatal(err)
			}
			var changes int64
			var elapsed time.Duration
			for b.Loop() {
				st, err := rollout.Run(m, 200*time.Millisecond, uint64(changes))
				if err != nil {
					b.Fatal(err)
				}
				changes += st.StateChanges
				elapsed += st.Elapsed
			}
			b.ReportMetric(float64(changes)/elapsed.Seconds(), "states/s")
		})
	}
}

// TestNoAllocationPerStateChange plays rollouts and checks that a state
// change does not allocate once the machine is warm (states come from
// slabs: one allocation per few thousand states).
func TestNoAllocationPerStateChange(t *testing.T) {
	for _, name := range []string{"ticTacToe", "connectFour", "breakthrough"} {
		t.Run(name, func(t *testing.T) {
			m, err := propnet.New(loadBase(t, name))
			if err != nil {
				t.Fatal(err)
			}
			joint := make([]engines.Move, len(m.Roles()))
			s, _ := m.Initial()
			step := func() {
				term, _ := m.Terminal(s)
				if term {
					s, _ = m.Initial()
					return
				}
				for r := range joint {
					legal, err := m.Legal(s, r)
					if err != nil {
						t.Fatal(err)
					}
					joint[r] = legal[len(legal)/2]
				}
				s, _ = m.Next(s, joint)
			}
			for range 1000 {
				step()
			}
			if a := testing.AllocsPerRun(10000, step); a > 0.01 {
				t.Errorf("%.3f allocations per state change", a)
			}
		})
	}
}
