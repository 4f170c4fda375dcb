package rt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// The designs of a program: the game's rules evaluated bottom-up as they
// are, or rewritten with magic sets, which computes only the tuples that
// the questions demand: a copy of a relation per binding pattern
// (gdl.MagicSetsShared), or per call site (gdl.MagicSets).
const (
	DesignBottomUp   = "bottom-up"
	DesignMagic      = "magic sets"
	DesignMagicSites = "magic sets per call site"
	// DesignMagicDemand: magic sets with the static relations too large
	// to compute whole asked on demand; a fallback (Design.Fallback).
	DesignMagicDemand = "magic sets, large statics on demand"
	// DesignIncremental: the relations that depend on the state or the
	// moves kept from one question to the next and updated by the
	// change (inc.go).
	DesignIncremental = "incremental"
)

// Design is one design compiled into the program: Setup returns its
// engine, filled in but not loaded.
type Design struct {
	Name  string
	Setup func() *Engine
	// Fallback: the design is loaded only when no other design loads
	// (unless -design names it).
	Fallback bool
}

// The warm-up that chooses between the designs: rounds of random steps on
// each design in turn, each bounded in steps and in work; the design that
// needs the least work per state change is kept. Work (rel.go) counts the
// evaluation's elementary operations rather than time, so that every
// process makes the same choice for a game: a benchmark run, its repetition
// and an instruction count of it run the same design and do the same work.
// Bottom-up is kept unless magic sets needs preferBottomUp times less work
// (the tuple prover's bias), or the incremental design preferBottomUpInc
// times less. warmTime (CPU time, so that a busy machine
// does not reach it sooner) is only a safety net against a game whose work
// the count misses; a round that reaches it is cut by time.
const (
	warmRounds     = 2
	warmSteps      = 200
	warmWork       = 2_000_000
	warmTime       = 30 * time.Second
	preferBottomUp = 1.25
	// the incremental design's work count follows its time less closely
	// since its units that read volatile facts are plain: on the panel,
	// its time per unit of work is 0.70-1.51 times bottom-up's (median
	// 1.04); at a work ratio of 0.83 (checkers) it runs 1.15x faster, at
	// 0.88 (4pffa) 1.09x slower, at 0.74 (englishDraughts) as fast
	preferBottomUpInc = 1.15
	// a design is not played past this many times the work per state
	// change of the best so far, and after the first round, a design this
	// many times costlier is not measured again
	warmDecisive = 20
)

// warmLimit and warmClock, when set, stop a question of the warm-up: the
// question fails with a resource-limit error once Work passes warmLimit
// (checked between units and every 65536 adds, as the static relations'
// budget) or the round's CPU time passes warmTime (checked every 64th
// time).
var (
	warmLimit  uint64
	warmClock  *engines.WorkClock
	warmChecks uint32
)

// checkWarm fails the current question once the warm-up round is over.
func checkWarm() {
	if warmLimit != 0 {
		warmCheck()
	}
}

// warmCheck is checkWarm's check during the warm-up, out of line so that
// checkWarm is inlined.
func warmCheck() {
	if Work > warmLimit {
		Fail(protocol.ResourceLimit, "the warm-up ran over %d units of work", warmLimit)
	}
	if warmChecks++; warmChecks&63 == 0 && warmClock.Used() > warmTime {
		Fail(protocol.ResourceLimit, "the warm-up ran over %s of CPU", warmTime)
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
// (bottom-up first) and exits. With GDLPERF_CPUPROFILE set, it writes a
// CPU profile of the run to that file (make pgo-profile's training runs,
// or a look at a program's hot spots with go tool pprof).
func MainChoose(designs ...Design) {
	stop := func() {}
	if p := os.Getenv("GDLPERF_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "GDLPERF_CPUPROFILE:", err)
			os.Exit(exitFailure)
		}
		stop = func() {
			pprof.StopCPUProfile()
			f.Close()
		}
	}
	code := RunChoose(designs, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// choose loads the engines (only the one named forced, if set), plays
// the warm-up on them and returns the faster; the others are released. A
// design that fails to load is dropped; when all fail, the fallback
// designs are loaded, and when they fail too, the error is the first
// design's.
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
	hasFallback := false
	for _, e := range es {
		hasFallback = hasFallback || e.Fallback
	}
	for _, fallback := range []bool{false, true} {
		for _, e := range es {
			if e.Fallback != fallback {
				continue
			}
			activate(e)
			if err := e.Load(); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				e.release()
				if ge, ok := asGameError(err); ok && ge.Kind == protocol.ResourceLimit && !fallback && hasFallback {
					// The other designs compute the same static
					// relations whole, past the same limit (on
					// laikLee_hex, 12 s each): on to the fallback.
					break
				}
				continue
			}
			live = append(live, e)
		}
		if len(live) > 0 {
			break
		}
	}
	if len(live) == 0 {
		return nil, firstErr
	}
	best := live[0]
	if len(live) > 1 {
		best = warmUp(live)
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

// warmUp plays the warm-up rounds on the designs (at least two) and
// returns the one kept.
func warmUp(live []*Engine) *Engine {
	steps := make([]int64, len(live))
	work := make([]uint64, len(live))
	// cost is the work per state change so far, +Inf before the first
	cost := func(i int) float64 {
		if steps[i] == 0 {
			return math.Inf(1)
		}
		return float64(work[i]) / float64(steps[i])
	}
	for round := range warmRounds {
		for i, e := range live {
			limit := uint64(warmWork)
			for j := range live {
				if c := cost(j); j != i && !math.IsInf(c, 1) {
					limit = min(limit, uint64(warmDecisive*c*warmSteps)+1)
				}
			}
			activate(e)
			s, w := e.warmPlay(uint64(round), limit)
			steps[i] += s
			work[i] += w
		}
		lo, hi := cost(0), cost(0)
		for i := range live {
			lo, hi = min(lo, cost(i)), max(hi, cost(i))
		}
		if hi > warmDecisive*lo {
			break
		}
	}
	names := make([]string, len(live))
	costs := make([]float64, len(live))
	for i, e := range live {
		names[i], costs[i] = e.Design, cost(i)
	}
	bi := pick(names, costs)
	if warmLog {
		for i, e := range live {
			fmt.Fprintf(os.Stderr, "warm-up: %s: %d state changes, %.1f units of work each\n", e.Design, steps[i], cost(i))
		}
		fmt.Fprintf(os.Stderr, "warm-up: kept %s\n", live[bi].Design)
	}
	return live[bi]
}

// pick returns the design kept from the designs' names and work per state
// change: when the first is bottom-up, the least work among the designs
// that beat it by their bias (preferBottomUp, preferBottomUpInc), or
// bottom-up if none does; otherwise the least work. The biases are
// thresholds against bottom-up only: between magic sets and the
// incremental design the work decides.
func pick(names []string, costs []float64) int {
	bu := names[0] == DesignBottomUp
	bi := 0
	for i := 1; i < len(names); i++ {
		if bu {
			bias := preferBottomUp
			if names[i] == DesignIncremental {
				bias = preferBottomUpInc
			}
			if costs[i]*bias >= costs[0] {
				continue
			}
		}
		if (bu && bi == 0) || costs[i] < costs[bi] {
			bi = i
		}
	}
	return bi
}

// warmLog (GDLPERF_COMPILED_WARMUP_LOG set) prints each design's work per
// state change in the warm-up, and the design kept, on stderr.
var warmLog = os.Getenv("GDLPERF_COMPILED_WARMUP_LOG") != ""

// warmPlay plays random rollouts (the run's playout) within warmSteps
// state changes and limit units of work (and warmTime) and returns the
// state changes and the work they took. A game error ends the round (the
// other design meets the same one).
func (e *Engine) warmPlay(round, limit uint64) (int64, uint64) {
	rng := rand.New(rand.NewPCG(round, 0x5eed))
	choose := func(_ int, legal []int32) int32 { return legal[rng.IntN(len(legal))] }
	start := Work
	warmLimit = start + limit
	warmClock = engines.StartWorkClock()
	defer func() { warmClock.Stop(); warmLimit, warmClock = 0, nil }()
	var steps int64
	over := func() bool { return steps >= warmSteps || Work > warmLimit || warmClock.Used() > warmTime }
	joint := make([]int32, len(e.Roles))
	for !over() {
		if stopped, err := e.playout(joint, choose, 0, over, &steps); err != nil || stopped {
			break
		}
	}
	// the states of the warm-up are forgotten
	e.cur = nil
	e.movesValid = false
	e.stateGen++
	e.moveGen++
	return steps, Work - start
}

// release drops an engine's data (the generated package's variables keep
// pointing at its store and relations, now empty).
func (e *Engine) release() {
	for _, r := range e.Rels {
		if r == nil {
			continue
		}
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
	if in := e.Inc; in != nil {
		for _, r := range in.Rels {
			for _, ix := range r.Ix {
				*ix = CIndex{}
			}
			*r = CRel{}
		}
		in.chg, in.held, in.facts = nil, nil, nil
	}
	*e.S = Store{}
	e.mark, e.slab, e.states, e.Facts, e.moves, e.cur, e.tup, e.init = nil, nil, nil, nil, nil, nil, nil, nil
	e.play, e.playFacts, e.goalVals, e.goalBuf, e.goalNum = [2]State{}, [2][]int32{}, nil, nil, nil
	e.cells = 0
	if active == e {
		Cells = 0
	}
}
