package gdl

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const magicSrc = `(role r)
(init (at 1))
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (less ?x ?y) (succ ?x ?y))
(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
(<= (legal r (go ?y)) (true (at ?x)) (less ?x ?y))
(<= (next (at ?y)) (does r (go ?y)))
(<= terminal (true (at 4)))
(goal r 100)
`

func magicRules(g *Game) []string {
	var out []string
	for _, r := range g.Rules {
		if r.Head.Name != SymRole { // the roles are the game's, not rules
			out = append(out, r.String())
		}
	}
	sort.Strings(out)
	return out
}

func TestMagicSets(t *testing.T) {
	g, err := Load("magic.kif", []byte(magicSrc))
	require.NoError(t, err)
	less := Intern("less")

	// less is asked with its first argument bound: a copy of less reads
	// the bindings from a magic relation, filled from legal's state
	g2, orig := MagicSets(g, nil, nil)
	require.NotNil(t, g2)
	var copies, magics []Symbol
	for name := range g2.Analysis.Relations {
		switch {
		case strings.HasPrefix(name.Name(), "magic less "):
			magics = append(magics, name)
		case strings.HasPrefix(name.Name(), "less "):
			copies = append(copies, name)
		}
	}
	require.Len(t, copies, 1)
	require.Len(t, magics, 1)
	assert.Equal(t, less, orig[copies[0]])
	assert.Equal(t, less, orig[magics[0]])
	assert.Contains(t, copies[0].Name(), " bf ")
	assert.True(t, g2.Analysis.UsesState(magics[0]), "the magic relation is filled from the state")
	assert.Nil(t, g2.Analysis.Relations[less], "less is only called through its copy")
	// the questions keep their names and rules' heads
	for _, q := range []Symbol{SymLegal, SymNext, SymTerminal, SymGoal, SymInit} {
		assert.NotNil(t, g2.Analysis.Relations[q], q.Name())
	}
	// the rewritten rules are stratified
	for _, name := range g2.Analysis.Order {
		rel := g2.Analysis.Relations[name]
		if len(rel.Rules) > 0 {
			_, _, err := RuleGroups(rel.Rules, map[Symbol]bool{name: true})
			assert.NoError(t, err, name.Name())
		}
	}

	// kept relations (a set closed under dependencies, as the static
	// relations are) and relations computed whole are not copied
	kept, _ := MagicSets(g, map[Symbol]bool{less: true, Intern("succ"): true}, nil)
	require.NotNil(t, kept)
	assert.Equal(t, magicRules(g), magicRules(kept))
	whole, _ := MagicSets(g, nil, map[Symbol]bool{less: true})
	require.NotNil(t, whole)
	assert.Equal(t, magicRules(g), magicRules(whole))
}

// TestMagicSetsShared: less is asked with its first argument bound from
// two call sites (legal and next). MagicSets makes a copy and a magic
// relation for each; MagicSetsShared one of each, filled from both.
func TestMagicSetsShared(t *testing.T) {
	src := magicSrc + "(<= (next (seen ?y)) (true (at ?x)) (less ?x ?y))\n"
	g, err := Load("magic.kif", []byte(src))
	require.NoError(t, err)
	count := func(g2 *Game) (copies, magics int, magicRules int) {
		for name := range g2.Analysis.Relations {
			switch {
			case strings.HasPrefix(name.Name(), "magic less "):
				magics++
			case strings.HasPrefix(name.Name(), "less "):
				copies++
			}
		}
		for _, r := range g2.Rules {
			if strings.HasPrefix(r.Head.Name.Name(), "magic less ") {
				magicRules++
			}
		}
		return
	}
	perSite, _ := MagicSets(g, nil, nil)
	require.NotNil(t, perSite)
	c, m, mr := count(perSite)
	// each magic relation: its call site's rule and less's recursive call
	assert.Equal(t, []int{2, 2, 4}, []int{c, m, mr}, "a copy per call site")
	shared, orig := MagicSetsShared(g, nil, nil, nil)
	require.NotNil(t, shared)
	c, m, mr = count(shared)
	// the two call sites have the same prefix, (true (at ?x)): one rule
	assert.Equal(t, []int{1, 1, 2}, []int{c, m, mr}, "one copy, its magic relation filled from both call sites")
	for name := range shared.Analysis.Relations {
		if strings.HasPrefix(name.Name(), "less ") {
			assert.Equal(t, Intern("less"), orig[name])
		}
	}
	// the recursive call inside less's copy reads the same copy
	for _, name := range shared.Analysis.Order {
		rel := shared.Analysis.Relations[name]
		if len(rel.Rules) > 0 {
			_, _, err := RuleGroups(rel.Rules, map[Symbol]bool{name: true})
			assert.NoError(t, err, name.Name())
		}
	}
}
