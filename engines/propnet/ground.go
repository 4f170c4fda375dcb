package propnet

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/fixedfluent"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Grounding.
//
// The grounder instantiates the rules bottom-up over ground atoms, in two
// phases:
//
//  1. Exact: relations that depend on neither true nor does (and on no
//     relation that is stratified only by its arguments) are evaluated
//     exactly, strongly connected component by component in dependency
//     order, semi-naively inside a recursive component, with negation as
//     failure over the complete lower components. Their atoms become
//     constants of the network.
//  2. Relaxed: every other relation is evaluated to a fixed point with the
//     negation of non-exact atoms dropped, true(x) derived from init(x) and
//     next(x), and does(r,m) from legal(r,m) for every role r. This
//     over-approximates every atom that can hold in any reachable state
//     (relaxed reachability). Each rule instance found here (a rule with
//     its variables bound) is recorded: it becomes an AND gate.
//
// Both phases share one semi-naive join (Ullman 1988; Abiteboul, Hull and
// Vianu 1995, ch. 13): in an iteration, each positive literal in turn ranges
// over the atoms new in the previous iteration (the delta), the literals
// before it over the older atoms and those after it over all atoms, so every
// rule instance is enumerated exactly once. Atoms are kept per relation in
// insertion order, so old, delta and all are ranges of positions; hash
// indexes on the bound top-level arguments are built lazily and hold
// positions in increasing order. The join order is chosen greedily per
// evaluation (fully bound literals first, then the fewest estimated
// candidates); distinct and not are checked as soon as their variables are
// bound.

const (
	pGround uint8 = iota
	pVar
	pFunc
)

// pat is a term of a rule: a ground term, a variable (index into the rule's
// environment) or a function term with a variable below it.
type pat struct {
	kind uint8
	id   int32
	fn   gdl.Symbol
	args []pat
}

const (
	lPos uint8 = iota
	lNeg
	lDistinct
)

type clit struct {
	kind        uint8
	rel         *relation
	args        []pat // the atom's top-level arguments
	left, right pat   // distinct
	vars        []int32
}

type crule struct {
	id     int
	src    *gdl.Rule
	head   *relation
	hargs  []pat
	pos    []*clit
	checks []*clit
	nvars  int
}

type relKind uint8

const (
	relExact relKind = iota // evaluated exactly: its atoms are true constants
	relNet                  // evaluated relaxed: its atoms are network nodes
)

type relation struct {
	name    gdl.Symbol
	arity   int
	kind    relKind
	atoms   []int32
	rules   []*crule
	indexes map[uint64]*index
	growing bool
	aux     bool  // made by splitting a rule
	lo, hi  int32 // the current delta is atoms[lo:hi]
	seen    int32
}

type index struct {
	cols []int
	m    map[uint64][]int32 // key of the bound columns -> positions in atoms
	n    int32              // atoms indexed so far
}

// instance is a recorded rule instance: head :- pos atoms, not neg atoms,
// where only atoms of network relations are kept (exact ones are true).
type instance struct {
	rule       int32
	head       int32
	off        int32
	npos, nneg int32
}

// refusal is the panic value that aborts a build over its budget.
type refusal struct{ err *RefusalError }

type grounder struct {
	ts      *terms
	rels    map[gdl.Symbol]*relation
	relList []*relation
	rules   []*crule
	roles   []int32
	isRole  map[int32]bool
	isAtom  []bool
	env     []int32
	trail   []int32
	scratch []int32
	matched []int32
	negs    []int32
	record  bool
	insts   []instance
	pool    []int32

	naux    int
	budget  *budget
	work    uint64
	stats   GroundStats
	started time.Time
}

// budget bounds the time and memory of a build. Its time is the CPU time
// of the building goroutine (engines.WorkClock), so that a busy machine
// does not refuse a game a quiet one builds; a build that waits so long
// that it gets under 1/engines.WaitedFactor of a CPU is refused too.
type budget struct {
	clock    *engines.WorkClock
	maxBytes int64
	maxTime  time.Duration
	maxSize  int
	sample   []metrics.Sample
	phase    string
	figures  func() string
	// size returns the largest count of the phase and what it counts
	// (atoms, rule instances, terms, nodes), checked against maxSize.
	size   func() (int, string)
	lastGC time.Time
	checks int
}

func newBudget(o Options, clock *engines.WorkClock) *budget {
	b := &budget{clock: clock, maxBytes: o.MaxMemory, maxTime: o.MaxTime, maxSize: o.MaxSize}
	b.sample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	return b
}

func (b *budget) heap() int64 {
	metrics.Read(b.sample)
	if b.sample[0].Value.Kind() == metrics.KindUint64 {
		return int64(b.sample[0].Value.Uint64())
	}
	return 0
}

// check panics with a refusal when the build is over its time, memory or
// size budget.
func (b *budget) check() {
	b.checks++
	if b.maxTime > 0 {
		if used := b.clock.Used(); used > b.maxTime {
			panic(refusal{&RefusalError{Kind: RefuseTime, Msg: fmt.Sprintf("%s did not finish within the time budget of %s of CPU (%s); raise it with --max-time or %s", b.phase, b.maxTime, b.figuresText(), envMaxTime)}})
		} else if wall := b.clock.Wall(); wall > engines.WaitedFactor*b.maxTime {
			panic(refusal{&RefusalError{Kind: RefuseTime, Msg: fmt.Sprintf("%s did not finish within %s of wall time, %d times its time budget of %s of CPU, of which it used %s: the machine is too busy (%s); raise the budget with --max-time or %s", b.phase, wall.Round(time.Second), engines.WaitedFactor, b.maxTime, used.Round(time.Millisecond), b.figuresText(), envMaxTime)}})
		}
	}
	if b.maxSize > 0 && b.size != nil && b.checks&15 == 1 {
		if n, what := b.size(); n > b.maxSize {
			panic(refusal{&RefusalError{Kind: RefuseSize, Msg: fmt.Sprintf("too large to ground: %s made %d %s, over the size budget of %d (%s); raise it with --max-size or %s", b.phase, n, what, b.maxSize, b.figuresText(), envMaxSize)}})
		}
	}
	if b.maxBytes > 0 && b.checks&15 == 1 {
		h := b.heap()
		if h > b.maxBytes && time.Since(b.lastGC) > time.Second {
			// Part of it may be garbage: measure what is live.
			runtime.GC()
			b.lastGC = time.Now()
			h = b.heap()
		}
		if h > b.maxBytes {
			panic(refusal{&RefusalError{Kind: RefuseSize, Msg: fmt.Sprintf("too large to ground: %s holds %d MiB, over the memory budget of %d MiB (%s); raise it with --max-memory or %s", b.phase, h>>20, b.maxBytes>>20, b.figuresText(), envMaxMemory)}})
		}
	}
}

func (b *budget) figuresText() string {
	if b.figures == nil {
		return "no figures"
	}
	return b.figures()
}

// GroundStats are the figures of a grounding.
type GroundStats struct {
	ExactAtoms    int
	NetAtoms      int
	Instances     int
	InstanceLinks int
	Terms         int
	Iterations    int
	Duration      time.Duration
}

func (g *grounder) tick() {
	g.work++
	if g.work&4095 == 0 {
		g.budget.check()
	}
}

func (g *grounder) figures() string {
	return fmt.Sprintf("%d atoms, %d rule instances, %d terms so far", g.atoms(), len(g.insts), len(g.ts.t))
}

func (g *grounder) atoms() int {
	atoms := 0
	for _, r := range g.relList {
		atoms += len(r.atoms)
	}
	return atoms
}

// size is the budget's measure of a grounding: its atoms, rule instances
// or terms, whichever are more.
func (g *grounder) size() (int, string) {
	n, what := g.atoms(), "atoms"
	if len(g.insts) > n {
		n, what = len(g.insts), "rule instances"
	}
	if len(g.ts.t) > n {
		n, what = len(g.ts.t), "terms"
	}
	return n, what
}

func (g *grounder) rel(name gdl.Symbol, arity int) *relation {
	r := g.rels[name]
	if r == nil {
		r = &relation{name: name, arity: arity, indexes: map[uint64]*index{}}
		g.rels[name] = r
		g.relList = append(g.relList, r)
	}
	return r
}

// compilePat turns a gdl term into a pattern, numbering variables in vars.
func (g *grounder) compilePat(t *gdl.Term, vars map[gdl.Symbol]int32) pat {
	switch t.Kind {
	case gdl.Var:
		v, ok := vars[t.Name]
		if !ok {
			v = int32(len(vars))
			vars[t.Name] = v
		}
		return pat{kind: pVar, id: v}
	case gdl.Const:
		return pat{kind: pGround, id: g.ts.intern(t.Name, nil)}
	}
	if t.IsGround() {
		return pat{kind: pGround, id: g.ts.fromTerm(t)}
	}
	p := pat{kind: pFunc, fn: t.Name, args: make([]pat, len(t.Args))}
	for i, a := range t.Args {
		p.args[i] = g.compilePat(a, vars)
	}
	return p
}

func patVars(p pat, dst []int32) []int32 {
	switch p.kind {
	case pVar:
		for _, v := range dst {
			if v == p.id {
				return dst
			}
		}
		return append(dst, p.id)
	case pFunc:
		for _, a := range p.args {
			dst = patVars(a, dst)
		}
	}
	return dst
}

func (g *grounder) compileRule(r *gdl.Rule) *crule {
	vars := map[gdl.Symbol]int32{}
	cr := &crule{id: len(g.rules), src: r}
	// Body first, so that variables are numbered in binding order.
	for _, l := range r.Body {
		switch l.Kind {
		case gdl.LitAtom, gdl.LitNot:
			cl := &clit{kind: lPos, rel: g.rel(l.Atom.Name, l.Atom.Arity())}
			if l.Kind == gdl.LitNot {
				cl.kind = lNeg
			}
			for _, a := range l.Atom.Args {
				p := g.compilePat(a, vars)
				cl.args = append(cl.args, p)
				cl.vars = patVars(p, cl.vars)
			}
			if cl.kind == lPos {
				cr.pos = append(cr.pos, cl)
			} else {
				cr.checks = append(cr.checks, cl)
			}
		case gdl.LitDistinct:
			cl := &clit{kind: lDistinct, left: g.compilePat(l.Left, vars), right: g.compilePat(l.Right, vars)}
			cl.vars = patVars(cl.right, patVars(cl.left, nil))
			cr.checks = append(cr.checks, cl)
		}
	}
	cr.head = g.rel(r.Head.Name, r.Head.Arity())
	for _, a := range r.Head.Args {
		cr.hargs = append(cr.hargs, g.compilePat(a, vars))
	}
	cr.nvars = len(vars)
	g.rules = append(g.rules, cr)
	return cr
}

// ---- matching and building ----

func (g *grounder) match(p *pat, t int32) bool {
	switch p.kind {
	case pGround:
		return p.id == t
	case pVar:
		v := g.env[p.id]
		if v < 0 {
			g.env[p.id] = t
			g.trail = append(g.trail, p.id)
			return true
		}
		return v == t
	}
	tt := g.ts.t[t]
	if tt.fn != p.fn || int(tt.n) != len(p.args) {
		return false
	}
	args := g.ts.pool[tt.start : tt.start+tt.n]
	for i := range p.args {
		if !g.match(&p.args[i], args[i]) {
			return false
		}
	}
	return true
}

func (g *grounder) matchArgs(ps []pat, atom int32) bool {
	tt := g.ts.t[atom]
	args := g.ts.pool[tt.start : tt.start+tt.n]
	for i := range ps {
		if !g.match(&ps[i], args[i]) {
			return false
		}
	}
	return true
}

func (g *grounder) undo(mark int) {
	for _, v := range g.trail[mark:] {
		g.env[v] = -1
	}
	g.trail = g.trail[:mark]
}

// build returns the id of a pattern under the current bindings; with
// lookup set it returns -1 instead of interning a new term.
func (g *grounder) build(p *pat, lookup bool) int32 {
	switch p.kind {
	case pGround:
		return p.id
	case pVar:
		return g.env[p.id]
	}
	start := len(g.scratch)
	for i := range p.args {
		id := g.build(&p.args[i], lookup)
		if id < 0 {
			g.scratch = g.scratch[:start]
			return -1
		}
		g.scratch = append(g.scratch, id)
	}
	var id int32
	if lookup {
		id = g.ts.lookup(p.fn, g.scratch[start:])
	} else {
		id = g.ts.intern(p.fn, g.scratch[start:])
	}
	g.scratch = g.scratch[:start]
	return id
}

func (g *grounder) buildAtom(name gdl.Symbol, args []pat, lookup bool) int32 {
	start := len(g.scratch)
	for i := range args {
		id := g.build(&args[i], lookup)
		if id < 0 {
			g.scratch = g.scratch[:start]
			return -1
		}
		g.scratch = append(g.scratch, id)
	}
	var id int32
	if lookup {
		id = g.ts.lookup(name, g.scratch[start:])
	} else {
		id = g.ts.intern(name, g.scratch[start:])
	}
	g.scratch = g.scratch[:start]
	return id
}

func (g *grounder) atom(id int32) bool {
	return id >= 0 && int(id) < len(g.isAtom) && g.isAtom[id]
}

// addAtom adds a ground atom to its relation; it derives true(x) from
// init(x) and next(x), and does(r,m) from legal(r,m).
func (g *grounder) addAtom(r *relation, a int32) {
	if int(a) >= len(g.isAtom) {
		n := max(2*len(g.isAtom), int(a)+1, 1024)
		na := make([]bool, n)
		copy(na, g.isAtom)
		g.isAtom = na
	}
	if g.isAtom[a] {
		return
	}
	g.isAtom[a] = true
	r.atoms = append(r.atoms, a)
	switch r.name {
	case gdl.SymInit, gdl.SymNext:
		if r.arity == 1 {
			x := g.ts.args(a)[0]
			g.addAtom(g.rels[gdl.SymTrue], g.ts.intern(gdl.SymTrue, []int32{x}))
		}
	case gdl.SymLegal:
		if r.arity == 2 {
			args := g.ts.args(a)
			if g.isRole[args[0]] {
				g.addAtom(g.rels[gdl.SymDoes], g.ts.intern(gdl.SymDoes, []int32{args[0], args[1]}))
			}
		}
	}
}

// ---- indexes ----

func colsMask(cols []int) uint64 {
	var m uint64
	for _, c := range cols {
		m |= 1 << uint(c)
	}
	return m
}

func (g *grounder) index(r *relation, cols []int) *index {
	m := colsMask(cols)
	ix := r.indexes[m]
	if ix == nil {
		ix = &index{cols: append([]int(nil), cols...), m: map[uint64][]int32{}}
		r.indexes[m] = ix
	}
	// Catch up with the atoms added since the last use.
	for ; int(ix.n) < len(r.atoms); ix.n++ {
		args := g.ts.args(r.atoms[ix.n])
		k := uint64(0)
		for _, c := range ix.cols {
			k = mixKey(k, args[c], len(ix.cols))
		}
		ix.m[k] = append(ix.m[k], ix.n)
	}
	return ix
}

func mixKey(k uint64, id int32, ncols int) uint64 {
	if ncols <= 2 {
		return k<<32 | uint64(uint32(id))
	}
	k ^= uint64(uint32(id)) + 0x9e3779b97f4a7c15 + k<<6 + k>>2
	return k * 0xff51afd7ed558ccd
}

// ---- planning and joining ----

type pstep struct {
	lit    *clit
	lo, hi int32
	ix     *index
	record bool
}

// plan orders the body of r for one evaluation. lo and hi give each
// positive literal's range of atom positions.
func (g *grounder) plan(r *crule, lo, hi []int32) []pstep {
	bound := make([]bool, r.nvars)
	done := make([]bool, len(r.pos))
	checked := make([]bool, len(r.checks))
	var steps []pstep
	allBound := func(vs []int32) bool {
		for _, v := range vs {
			if !bound[v] {
				return false
			}
		}
		return true
	}
	flush := func() {
		for i, c := range r.checks {
			if !checked[i] && allBound(c.vars) {
				checked[i] = true
				steps = append(steps, pstep{lit: c})
			}
		}
	}
	flush()
	for range r.pos {
		best, bestEst := -1, int64(0)
		var bestCols []int
		for i, l := range r.pos {
			if done[i] {
				continue
			}
			var cols []int
			full := true
			for c, a := range l.args {
				if allBound(patVars(a, nil)) {
					cols = append(cols, c)
				} else {
					full = false
				}
			}
			size := int64(hi[i] - lo[i])
			est := size
			switch {
			case size == 0:
				est = -1
			case full:
				est = 0
			default:
				est = size >> (4 * uint(min(len(cols), 8)))
				est++
			}
			if best < 0 || est < bestEst {
				best, bestEst, bestCols = i, est, cols
			}
		}
		done[best] = true
		l := r.pos[best]
		st := pstep{lit: l, lo: lo[best], hi: hi[best], record: l.rel.kind == relNet}
		if len(bestCols) > 0 && len(bestCols) <= 64 {
			st.ix = g.index(l.rel, bestCols)
		}
		steps = append(steps, st)
		for _, v := range l.vars {
			bound[v] = true
		}
		flush()
	}
	for i, c := range r.checks {
		if !checked[i] {
			panic(refusal{&RefusalError{Kind: RefuseUnsupported, Msg: fmt.Sprintf("the literal %v of rule %s has a variable no positive literal binds", c.vars, r.src)}})
		}
	}
	return steps
}

func (g *grounder) eval(r *crule, lo, hi []int32) {
	for i := range lo {
		if hi[i] <= lo[i] {
			return // an empty range: no instance
		}
	}
	steps := g.plan(r, lo, hi)
	// Refresh the indexes chosen by the plan before joining (they may be
	// behind when the plan is reused).
	if cap(g.env) < r.nvars {
		g.env = make([]int32, r.nvars)
	}
	g.env = g.env[:r.nvars]
	for i := range g.env {
		g.env[i] = -1
	}
	g.trail = g.trail[:0]
	g.matched = g.matched[:0]
	g.negs = g.negs[:0]
	g.join(r, steps, 0)
}

func (g *grounder) join(r *crule, steps []pstep, k int) {
	if k == len(steps) {
		g.emit(r)
		return
	}
	st := &steps[k]
	l := st.lit
	switch l.kind {
	case lDistinct:
		if g.build(&l.left, false) == g.build(&l.right, false) {
			return
		}
		g.join(r, steps, k+1)
	case lNeg:
		if l.rel.kind == relExact || !g.record {
			if g.atom(g.buildAtom(l.rel.name, l.args, true)) {
				return
			}
			g.join(r, steps, k+1)
			return
		}
		// A negated network atom: kept in the instance as a NOT input.
		a := g.buildAtom(l.rel.name, l.args, false)
		g.negs = append(g.negs, a)
		g.join(r, steps, k+1)
		g.negs = g.negs[:len(g.negs)-1]
	case lPos:
		atoms := l.rel.atoms
		if st.ix != nil {
			key := uint64(0)
			for _, c := range st.ix.cols {
				id := g.build(&l.args[c], true)
				if id < 0 {
					return
				}
				key = mixKey(key, id, len(st.ix.cols))
			}
			list := st.ix.m[key] // indexed up to hi by plan
			i := 0
			if st.lo > 0 {
				i = sort.Search(len(list), func(i int) bool { return list[i] >= st.lo })
			}
			for ; i < len(list) && list[i] < st.hi; i++ {
				g.try(r, steps, k, atoms[list[i]])
			}
			return
		}
		for p := st.lo; p < st.hi; p++ {
			g.try(r, steps, k, atoms[p])
		}
	}
}

func (g *grounder) try(r *crule, steps []pstep, k int, a int32) {
	g.tick()
	st := &steps[k]
	mark := len(g.trail)
	if g.matchArgs(st.lit.args, a) {
		if st.record && g.record {
			g.matched = append(g.matched, a)
			g.join(r, steps, k+1)
			g.matched = g.matched[:len(g.matched)-1]
		} else {
			g.join(r, steps, k+1)
		}
	}
	g.undo(mark)
}

func (g *grounder) emit(r *crule) {
	h := g.buildAtom(r.head.name, r.hargs, false)
	g.addAtom(r.head, h)
	if !g.record {
		return
	}
	g.insts = append(g.insts, instance{rule: int32(r.id), head: h, off: int32(len(g.pool)), npos: int32(len(g.matched)), nneg: int32(len(g.negs))})
	g.pool = append(g.pool, g.matched...)
	g.pool = append(g.pool, g.negs...)
	if len(g.pool) > 1<<31-1<<20 || len(g.insts) > 1<<30 {
		panic(refusal{&RefusalError{Kind: RefuseSize, Msg: "too large to ground: over 2^31 instance links (" + g.figures() + ")"}})
	}
}

// fixpoint evaluates rules semi-naively until the growing relations stop
// growing.
func (g *grounder) fixpoint(rules []*crule, growing []*relation) {
	for _, r := range growing {
		r.growing = true
		r.seen = 0
	}
	defer func() {
		for _, r := range growing {
			r.growing = false
		}
	}()
	var lo, hi []int32
	for first := true; ; first = false {
		anyDelta := false
		for _, r := range growing {
			r.lo, r.hi = r.seen, int32(len(r.atoms))
			if r.hi > r.lo {
				anyDelta = true
			}
		}
		if !first && !anyDelta {
			return
		}
		g.stats.Iterations++
		for _, cr := range rules {
			lo, hi = lo[:0], hi[:0]
			nGrowing := 0
			for _, l := range cr.pos {
				if l.rel.growing {
					nGrowing++
				}
				lo = append(lo, 0)
				hi = append(hi, int32(len(l.rel.atoms)))
			}
			if nGrowing == 0 {
				if first {
					g.eval(cr, lo, hi)
				}
				continue
			}
			for d, dl := range cr.pos {
				if !dl.rel.growing || dl.rel.hi <= dl.rel.lo {
					continue
				}
				for j, l := range cr.pos {
					switch {
					case !l.rel.growing:
						lo[j], hi[j] = 0, int32(len(l.rel.atoms))
					case j < d:
						lo[j], hi[j] = 0, l.rel.lo
					case j == d:
						lo[j], hi[j] = l.rel.lo, l.rel.hi
					default:
						lo[j], hi[j] = 0, l.rel.hi
					}
				}
				g.eval(cr, lo, hi)
			}
		}
		for _, r := range growing {
			r.seen = r.hi
		}
		g.budget.check()
	}
}

// ground runs both phases over the rules the game's questions need.
func ground(game *gdl.Game, b *budget) (g *grounder, err error) {
	g = &grounder{ts: newTerms(), rels: map[gdl.Symbol]*relation{}, isRole: map[int32]bool{}, budget: b, started: time.Now()}
	b.figures = g.figures
	b.size = g.size
	b.phase = "grounding"
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refusal)
			if !ok {
				panic(r)
			}
			err = ref.err
		}
	}()
	a := game.Analysis
	gameRules := game.Rules
	if rw := fixedfluent.Rewrite(gameRules); rw != nil {
		gameRules = rw
		a = gdl.Analyse(gameRules)
	}
	for _, r := range game.Roles {
		id := g.ts.fromTerm(r)
		g.roles = append(g.roles, id)
		g.isRole[id] = true
	}
	// The relations the questions need.
	needed := map[gdl.Symbol]bool{}
	var visit func(gdl.Symbol)
	visit = func(n gdl.Symbol) {
		if needed[n] {
			return
		}
		needed[n] = true
		if rel := a.Relations[n]; rel != nil {
			for _, d := range rel.Deps {
				visit(d.Name)
			}
		}
	}
	for _, root := range []gdl.Symbol{gdl.SymLegal, gdl.SymNext, gdl.SymTerminal, gdl.SymGoal, gdl.SymInit} {
		visit(root)
	}
	// Relations that cannot be evaluated exactly: those that use the state
	// or the moves, those in a component with a negative edge inside it
	// (stratified only by their arguments), and those that depend on them.
	tainted := map[gdl.Symbol]bool{}
	for _, comp := range a.Components() { // components, dependencies first
		scc := a.Relations[comp[0]].SCC
		t := false
		for _, n := range comp {
			rel := a.Relations[n]
			if rel.UsesState || rel.UsesMoves || n == gdl.SymTrue || n == gdl.SymDoes {
				t = true
			}
			for _, d := range rel.Deps {
				if tainted[d.Name] || d.Negative && a.Relations[d.Name].SCC == scc {
					t = true
				}
			}
		}
		for _, n := range comp {
			tainted[n] = t
		}
	}
	arity := func(n gdl.Symbol) int {
		if rel := a.Relations[n]; rel != nil {
			return rel.Arity
		}
		return 0
	}
	g.rel(gdl.SymTrue, 1).kind = relNet
	g.rel(gdl.SymDoes, 2).kind = relNet
	for _, n := range a.Order {
		if !needed[n] {
			continue
		}
		r := g.rel(n, arity(n))
		if tainted[n] {
			r.kind = relNet
		}
	}
	var auxExact []*crule
	for _, r := range gameRules {
		if !needed[r.Head.Name] || r.Head.Name == gdl.SymTrue || r.Head.Name == gdl.SymDoes {
			continue
		}
		rules := []*gdl.Rule{r}
		if g.rels[r.Head.Name].kind == relNet {
			rules = g.eliminate(r)
		}
		for _, nr := range rules {
			cr := g.compileRule(nr)
			cr.head.rules = append(cr.head.rules, cr)
			if cr.head.aux && cr.head.kind == relExact {
				auxExact = append(auxExact, cr)
			}
		}
	}
	// Phase 1: exact relations, component by component.
	for _, comp := range a.Components() {
		var rules []*crule
		var growing []*relation
		for _, n := range comp {
			r := g.rels[n]
			if r == nil || !needed[n] || r.kind != relExact {
				continue
			}
			growing = append(growing, r)
			rules = append(rules, r.rules...)
		}
		if len(rules) > 0 {
			g.fixpoint(rules, growing)
		}
	}
	for _, r := range g.relList {
		if r.kind == relExact {
			g.stats.ExactAtoms += len(r.atoms)
		}
	}
	// The exact parts split off network rules; they read exact relations
	// only, which are complete now.
	for _, cr := range auxExact {
		g.fixpoint([]*crule{cr}, []*relation{cr.head})
	}
	// Phase 2: the relaxed network relations.
	g.record = true
	var rules []*crule
	var growing []*relation
	for _, r := range g.relList {
		if r.kind == relNet {
			growing = append(growing, r)
			rules = append(rules, r.rules...)
		}
	}
	g.fixpoint(rules, growing)
	for _, r := range g.relList {
		if r.kind == relNet {
			g.stats.NetAtoms += len(r.atoms)
		}
		r.indexes = nil // not needed any more
	}
	g.stats.Instances = len(g.insts)
	g.stats.InstanceLinks = len(g.pool)
	g.stats.Terms = len(g.ts.t)
	g.stats.Duration = time.Since(g.started)
	return g, nil
}

// eliminate rewrites a rule of a network relation by variable elimination
// (Dechter's bucket elimination; in GDL, the rule splitting of GGP-Base's
// condensation isolation): a variable v that the head does not have, and
// whose literals S are not the whole body, is eliminated by a new relation
// over the variables S shares with the rest, aux(I) :- S, that replaces S.
// The variable with the smallest interface I goes first. A chain such as
// total(t) :- g(n1), g(n2), sum(n1,n2,s1), g(n3), sum(s1,n3,s2), ... is then
// grounded link by link instead of over every combination of its
// variables, and a literal whose extra variables nothing else reads, such
// as (does ?p (play ?x1 ?y1 ?x2 ?y2 ?x3 ?y3)), is projected once onto the
// variables the rule needs.
func (g *grounder) eliminate(r *gdl.Rule) []*gdl.Rule {
	head := map[gdl.Symbol]bool{}
	for _, v := range r.Head.Vars(nil) {
		head[v] = true
	}
	body := append([]*gdl.Literal(nil), r.Body...)
	var out []*gdl.Rule
	for len(body) >= 2 {
		var local []gdl.Symbol
		for _, l := range body {
			for _, v := range l.Vars(nil) {
				if !head[v] && !slices.Contains(local, v) {
					local = append(local, v)
				}
			}
		}
		var best []int
		var bestI []gdl.Symbol
		for _, v := range local {
			var in []int
			for i, l := range body {
				if slices.Contains(l.Vars(nil), v) {
					in = append(in, i)
				}
			}
			if len(in) == len(body) {
				continue
			}
			rest := map[gdl.Symbol]bool{}
			for k := range head {
				rest[k] = true
			}
			for i, l := range body {
				if !slices.Contains(in, i) {
					for _, x := range l.Vars(nil) {
						rest[x] = true
					}
				}
			}
			pos := map[gdl.Symbol]bool{}
			var iface []gdl.Symbol
			for _, i := range in {
				for _, x := range body[i].Vars(nil) {
					if body[i].Kind == gdl.LitAtom {
						pos[x] = true
					}
					if rest[x] && !slices.Contains(iface, x) {
						iface = append(iface, x)
					}
				}
			}
			safe := true
			for _, i := range in {
				for _, x := range body[i].Vars(nil) {
					if !pos[x] {
						safe = false
					}
				}
			}
			if !safe {
				continue
			}
			if best == nil || len(iface) < len(bestI) || len(iface) == len(bestI) && len(in) < len(best) {
				best, bestI = in, iface
			}
		}
		if best == nil {
			break
		}
		var group, rest []*gdl.Literal
		net := false
		for i, l := range body {
			if slices.Contains(best, i) {
				group = append(group, l)
				if l.Atom != nil && g.rels[l.Atom.Name] != nil && g.rels[l.Atom.Name].kind == relNet {
					net = true
				}
			} else {
				rest = append(rest, l)
			}
		}
		ah := g.auxHead("#aux", bestI, net)
		out = append(out, &gdl.Rule{Head: ah, Body: group, Pos: r.Pos})
		body = append(rest, &gdl.Literal{Kind: gdl.LitAtom, Atom: ah, Pos: r.Pos})
	}
	if out == nil {
		return []*gdl.Rule{r}
	}
	return append(out, &gdl.Rule{Head: r.Head, Body: body, Pos: r.Pos})
}

// auxHead makes an auxiliary relation over the variables keep and returns
// its atom.
func (g *grounder) auxHead(prefix string, keep []gdl.Symbol, net bool) *gdl.Term {
	name := gdl.Intern(fmt.Sprintf("%s%d", prefix, g.naux))
	g.naux++
	var ah *gdl.Term
	if len(keep) == 0 {
		ah = gdl.NewConst(name)
	} else {
		args := make([]*gdl.Term, len(keep))
		for i, v := range keep {
			args[i] = gdl.NewVar(v)
		}
		ah = gdl.NewFunc(name, args...)
	}
	rel := g.rel(name, len(keep))
	rel.aux = true
	if net {
		rel.kind = relNet
	}
	return ah
}
