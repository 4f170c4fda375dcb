package tupleprover

import (
	"errors"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Size is a relation's size (tuples) and its distinct values per column.
type Size struct {
	N    float64
	Dist []float64
}

// Functor names the state's facts of one function name and arity.
type Functor struct {
	Name  gdl.Symbol
	Arity int
}

// Sizes are the sizes of a game's relations as the tuple prover measures
// them, for another engine's join orders: exact for the static relations,
// averaged over the states of random steps for the others.
type Sizes struct {
	// Rels: per relation the rules define, static or not (a relation
	// the steps never evaluated is missing)
	Rels map[gdl.Symbol]Size
	// True: per functor the rules read, the arguments of the state's
	// facts (averaged over the states seen)
	True map[Functor]Size
	// Statics: every static relation was computed. States: the states
	// the random steps sampled.
	Statics bool
	States  int
	// Cut: a bound other than time (work, or the static relations'
	// cells and terms) ended a part: the static relations, or the steps
	// before their number. TimedOut: a time cap did (the sizes then
	// depend on the machine's speed).
	Cut, TimedOut bool
}

// MeasureSizes evaluates g's rules bottom-up, as the engine does: the
// static relations within work units of work (Machine.work), then random
// steps (the warm-up's) within as many again, sampling the sizes of the
// relations each state computes. It returns what it measured when a limit
// stops it (Statics false, or fewer States), and an error only when the
// rules cannot be compiled. The bounds are counted work, so every process
// measures the same sizes; timeCap (wall time) is a safety net for each
// part.
func MeasureSizes(g *gdl.Game, work uint64, timeCap time.Duration) (*Sizes, error) {
	m := newMachine(nil, designBottomUp, true)
	m.limitWork = work
	start := time.Now()
	m.limitAt = start.Add(timeCap)
	sz := &Sizes{Rels: map[gdl.Symbol]Size{}, True: map[Functor]Size{}}
	b := newBuilder(m, g)
	err := func() (err error) {
		defer m.guard(&err)
		if err := b.declareRelations(); err != nil {
			return err
		}
		if err := b.questionRelations(); err != nil {
			return err
		}
		b.makeUnits()
		if err := b.computeStatic(); err != nil {
			return err
		}
		sz.Statics = true
		if err := b.compileDynamic(); err != nil {
			return err
		}
		b.questionUnits()
		return nil
	}()
	var ge *engines.GameError
	if err != nil && (!errors.As(err, &ge) || ge.Kind != engines.ResourceLimit) {
		return nil, err
	}
	for _, u := range m.units {
		for _, r := range u.rels {
			if u.scope == scopeStatic && r.est < 0 { // computed
				_, d := b.c.estimate(r)
				sz.Rels[r.sym] = Size{N: float64(r.n), Dist: d}
			}
		}
	}
	if err != nil {
		sz.TimedOut = time.Since(start) >= timeCap
		sz.Cut = !sz.TimedOut
		return sz, nil
	}
	start, from := time.Now(), m.work()
	m.play(true, warmSteps, work, timeCap)
	sz.TimedOut = time.Since(start) >= timeCap
	sz.Cut = m.work()-from >= work
	for _, u := range m.units {
		if u.scope == scopeStatic {
			continue
		}
		for _, r := range u.rels {
			if r.evals > 0 {
				sz.Rels[r.sym] = r.sampled()
				sz.States = max(sz.States, r.evals)
			}
		}
	}
	for _, t := range m.trueRels {
		if t.rel.evals > 0 {
			sz.True[Functor{t.fn, int(t.arity)}] = t.rel.sampled()
			sz.States = max(sz.States, t.rel.evals)
		}
	}
	return sz, nil
}

// sampled returns the mean of the sizes sample recorded.
func (r *relation) sampled() Size {
	d := make([]float64, r.width)
	for i := range d {
		d[i] = 1
		if r.distN > 0 {
			d[i] = max(r.distSum[i]/float64(r.distN), 1)
		}
	}
	return Size{N: r.sumN / float64(r.evals), Dist: d}
}
