package gdl

import "fmt"

// Clean rewrites rules that have one obvious meaning into plain GDL:
//
//   - (or ...) is expanded away: a rule with disjunctions becomes one rule per
//     combination of disjuncts, and (not (or a b)) becomes (not a) (not b);
//   - (not (distinct a b)) is read as "a equals b": the two terms are unified
//     and the rule rewritten with the unifier (or dropped when they cannot be
//     equal), with a warning;
//   - distinct and not literals are moved right after the positive literals
//     that bind their variables, so that a left-to-right evaluation sees them
//     ground.
//
// Findings say what was rewritten and what could not be.
func Clean(file string, rules []*Rule, lim Limits) ([]*Rule, Findings) {
	c := &cleaner{file: file, lim: lim, warned: map[Pos]bool{}}
	var out []*Rule
	for _, r := range rules {
		alts := c.expand(r)
		if c.over {
			break
		}
		for _, body := range alts {
			nr := c.equalities(&Rule{Head: r.Head, Body: body, Pos: r.Pos})
			if c.over {
				return out, c.findings
			}
			if nr == nil {
				continue
			}
			nr.Body = orderBody(nr.Body)
			out = append(out, nr)
		}
	}
	return out, c.findings
}

type cleaner struct {
	file     string
	lim      Limits
	findings Findings
	rules    int // rules produced so far
	lits     int // body literals produced so far
	over     bool
	warned   map[Pos]bool // (not (distinct ..)) literals already reported
}

func (c *cleaner) add(sev Severity, code string, pos Pos, format string, args ...any) {
	c.findings = append(c.findings, Finding{Severity: sev, Code: code, File: c.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// expand returns the bodies of the or-free rules that r stands for.
func (c *cleaner) expand(r *Rule) [][]*Literal {
	bodies := [][]*Literal{nil}
	hasOr := false
	for _, l := range r.Body {
		alts := c.alternatives(l)
		if alts == nil {
			return nil
		}
		if len(alts) == 1 {
			if len(bodies) > 1 && !c.budget(r, len(bodies), len(bodies)*(len(bodies[0])+len(alts[0])), true) {
				return nil
			}
			for i := range bodies {
				bodies[i] = append(bodies[i], alts[0]...)
			}
			continue
		}
		hasOr = true
		longest := 0
		for _, a := range alts {
			longest = max(longest, len(a))
		}
		if !c.budget(r, len(bodies)*len(alts), len(bodies)*len(alts)*(len(bodies[0])+longest), true) {
			return nil
		}
		next := make([][]*Literal, 0, len(bodies)*len(alts))
		for _, b := range bodies {
			for _, a := range alts {
				nb := make([]*Literal, 0, len(b)+len(a))
				nb = append(append(nb, b...), a...)
				next = append(next, nb)
			}
		}
		bodies = next
	}
	n := 0
	for _, b := range bodies {
		n += len(b)
	}
	if !c.budget(r, len(bodies), n, hasOr) {
		return nil
	}
	c.rules += len(bodies)
	c.lits += n
	return bodies
}

// budget reports whether rules more rules with lits more literals fit in the
// limits, and reports an error when they do not.
func (c *cleaner) budget(r *Rule, rules, lits int, or bool) bool {
	maxLits := c.lim.MaxNodes
	over := c.lim.MaxRules > 0 && c.rules+rules > c.lim.MaxRules || maxLits > 0 && c.lits+lits > maxLits
	if !over {
		return true
	}
	what := ""
	if or {
		what = " once (or ...) is expanded"
	}
	code := CodeLimit
	if or {
		code = CodeOrExpansion
	}
	c.add(Error, code, r.Pos, "the game has more than %d rules or %d literals%s; it is too large", c.lim.MaxRules, maxLits, what)
	c.over = true
	return false
}

// alternatives returns l as a disjunction of conjunctions of or-free
// literals, or nil after reporting an error.
func (c *cleaner) alternatives(l *Literal) [][]*Literal {
	switch l.Kind {
	case LitAtom, LitDistinct:
		return [][]*Literal{{l}}
	case LitOr:
		var out [][]*Literal
		for _, s := range l.Sub {
			a := c.alternatives(s)
			if a == nil {
				return nil
			}
			out = append(out, a...)
			if c.lim.MaxRules > 0 && len(out) > c.lim.MaxRules {
				c.add(Error, CodeOrExpansion, l.Pos, "(or ...) has more than %d alternatives", c.lim.MaxRules)
				c.over = true
				return nil
			}
		}
		return out
	case LitNot:
		if l.Atom != nil {
			return [][]*Literal{{l}}
		}
		s := l.Sub[0]
		switch s.Kind {
		case LitAtom:
			return [][]*Literal{{{Kind: LitNot, Atom: s.Atom, Pos: l.Pos}}}
		case LitDistinct:
			// (not (distinct a b)): kept for equalities().
			return [][]*Literal{{l}}
		case LitOr:
			// (not (or a b)) = (not a) and (not b).
			conj := [][]*Literal{nil}
			for _, d := range s.Sub {
				a := c.alternatives(&Literal{Kind: LitNot, Sub: []*Literal{d}, Pos: d.Pos})
				if a == nil {
					return nil
				}
				if len(a) == 1 {
					for i := range conj {
						conj[i] = append(conj[i], a[0]...)
					}
					continue
				}
				var next [][]*Literal
				for _, x := range conj {
					for _, y := range a {
						next = append(next, append(append([]*Literal{}, x...), y...))
					}
				}
				conj = next
				if c.lim.MaxRules > 0 && len(conj) > c.lim.MaxRules {
					c.add(Error, CodeOrExpansion, l.Pos, "(not (or ...)) has more than %d alternatives", c.lim.MaxRules)
					c.over = true
					return nil
				}
			}
			return conj
		default:
			c.add(Error, CodeNegation, l.Pos, "the negation %s contains %s, which is not a sentence; only a single sentence is allowed inside a negation", l, s)
			return nil
		}
	}
	return nil
}

// equalities rewrites (not (distinct a b)) as the unification of a and b.
// It returns nil when the rule can never fire.
func (c *cleaner) equalities(r *Rule) *Rule {
	var eqs []*Literal
	var rest []*Literal
	for _, l := range r.Body {
		if l.Kind == LitNot && l.Atom == nil {
			eqs = append(eqs, l)
		} else {
			rest = append(rest, l)
		}
	}
	if len(eqs) == 0 {
		return r
	}
	s := Subst{}
	ok := true
	for _, l := range eqs {
		d := l.Sub[0]
		if !c.warned[l.Pos] {
			c.warned[l.Pos] = true
			c.add(Warning, CodeNotDistinct, l.Pos, "%s is read as %s = %s; write the equal terms directly instead", l, d.Left, d.Right)
		}
		if ok && !unify(d.Left, d.Right, s) {
			ok = false
		}
	}
	if !ok {
		return nil
	}
	// The unifier can describe terms exponentially larger than the rule
	// (?x1 = (f ?x2 ?x2), ?x2 = (f ?x3 ?x3), ...): measure before building.
	const maxTerm = 1 << 16
	sizes := map[Symbol]int{}
	size := r.Head.resolvedSize(s, sizes, maxTerm)
	for _, l := range rest {
		size += l.resolvedSize(s, sizes, maxTerm)
	}
	if size > maxTerm {
		c.add(Error, CodeLimit, r.Pos, "reading (not (distinct ...)) as equality makes the rule %s more than %d symbols long", r.Head, maxTerm)
		c.over = true
		return nil
	}
	memo := map[Symbol]*Term{}
	nr := &Rule{Head: s.resolveMemo(r.Head, memo), Pos: r.Pos}
	for _, b := range rest {
		nr.Body = append(nr.Body, s.literal(b, memo))
	}
	return nr
}

// resolvedSize counts the symbols of t with s applied, stopping past limit.
func (t *Term) resolvedSize(s Subst, sizes map[Symbol]int, limit int) int {
	switch t.Kind {
	case Var:
		if n, ok := sizes[t.Name]; ok {
			return n
		}
		b, ok := s[t.Name]
		if !ok {
			return 1
		}
		sizes[t.Name] = limit + 1 // a cycle would be infinite; unify forbids it
		n := b.resolvedSize(s, sizes, limit)
		sizes[t.Name] = n
		return n
	case Func:
		n := 1
		for _, a := range t.Args {
			n += a.resolvedSize(s, sizes, limit)
			if n > limit {
				return limit + 1
			}
		}
		return n
	}
	return 1
}

func (l *Literal) resolvedSize(s Subst, sizes map[Symbol]int, limit int) int {
	n := 0
	for _, t := range []*Term{l.Atom, l.Left, l.Right} {
		if t != nil {
			n += t.resolvedSize(s, sizes, limit)
		}
	}
	for _, sub := range l.Sub {
		n += sub.resolvedSize(s, sizes, limit)
	}
	return min(n, limit+1)
}

// unify extends s to a most general unifier of a and b.
func unify(a, b *Term, s Subst) bool {
	a, b = s.walk(a), s.walk(b)
	switch {
	case a.Kind == Var && b.Kind == Var && a.Name == b.Name:
		return true
	case a.Kind == Var:
		if occurs(a.Name, b, s, map[Symbol]bool{}) {
			return false
		}
		s[a.Name] = b
		return true
	case b.Kind == Var:
		return unify(b, a, s)
	case a.Kind != b.Kind || a.Name != b.Name || len(a.Args) != len(b.Args):
		return false
	}
	for i := range a.Args {
		if !unify(a.Args[i], b.Args[i], s) {
			return false
		}
	}
	return true
}

func (s Subst) walk(t *Term) *Term {
	for t.Kind == Var {
		r, ok := s[t.Name]
		if !ok {
			return t
		}
		t = r
	}
	return t
}

// occurs reports whether v occurs in t under s; seen holds the bound
// variables already searched, so shared bindings are searched once.
func occurs(v Symbol, t *Term, s Subst, seen map[Symbol]bool) bool {
	switch t.Kind {
	case Var:
		if t.Name == v {
			return true
		}
		if seen[t.Name] {
			return false
		}
		seen[t.Name] = true
		if b, ok := s[t.Name]; ok {
			return occurs(v, b, s, seen)
		}
	case Func:
		for _, a := range t.Args {
			if occurs(v, a, s, seen) {
				return true
			}
		}
	}
	return false
}

// resolveMemo applies s fully, sharing the resolved value of each variable.
func (s Subst) resolveMemo(t *Term, memo map[Symbol]*Term) *Term {
	switch t.Kind {
	case Var:
		if r, ok := memo[t.Name]; ok {
			return r
		}
		b, ok := s[t.Name]
		if !ok {
			return t
		}
		r := s.resolveMemo(b, memo)
		memo[t.Name] = r
		return r
	case Func:
		args := make([]*Term, len(t.Args))
		for i, a := range t.Args {
			args[i] = s.resolveMemo(a, memo)
		}
		return &Term{Kind: Func, Name: t.Name, Args: args, Pos: t.Pos}
	}
	return t
}

func (s Subst) literal(l *Literal, memo map[Symbol]*Term) *Literal {
	n := *l
	switch l.Kind {
	case LitAtom:
		n.Atom = s.resolveMemo(l.Atom, memo)
	case LitNot:
		if l.Atom != nil {
			n.Atom = s.resolveMemo(l.Atom, memo)
		} else {
			n.Sub = []*Literal{s.literal(l.Sub[0], memo)}
		}
	case LitDistinct:
		n.Left, n.Right = s.resolveMemo(l.Left, memo), s.resolveMemo(l.Right, memo)
	}
	return &n
}

// orderBody keeps the positive literals in their order and puts each
// distinct and not right after the first prefix that binds all its
// variables. Literals whose variables are never bound go last (the rule is
// unsafe, which the validator reports).
func orderBody(body []*Literal) []*Literal {
	needsMove := false
	for _, l := range body {
		if l.Kind != LitAtom {
			needsMove = true
			break
		}
	}
	if !needsMove {
		return body
	}
	out := make([]*Literal, 0, len(body))
	bound := map[Symbol]bool{}
	var pending []*Literal
	for _, l := range body {
		if l.Kind != LitAtom {
			pending = append(pending, l)
		}
	}
	flush := func() {
		kept := pending[:0]
		for _, l := range pending {
			ok := true
			for _, v := range l.Vars(nil) {
				if !bound[v] {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, l)
			} else {
				kept = append(kept, l)
			}
		}
		pending = kept
	}
	flush()
	for _, l := range body {
		if l.Kind != LitAtom {
			continue
		}
		out = append(out, l)
		for _, v := range l.Vars(nil) {
			bound[v] = true
		}
		flush()
	}
	return append(out, pending...)
}
