package rt

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// The designs of a program: the game's rules evaluated bottom-up as they
// are, or rewritten with magic sets (gdl.MagicSets), which computes only
// the tuples that the questions demand.
const (
	DesignBottomUp = "bottom-up"
	DesignMagic    = "magic sets"
)

// Design is one design compiled into the program: Setup returns its
// engine, filled in but not loaded.
type Design struct {
	Name  string
	Setup func() *Engine
}

// The warm-up that chooses between the designs: rounds of random steps on
// each design in turn, each bounded in steps and time; the faster design
// is kept. Bottom-up is kept unless magic sets is preferBottomUp times
// faster (the tuple prover's bias).
const (
	warmRounds     = 2
	warmSteps      = 200
	warmTime       = 100 * time.Millisecond
	preferBottomUp = 1.25
	// after the first round, a design this many times slower is not
	// measured again
	warmDecisive = 20
)

// warmDeadline, when set, stops a question of the warm-up: the question
// fails with a resource-limit error (checked between units and every
// 65536 adds, as the static relations' budget).
var warmDeadline time.Time

// checkWarm fails the current question once the warm-up round is over.
func checkWarm() {
	if !warmDeadline.IsZero() && time.Now().After(warmDeadline) {
		Fail(protocol.ResourceLimit, "the warm-up ran over %s", warmTime)
	}
}

// active is the loaded engine whose relations the global count Cells
// holds; each engine keeps its own count while another is active.
var active *Engine

func activate(e *Engine) {
	if active == e {
		return
	}
	if active != nil {
		active.cells = Cells
	}
	Cells = e.cells
	active = e
}

// MainChoose runs the program's command line with the designs it has
// (bottom-up first) and exits.
func MainChoose(designs ...Design) {
	os.Exit(RunChoose(designs, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// choose loads the engines (only the one named forced, if set), plays
// the warm-up on them and returns the faster; the others are released. A
// design that fails to load is dropped; when all fail, the error is the
// first design's.
func choose(es []*Engine, forced string) (*Engine, error) {
	if forced != "" {
		var names []string
		var keep []*Engine
		for _, e := range es {
			names = append(names, e.Design)
			if e.Design == forced {
				keep = append(keep, e)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("this program has no design %q (it has %s)", forced, strings.Join(names, ", "))
		}
		es = keep
	}
	var live []*Engine
	var firstErr error
	for _, e := range es {
		activate(e)
		if err := e.Load(); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			e.release()
			continue
		}
		live = append(live, e)
	}
	if len(live) == 0 {
		return nil, firstErr
	}
	best := live[0]
	if len(live) > 1 {
		rates := make([]float64, len(live))
		for round := range warmRounds {
			for i, e := range live {
				activate(e)
				rates[i] = max(rates[i], e.warmRate(uint64(round)))
			}
			lo, hi := rates[0], rates[0]
			for _, r := range rates {
				lo, hi = min(lo, r), max(hi, r)
			}
			if hi > warmDecisive*lo {
				break
			}
		}
		bi, bestRate := 0, rates[0]*preferBottomUp
		if live[0].Design != DesignBottomUp {
			bestRate = rates[0]
		}
		for i := 1; i < len(live); i++ {
			if rates[i] > bestRate {
				bi, bestRate = i, rates[i]
			}
		}
		best = live[bi]
		for _, e := range live {
			if e != best {
				activate(e)
				e.release()
			}
		}
		debug.FreeOSMemory()
	}
	activate(best)
	return best, nil
}

// warmRate plays random rollouts (the run's playout) within warmSteps
// state changes and warmTime and returns the state changes per second. A
// game error ends the round (the other design meets the same one).
func (e *Engine) warmRate(round uint64) float64 {
	rng := rand.New(rand.NewPCG(round, 0x5eed))
	choose := func(_ int, legal []int32) int32 { return legal[rng.IntN(len(legal))] }
	start := time.Now()
	warmDeadline = start.Add(warmTime)
	defer func() { warmDeadline = time.Time{} }()
	var steps int64
	over := func() bool { return steps >= warmSteps || time.Now().After(warmDeadline) }
	joint := make([]int32, len(e.Roles))
	for !over() {
		if stopped, err := e.playout(joint, choose, 0, over, &steps); err != nil || stopped {
			break
		}
	}
	el := time.Since(start)
	// the states of the warm-up are forgotten
	e.cur = nil
	e.movesValid = false
	e.stateGen++
	e.moveGen++
	return float64(steps) / max(el.Seconds(), 1e-6)
}

// release drops an engine's data (the generated package's variables keep
// pointing at its store and relations, now empty).
func (e *Engine) release() {
	for _, r := range e.Rels {
		for _, ix := range r.Ix {
			*ix = Index{}
		}
		*r = Rel{}
	}
	for _, r := range e.TrueRel {
		if r != nil {
			*r = Rel{}
		}
	}
	*e.S = Store{}
	e.mark, e.slab, e.Facts, e.moves, e.cur, e.tup = nil, nil, nil, nil, nil, nil
	e.cells = 0
	if active == e {
		Cells = 0
	}
}
