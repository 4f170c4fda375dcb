package compiled

import (
	"sort"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// The rule groups of one strongly connected set of relations, as the tuple
// prover splits them (copied from engines/tupleprover/compile.go).

// vkey is a variable of one of the two rules being unified.
type vkey struct {
	side uint8
	name gdl.Symbol
}

type sideTerm struct {
	t    *gdl.Term
	side uint8
}

func walk(t sideTerm, env map[vkey]sideTerm) sideTerm {
	for t.t.Kind == gdl.Var {
		b, ok := env[vkey{t.side, t.t.Name}]
		if !ok {
			return t
		}
		t = b
	}
	return t
}

func occursIn(v vkey, t sideTerm, env map[vkey]sideTerm) bool {
	t = walk(t, env)
	switch t.t.Kind {
	case gdl.Var:
		return vkey{t.side, t.t.Name} == v
	case gdl.Func:
		for _, a := range t.t.Args {
			if occursIn(v, sideTerm{a, t.side}, env) {
				return true
			}
		}
	}
	return false
}

// unifiable reports whether two atoms of different rules (variables
// renamed apart) have a common instance.
func unifiable(a, b sideTerm, env map[vkey]sideTerm) bool {
	a, b = walk(a, env), walk(b, env)
	switch {
	case a.t.Kind == gdl.Var && b.t.Kind == gdl.Var && a.side == b.side && a.t.Name == b.t.Name:
		return true
	case a.t.Kind == gdl.Var:
		k := vkey{a.side, a.t.Name}
		if occursIn(k, b, env) {
			return false
		}
		env[k] = b
		return true
	case b.t.Kind == gdl.Var:
		return unifiable(b, a, env)
	}
	an, bn := len(a.t.Args), len(b.t.Args)
	if a.t.Name != b.t.Name || an != bn {
		return false
	}
	for i := range a.t.Args {
		if !unifiable(sideTerm{a.t.Args[i], a.side}, sideTerm{b.t.Args[i], b.side}, env) {
			return false
		}
	}
	return true
}

// ruleGroups splits the rules of one strongly connected set of relations
// into groups evaluated one after another. Without negation inside the set
// it is one group. With it, the rules are split by rule-level dependencies
// (a body literal depends on the rules whose heads unify with it), which
// stratifies games such as (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))
// that are stratified only by their arguments; a negation inside a cycle of
// rules is refused.
func ruleGroups(rules []*gdl.Rule, inSet map[gdl.Symbol]bool, negInside bool) ([][]*gdl.Rule, []bool, error) {
	if !negInside {
		rec := false
		for _, r := range rules {
			for _, l := range r.Body {
				if l.Kind == gdl.LitAtom && inSet[l.Atom.Name] {
					rec = true
				}
			}
		}
		return [][]*gdl.Rule{rules}, []bool{rec}, nil
	}
	n := len(rules)
	type edge struct {
		to  int
		neg bool
	}
	deps := make([][]edge, n)
	for i, r := range rules {
		for _, l := range r.Body {
			if (l.Kind != gdl.LitAtom && l.Kind != gdl.LitNot) || !inSet[l.Atom.Name] {
				continue
			}
			for j, h := range rules {
				if h.Head.Name != l.Atom.Name {
					continue
				}
				if unifiable(sideTerm{l.Atom, 0}, sideTerm{h.Head, 1}, map[vkey]sideTerm{}) {
					deps[i] = append(deps[i], edge{j, l.Kind == gdl.LitNot})
				}
			}
		}
	}
	// Tarjan's algorithm; components come out dependencies first.
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	comp := make([]int, n)
	var stack []int
	var comps [][]int
	next := 0
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, e := range deps[v] {
			if index[e.to] < 0 {
				strong(e.to)
				low[v] = min(low[v], low[e.to])
			} else if on[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			var c []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = len(comps)
				c = append(c, w)
				if w == v {
					break
				}
			}
			sort.Ints(c)
			comps = append(comps, c)
		}
	}
	for i := range rules {
		if index[i] < 0 {
			strong(i)
		}
	}
	var out [][]*gdl.Rule
	var rec []bool
	for ci, c := range comps {
		var rs []*gdl.Rule
		recursive := false
		for _, i := range c {
			rs = append(rs, rules[i])
			for _, e := range deps[i] {
				if comp[e.to] != ci {
					continue
				}
				if e.neg {
					neg := gdl.NoSymbol
					for _, l := range rules[i].Body {
						if l.Kind == gdl.LitNot && l.Atom.Name == rules[e.to].Head.Name {
							neg = l.Atom.Name
						}
					}
					return nil, nil, &cycleError{
						GameError: engines.Errorf(engines.UnsupportedErr, "the rule %s negates a sentence that depends on the rule itself: the rules are not stratified, even rule by rule", rules[i]),
						negated:   neg,
					}
				}
				recursive = true
			}
		}
		out = append(out, rs)
		rec = append(rec, recursive)
	}
	return out, rec, nil
}

// cycleError is a negation inside a cycle of rules; negated is the
// relation negated.
type cycleError struct {
	*engines.GameError
	negated gdl.Symbol
}

func (e *cycleError) Unwrap() error { return e.GameError }
