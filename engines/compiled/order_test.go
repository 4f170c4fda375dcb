package compiled

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// growSrc: ok and oklist are one recursive group; ok's recursive rule,
// led by a new row of oklist, can scan ok for (cons ?h ?t) or read node
// first and look the list up (laikLee_hex's magic append_el, rewritten by
// magic sets).
const growSrc = `(role p)
(init (at a))
(node a) (node b) (node c)
(<= (ok ?x (cons ?x nil)) (true (at ?x)))
(<= (oklist ?t) (ok ?x ?t))
(<= (ok ?x ?t) (oklist ?t) (ok ?x (cons ?h ?t)) (node ?h) (distinct ?x ?h))
(legal p go)
(<= (next (at ?x)) (true (at ?x)))
(<= terminal (oklist nil))
(goal p 100)
`

// TestGrowingScan: in a delta plan, a relation of the recursive group
// with no argument bound is scanned whole for each new row, round after
// round: the join order reads the static node first (the list then a term
// to look up), though the estimates make ok the smaller; the plan over
// all rows (no leader) keeps ok first.
func TestGrowingScan(t *testing.T) {
	// a rewritten game, as magic sets makes them: not within GDL's
	// recursion restriction
	g, err := gdl.Check("grow.kif", []byte(growSrc), gdl.DefaultLimits)
	require.NoError(t, err)
	gen := newGenerator(g, "bu", maxSourceBytes, defaultSizeLimits)
	gen.sizes = newSizer(g, defaultSizeLimits, nil)
	ok, oklist, node := gdl.Intern("ok"), gdl.Intern("oklist"), gdl.Intern("node")
	gen.sizes.stats[ok] = &sizeStats{n: 100, dist: []float64{3, 3}, count: 1}
	gen.sizes.stats[oklist] = &sizeStats{n: 10, dist: []float64{10}, count: 1}
	gen.sizes.stats[node] = &sizeStats{n: 200, dist: []float64{200}, count: 1}
	_, err = gen.run("v", "sha")
	require.NoError(t, err)

	// the delta plans of the program: none led by oklist scans ok whole
	led := 0
	for _, fn := range strings.Split(gen.code.String(), "\nfunc ") {
		if strings.Contains(fn, fmt.Sprintf("R%d.ScanDelta()", gen.rels[oklist].id)) {
			led++
			assert.NotContains(t, fn, fmt.Sprintf("R%d.ScanAll()", gen.rels[ok].id), fn)
		}
	}
	assert.Equal(t, 1, led, "one delta plan led by oklist")

	var rule *gdl.Rule
	for _, r := range g.Analysis.Relations[ok].Rules {
		if len(r.Body) == 4 {
			rule = r
		}
	}
	require.NotNil(t, rule)
	pos := func(order []int, name gdl.Symbol) int {
		return slices.IndexFunc(order, func(i int) bool { return rule.Body[i].Atom != nil && rule.Body[i].Atom.Name == name })
	}
	whole, err := gen.order(rule, -1)
	require.NoError(t, err)
	assert.Less(t, pos(whole, ok), pos(whole, node), "no leader: ok is the smaller")

	gen.growing = map[*grel]bool{gen.rels[ok]: true, gen.rels[oklist]: true}
	delta, err := gen.order(rule, 0)
	gen.growing = nil
	require.NoError(t, err)
	assert.Equal(t, 0, pos(delta, oklist), "the leader")
	assert.Less(t, pos(delta, node), pos(delta, ok), "node before the growing ok: %v", delta)
}

// TestBaseRound: the first, naive round of a recursive group has no plan
// for a rule that reads a relation of the group with no facts (empty in
// that round: its rows are the next round's delta); with facts, every
// rule has one.
func TestBaseRound(t *testing.T) {
	for _, c := range []struct {
		facts string
		plans int
	}{{"", 1}, {"(ok a nil)\n(oklist nil)\n", 3}} {
		g, err := gdl.Check("grow.kif", []byte(growSrc+c.facts), gdl.DefaultLimits)
		require.NoError(t, err)
		gen := newGenerator(g, "bu", maxSourceBytes, defaultSizeLimits)
		_, err = gen.run("v", "sha")
		require.NoError(t, err)
		var base string
		for _, fn := range strings.Split(gen.code.String(), "\nfunc ") {
			if name, _, _ := strings.Cut(fn, "("); strings.HasSuffix(name, "base") {
				base = fn
			}
		}
		require.NotEmpty(t, base, "the recursive group's naive round")
		assert.Equal(t, c.plans, strings.Count(base, "\tp"), "facts %q: %s", c.facts, base)
	}
}

// TestDeltaPlanIndexes: a delta plan, run for every new row of every
// round, probes a small relation by its index where a plan over all rows
// scans it (an index is rebuilt in every state; laikLee_hex's delta plans
// scanned a list relation whole for each new row: 46% of its
// instructions).
func TestDeltaPlanIndexes(t *testing.T) {
	src := `(role p)
(init (at a)) (init (link a b)) (init (link b c))
(<= (edge ?x ?y) (true (link ?x ?y)))
(<= (reach ?x) (true (at ?x)))
(<= (reach ?y) (reach ?x) (edge ?x ?y))
(<= (seen ?y) (true (at ?x)) (edge ?x ?y))
(legal p go)
(<= (next (at ?x)) (true (at ?x)))
(<= terminal (reach c))
(<= terminal (seen c))
(goal p 100)
`
	g, err := gdl.Check("delta.kif", []byte(src), gdl.DefaultLimits)
	require.NoError(t, err)
	gen := newGenerator(g, "bu", maxSourceBytes, defaultSizeLimits)
	gen.sizes = newSizer(g, defaultSizeLimits, nil)
	reach, edge := gdl.Intern("reach"), gdl.Intern("edge")
	gen.sizes.stats[edge] = &sizeStats{n: 3, dist: []float64{3, 3}, count: 1}
	gen.sizes.stats[reach] = &sizeStats{n: 3, dist: []float64{3}, count: 1}
	_, err = gen.run("v", "sha")
	require.NoError(t, err)
	scan := fmt.Sprintf("R%d.ScanAll()", gen.rels[edge].id)
	find := fmt.Sprintf("X%d_", gen.rels[edge].id)
	led, scanned := 0, 0
	for _, fn := range strings.Split(gen.code.String(), "\nfunc ") {
		if strings.Contains(fn, fmt.Sprintf("R%d.ScanDelta()", gen.rels[reach].id)) {
			led++
			assert.Contains(t, fn, find, "the delta plan probes edge's index: %s", fn)
			assert.NotContains(t, fn, scan, fn)
		} else if strings.Contains(fn, scan) {
			scanned++
		}
	}
	assert.Equal(t, 1, led, "one delta plan led by reach")
	assert.Positive(t, scanned, "a plan over all rows (seen's) scans the small edge")
}
