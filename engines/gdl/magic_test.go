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
