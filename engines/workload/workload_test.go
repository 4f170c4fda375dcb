package workload_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// over is a game whose initial state is terminal.
const over = `(role p) (init (done)) (<= terminal (true (done))) (<= (goal p 100) (true (done))) (legal p noop) (<= (next (done)) (true (done)))`

func TestRunRefuses(t *testing.T) {
	tests := []struct {
		name     string
		game     string
		workload string
		budget   workload.Budget
		wantErr  string
	}{
		{name: "unknown workload", game: "tictactoe", workload: "alphazero", wantErr: `no workload "alphazero"; the workloads are rollouts, uct, pns, minimax`},
		{name: "rollouts", game: "tictactoe", workload: workload.Rollouts, wantErr: "run by package rollout"},
		{name: "unknown role", game: "tictactoe", workload: workload.PNS, budget: workload.Budget{Nodes: 10, Role: "zplayer"}, wantErr: `no role "zplayer" in this game; its roles are xplayer, oplayer`},
		{name: "minimax without depth or deadline", game: "tictactoe", workload: workload.Minimax, wantErr: "workload minimax needs a budget (--depth D) or a deadline"},
		{name: "minimax of a negative depth", game: "tictactoe", workload: workload.Minimax, budget: workload.Budget{Depth: -1}, wantErr: "minimax needs a depth of at least 1"},
		{name: "threshold above 100", game: "tictactoe", workload: workload.PNS, budget: workload.Budget{Nodes: 10, Threshold: 101}, wantErr: "the threshold 101 is above 100"},
		{name: "uct without budget or deadline", game: "tictactoe", workload: workload.UCT, wantErr: "workload uct needs a budget (--iterations N) or a deadline"},
		{name: "pns without budget or deadline", game: "tictactoe", workload: workload.PNS, wantErr: "workload pns needs a budget (--nodes N) or a deadline"},
		{name: "terminal initial state", game: "over", workload: workload.UCT, budget: workload.Budget{Iterations: 10}, wantErr: "the initial state is terminal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m engines.Machine
			if tt.game == "over" {
				g, err := gdl.Load("over.kif", []byte(over))
				require.NoError(t, err)
				m = prover.NewMachine(g)
			} else {
				m = proverMachine(t, tt.game)
			}
			_, err := workload.Run(m, tt.workload, tt.budget, 1, time.Time{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// TestUCTFirstIterations: the first iterations try each move of the root
// once, in canonical order, each adding one node.
func TestUCTFirstIterations(t *testing.T) {
	res, err := workload.Run(proverMachine(t, "tictactoe"), workload.UCT, workload.Budget{Iterations: 9}, 1, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, int64(9), res.Iterations)
	assert.Equal(t, int64(10), res.Nodes)
	require.Len(t, res.UCT.Root, 2)
	x := res.UCT.Root[0]
	assert.Equal(t, "xplayer", x.Role)
	require.Len(t, x.Moves, 9)
	for i, mv := range x.Moves {
		assert.Equal(t, int64(1), mv.Visits, mv.Move)
		if i > 0 {
			assert.Less(t, x.Moves[i-1].Move, mv.Move, "canonical order")
		}
	}
	assert.Equal(t, []workload.MoveStats{{Move: "noop", Visits: 9, Sum: res.UCT.Root[1].Moves[0].Sum}}, res.UCT.Root[1].Moves)
	var sum int64
	for _, mv := range x.Moves {
		sum += mv.Sum
	}
	assert.Equal(t, int64(900), sum+res.UCT.Root[1].Moves[0].Sum, "tic-tac-toe's goals add up to 100")
	assert.Equal(t, res.Iterations, res.Stats().Rollouts, "each iteration is one playout")
}

// TestUCTLearns: with enough iterations the search prefers the centre of
// tic-tac-toe and the one winning move of Nim 3-4-5 (take 2 from the heap
// of 3), for seed 1.
func TestUCTLearns(t *testing.T) {
	tests := []struct {
		game       string
		iterations int64
		want       string
	}{
		{game: "tictactoe", iterations: 1000, want: "(mark 2 2)"},
		{game: "nim345", iterations: 3000, want: "(take a 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			res, err := workload.Run(proverMachine(t, tt.game), workload.UCT, workload.Budget{Iterations: tt.iterations}, 1, time.Time{})
			require.NoError(t, err)
			best := res.UCT.Root[0].Moves[0]
			for _, mv := range res.UCT.Root[0].Moves {
				if mv.Visits > best.Visits {
					best = mv
				}
			}
			assert.Equal(t, tt.want, best.Move, res.Answer())
		})
	}
}

func TestUCTSeeds(t *testing.T) {
	run := func(seed uint64) workload.Result {
		res, err := workload.Run(proverMachine(t, "tictactoe"), workload.UCT, workload.Budget{Iterations: 200}, seed, time.Time{})
		require.NoError(t, err)
		return res
	}
	a, b, c := run(1), run(1), run(2)
	assert.NoError(t, workload.Compare(a, b), "the same seed, the same search")
	assert.Error(t, workload.Compare(a, c), "another seed, other playouts")
}

// TestTimed: a zero budget runs until the deadline, is marked timed, and
// cannot be compared; a fixed budget not done by the deadline fails.
func TestTimed(t *testing.T) {
	m := proverMachine(t, "connectfour")
	for _, name := range []string{workload.UCT, workload.PNS, workload.Minimax} {
		t.Run(name, func(t *testing.T) {
			res, err := workload.Run(m, name, workload.Budget{}, 1, time.Now().Add(300*time.Millisecond))
			require.NoError(t, err)
			assert.True(t, res.Timed)
			assert.Positive(t, res.StateChanges)
			assert.ErrorContains(t, workload.Compare(res, res), "timed")
			r := protocol.NewResult("v")
			res.SetKeys(r)
			v, _ := r.Get(workload.KeyTimed)
			assert.Equal(t, "true", v)
			assert.ErrorContains(t, workload.CompareKeys(r, r), "timed")
		})
	}
	late := []struct {
		workload string
		budget   workload.Budget
	}{
		{workload.UCT, workload.Budget{Iterations: 1 << 40}},
		{workload.PNS, workload.Budget{Nodes: 1 << 40}},
		{workload.Minimax, workload.Budget{Depth: 40}},
	}
	for _, tt := range late {
		t.Run(tt.workload+" late", func(t *testing.T) {
			res, err := workload.Run(m, tt.workload, tt.budget, 1, time.Now().Add(100*time.Millisecond))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "was not done by the deadline")
			assert.Contains(t, err.Error(), tt.budget.String(tt.workload))
			assert.Positive(t, res.StateChanges, "the figures so far come with the error")
		})
	}
}

// A timed minimax (depth 0) deepens one ply at a time until the deadline:
// its answer is the deepest search it finished, the same as a search to
// that depth, and its nodes count every search; it stops early at an exact
// value (tic-tac-toe: a draw at depth 9).
func TestMinimaxDeepening(t *testing.T) {
	m := proverMachine(t, "connectfour")
	res, err := workload.Run(m, workload.Minimax, workload.Budget{}, 1, time.Now().Add(500*time.Millisecond))
	require.NoError(t, err)
	require.NotNil(t, res.Minimax)
	d := res.Minimax.Depth
	require.GreaterOrEqual(t, d, 1)
	fixed, err := workload.Run(m, workload.Minimax, workload.Budget{Depth: d}, 1, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, *fixed.Minimax, *res.Minimax, "the answer of the deepest search done")
	assert.Greater(t, res.Nodes, fixed.Nodes, "the searches to every depth up to %d and the unfinished one", d)

	res, err = workload.Run(proverMachine(t, "tictactoe"), workload.Minimax, workload.Budget{}, 1, time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 9, res.Minimax.Depth)
	assert.True(t, res.Minimax.Exact)
	assert.Equal(t, 50, res.Minimax.Value)
}

// TestResultKeys checks the result file keys and the one-line answers.
func TestResultKeys(t *testing.T) {
	tests := []struct {
		name       string
		game       string
		workload   string
		budget     workload.Budget
		wantKeys   map[protocol.Key]string
		wantAnswer string
	}{
		{name: "minimax", game: "tictactoe", workload: workload.Minimax, budget: workload.Budget{Depth: 9},
			wantKeys:   map[protocol.Key]string{workload.KeyWorkload: "minimax", workload.KeyBudget: "depth=9 role=xplayer", workload.KeyValue: "50", workload.KeyBestMove: "(mark 1 1)"},
			wantAnswer: "xplayer value 50 best (mark 1 1) depth 9 exact"},
		// The root, x's 9 answers; at the first all 8 of o's moves (0 at
		// the horizon), then at each other one o's first move cuts: 1 + 9 + 8*2 nodes.
		{name: "minimax horizon", game: "tictactoe", workload: workload.Minimax, budget: workload.Budget{Depth: 2, Role: "oplayer"},
			wantKeys:   map[protocol.Key]string{workload.KeyBudget: "depth=2 role=oplayer", workload.KeyValue: "0", workload.KeyNumNodes: "26"},
			wantAnswer: "oplayer value 0 best noop depth 2 horizon"},
		{name: "pns", game: "nim123", workload: workload.PNS, budget: workload.Budget{Nodes: 1000, Role: "second"},
			wantKeys:   map[protocol.Key]string{workload.KeyWorkload: "pns", workload.KeyBudget: "nodes=1000 role=second", workload.KeyValue: "100", workload.KeyProofResult: "proved"},
			wantAnswer: "second value 100: >=50 proved, >=75 proved, >=88 proved, >=94 proved, >=97 proved, >=99 proved, >=100 proved"},
		{name: "pns threshold", game: "nim123", workload: workload.PNS, budget: workload.Budget{Nodes: 1000, Threshold: 1},
			wantKeys:   map[protocol.Key]string{workload.KeyBudget: "nodes=1000 threshold=1 role=first", workload.KeyProofResult: "disproved"},
			wantAnswer: "first >=1 disproved"},
		{name: "uct", game: "rockpaperscissors", workload: workload.UCT, budget: workload.Budget{Iterations: 3},
			wantKeys:   map[protocol.Key]string{workload.KeyWorkload: "uct", workload.KeyBudget: "iterations=3", workload.KeyNumIterations: "3", workload.KeyNumNodes: "4"},
			wantAnswer: "left: (throw paper) 1 ., (throw rock) 1 ., (throw scissors) 1 .; right: (throw paper) 1 ., (throw rock) 1 ., (throw scissors) 1 ."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := workload.Run(proverMachine(t, tt.game), tt.workload, tt.budget, 1, time.Time{})
			require.NoError(t, err)
			r := protocol.NewResult("v")
			res.SetKeys(r)
			for k, want := range tt.wantKeys {
				got, ok := r.Get(k)
				assert.True(t, ok, "key %s", k)
				assert.Equal(t, want, got, "key %s", k)
			}
			for _, k := range r.Keys() {
				if k != protocol.KeyVersion {
					assert.Contains(t, workload.Keys, k, "a key SetKeys writes is listed")
				}
			}
			answer, _ := r.Get(workload.KeyAnswer)
			assert.Equal(t, res.Answer(), answer)
			if tt.workload == workload.UCT {
				// Means vary with the playouts; the shape does not.
				assert.Equal(t, tt.wantAnswer, meanless(answer))
			} else {
				assert.Equal(t, tt.wantAnswer, answer)
			}
			_, hasIter := r.Get(workload.KeyNumIterations)
			assert.Equal(t, tt.workload == workload.UCT, hasIter)
			assert.NotContains(t, r.String(), "\n\n")
		})
	}
}

// meanless replaces the uct answer's means (d.dd) with a dot.
func meanless(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		tail := strings.TrimRight(w, ",;")
		if len(tail) >= 4 && tail[len(tail)-3] == '.' && strings.Trim(tail, "0123456789.") == "" {
			f[i] = "." + w[len(tail):]
		}
	}
	return strings.Join(f, " ")
}

func TestCompare(t *testing.T) {
	m := proverMachine(t, "tictactoe")
	run := func(name string, b workload.Budget) workload.Result {
		res, err := workload.Run(m, name, b, 1, time.Time{})
		require.NoError(t, err)
		return res
	}
	uct := run(workload.UCT, workload.Budget{Iterations: 50})
	pns := run(workload.PNS, workload.Budget{Nodes: 20_000})
	mm := run(workload.Minimax, workload.Budget{Depth: 3})
	tests := []struct {
		name    string
		ref     workload.Result
		mutate  func(r *workload.Result)
		wantErr string
	}{
		{name: "uct equal", ref: uct, mutate: func(r *workload.Result) {}},
		{name: "pns equal", ref: pns, mutate: func(r *workload.Result) {}},
		{name: "minimax equal", ref: mm, mutate: func(r *workload.Result) {}},
		{name: "time is not compared", ref: mm, mutate: func(r *workload.Result) { r.Elapsed *= 3 }},
		{name: "state changes", ref: uct, mutate: func(r *workload.Result) { r.StateChanges++ }, wantErr: "state changes: "},
		{name: "uct visits", ref: uct, mutate: func(r *workload.Result) {
			r.UCT = &workload.UCTResult{Root: cloneRoot(r.UCT.Root)}
			r.UCT.Root[0].Moves[3].Visits++
		}, wantErr: `uct root xplayer move 3: "(mark 2 1) `},
		{name: "uct sums", ref: uct, mutate: func(r *workload.Result) {
			r.UCT = &workload.UCTResult{Root: cloneRoot(r.UCT.Root)}
			r.UCT.Root[1].Moves[0].Sum--
		}, wantErr: "uct root oplayer move 0"},
		{name: "pns outcome", ref: pns, mutate: func(r *workload.Result) {
			p := *r.PNS
			p.Runs = append([]workload.ThresholdRun(nil), p.Runs...)
			p.Runs[1].Outcome = workload.Proved
			r.PNS = &p
		}, wantErr: "pns search 1"},
		{name: "pns value", ref: pns, mutate: func(r *workload.Result) { p := *r.PNS; p.Value = 100; r.PNS = &p }, wantErr: "pns value: 50, 100"},
		{name: "minimax best", ref: mm, mutate: func(r *workload.Result) { x := *r.Minimax; x.Best = "(mark 2 2)"; r.Minimax = &x }, wantErr: "minimax best move"},
		{name: "nodes", ref: mm, mutate: func(r *workload.Result) { r.Nodes-- }, wantErr: "nodes: "},
		{name: "another budget", ref: mm, mutate: func(r *workload.Result) { r.Budget.Depth = 4 }, wantErr: "the runs differ in what they ran"},
		{name: "another workload", ref: mm, mutate: func(r *workload.Result) { *r = pns }, wantErr: "the runs differ in what they ran"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.ref
			tt.mutate(&got)
			err := workload.Compare(tt.ref, got)
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func cloneRoot(root []workload.RoleStats) []workload.RoleStats {
	out := make([]workload.RoleStats, len(root))
	for i, r := range root {
		out[i] = workload.RoleStats{Role: r.Role, Moves: append([]workload.MoveStats(nil), r.Moves...)}
	}
	return out
}

func TestCompareKeys(t *testing.T) {
	res, err := workload.Run(proverMachine(t, "tictactoe"), workload.Minimax, workload.Budget{Depth: 3}, 1, time.Time{})
	require.NoError(t, err)
	file := func() *protocol.Result {
		r := protocol.NewResult("v")
		r.SetInt(protocol.KeyNumStateChanges, res.StateChanges)
		res.SetKeys(r)
		return r
	}
	tests := []struct {
		name    string
		mutate  func(r *protocol.Result)
		wantErr string
	}{
		{name: "equal", mutate: func(r *protocol.Result) {}},
		{name: "time is not compared", mutate: func(r *protocol.Result) { r.SetInt(protocol.KeyMillisecondsTaken, 12345) }},
		{name: "answer", mutate: func(r *protocol.Result) { r.Set(workload.KeyAnswer, "xplayer value 100") }, wantErr: "answer: "},
		{name: "state changes", mutate: func(r *protocol.Result) { r.SetInt(protocol.KeyNumStateChanges, 1) }, wantErr: "numStateChanges: "},
		{name: "budget", mutate: func(r *protocol.Result) { r.Set(workload.KeyBudget, "depth=4 role=xplayer") }, wantErr: "workloadBudget: "},
		{name: "missing key", mutate: func(r *protocol.Result) {
			*r = *protocol.NewResult("v")
			r.Set(workload.KeyWorkload, "minimax")
			r.Set(workload.KeyBudget, "depth=3 role=xplayer")
		}, wantErr: "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := file()
			tt.mutate(got)
			err := workload.CompareKeys(file(), got)
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// TestStateKeys: every engine's key (and the facts' fallback) is the same
// for a tic-tac-toe position reached by two move orders, and differs for
// other positions.
func TestStateKeys(t *testing.T) {
	g := load(t, "tictactoe")
	build := map[string]func() (engines.Machine, error){
		"prover":      func() (engines.Machine, error) { return prover.NewMachine(g), nil },
		"tupleprover": func() (engines.Machine, error) { return tupleprover.New(g) },
		"propnet":     func() (engines.Machine, error) { return propnet.New(g) },
		"facts":       func() (engines.Machine, error) { return plain{prover.NewMachine(g)}, nil },
	}
	for name, b := range build {
		t.Run(name, func(t *testing.T) {
			m, err := b()
			require.NoError(t, err)
			_, own := m.(engines.Searcher)
			assert.Equal(t, name != "facts", own)
			play := func(marks ...string) engines.State {
				s, err := m.Initial()
				require.NoError(t, err)
				for i, mk := range marks {
					joint := make([]engines.Move, 2)
					for r := range 2 {
						legal, err := m.Legal(s, r)
						require.NoError(t, err)
						want := "noop"
						if r == i%2 {
							want = mk
						}
						for _, mv := range legal {
							if m.MoveText(mv) == want {
								joint[r] = mv
							}
						}
						require.Equal(t, want, m.MoveText(joint[r]))
					}
					s, err = m.Next(s, joint)
					require.NoError(t, err)
				}
				return s
			}
			a := play("(mark 1 1)", "(mark 2 2)", "(mark 3 3)")
			b := play("(mark 3 3)", "(mark 2 2)", "(mark 1 1)")
			c := play("(mark 1 1)", "(mark 3 3)", "(mark 2 2)")
			require.Equal(t, m.StateFacts(a), m.StateFacts(b))
			assert.Equal(t, engines.StateKey(m, a), engines.StateKey(m, b))
			assert.NotEqual(t, engines.StateKey(m, a), engines.StateKey(m, c))
			init, err := m.Initial()
			require.NoError(t, err)
			assert.NotEqual(t, engines.StateKey(m, a), engines.StateKey(m, init))
			// An old state still answers after other questions.
			term, err := m.Terminal(a)
			require.NoError(t, err)
			assert.False(t, term)
			assert.Equal(t, m.StateFacts(b), m.StateFacts(a))
		})
	}
}

// TestLimits: a full uct tree adds no node but goes on iterating; a pns
// search whose table is full ends unknown.
func TestLimits(t *testing.T) {
	defer workload.SetLimits(10, 50)()
	m := proverMachine(t, "tictactoe")
	res, err := workload.Run(m, workload.UCT, workload.Budget{Iterations: 100}, 1, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, int64(100), res.Iterations)
	assert.Equal(t, int64(10), res.Nodes)
	res, err = workload.Run(m, workload.PNS, workload.Budget{Nodes: 100_000}, 1, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, workload.Unknown, res.PNS.Status)
	assert.Less(t, res.Nodes, int64(50), "the table filled before the budget ran out")
}

// ParseBudget reads what Budget.String prints, and Timed says which budgets
// are a deadline's.
func TestParseBudget(t *testing.T) {
	for _, tt := range []struct {
		name  string
		b     workload.Budget
		timed bool
	}{
		{workload.UCT, workload.Budget{Iterations: 2000}, false},
		{workload.UCT, workload.Budget{}, true},
		{workload.PNS, workload.Budget{Nodes: 100, Threshold: 50, Role: "red"}, false},
		{workload.PNS, workload.Budget{Role: "red"}, true},
		{workload.Minimax, workload.Budget{Depth: 3, Role: "white"}, false},
		{workload.Minimax, workload.Budget{}, true},
	} {
		s := tt.b.String(tt.name)
		assert.Equal(t, tt.b, workload.ParseBudget(s), s)
		assert.Equal(t, tt.timed, workload.ParseBudget(s).Timed(tt.name), s)
	}
}
