package tupleprover

import (
	"sort"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// builder holds what the phases of build hand to each other.
type builder struct {
	m *Machine
	c *compiler
	a *gdl.Analysis
	// maxWidth is the widest tuple a question builds, for the scratch
	// buffers
	maxWidth  int
	unitOf    map[gdl.Symbol]*unit
	unitRules map[*unit][]*gdl.Rule
}

// build compiles g and computes its static relations; tight sets the
// tighter budgets of a first attempt. The machine is returned with the
// error too, for the static relations it completed. Its phases, in order:
// the relations of the game, the question relations, the units, the static
// units computed, the other units compiled, the units each question needs,
// the warm-up that orders the joins again, and the rate that chooses the
// design.
func build(g *gdl.Game, opts []Option, design string, tight bool) (m *Machine, err error) {
	m = newMachine(opts, design, tight)
	defer func() {
		if m != nil {
			m.maxCells, m.maxTerms = maxCells, maxTerms
		}
	}()
	defer m.guard(&err)
	b := newBuilder(m, g)
	if err := b.declareRelations(); err != nil {
		return nil, err
	}
	if err := b.questionRelations(); err != nil {
		return nil, err
	}
	b.makeUnits()
	if err := b.computeStatic(); err != nil {
		return nil, err
	}
	if err := b.compileDynamic(); err != nil {
		return nil, err
	}
	b.questionUnits()
	if err := b.warm(); err != nil {
		return nil, err
	}
	// The cost with the final join orders decides between the designs.
	m.measure()
	return m, nil
}

// newMachine makes an empty machine with the options applied, its roles
// still unknown; tight sets the budgets of a first attempt.
func newMachine(opts []Option, design string, tight bool) *Machine {
	m := &Machine{st: newStore(), budget: maxQuestion, stateGen: 1, moveGen: 1, goalVals: map[int32]int{},
		maxCells: maxCells, maxTerms: maxTerms, static: map[gdl.Symbol]bool{}}
	for _, o := range opts {
		o(m)
	}
	m.design = design
	if tight {
		m.maxCells = firstMaxCells
		m.maxTerms = firstMaxTerms
		m.limitAt = time.Now().Add(staticCap)
		m.limitWork = staticWork
	}
	return m
}

// newBuilder interns the roles of g and starts its compiler.
func newBuilder(m *Machine, g *gdl.Game) *builder {
	for _, r := range g.Roles {
		m.roles = append(m.roles, r.String())
		m.roleIDs = append(m.roleIDs, m.st.fromTerm(r))
	}
	m.moves = make([][]engines.Move, len(g.Roles))
	return &builder{
		m: m,
		c: &compiler{
			m:         m,
			rels:      map[gdl.Symbol]*relation{},
			trueRel:   map[trueKey]*relation{},
			initCount: map[trueKey]float64{},
			initDist:  map[trueKey][]float64{},
			distinct:  map[*relation][]float64{},
		},
		a:         g.Analysis,
		maxWidth:  2,
		unitOf:    map[gdl.Symbol]*unit{},
		unitRules: map[*unit][]*gdl.Rule{},
	}
}

// declareRelations makes a relation for every relation of the analysis,
// with its scope: static, per state or per joint move. true has none (its
// facts are split into the true$f relations as literals name them), does
// always has one.
func (b *builder) declareRelations() error {
	m, c := b.m, b.c
	for _, name := range b.a.Order {
		r := b.a.Relations[name]
		if r.Arity > 64 {
			return engines.Errorf(engines.UnsupportedErr, "the relation %s has %d arguments; the tuple prover takes at most 64", name.Name(), r.Arity)
		}
		b.maxWidth = max(b.maxWidth, r.Arity)
		sc := scopeStatic
		switch {
		case r.UsesMoves:
			sc = scopeMove
		case r.UsesState:
			sc = scopeState
		}
		switch name {
		case gdl.SymTrue:
		case gdl.SymDoes:
			m.does = newRelation("does", 2, scopeMove)
			c.rels[name] = m.does
		default:
			c.rels[name] = newRelation(name.Name(), r.Arity, sc)
			c.rels[name].sym = name
		}
	}
	if m.does == nil {
		m.does = newRelation("does", 2, scopeMove)
		c.rels[gdl.SymDoes] = m.does
	}
	return nil
}

// questionRelations finds (or makes, empty, for a game without them) the
// relations the questions read, init, terminal, legal, next and goal, checks
// their widths and indexes legal and goal by role.
func (b *builder) questionRelations() error {
	m, c := b.m, b.c
	rel := func(name gdl.Symbol, arity int) *relation {
		r := c.rels[name]
		if r == nil {
			r = newRelation(name.Name(), arity, scopeStatic)
			r.sym = name
			r.est = -1
			c.rels[name] = r
		}
		return r
	}
	m.initRel = rel(gdl.SymInit, 1)
	m.termRel = rel(gdl.SymTerminal, 0)
	m.legalRel = rel(gdl.SymLegal, 2)
	m.nextRel = rel(gdl.SymNext, 1)
	m.goalRel = rel(gdl.SymGoal, 2)
	for _, x := range []struct {
		r *relation
		w int
	}{{m.initRel, 1}, {m.termRel, 0}, {m.legalRel, 2}, {m.nextRel, 1}, {m.goalRel, 2}} {
		if x.r.width != x.w {
			return engines.Errorf(engines.UnsupportedErr, "%s has %d arguments, not %d", x.r.name, x.r.width, x.w)
		}
	}
	m.legalIx = m.legalRel.indexOn([]int{0})
	m.goalIx = m.goalRel.indexOn([]int{0})
	return nil
}

// makeUnits makes a unit of each strongly connected component of the
// relation dependency graph, dependencies first, with the rules of its
// relations; a component of only true and does has none.
func (b *builder) makeUnits() {
	m := b.m
	for _, comp := range b.a.Components() {
		u := &unit{order: len(m.units)}
		for _, name := range comp {
			if name == gdl.SymTrue || name == gdl.SymDoes {
				continue
			}
			r := b.c.rels[name]
			u.rels = append(u.rels, r)
			u.scope = max(u.scope, r.scope)
			b.unitOf[name] = u
			b.unitRules[u] = append(b.unitRules[u], b.a.Relations[name].Rules...)
		}
		if len(u.rels) == 0 {
			continue
		}
		m.units = append(m.units, u)
	}
}

// computeStatic compiles the static units and computes each as soon as it
// is compiled, so that the join orders of the others know their sizes
// exactly, and then estimates the true$f relations from the initial state.
func (b *builder) computeStatic() error {
	m := b.m
	for _, u := range m.units {
		if u.scope != scopeStatic {
			continue
		}
		if err := b.c.compileUnit(u, b.unitRules[u]); err != nil {
			return err
		}
		m.ensureScratch(b.maxWidth)
		m.qStart = time.Time{}
		m.evalUnit(u)
		for _, r := range u.rels {
			r.est = -1
			m.static[r.sym] = true
		}
	}
	m.limitAt = time.Time{}
	m.limitWork = 0
	b.c.initEstimates(m.initRel)
	return nil
}

// compileDynamic compiles (again) the units that depend on the state or
// the moves, with the join orders the size estimates give at that point.
func (b *builder) compileDynamic() error {
	m := b.m
	for _, u := range m.units {
		if u.scope == scopeStatic {
			continue
		}
		u.groups = nil
		if err := b.c.compileUnit(u, b.unitRules[u]); err != nil {
			return err
		}
	}
	for _, tr := range m.trueRels {
		tr.rel.set = nil // state facts are unique; nothing asks true$f for membership
		b.maxWidth = max(b.maxWidth, tr.rel.width)
	}
	m.legalIx = m.legalRel.indexOn([]int{0})
	m.goalIx = m.goalRel.indexOn([]int{0})
	m.ensureScratch(b.maxWidth)
	return nil
}

// questionUnits lists for each question the dynamic units it depends on,
// in dependency order.
func (b *builder) questionUnits() {
	m := b.m
	m.qTerminal = b.closure(gdl.SymTerminal)
	m.qLegal = b.closure(gdl.SymLegal)
	m.qNext = b.closure(gdl.SymNext)
	m.qGoal = b.closure(gdl.SymGoal)
}

// closure returns the dynamic units root depends on, root's own included,
// in dependency order.
func (b *builder) closure(root gdl.Symbol) []*unit {
	seen := map[*unit]bool{}
	var visit func(name gdl.Symbol)
	visit = func(name gdl.Symbol) {
		u := b.unitOf[name]
		if u == nil || seen[u] {
			return
		}
		seen[u] = true
		for _, r := range u.rels {
			if ar := b.a.Relations[r.sym]; ar != nil {
				for _, d := range ar.Deps {
					visit(d.Name)
				}
			}
		}
	}
	visit(root)
	var out []*unit
	for u := range seen {
		if u.scope != scopeStatic {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].order < out[j].order })
	return out
}

// warm plays a few random steps, sampling the sizes of the per-state
// relations, and compiles the dynamic units again with them: new join
// orders, and the indexes those need in place of the old ones.
func (b *builder) warm() error {
	m := b.m
	if !m.warmUp() {
		return nil
	}
	for _, u := range m.units {
		if u.scope == scopeStatic {
			continue
		}
		for _, r := range u.rels {
			r.idx = nil
		}
	}
	for _, tr := range m.trueRels {
		tr.rel.idx = nil
	}
	m.does.idx = nil
	if err := b.compileDynamic(); err != nil {
		return err
	}
	m.cur = nil
	m.movesValid = false
	m.stateGen++
	m.moveGen++
	return nil
}
