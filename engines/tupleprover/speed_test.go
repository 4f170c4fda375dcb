package tupleprover_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSpeedRatio measures the tuple prover against the prover on a few
// base games by CPU time (the machine is shared, so wall time is noisy):
// both engines play the same random rollouts for about a second each,
// interleaved, three times. GDLPERF_SPEED=game1,game2 picks the games;
// GDLPERF_SPEED_DESIGNS=1 also measures each design forced.
func TestSpeedRatio(t *testing.T) {
	env := os.Getenv("GDLPERF_SPEED")
	if env == "" {
		t.Skip("set GDLPERF_SPEED=ticTacToe,connectFour,... to measure")
	}
	shared := enginetest.SharedDir()
	logProd, n := 0.0, 0
	for _, name := range strings.Split(env, ",") {
		path := filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif")
		g, err := gdl.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		es := []engines.Engine{engine(t), enginetest.Reference()}
		ms := make([]engines.Machine, 2, 4)
		for i, e := range es {
			if ms[i], err = e.New(g); err != nil {
				t.Fatal(err)
			}
		}
		if os.Getenv("GDLPERF_SPEED_DESIGNS") != "" {
			// both designs forced, reported beside the chosen one
			for _, d := range []string{"bottom-up", "magic sets"} {
				m, err := tupleprover.New(g, tupleprover.WithDesign(d))
				if err != nil {
					fmt.Printf("%-24s %s: %v\n", name, d, err)
					ms = append(ms, nil)
					continue
				}
				ms = append(ms, m)
			}
		}
		sps := make([][]float64, len(ms))
		for rep := 0; rep < 3; rep++ {
			for i, m := range ms {
				if m == nil {
					sps[i] = append(sps[i], 0)
					continue
				}
				c0 := cpuTime()
				st, err := rollout.Run(m, time.Second, uint64(rep))
				if err != nil {
					t.Fatal(err)
				}
				sps[i] = append(sps[i], float64(st.StateChanges)/(cpuTime()-c0).Seconds())
			}
		}
		best := func(x []float64) float64 {
			b := 0.0
			for _, v := range x {
				b = math.Max(b, v)
			}
			return b
		}
		r := best(sps[0]) / best(sps[1])
		logProd += math.Log(r)
		n++
		fmt.Printf("%-24s tupleprover %10.0f  prover %10.0f  ratio %6.2f", name, best(sps[0]), best(sps[1]), r)
		if len(ms) == 4 {
			fmt.Printf("  (%s) bottom-up %10.0f  magic sets %10.0f", ms[0].(*tupleprover.Machine).Design(), best(sps[2]), best(sps[3]))
		}
		fmt.Println()
	}
	fmt.Printf("geometric mean ratio %.2f over %d games\n", math.Exp(logProd/float64(n)), n)
}
