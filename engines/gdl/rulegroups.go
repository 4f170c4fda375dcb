package gdl

import (
	"fmt"
	"sort"
)

// RuleCycleError says that a rule negates a sentence that depends on the
// rule itself: the rules are not stratified, even rule by rule.
type RuleCycleError struct {
	Rule    *Rule
	Negated Symbol // the relation negated
}

func (e *RuleCycleError) Error() string {
	return fmt.Sprintf("the rule %s negates a sentence that depends on the rule itself: the rules are not stratified, even rule by rule", e.Rule)
}

// RuleGroups splits the rules of one strongly connected set of relations
// (inSet) into groups to evaluate one after another, dependencies first,
// and says which groups are recursive. Without negation inside the set it
// is one group. With it, the rules are split by rule-level dependencies (a
// body literal depends on the rules whose heads unify with it, variables
// renamed apart), which stratifies games such as
// (<= (goal ?r 0) (role ?r) (not (goal ?r 100))) that are stratified only
// by their arguments; a negation inside a cycle of rules is a
// *RuleCycleError.
func RuleGroups(rules []*Rule, inSet map[Symbol]bool) (groups [][]*Rule, recursive []bool, err error) {
	negInside := false
	rec := false
	for _, r := range rules {
		for _, l := range r.Body {
			if l.Atom == nil || !inSet[l.Atom.Name] {
				continue
			}
			switch l.Kind {
			case LitNot:
				negInside = true
			case LitAtom:
				rec = true
			}
		}
	}
	if !negInside {
		return [][]*Rule{rules}, []bool{rec}, nil
	}
	n := len(rules)
	type edge struct {
		to  int
		neg bool
	}
	deps := make([][]edge, n)
	var u apart
	for i, r := range rules {
		for _, l := range r.Body {
			if (l.Kind != LitAtom && l.Kind != LitNot) || !inSet[l.Atom.Name] {
				continue
			}
			for j, h := range rules {
				if h.Head.Name == l.Atom.Name && u.unifiable(l.Atom, h.Head) {
					deps[i] = append(deps[i], edge{j, l.Kind == LitNot})
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
	for ci, c := range comps {
		var rs []*Rule
		isRec := false
		for _, i := range c {
			rs = append(rs, rules[i])
			for _, e := range deps[i] {
				if comp[e.to] != ci {
					continue
				}
				if e.neg {
					neg := NoSymbol
					for _, l := range rules[i].Body {
						if l.Kind == LitNot && l.Atom.Name == rules[e.to].Head.Name {
							neg = l.Atom.Name
						}
					}
					return nil, nil, &RuleCycleError{Rule: rules[i], Negated: neg}
				}
				isRec = true
			}
		}
		groups = append(groups, rs)
		recursive = append(recursive, isRec)
	}
	return groups, recursive, nil
}
