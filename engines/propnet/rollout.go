package propnet

import (
	"math/rand/v2"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

var _ engines.Roller = (*Machine)(nil)

// Rollout implements engines.Roller. In fast mode the network itself is
// the rollout's position: each step reads terminal and the legal moves from
// it, propagates the joint move, and moves the bases to the next-state bits
// the triggers kept; no state is made. The full-pass twin plays through
// the Machine's methods.
func (m *Machine) Rollout(rng *rand.Rand, stop func() bool, goals []int) (steps int64, stopped bool, err error) {
	if m.mode == FullPass {
		return rollout.Playout(struct{ engines.Machine }{m}, rng, stop, goals)
	}
	p := m.p
	if len(m.joint) != len(p.roles) {
		m.joint = make([]engines.Move, len(p.roles))
	}
	joint := m.joint
	m.setState(m.initial)
	for step := 0; ; step++ {
		if stop != nil && stop() {
			return steps, true, nil
		}
		if m.cnt[p.terminal>>1]>>31^uint32(p.terminal&1) == 1 {
			break
		}
		for r := range joint {
			var legal []engines.Move
			if p.scanLegal {
				legal = m.readMoves(r)
			} else {
				legal = m.legalMoves(r)
			}
			if len(legal) == 0 {
				return steps, false, engines.Errorf(engines.NoLegalMove, "role %s has no legal move in the state %s", p.roles[r], m.bitsText(m.curBits))
			}
			joint[r] = legal[rng.IntN(len(legal))]
		}
		m.play(joint)
		m.cur = nil // the network's position is no state object
		m.moveTo(m.nextBits)
		steps++
	}
	m.evalGoals()
	return steps, false, m.goalsInto(goals, func() string { return m.bitsText(m.curBits) })
}
