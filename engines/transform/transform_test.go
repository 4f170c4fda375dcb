package transform

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

// tiny is a two-step game of two roles that the table's rules extend.
const tiny = `(role a) (role b)
(init (s 0))
(<= (legal ?r go) (role ?r))
(<= (next (s 1)) (true (s 0)))
(<= (next (s 2)) (true (s 1)))
(<= terminal (true (s 2)))
`

// kissmann is the example of Kissmann's lecture: (distinct ?y b) belongs
// right after (p ?x ?y), which binds ?y.
const kissmann = `(role a) (role b)
(init (s 0))
(<= (legal ?r go) (role ?r))
(<= (next (s 1)) (true (s 0)))
(<= terminal (true (s 1)))
(p a c) (p b b) (p b d) (q c 100) (q b 50) (q d 0)
`

func lines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") {
			out = append(out, l)
		}
	}
	return out
}

func TestTransformsRewriteAsDocumented(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		chain    string
		want     []string // rules in the output
		wantNot  []string // texts not in the output
		wantRule int      // change in the number of rules (0: not checked)
		wantSame bool     // the output loads to the original's rules as engines load it
	}{
		{
			name:  "reorder puts distinct right after the literal that binds its variable",
			src:   kissmann + "(<= (goal ?x ?z) (p ?x ?y) (q ?y ?z) (distinct ?y b))\n",
			chain: "reorder",
			want:  []string{"(<= (goal ?x ?z) (p ?x ?y) (distinct ?y b) (q ?y ?z))"},
			// gdl.Load places distinct after its binders as well
			wantSame: true,
		},
		{
			name:  "reorder undoes the adversarial order",
			src:   kissmann + "(<= (goal ?x ?z) (distinct ?y b) (p ?x ?y) (q ?y ?z))\n",
			chain: "adversarial,reorder",
			want:  []string{"(<= (goal ?x ?z) (p ?x ?y) (distinct ?y b) (q ?y ?z))"},
			// gdl.Load places distinct after its binders as well
			wantSame: true,
		},
		{
			name:  "adversarial puts distinct last and the most general literal first",
			src:   kissmann + "(<= (goal ?x ?z) (p ?x ?y) (q ?y ?z) (distinct ?y b))\n(<= (goal ?x 0) (p ?x c) (p ?x ?y) (distinct ?y c))\n",
			chain: "adversarial",
			want:  []string{"(<= (goal ?x ?z) (p ?x ?y) (q ?y ?z) (distinct ?y b))", "(<= (goal ?x 0) (p ?x ?y) (p ?x c) (distinct ?y c))"},
		},
		{
			name:  "reorder puts does and tests first, then the fewest new variables, dynamic first",
			src:   tiny + "(goal a 100) (goal b 0)\n(cnt 0) (cnt 1) (cnt 2)\n(<= (next (t ?n)) (true (s ?n)) (cnt ?n) (does a go) (true (s 1)))\n(<= (next (u ?n ?m)) (true (s ?n)) (cnt ?m) (cnt ?n))\n",
			chain: "reorder",
			want:  []string{"(<= (next (t ?n)) (does a go) (true (s 1)) (true (s ?n)) (cnt ?n))", "(<= (next (u ?n ?m)) (true (s ?n)) (cnt ?n) (cnt ?m))"},
		},
		{
			name:  "reorder counts the role of legal and goal as bound",
			src:   tiny + "(goal a 100) (goal b 0)\n(cnt 0) (cnt 1)\n(<= (legal ?r (pick ?n)) (cnt ?n) (true (s ?r)))\n",
			chain: "reorder",
			want:  []string{"(<= (legal ?r (pick ?n)) (true (s ?r)) (cnt ?n))"},
		},
		{
			name:     "deor expands or into one rule per disjunct",
			src:      tiny + "(goal a 100)\n(<= (goal b 0) (or (true (s 2)) (true (s 3))))\n",
			chain:    "deor",
			want:     []string{"(<= (goal b 0) (true (s 2)))", "(<= (goal b 0) (true (s 3)))"},
			wantNot:  []string{"(or "},
			wantRule: 1,
			wantSame: true, // gdl.Load expands or as deor does
		},
		{
			name:     "inline replaces a relation used once by its bodies",
			src:      tiny + "(goal a 100) (goal b 0)\n(<= (next (s 3)) over)\n(<= over (true (s 1)) (true (s 0)))\n(<= over (true (s 2)))\n",
			chain:    "inline",
			want:     []string{"(<= (next (s 3)) (true (s 1)) (true (s 0)))", "(<= (next (s 3)) (true (s 2)))"},
			wantNot:  []string{"over"},
			wantRule: 0,
		},
		{
			name:     "inline unifies the literal with the heads and drops rules that cannot match",
			src:      tiny + "(goal a 100) (goal b 0)\n(<= (next (r ?x)) (pick ?x c) (true (s 0)))\n(<= (pick ?v ?v) (true (s ?v)))\n(pick 1 d)\n",
			chain:    "inline",
			want:     []string{"(<= (next (r c)) (true (s c)) (true (s 0)))"},
			wantNot:  []string{"pick"},
			wantRule: -2,
		},
		{
			name:     "dedupe removes a variant and a subsumed rule",
			src:      tiny + "(goal a 100) (goal b 0) (goal b 0)\n(<= (legal ?q go) (role ?q))\n(<= (legal ?r go) (role ?r) (true (s 0)))\n",
			chain:    "dedupe",
			want:     []string{"(<= (legal ?r go) (role ?r))"},
			wantNot:  []string{"?q", "(role ?r) (true (s 0))"},
			wantRule: -3,
		},
		{
			name:    "dedupe removes a repeated conjunct",
			src:     tiny + "(goal a 100) (goal b 0)\n(<= (next (s 3)) (true (s 1)) (not (true (s 0))) (true (s 1)) (not (true (s 0))))\n",
			chain:   "dedupe",
			want:    []string{"(<= (next (s 3)) (not (true (s 0))) (true (s 1)))"},
			wantNot: []string{"(true (s 1)) (true (s 1))", "(not (true (s 0))) (not (true (s 0)))", "(true (s 1)) (not"},
		},
		{
			name:     "condense splits a long body through a new relation",
			src:      tiny + "(goal a 100) (goal b 0)\n(cnt 0) (cnt 1)\n(<= (next (w ?x ?y)) (cnt ?x) (cnt ?y) (distinct ?x ?y) (true (s ?x)) (true (s 0)))\n",
			chain:    "condense",
			want:     []string{"(<= (condense_1 ?x ?y) (cnt ?x) (cnt ?y))", "(<= (next (w ?x ?y)) (condense_1 ?x ?y) (distinct ?x ?y) (true (s ?x)) (true (s 0)))"},
			wantRule: 1,
		},
		{
			name:     "optimise is deor and dedupe, the authors' order kept",
			src:      kissmann + "(<= (goal ?x ?z) (distinct ?y b) (q ?y ?z) (or (p ?x ?y) (p ?x ?y)))\n",
			chain:    "optimise",
			want:     []string{"(<= (goal ?x ?z) (q ?y ?z) (distinct ?y b) (p ?x ?y))"},
			wantRule: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names, err := ParseNames(tt.chain)
			require.NoError(t, err)
			orig, err := gdl.Load("t.kif", []byte(tt.src))
			require.NoError(t, err, "the test's game must be valid")
			res, err := Run(names, 1, "t.kif", []byte(tt.src))
			require.NoError(t, err)
			got := lines(res.Text)
			for _, w := range tt.want {
				assert.Contains(t, got, w, "output:\n%s", res.Text)
			}
			for _, w := range tt.wantNot {
				assert.NotContains(t, string(res.Text), w)
			}
			assert.Equal(t, tt.wantSame, res.Unchanged, "Unchanged")
			assert.Equal(t, len(orig.Rules), res.Loaded)
			if tt.wantRule != 0 {
				raw, _, err := gdl.Parse("t.kif", []byte(tt.src), gdl.DefaultLimits)
				require.NoError(t, err)
				assert.Equal(t, len(raw)+tt.wantRule, len(got), "output:\n%s", res.Text)
			}
			requireEquivalent(t, lookup(t, prover.Name), namedGame{"t.kif", []byte(tt.src), orig}, res, 1, 3)
		})
	}
}

// TestTransformsOfBuiltinGamesAreValidAndEquivalent: every transform of
// every built-in game loads without an error and plays as the original
// does, with the prover (and the tuple prover, outside short mode), for
// three seeds of four rollouts each.
func TestTransformsOfBuiltinGamesAreValidAndEquivalent(t *testing.T) {
	for _, g := range builtinGames(t) {
		for _, name := range checkedTransforms {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("%s/%s/%d", g.name, name, seed), func(t *testing.T) {
					res, err := Run([]string{name}, seed, g.name, g.src)
					require.NoError(t, err)
					again, err := gdl.Check("out.kif", res.Text, gdl.DefaultLimits)
					require.NoError(t, err)
					assert.Empty(t, again.Findings.Errors())
					for _, e := range engineNames() {
						requireEquivalent(t, lookup(t, e), g, res, seed, 4)
					}
				})
			}
		}
	}
}

// TestShuffleDependsOnTheSeed: two seeds give two rulesheets, the role
// facts keep their order, and one seed gives the same text twice.
func TestShuffleDependsOnTheSeed(t *testing.T) {
	g := builtinGames(t)[0]
	for _, name := range []string{Shuffle, Rename} {
		a, err := Apply([]string{name}, 1, g.src)
		require.NoError(t, err)
		b, err := Apply([]string{name}, 2, g.src)
		require.NoError(t, err)
		again, err := Apply([]string{name}, 1, g.src)
		require.NoError(t, err)
		assert.NotEqual(t, lines(a), lines(b), name)
		assert.Equal(t, a, again, name)
	}
	res, err := Run([]string{Shuffle}, 7, g.name, g.src)
	require.NoError(t, err)
	assert.Equal(t, termTexts(g.game.Roles, nil), termTexts(res.Game.Roles, nil))
}

// TestRenameKeepsOnlyKeywordsAndNumbers: no name of the original but the
// keywords and numbers is left, and Back maps every state fact and move of
// the renamed game to one of the original.
func TestRenameKeepsOnlyKeywordsAndNumbers(t *testing.T) {
	for _, g := range builtinGames(t) {
		res, err := Run([]string{Rename}, 5, g.name, g.src)
		require.NoError(t, err)
		require.NotNil(t, res.Renaming)
		renamed := (&state{rules: res.Rules}).names()
		for n := range (&state{rules: g.game.Rules}).names() {
			if kept(n) {
				continue
			}
			assert.False(t, renamed[n], "%s: %s is still there", g.name, n)
		}
		assert.Equal(t, termTexts(g.game.Roles, nil), termTexts(res.Game.Roles, res.Back))
		for _, r := range res.Rules {
			assert.Equal(t, res.Renaming.Forth(res.Back(r.String())), r.String())
		}
	}
}

// TestEquivalenceCatchesBrokenRewrites: a rewrite that changes the game (a
// next rule dropped, a renaming that maps two names back to one) is a
// mismatch, so the equivalence tests can fail.
func TestEquivalenceCatchesBrokenRewrites(t *testing.T) {
	g := builtinGames(t)[len(builtinGames(t))-1] // tictactoe
	require.Equal(t, "tictactoe", g.name)
	p := lookup(t, prover.Name)

	res, err := Run([]string{Reorder}, 1, g.name, g.src)
	require.NoError(t, err)
	var kept []*gdl.Rule
	dropped := false
	for _, r := range res.Rules {
		if !dropped && r.Head.Name == gdl.SymNext && len(r.Body) > 1 {
			dropped = true
			continue
		}
		kept = append(kept, r)
	}
	broken, err := gdl.Load("broken", Print(kept, ""))
	require.NoError(t, err)
	m, err := equivalent(p, g.game, &Result{Names: []string{"broken"}, Game: broken}, 1, 4)
	require.NoError(t, err)
	assert.NotNil(t, m, "dropping a next rule must be seen")

	ren, err := Run([]string{Rename}, 1, g.name, g.src)
	require.NoError(t, err)
	bad := &Renaming{From: map[string]string{}, To: ren.Renaming.To}
	for k, v := range ren.Renaming.From {
		bad.From[k] = v
		if v == "x" {
			bad.From[k] = "o" // x's word maps back to o
		}
	}
	ren.Renaming = bad
	m, err = equivalent(p, g.game, ren, 1, 2)
	require.NoError(t, err)
	assert.NotNil(t, m, "a wrong renaming must be seen")
}

// TestRunRefusesBadInput: unknown names and invalid games are errors that
// name them.
func TestRunRefusesBadInput(t *testing.T) {
	_, err := ParseNames("reorder,frobnicate")
	require.ErrorContains(t, err, `unknown transform "frobnicate"`)
	_, err = ParseNames(" , ")
	require.ErrorContains(t, err, "no transform named")
	_, err = Run([]string{Reorder}, 1, "bad.kif", []byte("(role a)"))
	require.ErrorContains(t, err, "the game is invalid")
	assert.Len(t, Names(), 9)
	for _, in := range Names() {
		assert.True(t, Known(in.Name))
		assert.NotEmpty(t, in.Summary)
	}
}

// TestMapTraceAndFollowOnTheSameGame: mapping with the identity and
// following a trace of the same machine gives the trace back.
func TestMapTraceAndFollowOnTheSameGame(t *testing.T) {
	g := builtinGames(t)[0]
	p := lookup(t, prover.Name)
	m, err := p.New(g.game)
	require.NoError(t, err)
	var tr bytes.Buffer
	require.NoError(t, traceOf(&tr, m, 3, 3))
	var mapped, followed bytes.Buffer
	require.NoError(t, MapTrace(bytes.NewReader(tr.Bytes()), &mapped, func(s string) string { return s }))
	m2, err := p.New(g.game)
	require.NoError(t, err)
	require.NoError(t, Follow(&followed, m2, bytes.NewReader(mapped.Bytes())))
	mm, err := conform.CompareTraces(bytes.NewReader(tr.Bytes()), &followed)
	require.NoError(t, err)
	assert.Nil(t, mm)
}

// engineNames are the engines the equivalence tests play: the prover, and
// the tuple prover too outside short mode (its setup takes most of a
// second per game).
func engineNames() []string {
	if testing.Short() {
		return []string{prover.Name}
	}
	return []string{prover.Name, tupleprover.Name}
}
