// Package fixedfluent finds the state terms of a game that never change
// (the walls of a maze: frame rules are their only next rules) and rewrites
// the rules to read them from a static relation of their init facts, so
// that an engine computes what depends on them once, not in every state.
// The propnet grounds the rewritten rules; the compiled prover evaluates
// them once at start-up.
package fixedfluent

import (
	"embed"
	"fmt"
	"sort"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Source is this package's code, hashed into the versions of the engines
// that use it.
//
//go:embed *.go
var Source embed.FS

// Rewrite returns the rules rewritten to read the fixed state terms from
// static relations named #fixed_NAME_ARITY, or nil when the game has none.
// The frame rules stay, so the terms stay in every state; in every state
// reachable from the initial one, the rewritten rules derive what the
// original rules do.
func Rewrite(rules []*gdl.Rule) []*gdl.Rule {
	fixed := find(rules)
	if len(fixed) == 0 {
		return nil
	}
	return rewrite(rules, fixed)
}

// key is the functor and arity of state terms.
type key struct {
	name  gdl.Symbol
	arity int
}

// find finds the state terms that never change: those whose only
// next rules are frame rules (<= (next (f ?v1 .. ?vk)) (true (f ?v1 ..
// ?vk))) with distinct variables, such as the walls of a maze. In every
// reachable state they are exactly their init facts.
func find(rules []*gdl.Rule) map[key]bool {
	frame := map[key]bool{}
	other := map[key]bool{}
	for _, r := range rules {
		if r.Head.Name != gdl.SymNext || len(r.Head.Args) != 1 {
			continue
		}
		x := r.Head.Args[0]
		if x.Kind == gdl.Var {
			return nil // any term may change
		}
		k := key{x.Name, len(x.Args)}
		if isFrame(r) {
			frame[k] = true
		} else {
			other[k] = true
		}
	}
	fixed := map[key]bool{}
	for k := range frame {
		if !other[k] {
			fixed[k] = true
		}
	}
	return fixed
}

func isFrame(r *gdl.Rule) bool {
	if len(r.Body) != 1 || r.Body[0].Kind != gdl.LitAtom || r.Body[0].Atom.Name != gdl.SymTrue {
		return false
	}
	x, y := r.Head.Args[0], r.Body[0].Atom.Args[0]
	if !x.Equal(y) {
		return false
	}
	seen := map[gdl.Symbol]bool{}
	for _, a := range x.Args {
		if a.Kind != gdl.Var || seen[a.Name] {
			return false
		}
		seen[a.Name] = true
	}
	return true
}

// rewrite rewrites the rules to read fixed state terms from a
// static relation made of their init facts, (#fixed_f args) :- (init (f
// args)), instead of from true: the relations that read them become static
// and are evaluated exactly instead of being grounded over every
// combination. The frame rules stay, so the facts stay in the state.
func rewrite(rules []*gdl.Rule, fixed map[key]bool) []*gdl.Rule {
	names := map[key]gdl.Symbol{}
	name := func(k key) gdl.Symbol {
		if n, ok := names[k]; ok {
			return n
		}
		n := gdl.Intern(fmt.Sprintf("#fixed_%s_%d", k.name.Name(), k.arity))
		names[k] = n
		return n
	}
	out := make([]*gdl.Rule, 0, len(rules)+len(fixed))
	for _, r := range rules {
		if r.Head.Name == gdl.SymNext && isFrame(r) {
			out = append(out, r)
			continue
		}
		var body []*gdl.Literal
		for i, l := range r.Body {
			if l.Atom == nil || l.Atom.Name != gdl.SymTrue || len(l.Atom.Args) != 1 {
				continue
			}
			x := l.Atom.Args[0]
			k := key{x.Name, len(x.Args)}
			if x.Kind == gdl.Var || !fixed[k] {
				continue
			}
			if body == nil {
				body = append([]*gdl.Literal(nil), r.Body...)
			}
			var atom *gdl.Term
			if x.Kind == gdl.Const {
				atom = gdl.NewConst(name(k))
			} else {
				atom = gdl.NewFunc(name(k), x.Args...)
			}
			nl := *l
			nl.Atom = atom
			body[i] = &nl
		}
		if body == nil {
			out = append(out, r)
			continue
		}
		out = append(out, &gdl.Rule{Head: r.Head, Body: body, Pos: r.Pos})
	}
	keys := make([]key, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].name != keys[j].name {
			return keys[i].name.Name() < keys[j].name.Name()
		}
		return keys[i].arity < keys[j].arity
	})
	for _, k := range keys {
		var x, h *gdl.Term
		if k.arity == 0 {
			x, h = gdl.NewConst(k.name), gdl.NewConst(names[k])
		} else {
			args := make([]*gdl.Term, k.arity)
			for i := range args {
				args[i] = gdl.NewVar(gdl.Intern(fmt.Sprintf("?v%d", i)))
			}
			x, h = gdl.NewFunc(k.name, args...), gdl.NewFunc(names[k], args...)
		}
		out = append(out, &gdl.Rule{Head: h, Body: []*gdl.Literal{{Kind: gdl.LitAtom, Atom: gdl.NewFunc(gdl.SymInit, x)}}})
	}
	return out
}
