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

// RunFixed plays exactly n rollouts, each chosen as in a trace (rollout r
// draws from rand.New(rand.NewPCG(seed, r)) over the legal moves sorted by
// their text), so every correct engine does the same work and only the time
// differs. Move texts are cached per move, so the sort costs little.
func RunFixed(m engines.Machine, n int, seed uint64) (Stats, error) {
	roles := len(m.Roles())
	joint := make([]engines.Move, roles)
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
	var st Stats
	start := time.Now()
	for r := 0; r < n; r++ {
		rng := rand.New(rand.NewPCG(seed, uint64(r)))
		s, err := m.Initial()
		if err != nil {
			st.Elapsed = time.Since(start)
			return st, err
		}
		for step := 0; ; step++ {
			if step >= MaxTraceSteps {
				st.Elapsed = time.Since(start)
				return st, engines.Errorf(engines.ResourceLimit, "rollout %d did not end within %d steps", r, MaxTraceSteps)
			}
			term, err := m.Terminal(s)
			if err != nil {
				st.Elapsed = time.Since(start)
				return st, err
			}
			if term {
				break
			}
			for role := 0; role < roles; role++ {
				legal, err := m.Legal(s, role)
				if err != nil {
					st.Elapsed = time.Since(start)
					return st, err
				}
				sorted = append(sorted[:0], legal...)
				slices.SortFunc(sorted, func(a, b engines.Move) int { return strings.Compare(text(a), text(b)) })
				sorted = slices.CompactFunc(sorted, func(a, b engines.Move) bool { return text(a) == text(b) })
				joint[role] = sorted[rng.IntN(len(sorted))]
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
	}
	st.Elapsed = time.Since(start)
	return st, nil
}
