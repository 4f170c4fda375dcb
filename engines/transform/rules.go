package transform

import (
	"fmt"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Bounds that keep the rewrites small on large games.
const (
	maxInlineRules = 8   // a relation of more rules is not inlined
	maxInlineSteps = 500 // relations inlined per run
	maxSubsumeRels = 400 // rules of one relation compared pairwise
	minCondense    = 4   // body literals for condense to split a rule
)

// protected are the relations inline and condense never remove or create
// rules for: the keywords.
func protected(s gdl.Symbol) bool { return s.IsKeyword() }

// ---- inline ----

// inline replaces each non-recursive derived relation used once, in a
// positive literal of a non-recursive rule, by the bodies of its rules: the
// literal's rule becomes one rule per rule of the relation whose head
// unifies with the literal, and the relation's rules are removed.
func (t *state) inline() {
	for n := 0; n < maxInlineSteps; n++ {
		if !t.inlineOne() {
			return
		}
	}
}

func (t *state) inlineOne() bool {
	a := gdl.Analyse(t.rules)
	type use struct {
		rule, lit int
		count     int
		negative  bool
	}
	uses := map[gdl.Symbol]*use{}
	for i, r := range t.rules {
		for j, l := range r.Body {
			if l.Atom == nil {
				continue
			}
			u := uses[l.Atom.Name]
			if u == nil {
				u = &use{rule: i, lit: j}
				uses[l.Atom.Name] = u
			}
			u.count++
			if l.Kind != gdl.LitAtom {
				u.negative = true
			}
		}
	}
	for _, name := range a.Order {
		rel := a.Relations[name]
		u := uses[name]
		if protected(name) || rel.Recursive || len(rel.Rules) == 0 || len(rel.Rules) > maxInlineRules || u == nil || u.count != 1 || u.negative {
			continue
		}
		host := t.rules[u.rule]
		if hr := a.Relations[host.Head.Name]; hr.Recursive || host.Head.Name == name {
			continue
		}
		var repl []*gdl.Rule
		for _, def := range rel.Rules {
			if nr := t.unfold(host, u.lit, def); nr != nil {
				repl = append(repl, nr)
			}
		}
		var out []*gdl.Rule
		for i, r := range t.rules {
			switch {
			case r.Head.Name == name:
			case i == u.rule:
				out = append(out, repl...)
			default:
				out = append(out, r)
			}
		}
		if len(repl) == 0 && onlyRule(a, host) {
			// The host's relation would lose its only rule and vanish
			// from the game (it can never hold): keep it as it is.
			continue
		}
		t.rules = out
		return true
	}
	return false
}

// onlyRule reports whether r is the only rule of its head's relation.
func onlyRule(a *gdl.Analysis, r *gdl.Rule) bool {
	return len(a.Relations[r.Head.Name].Rules) == 1
}

// unfold returns host with its literal at lit replaced by def's body,
// def's variables renamed apart and its head unified with the literal, or
// nil when they do not unify.
func (t *state) unfold(host *gdl.Rule, lit int, def *gdl.Rule) *gdl.Rule {
	t.fresh++
	ren := gdl.Subst{}
	for _, v := range def.Vars() {
		ren[v] = gdl.NewVar(gdl.Intern(fmt.Sprintf("?%s_%d", strings.TrimPrefix(v.Name(), "?"), t.fresh)))
	}
	s := gdl.Subst{}
	if !unify(ren.Apply(def.Head), host.Body[lit].Atom, s) {
		return nil
	}
	var body []*gdl.Literal
	for i, l := range host.Body {
		if i == lit {
			for _, d := range def.Body {
				body = append(body, substLit(s, substLit(ren, d)))
			}
			continue
		}
		body = append(body, substLit(s, l))
	}
	pos, neg := split(body)
	return &gdl.Rule{Head: resolve(s, host.Head), Body: place(pos, neg, false), Pos: host.Pos}
}

// unify extends s to a most general unifier of x and y (occurs check
// included).
func unify(x, y *gdl.Term, s gdl.Subst) bool {
	x, y = walk(s, x), walk(s, y)
	switch {
	case x.Kind == gdl.Var && y.Kind == gdl.Var && x.Name == y.Name:
		return true
	case x.Kind == gdl.Var:
		if occurs(x.Name, y, s) {
			return false
		}
		s[x.Name] = y
		return true
	case y.Kind == gdl.Var:
		return unify(y, x, s)
	case x.Kind != y.Kind || x.Name != y.Name || len(x.Args) != len(y.Args):
		return false
	}
	for i := range x.Args {
		if !unify(x.Args[i], y.Args[i], s) {
			return false
		}
	}
	return true
}

func walk(s gdl.Subst, x *gdl.Term) *gdl.Term {
	for x.Kind == gdl.Var {
		r, ok := s[x.Name]
		if !ok {
			return x
		}
		x = r
	}
	return x
}

func occurs(v gdl.Symbol, x *gdl.Term, s gdl.Subst) bool {
	x = walk(s, x)
	switch x.Kind {
	case gdl.Var:
		return x.Name == v
	case gdl.Func:
		for _, a := range x.Args {
			if occurs(v, a, s) {
				return true
			}
		}
	}
	return false
}

// resolve applies s to x fully.
func resolve(s gdl.Subst, x *gdl.Term) *gdl.Term {
	x = walk(s, x)
	if x.Kind != gdl.Func {
		return x
	}
	args := make([]*gdl.Term, len(x.Args))
	for i, a := range x.Args {
		args[i] = resolve(s, a)
	}
	return &gdl.Term{Kind: gdl.Func, Name: x.Name, Args: args, Pos: x.Pos}
}

// substLit applies s fully to an or-free literal.
func substLit(s gdl.Subst, l *gdl.Literal) *gdl.Literal {
	n := *l
	if l.Atom != nil {
		n.Atom = resolve(s, l.Atom)
	}
	if l.Left != nil {
		n.Left, n.Right = resolve(s, l.Left), resolve(s, l.Right)
	}
	return &n
}

// ---- dedupe ----

// dedupe removes every conjunct that repeats an earlier one of its body
// (a conjunction asks each once; the first occurrence binds, so safety
// and the placement of distinct and not stay), every rule that repeats an
// earlier one up to the names of its variables, and every rule that
// another subsumes: some substitution makes the other's head this one's
// and the other's body a subset of this one's (so the other derives all
// this one does). Of two rules that subsume each other the first stays.
func (t *state) dedupe() {
	seen := map[string]bool{}
	var rules []*gdl.Rule
	for _, r := range t.rules {
		r = withoutRepeatedConjuncts(r)
		k := variantKey(r)
		if seen[k] {
			continue
		}
		seen[k] = true
		rules = append(rules, r)
	}
	byHead := map[gdl.Symbol][]int{}
	for i, r := range rules {
		byHead[r.Head.Name] = append(byHead[r.Head.Name], i)
	}
	drop := make([]bool, len(rules))
	for _, idx := range byHead {
		if len(idx) > maxSubsumeRels {
			continue
		}
		for _, i := range idx {
			if len(rules[i].Body) == 0 {
				continue // a fact is subsumed only by its duplicate
			}
			for _, j := range idx {
				if i == j || drop[j] || !subsumes(rules[j], rules[i]) {
					continue
				}
				if j > i && subsumes(rules[i], rules[j]) {
					continue // variants: the later one goes
				}
				drop[i] = true
				break
			}
		}
	}
	out := rules[:0]
	for i, r := range rules {
		if !drop[i] {
			out = append(out, r)
		}
	}
	t.rules = out
}

// withoutRepeatedConjuncts returns r without the body literals that
// print as an earlier one of the same body (r itself when it has none).
func withoutRepeatedConjuncts(r *gdl.Rule) *gdl.Rule {
	if len(r.Body) < 2 {
		return r
	}
	seen := make(map[string]bool, len(r.Body))
	var body []*gdl.Literal
	for i, l := range r.Body {
		k := l.String()
		if seen[k] {
			if body == nil {
				body = append([]*gdl.Literal(nil), r.Body[:i]...)
			}
			continue
		}
		seen[k] = true
		if body != nil {
			body = append(body, l)
		}
	}
	if body == nil {
		return r
	}
	return withBody(r, body)
}

// variantKey prints r with its variables numbered in order of first
// occurrence.
func variantKey(r *gdl.Rule) string {
	s := gdl.Subst{}
	for i, v := range r.Vars() {
		s[v] = gdl.NewVar(gdl.Intern(fmt.Sprintf("?%d", i)))
	}
	nr := &gdl.Rule{Head: s.Apply(r.Head)}
	for _, l := range r.Body {
		nr.Body = append(nr.Body, substLit(s, l))
	}
	return nr.String()
}

// subsumes reports whether general subsumes specific: a substitution of
// general's variables maps its head to specific's and each of its body
// literals to one of specific's. specific's variables are constants here.
func subsumes(general, specific *gdl.Rule) bool {
	if len(general.Body) > len(specific.Body) {
		return false
	}
	th := map[gdl.Symbol]*gdl.Term{}
	if !match(general.Head, specific.Head, th) {
		return false
	}
	return matchBody(general.Body, specific.Body, th)
}

func matchBody(gen, spec []*gdl.Literal, th map[gdl.Symbol]*gdl.Term) bool {
	if len(gen) == 0 {
		return true
	}
	l := gen[0]
	for _, m := range spec {
		if m.Kind != l.Kind {
			continue
		}
		var pairs [][2]*gdl.Term
		if l.Kind == gdl.LitDistinct {
			pairs = [][2]*gdl.Term{{l.Left, m.Left}, {l.Right, m.Right}}
		} else {
			pairs = [][2]*gdl.Term{{l.Atom, m.Atom}}
		}
		for flip := 0; flip < 2; flip++ {
			if flip == 1 {
				if l.Kind != gdl.LitDistinct {
					break
				}
				pairs = [][2]*gdl.Term{{l.Left, m.Right}, {l.Right, m.Left}}
			}
			try := make(map[gdl.Symbol]*gdl.Term, len(th))
			for k, v := range th {
				try[k] = v
			}
			ok := true
			for _, p := range pairs {
				if !match(p[0], p[1], try) {
					ok = false
					break
				}
			}
			if ok && matchBody(gen[1:], spec, try) {
				return true
			}
		}
	}
	return false
}

// match extends th so that th(pattern) == target, binding only pattern's
// variables.
func match(pattern, target *gdl.Term, th map[gdl.Symbol]*gdl.Term) bool {
	if pattern.Kind == gdl.Var {
		if b, ok := th[pattern.Name]; ok {
			return b.Equal(target)
		}
		th[pattern.Name] = target
		return true
	}
	if pattern.Kind != target.Kind || pattern.Name != target.Name || len(pattern.Args) != len(target.Args) {
		return false
	}
	for i := range pattern.Args {
		if !match(pattern.Args[i], target.Args[i], th) {
			return false
		}
	}
	return true
}

// ---- condense ----

// condense splits every non-recursive rule of minCondense or more body
// literals (whose head is not role, init, base or input): its first half,
// which binds the variables of its own distinct and not, becomes a new
// relation over the variables it shares with the head and the second
// half, and the rule keeps the new relation and the second half.
func (t *state) condense() {
	a := gdl.Analyse(t.rules)
	names := t.names()
	var out []*gdl.Rule
	for _, r := range t.rules {
		h := r.Head.Name
		if len(r.Body) < minCondense || h == gdl.SymRole || h == gdl.SymInit || h == gdl.SymBase || h == gdl.SymInput || recursiveRule(a, r) {
			out = append(out, r)
			continue
		}
		k := len(r.Body) / 2
		pre, rest := r.Body[:k], r.Body[k:]
		if !closed(pre) {
			out = append(out, r)
			continue
		}
		outside := map[gdl.Symbol]bool{}
		for _, v := range r.Head.Vars(nil) {
			outside[v] = true
		}
		for _, l := range rest {
			for _, v := range l.Vars(nil) {
				outside[v] = true
			}
		}
		var args []*gdl.Term
		for _, l := range pre {
			for _, v := range l.Vars(nil) {
				if outside[v] {
					args = append(args, gdl.NewVar(v))
					delete(outside, v) // once
				}
			}
		}
		var name string
		for {
			t.fresh++
			name = fmt.Sprintf("condense_%d", t.fresh)
			if !names[name] {
				break
			}
		}
		names[name] = true
		var head *gdl.Term
		if len(args) == 0 {
			head = gdl.NewConst(gdl.Intern(name))
		} else {
			head = gdl.NewFunc(gdl.Intern(name), args...)
		}
		out = append(out,
			&gdl.Rule{Head: head, Body: append([]*gdl.Literal(nil), pre...), Pos: r.Pos},
			&gdl.Rule{Head: r.Head, Body: append([]*gdl.Literal{{Kind: gdl.LitAtom, Atom: head}}, rest...), Pos: r.Pos})
	}
	t.rules = out
}

// recursiveRule reports whether a body literal of r is in its head's
// strongly connected component.
func recursiveRule(a *gdl.Analysis, r *gdl.Rule) bool {
	hr := a.Relations[r.Head.Name]
	for _, l := range r.Body {
		if l.Atom != nil {
			if lr := a.Relations[l.Atom.Name]; lr != nil && lr.SCC == hr.SCC {
				return true
			}
		}
	}
	return false
}

// closed reports whether the positive literals of body bind every variable
// of its distinct and not literals.
func closed(body []*gdl.Literal) bool {
	bound := map[gdl.Symbol]bool{}
	pos, neg := split(body)
	if len(pos) == 0 {
		return false
	}
	for _, l := range pos {
		for _, v := range l.Vars(nil) {
			bound[v] = true
		}
	}
	for _, l := range neg {
		if !bindsAll(l, bound) {
			return false
		}
	}
	return true
}
