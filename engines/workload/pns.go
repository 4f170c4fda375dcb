package workload

import (
	"fmt"

	"github.com/gdlperf/gdlperf/engines"
)

// MaxPNSStates bounds a search's transposition table: a search whose
// table holds this many states ends unknown, whatever its budget (a timed
// run on a fast engine would otherwise fill the memory).
const MaxPNSStates = 1 << 21

// maxPNSStates is MaxPNSStates, lowered by tests.
var maxPNSStates = MaxPNSStates

// pnInf is the proof or disproof number of a solved node; sums saturate at
// it.
const pnInf = int64(1) << 50

func pnAdd(a, b int64) int64 { return min(a+b, pnInf) }

// pnState is a state node: the searched role to move (an OR node). Its
// children are one pnMove per move of the role, in canonical order.
type pnState struct {
	state    engines.State
	pn, dn   int64
	expanded bool
	depth    int32
	kids     []*pnMove
	parents  []*pnMove
}

// pnMove is the searched role's move at a state: the other roles to answer
// it together (an AND node). Its children are the states of their joint
// moves in canonical order, each once.
type pnMove struct {
	parent *pnState
	pn, dn int64
	kids   []*pnState
}

type pnKey struct {
	depth int32
	state string
}

type pns struct {
	v         *view
	role      int
	threshold int
	table     map[pnKey]*pnState
	nodes     int64 // expansions of every search
	budget    int64 // 0: until the deadline
	moves     [][]engines.Move
	joint     []engines.Move
}

func runPNS(v *view, b Budget, role int, res *Result) error {
	p := &pns{v: v, role: role, budget: b.Nodes, moves: make([][]engines.Move, v.roles), joint: make([]engines.Move, v.roles)}
	out := &PNSResult{Role: v.m.Roles()[role], Lo: 0, Hi: 100}
	res.PNS = out
	defer func() { res.Nodes = p.nodes }()
	search := func(t int) (string, error) {
		before := p.nodes
		o, err := p.search(t)
		if err == nil {
			out.Runs = append(out.Runs, ThresholdRun{Threshold: t, Outcome: o, Nodes: p.nodes - before})
		}
		return o, err
	}
	if t := b.Threshold; t > 0 {
		if t > 100 {
			return fmt.Errorf("pns: the threshold %d is above 100, the highest goal value", t)
		}
		o, err := search(t)
		if err != nil {
			return err
		}
		out.Status = o
		switch o {
		case Proved:
			out.Lo = t
		case Disproved:
			out.Hi = t - 1
		}
		return nil
	}
	for out.Lo < out.Hi {
		t := (out.Lo + out.Hi + 1) / 2
		o, err := search(t)
		if err != nil {
			return err
		}
		if o == Unknown {
			out.Status = Unknown
			return nil
		}
		if o == Proved {
			out.Lo = t
		} else {
			out.Hi = t - 1
		}
	}
	out.Status, out.Value = Proved, out.Lo
	return nil
}

// search runs one proof-number search: can the role reach a goal of at
// least t whatever the other roles do, moving after them?
func (p *pns) search(t int) (string, error) {
	p.threshold = t
	p.table = map[pnKey]*pnState{}
	s, err := p.v.m.Initial()
	if err != nil {
		return "", err
	}
	root, err := p.leaf(s, 0)
	if err != nil {
		return "", err
	}
	for root.pn != 0 && root.dn != 0 {
		if p.budget > 0 && p.nodes >= p.budget || len(p.table) >= maxPNSStates {
			return Unknown, nil
		}
		if p.v.over() {
			if p.budget <= 0 {
				return Unknown, nil
			}
			return "", errDeadline
		}
		n := root
		for n.expanded {
			n = n.mostProving()
		}
		if err := p.expand(n); err != nil {
			return "", err
		}
		p.nodes++
		if n.update() {
			n.changed()
		}
	}
	p.table = nil
	if root.pn == 0 {
		return Proved, nil
	}
	return Disproved, nil
}

// mostProving returns the state below n to go on from: through n's move of
// the least proof number, that move's answer of the least disproof number,
// the first of equals in canonical order.
func (n *pnState) mostProving() *pnState {
	m := n.kids[0]
	for _, k := range n.kids[1:] {
		if k.pn < m.pn {
			m = k
		}
	}
	s := m.kids[0]
	for _, k := range m.kids[1:] {
		if k.dn < s.dn {
			s = k
		}
	}
	return s
}

// leaf returns the node of s at depth, new ones evaluated: a terminal state
// is proved when the role's goal there is at least the threshold and
// disproved otherwise; any other starts at 1, 1.
func (p *pns) leaf(s engines.State, depth int32) (*pnState, error) {
	key := pnKey{depth, engines.StateKey(p.v.m, s)}
	if n, ok := p.table[key]; ok {
		return n, nil
	}
	n := &pnState{state: s, depth: depth, pn: 1, dn: 1}
	term, err := p.v.m.Terminal(s)
	if err != nil {
		return nil, err
	}
	if term {
		goals, err := p.v.m.Goals(s)
		if err != nil {
			return nil, err
		}
		g := goals[p.role]
		if g < 0 || g > 100 {
			return nil, fmt.Errorf("pns: role %s has the goal value %d, outside 0..100, in the state %v", p.v.m.Roles()[p.role], g, p.v.m.StateFacts(s))
		}
		if g >= p.threshold {
			n.pn, n.dn = 0, pnInf
		} else {
			n.pn, n.dn = pnInf, 0
		}
	}
	p.table[key] = n
	return n, nil
}

// expand adds n's moves and their answers' states.
func (p *pns) expand(n *pnState) error {
	v := p.v
	for r := range v.roles {
		var err error
		if p.moves[r], err = v.legal(n.state, r); err != nil {
			return err
		}
	}
	for _, a := range p.moves[p.role] {
		mv := &pnMove{parent: n}
		p.joint[p.role] = a
		err := p.answers(0, func() error {
			s, err := v.next(n.state, p.joint)
			if err != nil {
				return err
			}
			k, err := p.leaf(s, n.depth+1)
			if err != nil {
				return err
			}
			for _, o := range mv.kids {
				if o == k {
					return nil
				}
			}
			mv.kids = append(mv.kids, k)
			k.parents = append(k.parents, mv)
			return nil
		})
		if err != nil {
			return err
		}
		mv.update()
		n.kids = append(n.kids, mv)
	}
	n.expanded = true
	return nil
}

// answers calls f with every joint move of the other roles in p.joint, in
// canonical order: role order, the earlier role's move the slower to vary.
func (p *pns) answers(r int, f func() error) error {
	if r == p.v.roles {
		return f()
	}
	if r == p.role {
		return p.answers(r+1, f)
	}
	for _, mv := range p.moves[r] {
		p.joint[r] = mv
		if err := p.answers(r+1, f); err != nil {
			return err
		}
	}
	return nil
}

// update sets n's numbers from its moves' (the least proof number, the sum
// of disproof numbers) and reports whether they changed.
func (n *pnState) update() bool {
	pn, dn := pnInf, int64(0)
	for _, k := range n.kids {
		pn = min(pn, k.pn)
		dn = pnAdd(dn, k.dn)
	}
	if pn == n.pn && dn == n.dn {
		return false
	}
	n.pn, n.dn = pn, dn
	return true
}

// update sets m's numbers from its answers' (the sum of proof numbers, the
// least disproof number) and reports whether they changed.
func (m *pnMove) update() bool {
	pn, dn := int64(0), pnInf
	for _, k := range m.kids {
		pn = pnAdd(pn, k.pn)
		dn = min(dn, k.dn)
	}
	if pn == m.pn && dn == m.dn {
		return false
	}
	m.pn, m.dn = pn, dn
	return true
}

// changed updates every ancestor of n whose numbers n's change changes.
// Nodes are keyed by depth as well as state, so the graph has no cycle.
func (n *pnState) changed() {
	for _, m := range n.parents {
		if m.update() && m.parent.update() {
			m.parent.changed()
		}
	}
}
