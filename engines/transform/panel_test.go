package transform

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestPanelGamesStayEquivalent runs every transform (seed 1; shuffle also
// seed 2) on the twenty panel games and plays the original and the
// transformed game with the prover and the tuple prover (two rollouts,
// each engine's machines stopped at a resource limit after 30 s, which is
// no answer). It takes tens of minutes, so only GDLPERF_CORPUS=1 (make
// transform-check) runs it, as the other corpus tests; it logs how many
// pairs agreed to the end.
func TestPanelGamesStayEquivalent(t *testing.T) {
	if testing.Short() || os.Getenv("GDLPERF_CORPUS") == "" {
		t.Skip("tens of minutes on two cores (400 game, transform and engine triples); GDLPERF_CORPUS=1, make transform-check, runs it")
	}
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	full, limited := 0, 0
	defer func() {
		t.Logf("%d game, transform and engine triples agree to the end, %d up to the time limit", full, limited)
	}()
	for _, p := range enginetest.SuiteGames[:20] {
		path := filepath.Join(shared, "gamerepo-mirror", p)
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		g, err := gdl.Load(p, src)
		require.NoError(t, err)
		ng := namedGame{p, src, g}
		type job struct {
			name string
			seed uint64
		}
		jobs := []job{{Shuffle, 2}}
		for _, n := range checkedTransforms {
			jobs = append(jobs, job{n, 1})
		}
		for _, j := range jobs {
			t.Run(filepath.Dir(p)+"/"+j.name, func(t *testing.T) {
				res, err := Run([]string{j.name}, j.seed, p, src)
				require.NoError(t, err)
				for _, e := range engineNames() {
					if requireEquivalent(t, timeLimited(lookup(t, e), 30*time.Second), ng, res, j.seed, 2) {
						limited++
						t.Logf("%s: up to the time limit", e)
					} else {
						full++
					}
				}
			})
		}
	}
}
