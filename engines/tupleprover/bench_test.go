package tupleprover_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// BenchmarkRollouts measures state changes per second on base games, the
// tuple prover and the prover side by side; the figure to watch is states/s.
//
//	go test -run='^$' -bench=Rollouts -cpuprofile=/tmp/tp.prof ./engines/tupleprover/
func BenchmarkRollouts(b *testing.B) {
	shared := enginetest.SharedDir()
	if shared == "" {
		b.Skip("../shared not found")
	}
	names := []string{"ticTacToe", "connectFour", "breakthrough", "reversi"}
	if env := os.Getenv("GDLPERF_BENCH_GAMES"); env != "" {
		names = filepath.SplitList(env)
	}
	for _, name := range names {
		path := filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		g, err := gdl.LoadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range []engines.Engine{engine(b), enginetest.Reference()} {
			if e.Name != "tupleprover" && os.Getenv("GDLPERF_BENCH_PROVER") == "" {
				continue
			}
			b.Run(name+"/"+e.Name, func(b *testing.B) {
				m, err := e.New(g)
				if err != nil {
					b.Fatal(err)
				}
				// rollout.Run as gdlperf run does it, 50 ms per iteration
				var changes int64
				var elapsed time.Duration
				for b.Loop() {
					st, err := rollout.Run(m, 50*time.Millisecond, uint64(changes))
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
}
