package compiled

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

// The sizes of relations, for join orders. The tuple prover measures them
// (tupleprover.MeasureSizes): it computes the static relations exactly and
// plays random steps from the initial state, averaging the sizes of the
// other relations (and the distinct values of each column) over the states
// it saw. Where it cannot (a static relation past its budget, as
// laikLee_hex's lists, or no state reached), a slow, naive bottom-up
// evaluation over gdl terms tries the same within its own budgets. Both
// give up quietly: estimates only order joins, they never change answers.
//
// The budgets are counted work, not time, so that the estimates, and with
// them the generated program, are the same on a busy machine as on an idle
// one. The naive evaluation's: a step (a body literal tried, a tuple
// matched) counts 1, a tuple added sizeAddWork (its key is built and
// stored), a value recorded for the statistics sizeRecordWork (so that a
// unit costs about the same on every game: 40 to 250 ns). sizeMaxWork is
// about 400 ms of CPU on the games whose units are the slowest of those it
// cuts (amazons, skirmish, reversi of the ggp.org base repository: 120 to
// 160 ns a unit). The time caps are only safety nets against a game whose
// units are far slower than that; the naive one's is CPU time, so that
// waiting on a busy machine does not reach it, but when a cap fires the
// program depends on the machine's speed, and the design's stats say so.
const (
	sizeMaxSteps   = 30
	sizeMaxTuples  = 200_000
	sizeMaxWork    = 3_000_000
	sizeAddWork    = 4
	sizeRecordWork = 1
	sizeTimeCap    = 10 * time.Second
	sizeCheckEvery = 1024 // units of work between looks at the clock
)

// sizeLimits bound the sizer's work.
type sizeLimits struct {
	maxWork   int           // units of work, as counted above
	maxTuples int           // tuples held at once
	timeCap   time.Duration // CPU time, a safety net
}

var defaultSizeLimits = sizeLimits{maxWork: sizeMaxWork, maxTuples: sizeMaxTuples, timeCap: sizeTimeCap}

type sizeStats struct {
	n     float64   // mean size
	dist  []float64 // mean distinct values per column
	count int       // states seen
}

// sizeRun sums up one run of the sizer.
type sizeRun struct {
	work     int           // steps taken
	steps    int           // the random step it was at when it stopped, from 0
	out      bool          // stopped by a limit
	timedOut bool          // stopped by the time cap
	elapsed  time.Duration // wall time
	// statics: the static relations were all computed (so none of
	// them is large, as largeStatics says)
	statics bool
	// states: the states whose sizes were recorded
	states int
	// tuple: the tuple prover measured the sizes (work and steps are
	// then the naive evaluation's zero values)
	tuple bool
}

type sizer struct {
	g       *gdl.Game
	rels    map[gdl.Symbol][][]*gdl.Term
	keys    map[gdl.Symbol]map[string]bool
	firstIx map[gdl.Symbol]map[string][][]*gdl.Term
	work    int
	tuples  int
	lim     sizeLimits
	clock   *engines.WorkClock // the time cap's clock
	// nextCheck is the work at which the time cap is checked next
	nextCheck int
	run       sizeRun
	stats     map[gdl.Symbol]*sizeStats
	// trueStats are the sizes of true facts per functor
	trueStats map[fkey]*sizeStats
}

type sizeAbort struct{}

// newSizer returns an empty sizer of g within lim, its time cap read on
// clock.
func newSizer(g *gdl.Game, lim sizeLimits, clock *engines.WorkClock) *sizer {
	return &sizer{clock: clock, g: g, rels: map[gdl.Symbol][][]*gdl.Term{}, keys: map[gdl.Symbol]map[string]bool{},
		firstIx: map[gdl.Symbol]map[string][][]*gdl.Term{}, lim: lim, nextCheck: sizeCheckEvery,
		stats: map[gdl.Symbol]*sizeStats{}, trueStats: map[fkey]*sizeStats{}}
}

func (s *sizer) tick() {
	s.work++
	if s.work > s.lim.maxWork || s.tuples > s.lim.maxTuples {
		s.run.out = true
		panic(sizeAbort{})
	}
	if s.work >= s.nextCheck {
		s.nextCheck = s.work + sizeCheckEvery
		if s.clock.Used() > s.lim.timeCap {
			s.run.out, s.run.timedOut = true, true
			panic(sizeAbort{})
		}
	}
}

func (s *sizer) add(rel gdl.Symbol, args []*gdl.Term) bool {
	k := s.keys[rel]
	if k == nil {
		k = map[string]bool{}
		s.keys[rel] = k
	}
	key := (&gdl.Term{Kind: gdl.Func, Name: rel, Args: args}).String()
	if k[key] {
		return false
	}
	k[key] = true
	s.rels[rel] = append(s.rels[rel], args)
	if len(args) > 0 {
		ix := s.firstIx[rel]
		if ix == nil {
			ix = map[string][][]*gdl.Term{}
			s.firstIx[rel] = ix
		}
		f := args[0].String()
		ix[f] = append(ix[f], args)
	}
	s.tuples++
	s.work += sizeAddWork
	return true
}

func (s *sizer) reset(rel gdl.Symbol) {
	delete(s.rels, rel)
	delete(s.keys, rel)
	delete(s.firstIx, rel)
}

func (s *sizer) has(rel gdl.Symbol, args []*gdl.Term) bool {
	key := (&gdl.Term{Kind: gdl.Func, Name: rel, Args: args}).String()
	return s.keys[rel][key]
}

// match extends sub so that pattern p equals ground term t, recording the
// variables it binds in trail.
func match(p, t *gdl.Term, sub gdl.Subst, trail *[]gdl.Symbol) bool {
	switch p.Kind {
	case gdl.Var:
		if b, ok := sub[p.Name]; ok {
			return b.Equal(t)
		}
		sub[p.Name] = t
		*trail = append(*trail, p.Name)
		return true
	case gdl.Const:
		return t.Kind == gdl.Const && t.Name == p.Name
	}
	if t.Kind != gdl.Func || t.Name != p.Name || len(t.Args) != len(p.Args) {
		return false
	}
	for i := range p.Args {
		if !match(p.Args[i], t.Args[i], sub, trail) {
			return false
		}
	}
	return true
}

// solve enumerates the solutions of body literals i.. under sub.
func (s *sizer) solve(body []*gdl.Literal, i int, sub gdl.Subst, emit func(gdl.Subst)) {
	s.tick()
	if i == len(body) {
		emit(sub)
		return
	}
	l := body[i]
	switch l.Kind {
	case gdl.LitDistinct:
		if !sub.Apply(l.Left).Equal(sub.Apply(l.Right)) {
			s.solve(body, i+1, sub, emit)
		}
		return
	case gdl.LitNot:
		a := sub.Apply(l.Atom)
		if !s.has(a.Name, a.Args) {
			s.solve(body, i+1, sub, emit)
		}
		return
	case gdl.LitAtom:
		a := l.Atom
		tuples := s.rels[a.Name]
		if len(a.Args) > 0 {
			if first := sub.Apply(a.Args[0]); first.IsGround() {
				tuples = s.firstIx[a.Name][first.String()]
			}
		}
		var trail []gdl.Symbol
		for _, tup := range tuples {
			s.tick()
			trail = trail[:0]
			ok := true
			for j := range a.Args {
				if !match(a.Args[j], tup[j], sub, &trail) {
					ok = false
					break
				}
			}
			if ok {
				s.solve(body, i+1, sub, emit)
			}
			for _, v := range trail {
				delete(sub, v)
			}
		}
	}
}

// evalAll computes every relation but true and does (already set), SCC by
// SCC, each to a fixed point; static says whether to compute only the
// static ones (and keep them), or only the others.
func (s *sizer) evalAll(static bool) {
	a := s.g.Analysis
	for _, comp := range a.Components() {
		isStatic := true
		for _, n := range comp {
			r := a.Relations[n]
			if r.UsesState || r.UsesMoves {
				isStatic = false
			}
		}
		if isStatic != static || comp[0] == gdl.SymTrue || comp[0] == gdl.SymDoes {
			continue
		}
		s.evalComp(comp)
	}
}

// evalComp computes the relations of one component to a fixed point.
func (s *sizer) evalComp(comp []gdl.Symbol) {
	a := s.g.Analysis
	for _, n := range comp {
		s.reset(n)
	}
	for changed := true; changed; {
		changed = false
		for _, n := range comp {
			for _, r := range a.Relations[n].Rules {
				s.solve(r.Body, 0, gdl.Subst{}, func(sub gdl.Subst) {
					h := sub.Apply(r.Head)
					if h.IsGround() && s.add(h.Name, h.Args) {
						changed = true
					}
				})
			}
		}
	}
}

// Static relations too large to compute whole: on laikLee_hex, isList
// holds every list of up to 25 of 25 elements and append_el every way to
// append to one; a top-down reader only ever asks them about one list.
// The fallback design (generateOnDemand) computes such relations on
// demand, as the per-state ones. A relation is large when the naive
// evaluation of its component runs past largeBudget and its rules bound it
// above largeTuples (sizeBound), or when it reads a large relation (a
// recursive relation has no bound, and is large only that way). The
// naive evaluation alone is slow on joins the program makes quickly, and
// a bound that ignores joins and negations says nothing about a relation
// that stays small: where either says small, no fallback is generated.
// The budget is counted work, so that every build of a game makes the
// same program (the time cap is a safety net, as the sizer's).
var largeBudget = sizeLimits{maxWork: 6_000_000, maxTuples: 1_000_000, timeCap: sizeTimeCap}

const (
	// largeTuples is the bound past which a static relation that the
	// naive evaluation did not finish is large.
	largeTuples = 4_000_000
	// largeTotal bounds largeStatics' work, in components' budgets.
	largeTotal = 2
)

// largeStatics returns the large static relations of g, component by
// component (each evaluated with its own work budget; tuples are counted
// over all the static relations kept). It stops once it has worked
// largeTotal times one component's budget: the components left are not
// large (kept whole, as before there was a look), so that the look adds a
// bounded time to a game's generation.
func largeStatics(g *gdl.Game, lim sizeLimits) map[gdl.Symbol]bool {
	clock := engines.StartWorkClock()
	defer clock.Stop()
	s := newSizer(g, lim, clock)
	a := g.Analysis
	large := map[gdl.Symbol]bool{}
	// bound: per static relation, its exact size where its component was
	// computed, else sizeBound's
	bound := map[gdl.Symbol]float64{}
	total := 0
	for _, comp := range a.Components() {
		if comp[0] == gdl.SymTrue || comp[0] == gdl.SymDoes {
			continue
		}
		static, reads := true, false
		for _, n := range comp {
			r := a.Relations[n]
			static = static && !r.UsesState && !r.UsesMoves
			for _, d := range r.Deps {
				reads = reads || large[d.Name]
			}
		}
		if !static {
			continue
		}
		if reads {
			for _, n := range comp {
				large[n] = true
			}
			continue
		}
		if total > largeTotal*lim.maxWork {
			break
		}
		ok := s.evalCompWithin(comp)
		total += s.work
		for _, n := range comp {
			switch {
			case ok:
				bound[n] = float64(len(s.rels[n]))
			case a.Relations[n].Recursive:
				// no bound: not large, but unbounded for its readers
				bound[n] = math.Inf(1)
			default:
				if bound[n] = sizeBound(a.Relations[n], bound); bound[n] > largeTuples {
					large[n] = true
				}
			}
		}
	}
	return large
}

// sizeBound bounds the size of relation r from the sizes of the static
// relations its rules read (bound; a relation of its own component, or one
// not in bound, is unbounded): per rule, the product of the sizes of the
// literals that bind a variable, in body order.
func sizeBound(r *gdl.Relation, bound map[gdl.Symbol]float64) float64 {
	sum := 0.0
	for _, rule := range r.Rules {
		prod := 1.0
		seen := map[gdl.Symbol]bool{}
		for _, l := range rule.Body {
			if l.Kind != gdl.LitAtom {
				continue
			}
			fresh := false
			for _, v := range l.Atom.Vars(nil) {
				if !seen[v] {
					seen[v], fresh = true, true
				}
			}
			if !fresh {
				continue
			}
			b, ok := bound[l.Atom.Name]
			if !ok || l.Atom.Name == r.Name {
				return math.Inf(1)
			}
			prod *= b
		}
		sum += prod
	}
	return sum
}

// evalCompWithin is evalComp within the sizer's limits, the work counted
// from 0: on a limit, it drops what the component had made and returns
// false.
func (s *sizer) evalCompWithin(comp []gdl.Symbol) (ok bool) {
	s.work, s.nextCheck = 0, sizeCheckEvery
	defer func() {
		if r := recover(); r != nil {
			if _, abort := r.(sizeAbort); !abort {
				panic(r)
			}
			for _, n := range comp {
				s.tuples -= len(s.rels[n])
				s.reset(n)
			}
			ok = false
		}
	}()
	s.evalComp(comp)
	return true
}

func (s *sizer) record(name gdl.Symbol, tuples [][]*gdl.Term, arity int) {
	st := s.stats[name]
	if st == nil {
		st = &sizeStats{dist: make([]float64, arity)}
		s.stats[name] = st
	}
	s.recordInto(st, tuples, arity)
}

func (s *sizer) recordInto(st *sizeStats, tuples [][]*gdl.Term, arity int) {
	c := float64(st.count)
	st.n = (st.n*c + float64(len(tuples))) / (c + 1)
	for col := 0; col < arity && col < len(st.dist); col++ {
		seen := map[string]bool{}
		for _, t := range tuples {
			seen[t[col].String()] = true
		}
		st.dist[col] = (st.dist[col]*c + float64(len(seen))) / (c + 1)
	}
	st.count++
	s.work += len(tuples) * arity * sizeRecordWork
}

// recordState adds the sizes of the current state's relations.
func (s *sizer) recordState() {
	s.run.states++
	for name, r := range s.g.Analysis.Relations {
		if name == gdl.SymTrue || name == gdl.SymDoes || !(r.UsesState || r.UsesMoves) {
			continue
		}
		s.record(name, s.rels[name], r.Arity)
	}
	byFn := map[fkey][][]*gdl.Term{}
	for _, t := range s.rels[gdl.SymTrue] {
		x := t[0]
		if x.Kind == gdl.Func && len(x.Args) > 0 {
			k := fkey{x.Name, len(x.Args)}
			byFn[k] = append(byFn[k], x.Args)
		}
	}
	for k, tuples := range byFn {
		st := s.trueStats[k]
		if st == nil {
			st = &sizeStats{dist: make([]float64, k.arity)}
			s.trueStats[k] = st
		}
		s.recordInto(st, tuples, k.arity)
	}
}

// measureSizes runs the sizer on g within the default limits.
func measureSizes(g *gdl.Game) *sizer { return measureSizesWithin(g, defaultSizeLimits) }

// measureSizesWithin runs the sizer on g within lim.
func measureSizesWithin(g *gdl.Game, lim sizeLimits) *sizer {
	start := time.Now()
	clock := engines.StartWorkClock()
	defer clock.Stop()
	s := newSizer(g, lim, clock)
	if s.fromTupleProver(lim) {
		s.run.elapsed = time.Since(start)
		return s
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(sizeAbort); !ok {
					panic(r)
				}
			}
		}()
		s.evalAll(true)
		s.run.statics = true
		for name, r := range g.Analysis.Relations {
			if !(r.UsesState || r.UsesMoves) && name != gdl.SymTrue && name != gdl.SymDoes {
				s.record(name, s.rels[name], r.Arity)
			}
		}
		for _, t := range s.rels[gdl.SymInit] {
			s.add(gdl.SymTrue, t)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for step := 0; step < sizeMaxSteps; step++ {
			s.run.steps = step
			s.evalAll(false)
			if len(s.rels[gdl.SymTerminal]) > 0 {
				s.recordState()
				break
			}
			// a random joint move, then the next state
			var does [][]*gdl.Term
			for _, role := range g.Roles {
				var moves []*gdl.Term
				for _, t := range s.rels[gdl.SymLegal] {
					if t[0].Equal(role) {
						moves = append(moves, t[1])
					}
				}
				if len(moves) == 0 {
					return
				}
				does = append(does, []*gdl.Term{role, moves[rng.IntN(len(moves))]})
			}
			s.reset(gdl.SymDoes)
			for _, d := range does {
				s.add(gdl.SymDoes, d)
			}
			s.evalAll(false)
			s.recordState()
			next := s.rels[gdl.SymNext]
			s.reset(gdl.SymTrue)
			s.reset(gdl.SymDoes)
			for _, t := range next {
				s.add(gdl.SymTrue, t)
			}
			s.tuples = 0
			for _, ts := range s.rels {
				s.tuples += len(ts)
			}
		}
	}()
	s.run.work, s.run.elapsed = s.work, time.Since(start)
	return s
}

// tupleWorkPerUnit is the tuple prover's work bound (MeasureSizes), for
// each of its two parts, per unit of the naive evaluation's: 6M of its
// units (0.2 to 0.6 s of CPU at most) for the naive one's 3M.
const tupleWorkPerUnit = 2

// fromTupleProver measures the sizes with the tuple prover and reports
// whether it computed every static relation and recorded a state; if not,
// it leaves s as it was. Its semi-naive evaluation over interned tuples
// computes in milliseconds what takes the naive one seconds (the sums and
// differences of numbers up to 600 of gt_two_thirds), and its random steps
// reach ten times as many states (200 over several rollouts, not 30 of
// one).
func (s *sizer) fromTupleProver(lim sizeLimits) bool {
	sz, err := tupleprover.MeasureSizes(s.g, uint64(tupleWorkPerUnit*lim.maxWork), lim.timeCap)
	if err != nil || !sz.Statics || sz.States == 0 {
		return false
	}
	s.run.tuple, s.run.states, s.run.statics = true, sz.States, true
	s.run.out, s.run.timedOut = sz.Cut || sz.TimedOut, sz.TimedOut
	for name, m := range sz.Rels {
		s.stats[name] = &sizeStats{n: m.N, dist: m.Dist, count: sz.States}
	}
	for k, m := range sz.True {
		// the arguments' columns (the tuple prover's relation of true
		// facts may end with the fact's)
		s.trueStats[fkey{k.Name, k.Arity}] = &sizeStats{n: m.N, dist: m.Dist[:min(k.Arity, len(m.Dist))], count: sz.States}
	}
	return true
}
