package protocol

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Stats is what a run of rollouts measured.
type Stats struct {
	StateChanges int64
	Rollouts     int64 // finished rollouts
	Elapsed      time.Duration
}

// Play plays rollout r (counted from 0) of a run and returns its state
// changes, finished or not. stop, when not nil, is to be asked before
// every step; when it says the time is over, the rollout ends unfinished
// with stopped set.
type Play func(r int64, stop func() bool) (steps int64, stopped bool, err error)

// Loop plays rollouts one after another with play: until c says the time
// is over (c not nil: a timed run) or n rollouts are finished (n >= 0). A
// timed run asks the clock within a rollout (c.Over, passed to play as
// stop) and after each finished one (c.OverBetween); the state changes of
// an unfinished last rollout count. A game error stops the run and is
// returned with the figures so far. Every engine's timed runs go through
// this loop, so that they all read the clock the same way.
func Loop(c *Clock, n int64, play Play) (Stats, error) {
	var stop func() bool
	if c != nil {
		stop = c.Over
	}
	var st Stats
	start := time.Now()
	if c != nil {
		// The run's time counts from its clock's start, so that a run
		// stopped by its deadline never reports less than its time (a
		// process preempted between making the clock and this line did).
		start = c.start
	}
	for n < 0 || st.Rollouts < n {
		steps, stopped, err := play(st.Rollouts, stop)
		st.StateChanges += steps
		if err != nil || stopped {
			st.Elapsed = time.Since(start)
			return st, err
		}
		st.Rollouts++
		if c != nil && c.OverBetween(st.StateChanges) {
			break
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// TimedRand is the random source of a timed run with seed: one stream for
// all its rollouts.
func TimedRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// Clock tells a timed run when its time is over. Within a rollout (Over,
// asked before every step) and between rollouts (OverBetween) it is read
// only every few times it is asked, as many as take about a quarter of a
// millisecond (a read costs as much as a few state changes of a fast
// engine on a small game): within a rollout at most every 64 steps,
// between rollouts at least every 64 state changes. A run ends at most 64
// steps late, and at most a step or two late where steps are slow (a
// second each on a few games, where 64 steps were a minute).
type Clock struct {
	now       func() time.Time
	start     time.Time // wall time when the clock was made
	deadline  time.Time
	between   pace // OverBetween's reads
	lastSteps int64
	within    pace // Over's reads
}

// pace spaces a clock's reads: every every-th ask reads it, and every
// doubles (up to max) while the reads come under a quarter of a
// millisecond apart and halves while they come over a millisecond apart.
type pace struct {
	every, n, max int
	last          time.Time
}

// tick counts an ask and reports whether it is time to read.
func (p *pace) tick() bool {
	p.n++
	return p.n >= p.every
}

// read records a read of the clock at now.
func (p *pace) read(now time.Time) {
	p.n = 0
	switch d := now.Sub(p.last); {
	case d < 250*time.Microsecond && p.every < p.max:
		p.every *= 2
	case d > time.Millisecond && p.every > 1:
		p.every /= 2
	}
	p.last = now
}

// Start is the wall time when the clock was made: a run's time counts
// from it.
func (c *Clock) Start() time.Time { return c.start }

// NewClock returns the clock of a run of d from now.
func NewClock(d time.Duration) *Clock { return NewClockFunc(time.Now, d) }

// NewClockFunc returns the clock of a run of d that reads the time with
// now (a test's counterfeit time).
func NewClockFunc(now func() time.Time, d time.Duration) *Clock {
	return &Clock{now: now, start: time.Now(), deadline: now().Add(d),
		between: pace{every: 1, max: maxBetween}, within: pace{every: 1, max: maxWithin}}
}

// maxWithin bounds the steps between two reads of the clock within a
// rollout, maxBetween the rollouts between two reads after rollouts.
const (
	maxWithin  = 64
	maxBetween = 1 << 12
)

// Over is asked before every step of a rollout and reports whether the
// time is over; it reads the clock only when it is time to.
func (c *Clock) Over() bool {
	if !c.within.tick() {
		return false
	}
	now := c.now()
	c.within.read(now)
	return now.After(c.deadline)
}

// OverBetween is asked after each finished rollout, with the state changes
// so far; it reads the clock only when it is time to.
func (c *Clock) OverBetween(steps int64) bool {
	if !c.between.tick() && steps-c.lastSteps < 64 {
		return false
	}
	c.lastSteps = steps
	now := c.now()
	c.between.read(now)
	return now.After(c.deadline)
}

// Chooser makes the move choices of traces and fixed-work runs: for
// rollout r, rand.New(rand.NewPCG(seed, r)) draws each role's move from its
// legal moves sorted by their text, duplicates dropped, so every correct
// engine makes the same choices. The texts are cached per move: by index
// where the moves have one (NewIndexedChooser), so that a fixed-work run
// does the same work in every process (a Go map's probes depend on its
// random hash seed), else in a map.
type Chooser[M comparable] struct {
	text   func(M) string
	index  func(M) int
	byIdx  []string
	known  []bool
	texts  map[M]string
	sorted []M
	rng    *rand.Rand
}

// maxIndexedMoves bounds the slice cache of an indexed chooser; moves of a
// larger index are cached in the map.
const maxIndexedMoves = 1 << 20

// NewChooser returns a chooser over moves printed by text.
func NewChooser[M comparable](text func(M) string) *Chooser[M] {
	return &Chooser[M]{text: text, texts: map[M]string{}}
}

// NewIndexedChooser returns a chooser over moves printed by text whose
// texts are cached by index(move), a small non-negative integer such as a
// move id.
func NewIndexedChooser[M comparable](text func(M) string, index func(M) int) *Chooser[M] {
	c := NewChooser(text)
	c.index = index
	return c
}

// Start starts rollout r of seed's choices.
func (c *Chooser[M]) Start(seed uint64, r int64) { c.rng = rand.New(rand.NewPCG(seed, uint64(r))) }

// Text returns the text of mv.
func (c *Chooser[M]) Text(mv M) string {
	if c.index != nil {
		if i := c.index(mv); i >= 0 && i < maxIndexedMoves {
			if i < len(c.known) && c.known[i] {
				return c.byIdx[i]
			}
			if i >= len(c.known) {
				n := max(i+1, 2*len(c.known))
				c.byIdx = append(c.byIdx, make([]string, n-len(c.byIdx))...)
				c.known = append(c.known, make([]bool, n-len(c.known))...)
			}
			c.byIdx[i], c.known[i] = c.text(mv), true
			return c.byIdx[i]
		}
	}
	t, ok := c.texts[mv]
	if !ok {
		t = c.text(mv)
		c.texts[mv] = t
	}
	return t
}

// Sorted returns legal sorted by text without duplicate texts; the slice is
// reused by the next call.
func (c *Chooser[M]) Sorted(legal []M) []M {
	c.sorted = append(c.sorted[:0], legal...)
	slices.SortFunc(c.sorted, func(a, b M) int { return strings.Compare(c.Text(a), c.Text(b)) })
	c.sorted = slices.CompactFunc(c.sorted, func(a, b M) bool { return c.Text(a) == c.Text(b) })
	return c.sorted
}

// Pick returns the index of the move drawn from n sorted ones.
func (c *Chooser[M]) Pick(n int) int { return c.rng.IntN(n) }

// Choose draws a move from legal; role is unused (every role draws from
// the same stream, in role order).
func (c *Chooser[M]) Choose(_ int, legal []M) M {
	s := c.Sorted(legal)
	return s[c.Pick(len(s))]
}
