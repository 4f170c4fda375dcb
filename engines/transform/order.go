package transform

import (
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// split returns the positive literals of body and the others (distinct,
// not), each in their order.
func split(body []*gdl.Literal) (pos, neg []*gdl.Literal) {
	for _, l := range body {
		if l.Kind == gdl.LitAtom {
			pos = append(pos, l)
		} else {
			neg = append(neg, l)
		}
	}
	return pos, neg
}

// bindsAll reports whether every variable of l is in bound.
func bindsAll(l *gdl.Literal, bound map[gdl.Symbol]bool) bool {
	for _, v := range l.Vars(nil) {
		if !bound[v] {
			return false
		}
	}
	return true
}

// place returns the positive literals in their order with each distinct and
// not right after the first prefix that binds its variables (late: all of
// them at the end), in neg's order among those placed at one point.
// Literals never bound (an unsafe rule) go last.
func place(pos, neg []*gdl.Literal, late bool) []*gdl.Literal {
	out := make([]*gdl.Literal, 0, len(pos)+len(neg))
	if late {
		return append(append(out, pos...), neg...)
	}
	bound := map[gdl.Symbol]bool{}
	pending := append([]*gdl.Literal(nil), neg...)
	flush := func() {
		kept := pending[:0]
		for _, l := range pending {
			if bindsAll(l, bound) {
				out = append(out, l)
			} else {
				kept = append(kept, l)
			}
		}
		pending = kept
	}
	flush()
	for _, l := range pos {
		out = append(out, l)
		for _, v := range l.Vars(nil) {
			bound[v] = true
		}
		flush()
	}
	return append(out, pending...)
}

// withBody returns r with another body (r itself when it is the same).
func withBody(r *gdl.Rule, body []*gdl.Literal) *gdl.Rule {
	return &gdl.Rule{Head: r.Head, Body: body, Pos: r.Pos}
}

// shuffle draws the order of the rules (the role facts keep theirs, which
// numbers the roles) and of each body's positive literals and of its
// distinct and not literals, then places those after their binders.
func (t *state) shuffle() {
	rng := t.rng(0x73687566)
	perm := rng.Perm(len(t.rules))
	var roles []*gdl.Rule
	for _, r := range t.rules {
		if isRoleFact(r) {
			roles = append(roles, r)
		}
	}
	out := make([]*gdl.Rule, len(t.rules))
	ri := 0
	for i, p := range perm {
		r := t.rules[p]
		if isRoleFact(r) {
			r = roles[ri]
			ri++
		}
		out[i] = r
	}
	for i, r := range out {
		if len(r.Body) < 2 {
			continue
		}
		pos, neg := split(r.Body)
		rng.Shuffle(len(pos), func(a, b int) { pos[a], pos[b] = pos[b], pos[a] })
		rng.Shuffle(len(neg), func(a, b int) { neg[a], neg[b] = neg[b], neg[a] })
		out[i] = withBody(r, place(pos, neg, false))
	}
	t.rules = out
}

func isRoleFact(r *gdl.Rule) bool { return r.Head.Name == gdl.SymRole && len(r.Body) == 0 }

// constants counts the constants and function symbols of x: the more, the
// more specific a literal is.
func constants(x *gdl.Term) int {
	switch x.Kind {
	case gdl.Var:
		return 0
	case gdl.Const:
		return 1
	}
	n := 1
	for _, a := range x.Args {
		n += constants(a)
	}
	return n
}

// newVars counts the variables of l not in bound.
func newVars(l *gdl.Literal, bound map[gdl.Symbol]bool) int {
	n := 0
	for _, v := range l.Vars(nil) {
		if !bound[v] {
			n++
		}
	}
	return n
}

// greedy orders the positive literals by picking, each time, the one that
// better says is best given the variables bound so far (at first those of
// bound); ties keep the original order.
func greedy(pos []*gdl.Literal, bound map[gdl.Symbol]bool, better func(a, b *gdl.Literal, bound map[gdl.Symbol]bool) bool) []*gdl.Literal {
	left := append([]*gdl.Literal(nil), pos...)
	out := make([]*gdl.Literal, 0, len(pos))
	for len(left) > 0 {
		best := 0
		for i := 1; i < len(left); i++ {
			if better(left[i], left[best], bound) {
				best = i
			}
		}
		l := left[best]
		left = append(left[:best], left[best+1:]...)
		out = append(out, l)
		for _, v := range l.Vars(nil) {
			bound[v] = true
		}
	}
	return out
}

// adversarial orders each body worst-first for a left-to-right prover: the
// positive literal with the most unbound variables, then the fewest
// constants, first; every distinct and not at the end. Rules keep their
// order.
func (t *state) adversarial() {
	out := make([]*gdl.Rule, len(t.rules))
	for i, r := range t.rules {
		if len(r.Body) < 2 {
			out[i] = r
			continue
		}
		pos, neg := split(r.Body)
		pos = greedy(pos, map[gdl.Symbol]bool{}, func(a, b *gdl.Literal, bound map[gdl.Symbol]bool) bool {
			na, nb := newVars(a, bound), newVars(b, bound)
			if na != nb {
				return na > nb
			}
			return constants(a.Atom) < constants(b.Atom)
		})
		out[i] = withBody(r, place(pos, neg, true))
	}
	t.rules = out
}

// reorder orders each body by binding, after Kissmann's advice for
// Prolog-style provers, each rule for the arguments its callers bind (the
// adornment of magic sets: the positions bound at every call seen, callers
// first; engines ask legal and goal for one role): a literal whose
// variables are all bound (a test) first, then does (one move per role),
// then a literal that shares a bound variable before one that shares
// none (no cross products), then the fewest new variables, then a dynamic
// relation before a static one, then the original order; each distinct
// and not right after the literal that binds its last variable. Kissmann
// puts static relations first at a tie; with the prover that made
// connectFour 0.63x as fast (its line rules enumerated succ chains before
// the few pieces of the state), dynamic first 1.04x: a state is sparse, a
// static table is not.
func (t *state) reorder() {
	a := gdl.Analyse(t.rules)
	dynamic := func(l *gdl.Literal) bool {
		n := l.Atom.Name
		return n == gdl.SymTrue || n == gdl.SymDoes || a.UsesState(n) || a.UsesMoves(n)
	}
	calls := map[gdl.Symbol][]bool{
		gdl.SymLegal: {true, false},
		gdl.SymGoal:  {true, false},
	}
	note := func(name gdl.Symbol, args []*gdl.Term, bound map[gdl.Symbol]bool) {
		if name.IsKeyword() && name != gdl.SymLegal && name != gdl.SymGoal {
			return
		}
		ad := make([]bool, len(args))
		for i, x := range args {
			ad[i] = true
			for _, v := range x.Vars(nil) {
				if !bound[v] {
					ad[i] = false
				}
			}
		}
		old, ok := calls[name]
		if !ok || len(old) != len(ad) {
			calls[name] = ad
			return
		}
		for i := range old {
			old[i] = old[i] && ad[i]
		}
	}
	byHead := map[gdl.Symbol][]int{}
	for i, r := range t.rules {
		byHead[r.Head.Name] = append(byHead[r.Head.Name], i)
	}
	out := append([]*gdl.Rule(nil), t.rules...)
	for pass := 0; pass < 2; pass++ {
		for k := len(a.Order) - 1; k >= 0; k-- {
			for _, i := range byHead[a.Order[k]] {
				r := t.rules[i]
				if len(r.Body) == 0 {
					continue
				}
				bound := map[gdl.Symbol]bool{}
				for j, b := range calls[r.Head.Name] {
					if b && j < len(r.Head.Args) {
						for _, v := range r.Head.Args[j].Vars(nil) {
							bound[v] = true
						}
					}
				}
				body := r.Body
				if len(body) > 1 {
					pos, neg := split(r.Body)
					pos = greedy(pos, copyBound(bound), func(x, y *gdl.Literal, bound map[gdl.Symbol]bool) bool {
						nx, ny := newVars(x, bound), newVars(y, bound)
						if (nx == 0) != (ny == 0) {
							return nx == 0
						}
						dx, dy := x.Atom.Name == gdl.SymDoes, y.Atom.Name == gdl.SymDoes
						if dx != dy {
							return dx
						}
						cx, cy := connected(x, bound), connected(y, bound)
						if cx != cy {
							return cx
						}
						if nx != ny {
							return nx < ny
						}
						dx, dy = dynamic(x), dynamic(y)
						if dx != dy {
							return dx
						}
						return false
					})
					body = place(pos, neg, false)
					out[i] = withBody(r, body)
				}
				for _, l := range body {
					if l.Atom == nil {
						continue
					}
					note(l.Atom.Name, l.Atom.Args, bound)
					if l.Kind == gdl.LitAtom {
						for _, v := range l.Atom.Vars(nil) {
							bound[v] = true
						}
					}
				}
			}
		}
	}
	t.rules = out
}

// connected reports whether l has a variable of bound.
func connected(l *gdl.Literal, bound map[gdl.Symbol]bool) bool {
	for _, v := range l.Vars(nil) {
		if bound[v] {
			return true
		}
	}
	return false
}

func copyBound(b map[gdl.Symbol]bool) map[gdl.Symbol]bool {
	out := make(map[gdl.Symbol]bool, len(b))
	for k, v := range b {
		out[k] = v
	}
	return out
}
