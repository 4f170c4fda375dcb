package workload

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// UCTExploration is the UCB1 constant c of mean + c*sqrt(ln N / n), over
// goal values scaled to [0, 1].
const UCTExploration = math.Sqrt2

// uctEpsilon is the margin by which a move's score must beat the best so
// far to replace it: near-ties (within rounding of a logarithm that another
// language's library computes a bit differently) go to the first move in
// canonical order, as exact ties do.
const uctEpsilon = 1e-9

// uctNode is a node of the tree: a state, and once the search has been
// through it, what it found there (most nodes are leaves that a playout
// started from, and stay this small).
type uctNode struct {
	state engines.State
	*uctInfo
}

// uctInfo is a node's terminal flag, and its goals or its moves in
// canonical order, its visits and each role's move statistics. Children
// are indexed by the joint move's number, role 0's move index the most
// significant digit.
type uctInfo struct {
	terminal bool
	goals    []int
	moves    [][]engines.Move
	visits   int64
	n, w     [][]int64
	kids     []*uctNode       // when there are at most maxKidSlice joint moves
	kidMap   map[int]*uctNode // otherwise
}

// MaxUCTNodes bounds uct's tree: once it holds this many nodes, an
// iteration that would add one plays out from its state without adding it
// (a timed run on a fast engine would otherwise fill the memory).
const MaxUCTNodes = 1 << 21

// maxUCTNodes is MaxUCTNodes, lowered by tests.
var maxUCTNodes int64 = MaxUCTNodes

const maxKidSlice = 256

type uct struct {
	v     *view
	seed  uint64
	root  *uctNode
	nodes int64
	path  []*uctNode
	picks []int // len(path) * roles move indices
	joint []engines.Move
}

func runUCT(v *view, b Budget, seed uint64, res *Result) error {
	s, err := v.m.Initial()
	if err != nil {
		return err
	}
	u := &uct{v: v, seed: seed, root: &uctNode{state: s}, nodes: 1, joint: make([]engines.Move, v.roles)}
	if err := u.prepare(u.root); err != nil {
		return err
	}
	if u.root.terminal {
		return errors.New("uct: the initial state is terminal; there is nothing to search")
	}
	defer func() {
		res.Iterations = u.root.visits
		res.Nodes = u.nodes
		res.UCT = u.rootStats()
	}()
	for i := int64(0); b.Iterations <= 0 || i < b.Iterations; i++ {
		if v.over() {
			if b.Iterations <= 0 {
				return nil
			}
			return errDeadline
		}
		if err := u.iterate(i); err != nil {
			return err
		}
	}
	return nil
}

// prepare finds whether n is terminal, and its goals or its moves.
func (u *uct) prepare(n *uctNode) error {
	if n.uctInfo != nil {
		return nil
	}
	term, err := u.v.m.Terminal(n.state)
	if err != nil {
		return err
	}
	in := &uctInfo{terminal: term}
	if term {
		if in.goals, err = u.v.goals(n.state); err != nil {
			return err
		}
		n.uctInfo = in
		return nil
	}
	in.moves = make([][]engines.Move, u.v.roles)
	in.n = make([][]int64, u.v.roles)
	in.w = make([][]int64, u.v.roles)
	joints := 1
	for r := range in.moves {
		if in.moves[r], err = u.v.legal(n.state, r); err != nil {
			return err
		}
		in.n[r] = make([]int64, len(in.moves[r]))
		in.w[r] = make([]int64, len(in.moves[r]))
		joints = min(joints*len(in.moves[r]), maxKidSlice+1)
	}
	if joints <= maxKidSlice {
		in.kids = make([]*uctNode, joints)
	} else {
		in.kidMap = map[int]*uctNode{}
	}
	n.uctInfo = in
	return nil
}

func (n *uctInfo) kid(i int) *uctNode {
	if n.kids != nil {
		return n.kids[i]
	}
	return n.kidMap[i]
}

func (n *uctInfo) setKid(i int, k *uctNode) {
	if n.kids != nil {
		n.kids[i] = k
	} else {
		n.kidMap[i] = k
	}
}

// iterate runs iteration i: select down the tree by UCB1 until a terminal
// node or a joint move not yet in the tree; add its node (while the tree
// has room) and play out from it with rand.New(rand.NewPCG(seed, i)); back
// the goals up the path.
func (u *uct) iterate(i int64) error {
	v := u.v
	u.path, u.picks = u.path[:0], u.picks[:0]
	n := u.root
	var goals []int
	for {
		if err := u.prepare(n); err != nil {
			return err
		}
		if n.terminal {
			goals = n.goals
			break
		}
		idx := 0
		for r := range v.roles {
			a := n.ucb(r)
			u.picks = append(u.picks, a)
			u.joint[r] = n.moves[r][a]
			idx = idx*len(n.moves[r]) + a
		}
		u.path = append(u.path, n)
		if k := n.kid(idx); k != nil {
			n = k
			continue
		}
		s, err := v.next(n.state, u.joint)
		if err != nil {
			return err
		}
		if u.nodes < maxUCTNodes {
			n.setKid(idx, &uctNode{state: s})
			u.nodes++
		}
		if goals, err = u.playout(s, rand.New(rand.NewPCG(u.seed, uint64(i)))); err != nil {
			return err
		}
		break
	}
	for d, p := range u.path {
		p.visits++
		for r := range v.roles {
			a := u.picks[d*v.roles+r]
			p.n[r][a]++
			p.w[r][a] += int64(goals[r])
		}
	}
	return nil
}

// ucb returns role r's move at n: the first unvisited one in canonical
// order, or else the one of the highest UCB1 score, the first of those
// within uctEpsilon of it.
func (n *uctInfo) ucb(r int) int {
	ns, ws := n.n[r], n.w[r]
	for a, c := range ns {
		if c == 0 {
			return a
		}
	}
	logN := math.Log(float64(n.visits))
	score := func(a int) float64 {
		cnt := float64(ns[a])
		return float64(ws[a])/(100*cnt) + UCTExploration*math.Sqrt(logN/cnt)
	}
	best, bestScore := 0, score(0)
	for a := 1; a < len(ns); a++ {
		if s := score(a); s > bestScore+uctEpsilon {
			best, bestScore = a, s
		}
	}
	return best
}

// playout plays from s to a terminal state, each role in role order drawing
// legal[rng.IntN(len(legal))] from its moves in canonical order, and returns
// the goals there. A playout longer than protocol.MaxTraceSteps is a game
// error.
func (u *uct) playout(s engines.State, rng *rand.Rand) ([]int, error) {
	v := u.v
	for step := 0; ; step++ {
		term, err := v.m.Terminal(s)
		if err != nil {
			return nil, err
		}
		if term {
			return v.goals(s)
		}
		if step >= protocol.MaxTraceSteps {
			return nil, engines.Errorf(engines.ResourceLimit, "a uct playout did not end within %d steps", protocol.MaxTraceSteps)
		}
		for r := range v.roles {
			legal, err := v.legal(s, r)
			if err != nil {
				return nil, err
			}
			u.joint[r] = legal[rng.IntN(len(legal))]
		}
		if s, err = v.next(s, u.joint); err != nil {
			return nil, err
		}
	}
}

func (u *uct) rootStats() *UCTResult {
	out := &UCTResult{}
	roles := u.v.m.Roles()
	for r := range u.v.roles {
		rs := RoleStats{Role: roles[r]}
		for a, mv := range u.root.moves[r] {
			rs.Moves = append(rs.Moves, MoveStats{Move: u.v.text(mv), Visits: u.root.n[r][a], Sum: u.root.w[r][a]})
		}
		out.Root = append(out.Root, rs)
	}
	return out
}
