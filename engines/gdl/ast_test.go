package gdl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// term parses one ground or non-ground term, written as a fact's argument.
func term(t *testing.T, s string) *Term {
	t.Helper()
	rules, fs := mustParse(t, "(t "+s+")")
	require.Empty(t, fs)
	require.Len(t, rules, 1)
	return rules[0].Head.Args[0]
}

func TestTermPredicates(t *testing.T) {
	tests := []struct {
		name     string
		term     string
		ground   bool
		vars     []string
		arity    int
		wantKind TermKind
	}{
		{name: "constant", term: "a", ground: true, arity: 0, wantKind: Const},
		{name: "variable", term: "?x", ground: false, vars: []string{"?x"}, wantKind: Var},
		{name: "ground function", term: "(f a (g b))", ground: true, arity: 2, wantKind: Func},
		{name: "variables in order of first occurrence, once", term: "(f ?y (g ?x ?y) ?x ?z)", vars: []string{"?y", "?x", "?z"}, arity: 4, wantKind: Func},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := term(t, tt.term)
			assert.Equal(t, tt.wantKind, x.Kind)
			assert.Equal(t, tt.ground, x.IsGround())
			assert.Equal(t, tt.arity, x.Arity())
			var vars []string
			for _, v := range x.Vars(nil) {
				vars = append(vars, v.Name())
			}
			assert.Equal(t, tt.vars, vars)
		})
	}
}

func TestTermEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{name: "same constant", a: "a", b: "a", want: true},
		{name: "constants", a: "a", b: "b"},
		{name: "constant and variable", a: "?a", b: "a"},
		{name: "same function at other positions", a: "(f ?x (g a))", b: "(f ?x\n (g a))", want: true},
		{name: "other arity", a: "(f a)", b: "(f a a)"},
		{name: "other argument", a: "(f (g a))", b: "(f (g b))"},
		{name: "constant and function", a: "f", b: "(f a)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, term(t, tt.a).Equal(term(t, tt.b)))
			assert.Equal(t, tt.want, term(t, tt.b).Equal(term(t, tt.a)))
		})
	}
}

func TestSubstApply(t *testing.T) {
	x := Intern("?x")
	s := Subst{x: term(t, "(f a)")}
	tests := []struct {
		name      string
		term      string
		want      string
		unchanged bool
	}{
		{name: "bound variable", term: "?x", want: "(f a)"},
		{name: "free variable", term: "?y", want: "?y", unchanged: true},
		{name: "constant", term: "a", want: "a", unchanged: true},
		{name: "inside functions", term: "(g ?y (h ?x) ?x)", want: "(g ?y (h (f a)) (f a))"},
		{name: "function without bound variables", term: "(g ?y (h b))", want: "(g ?y (h b))", unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := term(t, tt.term)
			before := in.String()
			got := s.Apply(in)
			assert.Equal(t, tt.want, got.String())
			assert.Equal(t, before, in.String(), "Apply does not change its argument")
			if tt.unchanged {
				assert.Same(t, in, got, "unchanged terms are shared")
			}
		})
	}
}

func TestSortedStrings(t *testing.T) {
	terms := []*Term{term(t, "(cell 2 1 b)"), term(t, "(cell 1 1 x)"), term(t, "(control o)"), term(t, "(cell 1 1 b)")}
	assert.Equal(t, []string{"(cell 1 1 b)", "(cell 1 1 x)", "(cell 2 1 b)", "(control o)"}, SortedStrings(terms))
	assert.Empty(t, SortedStrings(nil))
}
