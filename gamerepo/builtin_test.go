package gamerepo

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The built-in games are checked against their known answers through the
// reference prover.

// session plays one built-in game through the reference prover.
type session struct {
	t *testing.T
	m engines.Machine
}

func newSession(t *testing.T, name string) *session {
	t.Helper()
	bg, ok := Builtin(name)
	require.True(t, ok, "no built-in game %s", name)
	g, err := gdl.Load(bg.File, bg.Rules)
	require.NoError(t, err)
	e, ok := engines.Lookup(prover.Name)
	require.True(t, ok, "the prover is not registered")
	m, err := e.New(g)
	require.NoError(t, err)
	return &session{t: t, m: m}
}

func (s *session) initial() engines.State {
	s.t.Helper()
	st, err := s.m.Initial()
	require.NoError(s.t, err)
	return st
}

// legal returns the canonical texts of role's legal moves, sorted.
func (s *session) legal(st engines.State, role int) []string {
	s.t.Helper()
	moves, err := s.m.Legal(st, role)
	require.NoError(s.t, err)
	out := make([]string, len(moves))
	for i, mv := range moves {
		out[i] = s.m.MoveText(mv)
	}
	sort.Strings(out)
	return out
}

// move finds role's legal move by its canonical text.
func (s *session) move(st engines.State, role int, text string) engines.Move {
	s.t.Helper()
	moves, err := s.m.Legal(st, role)
	require.NoError(s.t, err)
	for _, mv := range moves {
		if s.m.MoveText(mv) == text {
			return mv
		}
	}
	require.Failf(s.t, "no such legal move", "%s is not a legal move of %s in %v; legal: %v",
		text, s.m.Roles()[role], s.m.StateFacts(st), s.legal(st, role))
	return 0
}

func (s *session) terminal(st engines.State) bool {
	s.t.Helper()
	term, err := s.m.Terminal(st)
	require.NoError(s.t, err)
	return term
}

func (s *session) goals(st engines.State) []int {
	s.t.Helper()
	goals, err := s.m.Goals(st)
	require.NoError(s.t, err)
	return goals
}

// step plays one joint move, given as move texts in role order, from a
// non-terminal state.
func (s *session) step(st engines.State, texts ...string) engines.State {
	s.t.Helper()
	require.Len(s.t, texts, len(s.m.Roles()), "a joint move needs one move per role")
	require.False(s.t, s.terminal(st), "the state %v is terminal before %v", s.m.StateFacts(st), texts)
	joint := make([]engines.Move, len(texts))
	for i, text := range texts {
		joint[i] = s.move(st, i, text)
	}
	next, err := s.m.Next(st, joint)
	require.NoError(s.t, err)
	return next
}

// turns plays moves of a turn-taking game in which the roles move in role
// order from the first one on and the others play noop.
func (s *session) turns(st engines.State, moves ...string) engines.State {
	s.t.Helper()
	return s.turnsFrom(st, 0, moves...)
}

// turnsFrom is turns with the role first on turn for the first move.
func (s *session) turnsFrom(st engines.State, first int, moves ...string) engines.State {
	s.t.Helper()
	n := len(s.m.Roles())
	for i, mv := range moves {
		joint := slices.Repeat([]string{"noop"}, n)
		joint[(first+i)%n] = mv
		st = s.step(st, joint...)
	}
	return st
}

func TestBuiltinList(t *testing.T) {
	games := Builtins()
	require.GreaterOrEqual(t, len(games), 8)
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name
	}
	assert.True(t, sort.StringsAreSorted(names), "sorted by name: %v", names)
	for _, want := range []string{"tictactoe", "connectfour", "breakthrough", "eightpuzzle",
		"threeplayerlines", "rockpaperscissors", "hex", "racetotwentyone"} {
		assert.Contains(t, names, want)
	}
	for _, g := range games {
		t.Run(g.Name, func(t *testing.T) {
			assert.Equal(t, "builtin/"+g.Name+".kif", g.File)
			assert.Equal(t, g.Name, strings.ToLower(g.Name), "lower-case name")
			assert.Equal(t, GameKey("builtin", g.Name, g.Rules), g.Key)
			assert.True(t, strings.HasPrefix(g.Key, "BUILTIN/"+g.Name+"/"), g.Key)
			assert.Equal(t, g.Rules, ServedForm(g.Rules), "the file has LF line ends and a final LF")
			first, _, _ := bytes.Cut(g.Rules, []byte("\n"))
			assert.True(t, strings.HasPrefix(string(first), "; "+g.Name+":"), "the first line names the game: %q", first)
			head, _, _ := bytes.Cut(g.Rules, []byte("\n\n"))
			assert.Contains(t, string(head), "Written for gdlperf")
			got, ok := Builtin(g.Name)
			require.True(t, ok)
			assert.Equal(t, g, got)
		})
	}
	_, ok := Builtin("nosuchgame")
	assert.False(t, ok)
	// Builtins returns a copy.
	games[0].Name = "changed"
	assert.NotEqual(t, "changed", Builtins()[0].Name)
}

// TestBuiltinsValid checks that every built-in game loads without errors
// and has no sentence that is undefined or unused.
func TestBuiltinsValid(t *testing.T) {
	games := Builtins()
	require.NotEmpty(t, games)
	for _, bg := range games {
		t.Run(bg.Name, func(t *testing.T) {
			g, err := gdl.Check(bg.File, bg.Rules, gdl.DefaultLimits)
			require.NoError(t, err)
			for _, f := range g.Findings {
				t.Log(f)
			}
			assert.Empty(t, g.Findings.Errors(), "errors")
			for _, code := range []string{gdl.CodeUndefined, gdl.CodeUnused} {
				assert.False(t, g.Findings.HasCode(code), "a finding of code %q", code)
			}
			_, err = gdl.Load(bg.File, bg.Rules)
			assert.NoError(t, err)
		})
	}
}

func TestBuiltinTicTacToe(t *testing.T) {
	s := newSession(t, "tictactoe")
	require.Equal(t, []string{"xplayer", "oplayer"}, s.m.Roles())
	st := s.initial()
	assert.False(t, s.terminal(st))
	assert.Equal(t, []string{
		"(mark 1 1)", "(mark 1 2)", "(mark 1 3)",
		"(mark 2 1)", "(mark 2 2)", "(mark 2 3)",
		"(mark 3 1)", "(mark 3 2)", "(mark 3 3)",
	}, s.legal(st, 0))
	assert.Equal(t, []string{"noop"}, s.legal(st, 1))
	assert.Contains(t, s.m.StateFacts(st), "(control xplayer)")
	assert.Len(t, s.m.StateFacts(st), 10)

	t.Run("x wins a column", func(t *testing.T) {
		s := newSession(t, "tictactoe")
		st := s.turns(s.initial(), "(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)")
		assert.False(t, s.terminal(st))
		assert.Equal(t, []string{"(mark 1 3)", "(mark 2 3)", "(mark 3 1)", "(mark 3 2)", "(mark 3 3)"}, s.legal(st, 0))
		st = s.turns(st, "(mark 1 3)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{100, 0}, s.goals(st))
		assert.Contains(t, s.m.StateFacts(st), "(cell 1 3 x)")
	})
	t.Run("o wins a diagonal", func(t *testing.T) {
		s := newSession(t, "tictactoe")
		st := s.turns(s.initial(), "(mark 1 1)", "(mark 1 3)", "(mark 1 2)", "(mark 2 2)", "(mark 3 3)")
		assert.False(t, s.terminal(st))
		st = s.step(st, "noop", "(mark 3 1)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{0, 100}, s.goals(st))
	})
	t.Run("draw", func(t *testing.T) {
		s := newSession(t, "tictactoe")
		// x o x / x o o / o x x, by columns and rows as (mark X Y).
		st := s.turns(s.initial(),
			"(mark 1 1)", "(mark 2 1)", "(mark 3 1)", "(mark 2 2)", "(mark 1 2)",
			"(mark 1 3)", "(mark 2 3)", "(mark 3 2)", "(mark 3 3)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{50, 50}, s.goals(st))
	})
}

func TestBuiltinConnectFour(t *testing.T) {
	s := newSession(t, "connectfour")
	require.Equal(t, []string{"red", "black"}, s.m.Roles())
	st := s.initial()
	all := []string{"(drop 1)", "(drop 2)", "(drop 3)", "(drop 4)", "(drop 5)", "(drop 6)", "(drop 7)"}
	assert.Equal(t, all, s.legal(st, 0))
	assert.Equal(t, []string{"noop"}, s.legal(st, 1))

	t.Run("a column fills after six drops", func(t *testing.T) {
		s := newSession(t, "connectfour")
		st := s.turns(s.initial(), slices.Repeat([]string{"(drop 1)"}, 6)...)
		assert.False(t, s.terminal(st))
		assert.Equal(t, all[1:], s.legal(st, 0))
		facts := s.m.StateFacts(st)
		for row, who := range []string{"red", "black", "red", "black", "red", "black"} {
			assert.Contains(t, facts, "(cell 1 "+string(rune('1'+row))+" "+who+")")
		}
	})
	t.Run("vertical four", func(t *testing.T) {
		s := newSession(t, "connectfour")
		st := s.turns(s.initial(), "(drop 1)", "(drop 2)", "(drop 1)", "(drop 2)", "(drop 1)", "(drop 2)")
		assert.False(t, s.terminal(st))
		st = s.turns(st, "(drop 1)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{100, 0}, s.goals(st))
	})
	t.Run("horizontal four for black", func(t *testing.T) {
		s := newSession(t, "connectfour")
		st := s.turns(s.initial(), "(drop 1)", "(drop 2)", "(drop 1)", "(drop 3)", "(drop 7)", "(drop 4)", "(drop 1)")
		assert.False(t, s.terminal(st))
		st = s.step(st, "noop", "(drop 5)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{0, 100}, s.goals(st))
	})
	t.Run("rising diagonal", func(t *testing.T) {
		s := newSession(t, "connectfour")
		// red: (1,1) (2,2) (3,3) (4,4); black fills below.
		st := s.turns(s.initial(),
			"(drop 1)", "(drop 2)", "(drop 2)", "(drop 3)", "(drop 3)", "(drop 4)",
			"(drop 3)", "(drop 4)", "(drop 4)", "(drop 7)")
		assert.False(t, s.terminal(st))
		st = s.turns(st, "(drop 4)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{100, 0}, s.goals(st))
	})
}

func TestBuiltinBreakthrough(t *testing.T) {
	s := newSession(t, "breakthrough")
	require.Equal(t, []string{"white", "black"}, s.m.Roles())
	st := s.initial()
	// Only the pawns of row 2 can move: six straight ahead and ten
	// diagonally.
	moves := s.legal(st, 0)
	assert.Len(t, moves, 16)
	assert.Contains(t, moves, "(move 1 2 1 3)")
	assert.Contains(t, moves, "(move 1 2 2 3)")
	assert.NotContains(t, moves, "(move 1 1 1 2)")
	assert.Equal(t, []string{"noop"}, s.legal(st, 1))

	st = s.turns(st,
		"(move 1 2 1 3)", "(move 6 5 6 4)",
		"(move 1 3 1 4)", "(move 6 4 6 3)")
	moves = s.legal(st, 0)
	assert.Contains(t, moves, "(move 1 4 2 5)", "a diagonal capture")
	assert.NotContains(t, moves, "(move 1 4 1 5)", "no straight capture")
	st = s.turns(st, "(move 1 4 2 5)", "(move 6 3 5 2)")
	facts := s.m.StateFacts(st)
	assert.Contains(t, facts, "(cell 2 5 white)")
	assert.Contains(t, facts, "(cell 5 2 black)")
	assert.NotContains(t, facts, "(cell 5 2 white)")
	assert.Contains(t, facts, "(step 6)")
	assert.False(t, s.terminal(st))
	st = s.turns(st, "(move 2 5 1 6)")
	assert.True(t, s.terminal(st))
	assert.Equal(t, []int{100, 0}, s.goals(st))
}

func TestBuiltinEightPuzzle(t *testing.T) {
	solution := []string{"(move 2 3)", "(move 3 3)", "(move 3 2)", "(move 2 2)", "(move 2 1)",
		"(move 1 1)", "(move 1 2)", "(move 2 2)", "(move 2 3)", "(move 3 3)"}
	s := newSession(t, "eightpuzzle")
	require.Equal(t, []string{"player"}, s.m.Roles())
	st := s.initial()
	assert.Equal(t, []string{"(move 1 2)", "(move 2 3)"}, s.legal(st, 0))
	assert.Equal(t, []int{0}, s.goals(st))
	for i, mv := range solution {
		require.False(t, s.terminal(st), "solved after %d moves", i)
		st = s.step(st, mv)
	}
	assert.True(t, s.terminal(st))
	assert.Equal(t, []int{100}, s.goals(st))
	assert.Equal(t, []string{
		"(cell 1 1 1)", "(cell 1 2 4)", "(cell 1 3 7)",
		"(cell 2 1 2)", "(cell 2 2 5)", "(cell 2 3 8)",
		"(cell 3 1 3)", "(cell 3 2 6)", "(cell 3 3 b)",
		"(step 10)",
	}, s.m.StateFacts(st))

	t.Run("unsolved at the step bound", func(t *testing.T) {
		s := newSession(t, "eightpuzzle")
		st := s.initial()
		for i := range 30 {
			require.False(t, s.terminal(st), "terminal after %d moves", i)
			if i%2 == 0 {
				st = s.step(st, "(move 1 2)")
			} else {
				st = s.step(st, "(move 1 3)")
			}
		}
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{0}, s.goals(st))
	})
}

func TestBuiltinThreePlayerLines(t *testing.T) {
	s := newSession(t, "threeplayerlines")
	require.Equal(t, []string{"red", "green", "blue"}, s.m.Roles())
	st := s.initial()
	assert.Len(t, s.legal(st, 0), 16)
	assert.Equal(t, []string{"noop"}, s.legal(st, 1))
	assert.Equal(t, []string{"noop"}, s.legal(st, 2))
	st = s.turns(st, "(claim 1 1)")
	assert.Equal(t, []string{"noop"}, s.legal(st, 0))
	assert.Len(t, s.legal(st, 1), 15)
	st = s.turnsFrom(st, 1, "(claim 1 2)", "(claim 2 2)", "(claim 1 3)", "(claim 2 1)",
		"(claim 3 3)", "(claim 4 1)", "(claim 1 4)")
	assert.False(t, s.terminal(st))
	st = s.step(st, "noop", "noop", "(claim 4 4)")
	assert.True(t, s.terminal(st))
	assert.Equal(t, []int{0, 0, 100}, s.goals(st))
}

func TestBuiltinRockPaperScissors(t *testing.T) {
	s := newSession(t, "rockpaperscissors")
	require.Equal(t, []string{"left", "right"}, s.m.Roles())
	st := s.initial()
	hands := []string{"(throw paper)", "(throw rock)", "(throw scissors)"}
	// Simultaneous moves: both roles choose in the same state.
	assert.Equal(t, hands, s.legal(st, 0))
	assert.Equal(t, hands, s.legal(st, 1))

	t.Run("three won rounds end the game", func(t *testing.T) {
		s := newSession(t, "rockpaperscissors")
		st := s.initial()
		st = s.step(st, "(throw rock)", "(throw scissors)")
		st = s.step(st, "(throw rock)", "(throw paper)")
		st = s.step(st, "(throw paper)", "(throw rock)")
		assert.Equal(t, []string{"(round 3)", "(wins left 2)", "(wins right 1)"}, s.m.StateFacts(st))
		assert.False(t, s.terminal(st))
		st = s.step(st, "(throw scissors)", "(throw paper)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{100, 0}, s.goals(st))
	})
	t.Run("nine rounds at most", func(t *testing.T) {
		s := newSession(t, "rockpaperscissors")
		st := s.initial()
		for i := range 9 {
			require.False(t, s.terminal(st), "terminal after %d rounds", i)
			st = s.step(st, "(throw rock)", "(throw rock)")
		}
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{50, 50}, s.goals(st))
	})
	t.Run("more won rounds at the bound", func(t *testing.T) {
		s := newSession(t, "rockpaperscissors")
		st := s.initial()
		st = s.step(st, "(throw rock)", "(throw paper)")
		for range 8 {
			st = s.step(st, "(throw rock)", "(throw rock)")
		}
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{0, 100}, s.goals(st))
	})
}

func TestBuiltinHex(t *testing.T) {
	blue := []string{"(place 5 1)", "(place 5 2)", "(place 5 3)", "(place 5 4)"}
	interleave := func(red, blue []string) []string {
		var out []string
		for i, mv := range red {
			out = append(out, mv)
			if i < len(blue) {
				out = append(out, blue[i])
			}
		}
		return out
	}
	tests := []struct {
		name      string
		red, blue []string
		terminal  bool
		goals     []int
	}{
		{"straight chain", []string{"(place 1 1)", "(place 1 2)", "(place 1 3)", "(place 1 4)", "(place 1 5)"}, blue, true, []int{100, 0}},
		{"chain through the short diagonals", []string{"(place 3 1)", "(place 2 2)", "(place 2 3)", "(place 1 4)", "(place 1 5)"}, blue, true, []int{100, 0}},
		{"the long diagonal does not touch", []string{"(place 1 1)", "(place 2 2)", "(place 3 3)", "(place 4 4)", "(place 5 5)"}, blue, false, []int{0, 0}},
		{"blue across", []string{"(place 1 1)", "(place 2 1)", "(place 3 1)", "(place 4 1)", "(place 1 5)"},
			[]string{"(place 1 3)", "(place 2 3)", "(place 3 2)", "(place 4 2)", "(place 5 1)"}, true, []int{0, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t, "hex")
			require.Equal(t, []string{"red", "blue"}, s.m.Roles())
			st := s.initial()
			assert.Len(t, s.legal(st, 0), 25)
			moves := interleave(tt.red, tt.blue)
			st = s.turns(st, moves[:len(moves)-1]...)
			assert.False(t, s.terminal(st))
			st = s.turnsFrom(st, len(moves)-1, moves[len(moves)-1])
			assert.Equal(t, tt.terminal, s.terminal(st))
			assert.Equal(t, tt.goals, s.goals(st))
		})
	}
}

func TestBuiltinRaceToTwentyOne(t *testing.T) {
	s := newSession(t, "racetotwentyone")
	require.Equal(t, []string{"first", "second"}, s.m.Roles())
	st := s.initial()
	assert.Equal(t, []string{"(add 1)", "(add 2)", "(add 3)"}, s.legal(st, 0))
	assert.Equal(t, []string{"noop"}, s.legal(st, 1))

	t.Run("the step counter ends the game", func(t *testing.T) {
		s := newSession(t, "racetotwentyone")
		st := s.turns(s.initial(), slices.Repeat([]string{"(add 1)"}, 11)...)
		assert.False(t, s.terminal(st))
		assert.Equal(t, []string{"(control second)", "(step 11)", "(total 11)"}, s.m.StateFacts(st))
		st = s.step(st, "noop", "(add 1)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []string{"(control first)", "(step 12)", "(total 12)"}, s.m.StateFacts(st))
		assert.Equal(t, []int{50, 50}, s.goals(st))
	})
	t.Run("first reaches 21", func(t *testing.T) {
		s := newSession(t, "racetotwentyone")
		st := s.turns(s.initial(), slices.Repeat([]string{"(add 3)"}, 7)...)
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{100, 0}, s.goals(st))
	})
	t.Run("second reaches 21", func(t *testing.T) {
		s := newSession(t, "racetotwentyone")
		st := s.turns(s.initial(), append(slices.Repeat([]string{"(add 3)"}, 6), "(add 2)")...)
		assert.False(t, s.terminal(st))
		assert.Equal(t, []string{"(add 1)"}, s.legal(st, 1), "the total may not pass 21")
		st = s.step(st, "noop", "(add 1)")
		assert.True(t, s.terminal(st))
		assert.Equal(t, []int{0, 100}, s.goals(st))
	})
}

// maxSteps is the longest possible game of each built-in game, in joint
// moves.
var maxSteps = map[string]int{
	"breakthrough":      60,
	"connectfour":       42,
	"eightpuzzle":       30,
	"hex":               25,
	"racetotwentyone":   12,
	"rockpaperscissors": 9,
	"threeplayerlines":  16,
	"tictactoe":         9,
}

func TestBuiltinRollouts(t *testing.T) {
	const rollouts = 20
	for _, bg := range Builtins() {
		t.Run(bg.Name, func(t *testing.T) {
			bound, ok := maxSteps[bg.Name]
			if !ok {
				bound = 1000
			}
			s := newSession(t, bg.Name)
			n := len(s.m.Roles())
			finals := map[string]int{}
			for r := range rollouts {
				rng := rand.New(rand.NewPCG(1, uint64(r)))
				st := s.initial()
				steps := 0
				for !s.terminal(st) {
					require.Less(t, steps, bound, "rollout %d is not over after %d steps", r, steps)
					joint := make([]engines.Move, n)
					for role := range n {
						moves, err := s.m.Legal(st, role)
						require.NoError(t, err)
						require.NotEmpty(t, moves)
						moves = slices.Clone(moves)
						slices.SortFunc(moves, func(a, b engines.Move) int {
							return strings.Compare(s.m.MoveText(a), s.m.MoveText(b))
						})
						joint[role] = moves[rng.IntN(len(moves))]
					}
					next, err := s.m.Next(st, joint)
					require.NoError(t, err)
					st = next
					steps++
				}
				goals := s.goals(st)
				require.Len(t, goals, n)
				for _, g := range goals {
					assert.True(t, g >= 0 && g <= 100, "goal value %d", g)
				}
				finals[fmt.Sprint(goals)]++
			}
			t.Logf("%s: goals of %d rollouts: %v", bg.Name, rollouts, finals)
		})
	}
}
