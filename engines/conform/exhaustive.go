package conform

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
)

// ExhaustiveStats says how much of the game an exhaustive check covered.
type ExhaustiveStats struct {
	States   int
	Complete bool // every reachable state was compared
}

// MaxJointMoves bounds the joint moves expanded from one state.
const MaxJointMoves = 4096

type node struct {
	ref, got engines.State
	parent   *node
	joint    []string
	depth    int
}

func (n *node) history() [][]string {
	var h [][]string
	for x := n; x.parent != nil; x = x.parent {
		h = append(h, x.joint)
	}
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h
}

// Exhaustive walks every state reachable from the initial state, breadth
// first, in both machines at once, and compares each state's facts, terminal
// flag, goals and legal moves, and the successors of every joint move. It
// stops at maxStates distinct states or 20 times as many joint moves played
// (Complete is then false).
func Exhaustive(ref, got engines.Machine, maxStates int) (*Mismatch, ExhaustiveStats, error) {
	return ExhaustiveUntil(ref, got, maxStates, time.Time{})
}

// ExhaustiveUntil is Exhaustive that also stops (not complete) at deadline,
// unless deadline is zero.
func ExhaustiveUntil(ref, got engines.Machine, maxStates int, deadline time.Time) (*Mismatch, ExhaustiveStats, error) {
	var st ExhaustiveStats
	mis := func(n *node, diffs ...string) *Mismatch {
		return &Mismatch{Method: "exhaustive", Step: n.depth, Diffs: diffs, History: n.history()}
	}
	if a, b := strings.Join(ref.Roles(), " "), strings.Join(got.Roles(), " "); a != b {
		return &Mismatch{Method: "exhaustive", Diffs: []string{fmt.Sprintf("roles: reference %s, engine %s", a, b)}}, st, nil
	}
	rs, rerr := ref.Initial()
	gs, gerr := got.Initial()
	root := &node{ref: rs, got: gs}
	d, lerr := errDiff("initial state", rerr, gerr)
	if lerr != nil {
		return nil, st, limitAt(lerr, 0, root.depth, st.States > 1)
	}
	if d != "" {
		return mis(root, d), st, nil
	}
	if rerr != nil {
		return nil, st, rerr
	}
	seen := map[string]bool{}
	queue := []*node{root}
	edges := 0
	roles := len(ref.Roles())
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		rf, gf := ref.StateFacts(n.ref), got.StateFacts(n.got)
		if d := setDiff("state", rf, gf); len(d) > 0 {
			return mis(n, d...), st, nil
		}
		key := strings.Join(rf, " ")
		if seen[key] {
			continue
		}
		if len(seen) >= maxStates || !deadline.IsZero() && st.States&63 == 0 && time.Now().After(deadline) {
			return nil, st, nil
		}
		seen[key] = true
		st.States++
		rt, rerr := ref.Terminal(n.ref)
		gt, gerr := got.Terminal(n.got)
		d, lerr := errDiff("terminal", rerr, gerr)
		if lerr != nil {
			return nil, st, limitAt(lerr, 0, n.depth, st.States > 1)
		}
		if d != "" {
			return mis(n, d), st, nil
		}
		if rerr != nil {
			continue // both failed alike: a fault of the game
		}
		if rt != gt {
			return mis(n, fmt.Sprintf("terminal: reference %v, engine %v", rt, gt)), st, nil
		}
		if rt {
			rg, rerr := ref.Goals(n.ref)
			gg, gerr := got.Goals(n.got)
			d, lerr := errDiff("goals", rerr, gerr)
			if lerr != nil {
				return nil, st, limitAt(lerr, 0, n.depth, st.States > 1)
			}
			if d != "" {
				return mis(n, d), st, nil
			}
			if fmt.Sprint(rg) != fmt.Sprint(gg) {
				return mis(n, fmt.Sprintf("goals: reference %v, engine %v", rg, gg)), st, nil
			}
			continue
		}
		refMoves := make([]map[string]engines.Move, roles)
		gotMoves := make([]map[string]engines.Move, roles)
		texts := make([][]string, roles)
		product := 1
		for r := 0; r < roles; r++ {
			rl, rerr := ref.Legal(n.ref, r)
			refMoves[r] = moveTexts(ref, rl)
			gl, gerr := got.Legal(n.got, r)
			gotMoves[r] = moveTexts(got, gl)
			d, lerr := errDiff(fmt.Sprintf("legal moves of role %d", r), rerr, gerr)
			if lerr != nil {
				return nil, st, limitAt(lerr, 0, n.depth, st.States > 1)
			}
			if d != "" {
				return mis(n, d), st, nil
			}
			if rerr != nil {
				product = 0
				break
			}
			texts[r] = keys(refMoves[r])
			if d := setDiff(fmt.Sprintf("legal moves of role %d", r), texts[r], keys(gotMoves[r])); len(d) > 0 {
				return mis(n, d...), st, nil
			}
			product *= len(texts[r])
		}
		edges += product
		if product > MaxJointMoves || edges > 20*maxStates {
			return nil, st, nil // too wide to walk: not complete
		}
		if product == 0 {
			continue
		}
		idx := make([]int, roles)
		for {
			joint := make([]string, roles)
			rj := make([]engines.Move, roles)
			gj := make([]engines.Move, roles)
			for r := range idx {
				joint[r] = texts[r][idx[r]]
				rj[r] = refMoves[r][joint[r]]
				gj[r] = gotMoves[r][joint[r]]
			}
			child := &node{parent: n, joint: joint, depth: n.depth + 1}
			var rerr, gerr error
			child.ref, rerr = ref.Next(n.ref, rj)
			child.got, gerr = got.Next(n.got, gj)
			d, lerr := errDiff("next state", rerr, gerr)
			if lerr != nil {
				return nil, st, limitAt(lerr, 0, child.depth, st.States > 1)
			}
			if d != "" {
				return mis(child, d), st, nil
			}
			if rerr == nil {
				queue = append(queue, child)
			}
			r := roles - 1
			for r >= 0 {
				idx[r]++
				if idx[r] < len(texts[r]) {
					break
				}
				idx[r] = 0
				r--
			}
			if r < 0 {
				break
			}
		}
	}
	st.Complete = true
	return nil, st, nil
}

func moveTexts(m engines.Machine, moves []engines.Move) map[string]engines.Move {
	out := make(map[string]engines.Move, len(moves))
	for _, mv := range moves {
		out[m.MoveText(mv)] = mv
	}
	return out
}

func keys(m map[string]engines.Move) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// errDiff compares two errors of one question by their game error kinds.
// A resource limit (on either side) is no answer, neither agreement nor a
// difference: it returns a *LimitError that stops the comparison.
func errDiff(what string, ref, got error) (string, error) {
	switch {
	case ref == nil && got == nil:
		return "", nil
	case isLimit(ref) || isLimit(got):
		side, err := "engine", got
		if !isLimit(got) {
			side, err = "reference", ref
		}
		return "", &LimitError{Side: side, Where: what, Msg: err.Error()}
	case ref == nil:
		return fmt.Sprintf("%s: the engine fails (%v), the reference does not", what, got), nil
	case got == nil:
		return fmt.Sprintf("%s: the reference fails (%v), the engine does not", what, ref), nil
	case errorKind(ref.Error()) != errorKind(got.Error()):
		return fmt.Sprintf("%s: reference fails with %v, engine with %v", what, ref, got), nil
	}
	return "", nil
}

func isLimit(err error) bool {
	return err != nil && errorKind(err.Error()) == string(engines.ResourceLimit)
}
