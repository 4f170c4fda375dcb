package gdl

import (
	"strconv"
	"strings"
)

// MagicSets rewrites a game with the magic-sets transformation (Bancilhon,
// Maier, Sagiv and Ullman 1986; Beeri and Ramakrishnan 1991), so that
// bottom-up evaluation computes only the tuples that the questions demand,
// as a top-down prover would. It is the fallback for games whose relations
// are too large (or too slow) to compute whole, typically relations written
// for a top-down reader and always asked with some arguments bound.
//
// Each relation r asked with bound arguments at positions α (read left to
// right through each body, as the prover reads it) gets a copy "r α" whose
// rules start with the literal "magic r α"(the bound arguments); the magic
// relation collects the bindings asked for, from the literals before each
// call. The questions (legal, next, goal, terminal, init) stay whole, and so
// do the relations in keep (static relations small enough to compute once).
//
// Relations in whole are computed whole wherever they are called (their
// own calls are still rewritten); callers put there the relations whose
// rewriting closes a cycle through a negation (the Negated of the
// *RuleCycleError that RuleGroups returns for the rewritten rules, mapped
// back through orig), and rewrite again. orig maps every new name to the
// relation it copies. The result is nil when the rewritten game would have
// over MaxMagicRules rules.
func MagicSets(g *Game, keep, whole map[Symbol]bool) (*Game, map[Symbol]Symbol) {
	return magicSets(g, keep, whole, nil, true)
}

// MagicSetsShared is MagicSets with one copy per adornment, shared by
// every call site (the classic transformation): much smaller where calls
// nest deep, but a negation closes a cycle through a shared magic
// relation more often. Callers then compute the relation negated whole
// (whole), or leave its negations out of the magic relations' rules
// (loose): a call site's demand is then a superset of what the prover
// asks (a magic relation only narrows what its copy computes, so the
// answers asked are the same), and a shared magic relation no longer
// depends on the relation negated before the call. Slaughter's
// (magic blocks_bishop_threat ...) read (not (threatened_with_capture ...)),
// whose shared copies read blocks_bishop_threat's magic relation: a cycle
// that computing the relation whole did not break, and its copies per call
// site made 7,320 rules, past the source limit.
func MagicSetsShared(g *Game, keep, whole, loose map[Symbol]bool) (*Game, map[Symbol]Symbol) {
	return magicSets(g, keep, whole, loose, false)
}

// IsMagic says whether name is a magic relation of a rewritten game.
func IsMagic(name Symbol) bool {
	return strings.HasPrefix(name.Name(), "magic ")
}

func magicSets(g *Game, keep, whole, loose map[Symbol]bool, perSite bool) (*Game, map[Symbol]Symbol) {
	orig := map[Symbol]Symbol{}
	a := g.Analysis
	idb := func(name Symbol) bool {
		r := a.Relations[name]
		return r != nil && len(r.Rules) > 0 && !keep[name] &&
			name != SymTrue && name != SymDoes
	}
	// With perSite, a copy is made per adornment and per call site (a
	// calling copy, rule and literal; calls within one strongly connected
	// component share their caller's context): demand from different call
	// sites is kept apart, so that a negation cannot close a cycle through
	// a shared magic relation, as magic sets otherwise can do to a
	// stratified program. Without it, every call site of an adornment
	// shares one context, "*". Copies asked with every argument free have
	// no magic relation and are shared.
	type adorned struct {
		name Symbol
		ad   string
		ctx  string
	}
	names := map[adorned]Symbol{}
	magics := map[adorned]Symbol{}
	ctxOf := map[Symbol]string{} // copy -> its context
	var work []adorned
	adorn := func(name Symbol, ad string, ctx string) Symbol {
		if !strings.Contains(ad, "b") {
			ctx = ""
		}
		k := adorned{name, ad, ctx}
		if s, ok := names[k]; ok {
			return s
		}
		s := name
		if ctx != "" {
			// a space keeps the name apart from every name a game can have
			suffix := " " + ad + " #" + strconv.Itoa(len(names))
			s = Intern(name.Name() + suffix)
			magics[k] = Intern("magic " + name.Name() + suffix)
			orig[magics[k]] = name
		}
		orig[s] = name
		ctxOf[s] = ctx
		names[k] = s
		work = append(work, k)
		return s
	}
	var out []*Rule
	seenMagic := map[string]bool{}
	// the facts and rules of relations left whole
	for _, r := range g.Rules {
		if !idb(r.Head.Name) {
			out = append(out, r)
		}
	}
	for _, root := range []Symbol{SymInit, SymLegal, SymNext, SymGoal, SymTerminal} {
		if rel := a.Relations[root]; rel != nil && idb(root) {
			adorn(root, strings.Repeat("f", rel.Arity), "")
		}
	}
	for len(work) > 0 {
		k := work[0]
		work = work[1:]
		self := names[k]
		if len(out) > MaxMagicRules {
			return nil, nil
		}
		for ri, r := range a.Relations[k.name].Rules {
			bound := map[Symbol]bool{}
			// body is the rewritten rule's body; prefix, the magic
			// relations' (the negations of loose left out)
			var body, prefix []*Literal
			if m, ok := magics[k]; ok {
				var args []*Term
				for i, c := range k.ad {
					if c == 'b' {
						args = append(args, r.Head.Args[i])
						for _, v := range r.Head.Args[i].Vars(nil) {
							bound[v] = true
						}
					}
				}
				body = append(body, &Literal{Kind: LitAtom, Atom: magicAtom(m, args), Pos: r.Pos})
				prefix = append(prefix, body[0])
			}
			for li, l := range r.Body {
				if (l.Kind != LitAtom && l.Kind != LitNot) || !idb(l.Atom.Name) {
					body = append(body, l)
					if l.Kind != LitNot || !loose[l.Atom.Name] {
						prefix = append(prefix, l)
					}
					if l.Kind == LitAtom {
						for _, v := range l.Atom.Vars(nil) {
							bound[v] = true
						}
					}
					continue
				}
				var ad strings.Builder
				var bargs []*Term
				for _, t := range l.Atom.Args {
					if groundUnder(t, bound) && !whole[l.Atom.Name] {
						ad.WriteByte('b')
						bargs = append(bargs, t)
					} else {
						ad.WriteByte('f')
					}
				}
				// the call site: calling copy, rule and literal
				ctx := strconv.Itoa(int(self)) + "@" + strconv.Itoa(ri) + "." + strconv.Itoa(li)
				if a.Relations[l.Atom.Name].SCC == a.Relations[k.name].SCC {
					ctx = ctxOf[self]
				}
				if !perSite && ctx != "" {
					ctx = "*" // one context for every call site
				}
				name := adorn(l.Atom.Name, ad.String(), ctx)
				if m, ok := magics[adorned{l.Atom.Name, ad.String(), ctx}]; ok {
					mr := &Rule{Head: magicAtom(m, bargs), Body: append([]*Literal(nil), prefix...), Pos: l.Pos}
					// shared: call sites with the same prefix (the
					// rules of an expanded or) make the same rule
					if text := mr.String(); !seenMagic[text] {
						seenMagic[text] = true
						out = append(out, mr)
					}
				}
				nl := &Literal{Kind: l.Kind, Atom: magicAtom(name, l.Atom.Args), Pos: l.Pos}
				if l.Atom.Kind != Func {
					nl.Atom = &Term{Kind: Const, Name: name, Pos: l.Atom.Pos}
				}
				body = append(body, nl)
				if l.Kind != LitNot || !loose[l.Atom.Name] {
					prefix = append(prefix, nl)
				}
				if l.Kind == LitAtom {
					for _, v := range l.Atom.Vars(nil) {
						bound[v] = true
					}
				}
			}
			head := magicAtom(names[k], r.Head.Args)
			if r.Head.Kind != Func {
				head = &Term{Kind: Const, Name: names[k], Pos: r.Head.Pos}
			}
			out = append(out, &Rule{Head: head, Body: body, Pos: r.Pos})
		}
	}
	return &Game{File: g.File, Rules: out, Roles: g.Roles, Findings: g.Findings, Analysis: Analyse(out)}, orig
}

// MaxMagicRules bounds the rewritten game: copies per calling context can
// multiply with the depth of the calls.
const MaxMagicRules = 50_000

func magicAtom(name Symbol, args []*Term) *Term {
	if len(args) == 0 {
		return &Term{Kind: Const, Name: name}
	}
	return &Term{Kind: Func, Name: name, Args: args}
}

func groundUnder(t *Term, bound map[Symbol]bool) bool {
	switch t.Kind {
	case Var:
		return bound[t.Name]
	case Func:
		for _, a := range t.Args {
			if !groundUnder(a, bound) {
				return false
			}
		}
	}
	return true
}
