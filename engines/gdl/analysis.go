package gdl

import "sort"

// Relation is what the analysis knows of one sentence name.
type Relation struct {
	Name  Symbol
	Arity int
	Rules []*Rule // rules and facts with this head, in file order
	Deps  []Dep   // relations in the bodies of Rules, each once
	// SCC numbers the strongly connected components of the dependency
	// graph in topological order: every dependency of a relation has an SCC
	// number no larger than its own.
	SCC int
	// Recursive is set when the relation is in a dependency cycle.
	Recursive bool
	// Stratum is 0 for relations that depend on no negation, and one more
	// than the highest stratum a negated dependency is in, otherwise.
	Stratum int
	// UsesState and UsesMoves say whether the relation depends, directly
	// or not, on true and on does.
	UsesState bool
	UsesMoves bool
}

// Dep is an edge of the dependency graph.
type Dep struct {
	Name     Symbol
	Negative bool
}

// Analysis is the dependency graph of a game.
type Analysis struct {
	Relations map[Symbol]*Relation
	// Order lists relation names by SCC, dependencies first; names within
	// one SCC are sorted by their text.
	Order []Symbol
}

// Components returns the strongly connected components of the dependency
// graph, dependencies first: Order cut where the SCC number changes. The
// slices share Order's array; callers must not modify them.
func (a *Analysis) Components() [][]Symbol {
	var out [][]Symbol
	for i := 0; i < len(a.Order); {
		j := i + 1
		for j < len(a.Order) && a.Relations[a.Order[j]].SCC == a.Relations[a.Order[i]].SCC {
			j++
		}
		out = append(out, a.Order[i:j:j])
		i = j
	}
	return out
}

// Relation returns the relation name, or nil when the game never mentions it.
func (a *Analysis) Relation(name Symbol) *Relation { return a.Relations[name] }

// UsesState reports whether name depends on true.
func (a *Analysis) UsesState(name Symbol) bool {
	r := a.Relations[name]
	return r != nil && r.UsesState
}

// UsesMoves reports whether name depends on does.
func (a *Analysis) UsesMoves(name Symbol) bool {
	r := a.Relations[name]
	return r != nil && r.UsesMoves
}

// Analyse builds the dependency graph of cleaned rules and numbers its
// strongly connected components (Tarjan's algorithm) and strata.
func Analyse(rules []*Rule) *Analysis {
	a := &Analysis{Relations: map[Symbol]*Relation{}}
	rel := func(name Symbol, arity int) *Relation {
		r := a.Relations[name]
		if r == nil {
			r = &Relation{Name: name, Arity: arity, SCC: -1}
			a.Relations[name] = r
		}
		return r
	}
	for _, r := range rules {
		h := rel(r.Head.Name, r.Head.Arity())
		h.Rules = append(h.Rules, r)
		for _, l := range r.Body {
			if l.Kind != LitAtom && l.Kind != LitNot {
				continue
			}
			if l.Atom == nil {
				continue
			}
			rel(l.Atom.Name, l.Atom.Arity())
			d := Dep{Name: l.Atom.Name, Negative: l.Kind == LitNot}
			seen := false
			for i, e := range h.Deps {
				if e.Name == d.Name {
					seen = true
					h.Deps[i].Negative = e.Negative || d.Negative
				}
			}
			if !seen {
				h.Deps = append(h.Deps, d)
			}
		}
	}
	rel(SymTrue, 1).UsesState = true
	rel(SymDoes, 2).UsesMoves = true

	// Tarjan's algorithm over names in sorted order, for determinism.
	names := make([]Symbol, 0, len(a.Relations))
	for n := range a.Relations {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	index := map[Symbol]int{}
	low := map[Symbol]int{}
	onStack := map[Symbol]bool{}
	var stack []Symbol
	scc := 0
	var strong func(v Symbol)
	strong = func(v Symbol) {
		index[v] = len(index)
		low[v] = index[v]
		stack = append(stack, v)
		onStack[v] = true
		for _, d := range a.Relations[v].Deps {
			if _, ok := index[d.Name]; !ok {
				strong(d.Name)
				low[v] = min(low[v], low[d.Name])
			} else if onStack[d.Name] {
				low[v] = min(low[v], index[d.Name])
			}
		}
		if low[v] == index[v] {
			var comp []Symbol
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				a.Relations[w].SCC = scc
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			sort.Slice(comp, func(i, j int) bool { return comp[i].Name() < comp[j].Name() })
			a.Order = append(a.Order, comp...)
			recursive := len(comp) > 1
			if !recursive {
				for _, d := range a.Relations[v].Deps {
					if d.Name == v {
						recursive = true
					}
				}
			}
			for _, w := range comp {
				a.Relations[w].Recursive = recursive
			}
			scc++
		}
	}
	for _, n := range names {
		if _, ok := index[n]; !ok {
			strong(n)
		}
	}
	// Order is dependencies first, so one pass computes strata and state use
	// per SCC; within an SCC iterate to a fixed point.
	for _, comp := range a.Components() {
		for changed := true; changed; {
			changed = false
			for _, n := range comp {
				r := a.Relations[n]
				for _, d := range r.Deps {
					dr := a.Relations[d.Name]
					s := dr.Stratum
					if d.Negative && dr.SCC != r.SCC {
						s++
					}
					if s > r.Stratum {
						r.Stratum, changed = s, true
					}
					if dr.UsesState && !r.UsesState {
						r.UsesState, changed = true, true
					}
					if dr.UsesMoves && !r.UsesMoves {
						r.UsesMoves, changed = true, true
					}
				}
			}
		}
	}
	return a
}
