// Package rollout runs the random rollouts that gdlperf measures, writes
// the correctness traces that engines are compared by, and writes the
// engine process's result file (ARCHITECTURE.md §3 and §4).
package rollout

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
)

// Stats is what a timed run measured.
type Stats struct {
	StateChanges int64
	Rollouts     int64
	Elapsed      time.Duration
}

// Run plays random rollouts on m until d has elapsed: from the initial
// state, until a terminal state, one uniformly random legal move per role
// and the next state; at the terminal state, the goals of every role. The
// state changes of an unfinished last rollout count. A game error stops the
// run and is returned with the figures so far.
func Run(m engines.Machine, d time.Duration, seed uint64) (Stats, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
	start := time.Now()
	deadline := start.Add(d)
	over := func() bool { return time.Now().After(deadline) }
	var st Stats
	joint := make([]engines.Move, len(m.Roles()))
	for {
		stopped, err := playout(m, joint, choose, 0, over, &st)
		if err != nil || stopped {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
		if over() {
			st.Elapsed = time.Since(start)
			return st, nil
		}
	}
}

// RunFixed plays exactly n rollouts, each chosen as in a trace (rollout r
// draws from rand.New(rand.NewPCG(seed, r)) over the legal moves sorted by
// their text), so every correct engine does the same work and only the time
// differs. Move texts are cached per move, so the sort costs little.
func RunFixed(m engines.Machine, n int, seed uint64) (Stats, error) {
	texts := map[engines.Move]string{}
	text := func(mv engines.Move) string {
		t, ok := texts[mv]
		if !ok {
			t = m.MoveText(mv)
			texts[mv] = t
		}
		return t
	}
	var sorted []engines.Move
	var rng *rand.Rand
	choose := func(_ int, legal []engines.Move) engines.Move {
		sorted = append(sorted[:0], legal...)
		slices.SortFunc(sorted, func(a, b engines.Move) int { return strings.Compare(text(a), text(b)) })
		sorted = slices.CompactFunc(sorted, func(a, b engines.Move) bool { return text(a) == text(b) })
		return sorted[rng.IntN(len(sorted))]
	}
	var st Stats
	joint := make([]engines.Move, len(m.Roles()))
	start := time.Now()
	for r := 0; r < n; r++ {
		rng = rand.New(rand.NewPCG(seed, uint64(r)))
		if _, err := playout(m, joint, choose, MaxTraceSteps, nil, &st); err != nil {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// playout plays one rollout of m, choosing each role's move with choose, and
// counts its state changes in st. With maxSteps > 0, a rollout longer than
// that is a game error; stop, when not nil, is asked every 64 steps and
// ends the rollout unfinished when it says so.
func playout(m engines.Machine, joint []engines.Move, choose func(role int, legal []engines.Move) engines.Move, maxSteps int, stop func() bool, st *Stats) (stopped bool, err error) {
	s, err := m.Initial()
	if err != nil {
		return false, err
	}
	for step := 0; ; step++ {
		if stop != nil && step&63 == 63 && stop() {
			return true, nil
		}
		if maxSteps > 0 && step >= maxSteps {
			return false, engines.Errorf(engines.ResourceLimit, "a rollout did not end within %d steps", maxSteps)
		}
		term, err := m.Terminal(s)
		if err != nil {
			return false, err
		}
		if term {
			break
		}
		for r := range joint {
			legal, err := m.Legal(s, r)
			if err != nil {
				return false, err
			}
			joint[r] = choose(r, legal)
		}
		if s, err = m.Next(s, joint); err != nil {
			return false, err
		}
		st.StateChanges++
	}
	_, err = m.Goals(s)
	return false, err
}
