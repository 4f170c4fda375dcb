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
	c := &cleaner{file: file, lim: lim}
	var out []*Rule
	for _, r := range rules {
		alts := c.expand(r)
		if c.over {
			break
		}
		for _, body := range alts {
			nr := c.equalities(&Rule{Head: r.Head, Body: body, Pos: r.Pos})
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
	count    int
	over     bool
}

func (c *cleaner) add(sev Severity, code string, pos Pos, format string, args ...any) {
	c.findings = append(c.findings, Finding{Severity: sev, Code: code, File: c.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// expand returns the bodies of the or-free rules that r stands for.
func (c *cleaner) expand(r *Rule) [][]*Literal {
	bodies := [][]*Literal{nil}
	for _, l := range r.Body {
		alts := c.alternatives(l)
		if alts == nil {
			return nil
		}
		if len(alts) == 1 {
			for i := range bodies {
				bodies[i] = append(bodies[i], alts[0]...)
			}
			continue
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
		if !c.budget(r, len(bodies)) {
			return nil
		}
	}
	if !c.budget(r, len(bodies)) {
		return nil
	}
	c.count += len(bodies)
	return bodies
}

func (c *cleaner) budget(r *Rule, n int) bool {
	if c.lim.MaxRules > 0 && c.count+n > c.lim.MaxRules {
		c.add(Error, CodeOrExpansion, r.Pos, "expanding (or ...) gives more than %d rules; the game is too large", c.lim.MaxRules)
		c.over = true
		return false
	}
	return true
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
	for {
		idx := -1
		for i, l := range r.Body {
			if l.Kind == LitNot && l.Atom == nil {
				idx = i
				break
			}
		}
		if idx < 0 {
			return r
		}
		l := r.Body[idx]
		d := l.Sub[0]
		c.add(Warning, CodeNotDistinct, l.Pos, "%s is read as %s = %s; write the equal terms directly instead", l, d.Left, d.Right)
		s := Subst{}
		if !unify(d.Left, d.Right, s) {
			return nil
		}
		nr := &Rule{Head: s.resolve(r.Head), Pos: r.Pos}
		for i, b := range r.Body {
			if i == idx {
				continue
			}
			nr.Body = append(nr.Body, s.literal(b))
		}
		r = nr
	}
}

// unify extends s to a most general unifier of a and b.
func unify(a, b *Term, s Subst) bool {
	a, b = s.walk(a), s.walk(b)
	switch {
	case a.Kind == Var && b.Kind == Var && a.Name == b.Name:
		return true
	case a.Kind == Var:
		if occurs(a.Name, b, s) {
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

func occurs(v Symbol, t *Term, s Subst) bool {
	t = s.walk(t)
	switch t.Kind {
	case Var:
		return t.Name == v
	case Func:
		for _, a := range t.Args {
			if occurs(v, a, s) {
				return true
			}
		}
	}
	return false
}

// resolve applies s fully (following chains of bindings).
func (s Subst) resolve(t *Term) *Term {
	t = s.walk(t)
	if t.Kind != Func {
		return t
	}
	args := make([]*Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = s.resolve(a)
	}
	return &Term{Kind: Func, Name: t.Name, Args: args, Pos: t.Pos}
}

func (s Subst) literal(l *Literal) *Literal {
	n := *l
	switch l.Kind {
	case LitAtom:
		n.Atom = s.resolve(l.Atom)
	case LitNot:
		if l.Atom != nil {
			n.Atom = s.resolve(l.Atom)
		} else {
			n.Sub = []*Literal{s.literal(l.Sub[0])}
		}
	case LitDistinct:
		n.Left, n.Right = s.resolve(l.Left), s.resolve(l.Right)
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
