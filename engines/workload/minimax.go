package workload

import (
	"errors"
	"math"

	"github.com/gdlperf/gdlperf/engines"
)

// mm is a depth-first alpha-beta search (Knuth and Moore, "An analysis of
// alpha-beta pruning", 1975), fail-hard, over the paranoid model: at every
// state the role moves first (max), then the other roles answer together
// (min over their joint moves). In a game where one role moves at a time
// that is plain two-player alpha-beta, the other roles a coalition.
type mm struct {
	v       *view
	role    int
	depth   int
	nodes   int64
	horizon bool // a non-terminal state was cut off at the depth
	best    int  // the root's best move, an index into its moves
	moves   [][][]engines.Move
	joints  [][]engines.Move
}

func runMinimax(v *view, b Budget, role int, res *Result) error {
	if b.Depth < 0 {
		return errors.New("minimax needs a depth of at least 1 (--depth D, in joint moves), or 0 for a timed iterative deepening")
	}
	if b.Depth == 0 {
		return deepen(v, role, res)
	}
	out, nodes, err := minimaxTo(v, role, b.Depth)
	res.Nodes = nodes
	res.Minimax = out
	return err
}

// minimaxTo searches to depth: the answer (nil on an error) and the states
// visited.
func minimaxTo(v *view, role, depth int) (*MinimaxResult, int64, error) {
	s, err := v.m.Initial()
	if err != nil {
		return nil, 0, err
	}
	x := &mm{v: v, role: role, depth: depth, best: -1}
	val, err := x.max(s, 0, math.MinInt, math.MaxInt)
	if err != nil {
		return nil, x.nodes, err
	}
	out := &MinimaxResult{Role: v.m.Roles()[role], Depth: depth, Value: val, Exact: !x.horizon}
	if x.best >= 0 {
		out.Best = v.text(x.moves[0][role][x.best])
	}
	return out, x.nodes, nil
}

// deepen is a timed minimax (depth 0): searches to depth 1, 2, 3, ...
// until the deadline or an exact value; the answer is the deepest search
// done, the nodes those of every search, the unfinished last one
// included.
func deepen(v *view, role int, res *Result) error {
	if v.deadline.IsZero() {
		return errors.New("a timed minimax (depth 0) needs a deadline to stop at")
	}
	res.Timed = true
	for depth := 1; ; depth++ {
		out, nodes, err := minimaxTo(v, role, depth)
		res.Nodes += nodes
		if errors.Is(err, errDeadline) {
			if res.Minimax == nil {
				return err
			}
			return nil
		}
		if err != nil {
			return err
		}
		res.Minimax = out
		if out.Exact {
			return nil
		}
	}
}

// max returns the role's value of s at depth d, clamped to [alpha, beta]:
// its goal at a terminal state, 0 at the horizon, else the best of its
// moves' values.
func (x *mm) max(s engines.State, d int, alpha, beta int) (int, error) {
	x.nodes++
	if x.v.late() {
		return 0, errDeadline
	}
	term, err := x.v.m.Terminal(s)
	if err != nil {
		return 0, err
	}
	if term {
		g, err := x.v.m.Goals(s)
		if err != nil {
			return 0, err
		}
		return g[x.role], nil
	}
	if d == x.depth {
		x.horizon = true
		return 0, nil
	}
	if len(x.moves) <= d {
		x.moves = append(x.moves, make([][]engines.Move, x.v.roles))
		x.joints = append(x.joints, make([]engines.Move, x.v.roles))
	}
	moves := x.moves[d]
	for r := range moves {
		if moves[r], err = x.v.legal(s, r); err != nil {
			return 0, err
		}
	}
	for i, a := range moves[x.role] {
		x.joints[d][x.role] = a
		v, err := x.min(s, d, 0, alpha, beta)
		if err != nil {
			return 0, err
		}
		if v > alpha {
			alpha = v
			if d == 0 {
				x.best = i
			}
		}
		if alpha >= beta {
			return alpha, nil
		}
	}
	return alpha, nil
}

// min returns the least value of the other roles' joint answers to the
// role's move in x.joints[d], from role r on, clamped to [alpha, beta].
func (x *mm) min(s engines.State, d, r int, alpha, beta int) (int, error) {
	if r == x.role {
		r++
	}
	joint := x.joints[d]
	if r == x.v.roles {
		next, err := x.v.next(s, joint)
		if err != nil {
			return 0, err
		}
		return x.max(next, d+1, alpha, beta)
	}
	for _, mv := range x.moves[d][r] {
		joint[r] = mv
		v, err := x.min(s, d, r+1, alpha, beta)
		if err != nil {
			return 0, err
		}
		beta = min(beta, v)
		if alpha >= beta {
			return beta, nil
		}
	}
	return beta, nil
}
