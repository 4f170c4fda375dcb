// Package propnet is gdlperf's propositional network engine: it grounds a
// game and simulates it as a circuit.
//
// Building a machine has four stages, each bounded by the build's time and
// memory budget (a game over budget is refused with its sizes, never left
// to run out of memory):
//
//  1. Grounding by relaxed reachability (ground.go): the static relations
//     are evaluated exactly; everything else is run forward from init, with
//     next feeding true and legal feeding does and the negation of
//     non-static atoms dropped, to a fixed point that over-approximates
//     every atom that can ever hold. Rules are first split by variable
//     elimination, so that chains of joins are grounded link by link. Every
//     rule instance found is recorded.
//  2. Construction (network.go): a node per ground atom (base propositions
//     for true, input propositions for does, OR gates for the rest), an AND
//     gate per rule instance, NOT as negated edges, and the outputs legal,
//     next (a transition into its base), terminal, goal and init.
//  3. Optimisation (network.go): constant folding under least-fixed-point
//     semantics, merging of duplicate gates, flattening of single-reader
//     gates, factoring of literals shared by the AND gates of an OR, folding
//     of bases and inputs that cannot change, removal of what no output
//     reads, to a fixed point; then each legal proposition's literal shared
//     by many moves (such as (true (control white))) becomes its guard.
//  4. Layout (program.go): nodes renumbered in dependency order, flat
//     arrays of inputs and successors, the cyclic components that recursive
//     rules make, and the part only the goals read set aside.
//
// The runtime (machine.go) is a differential propnet in the manner of the
// fastest GGP players' (propositional automata: Schkufza, Love and
// Genesereth 2008; counter gates as in Sancho and ggplib): each gate is a
// uint32 counter whose sign bit is its output (AND starts at 0x80000000-n,
// OR at 0x7FFFFFFF, and an input going true adds one), and a question about
// another state propagates only the bases in the XOR of the two states'
// bitsets and only the inputs of the moves that changed (those going off
// pushed first, so those coming on are seen first and ORs over moves do not
// flicker). The next-state bitset is kept by triggers on the next
// propositions; legal moves are read from their propositions when asked,
// group by group of moves whose guard holds (or kept by triggers when a
// group is large); terminal is read from its node; the goals' own part of
// the network is evaluated only when the goals are asked. The initial
// position is restored from a snapshot when that is cheaper than
// propagating. A node read by many two-input AND gates (a move input of
// pancakes88 by 40,320, one per order of the stack) can defer its edges to
// them: a deferred gate counts that input only while its other input holds
// (it is armed), the node's change visits only its armed gates, and the
// other input arms and disarms; the layout is estimated with and without
// deferral. A cyclic component (from recursion) is recomputed as a whole
// when an input from outside it changes: its members' contributions to each
// other are taken out and it is re-derived from false, its least fixed
// point; negation inside a cycle is refused (the rules would not be
// stratified at the ground level). The propagation loop that runs most
// nodes is in assembly on amd64 (drain_amd64.s: the Go compiler's version
// reloaded spilled values at every edge), with its Go version, drainFastGo,
// as its twin in the tests and the loop elsewhere.
//
// Timed runs of small networks play 64 rollouts at once, one in each bit of
// a word per node (lanes.go), where an estimate of both says that costs
// less than 64 differential steps (chooseLanes).
//
// The full-pass mode evaluates every node in dependency order on every
// question, over the same program: the fast mode's correctness twin.
package propnet

import (
	"embed"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/fixedfluent"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

//go:embed *.go *.s
var source embed.FS

// Name is the engine's name in the registry and on the command line.
const Name = "propnet"

// Version is the engine's version: its code and the code it stands on.
var Version = engines.SourceVersion("1", source, gdl.Source, engines.Source, rollout.Source, fixedfluent.Source)

func init() {
	engines.Register(engines.Engine{
		Name:    Name,
		Version: Version,
		New: func(g *gdl.Game) (engines.Machine, error) {
			o, err := OptionsFromEnv()
			if err != nil {
				return nil, err
			}
			m, err := New(g, func(x *Options) { *x = o })
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	})
}

// BuildStats are the figures of a build.
type BuildStats struct {
	Ground       GroundStats
	GroundTime   time.Duration
	NetworkTime  time.Duration
	OptimiseTime time.Duration
	LayoutTime   time.Duration
	Total        time.Duration
	Before       NetStats // as grounded
	After        NetStats // as optimised
	Program      ProgramStats
	// LayoutChoice says which network and layout of the legal moves were
	// kept, and the estimated costs they were chosen by, when they were.
	LayoutChoice string
	// Lanes says how timed runs play their rollouts (one at a time, or 64
	// at once in lanes) and the estimates it was chosen by.
	Lanes   string
	Options Options
}

// maxLayoutChoice is the largest network (in successor links) whose layout
// of the legal moves is chosen by estimating both; maxFactorChoice the
// largest (in links as grounded) also optimised without partial factoring.
const (
	maxLayoutChoice = 500_000
	maxFactorChoice = 200_000
)

// The estimate of the layout choice: layoutCost plays costRollouts seeded
// rollouts (at most costSteps state changes and about costWork edges and
// pops), and weighs what they did by the time each operation takes, in
// nanoseconds: an edge followed, a node popped whose output changed, a
// legal proposition read (the moves of a group whose guard holds, when
// they are read when asked), a legal move's bit toggled by its trigger and
// a legal move found in the bitset the triggers keep. The weights are a
// least-squares fit of the CPU time per state change of the candidates of
// 19 panel games (34 layouts) on this project's machines; with them the
// cheapest estimate is the fastest layout on 13 of those games, and on
// average within 2.2% of it (within 13% on the worst, checkers, where two
// estimates are 4% apart).
const (
	costRollouts = 64
	costSteps    = 2000
	costWork     = 4_000_000
	costSeed     = 7

	costEdge   = 1.3
	costPop    = 6.7
	costRead   = 0.9
	costToggle = 1.7
	costFound  = 4.2
)

// layoutCost returns the estimated nanoseconds of a state change of
// random rollouts on m: a count of operations, so the same in every
// process and on every machine (a timed warm-up chose differently from one
// process to the next, and gave instruction counts per rollout ±30%
// apart). A rollout that ends in a game error ends the count there.
func layoutCost(m *Machine) float64 {
	p := m.p
	joint := make([]engines.Move, len(p.roles))
	work0, pops0 := m.work, m.pops
	var steps, reads, found, toggles int64
	legalBits := m.tbits[p.words:]
	before := make([]uint64, len(legalBits))
	budget := func() bool {
		return steps < costSteps && (m.work-work0)+(m.pops-pops0) < costWork
	}
play:
	for r := uint64(0); r < costRollouts && budget(); r++ {
		rng := rand.New(rand.NewPCG(costSeed, r))
		m.setState(m.initial)
		for budget() && m.litVal(p.terminal) == 0 {
			for role := range joint {
				legal := m.legalMoves(role)
				if len(legal) == 0 {
					break play
				}
				if p.scanLegal {
					for _, g := range p.roleGroups[role] {
						if m.litVal(g.guard) == 1 {
							reads += int64(g.hi - g.lo)
						}
					}
				} else {
					found += int64(len(legal))
				}
				joint[role] = legal[rng.IntN(len(legal))]
			}
			if !p.scanLegal {
				copy(before, legalBits)
			}
			m.play(joint)
			m.cur = nil // the network's position is no state object
			m.moveTo(m.nextBits)
			if !p.scanLegal {
				for i, x := range legalBits {
					toggles += int64(bits.OnesCount64(x ^ before[i]))
				}
			}
			steps++
		}
	}
	ns := costEdge*float64(m.work-work0) + costPop*float64(m.pops-pops0) + costRead*float64(reads) + costToggle*float64(toggles) + costFound*float64(found)
	return ns / float64(max(steps, 1))
}

// New grounds the game, builds and optimises its network and returns a
// machine over it. A game over the budget, or with negation in a cycle of
// the ground network, is a *RefusalError.
func New(g *gdl.Game, opts ...Option) (m *Machine, err error) {
	o := DefaultOptions()
	for _, f := range opts {
		f(&o)
	}
	start := time.Now()
	clock := engines.StartWorkClock()
	defer clock.Stop()
	b := newBudget(o, clock)
	if o.MaxMemory > 0 {
		// Keep the garbage collector close to the budget while building, so
		// that the heap measured is mostly live data.
		old := debug.SetMemoryLimit(-1)
		debug.SetMemoryLimit(min(old, o.MaxMemory+o.MaxMemory/8))
		defer debug.SetMemoryLimit(old)
	}
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refusal)
			if !ok {
				panic(r)
			}
			m, err = nil, ref.err
		}
	}()
	st := BuildStats{Options: o}
	gr, err := ground(g, b)
	if err != nil {
		return nil, err
	}
	st.Ground = gr.stats
	st.GroundTime = time.Since(start)
	t := time.Now()
	nw := buildNetwork(gr, g, b)
	gr = nil
	st.Before = nw.stats()
	st.NetworkTime = time.Since(t)
	t = time.Now()
	alt, err := optimiseNetworks(nw, o, st.Before)
	if err != nil {
		return nil, err
	}
	st.After = nw.stats()
	st.OptimiseTime = time.Since(t)
	t = time.Now()
	b.phase = "layout"
	b.size = nil
	m = chooseLayout(nw, alt, o, &st)
	if o.Mode == Fast && o.Lanes != LanesOff {
		chooseLanes(m, o.Lanes, &st)
	}
	st.Program = m.p.stats
	st.LayoutTime = time.Since(t)
	st.Total = time.Since(start)
	m.Build = st
	return m, nil
}

// optimiseNetworks optimises nw as the options say (or only prunes it,
// with NoOptimise), extracts the legal moves' guards and checks it. Small
// networks (before has the sizes as grounded) are also optimised without
// partial factoring, which makes inner ORs that flip at every move when
// their inputs are moves (tic-tac-toe: 4% faster without; pentago: 45%
// slower): that second network is returned for chooseLayout to estimate,
// or nil when there is none or it came out the same.
func optimiseNetworks(nw *network, o Options, before NetStats) (alt *network, err error) {
	if o.NoOptimise {
		nw.prune()
	} else {
		if o.Mode == Fast && o.Legal == LegalAuto && !o.NoPartialFactoring && before.Links <= maxFactorChoice {
			alt = nw.clone()
			alt.noPartial = true
		}
		nw.noPartial = o.NoPartialFactoring
		if err := nw.optimise(); err != nil {
			return nil, err
		}
		nw.extractGuards()
		if alt != nil {
			if alt.optimise() == nil {
				alt.extractGuards()
			} else {
				alt = nil
			}
		}
	}
	if err := nw.finish(); err != nil {
		return nil, err
	}
	if alt != nil && (alt.finish() != nil || alt.stats() == nw.stats()) {
		alt = nil // no partial factoring happened: the same network
	}
	return alt, nil
}

// chooseLayout compiles nw (and alt, when there is one) and returns the
// machine over the layout to keep, recording the choice and the kept
// network's sizes in st.
//
// Reading the legal moves costs a load per move and question; triggers
// cost a toggle per change of a legal proposition. Which is less depends
// on how the moves change (knightsTour: triggers 1.6x faster;
// nineBoardTicTacToe: reading 1.25x), and so does deferring the edges of
// nodes with many readers (Options.DeferFanout). In fast mode with
// LegalAuto, on networks up to maxLayoutChoice successor links, the layouts
// (and the networks) are estimated by layoutCost, and the cheapest is kept
// (the first of equals, in the order listed); a larger network with
// deferred edges is estimated with and without them. The estimate counts
// operations, it does not time them, so every process builds the same
// program.
func chooseLayout(nw, alt *network, o Options, st *BuildStats) *Machine {
	p := compile(nw, o.Legal, o.DeferFanout)
	m := newMachine(p, o.Mode)
	if o.Mode != Fast || o.Legal != LegalAuto {
		return m
	}
	// Deferral pays when its sources change more often than the inputs
	// that arm their gates (pancakes6: 2x faster), and costs otherwise
	// (racer4, 319,780 gates deferred: 5x slower; hex deferred at 64
	// readers: 4x slower), so a network with deferred edges is estimated
	// without them too, whatever its size. A bound other than the default
	// is a test's, and kept.
	deferChoice := p.stats.DeferredGates > 0 && o.DeferFanout == DefaultDeferFanout
	large := p.stats.Successors > maxLayoutChoice
	if large && !deferChoice {
		return m
	}
	type cand struct {
		what string
		nw   *network
		m    *Machine
		cost float64
	}
	cands := []*cand{{what: "legal moves read when asked", nw: nw, m: m}}
	add := func(what string, n *network, legal LegalLayout) {
		cands = append(cands, &cand{what: what, nw: n, m: newMachine(compile(n, legal, o.DeferFanout), o.Mode)})
	}
	if !p.scanLegal {
		cands[0].what = "legal moves kept by triggers"
	} else if !large {
		add("legal moves kept by triggers", nw, LegalTriggers)
	}
	if deferChoice {
		cands = append(cands, &cand{what: cands[0].what + ", without deferred edges", nw: nw, m: newMachine(compile(nw, o.Legal, 0), o.Mode)})
	}
	if large {
		alt = nil
	}
	if alt != nil {
		q := compile(alt, LegalAuto, o.DeferFanout)
		what := "without partial factoring, legal moves read when asked"
		if !q.scanLegal {
			what = "without partial factoring, legal moves kept by triggers"
		}
		cands = append(cands, &cand{what: what, nw: alt, m: newMachine(q, o.Mode)})
		if q.scanLegal {
			add("without partial factoring, legal moves kept by triggers", alt, LegalTriggers)
		}
	}
	if len(cands) == 1 {
		return m
	}
	best := cands[0]
	var parts []string
	for _, c := range cands {
		c.cost = layoutCost(c.m)
		parts = append(parts, fmt.Sprintf("%s %.0f", c.what, c.cost))
		if c.cost < best.cost {
			best = c
		}
	}
	best.m.layoutEst = best.cost
	st.LayoutChoice = "kept: " + best.what + " (estimated ns per state change: " + strings.Join(parts, ", ") + ")"
	st.After = best.nw.stats()
	return best.m
}

// maxLaneChoice is the largest network (in literals of its gates) whose
// rollouts are estimated in lanes. laneCost's fit holds up to about this
// size (racer4, 1.4M literals: in lanes 2.1x faster, estimated 1.5x); past
// it the nodes' words overflow the caches and the estimate errs low
// (amazons, 3.1M: estimated at 0.68 of the cost of one at a time,
// measured at 1.3).
const maxLaneChoice = 2_000_000

// laneMargin: lanes are kept when their estimate is under this share of
// the one-at-a-time estimate (both are estimates; near a tie the
// differential mode, whose estimate chose the layout, is kept).
const laneMargin = 0.85

// chooseLanes decides whether m's timed runs play in lanes (lanes.go):
// always when they can with LanesOn; with LanesAuto when laneCost is under
// laneMargin of layoutCost. Both count operations, so every process
// chooses the same.
func chooseLanes(m *Machine, c LanesChoice, st *BuildStats) {
	p := m.p
	lp := newLaneProgram(p)
	if lp == nil {
		st.Lanes = "timed runs: one rollout at a time (the game cannot be played in lanes)"
		return
	}
	if c == LanesOn {
		m.lanes = lp
		st.Lanes = "timed runs: 64 rollouts at once in lanes (forced)"
		return
	}
	if lp.links+lp.goalLinks > maxLaneChoice {
		st.Lanes = fmt.Sprintf("timed runs: one rollout at a time (%d literals a step of lanes would evaluate)", lp.links+lp.goalLinks)
		return
	}
	lanes, _ := laneCost(m, lp)
	one := m.layoutEst // chooseLayout's, when it estimated
	if one == 0 {
		one = layoutCost(m)
	}
	one += goalCost(m)
	est := fmt.Sprintf("(estimated ns per state change: in lanes %.0f, one at a time %.0f)", lanes, one)
	if lanes < laneMargin*one {
		m.lanes = lp
		st.Lanes = "timed runs: 64 rollouts at once in lanes " + est
		return
	}
	st.Lanes = "timed runs: one rollout at a time " + est
}

// Summary prints the sizes on one line.
func (s NetStats) Summary() string {
	return fmt.Sprintf("%d components, %d links (%d AND, %d OR, %d NOT, %d base, %d input)", s.Components, s.Links, s.And, s.Or, s.Not, s.Base, s.Input)
}
