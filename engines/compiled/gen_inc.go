package compiled

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// The incremental design (package in, rt.DesignIncremental): the rules as
// bottom-up has them, with every relation that depends on the state (but
// not on the moves) counted (rt.CRel) and kept from one question to the
// next. Such a unit has a recount plan per rule (every derivation
// counted, each literal in its new view) and a delta plan per rule and
// body literal over a counted relation (rt/inc.go). The other units are
// plain: a recursive unit that depends on the state (counting does not
// end on cycles) and the units that depend on the moves (a new joint move
// changes every derivation of next) are computed from scratch as
// bottom-up computes them, reading the counted relations' new view.

// incUnit is what the incremental design adds to a unit.
type incUnit struct {
	plain   bool
	reads   []*grel // the relations its rules read that depend on the state
	facts   bool    // its rules read (true c) of a constant c
	always  bool    // its rules read (true ?x): recounted at each change
	recount []string
	deltas  []string // guarded calls of the delta plans
}

// plainUnit records unit u of the incremental design as plain and the
// relations it reads.
func (gen *generator) plainUnit(u *gunit, rules []*gdl.Rule) {
	iu := &incUnit{plain: true}
	if u.scope == rtPerState {
		for _, r := range u.rels {
			gen.plainRel[r] = true
		}
	}
	seen := map[*grel]bool{}
	for _, r := range rules {
		for _, l := range r.Body {
			if l.Kind == gdl.LitDistinct || l.Atom.Name == gdl.SymTrue {
				continue
			}
			if rel := gen.rels[l.Atom.Name]; rel != nil && rel.scope != rtStatic && !seen[rel] {
				seen[rel] = true
				iu.reads = append(iu.reads, rel)
			}
		}
	}
	gen.incUnits[u] = iu
}

// generateIncremental generates the incremental design, or the reason it
// cannot: an init that depends on the state. sizes, when not nil, are
// bottom-up's size estimates of g (the same relations but next$state),
// not measured again.
func generateIncremental(g *gdl.Game, sizes *sizer, lim sizeLimits, version, rulesSHA string) (*generated, error) {
	g = splitNext(g)
	gen := newGenerator(g, designs[4].pkg, maxSourceBytes, lim)
	gen.inc = true
	gen.volatile = volatileFunctors(g)
	gen.sizes = sizes
	if r := g.Analysis.Relations[gdl.SymInit]; r != nil && (r.UsesState || r.UsesMoves) {
		return nil, engines.Errorf(engines.UnsupportedErr, "init depends on the state")
	}
	return gen.run(version, rulesSHA)
}

// symNextState is the relation of the incremental design that holds the
// next facts whose rules do not depend on the moves (splitNext).
var symNextState = gdl.Intern("next$state")

// splitNext returns g with the rules of next that do not depend on the
// moves (the frame axioms that keep a fact, as (next (cell ?x ?y ?p))
// from (true (cell ?x ?y ?p)) and a distinct) made rules of next$state,
// which depends on the state only and so is counted: a state change
// updates it by the few facts that changed instead of copying every fact
// that stays. Next's facts are both relations' (rt.Inc.NextState). A rule
// that reads neither the state nor the moves stays (next$state would be
// static, not counted).
func splitNext(g *gdl.Game) *gdl.Game {
	a := g.Analysis
	var rules []*gdl.Rule
	split := false
	for _, r := range g.Rules {
		if r.Head.Name == gdl.SymNext && ruleUses(a, r, gdl.SymTrue) && !ruleUses(a, r, gdl.SymDoes) {
			h := *r.Head
			h.Name = symNextState
			r2 := *r
			r2.Head = &h
			rules = append(rules, &r2)
			split = true
			continue
		}
		rules = append(rules, r)
	}
	if !split {
		return g
	}
	g2 := *g
	g2.Rules = rules
	g2.Analysis = gdl.Analyse(rules)
	return &g2
}

// volatileFunctors returns the functors (name and arity) of the facts that
// no rule of next keeps as they are: no rule of next (or next$state) with
// head (next x) reads (true x), the same term. Such facts change from one
// state to the next, as (control ?p) of a game of turns or (step ?n) do,
// so that a counted relation whose rule reads one is dropped and derived
// again at every step: connectFour's legal moves, eight tuples born and
// eight dead a step, were 60% of the counted rows touched. A unit whose
// rules read a volatile fact is plain (plainVolatile: computed as
// bottom-up does, from the counted relations' new view), which costs the
// derivations once, not twice and their counts. A rule that keeps every
// fact, (next ?x) from (true ?x), leaves none volatile.
func volatileFunctors(g *gdl.Game) map[fkey]bool {
	all := map[fkey]bool{}
	kept := map[fkey]bool{}
	for _, r := range g.Rules {
		if r.Head.Name != gdl.SymNext && r.Head.Name != symNextState {
			continue
		}
		x := r.Head.Args[0]
		k := factFunctor(x)
		all[k] = true
		for _, l := range r.Body {
			if l.Kind == gdl.LitAtom && l.Atom.Name == gdl.SymTrue && l.Atom.Args[0].Equal(x) {
				if x.Kind == gdl.Var {
					return nil
				}
				kept[k] = true
			}
		}
	}
	out := map[fkey]bool{}
	for k := range all {
		if !kept[k] {
			out[k] = true
		}
	}
	return out
}

// factFunctor returns the functor of fact x: its name and number of
// arguments (0 for a constant).
func factFunctor(x *gdl.Term) fkey {
	return fkey{x.Name, len(x.Args)}
}

// plainVolatile reports whether unit u of the incremental design is plain
// for a rule that reads a volatile fact (gen.volatile) with (true x). The
// unit of next$state stays counted: the state's facts are its rows (a
// volatile fact's rule makes a tuple or two a step).
func (gen *generator) plainVolatile(u *gunit, rules []*gdl.Rule) bool {
	if slices.Contains(u.syms, symNextState) {
		return false
	}
	for _, r := range rules {
		for _, l := range r.Body {
			if l.Kind == gdl.LitDistinct || l.Atom.Name != gdl.SymTrue {
				continue
			}
			if x := l.Atom.Args[0]; x.Kind != gdl.Var && gen.volatile[factFunctor(x)] {
				return true
			}
		}
	}
	return false
}

// ruleUses reports whether a literal of r reads input (true or does) or a
// relation that depends on it.
func ruleUses(a *gdl.Analysis, r *gdl.Rule, input gdl.Symbol) bool {
	for _, l := range r.Body {
		if l.Kind == gdl.LitDistinct {
			continue
		}
		name := l.Atom.Name
		if name == input || (input == gdl.SymTrue && a.UsesState(name)) || (input == gdl.SymDoes && a.UsesMoves(name)) {
			return true
		}
	}
	return false
}

// compileUnitInc compiles a unit of the incremental design.
func (gen *generator) compileUnitInc(u *gunit, groups [][]*gdl.Rule) error {
	iu := &incUnit{}
	seen := map[*grel]bool{}
	for _, rs := range groups {
		for _, r := range rs {
			// the rule as it is: no static prefix, whose projection
			// would count other derivations than its literals, and
			// which would lead the delta plans' joins badly
			type leader struct {
				pos   int
				guard string
			}
			var leaders []leader
			for q, l := range r.Body {
				if l.Kind == gdl.LitDistinct {
					continue
				}
				a := l.Atom
				if a.Name == gdl.SymTrue && (a.Args[0].Kind != gdl.Func || len(a.Args[0].Args) == 0) {
					if a.Args[0].Kind == gdl.Var {
						iu.always = true
					} else {
						iu.facts = true
						leaders = append(leaders, leader{q, "E.FactsChanged()"})
					}
					continue
				}
				rel, _ := gen.litRel(a)
				if rel.scope == rtStatic {
					continue
				}
				if !seen[rel] {
					seen[rel] = true
					iu.reads = append(iu.reads, rel)
				}
				if gen.counted(rel) {
					leaders = append(leaders, leader{q, fmt.Sprintf("R%d.Changed()", rel.id)})
				}
			}
			fn, err := gen.compileIncRule(r, -1)
			if err != nil {
				return err
			}
			iu.recount = append(iu.recount, fn+"()")
			for _, ld := range leaders {
				fn, err := gen.compileIncRule(r, ld.pos)
				if err != nil {
					return err
				}
				iu.deltas = append(iu.deltas, fmt.Sprintf("if %s {\n\t\t%s()\n\t}", ld.guard, fn))
			}
		}
	}
	sort.Slice(iu.reads, func(i, j int) bool { return iu.reads[i].id < iu.reads[j].id })
	if iu.always {
		iu.deltas = nil
	}
	gen.incUnits[u] = iu
	gen.emitCalls(fmt.Sprintf("u%d", u.id), iu.recount)
	gen.emitCalls(fmt.Sprintf("u%dd", u.id), iu.deltas)
	return nil
}

// compileIncRule writes a counting plan of rule r: with body literal lead
// leading over its rows born or dead in the round (the literals before it
// in the body in their new view, those after it in their old view), or,
// when lead < 0, the recount plan (every literal in its new view).
func (gen *generator) compileIncRule(r *gdl.Rule, lead int) (string, error) {
	order, err := gen.order(r, lead)
	if err != nil {
		return "", err
	}
	gen.plans++
	fn := fmt.Sprintf("p%d", gen.plans)
	em := &emitter{gen: gen, rule: r, rv: newRuleVars(), used: map[string]bool{}, delta: -1, count: true}
	em.head = gen.rels[r.Head.Name]
	if lead >= 0 {
		em.delta = 0
	}
	lits := make([]*gdl.Literal, len(order))
	em.views = make([]uint8, len(order))
	for i, o := range order {
		lits[i] = r.Body[o]
		em.views[i] = viewNew
		if lead >= 0 && o > lead {
			em.views[i] = viewOld
		}
	}
	em.lits(lits, 0)
	gen.writePlan(fn, em)
	return fn, nil
}

// leadDelta writes the leader of a delta plan: a loop over the rows of
// literal i's relation born or dead in the round, each with its sign sg
// (negated for a negation), then literals i+1.. and the head.
func (em *emitter) leadDelta(lits []*gdl.Literal, i int, neg bool) {
	minus := ""
	if neg {
		minus = "-"
	}
	a := lits[i].Atom
	if x := a.Args; a.Name == gdl.SymTrue && (x[0].Kind != gdl.Func || len(x[0].Args) == 0) {
		id := em.expr(x[0], false)
		em.openIf("E.FactChanged(" + id + ")")
		em.line("sg := %sE.FactSign(%s)", minus, id)
		em.lits(lits, i+1)
		em.close(false)
		return
	}
	r, cols := em.gen.litRel(a)
	rn := fmt.Sprintf("R%d", r.id)
	n := len(em.loops) + 1
	row := fmt.Sprintf("row%d", n)
	em.openLoop(fmt.Sprintf("for _, %s := range %s.Delta()", row, rn))
	em.line("sg := %s%s.Sign(%s)", minus, rn, row)
	w := r.width
	needWhole := a.Name == gdl.SymTrue && em.rv.whole[a.Args[0].String()] == ""
	if len(cols) > 0 || needWhole {
		t := fmt.Sprintf("t%d", n)
		em.line("%s := %s.Data[%s*%d : %s*%d+%d]", t, rn, row, w, row, w, w)
		em.fresh = em.fresh[:0]
		for c, term := range cols {
			em.match(fmt.Sprintf("%s[%d]", t, c), term)
		}
		if needWhole {
			v := em.rv.newVar("w")
			em.line("%s = %s[%d]", v, t, w-1)
			em.rv.whole[a.Args[0].String()] = v
		}
		if a.Name == gdl.SymTrue {
			em.factSource(em.rv.whole[a.Args[0].String()])
		}
	}
	em.lits(lits, i+1)
	em.close(true)
}

// emitIncUnits writes the incremental design's units into Setup: the
// counted relations, each unit's inputs and plans (or its plain unit),
// and the questions' units.
func (gen *generator) emitIncUnits(m *strings.Builder) {
	var counted []string
	byID := make([]string, len(gen.relList))
	for i, r := range gen.relList {
		byID[i] = "nil"
		if gen.counted(r) {
			counted = append(counted, fmt.Sprintf("R%d", r.id))
			byID[i] = fmt.Sprintf("R%d", r.id)
		}
	}
	fmt.Fprintf(m, "\tin := &rt.Inc{Rels: []*rt.CRel{%s}, ByID: []*rt.CRel{%s}}\n", strings.Join(counted, ", "), strings.Join(byID, ", "))
	fmt.Fprintf(m, "\tin.TrueRel = make([]*rt.CRel, %d)\n", len(gen.fks)+1)
	fks := make([]int, 0, len(gen.trueRel))
	for fk := range gen.trueRel {
		fks = append(fks, int(fk))
	}
	sort.Ints(fks)
	for _, fk := range fks {
		fmt.Fprintf(m, "\tin.TrueRel[%d] = R%d\n", fk, gen.trueRel[int32(fk)].id)
	}
	for _, q := range []struct {
		field, ix string
		sym       gdl.Symbol
	}{{"Legal", "LegalIx", gdl.SymLegal}, {"Next", "", gdl.SymNext}, {"Goal", "GoalIx", gdl.SymGoal}, {"Term", "", gdl.SymTerminal}} {
		if r := gen.rels[q.sym]; gen.counted(r) {
			fmt.Fprintf(m, "\tin.%s = R%d\n", q.field, r.id)
			if q.ix != "" {
				fmt.Fprintf(m, "\tin.%s = X%d_%d\n", q.ix, r.id, r.index([]int{0}))
			}
		}
	}
	if r := gen.rels[symNextState]; r != nil && gen.counted(r) {
		fmt.Fprintf(m, "\tin.NextState = R%d\n", r.id)
	}
	var all []string
	for _, u := range gen.units {
		iu := gen.incUnits[u]
		if u.scope == rtStatic || iu == nil {
			continue
		}
		all = append(all, fmt.Sprintf("I%d", u.id))
		if iu.plain {
			fmt.Fprintf(m, "\tI%d := &rt.IncUnit{Plain: U%d}\n", u.id, u.id)
			continue
		}
		rels := make([]string, len(u.rels))
		for i, r := range u.rels {
			rels[i] = fmt.Sprintf("R%d", r.id)
		}
		var inputs, deps []string
		depSeen := map[*gunit]bool{}
		for _, r := range iu.reads {
			if gen.counted(r) {
				inputs = append(inputs, fmt.Sprintf("R%d", r.id))
			}
			if d := gen.unitOf[r.sym]; r.sym != gdl.NoSymbol && d != nil && d.scope != rtStatic && !depSeen[d] {
				depSeen[d] = true
				deps = append(deps, fmt.Sprintf("I%d", d.id))
			}
		}
		fmt.Fprintf(m, "\tI%d := &rt.IncUnit{Rels: []*rt.CRel{%s}, Inputs: []*rt.CRel{%s}, Deps: []*rt.IncUnit{%s}, Facts: %t, Always: %t, Recount: u%d, Delta: u%dd}\n",
			u.id, strings.Join(rels, ", "), strings.Join(inputs, ", "), strings.Join(deps, ", "), iu.facts, iu.always, u.id, u.id)
	}
	list := func(roots ...gdl.Symbol) string {
		var us []*gunit
		for _, root := range roots {
			for _, u := range gen.closure(root) {
				if !slices.Contains(us, u) {
					us = append(us, u)
				}
			}
		}
		sort.Slice(us, func(i, j int) bool { return us[i].id < us[j].id })
		var s []string
		for _, u := range us {
			s = append(s, fmt.Sprintf("I%d", u.id))
		}
		return "[]*rt.IncUnit{" + strings.Join(s, ", ") + "}"
	}
	fmt.Fprintf(m, "\tin.Units = []*rt.IncUnit{%s}\n", strings.Join(all, ", "))
	fmt.Fprintf(m, "\tin.QTerminal, in.QLegal, in.QNext, in.QGoal = %s, %s, %s, %s\n", list(gdl.SymTerminal), list(gdl.SymLegal), list(gdl.SymNext, symNextState), list(gdl.SymGoal))
	m.WriteString("\tE.Inc = in\n")
}
