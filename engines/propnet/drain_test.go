package propnet

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDrainFastMatchesGo plays the same seeded rollouts on two machines of
// each game, one draining with drainFast (assembly where there is one), the
// other with drainFastGo, and checks after every rollout that the networks
// are identical: counters, seen outputs, trigger bits, the work counted and
// the stack pointer; and that both played the same steps and goals. Both
// legal layouts are checked, so one-trigger nodes with successors are too;
// the testdata games have cyclic components, which drainFast leaves to
// emit; and with deferred edges, whose nodes it leaves to fire.
func TestDrainFastMatchesGo(t *testing.T) {
	games := LoadGames(t, "connectFour", "dotsAndBoxes", "knightsTour", "breakthrough", "hex")
	deferring := 0
	for name, g := range games {
		for _, legal := range []LegalLayout{LegalRead, LegalTriggers, LegalAuto} {
			// LegalAuto with every two-input AND gate's edge from its more
			// read input deferred: nodes handed to fire for them.
			fanout := DefaultDeferFanout
			if legal == LegalAuto {
				fanout = 1
			}
			t.Run(name+"/"+legal.String(), func(t *testing.T) {
				fast, err := New(g, WithLegal(legal), WithDeferFanout(fanout))
				require.NoError(t, err)
				slow, err := New(g, WithLegal(legal), WithDeferFanout(fanout))
				require.NoError(t, err)
				if fast.p.stats.DeferredGates > 0 {
					deferring++
				}
				slow.goDrain = true
				goals := [2][]int{make([]int, len(fast.p.roles)), make([]int, len(fast.p.roles))}
				for r := range uint64(30) {
					var steps [2]int64
					var errs [2]error
					for i, m := range []*Machine{fast, slow} {
						steps[i], _, errs[i] = m.Rollout(rand.New(rand.NewPCG(3, r)), nil, goals[i])
					}
					require.Equal(t, errs[0], errs[1], "rollout %d", r)
					require.Equal(t, steps[0], steps[1], "rollout %d", r)
					require.Equal(t, goals[0], goals[1], "rollout %d", r)
					require.True(t, slices.Equal(fast.cnt, slow.cnt), "rollout %d: counters differ", r)
					require.True(t, slices.Equal(fast.out, slow.out), "rollout %d: seen outputs differ", r)
					require.True(t, slices.Equal(fast.tbits, slow.tbits), "rollout %d: trigger bits differ", r)
					require.Equal(t, [3]int64{slow.work, slow.pops, int64(slow.sp)}, [3]int64{fast.work, fast.pops, int64(fast.sp)}, "rollout %d: work, pops, sp", r)
				}
			})
		}
	}
	require.Greater(t, deferring, len(games)/2, "most games should have deferred edges at WithDeferFanout(1)")
}
