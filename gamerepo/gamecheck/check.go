// Package gamecheck decides whether a game can be benchmarked: the static
// validator of package gdl (GGP-Base's checks and the GDL specification's
// safety, stratification and recursion restrictions), then a short dynamic
// check with the reference prover: a few random rollouts, seeded as the
// trace format chooses moves (ARCHITECTURE.md §4), looking for a role with
// no legal move, a role with no or several goal values in a terminal
// state, and no terminal state within a step bound. A game that fails is
// blacklisted with the reason; a game whose check ran out of its time
// budget is left unchecked, not blacklisted.
//
// It is a package of its own so that gamerepo (keys, caches, selection)
// does not depend on an engine.
package gamecheck

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/gamerepo"
)

// Status is the verdict on a game.
type Status int

// Verdicts.
const (
	Valid     Status = iota // passed the validator and the rollouts
	Invalid                 // to be blacklisted, for Reason
	Unchecked               // the check could not finish (time budget, prover limit)
)

func (s Status) String() string {
	switch s {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	}
	return "unchecked"
}

// Result is the check of one game.
type Result struct {
	Key      string
	Status   Status
	Reason   string       // why Invalid or Unchecked, one line
	Findings gdl.Findings // the validator's findings, with the game's File
	Rollouts int          // rollouts finished
	Steps    int          // joint moves played
	Elapsed  time.Duration
}

// Option sets a knob of Check.
type Option func(*options)

type options struct {
	rollouts int
	steps    int
	budget   time.Duration
	seed     uint64
	static   bool
}

// WithRollouts sets the number of random rollouts (default 3).
func WithRollouts(n int) Option { return func(o *options) { o.rollouts = max(n, 0) } }

// WithStepLimit sets the most joint moves a rollout may take before the
// game counts as non-terminating (default 1000).
func WithStepLimit(n int) Option { return func(o *options) { o.steps = max(n, 1) } }

// WithBudget bounds the time of the rollouts of one game (default 10 s).
func WithBudget(d time.Duration) Option { return func(o *options) { o.budget = d } }

// WithSeed sets the seed of the move choices (default 1).
func WithSeed(s uint64) Option { return func(o *options) { o.seed = s } }

// StaticOnly skips the rollouts.
func StaticOnly() Option { return func(o *options) { o.static = true } }

const maxReason = 400

// Check checks one game.
func Check(g gamerepo.Game, opts ...Option) (r Result) {
	o := options{rollouts: 3, steps: 1000, budget: 10 * time.Second, seed: 1}
	for _, f := range opts {
		f(&o)
	}
	start := time.Now()
	r = Result{Key: g.Key}
	defer func() {
		r.Elapsed = time.Since(start)
		if len(r.Reason) > maxReason {
			r.Reason = r.Reason[:maxReason-3] + "..."
		}
	}()
	// The reason must not depend on where the file lies: check it unnamed.
	game, err := gdl.Check("", g.Rules, gdl.DefaultLimits)
	if err != nil {
		var se *gdl.SyntaxError
		if errors.As(err, &se) {
			r.Status, r.Reason = Invalid, "syntax: "+err.Error()
		} else {
			r.Status, r.Reason = Invalid, "reader: "+err.Error()
		}
		return r
	}
	for _, f := range game.Findings {
		f.File = g.File
		r.Findings = append(r.Findings, f)
	}
	if errs := game.Findings.Errors(); len(errs) > 0 {
		r.Status, r.Reason = Invalid, "validator: "+errs[0].String()
		switch n := len(errs) - 1; {
		case n == 1:
			r.Reason += " (and 1 more error)"
		case n > 1:
			r.Reason += fmt.Sprintf(" (and %d more errors)", n)
		}
		return r
	}
	if o.static {
		return r
	}
	r.Status, r.Reason = play(game, o, &r)
	return r
}

// play runs the rollouts and returns the verdict.
func play(game *gdl.Game, o options, r *Result) (st Status, reason string) {
	defer func() {
		if p := recover(); p != nil {
			st, reason = Unchecked, fmt.Sprintf("the prover panicked: %v", p)
		}
	}()
	m := prover.NewMachine(game)
	deadline := time.Now().Add(o.budget)
	m.Prover().SetDeadline(deadline)
	defer m.Prover().SetDeadline(time.Time{})
	roles := m.Roles()
	for ro := 0; ro < o.rollouts; ro++ {
		rng := rand.New(rand.NewPCG(o.seed, uint64(ro)))
		where := func(step int) string { return fmt.Sprintf("rollout %d (seed %d) step %d", ro, o.seed, step) }
		fail := func(step int, err error) (Status, string) {
			var ge *engines.GameError
			if errors.As(err, &ge) && ge.Kind == engines.ResourceLimit {
				if !time.Now().Before(deadline) {
					return Unchecked, fmt.Sprintf("the prover ran past the %s budget at %s", o.budget, where(step))
				}
				return Unchecked, fmt.Sprintf("%s: the prover's limit: %v", where(step), err)
			}
			return Invalid, fmt.Sprintf("%s: %v", where(step), err)
		}
		s, err := m.Initial()
		if err != nil {
			return fail(0, err)
		}
		step := 0
		for ; ; step++ {
			term, err := m.Terminal(s)
			if err != nil {
				return fail(step, err)
			}
			if term {
				break
			}
			if step == o.steps {
				return Invalid, fmt.Sprintf("rollout %d (seed %d): no terminal state after %d steps", ro, o.seed, o.steps)
			}
			joint := make([]engines.Move, len(roles))
			for role := range roles {
				legal, err := m.Legal(s, role)
				if err != nil {
					return fail(step, err)
				}
				// Choose as the trace format does: from the moves sorted by text.
				moves := append([]engines.Move(nil), legal...)
				sort.Slice(moves, func(i, j int) bool { return m.MoveText(moves[i]) < m.MoveText(moves[j]) })
				joint[role] = moves[rng.IntN(len(moves))]
			}
			if s, err = m.Next(s, joint); err != nil {
				return fail(step, err)
			}
			r.Steps++
		}
		if _, err := m.Goals(s); err != nil {
			return fail(step, err)
		}
		r.Rollouts++
	}
	return Valid, ""
}

// CheckAll checks games with jobs workers (GOMAXPROCS when jobs < 1) and
// returns the results in the order of games. done, when set, is called
// after each game from one goroutine at a time.
func CheckAll(games []gamerepo.Game, jobs int, done func(n int, r Result), opts ...Option) []Result {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	out := make([]Result, len(games))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for w := 0; w < min(jobs, max(len(games), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = Check(games[i], opts...)
				if done != nil {
					mu.Lock()
					n++
					done(n, out[i])
					mu.Unlock()
				}
			}
		}()
	}
	for i := range games {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}
