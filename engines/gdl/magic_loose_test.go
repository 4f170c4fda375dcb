package gdl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// stratified returns the error of the first strongly connected set of g's
// relations whose rules negate a sentence of their own recursion, or nil.
func stratified(g *gdl.Game) error {
	for _, comp := range g.Analysis.Components() {
		inSet := map[gdl.Symbol]bool{}
		var rules []*gdl.Rule
		for _, name := range comp {
			inSet[name] = true
			rules = append(rules, g.Analysis.Relations[name].Rules...)
		}
		if _, _, err := gdl.RuleGroups(rules, inSet); err != nil {
			return err
		}
	}
	return nil
}

// TestMagicSetsLoose: the shared copies of enginetest.LooseMagicGame
// close a cycle through (not (blocked ?x)); with blocked's negation left
// out of the magic relations' rules they are stratified, and ahead's
// magic relation reads only the state (a superset of the demand) while
// blocked is still asked through a copy.
func TestMagicSetsLoose(t *testing.T) {
	g, err := gdl.Load("loose.kif", []byte(enginetest.LooseMagicGame))
	require.NoError(t, err)
	require.NoError(t, stratified(g))
	blocked, ahead := gdl.Intern("blocked"), gdl.Intern("ahead")

	strict, _ := gdl.MagicSetsShared(g, nil, nil, nil)
	require.NotNil(t, strict)
	var ce *gdl.RuleCycleError
	require.ErrorAs(t, stratified(strict), &ce, "shared copies close a cycle through the negation")

	loose, orig := gdl.MagicSetsShared(g, nil, nil, map[gdl.Symbol]bool{blocked: true})
	require.NotNil(t, loose)
	require.NoError(t, stratified(loose))
	magicAhead, copies := 0, 0
	for _, r := range loose.Rules {
		if gdl.IsMagic(r.Head.Name) && orig[r.Head.Name] == ahead {
			magicAhead++
			for _, l := range r.Body {
				assert.NotEqual(t, gdl.LitNot, l.Kind, "a negation left in %s", r)
			}
		}
	}
	for name := range loose.Analysis.Relations {
		if orig[name] == blocked && name != blocked && !gdl.IsMagic(name) {
			copies++
		}
	}
	assert.Positive(t, magicAhead)
	assert.Equal(t, 1, copies, "blocked is asked through a copy")
}
