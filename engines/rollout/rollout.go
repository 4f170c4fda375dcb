// Package rollout runs the random rollouts that gdlperf measures, writes
// the correctness traces that engines are compared by, and writes the
// engine process's result file (ARCHITECTURE.md §3 and §4).
package rollout

import (
	"math/rand/v2"
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
	roles := len(m.Roles())
	joint := make([]engines.Move, roles)
	var st Stats
	start := time.Now()
	deadline := start.Add(d)
	for {
		s, err := m.Initial()
		if err != nil {
			st.Elapsed = time.Since(start)
			return st, err
		}
		for step := 0; ; step++ {
			if step&63 == 63 && time.Now().After(deadline) {
				st.Elapsed = time.Since(start)
				return st, nil
			}
			term, err := m.Terminal(s)
			if err != nil {
				st.Elapsed = time.Since(start)
				return st, err
			}
			if term {
				break
			}
			for r := 0; r < roles; r++ {
				legal, err := m.Legal(s, r)
				if err != nil {
					st.Elapsed = time.Since(start)
					return st, err
				}
				joint[r] = legal[rng.IntN(len(legal))]
			}
			if s, err = m.Next(s, joint); err != nil {
				st.Elapsed = time.Since(start)
				return st, err
			}
			st.StateChanges++
		}
		if _, err := m.Goals(s); err != nil {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
		if time.Now().After(deadline) {
			st.Elapsed = time.Since(start)
			return st, nil
		}
	}
}
