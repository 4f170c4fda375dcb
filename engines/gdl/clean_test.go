package gdl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clean parses src and cleans it with lim.
func clean(t *testing.T, src string, lim Limits) ([]string, Findings) {
	t.Helper()
	rules, pf, err := Parse("game.kif", []byte(src), lim)
	require.NoError(t, err)
	require.Empty(t, pf.Errors(), "parse findings: %s", describe(pf))
	out, fs := Clean("game.kif", rules, lim)
	return ruleStrings(out), fs
}

func TestCleanOrExpansion(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantRules []string
	}{
		{
			name:      "no or",
			src:       "(<= p a b)",
			wantRules: []string{"(<= p a b)"},
		},
		{
			name:      "one or",
			src:       "(<= p (or a b))",
			wantRules: []string{"(<= p a)", "(<= p b)"},
		},
		{
			name:      "or of one",
			src:       "(<= p c (or a))",
			wantRules: []string{"(<= p c a)"},
		},
		{
			name:      "two ors give every combination in order",
			src:       "(<= p (or a b) x (or c d))",
			wantRules: []string{"(<= p a x c)", "(<= p a x d)", "(<= p b x c)", "(<= p b x d)"},
		},
		{
			name:      "nested or",
			src:       "(<= p (or a (or b c)))",
			wantRules: []string{"(<= p a)", "(<= p b)", "(<= p c)"},
		},
		{
			name:      "or with a negation inside (a ground not goes first)",
			src:       "(<= p q (or a (not b)))",
			wantRules: []string{"(<= p q a)", "(<= p (not b) q)"},
		},
		{
			name:      "not over or",
			src:       "(<= p q (not (or a b)))",
			wantRules: []string{"(<= p (not a) (not b) q)"},
		},
		{
			name:      "not over nested or",
			src:       "(<= p q (not (or a (or b c))))",
			wantRules: []string{"(<= p (not a) (not b) (not c) q)"},
		},
		{
			name:      "not over or with relations",
			src:       "(<= (p ?x) (q ?x) (not (or (r ?x) (s ?x a))))",
			wantRules: []string{"(<= (p ?x) (q ?x) (not (r ?x)) (not (s ?x a)))"},
		},
		{
			name:      "or with variables keeps the head",
			src:       "(<= (p ?x) (or (q ?x) (r ?x)))",
			wantRules: []string{"(<= (p ?x) (q ?x))", "(<= (p ?x) (r ?x))"},
		},
		{
			name:      "or containing a distinct is reordered per alternative",
			src:       "(<= (p ?x) (or (distinct ?x a) (q ?x)) (r ?x))",
			wantRules: []string{"(<= (p ?x) (r ?x) (distinct ?x a))", "(<= (p ?x) (q ?x) (r ?x))"},
		},
		{
			name:      "facts pass through",
			src:       "(role x)\n(init (cell 1))",
			wantRules: []string{"(role x)", "(init (cell 1))"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs := clean(t, tt.src, DefaultLimits)
			assert.Equal(t, tt.wantRules, got)
			assert.Empty(t, fs)
		})
	}
}

func TestCleanKeepsRulePositions(t *testing.T) {
	rules, _, err := Parse("", []byte("(role x)\n(<= p\n  (or a b))"), DefaultLimits)
	require.NoError(t, err)
	out, _ := Clean("", rules, DefaultLimits)
	require.Len(t, out, 3)
	assert.Equal(t, Pos{2, 1}, out[1].Pos)
	assert.Equal(t, Pos{2, 1}, out[2].Pos)
	assert.Equal(t, Pos{3, 7}, out[1].Body[0].Pos)
	assert.Equal(t, Pos{3, 9}, out[2].Body[0].Pos)
}

// Clean builds new rules; the parsed rules stay as they were.
func TestCleanDoesNotChangeItsInput(t *testing.T) {
	src := "(<= (p ?x) (distinct ?x a) (or (q ?x) (r ?x)) (not (distinct ?x ?y)) (s ?y))"
	rules, _, err := Parse("", []byte(src), DefaultLimits)
	require.NoError(t, err)
	before := ruleStrings(rules)
	first, _ := Clean("", rules, DefaultLimits)
	assert.Equal(t, before, ruleStrings(rules))
	second, _ := Clean("", rules, DefaultLimits)
	assert.Equal(t, ruleStrings(first), ruleStrings(second))
}

func TestCleanOrExpansionBudget(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		lim       Limits
		wantPos   Pos
		wantRules int // rules kept before the budget ran out
	}{
		{
			name:    "product of ors over MaxRules",
			src:     "(role x)\n(<= p" + strings.Repeat(" (or a b)", 7) + ")",
			lim:     Limits{MaxRules: 100},
			wantPos: Pos{2, 1}, wantRules: 1,
		},
		{
			name:    "one or with more alternatives than MaxRules",
			src:     "(<= p (or a b c d e f g h i j k))",
			lim:     Limits{MaxRules: 10},
			wantPos: Pos{1, 7}, wantRules: 0,
		},
		{
			name:    "nested or with more alternatives than MaxRules",
			src:     "(<= p (or a b (or c d (or e f g))))",
			lim:     Limits{MaxRules: 5},
			wantPos: Pos{1, 7}, wantRules: 0,
		},
		{
			name:    "budget shared by all rules",
			src:     "(<= p (or a b c d))\n(<= q (or a b c d))\n(<= r (or a b c d))\n(<= s (or a b c d))",
			lim:     Limits{MaxRules: 10},
			wantPos: Pos{3, 1}, wantRules: 8,
		},
		{
			name:    "doubling with the default limits",
			src:     "(<= p" + strings.Repeat(" (or a b)", 60) + ")",
			lim:     DefaultLimits,
			wantPos: Pos{1, 1}, wantRules: 0,
		},
		{
			name:    "wide ors with the default limits",
			src:     "(<= p" + strings.Repeat(" (or a b c d e f g h i j)", 6) + ")",
			lim:     DefaultLimits,
			wantPos: Pos{1, 1}, wantRules: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, fs := clean(t, tt.src, tt.lim)
			assert.Less(t, time.Since(start), 2*time.Second, "the budget must stop the expansion early")
			assert.Len(t, got, tt.wantRules)
			errs := fs.Errors()
			require.Len(t, errs, 1, "findings: %s", describe(fs))
			assert.Equal(t, CodeOrExpansion, errs[0].Code)
			assert.Equal(t, tt.wantPos, errs[0].Pos)
		})
	}
}

func TestCleanOrExpansionWithinBudget(t *testing.T) {
	got, fs := clean(t, "(<= p"+strings.Repeat(" (or a b)", 3)+")", Limits{MaxRules: 8})
	assert.Len(t, got, 8)
	assert.Empty(t, fs)
}

func TestCheckReportsOrExpansion(t *testing.T) {
	g := mustCheck(t, tinyGame+"(<= (goal robot 0)"+strings.Repeat(" (or (true (cell a)) (true (cell b)))", 20)+")")
	assert.True(t, g.Findings.Errors().HasCode(CodeOrExpansion), "findings: %s", describe(g.Findings))
}

func TestCleanNotDistinct(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		wantRules    []string
		wantWarnings int
		wantPos      Pos
	}{
		{
			name:         "variables unified, substituted into the head",
			src:          "(<= (b ?x) (c ?y) (domain ?x) (not (distinct ?x ?y)))",
			wantRules:    []string{"(<= (b ?y) (c ?y) (domain ?y))"},
			wantWarnings: 1, wantPos: Pos{1, 31},
		},
		{
			name:         "constant first",
			src:          "(<= (d 3) (c ?y) (not (distinct 3 ?y)))",
			wantRules:    []string{"(<= (d 3) (c 3))"},
			wantWarnings: 1, wantPos: Pos{1, 18},
		},
		{
			name:         "constant second",
			src:          "(<= (d ?y) (c ?y) (not (distinct ?y 3)))",
			wantRules:    []string{"(<= (d 3) (c 3))"},
			wantWarnings: 1, wantPos: Pos{1, 19},
		},
		{
			name:         "equal constants: the literal goes away",
			src:          "(<= a (not (distinct p p)))",
			wantRules:    []string{"a"},
			wantWarnings: 1, wantPos: Pos{1, 7},
		},
		{
			name:         "different constants: the rule is dropped",
			src:          "(role r)\n(<= z (not (distinct p q)))",
			wantRules:    []string{"(role r)"},
			wantWarnings: 1, wantPos: Pos{2, 7},
		},
		{
			name:         "different functions: the rule is dropped",
			src:          "(<= (z ?x) (q ?x) (not (distinct (f ?x) (g ?x))))",
			wantRules:    nil,
			wantWarnings: 1, wantPos: Pos{1, 19},
		},
		{
			name:         "function term substituted into the head",
			src:          "(<= (p ?x) (q ?y) (not (distinct ?x (f ?y))))",
			wantRules:    []string{"(<= (p (f ?y)) (q ?y))"},
			wantWarnings: 1, wantPos: Pos{1, 19},
		},
		{
			name:         "unification inside functions",
			src:          "(<= (p ?x ?y) (q ?z) (not (distinct (f ?x b) (f a ?y))))",
			wantRules:    []string{"(<= (p a b) (q ?z))"},
			wantWarnings: 1, wantPos: Pos{1, 22},
		},
		{
			name:         "occurs check: the rule is dropped",
			src:          "(<= (p ?x) (q ?x) (not (distinct ?x (f ?x))))",
			wantRules:    nil,
			wantWarnings: 1, wantPos: Pos{1, 19},
		},
		{
			name:         "two equalities chained",
			src:          "(<= (p ?x ?z) (q ?x) (not (distinct ?x ?y)) (not (distinct ?y ?z)))",
			wantRules:    []string{"(<= (p ?z ?z) (q ?z))"},
			wantWarnings: 2, wantPos: Pos{1, 22},
		},
		{
			name:         "substituted into negations and distincts",
			src:          "(<= (p ?x) (q ?x) (r ?y) (not (s ?y)) (distinct ?y c) (not (distinct ?x ?y)))",
			wantRules:    []string{"(<= (p ?y) (q ?y) (not (s ?y)) (distinct ?y c) (r ?y))"},
			wantWarnings: 1, wantPos: Pos{1, 55},
		},
		{
			name:         "inside an or",
			src:          "(<= p (or (not (distinct a b)) c))",
			wantRules:    []string{"(<= p c)"},
			wantWarnings: 1, wantPos: Pos{1, 11},
		},
		{
			name:         "inside a negated or: not (a != b or c) is a = b and not c",
			src:          "(<= p d (not (or (distinct a a) c)))",
			wantRules:    []string{"(<= p (not c) d)"},
			wantWarnings: 1, wantPos: Pos{1, 18},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs := clean(t, tt.src, DefaultLimits)
			assert.Equal(t, tt.wantRules, nilIfEmpty(got))
			assert.Empty(t, fs.Errors(), "findings: %s", describe(fs))
			warns := withCode(fs, CodeNotDistinct)
			require.Len(t, warns, tt.wantWarnings, "findings: %s", describe(fs))
			assert.Equal(t, Warning, warns[0].Severity)
			assert.Equal(t, tt.wantPos, warns[0].Pos)
			assert.Contains(t, warns[0].Msg, "(not (distinct ")
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// One (not (distinct ..)) in the file is one warning, however many rules an
// (or ...) in the same rule expands into.
func TestCleanNotDistinctWarnsOncePerLiteral(t *testing.T) {
	got, fs := clean(t, "(<= (p ?x) (q ?x ?y) (or a b c) (not (distinct ?x ?y)))", DefaultLimits)
	assert.Equal(t, []string{"(<= (p ?y) (q ?y ?y) a)", "(<= (p ?y) (q ?y ?y) b)", "(<= (p ?y) (q ?y ?y) c)"}, got)
	assert.Len(t, withCode(fs, CodeNotDistinct), 1, "findings: %s", describe(fs))
}

func TestCleanOrdersDistinctAndNot(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{
			name: "distinct after the literals binding its variables",
			src:  "(<= (r ?x ?y) (distinct ?x ?y) (p ?x) (q ?y))",
			want: "(<= (r ?x ?y) (p ?x) (q ?y) (distinct ?x ?y))",
		},
		{
			name: "not right after the literal that binds it",
			src:  "(<= (r ?x) (not (s ?x)) (p ?x) (q ?x))",
			want: "(<= (r ?x) (p ?x) (not (s ?x)) (q ?x))",
		},
		{
			name: "each placed as early as possible, in their order",
			src:  "(<= (r ?x ?y) (distinct ?y b) (not (s ?x)) (p ?x) (q ?y))",
			want: "(<= (r ?x ?y) (p ?x) (not (s ?x)) (q ?y) (distinct ?y b))",
		},
		{
			name: "ground ones first",
			src:  "(<= (r ?x) (p ?x) (not s) (distinct a b))",
			want: "(<= (r ?x) (not s) (distinct a b) (p ?x))",
		},
		{
			name: "already in place",
			src:  "(<= (r ?x) (p ?x) (distinct ?x a) (q ?x))",
			want: "(<= (r ?x) (p ?x) (distinct ?x a) (q ?x))",
		},
		{
			name: "positive literals keep their order",
			src:  "(<= (r ?x) (q ?x) (p ?x) (o ?x))",
			want: "(<= (r ?x) (q ?x) (p ?x) (o ?x))",
		},
		{
			name: "variables inside functions",
			src:  "(<= (r ?x) (not (t (f ?x ?y))) (p (g ?x)) (q (h ?y)))",
			want: "(<= (r ?x) (p (g ?x)) (q (h ?y)) (not (t (f ?x ?y))))",
		},
		{
			name: "never bound: last, for the validator to report",
			src:  "(<= r (distinct ?z a) (p ?x) (not (q ?w)))",
			want: "(<= r (p ?x) (distinct ?z a) (not (q ?w)))",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs := clean(t, tt.src, DefaultLimits)
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0])
			assert.Empty(t, fs)
		})
	}
}

func TestCleanNegationErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		wantPos Pos
	}{
		{name: "not not", src: "(<= r q (not (not p)))", wantPos: Pos{1, 9}},
		{name: "not not inside or", src: "(<= r q (or a (not (not p))))", wantPos: Pos{1, 15}},
		{name: "not over or with a not inside", src: "(<= r q (not (or a (not b))))", wantPos: Pos{1, 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs := clean(t, tt.src, DefaultLimits)
			assert.Empty(t, got, "a rule with a bad negation is dropped")
			errs := fs.Errors()
			require.Len(t, errs, 1, "findings: %s", describe(fs))
			assert.Equal(t, CodeNegation, errs[0].Code)
			assert.Equal(t, tt.wantPos, errs[0].Pos)
		})
	}
}

func TestCheckRejectsDoubleNegation(t *testing.T) {
	g := mustCheck(t, tinyGame+"(<= (goal robot 0) (not (not (true (cell a)))))")
	assert.True(t, g.Findings.Errors().HasCode(CodeNegation), "findings: %s", describe(g.Findings))
}

// MaxRules bounds every rule, with or without (or ...); a file of plain
// facts over the budget is over a size limit (code limit), not an
// or-expansion, and the message must not blame an (or ...) it does not have.
func TestCleanRuleBudgetWithoutOr(t *testing.T) {
	_, fs := clean(t, "(f 1)\n(f 2)\n(f 3)\n(f 4)", Limits{MaxRules: 3})
	errs := fs.Errors()
	require.Len(t, errs, 1, "findings: %s", describe(fs))
	assert.Equal(t, CodeLimit, errs[0].Code)
	assert.NotContains(t, errs[0].Msg, "(or")
	assert.Equal(t, Pos{4, 1}, errs[0].Pos)
}
