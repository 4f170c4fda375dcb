package gdl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func groupsOf(t *testing.T, src string, set ...string) ([][]string, []bool, error) {
	t.Helper()
	g, err := Check("g.kif", []byte(src), DefaultLimits) // cleaned rules; findings do not matter here
	require.NoError(t, err)
	rules := g.Rules
	inSet := map[Symbol]bool{}
	for _, s := range set {
		inSet[Intern(s)] = true
	}
	var in []*Rule
	for _, r := range rules {
		if inSet[r.Head.Name] {
			in = append(in, r)
		}
	}
	groups, rec, err := RuleGroups(in, inSet)
	var texts [][]string
	for _, g := range groups {
		var ts []string
		for _, r := range g {
			ts = append(ts, r.String())
		}
		texts = append(texts, ts)
	}
	return texts, rec, err
}

func TestRuleGroups(t *testing.T) {
	// Stratified only by the arguments: the rule for 0 comes after the
	// rule for 100, each in its own group.
	groups, rec, err := groupsOf(t, `
		(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))
		(<= (goal ?r 100) (role ?r) (true (won ?r)))`, "goal")
	require.NoError(t, err)
	require.Len(t, groups, 2)
	assert.Contains(t, groups[0][0], "(goal ?r 100)")
	assert.Contains(t, groups[1][0], "(goal ?r 0)")
	assert.Equal(t, []bool{false, false}, rec)

	// Recursion without negation: one recursive group.
	groups, rec, err = groupsOf(t, `
		(<= (reach ?x) (start ?x))
		(<= (reach ?y) (reach ?x) (edge ?x ?y))`, "reach")
	require.NoError(t, err)
	assert.Len(t, groups, 1)
	assert.Equal(t, []bool{true}, rec)

	// A negation inside a cycle of rules.
	_, _, err = groupsOf(t, `
		(<= (p ?x) (q ?x))
		(<= (q ?x) (r ?x) (not (p ?x)))`, "p", "q")
	var ce *RuleCycleError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Equal(t, Intern("p"), ce.Negated)
	assert.Contains(t, err.Error(), "not stratified, even rule by rule")
}
