package prover

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

const testGames = "../../../shared/reference/ggp-base-test-games"

// play drives a machine by move texts.
type play struct {
	t *testing.T
	m engines.Machine
	s engines.State
}

func load(t *testing.T, name string) *play {
	t.Helper()
	path := filepath.Join(testGames, name+".kif")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("reference games not found: %v", err)
	}
	g, err := gdl.LoadFile(path)
	require.NoError(t, err)
	m := NewMachine(g)
	s, err := m.Initial()
	require.NoError(t, err)
	return &play{t: t, m: m, s: s}
}

func (p *play) legal(role int) []string {
	p.t.Helper()
	moves, err := p.m.Legal(p.s, role)
	require.NoError(p.t, err)
	out := make([]string, len(moves))
	for i, mv := range moves {
		out[i] = p.m.MoveText(mv)
	}
	sort.Strings(out)
	return out
}

func (p *play) terminal() bool {
	p.t.Helper()
	term, err := p.m.Terminal(p.s)
	require.NoError(p.t, err)
	return term
}

func (p *play) goals() []int {
	p.t.Helper()
	g, err := p.m.Goals(p.s)
	require.NoError(p.t, err)
	return g
}

// move plays one move text per role, each of which must be legal.
func (p *play) move(texts ...string) {
	p.t.Helper()
	require.Len(p.t, texts, len(p.m.Roles()))
	joint := make([]engines.Move, len(texts))
	for r, text := range texts {
		moves, err := p.m.Legal(p.s, r)
		require.NoError(p.t, err)
		found := false
		for _, mv := range moves {
			if p.m.MoveText(mv) == text {
				joint[r], found = mv, true
			}
		}
		require.True(p.t, found, "%s is not legal for role %d; legal: %v", text, r, p.legal(r))
	}
	s, err := p.m.Next(p.s, joint)
	require.NoError(p.t, err)
	p.s = s
}

func (p *play) state() []string { return p.m.StateFacts(p.s) }

func TestTicTacToe(t *testing.T) {
	p := load(t, "ticTacToe")
	assert.Equal(t, []string{"xplayer", "oplayer"}, p.m.Roles())
	assert.False(t, p.terminal())
	assert.Len(t, p.legal(0), 9)
	assert.Equal(t, []string{"noop"}, p.legal(1))
	seq := [][2]string{
		{"(mark 1 1)", "noop"},
		{"noop", "(mark 1 3)"},
		{"(mark 3 1)", "noop"},
		{"noop", "(mark 2 2)"},
		{"(mark 2 1)", "noop"},
	}
	for i, mv := range seq {
		assert.False(t, p.terminal(), "state before move %d", i)
		p.move(mv[0], mv[1])
	}
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100, 0}, p.goals())
}

func TestCase1a(t *testing.T) {
	p := load(t, "test_case_1a")
	assert.False(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
	p.move("proceed")
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestCase1b(t *testing.T) {
	p := load(t, "test_case_1b")
	assert.Equal(t, []string{"lose", "win"}, p.legal(0))
	win := load(t, "test_case_1b")
	win.move("win")
	assert.True(t, win.terminal())
	assert.Equal(t, []int{100}, win.goals())
	p.move("lose")
	_, err := p.m.Legal(p.s, 0)
	var ge *engines.GameError
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, engines.NoLegalMove, ge.Kind)
	assert.True(t, p.terminal())
	assert.Equal(t, []int{0}, p.goals())
}

func TestCase2a(t *testing.T) {
	p := load(t, "test_case_2a")
	assert.Equal(t, []string{"(move move_next 0 1)"}, p.legal(0))
	for i := 0; i < 4; i++ {
		require.False(t, p.terminal())
		require.Len(t, p.legal(0), 1)
		p.move(p.legal(0)[0])
	}
	assert.Contains(t, p.state(), "(state 4)")
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestCase3a(t *testing.T) {
	p := load(t, "test_case_3a")
	assert.Equal(t, []string{"(move correct_correct)"}, p.legal(0))
	p.move("(move correct_correct)")
	assert.Equal(t, []string{"correct_correct"}, p.state())
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestCase3c(t *testing.T) {
	p := load(t, "test_case_3c")
	assert.Equal(t, []string{"win"}, p.legal(0))
	p.move("win")
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestCase3d(t *testing.T) {
	p := load(t, "test_case_3d")
	assert.Equal(t, []string{"(cell alpha)"}, p.state())
	assert.Equal(t, []string{"win"}, p.legal(0))
	p.move("win")
	assert.Equal(t, []string{"winner"}, p.state())
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestCase4a(t *testing.T) {
	p := load(t, "test_case_4a")
	assert.Equal(t, []string{"p"}, p.state())
	assert.Equal(t, []string{"a"}, p.legal(0))
	p.move("a")
	assert.Equal(t, []string{"q"}, p.state())
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestRecursionCases(t *testing.T) {
	t.Run("5a function terms", func(t *testing.T) {
		p := load(t, "test_case_5a")
		assert.Equal(t, []string{"proceed"}, p.legal(0))
		p.move("proceed")
		assert.True(t, p.terminal())
		assert.Equal(t, []int{100}, p.goals())
	})
	t.Run("5b doubled variables", func(t *testing.T) {
		p := load(t, "test_case_5b")
		assert.Equal(t, []string{"(draw 1 1 1 2)"}, p.legal(0))
		p.move("(draw 1 1 1 2)")
		assert.Equal(t, []string{"(line 1 1 1 2)", "done"}, p.state())
		assert.True(t, p.terminal())
		assert.Equal(t, []int{100}, p.goals())
	})
	t.Run("5c self-supporting recursion", func(t *testing.T) {
		p := load(t, "test_case_5c")
		assert.Equal(t, []string{"proceed"}, p.legal(0))
		p.move("proceed")
		assert.True(t, p.terminal())
		assert.Equal(t, []int{100}, p.goals())
	})
	t.Run("5d mutual recursion in init", func(t *testing.T) {
		p := load(t, "test_case_5d")
		assert.Equal(t, []string{"(rtrue 1 2)", "(rtrue 2 1)", "(strue 1 2)", "(strue 2 1)"}, p.state())
		assert.Equal(t, []string{"proceed"}, p.legal(0))
		p.move("proceed")
		assert.True(t, p.terminal())
		assert.Equal(t, []int{100}, p.goals())
	})
	t.Run("5e left recursion", func(t *testing.T) {
		p := load(t, "test_case_5e")
		assert.Equal(t, []string{"(reduce a 0)", "(reduce a 1)", "(reduce c 0)", "(reduce c 1)", "(reduce c 2)", "(reduce c 3)", "(reduce c 4)"}, p.legal(0))
	})
}

func TestCleanNotDistinct(t *testing.T) {
	p := load(t, "test_clean_not_distinct")
	assert.Equal(t, []int{100}, p.goals())
	assert.Equal(t, []string{"proceed"}, p.legal(0))
	p.move("proceed")
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestDistinctBeginningRule(t *testing.T) {
	p := load(t, "test_distinct_beginning_rule")
	assert.Equal(t, []string{"(do a b)", "(do b a)"}, p.legal(0))
	p.move("(do a b)")
	assert.True(t, p.terminal())
	assert.Equal(t, []int{100}, p.goals())
}

func TestFunctionAritiesDiffer(t *testing.T) {
	for _, mv := range []string{"(a 1)", "(a 2 3)"} {
		p := load(t, "test_invalid_function_arities_differ")
		assert.Equal(t, []string{"(a 1)", "(a 2 3)"}, p.legal(0))
		p.move(mv)
		assert.Equal(t, []string{"q"}, p.state())
		assert.True(t, p.terminal())
		assert.Equal(t, []int{100}, p.goals())
	}
}

func TestSimpleMutex(t *testing.T) {
	p := load(t, "simpleMutex")
	assert.Equal(t, []string{"h1", "t1"}, p.state())
	assert.Equal(t, []string{"a", "b", "c"}, p.legal(0))
}

func TestConnectFourRoles(t *testing.T) {
	p := load(t, "connectFour")
	assert.Equal(t, []string{"red", "black"}, p.m.Roles())
}

func TestInvalidGamesRejected(t *testing.T) {
	for _, tt := range []struct {
		name, code string
	}{
		{"test_case_3b", gdl.CodeUnsafe},
		{"test_case_3e", gdl.CodeUnsafe},
		{"test_case_3f", gdl.CodeUnsafe},
		{"test_invalid_sentence_arities_differ", gdl.CodeSentenceArity},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(testGames, tt.name+".kif")
			if _, err := os.Stat(path); err != nil {
				t.Skip(err)
			}
			_, err := gdl.LoadFile(path)
			var inv *gdl.InvalidError
			require.ErrorAs(t, err, &inv)
			assert.True(t, inv.Findings.HasCode(tt.code), "findings: %v", inv.Findings)
		})
	}
}
