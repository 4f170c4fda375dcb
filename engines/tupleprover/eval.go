package tupleprover

import (
	"time"

	"github.com/gdlperf/gdlperf/engines"
)

// Budgets: a game whose relations outgrow them is refused with a
// resource-limit game error rather than exhausting memory or time.
const (
	maxCells    = 40_000_000 // int32 cells held by all relations at once
	maxTerms    = 8_000_000  // interned ground terms (direct indexes are sized by term id)
	maxQuestion = 60 * time.Second

	// The first, plain bottom-up attempt gives up sooner: the magic-sets
	// rewriting then computes only what the questions ask.
	firstMaxCells = 10_000_000
	firstMaxTerms = 1_000_000
	magicBudget   = 15 * time.Second // for the rewritings of one game
	// magic sets must do this much less work per question while warming
	// up to be chosen
	preferBottomUp = 1.25

	// The budgets that choose between designs and join orders are work
	// (Machine.work), not time, so that every process of a game chooses
	// the same and does the same work (instruction counts agree). Each
	// keeps a time cap as a safety net, far above what the work takes.
	staticWork       = 100_000_000 // the static relations of the first attempt (seconds)
	staticCap        = 20 * time.Second
	warmSteps        = 200       // steps the warm-up plays, at most
	warmWork         = 6_000_000 // work the warm-up does, at most (0.2-0.7 s)
	warmCap          = 10 * time.Second
	warmQuestionWork = 4_000_000 // one question while warming up (0.1-0.5 s)
	warmQuestionCap  = 5 * time.Second
)

type abort struct{ err error }

func (m *Machine) fail(err error) { panic(abort{err}) }

// guard turns an abort of the evaluation into an error; questions defer it.
func (m *Machine) guard(err *error) {
	if r := recover(); r != nil {
		a, ok := r.(abort)
		if !ok {
			panic(r)
		}
		*err = a.err
		m.cur = nil
		m.movesValid = false
		m.stateGen++
		m.moveGen++
	}
}

func (m *Machine) tick() {
	if m.qWork > 0 && m.work()-m.qFrom > m.qWork {
		m.fail(engines.Errorf(engines.ResourceLimit, "one question did over %d operations", m.qWork))
	}
	if m.limitWork > 0 && m.work() > m.limitWork {
		m.fail(engines.Errorf(engines.ResourceLimit, "the static relations took over %d operations to compute", m.limitWork))
	}
	if m.st.size() > m.maxTerms {
		m.fail(engines.Errorf(engines.ResourceLimit, "the game made more than %d ground terms", m.maxTerms))
	}
	if m.qStart.IsZero() {
		m.qStart = time.Now()
		return
	}
	now := time.Now()
	if now.Sub(m.qStart) > m.budget {
		m.fail(engines.Errorf(engines.ResourceLimit, "one question took over %s", m.budget))
	}
	if !m.limitAt.IsZero() && now.After(m.limitAt) {
		m.fail(engines.Errorf(engines.ResourceLimit, "the static relations took over %s to compute", staticCap))
	}
	if !m.deadline.IsZero() && now.After(m.deadline) {
		m.fail(engines.Errorf(engines.ResourceLimit, "the tuple prover ran past its time budget"))
	}
}

// ensure evaluates the units (in dependency order) not yet evaluated for
// the current state or joint move.
func (m *Machine) ensure(units []*unit) {
	m.qStart = time.Time{}
	m.qFrom = m.work()
	for _, u := range units {
		g := m.stateGen
		if u.scope == scopeMove {
			g = m.moveGen
		}
		if u.stamp == g {
			continue
		}
		m.evalUnit(u)
		u.stamp = g
	}
}

func (m *Machine) evalUnit(u *unit) {
	for _, r := range u.rels {
		m.cells -= int64(r.n) * int64(r.width)
		r.clear()
	}
	for _, g := range u.groups {
		m.evalGroup(g)
	}
	if m.sampling {
		for _, r := range u.rels {
			r.sample()
		}
	}
}

// evalGroup runs a group's rules to a fixed point: one naive round, then
// semi-naive rounds in which each rule runs once per recursive literal with
// that literal over the rows the previous round added.
func (m *Machine) evalGroup(g *group) {
	for _, r := range g.heads {
		r.dhi = r.n
	}
	for _, cr := range g.rules {
		m.run(cr.base)
	}
	if !g.recursive {
		return
	}
	for {
		changed := false
		for _, r := range g.heads {
			r.dlo, r.dhi = r.dhi, r.n
			if r.dlo < r.dhi {
				changed = true
			}
		}
		if !changed {
			return
		}
		for _, cr := range g.rules {
			for _, p := range cr.deltas {
				if d := p.delta; d.dlo < d.dhi {
					m.run(p)
				}
			}
		}
	}
}

func (m *Machine) run(p *plan) {
	if len(m.regs) < p.nregs {
		m.regs = make([]int32, p.nregs)
	}
	m.exec(p, 0)
}

// value computes a bound expression. A function term is interned when
// create is set; otherwise a term that does not exist yet gives false.
func (m *Machine) value(x *expr, create bool) (int32, bool) {
	switch x.kind {
	case eConst:
		return x.v, true
	case eReg:
		return m.regs[x.v], true
	}
	var buf [8]int32
	args := buf[:0]
	for i := range x.args {
		v, ok := m.value(&x.args[i], create)
		if !ok {
			return -1, false
		}
		args = append(args, v)
	}
	if create {
		return m.st.intern(x.fn, args), true
	}
	return m.st.lookup(x.fn, args)
}

func (m *Machine) match(p *pmatch, v int32) bool {
	switch p.kind {
	case mBind:
		m.regs[p.v] = v
		return true
	case mCheck:
		return m.regs[p.v] == v
	case mConst:
		return p.v == v
	}
	st := m.st
	if st.fn[v] != p.fn || int(st.arity[v]) != len(p.sub) {
		return false
	}
	o := st.off[v]
	for k := range p.sub {
		if !m.match(&p.sub[k], st.args[o+int32(k)]) {
			return false
		}
	}
	return true
}

func (m *Machine) matchRow(o *op, r *relation, row int32) bool {
	data := r.data[row*int32(r.width):]
	for j, c := range o.outCols {
		p := &o.outs[j]
		v := data[c]
		switch p.kind {
		case mBind:
			m.regs[p.v] = v
		case mCheck:
			if m.regs[p.v] != v {
				return false
			}
		case mConst:
			if p.v != v {
				return false
			}
		default:
			if !m.match(p, v) {
				return false
			}
		}
	}
	return true
}

// tupleOf is tuple for an operation's keys, with the fast path for
// registers and constants.
func (m *Machine) tupleOf(o *op, buf []int32) ([]int32, bool) {
	if !o.simple {
		return m.tuple(o.keys, buf)
	}
	t := buf[:len(o.kc)]
	for i, c := range o.kc {
		if c >= 0 {
			t[i] = m.regs[c]
		} else {
			t[i] = ^c
		}
	}
	return t, true
}

// tuple computes the values of exprs into buf; false when a function
// term in them does not exist (so no relation can hold the tuple).
func (m *Machine) tuple(xs []expr, buf []int32) ([]int32, bool) {
	t := buf[:len(xs)]
	for i := range xs {
		v, ok := m.value(&xs[i], false)
		if !ok {
			return nil, false
		}
		t[i] = v
	}
	return t, true
}

// exec runs the plan's operations from i on, for every match of each, and
// emits the head at the end. It reports true when it proved the head from
// a point where the head was already bound (i >= p.hg): the caller at such
// a point then stops, since any other proof gives the same head.
// debug counts the calls of each plan (for debug_test.go).
const debug = false

var debugCounts map[*plan]int

func (m *Machine) exec(p *plan, i int) bool {
	if debug && debugCounts != nil {
		debugCounts[p]++
	}
	m.steps++
	if m.steps&0xffff == 0 {
		m.tick()
	}
	if i == len(p.ops) {
		m.emit(p)
		return true
	}
	o := &p.ops[i]
	switch o.kind {
	case opScan:
		r := o.rel
		lo, hi := int32(0), r.n
		if o.delta {
			lo, hi = r.dlo, r.dhi
		}
		if o.ix == nil {
			m.scanned += uint64(hi - lo)
			for row := lo; row < hi; row++ {
				if m.matchRow(o, r, row) && m.exec(p, i+1) && i >= p.hg {
					return true
				}
			}
			return false
		}
		ix := o.ix
		var row int32
		if ix.direct && o.simple {
			c := o.kc[0]
			if c >= 0 {
				row = ix.lookup1(m.regs[c])
			} else {
				row = ix.lookup1(^c)
			}
		} else {
			key, ok := m.tupleOf(o, m.key)
			if !ok {
				return false
			}
			row = ix.lookup(r, key)
		}
		for ; row >= 0; row = ix.next[row] {
			if row >= hi {
				continue
			}
			if row < lo {
				return false
			}
			if m.matchRow(o, r, row) && m.exec(p, i+1) && i >= p.hg {
				return true
			}
		}
		return false
	case opMember:
		t, ok := m.tupleOf(o, m.tup)
		if ok && o.rel.has(t) {
			return m.exec(p, i+1)
		}
	case opNot:
		t, ok := m.tupleOf(o, m.tup)
		if !ok || !o.rel.has(t) {
			return m.exec(p, i+1)
		}
	case opTrueMember:
		v, ok := m.value(&o.x, false)
		if ok && m.holds(v) {
			return m.exec(p, i+1)
		}
	case opNotTrue:
		v, ok := m.value(&o.x, false)
		if !ok || !m.holds(v) {
			return m.exec(p, i+1)
		}
	case opTrueAny:
		for _, f := range m.cur.facts {
			m.regs[o.reg] = f
			if m.exec(p, i+1) && i >= p.hg {
				return true
			}
		}
	case opDistinct:
		a, _ := m.value(&o.x, true)
		b, _ := m.value(&o.y, true)
		if a != b {
			return m.exec(p, i+1)
		}
	case opHeadCheck:
		t, ok := m.tupleOf(o, m.tup)
		if ok && o.rel.has(t) {
			return true
		}
		return m.exec(p, i+1)
	}
	return false
}

func (m *Machine) emit(p *plan) {
	t := m.tup[:len(p.headArgs)]
	if p.simple {
		for i, c := range p.hc {
			if c >= 0 {
				t[i] = m.regs[c]
			} else {
				t[i] = ^c
			}
		}
	} else {
		for i := range p.headArgs {
			t[i], _ = m.value(&p.headArgs[i], true)
		}
	}
	m.emits++
	if p.head.add(t) {
		m.cells += int64(p.head.width)
		if m.cells > m.maxCells {
			m.fail(engines.Errorf(engines.ResourceLimit, "the relations hold more than %d values (the last rule run: %s)", m.maxCells, p.rule))
		}
	}
}

// holds reports whether the term v is a fact of the current state.
func (m *Machine) holds(v int32) bool {
	return int(v) < len(m.inState) && m.inState[v] == m.stamp
}
