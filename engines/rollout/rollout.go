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
	// GoalSums is each role's goal values summed over the finished
	// rollouts.
	GoalSums []int64
}

// Run plays random rollouts on m until d has elapsed: from the initial
// state, until a terminal state, one uniformly random legal move per role
// and the next state; at the terminal state, the goals of every role. The
// state changes of an unfinished last rollout count. A game error stops the
// run and is returned with the figures so far. A machine that is an
// engines.Roller plays the rollouts with its own loop.
func Run(m engines.Machine, d time.Duration, seed uint64) (Stats, error) {
	c := &clock{deadline: time.Now().Add(d), every: 1}
	return run(m, seed, c, -1)
}

// clock tells a run when its time is over. Between rollouts it reads the
// time only every few rollouts (as many as take about a quarter of a
// millisecond: a read costs as much as a few state changes of a fast engine
// on a small game), and at least every 64 state changes, as within a
// rollout: a run ends at most 64 steps late.
type clock struct {
	deadline  time.Time
	every, n  int
	last      time.Time
	lastSteps int64
}

func (c *clock) over() bool { return time.Now().After(c.deadline) }

// overBetween is asked after each rollout, with the state changes so far.
func (c *clock) overBetween(steps int64) bool {
	if c.n++; c.n < c.every && steps-c.lastSteps < 64 {
		return false
	}
	c.n, c.lastSteps = 0, steps
	now := time.Now()
	switch d := now.Sub(c.last); {
	case d < 250*time.Microsecond && c.every < 1<<12:
		c.every *= 2
	case d > time.Millisecond && c.every > 1:
		c.every /= 2
	}
	c.last = now
	return now.After(c.deadline)
}

// RunRollouts plays exactly n of the rollouts that Run plays for seed,
// whatever the time they take: the same random draws, so an engine's own
// rollout loop can be compared with the generic one (hide the Roller by
// wrapping the machine: struct{ engines.Machine }).
func RunRollouts(m engines.Machine, n int64, seed uint64) (Stats, error) {
	return run(m, seed, nil, n)
}

// run plays rollouts until the clock says the time is over or, with
// n >= 0, n rollouts are finished.
func run(m engines.Machine, seed uint64, c *clock, n int64) (Stats, error) {
	var over func() bool
	if c != nil {
		over = c.over
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	start := time.Now()
	roles := len(m.Roles())
	st := Stats{GoalSums: make([]int64, roles)}
	goals := make([]int, roles)
	var roll func() (stopped bool, err error)
	if r, ok := m.(engines.Roller); ok {
		roll = func() (bool, error) {
			steps, stopped, err := r.Rollout(rng, over, goals)
			st.StateChanges += steps
			return stopped, err
		}
	} else {
		joint := make([]engines.Move, roles)
		choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
		roll = func() (bool, error) { return playout(m, joint, choose, 0, over, &st, goals) }
	}
	for n < 0 || st.Rollouts < n {
		stopped, err := roll()
		if err != nil || stopped {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
		for i, g := range goals {
			st.GoalSums[i] += int64(g)
		}
		if c != nil && c.overBetween(st.StateChanges) {
			break
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
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
	roles := len(m.Roles())
	st := Stats{GoalSums: make([]int64, roles)}
	joint := make([]engines.Move, roles)
	goals := make([]int, roles)
	start := time.Now()
	for r := 0; r < n; r++ {
		rng = rand.New(rand.NewPCG(seed, uint64(r)))
		if _, err := playout(m, joint, choose, MaxTraceSteps, nil, &st, goals); err != nil {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
		for i, g := range goals {
			st.GoalSums[i] += int64(g)
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// Playout plays one rollout of m through its methods, as Run does without
// an engines.Roller: each role's move is legal[rng.IntN(len(legal))]. It is
// the loop a Roller's Rollout must match, for an engine mode without its
// own.
func Playout(m engines.Machine, rng *rand.Rand, stop func() bool, goals []int) (steps int64, stopped bool, err error) {
	var st Stats
	joint := make([]engines.Move, len(m.Roles()))
	choose := func(_ int, legal []engines.Move) engines.Move { return legal[rng.IntN(len(legal))] }
	stopped, err = playout(m, joint, choose, 0, stop, &st, goals)
	return st.StateChanges, stopped, err
}

// playout plays one rollout of m, choosing each role's move with choose, and
// counts its state changes in st; the goals of its terminal state go to
// goals. With maxSteps > 0, a rollout longer than
// that is a game error; stop, when not nil, is asked every 64 steps and
// ends the rollout unfinished when it says so.
func playout(m engines.Machine, joint []engines.Move, choose func(role int, legal []engines.Move) engines.Move, maxSteps int, stop func() bool, st *Stats, goals []int) (stopped bool, err error) {
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
	g, err := m.Goals(s)
	copy(goals, g)
	return false, err
}
