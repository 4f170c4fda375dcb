package rt

import (
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
