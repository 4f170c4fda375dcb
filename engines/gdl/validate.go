package gdl

import (
	"fmt"
	"sort"
	"strings"
)

var keywordArity = map[Symbol]int{
	SymRole: 1, SymInit: 1, SymTrue: 1, SymNext: 1, SymLegal: 2,
	SymDoes: 2, SymGoal: 2, SymTerminal: 0, SymBase: 1, SymInput: 2,
}

// Validate checks cleaned rules against the rules of GDL (the checks of
// GGP-Base's static validator and the GDL specification's restrictions) and
// returns its findings together with the dependency analysis.
func Validate(file string, rules []*Rule) (Findings, *Analysis) {
	v := &validator{file: file, sentArity: map[Symbol]arityUse{}, funcArity: map[Symbol]arityUse{}}
	for _, r := range rules {
		v.rule(r)
	}
	a := Analyse(rules)
	v.graph(rules, a)
	v.findings.sort()
	return v.findings, a
}

type arityUse struct {
	arity int
	pos   Pos
	bad   bool
}

type validator struct {
	file      string
	findings  Findings
	sentArity map[Symbol]arityUse
	funcArity map[Symbol]arityUse
	charsSeen map[Symbol]bool
}

func (v *validator) add(sev Severity, code string, pos Pos, format string, args ...any) {
	v.findings = append(v.findings, Finding{Severity: sev, Code: code, File: v.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) rule(r *Rule) {
	h := r.Head
	switch h.Name {
	case SymTrue, SymDoes:
		v.add(Error, CodeKeywordPlace, h.Pos, "%s is never the head of a rule or a fact: %s", h.Name, h)
	case SymRole:
		if len(r.Body) > 0 || !h.IsGround() {
			v.add(Error, CodeKeywordPlace, h.Pos, "roles must be given as ground facts, not %s", r)
		}
	}
	v.sentence(h)
	for _, l := range r.Body {
		switch l.Kind {
		case LitAtom, LitNot:
			switch l.Atom.Name {
			case SymInit, SymNext, SymBase, SymInput:
				v.add(Error, CodeKeywordPlace, l.Atom.Pos, "%s is never in the body of a rule: %s", l.Atom.Name, l)
			}
			v.sentence(l.Atom)
		case LitDistinct:
			v.term(l.Left)
			v.term(l.Right)
			if l.Left.IsGround() && l.Right.IsGround() {
				always := "always true"
				if l.Left.Equal(l.Right) {
					always = "always false: the rule never fires"
				}
				v.add(Warning, CodeDistinctVar, l.Pos, "%s compares two ground terms, so it is %s", l, always)
			}
		}
	}
	v.safety(r)
}

// sentence checks a sentence's arity and its arguments.
func (v *validator) sentence(s *Term) {
	v.characters(s.Name, s.Pos)
	if want, ok := keywordArity[s.Name]; ok && s.Arity() != want {
		v.add(Error, CodeKeywordArity, s.Pos, "%s takes %d argument%s, not %d: %s", s.Name, want, plural(want), s.Arity(), s)
	}
	v.arity(v.sentArity, CodeSentenceArity, "sentence", s, Error)
	for _, a := range s.Args {
		v.term(a)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (v *validator) term(t *Term) {
	switch t.Kind {
	case Var:
		return
	case Const:
		v.characters(t.Name, t.Pos)
		return
	}
	v.characters(t.Name, t.Pos)
	if _, ok := keywordArity[t.Name]; ok {
		v.add(Error, CodeKeywordFunction, t.Pos, "the keyword %s is used as a function in %s; it may only name a sentence", t.Name, t)
	}
	v.arity(v.funcArity, CodeFunctionArity, "function", t, Warning)
	for _, a := range t.Args {
		v.term(a)
	}
}

func (v *validator) arity(m map[Symbol]arityUse, code, what string, t *Term, sev Severity) {
	u, ok := m[t.Name]
	if !ok {
		m[t.Name] = arityUse{arity: t.Arity(), pos: t.Pos}
		return
	}
	if u.arity != t.Arity() && !u.bad {
		u.bad = true
		m[t.Name] = u
		v.add(sev, code, t.Pos, "the %s %s is used with %d argument%s here and with %d at %s", what, t.Name, t.Arity(), plural(t.Arity()), u.arity, u.pos)
	}
}

// characters warns once per name about characters that other GDL tools may
// not read the same way.
func (v *validator) characters(s Symbol, pos Pos) {
	if v.charsSeen[s] {
		return
	}
	if v.charsSeen == nil {
		v.charsSeen = map[Symbol]bool{}
	}
	v.charsSeen[s] = true
	name := strings.TrimPrefix(s.Name(), "?")
	for _, c := range name {
		if c > 0x7e || strings.ContainsRune("\"'`\\,{}[]|#", c) || (c == '?') {
			v.add(Warning, CodeCharacters, pos, "the name %q has the unusual character %q", s.Name(), c)
			return
		}
	}
}

// safety checks that every variable of the head, of a negation and of a
// distinct appears in a positive literal of the body.
func (v *validator) safety(r *Rule) {
	bound := map[Symbol]bool{}
	for _, l := range r.Body {
		if l.Kind == LitAtom {
			for _, x := range l.Atom.Vars(nil) {
				bound[x] = true
			}
		}
	}
	check := func(vars []Symbol, where string) {
		for _, x := range vars {
			if !bound[x] {
				v.add(Error, CodeUnsafe, r.Pos, "unsafe rule %s: variable %s in %s is not bound by a positive literal of the body", r, x, where)
				return
			}
		}
	}
	check(r.Head.Vars(nil), "the head")
	for _, l := range r.Body {
		if l.Kind != LitAtom {
			check(l.Vars(nil), l.String())
		}
	}
}

// graph runs the checks that need the dependency graph.
func (v *validator) graph(rules []*Rule, a *Analysis) {
	for _, k := range []Symbol{SymRole, SymTerminal, SymGoal, SymLegal} {
		if r := a.Relations[k]; r == nil || len(r.Rules) == 0 {
			v.add(Error, CodeMissing, Pos{}, "the game has no %s", k)
		}
	}
	for _, k := range []Symbol{SymLegal, SymGoal, SymTerminal} {
		if a.UsesMoves(k) {
			v.add(Error, CodeDependsOnDoes, reachPos(a, k, SymDoes), "%s depends on does (%s); it must be a function of the state alone", k, path(a, k, SymDoes))
		}
	}
	for _, k := range []Symbol{SymInit, SymBase, SymInput, SymRole} {
		for _, bad := range []Symbol{SymTrue, SymDoes, SymLegal, SymNext, SymGoal, SymTerminal} {
			if k != bad && reaches(a, k, bad) {
				v.add(Error, CodeDependsOnState, reachPos(a, k, bad), "%s depends on %s (%s); it must not depend on the state or on moves", k, bad, path(a, k, bad))
				break
			}
		}
	}
	// Stratification: no negative edge inside a cycle. A cycle of relation
	// names is only a suspect: (goal ?r 0) may depend on (not (goal ?r 100))
	// without any instance depending on itself, so suspects are checked again
	// on the graph of rules, where a literal depends on the rules whose heads
	// unify with it.
	suspect := false
	for _, name := range a.Order {
		r := a.Relations[name]
		for _, d := range r.Deps {
			if d.Negative && a.Relations[d.Name].SCC == r.SCC {
				suspect = true
			}
		}
	}
	if suspect {
		v.stratification(rules, a)
	}
	v.recursion(rules, a)
	v.usage(rules, a)
}

// reaches reports whether from depends on to, directly or not.
func reaches(a *Analysis, from, to Symbol) bool {
	if a.Relations[from] == nil || a.Relations[to] == nil {
		return false
	}
	seen := map[Symbol]bool{from: true}
	stack := []Symbol{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range a.Relations[n].Deps {
			if d.Name == to {
				return true
			}
			if !seen[d.Name] {
				seen[d.Name] = true
				stack = append(stack, d.Name)
			}
		}
	}
	return false
}

// reachPos is the position of the first rule of from whose body leads to to.
func reachPos(a *Analysis, from, to Symbol) Pos {
	r := a.Relations[from]
	if r == nil {
		return Pos{}
	}
	for _, rule := range r.Rules {
		for _, l := range rule.Body {
			if l.Atom != nil && (l.Atom.Name == to || reaches(a, l.Atom.Name, to)) {
				return rule.Pos
			}
		}
	}
	if len(r.Rules) > 0 {
		return r.Rules[0].Pos
	}
	return Pos{}
}

// path finds a chain of dependencies from one relation to another.
func path(a *Analysis, from, to Symbol) string {
	prev := map[Symbol]Symbol{from: from}
	queue := []Symbol{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			var chain []string
			for x := to; ; x = prev[x] {
				chain = append(chain, x.Name())
				if x == from {
					break
				}
			}
			for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
				chain[i], chain[j] = chain[j], chain[i]
			}
			return strings.Join(chain, " -> ")
		}
		for _, d := range a.Relations[n].Deps {
			if _, ok := prev[d.Name]; !ok {
				prev[d.Name] = n
				queue = append(queue, d.Name)
			}
		}
	}
	return from.Name() + " -> ... -> " + to.Name()
}

// recursion checks the GDL recursion restriction (Love et al., GDL
// specification, definition 15): in a rule with head p(t1..tn), an argument
// of a positive literal whose relation is in a cycle with p must be ground,
// be one of t1..tn, or have its variables bound by a positive literal whose
// relation is not in that cycle. This keeps every game's model finite.
func (v *validator) recursion(rules []*Rule, a *Analysis) {
	for _, r := range rules {
		p := a.Relations[r.Head.Name]
		if !p.Recursive {
			continue
		}
		outside := map[Symbol]bool{}
		for _, l := range r.Body {
			if l.Kind == LitAtom && a.Relations[l.Atom.Name].SCC != p.SCC {
				for _, x := range l.Atom.Vars(nil) {
					outside[x] = true
				}
			}
		}
	body:
		for _, l := range r.Body {
			if l.Kind != LitAtom || a.Relations[l.Atom.Name].SCC != p.SCC {
				continue
			}
			for _, s := range l.Atom.Args {
				if s.IsGround() {
					continue
				}
				head := false
				for _, t := range r.Head.Args {
					if t.Equal(s) {
						head = true
						break
					}
				}
				if head {
					continue
				}
				ok := true
				for _, x := range s.Vars(nil) {
					if !outside[x] {
						ok = false
					}
				}
				if !ok {
					v.add(Error, CodeRecursion, l.Pos, "rule %s breaks the recursion restriction: the argument %s of the recursive literal %s is not ground, not an argument of the head, and not bound by a literal outside the cycle", r, s, l)
					break body
				}
			}
		}
	}
}

// usage warns about sentences used but never defined, defined but never
// used, and names used both as sentences and as functions.
func (v *validator) usage(rules []*Rule, a *Analysis) {
	used := map[Symbol]bool{}
	var visit func(Symbol)
	visit = func(n Symbol) {
		if used[n] {
			return
		}
		used[n] = true
		for _, d := range a.Relations[n].Deps {
			visit(d.Name)
		}
	}
	for n := range a.Relations {
		if n.IsKeyword() {
			visit(n)
		}
	}
	undefined := map[Symbol]bool{}
	for _, r := range rules {
		for _, l := range r.Body {
			if l.Atom == nil {
				continue
			}
			n := l.Atom.Name
			if n == SymTrue || n == SymDoes || undefined[n] {
				continue
			}
			if rel := a.Relations[n]; len(rel.Rules) == 0 {
				undefined[n] = true
				v.add(Warning, CodeUndefined, l.Pos, "the sentence %s is never defined, so it is always false", n)
			}
		}
	}
	var unused []Symbol
	for n, rel := range a.Relations {
		if !used[n] && len(rel.Rules) > 0 {
			unused = append(unused, n)
		}
	}
	sort.Slice(unused, func(i, j int) bool { return unused[i].Name() < unused[j].Name() })
	for _, n := range unused {
		v.add(Warning, CodeUnused, a.Relations[n].Rules[0].Pos, "the sentence %s is defined but nothing uses it", n)
	}
	var clash []Symbol
	for n := range v.funcArity {
		if _, ok := v.sentArity[n]; ok && !n.IsKeyword() {
			clash = append(clash, n)
		}
	}
	sort.Slice(clash, func(i, j int) bool { return clash[i].Name() < clash[j].Name() })
	for _, n := range clash {
		v.add(Warning, CodeNameClash, v.funcArity[n].pos, "%s is used both as a function and as a sentence (at %s)", n, v.sentArity[n].pos)
	}
}

// stratification looks for a negative literal that depends on the rule it
// is in, through the graph whose nodes are rules and whose edges go from a
// body literal to every rule whose head unifies with it.
func (v *validator) stratification(rules []*Rule, a *Analysis) {
	index := map[*Rule]int{}
	for i, r := range rules {
		index[r] = i
	}
	type edge struct {
		to  int
		neg bool
		lit *Literal
	}
	edges := make([][]edge, len(rules))
	u := &apart{}
	for i, r := range rules {
		for _, l := range r.Body {
			if l.Atom == nil {
				continue
			}
			for _, h := range a.Relations[l.Atom.Name].Rules {
				// A fact depends on nothing, so it is in no cycle.
				if len(h.Body) == 0 || a.Relations[h.Head.Name].SCC != a.Relations[r.Head.Name].SCC {
					continue
				}
				if u.unifiable(l.Atom, h.Head) {
					edges[i] = append(edges[i], edge{index[h], l.Kind == LitNot, l})
				}
			}
		}
	}
	comp := tarjan(len(rules), func(i int, visit func(int)) {
		for _, e := range edges[i] {
			visit(e.to)
		}
	})
	reported := map[int]bool{}
	unstratified := map[int]bool{} // relation SCCs with an error
	for i, es := range edges {
		for _, e := range es {
			if e.neg && comp[i] == comp[e.to] && !reported[comp[i]] {
				reported[comp[i]] = true
				unstratified[a.Relations[rules[i].Head.Name].SCC] = true
				v.add(Error, CodeStratification, e.lit.Pos, "unstratifiable negation: %s in rule %s depends on the rule itself; negation may not be part of a recursive cycle", e.lit, rules[i])
			}
		}
	}
	// The rest of the negations inside a cycle of relations are fine rule
	// by rule, but the GDL specification (Love et al., definition 13)
	// stratifies relations: an engine that orders relations into strata
	// finds no order for these. Accepted, with one warning per cycle.
	warned := map[int]bool{}
	for _, r := range rules {
		scc := a.Relations[r.Head.Name].SCC
		if unstratified[scc] || warned[scc] {
			continue
		}
		for _, l := range r.Body {
			if l.Kind == LitNot && a.Relations[l.Atom.Name].SCC == scc {
				warned[scc] = true
				v.add(Warning, CodeRuleStratified, l.Pos, "the relation %s depends on its own negation through %s in rule %s; no instance depends on itself, so the game is stratified rule by rule, but not relation by relation as the GDL specification asks, and engines that stratify relations may reject it", r.Head.Name, l, r)
				break
			}
		}
	}
}

// tarjan numbers the strongly connected components of a graph of n nodes.
func tarjan(n int, succ func(int, func(int))) []int {
	index := make([]int, n)
	low := make([]int, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, n)
	var stack []int
	next, ncomp := 0, 0
	var strong func(int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		succ(v, func(w int) {
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		})
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for i := 0; i < n; i++ {
		if index[i] < 0 {
			strong(i)
		}
	}
	return comp
}

// apart unifies two terms with their variables renamed apart (side 0 and
// side 1); its map is reused between calls.
type apart struct {
	s map[apartKey]apartVal
}

type apartKey struct {
	side int
	name Symbol
}

type apartVal struct {
	t    *Term
	side int
}

func (u *apart) walk(t *Term, side int) (*Term, int) {
	for t.Kind == Var {
		r, ok := u.s[apartKey{side, t.Name}]
		if !ok {
			break
		}
		t, side = r.t, r.side
	}
	return t, side
}

func (u *apart) occurs(v apartKey, t *Term, side int, seen map[apartKey]bool) bool {
	t, side = u.walk(t, side)
	switch t.Kind {
	case Var:
		return apartKey{side, t.Name} == v
	case Func:
		for _, x := range t.Args {
			if x.Kind == Var {
				k := apartKey{side, x.Name}
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			if u.occurs(v, x, side, seen) {
				return true
			}
		}
	}
	return false
}

func (u *apart) unify(x *Term, xs int, y *Term, ys int) bool {
	x, xs = u.walk(x, xs)
	y, ys = u.walk(y, ys)
	switch {
	case x.Kind == Var && y.Kind == Var && x.Name == y.Name && xs == ys:
		return true
	case x.Kind == Var:
		k := apartKey{xs, x.Name}
		if u.occurs(k, y, ys, map[apartKey]bool{}) {
			return false
		}
		u.s[k] = apartVal{y, ys}
		return true
	case y.Kind == Var:
		return u.unify(y, ys, x, xs)
	case x.Kind != y.Kind || x.Name != y.Name || len(x.Args) != len(y.Args):
		return false
	}
	for i := range x.Args {
		if !u.unify(x.Args[i], xs, y.Args[i], ys) {
			return false
		}
	}
	return true
}

// unifiable reports whether a and b unify with their variables renamed apart.
func (u *apart) unifiable(a, b *Term) bool {
	if u.s == nil {
		u.s = map[apartKey]apartVal{}
	}
	clear(u.s)
	return u.unify(a, 0, b, 1)
}
