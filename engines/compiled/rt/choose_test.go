package rt

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// designEngine is raceEngine as a design named name whose next-state
// unit probes a relation extra more times (counted work) and sleeps for
// slow (time that no work count sees: a busy machine).
func designEngine(name string, extra int, slow time.Duration) *Engine {
	e := raceEngine(30)
	e.Design = name
	next := e.QNext[0].Run
	e.QNext[0].Run = func() {
		for range extra {
			e.Does.Has1(0)
		}
		if slow > 0 {
			time.Sleep(slow)
		}
		next()
	}
	return e
}

// TestWarmUpIsDeterministic: two setups of a program whose warm-ups meet
// different loads (one design slowed down in the first, the other in the
// second) keep the same design, the one that needs the least work per
// state change, whatever the clock says. A timed warm-up keeps bottom-up
// in one setup and magic sets in the other.
func TestWarmUpIsDeterministic(t *testing.T) {
	tests := []struct {
		name           string
		buWork, msWork int
		want           string
	}{
		{"magic sets needs a third of the work", 30, 0, DesignMagic},
		{"bottom-up needs a third of the work", 0, 30, DesignBottomUp},
		{"equal work keeps bottom-up", 10, 10, DesignBottomUp},
		{"magic sets under the bias keeps bottom-up", 12, 10, DesignBottomUp},
	}
	const slow = 100 * time.Microsecond
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for setup := range 2 {
				buSlow, msSlow := slow, time.Duration(0)
				if setup == 1 {
					buSlow, msSlow = 0, slow
				}
				live := []*Engine{designEngine(DesignBottomUp, tt.buWork, buSlow), designEngine(DesignMagic, tt.msWork, msSlow)}
				got = append(got, warmUp(live).Design)
			}
			require.Len(t, got, 2)
			assert.Equal(t, []string{tt.want, tt.want}, got)
		})
	}
}

// TestWarmUpWorkLimit: a design that needs far more work per state change
// than the other is stopped within warmDecisive times the other's work per
// round, so a hopeless design costs a bounded warm-up.
func TestWarmUpWorkLimit(t *testing.T) {
	cheap := designEngine(DesignBottomUp, 0, 0)
	dear := designEngine(DesignMagic, 5000, 0)
	before := Work
	assert.Equal(t, DesignBottomUp, warmUp([]*Engine{cheap, dear}).Design)
	s, w := cheap.warmPlay(0, warmWork)
	require.Greater(t, s, int64(0))
	perRound := float64(w) / float64(s) * warmSteps
	// the first round of each design, then no second round: it is
	// decisive; the limit is checked between units, so the dear design
	// may finish the unit it is in (5000 probes)
	assert.Less(t, float64(Work-before-w), perRound*(warmDecisive+1)+2*5000)
	assert.Zero(t, warmLimit, "the limit is lifted after the warm-up")
}

// TestPick: the design kept from the warm-up's work per state change
// (figures of real games' warm-ups).
func TestPick(t *testing.T) {
	all := []string{DesignBottomUp, DesignMagic, DesignMagicSites, DesignIncremental}
	for _, c := range []struct {
		name  string
		names []string
		costs []float64
		want  string
	}{
		// magic sets and the incremental design both beat bottom-up:
		// the least work
		{"solitaireChineseCheckers", all, []float64{1591.9, 1237.3, 4264.6, 1339.3}, DesignMagic},
		// copies per call site need the least work but not 1.25x less
		// than bottom-up; the incremental design needs 1.1x less
		{"capture_the_king", all, []float64{8973.5, 8489.7, 7546.2, 7549.7}, DesignIncremental},
		{"skirmish", all, []float64{9855.2, 13949.4, 20105.0, 7987.3}, DesignIncremental},
		{"ticTacToe", []string{DesignBottomUp, DesignIncremental}, []float64{182.2, 266.0}, DesignBottomUp},
		// none needs less work than bottom-up
		{"sheepAndWolf", all, []float64{719.6, 721.7, 724.2, 789.4}, DesignBottomUp},
		// a design that played no state change (+Inf) is not kept
		{"amazons", all, []float64{math.Inf(1), 830790, math.Inf(1), math.Inf(1)}, DesignMagic},
		// without bottom-up, the least work
		{"no bottom-up", []string{DesignMagic, DesignIncremental}, []float64{100, 99}, DesignIncremental},
	} {
		if got := c.names[pick(c.names, c.costs)]; got != c.want {
			t.Errorf("%s: kept %s, want %s", c.name, got, c.want)
		}
	}
}
