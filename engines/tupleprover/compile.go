package tupleprover

import (
	"fmt"
	"math"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// expr is a term of a rule whose variables are bound where it is used: a
// constant, a register, or a function term over exprs.
type expr struct {
	kind exprKind
	v    int32 // constant id or register
	fn   gdl.Symbol
	args []expr
}

type exprKind uint8

const (
	eConst exprKind = iota
	eReg
	eFunc
)

// pmatch matches a column value against a term with unbound variables.
type pmatch struct {
	kind matchKind
	v    int32 // register or constant id
	fn   gdl.Symbol
	sub  []pmatch
}

type matchKind uint8

const (
	mBind  matchKind = iota // first occurrence of a variable: bind it
	mCheck                  // a bound variable: compare
	mConst                  // a constant: compare
	mFunc                   // a function term: compare name and arity, match arguments
)

type opKind uint8

const (
	opScan       opKind = iota // positive literal: index lookup or full scan, match the other columns
	opMember                   // positive literal, every column bound
	opNot                      // negative literal
	opTrueMember               // (true X) with X bound
	opNotTrue                  // (not (true X))
	opTrueAny                  // (true ?x) with ?x unbound
	opDistinct
	opHeadCheck // the head is bound: skip the rest when it is known
)

type op struct {
	kind opKind
	// simple: keys are registers and constants only, coded in kc
	simple  bool
	kc      []int32 // >= 0: register; < 0: ^constant id
	rel     *relation
	ix      *index
	keys    []expr // opScan with ix: values of ix.cols; opMember, opNot: the tuple
	outCols []int32
	outs    []pmatch
	delta   bool
	x, y    expr // true literals: x; distinct: x and y
	reg     int32
}

// plan is a rule compiled for one join order.
type plan struct {
	rule     *gdl.Rule
	simple   bool    // head arguments are registers and constants only
	hc       []int32 // their codes, as op.kc
	ops      []op
	head     *relation
	headArgs []expr
	nregs    int
	// hg is the index of the opHeadCheck; from there on, one proof is
	// enough (len(ops)+1 when there is none)
	hg int
	// delta is the relation of the delta literal of a semi-naive plan
	delta *relation
}

// group is a set of rules evaluated together to a fixed point: the rules of
// a non-recursive relation, or of a strongly connected set of rules.
type group struct {
	rules     []*crule
	heads     []*relation
	recursive bool
}

type crule struct {
	src    *gdl.Rule
	base   *plan   // naive: every literal over the whole relation
	deltas []*plan // semi-naive: one per recursive literal, it over the last round's rows
}

// unit is one strongly connected component of the relation dependency
// graph, evaluated as a whole when a question needs it.
type unit struct {
	order  int
	rels   []*relation
	groups []*group
	scope  scope
	stamp  uint64
}

type compiler struct {
	m       *Machine
	rels    map[gdl.Symbol]*relation
	trueRel map[trueKey]*relation
	// estimates for true$f relations from the initial state
	initCount map[trueKey]float64
	initDist  map[trueKey][]float64
	distinct  map[*relation][]float64
}

type trueKey struct {
	fn    gdl.Symbol
	arity int
}

func (c *compiler) relOf(name gdl.Symbol) *relation {
	return c.rels[name]
}

func (c *compiler) trueRelation(fn gdl.Symbol, arity int) *relation {
	k := trueKey{fn, arity}
	r := c.trueRel[k]
	if r == nil {
		// the last column is the id of the whole fact
		r = newRelation(fmt.Sprintf("true$%s/%d", fn.Name(), arity), arity+1, scopeState)
		c.trueRel[k] = r
		c.m.trueRels = append(c.m.trueRels, trueInput{fn: fn, arity: int32(arity), rel: r})
	}
	return r
}

// ruleVars numbers a rule's variables.
type ruleVars struct {
	regs  map[gdl.Symbol]int32
	bound []bool
	// whole holds a register with the id of a function term matched
	// whole, by the term's text: a true fact binds its id, so that a head
	// or literal with the same term reads it instead of interning it again
	whole map[string]int32
}

func (rv *ruleVars) wholeReg(t *gdl.Term) (int32, bool) {
	if t.Kind != gdl.Func || rv.whole == nil {
		return 0, false
	}
	r, ok := rv.whole[t.String()]
	return r, ok
}

func (rv *ruleVars) reg(s gdl.Symbol) int32 {
	r, ok := rv.regs[s]
	if !ok {
		r = int32(len(rv.regs))
		rv.regs[s] = r
		rv.bound = append(rv.bound, false)
	}
	return r
}

func (rv *ruleVars) ground(t *gdl.Term) bool {
	switch t.Kind {
	case gdl.Var:
		return rv.bound[rv.reg(t.Name)]
	case gdl.Func:
		for _, a := range t.Args {
			if !rv.ground(a) {
				return false
			}
		}
	}
	return true
}

func (c *compiler) expr(t *gdl.Term, rv *ruleVars) expr {
	switch t.Kind {
	case gdl.Var:
		return expr{kind: eReg, v: rv.reg(t.Name)}
	case gdl.Const:
		return expr{kind: eConst, v: c.m.st.intern(t.Name, nil)}
	}
	if len(t.Args) == 0 {
		return expr{kind: eConst, v: c.m.st.intern(t.Name, nil)}
	}
	if t.IsGround() {
		return expr{kind: eConst, v: c.m.st.fromTerm(t)}
	}
	if r, ok := rv.wholeReg(t); ok {
		return expr{kind: eReg, v: r}
	}
	x := expr{kind: eFunc, fn: t.Name, args: make([]expr, len(t.Args))}
	for i, a := range t.Args {
		x.args[i] = c.expr(a, rv)
	}
	return x
}

// match compiles a term to match against a value, binding its unbound
// variables (in order, so a repeated variable is bound once then checked).
func (c *compiler) match(t *gdl.Term, rv *ruleVars) pmatch {
	switch t.Kind {
	case gdl.Var:
		r := rv.reg(t.Name)
		if rv.bound[r] {
			return pmatch{kind: mCheck, v: r}
		}
		rv.bound[r] = true
		return pmatch{kind: mBind, v: r}
	case gdl.Const:
		return pmatch{kind: mConst, v: c.m.st.intern(t.Name, nil)}
	}
	if len(t.Args) == 0 {
		return pmatch{kind: mConst, v: c.m.st.intern(t.Name, nil)}
	}
	if t.IsGround() {
		return pmatch{kind: mConst, v: c.m.st.fromTerm(t)}
	}
	if r, ok := rv.wholeReg(t); ok {
		return pmatch{kind: mCheck, v: r}
	}
	p := pmatch{kind: mFunc, fn: t.Name, sub: make([]pmatch, len(t.Args))}
	for i, a := range t.Args {
		p.sub[i] = c.match(a, rv)
	}
	return p
}

// litArgs returns the relation and column terms of a positive literal;
// for (true (f a b)) the relation true$f/2 with columns a b. It returns a
// nil relation for (true X) with X a constant or variable.
func (c *compiler) litArgs(a *gdl.Term) (*relation, []*gdl.Term) {
	if a.Name == gdl.SymTrue {
		x := a.Args[0]
		if x.Kind != gdl.Func || len(x.Args) == 0 {
			return nil, nil
		}
		return c.trueRelation(x.Name, len(x.Args)), x.Args
	}
	if a.Kind != gdl.Func {
		return c.relOf(a.Name), nil
	}
	return c.relOf(a.Name), a.Args
}

// cost estimates the rows a positive literal yields with rv's bindings.
func (c *compiler) cost(l *gdl.Literal, rv *ruleVars) float64 {
	a := l.Atom
	if a.Name == gdl.SymTrue && (a.Args[0].Kind != gdl.Func || len(a.Args[0].Args) == 0) {
		if rv.ground(a.Args[0]) {
			return 0
		}
		return 1000
	}
	r, cols := c.litArgs(a)
	est, dist := c.estimate(r)
	allBound := true
	for i, t := range cols {
		if rv.ground(t) {
			est /= dist[i]
		} else {
			allBound = false
			if t.Kind == gdl.Func {
				est /= 2
			}
		}
	}
	if allBound {
		return 0
	}
	return est
}

// estimate returns a relation's expected size and the expected number of
// distinct values in each column.
func (c *compiler) estimate(r *relation) (float64, []float64) {
	if d, ok := c.distinct[r]; ok {
		return math.Max(float64(r.n), 1), d
	}
	if r.scope == scopeStatic && r.est < 0 {
		// evaluated: count distinct values per column
		d := make([]float64, r.width)
		for col := range r.width {
			seen := map[int32]bool{}
			for row := int32(0); row < r.n; row++ {
				seen[r.data[row*int32(r.width)+int32(col)]] = true
			}
			d[col] = math.Max(float64(len(seen)), 1)
		}
		c.distinct[r] = d
		return math.Max(float64(r.n), 1), d
	}
	if r.evals > 0 && r != c.m.does {
		// sampled while warming up
		d := make([]float64, r.width)
		for i := range d {
			d[i] = 5
			if r.distN > 0 {
				d[i] = math.Max(r.distSum[i]/float64(r.distN), 1)
			}
		}
		return math.Max(r.sumN/float64(r.evals), 0.5), d
	}
	for k, tr := range c.trueRel {
		if tr == r {
			n := c.initCount[k]
			if n == 0 {
				n = 10
			}
			d := c.initDist[k]
			if d == nil {
				d = make([]float64, r.width)
				for i := range d {
					d[i] = 3
				}
			}
			return n, d
		}
	}
	est := r.est
	if est <= 0 {
		est = 100
	}
	if strings.HasPrefix(r.name, "magic ") {
		// the bindings asked for: few, and the binding source of the rule
		est = 1
	}
	d := make([]float64, r.width)
	for i := range d {
		d[i] = 5
	}
	if r == c.m.does {
		est = float64(len(c.m.roleIDs))
		d[0] = est
	}
	return est, d
}

// compileRule orders a rule's body and compiles it. first >= 0 forces that
// body literal first, as the delta literal of a semi-naive round.
func (c *compiler) compileRule(r *gdl.Rule, first int) (*plan, error) {
	rv := &ruleVars{regs: map[gdl.Symbol]int32{}}
	for _, l := range r.Body {
		for _, v := range l.Vars(nil) {
			rv.reg(v)
		}
	}
	p := &plan{rule: r, head: c.relOf(r.Head.Name), hg: -1}
	headVars := r.Head.Vars(nil)
	headBound := func() bool {
		for _, v := range headVars {
			if !rv.bound[rv.reg(v)] {
				return false
			}
		}
		return true
	}
	placed := make([]bool, len(r.Body))
	left := len(r.Body)
	placeFilters := func() error {
		for i, l := range r.Body {
			if placed[i] || l.Kind == gdl.LitAtom {
				continue
			}
			ok := true
			for _, v := range l.Vars(nil) {
				if !rv.bound[rv.reg(v)] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			placed[i] = true
			left--
			if err := c.compileFilter(p, l, rv); err != nil {
				return err
			}
		}
		return nil
	}
	if first >= 0 {
		placed[first] = true
		left--
		c.compileAtom(p, r.Body[first].Atom, rv, true)
		p.delta = p.ops[0].rel
	}
	// The magic literal of a rewritten rule holds the bindings asked for:
	// it leads (the sideways passing that the rewriting assumed), unless a
	// delta literal does.
	for i, l := range r.Body {
		if first < 0 && !placed[i] && l.Kind == gdl.LitAtom && strings.HasPrefix(l.Atom.Name.Name(), "magic ") {
			placed[i] = true
			left--
			c.compileAtom(p, l.Atom, rv, false)
		}
	}
	for {
		if p.hg < 0 && headBound() {
			p.hg = len(p.ops)
		}
		if err := placeFilters(); err != nil {
			return nil, err
		}
		if left == 0 {
			break
		}
		best, bestCost := -1, math.Inf(1)
		for i, l := range r.Body {
			if placed[i] || l.Kind != gdl.LitAtom {
				continue
			}
			if cost := c.cost(l, rv); cost < bestCost {
				best, bestCost = i, cost
			}
		}
		if best < 0 {
			return nil, engines.Errorf(engines.NonGround, "rule %s: a negation or distinct has a variable no positive literal binds", r)
		}
		placed[best] = true
		left--
		c.compileAtom(p, r.Body[best].Atom, rv, false)
	}
	for _, v := range r.Head.Vars(nil) {
		if !rv.bound[rv.reg(v)] {
			return nil, engines.Errorf(engines.NonGround, "rule %s: the head variable %s is not bound by the body", r, v.Name())
		}
	}
	if r.Head.Kind == gdl.Func {
		for _, a := range r.Head.Args {
			p.headArgs = append(p.headArgs, c.expr(a, rv))
		}
	}
	p.nregs = len(rv.regs)
	// Once the head is bound, the rest of the body only confirms it: skip
	// it when the head is already known, and stop at the first proof.
	switch {
	case p.hg < 0 || p.hg >= len(p.ops):
		p.hg = len(p.ops) + 1
	case p.head.width > 0:
		// a check costs a hash lookup, more than it saves in most games;
		// the first proof still ends the search
	default:
		chk := op{kind: opHeadCheck, rel: p.head, keys: p.headArgs}
		p.ops = append(p.ops[:p.hg], append([]op{chk}, p.ops[p.hg:]...)...)
	}
	for i := range p.ops {
		o := &p.ops[i]
		o.kc, o.simple = codes(o.keys)
	}
	p.hc, p.simple = codes(p.headArgs)
	return p, nil
}

// codes codes registers and constants for the fast paths.
func codes(xs []expr) ([]int32, bool) {
	kc := make([]int32, len(xs))
	for i, x := range xs {
		switch x.kind {
		case eReg:
			kc[i] = x.v
		case eConst:
			kc[i] = ^x.v
		default:
			return nil, false
		}
	}
	return kc, true
}

func (c *compiler) compileFilter(p *plan, l *gdl.Literal, rv *ruleVars) error {
	if l.Kind == gdl.LitDistinct {
		p.ops = append(p.ops, op{kind: opDistinct, x: c.expr(l.Left, rv), y: c.expr(l.Right, rv)})
		return nil
	}
	a := l.Atom
	if a.Name == gdl.SymTrue {
		p.ops = append(p.ops, op{kind: opNotTrue, x: c.expr(a.Args[0], rv)})
		return nil
	}
	r := c.relOf(a.Name)
	o := op{kind: opNot, rel: r}
	if a.Kind == gdl.Func {
		for _, t := range a.Args {
			o.keys = append(o.keys, c.expr(t, rv))
		}
	}
	p.ops = append(p.ops, o)
	return nil
}

func (c *compiler) compileAtom(p *plan, a *gdl.Term, rv *ruleVars, delta bool) {
	if a.Name == gdl.SymTrue {
		// true is an input, never the delta literal of a round
		x := a.Args[0]
		switch {
		case rv.ground(x):
			p.ops = append(p.ops, op{kind: opTrueMember, x: c.expr(x, rv)})
			return
		case x.Kind == gdl.Var:
			r := rv.reg(x.Name)
			rv.bound[r] = true
			p.ops = append(p.ops, op{kind: opTrueAny, reg: r})
			return
		}
	}
	r, cols := c.litArgs(a)
	o := op{kind: opScan, rel: r, delta: delta}
	var keyCols []int
	isKey := make([]bool, len(cols))
	for i, t := range cols {
		if rv.ground(t) {
			isKey[i] = true
			keyCols = append(keyCols, i)
			o.keys = append(o.keys, c.expr(t, rv))
		}
	}
	if len(keyCols) == len(cols) && !delta {
		o.kind = opMember
		p.ops = append(p.ops, o)
		return
	}
	if len(keyCols) > 0 {
		o.ix = r.indexOn(keyCols)
	}
	for i, t := range cols {
		if isKey[i] {
			continue
		}
		o.outCols = append(o.outCols, int32(i))
		o.outs = append(o.outs, c.match(t, rv))
	}
	if a.Name == gdl.SymTrue {
		x := a.Args[0]
		if rv.whole == nil {
			rv.whole = map[string]int32{}
		}
		text := x.String()
		if _, ok := rv.whole[text]; !ok {
			reg := int32(len(rv.regs))
			rv.regs[gdl.Symbol(-1-reg)] = reg // a name no variable has
			rv.bound = append(rv.bound, true)
			rv.whole[text] = reg
			o.outCols = append(o.outCols, int32(len(cols)))
			o.outs = append(o.outs, pmatch{kind: mBind, v: reg})
		}
	}
	p.ops = append(p.ops, o)
}

// cycleError is a negation inside a cycle of rules; negated is the
// relation negated.
type cycleError struct {
	*engines.GameError
	negated gdl.Symbol
}

func (e *cycleError) Unwrap() error { return e.GameError }
