package compiled

import "github.com/gdlperf/gdlperf/engines/gdl"

// Unfolding limits: a helper's body at most maxUnfoldBody literals, used at
// most maxUnfoldUses times; maxUnfoldRounds rounds.
const (
	maxUnfoldBody   = 6
	maxUnfoldUses   = 8
	maxUnfoldRounds = 3
)

// unfoldHelpers replaces each use of a helper relation by the helper's
// body, and drops the helper, where the helper is cheap to ask at each use
// but costly to compute whole in every state: a relation that depends on
// the state or the moves, defined by one rule whose head's arguments are
// distinct variables and whose body has no other variable, never negated,
// whose body reads only the state, the moves, static
// relations and distinct (so that a use with its arguments bound is a few
// checks, and a use is never multiplied by other solutions of the body).
// Breakthrough's
//
//	(<= (cellEmpty ?x ?y) (index ?x) (index ?y)
//	    (not (true (cellHolds ?x ?y white))) (not (true (cellHolds ?x ?y black))))
//
// is computed for the 64 cells in every state, and asked for the two or
// three cells in front of each piece. A relation whose body becomes a
// helper's once the helpers it reads are unfolded is unfolded in the next
// round (at most maxUnfoldRounds). It returns g itself when no relation is
// unfolded.
func unfoldHelpers(g *gdl.Game) *gdl.Game {
	for range maxUnfoldRounds {
		g2 := unfoldOnce(g)
		if g2 == g {
			break
		}
		g = g2
	}
	return g
}

// unfoldOnce is a round of unfoldHelpers.
func unfoldOnce(g *gdl.Game) *gdl.Game {
	a := g.Analysis
	static := func(name gdl.Symbol) bool {
		r := a.Relations[name]
		return r != nil && !r.UsesState && !r.UsesMoves
	}
	helpers := map[gdl.Symbol]*gdl.Rule{}
	for name, rel := range a.Relations {
		// (a helper's body reads no derived relation, so it is never
		// recursive)
		if name.IsKeyword() || !(rel.UsesState || rel.UsesMoves) || len(rel.Rules) != 1 {
			continue
		}
		if r := rel.Rules[0]; isHelper(r, static) {
			helpers[name] = r
		}
	}
	uses := map[gdl.Symbol]int{}
	negated := map[gdl.Symbol]bool{}
	for _, r := range g.Rules {
		for _, l := range r.Body {
			if l.Atom == nil || helpers[l.Atom.Name] == nil {
				continue
			}
			uses[l.Atom.Name]++
			negated[l.Atom.Name] = negated[l.Atom.Name] || l.Kind != gdl.LitAtom
		}
	}
	for name := range helpers {
		if n := uses[name]; n == 0 || n > maxUnfoldUses || negated[name] {
			delete(helpers, name)
		}
	}
	if len(helpers) == 0 {
		return g
	}
	rules := make([]*gdl.Rule, 0, len(g.Rules))
	for _, r := range g.Rules {
		if h := helpers[r.Head.Name]; h == r {
			continue
		}
		var body []*gdl.Literal
		changed := false
		for _, l := range r.Body {
			h := helpers[atomName(l)]
			if h == nil || l.Kind != gdl.LitAtom {
				body = append(body, l)
				continue
			}
			changed = true
			s := gdl.Subst{}
			for i, v := range h.Head.Args {
				s[v.Name] = l.Atom.Args[i]
			}
			for _, b := range h.Body {
				body = append(body, substLiteral(s, b))
			}
		}
		if !changed {
			rules = append(rules, r)
			continue
		}
		rules = append(rules, &gdl.Rule{Head: r.Head, Body: body, Pos: r.Pos})
	}
	g2 := *g
	g2.Rules = rules
	g2.Analysis = gdl.Analyse(rules)
	return &g2
}

// isHelper reports whether rule r can be unfolded at its uses: a head of
// distinct variables, a body of at most maxUnfoldBody literals over the
// state, the moves, static relations and distinct, without other
// variables.
func isHelper(r *gdl.Rule, static func(gdl.Symbol) bool) bool {
	if len(r.Body) == 0 || len(r.Body) > maxUnfoldBody {
		return false
	}
	head := map[gdl.Symbol]bool{}
	for _, v := range r.Head.Args {
		if v.Kind != gdl.Var || head[v.Name] {
			return false
		}
		head[v.Name] = true
	}
	for _, l := range r.Body {
		for _, v := range l.Vars(nil) {
			if !head[v] {
				return false
			}
		}
		switch l.Kind {
		case gdl.LitDistinct:
		case gdl.LitAtom, gdl.LitNot:
			if n := l.Atom.Name; n != gdl.SymTrue && n != gdl.SymDoes && !static(n) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func atomName(l *gdl.Literal) gdl.Symbol {
	if l.Atom == nil {
		return gdl.NoSymbol
	}
	return l.Atom.Name
}

// substLiteral returns l with s applied.
func substLiteral(s gdl.Subst, l *gdl.Literal) *gdl.Literal {
	n := *l
	switch l.Kind {
	case gdl.LitAtom, gdl.LitNot:
		n.Atom = s.Apply(l.Atom)
	case gdl.LitDistinct:
		n.Left, n.Right = s.Apply(l.Left), s.Apply(l.Right)
	}
	return &n
}
