// Package prover is gdlperf's reference engine: a top-down, backward-chaining
// prover over the game's rules with GGP-Base's semantics, the oracle every
// other engine is checked against.
//
// A question (legal, next, terminal, goal, init) is a query atom. A query is
// answered by resolving it against the rules whose heads match, left to right
// through each body (the cleaner has placed every distinct and not after the
// literals that bind it); true and does are answered from the current state
// and joint move. Every query's complete answer set is tabled under the query
// with its variables renamed canonically, in one of three scopes chosen from
// the dependency graph: answers that depend on neither true nor does live as
// long as the game, answers that depend on true live as long as the state,
// and answers that depend on does as long as the joint move.
//
// Recursion is handled as in SLG resolution with local scheduling (Chen and
// Warren 1996), simplified for Datalog with a finite model: a call to a query
// that is being evaluated returns the answers found so far and links the
// caller to it; the leader of the strongly connected set of calls re-runs its
// rules until a pass adds no answer, and only then are the tables of the set
// complete. Negation as failure asks only complete tables (the game is
// stratified). This is the semantics of the least fixed point that GGP-Base's
// prover approximates by re-running recursive queries; its regression games
// (recursion cases 5a-5e) are tests here.
package prover

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

const (
	pGround = iota
	pVar
	pFunc
)

// pat is a term of a rule or a query: a ground term (by id), a variable (by
// index in the rule's or the query's environment) or a function term with
// a variable somewhere below.
type pat struct {
	kind uint8
	id   int32 // ground id, or variable index
	fn   gdl.Symbol
	args []pat
}

type litKind uint8

const (
	litAtom litKind = iota
	litNot
	litDistinct
	litTrue
	litDoes
)

type clit struct {
	kind        litKind
	atom        pat // litAtom, litNot; for litTrue and litDoes, the whole atom
	rel         gdl.Symbol
	left, right pat // litDistinct; left is the argument of litTrue
}

type crule struct {
	src   *gdl.Rule
	head  pat
	body  []clit
	nvars int
}

type scope uint8

const (
	scopeGame scope = iota
	scopeState
	scopeMove
)

const (
	fresh = iota
	evaluating
	pending
	complete
)

// table holds the answers (ground atom ids) of one query. The tables of a
// state or a joint move are made again for the next one from the same
// memory (tableMap.clear), so nothing may keep a table or its answers past
// the question that asked for them.
type table struct {
	answers []int32
	set     *idSet // the answers, while there are more than 8
	status  uint8
	depth   int    // stack depth while evaluating
	dep     *table // while pending: the table it was found to depend on
	pass    int
	query   pat
	rel     gdl.Symbol
	filter  bool // answers must be matched against the query
}

func (t *table) add(a int32) bool {
	if len(t.answers) > 8 {
		if !t.set.add(a) {
			return false
		}
	} else {
		for _, x := range t.answers {
			if x == a {
				return false
			}
		}
		if len(t.answers) == 8 {
			if t.set == nil {
				t.set = &idSet{}
			}
			for _, x := range t.answers {
				t.set.add(x)
			}
			t.set.add(a)
		}
	}
	t.answers = append(t.answers, a)
	return true
}

// recycle empties t for another query, keeping its memory.
func (t *table) recycle() {
	set := t.set
	if len(t.answers) > 8 {
		set.reset()
	}
	*t = table{answers: t.answers[:0], set: set}
}

var errAbort = errors.New("abort")

// Prover answers queries about one game. Its work for a question depends
// only on the game and the questions asked before (no Go map is on the
// path of a question: see hash.go).
type Prover struct {
	game   *gdl.Game
	st     *store
	rules  [][]*crule // by relation (a symbol)
	scopes []scope    // by relation; scopeGame beyond its end

	tables [3]*tableMap

	// context
	state []int32 // sorted atom ids of (true x) arguments' x
	// stateGen numbers the states set; inSet[id] == stateGen when the term
	// id is a fact of the state (built when first asked, stateBuilt).
	stateGen   uint32
	stateBuilt bool
	inSet      []uint32
	// byFn[fn] are the state's facts whose function is fn when
	// byFnGen[fn] == stateGen (built when first asked, byFnBuilt).
	byFnBuilt bool
	byFnGen   []uint32
	byFn      [][]int32
	does      []int32 // atom ids of (does role move)

	// evaluation
	stack         []*table
	pendingTables []*table
	low           int
	pass          int
	added         int
	cyclic        int
	trail         []int32
	envs          []int32
	keyBuf        []byte
	vars          []int32 // instantiate's renaming of variables

	// budgets
	deadline time.Time
	steps    int
	err      error
}

// New compiles a game's rules for the prover.
func New(g *gdl.Game) *Prover {
	p := &Prover{game: g, st: newStore(), stateGen: 1}
	for i := range p.tables {
		p.tables[i] = newTableMap()
	}
	for name, r := range g.Analysis.Relations {
		sc := scopeGame
		switch {
		case r.UsesMoves:
			sc = scopeMove
		case r.UsesState:
			sc = scopeState
		}
		p.scopes = grown(p.scopes, int(name))
		p.scopes[name] = sc
	}
	for _, r := range g.Rules {
		name := r.Head.Name
		p.rules = grown(p.rules, int(name))
		p.rules[name] = append(p.rules[name], p.compile(r))
	}
	return p
}

// grown returns s with an element at index i (zero values added).
func grown[T any](s []T, i int) []T {
	if i < len(s) {
		return s
	}
	return append(s, make([]T, i+1-len(s))...)
}

// scopeOf returns the scope of the tables of relation rel.
func (p *Prover) scopeOf(rel gdl.Symbol) scope {
	if int(rel) < len(p.scopes) {
		return p.scopes[rel]
	}
	return scopeGame
}

// rulesOf returns the rules whose head is relation rel.
func (p *Prover) rulesOf(rel gdl.Symbol) []*crule {
	if int(rel) < len(p.rules) {
		return p.rules[rel]
	}
	return nil
}

func (p *Prover) compile(r *gdl.Rule) *crule {
	vars := map[gdl.Symbol]int32{}
	cr := &crule{src: r}
	cr.head = p.pattern(r.Head, vars)
	for _, l := range r.Body {
		var c clit
		switch l.Kind {
		case gdl.LitAtom, gdl.LitNot:
			c.atom = p.pattern(l.Atom, vars)
			c.rel = l.Atom.Name
			switch {
			case l.Kind == gdl.LitNot:
				c.kind = litNot
			case l.Atom.Name == gdl.SymTrue:
				c.kind = litTrue
				c.left = p.pattern(l.Atom.Args[0], vars)
			case l.Atom.Name == gdl.SymDoes:
				c.kind = litDoes
			default:
				c.kind = litAtom
			}
		case gdl.LitDistinct:
			c.kind = litDistinct
			c.left = p.pattern(l.Left, vars)
			c.right = p.pattern(l.Right, vars)
		}
		cr.body = append(cr.body, c)
	}
	cr.nvars = len(vars)
	return cr
}

func (p *Prover) pattern(t *gdl.Term, vars map[gdl.Symbol]int32) pat {
	switch t.Kind {
	case gdl.Var:
		i, ok := vars[t.Name]
		if !ok {
			i = int32(len(vars))
			vars[t.Name] = i
		}
		return pat{kind: pVar, id: i}
	case gdl.Const:
		return pat{kind: pGround, id: p.st.intern(t.Name, nil)}
	}
	if t.IsGround() {
		return pat{kind: pGround, id: p.st.fromTerm(t)}
	}
	q := pat{kind: pFunc, fn: t.Name, args: make([]pat, len(t.Args))}
	for i, a := range t.Args {
		q.args[i] = p.pattern(a, vars)
	}
	return q
}

// SetDeadline makes every question asked after t fail with a resource-limit
// game error; the zero time removes the deadline.
func (p *Prover) SetDeadline(t time.Time) { p.deadline = t }

// setState makes facts (ids of the terms x of (true x)) the current state.
func (p *Prover) setState(facts []int32) {
	if sameSlice(p.state, facts) {
		return
	}
	p.state = facts
	p.newStateGen()
	p.tables[scopeState].clear()
	p.tables[scopeMove].clear()
	p.does = p.does[:0]
}

// newStateGen forgets the sets built for the previous state.
func (p *Prover) newStateGen() {
	p.stateGen++
	if p.stateGen == 0 { // after 2^32 states: older marks could look current
		clear(p.inSet)
		clear(p.byFnGen)
		p.stateGen = 1
	}
	p.stateBuilt, p.byFnBuilt = false, false
}

func sameSlice(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return a != nil && b != nil || a == nil && b == nil
	}
	return &a[0] == &b[0]
}

func (p *Prover) setMoves(does []int32) {
	if len(does) == len(p.does) {
		same := true
		for i := range does {
			if does[i] != p.does[i] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	p.does = append(p.does[:0], does...)
	p.tables[scopeMove].clear()
}

func (p *Prover) inState(id int32) bool {
	if !p.stateBuilt {
		for _, f := range p.state {
			p.inSet = grown(p.inSet, int(f))
			p.inSet[f] = p.stateGen
		}
		p.stateBuilt = true
	}
	return int(id) < len(p.inSet) && p.inSet[id] == p.stateGen
}

func (p *Prover) factsWith(fn gdl.Symbol) []int32 {
	if !p.byFnBuilt {
		for _, f := range p.state {
			s := p.st.terms[f].fn
			p.byFn = grown(p.byFn, int(s))
			p.byFnGen = grown(p.byFnGen, int(s))
			if p.byFnGen[s] != p.stateGen {
				p.byFnGen[s] = p.stateGen
				p.byFn[s] = p.byFn[s][:0]
			}
			p.byFn[s] = append(p.byFn[s], f)
		}
		p.byFnBuilt = true
	}
	if int(fn) < len(p.byFnGen) && p.byFnGen[fn] == p.stateGen {
		return p.byFn[fn]
	}
	return nil
}

// ask answers the query atom q (whose variables are numbered 0..n-1) and
// returns the ground answers. It recovers the prover's internal aborts.
func (p *Prover) ask(q pat, nvars int) (answers []int32, err error) {
	defer func() {
		if r := recover(); r != nil {
			if r != errAbort {
				panic(r)
			}
			err = p.err
			p.err = nil
			p.reset()
			answers = nil
		}
	}()
	env := p.alloc(nvars)
	key := p.key(q, env, nil)
	t := p.call(key, q, env)
	p.free(nvars)
	if t.status != complete {
		return nil, fmt.Errorf("prover: internal error: top-level query left incomplete")
	}
	return t.answers, nil
}

// reset drops every table that an abort may have left half-built.
func (p *Prover) reset() {
	for _, m := range p.tables {
		m.keep(func(t *table) bool { return t.status == complete })
	}
	p.stack = p.stack[:0]
	p.pendingTables = p.pendingTables[:0]
	p.trail = p.trail[:0]
	p.envs = p.envs[:0]
}

func (p *Prover) abort(err error) {
	p.err = err
	panic(errAbort)
}

func (p *Prover) alloc(n int) []int32 {
	l := len(p.envs)
	if l+n > cap(p.envs) {
		p.envs = make([]int32, l, 2*cap(p.envs)+n+64)
	}
	p.envs = p.envs[:l+n]
	env := p.envs[l : l+n : l+n]
	for i := range env {
		env[i] = -1
	}
	return env
}

func (p *Prover) free(n int) { p.envs = p.envs[:len(p.envs)-n] }

// key appends the canonical key of atom a under env: the relation, then
// each argument with bound variables replaced by their values, unbound ones
// numbered in order of first occurrence, and subterms that became ground
// replaced by their ids.
func (p *Prover) key(a pat, env []int32, _ []int32) []byte {
	b := p.keyBuf[:0]
	var names [16]int32
	seen := names[:0]
	if a.kind == pGround {
		t := p.st.terms[a.id]
		b = binary.AppendUvarint(b, uint64(t.fn))
		for _, x := range t.args {
			b = binary.AppendUvarint(b, uint64(x)*3)
		}
	} else {
		b = binary.AppendUvarint(b, uint64(a.fn))
		for _, x := range a.args {
			b, seen = p.keyTerm(b, x, env, seen)
		}
	}
	p.keyBuf = b
	return b
}

func (p *Prover) keyTerm(b []byte, x pat, env []int32, seen []int32) ([]byte, []int32) {
	switch x.kind {
	case pGround:
		return binary.AppendUvarint(b, uint64(x.id)*3), seen
	case pVar:
		if v := env[x.id]; v >= 0 {
			return binary.AppendUvarint(b, uint64(v)*3), seen
		}
		for i, s := range seen {
			if s == x.id {
				return binary.AppendUvarint(b, uint64(i)*3+1), seen
			}
		}
		seen = append(seen, x.id)
		return binary.AppendUvarint(b, uint64(len(seen)-1)*3+1), seen
	}
	if id, ok := p.groundID(x, env); ok {
		return binary.AppendUvarint(b, uint64(id)*3), seen
	}
	b = binary.AppendUvarint(b, uint64(x.fn)*3+2)
	b = binary.AppendUvarint(b, uint64(len(x.args)))
	for _, c := range x.args {
		b, seen = p.keyTerm(b, c, env, seen)
	}
	return b, seen
}

// groundID returns the id of x under env when x is ground there.
func (p *Prover) groundID(x pat, env []int32) (int32, bool) {
	switch x.kind {
	case pGround:
		return x.id, true
	case pVar:
		v := env[x.id]
		return v, v >= 0
	}
	var small [8]int32
	args := small[:0]
	for _, c := range x.args {
		id, ok := p.groundID(c, env)
		if !ok {
			return 0, false
		}
		args = append(args, id)
	}
	return p.st.intern(x.fn, args), true
}

// instantiate copies atom a under env as a query with canonical variables:
// the i-th of vars (the variables of a met so far) becomes variable i.
// The function terms' arguments are allocated in m.
func (p *Prover) instantiate(a pat, env []int32, vars *[]int32, m *tableMap) pat {
	switch a.kind {
	case pGround:
		return a
	case pVar:
		if v := env[a.id]; v >= 0 {
			return pat{kind: pGround, id: v}
		}
		n := int32(slices.Index(*vars, a.id))
		if n < 0 {
			n = int32(len(*vars))
			*vars = append(*vars, a.id)
		}
		return pat{kind: pVar, id: n}
	}
	if id, ok := p.groundID(a, env); ok {
		return pat{kind: pGround, id: id}
	}
	q := pat{kind: pFunc, fn: a.fn, args: m.pats(len(a.args))}
	for i, c := range a.args {
		q.args[i] = p.instantiate(c, env, vars, m)
	}
	return q
}

// needsFilter reports whether answers to q must be matched against it:
// when a variable repeats or a function term is partly bound.
func needsFilter(q pat) bool {
	var small [16]int32
	seen := small[:0]
	var walk func(x pat, top bool) bool
	walk = func(x pat, top bool) bool {
		switch x.kind {
		case pVar:
			if slices.Contains(seen, x.id) {
				return true
			}
			seen = append(seen, x.id)
		case pFunc:
			if !top {
				return true
			}
			for _, c := range x.args {
				if walk(c, false) {
					return true
				}
			}
		}
		return false
	}
	return walk(q, true)
}

// relOf returns the relation name of an atom pattern.
func (p *Prover) relOf(a pat) gdl.Symbol {
	if a.kind == pGround {
		return p.st.terms[a.id].fn
	}
	return a.fn
}

// call returns the table of the query atom a under env, evaluating it as
// needed. key is a's canonical key.
func (p *Prover) call(key []byte, a pat, env []int32) *table {
	rel := p.relOf(a)
	m := p.tables[p.scopeOf(rel)]
	t := m.get(key)
	if t == nil {
		p.vars = p.vars[:0]
		q := p.instantiate(a, env, &p.vars, m)
		t = m.put(key)
		t.query, t.rel, t.filter = q, rel, needsFilter(q)
	}
	switch t.status {
	case complete:
		return t
	case evaluating:
		p.cyclic++
		p.low = min(p.low, t.depth)
		return t
	case pending:
		p.cyclic++
		if t.pass == p.pass {
			d := t.dep
			for d.status == pending {
				d = d.dep
			}
			if d.status == evaluating {
				p.low = min(p.low, d.depth)
			}
			return t
		}
	}
	p.evaluate(t)
	return t
}

func (p *Prover) evaluate(t *table) {
	t.status = evaluating
	t.depth = len(p.stack)
	p.stack = append(p.stack, t)
	savedLow := p.low
	firstPending := len(p.pendingTables)
	for {
		p.low = t.depth
		added, cyclic := p.added, p.cyclic
		p.evalRules(t)
		if p.low < t.depth {
			t.status = pending
			t.dep = p.stack[p.low]
			t.pass = p.pass
			p.pendingTables = append(p.pendingTables, t)
			p.stack = p.stack[:len(p.stack)-1]
			p.low = min(savedLow, p.low)
			return
		}
		if p.cyclic == cyclic || p.added == added {
			break
		}
		p.pass++
	}
	for _, m := range p.pendingTables[firstPending:] {
		m.status = complete
		m.dep = nil
	}
	p.pendingTables = p.pendingTables[:firstPending]
	t.status = complete
	p.stack = p.stack[:len(p.stack)-1]
	p.low = savedLow
}

func (p *Prover) evalRules(t *table) {
	q := t.query
	for _, r := range p.rulesOf(t.rel) {
		p.tick()
		env := p.alloc(r.nvars)
		mark := len(p.trail)
		if p.bindHead(r.head, q, env) {
			p.body(r, 0, env, t)
		}
		p.undo(env, mark)
		p.free(r.nvars)
	}
}

func (p *Prover) tick() {
	p.steps++
	if p.steps&1023 == 0 && !p.deadline.IsZero() && time.Now().After(p.deadline) {
		p.abort(engines.Errorf(engines.ResourceLimit, "the prover ran past its time budget"))
	}
}

func (p *Prover) undo(env []int32, mark int) {
	for i := len(p.trail) - 1; i >= mark; i-- {
		env[p.trail[i]] = -1
	}
	p.trail = p.trail[:mark]
}

// match unifies pattern x under env with the ground term g.
func (p *Prover) match(x pat, g int32, env []int32) bool {
	switch x.kind {
	case pGround:
		return x.id == g
	case pVar:
		if v := env[x.id]; v >= 0 {
			return v == g
		}
		env[x.id] = g
		p.trail = append(p.trail, x.id)
		return true
	}
	t := &p.st.terms[g]
	if t.fn != x.fn || len(t.args) != len(x.args) {
		return false
	}
	for i, c := range x.args {
		if !p.match(c, t.args[i], env) {
			return false
		}
	}
	return true
}

// bindHead binds the rule's variables from the ground parts of the query.
// Variables of the query constrain nothing here; answers are filtered
// against the query afterwards when that matters.
func (p *Prover) bindHead(h pat, q pat, env []int32) bool {
	switch q.kind {
	case pGround:
		return p.match(h, q.id, env)
	case pVar:
		return true
	}
	switch h.kind {
	case pVar:
		return true
	case pGround:
		t := &p.st.terms[h.id]
		if t.fn != q.fn || len(t.args) != len(q.args) {
			return false
		}
		for i, c := range q.args {
			if !p.bindHead(pat{kind: pGround, id: t.args[i]}, c, env) {
				return false
			}
		}
		return true
	}
	if h.fn != q.fn || len(h.args) != len(q.args) {
		return false
	}
	for i := range h.args {
		if !p.bindHead(h.args[i], q.args[i], env) {
			return false
		}
	}
	return true
}

// matchQuery reports whether the ground atom g is an instance of query q.
func (p *Prover) matchQuery(q pat, g int32) bool {
	var small [8]int32
	env := small[:0]
	var m func(x pat, g int32) bool
	m = func(x pat, g int32) bool {
		switch x.kind {
		case pGround:
			return x.id == g
		case pVar:
			for int(x.id) >= len(env) {
				env = append(env, -1)
			}
			if env[x.id] >= 0 {
				return env[x.id] == g
			}
			env[x.id] = g
			return true
		}
		t := &p.st.terms[g]
		if t.fn != x.fn || len(t.args) != len(x.args) {
			return false
		}
		for i, c := range x.args {
			if !m(c, t.args[i]) {
				return false
			}
		}
		return true
	}
	return m(q, g)
}

// body proves the literals of r from index i on and adds the head to t for
// every proof.
func (p *Prover) body(r *crule, i int, env []int32, t *table) {
	if i == len(r.body) {
		id, ok := p.groundID(r.head, env)
		if !ok {
			p.abort(engines.Errorf(engines.NonGround, "rule %s derived a non-ground head", r.src))
		}
		if t.filter && !p.matchQuery(t.query, id) {
			return
		}
		if t.add(id) {
			p.added++
			if len(t.answers) > maxAnswers {
				p.abort(engines.Errorf(engines.ResourceLimit, "the query %s has more than %d answers", t.rel, maxAnswers))
			}
		}
		return
	}
	l := &r.body[i]
	switch l.kind {
	case litDistinct:
		a, ok1 := p.groundID(l.left, env)
		b, ok2 := p.groundID(l.right, env)
		if !ok1 || !ok2 {
			p.abort(engines.Errorf(engines.NonGround, "distinct is not ground in rule %s", r.src))
		}
		if a != b {
			p.body(r, i+1, env, t)
		}
	case litNot:
		id, ok := p.groundID(l.atom, env)
		if !ok {
			p.abort(engines.Errorf(engines.NonGround, "negation is not ground in rule %s", r.src))
		}
		if !p.holds(id, l.rel) {
			p.body(r, i+1, env, t)
		}
	case litTrue:
		arg := l.left
		if id, ok := p.groundID(arg, env); ok {
			if p.inState(id) {
				p.body(r, i+1, env, t)
			}
			return
		}
		facts := p.state
		if arg.kind == pFunc {
			facts = p.factsWith(arg.fn)
		}
		for _, f := range facts {
			mark := len(p.trail)
			if p.match(arg, f, env) {
				p.body(r, i+1, env, t)
			}
			p.undo(env, mark)
		}
	case litDoes:
		for _, d := range p.does {
			mark := len(p.trail)
			if p.match(l.atom, d, env) {
				p.body(r, i+1, env, t)
			}
			p.undo(env, mark)
		}
	default:
		key := p.key(l.atom, env, nil)
		sub := p.call(key, l.atom, env)
		answers := sub.answers
		for _, a := range answers {
			mark := len(p.trail)
			if p.match(l.atom, a, env) {
				p.body(r, i+1, env, t)
			}
			p.undo(env, mark)
		}
	}
}

const maxAnswers = 10_000_000

// holds reports whether the ground atom id holds (for negation as failure).
func (p *Prover) holds(id int32, rel gdl.Symbol) bool {
	switch rel {
	case gdl.SymTrue:
		return p.inState(p.st.terms[id].args[0])
	case gdl.SymDoes:
		for _, d := range p.does {
			if d == id {
				return true
			}
		}
		return false
	}
	a := pat{kind: pGround, id: id}
	key := p.key(a, nil, nil)
	t := p.call(key, a, nil)
	if t.status != complete {
		p.abort(engines.Errorf(engines.UnsupportedErr, "negation of %s inside its own recursion: the rules are not stratified", p.st.text(id)))
	}
	return len(t.answers) > 0
}

var _ = math.MaxInt
