package propnet

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// handNet builds a network by hand: node 0 is false, then one base.
func handNet() (*network, int32) {
	nw := &network{ts: newTerms(), budget: newBudget(Options{}, nil)}
	nw.addNode(kConst, nil, -1)
	b := nw.addNode(kBase, nil, -1)
	nw.bases = []baseProp{{text: "b", node: b, next: mkLit(b, false), init: litTrue}}
	return nw, b
}

func TestNegativeCycleIsRefused(t *testing.T) {
	nw, b := handNet()
	x := nw.addNode(kOr, nil, -1)
	y := nw.addNode(kOr, []lit{mkLit(x, false)}, -1)
	nw.in[x] = []lit{mkLit(b, false), mkLit(y, true)} // x = b or not y, y = x
	nw.terminal = mkLit(y, false)
	err := nw.finish()
	var ref *RefusalError
	require.ErrorAs(t, err, &ref)
	assert.Equal(t, RefuseCycle, ref.Kind)
	assert.Contains(t, err.Error(), "cycle through negation")
}

func TestPositiveCycleIsLeastFixedPoint(t *testing.T) {
	// x = b or y, y = x: both follow b, even after b goes false (a naive
	// counter network would keep them true).
	nw, b := handNet()
	x := nw.addNode(kOr, nil, -1)
	y := nw.addNode(kOr, []lit{mkLit(x, false)}, -1)
	nw.in[x] = []lit{mkLit(b, false), mkLit(y, false)}
	nw.terminal = mkLit(y, false)
	nw.bases[0].next = litFalse // b holds initially, then never again
	require.NoError(t, nw.finish())
	p := compile(nw, LegalAuto, DefaultDeferFanout)
	require.Equal(t, 1, p.stats.CyclicComps)
	for _, mode := range []Mode{Fast, FullPass} {
		m := newMachine(p, mode)
		s, _ := m.Initial()
		term, _ := m.Terminal(s)
		assert.True(t, term, "%v: y holds while b does", mode)
		s, _ = m.Next(s, nil)
		term, _ = m.Terminal(s)
		assert.False(t, term, "%v: y must fall with b", mode)
	}
}

func TestOptimiserFoldsAndMerges(t *testing.T) {
	nw, b := handNet()
	// Two identical gates, one with a true input to drop, and an OR of
	// x and not x.
	a1 := nw.addNode(kAnd, []lit{mkLit(b, false), litTrue, mkLit(b, false)}, -1)
	a2 := nw.addNode(kAnd, []lit{mkLit(b, false)}, -1)
	o := nw.addNode(kOr, []lit{mkLit(a1, false), mkLit(a2, true)}, -1)
	f := nw.addNode(kAnd, []lit{mkLit(b, false), litFalse}, -1)
	nw.terminal = mkLit(o, false)
	nw.goals = [][]goalOut{{{value: 1, ok: true, lit: mkLit(a2, false)}, {value: 2, ok: true, lit: mkLit(f, false)}}}
	nw.bases[0].next = mkLit(b, true)
	require.NoError(t, nw.optimise())
	assert.Equal(t, litTrue, nw.terminal, "b or not b")
	assert.Equal(t, litFalse, nw.goals[0][1].lit, "an AND with false")
	assert.Equal(t, mkLit(nw.bases[0].node, false), nw.goals[0][0].lit, "a single-input AND is its input")
	assert.Len(t, nw.kind, 2, "only the constant and the base are left")
}

func TestEliminateSplitsChains(t *testing.T) {
	src := `(role p)
(n 0) (n 1) (n 2)
(<= (sum ?x ?y ?z) (n ?x) (n ?y) (n ?z))
(init (g 0))
(<= (legal p (set ?x)) (n ?x))
(<= (next (g ?x)) (does p (set ?x)))
(<= (total ?t) (true (g ?a)) (true (g ?b)) (sum ?a ?b ?s) (true (g ?c)) (sum ?s ?c ?t))
(<= terminal (total 2))
(<= (goal p 100) (total 2))
(<= (goal p 0) (not (total 2)))`
	g, err := gdl.Load("chain.kif", []byte(src))
	require.NoError(t, err)
	gr := &grounder{ts: newTerms(), rels: map[gdl.Symbol]*relation{}}
	gr.rel(gdl.Intern("true"), 1).kind = relNet
	gr.rel(gdl.Intern("sum"), 3)
	gr.rel(gdl.Intern("total"), 1).kind = relNet
	var total *gdl.Rule
	for _, r := range g.Rules {
		if r.Head.Name.Name() == "total" {
			total = r
		}
	}
	rules := gr.eliminate(total)
	require.Greater(t, len(rules), 1, "the chain is split")
	for _, r := range rules {
		assert.LessOrEqual(t, len(r.Vars()), 4, "%s joins at most four variables", r)
	}
}

// TestOptimiserCopiesOnlySmallSharedGates: once the optimiser finds gates
// equal and keeps one, the one is read by all that read them; a small one
// is still copied into its readers (flattened), a large one no longer is
// (BASE/shogi_ctk's network grew from 545,407 links to over 3 million in
// the first round, and 30 rounds of factoring brought it back to 2.24
// million).
func TestOptimiserCopiesOnlySmallSharedGates(t *testing.T) {
	for _, tt := range []struct {
		name      string
		width     int
		wantLinks int
	}{
		// five readers of 2 inputs, each with a copy of the gate
		{"small", 8, 5 * (8 + 1)},
		// the first reader, met before the others were found equal,
		// takes the gate's inputs in; the other four read the one gate
		{"large", maxCopy + 8, (maxCopy + 8) + (maxCopy + 9) + 4*2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nw, b := handNet()
			nw.bases[0].next = mkLit(b, true)
			base := func() lit {
				n := nw.addNode(kBase, nil, -1)
				nw.bases = append(nw.bases, baseProp{text: "b", node: n, next: mkLit(n, true), init: litTrue})
				return mkLit(n, false)
			}
			wide := []lit{mkLit(b, false)}
			for len(wide) < tt.width {
				wide = append(wide, base())
			}
			var outs []goalOut
			for i := range 5 {
				w := nw.addNode(kAnd, slices.Clone(wide), -1) // five equal gates
				p := nw.addNode(kAnd, []lit{mkLit(w, false), base()}, -1)
				outs = append(outs, goalOut{value: i, ok: true, lit: mkLit(p, false)})
			}
			nw.goals = [][]goalOut{outs}
			nw.terminal = outs[0].lit
			require.NoError(t, nw.optimise())
			links := 0
			for _, ins := range nw.in {
				links += len(ins)
			}
			assert.Equal(t, tt.wantLinks, links, "a copy of the gate in each of the five readers: %d links", 5*(tt.width+1))
		})
	}
}

// TestPostorderIsTarjansOrderWhenAcyclic pins the order an optimisation
// round visits the nodes of an acyclic network in (the postorder, which
// the round takes once a round has found no cycle) to the order of its
// strongly connected components: with another order the round would keep
// other gates of equal ones and number the network differently.
func TestPostorderIsTarjansOrderWhenAcyclic(t *testing.T) {
	for _, name := range []string{"tictactoe", "connectfour", "breakthrough"} {
		t.Run(name, func(t *testing.T) {
			bg, ok := builtingames.Get(name)
			require.True(t, ok)
			g, err := gdl.Load(bg.File, bg.Rules)
			require.NoError(t, err)
			b := newBudget(Options{}, nil)
			gr, err := ground(g, b)
			require.NoError(t, err)
			nw := buildNetwork(gr, g, b)
			o := &optimiser{nw: nw}
			for round := 0; ; round++ {
				if _, order, start := nw.sccs(); nw.acyclic {
					require.Len(t, start, len(nw.kind), "round %d: every component one node", round)
					require.Equal(t, order, nw.postorder(), "round %d", round)
				}
				changed, err := o.round()
				require.NoError(t, err)
				if !changed || round == 5 {
					require.True(t, nw.acyclic, "the game's network has no cycle")
					require.Positive(t, round, "compared after a round")
					break
				}
			}
		})
	}
}
