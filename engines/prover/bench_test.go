package prover

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

const mirror = "../../../shared/gamerepo-mirror"

// BenchmarkRollouts measures state changes per second on base games; the
// figure to watch is states/s.
func BenchmarkRollouts(b *testing.B) {
	for _, name := range []string{"ticTacToe", "connectFour", "breakthrough", "reversi"} {
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(mirror, "base", name, name+".kif")
			if _, err := os.Stat(path); err != nil {
				b.Skip(err)
			}
			g, err := gdl.LoadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			m := NewMachine(g)
			var changes int64
			var elapsed time.Duration
			for b.Loop() {
				st, err := rollout.RunFixed(m, 1, uint64(changes))
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
