// Package workload runs the search workloads that gdlperf measures beside
// random rollouts, over any engines.Machine. SPEC.md, beside this file,
// specifies each precisely enough for an engine in another language to
// give the same answers; in short:
//
//   - uct: Monte Carlo tree search (Kocsis and Szepesvári, "Bandit based
//     Monte-Carlo planning", 2006) from the initial state, UCB1 (Auer,
//     Cesa-Bianchi and Fischer 2002) with the constant sqrt(2) over goal
//     values scaled to [0, 1], decoupled over the roles (each role picks
//     its own move by UCB1 and backs up its own goal value: max-n), one
//     node expanded per iteration and a random playout from it, drawn as
//     traces draw.
//   - pns: proof-number search (Allis, van der Meulen and van den Herik,
//     "Proof-number search", 1994) for one role, over a DAG with a
//     transposition table keyed by state and depth, the role moving first
//     and the other roles answering its move together (the paranoid
//     model); the game value by binary search over goal thresholds.
//   - minimax: depth-first alpha-beta to a fixed depth over the same
//     paranoid model, goal values at terminal states and 0 at the horizon.
//
// Every choice is made over moves in canonical order (sorted by their
// text, as traces list them) and ties go to the first, so for a seed and a
// budget every correct engine builds the same tree and gives the same
// counts and the same answer. The rollouts workload, the default, is
// package rollout's.
package workload

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
)

// The workloads' names.
const (
	Rollouts = "rollouts" // the default: package rollout's timed random rollouts
	UCT      = "uct"
	PNS      = "pns"
	Minimax  = "minimax"
)

// Names lists the workloads, the default first.
var Names = []string{Rollouts, UCT, PNS, Minimax}

// Budget is the work a run is to do. A zero Iterations (uct) or Nodes (pns)
// runs until the deadline: a timed run, whose counts are the measure but
// whose answers depend on the engine's speed.
type Budget struct {
	Iterations int64 // uct: iterations
	Nodes      int64 // pns: node expansions, over every threshold searched
	Depth      int   // minimax: plies (joint moves) from the initial state, at least 1
	// Role is the role pns and minimax search for, by name; "" is the
	// first role.
	Role string
	// Threshold > 0 makes pns one two-valued search, "can the role reach
	// a goal of at least Threshold"; 0 finds the role's value by binary
	// search over the thresholds 1..100.
	Threshold int
}

// String prints the budget of workload name as "k=v" words, for the
// result file.
func (b Budget) String(name string) string {
	var w []string
	switch name {
	case UCT:
		w = append(w, fmt.Sprintf("iterations=%d", b.Iterations))
	case PNS:
		w = append(w, fmt.Sprintf("nodes=%d", b.Nodes))
		if b.Threshold > 0 {
			w = append(w, fmt.Sprintf("threshold=%d", b.Threshold))
		}
	case Minimax:
		w = append(w, fmt.Sprintf("depth=%d", b.Depth))
	}
	if name != UCT && b.Role != "" {
		w = append(w, "role="+b.Role)
	}
	return strings.Join(w, " ")
}

// ParseBudget reads a budget as String prints it ("nodes=100000
// role=red"); unknown words and bad numbers are left at zero.
func ParseBudget(s string) Budget {
	var b Budget
	for _, w := range strings.Fields(s) {
		k, v, _ := strings.Cut(w, "=")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch k {
		case "iterations":
			b.Iterations = n
		case "nodes":
			b.Nodes = n
		case "depth":
			b.Depth = int(n)
		case "threshold":
			b.Threshold = int(n)
		case "role":
			b.Role = v
		}
	}
	return b
}

// Timed reports whether the budget of workload name is a deadline's: uct
// of 0 iterations, pns of 0 nodes, minimax of depth 0.
func (b Budget) Timed(name string) bool {
	switch name {
	case UCT:
		return b.Iterations <= 0
	case PNS:
		return b.Nodes <= 0
	case Minimax:
		return b.Depth == 0
	}
	return false
}

// Result is what a workload run measured and found.
type Result struct {
	Workload string
	Budget   Budget // as run, with Role set to the role searched for (pns, minimax)
	Elapsed  time.Duration
	// Timed says the budget was the deadline's (Iterations or Nodes 0):
	// the counts are the measure, the answer not comparable.
	Timed bool
	// StateChanges counts the calls of Next: expansions and playout steps.
	StateChanges int64
	// Iterations counts uct's iterations (each one playout).
	Iterations int64
	// Nodes counts uct's tree nodes, pns's expansions and minimax's
	// states visited.
	Nodes   int64
	UCT     *UCTResult
	PNS     *PNSResult
	Minimax *MinimaxResult
}

// UCTResult is the root's statistics after a uct run.
type UCTResult struct {
	Root []RoleStats // in role order
}

// RoleStats is one role's moves at the root, in canonical order.
type RoleStats struct {
	Role  string
	Moves []MoveStats
}

// MoveStats is a root move's visits and the sum of the goal values the
// role got through it.
type MoveStats struct {
	Move   string
	Visits int64
	Sum    int64
}

// Mean is the move's mean goal value (0 for an unvisited move).
func (s MoveStats) Mean() float64 {
	if s.Visits == 0 {
		return 0
	}
	return float64(s.Sum) / float64(s.Visits)
}

// The outcomes of a proof-number search.
const (
	Proved    = "proved"
	Disproved = "disproved"
	Unknown   = "unknown"
)

// PNSResult is what a pns run proved. With a threshold, Status is the
// search's outcome; without, it is Proved when the value is known (Lo ==
// Hi == Value) and Unknown when the budget ran out first.
type PNSResult struct {
	Role   string
	Status string
	Value  int // the role's value, when Status is Proved without a threshold
	Lo, Hi int // the value is known to lie in [Lo, Hi]
	Runs   []ThresholdRun
}

// ThresholdRun is one two-valued search: goal >= Threshold.
type ThresholdRun struct {
	Threshold int
	Outcome   string
	Nodes     int64 // its expansions
}

// MinimaxResult is the root's value for the role and its best move (the
// first in canonical order that reaches the value). Exact says no state
// was cut off at the horizon: the value is the game's.
type MinimaxResult struct {
	Role  string
	Depth int
	Value int
	Best  string
	Exact bool
}

// Run runs workload name on m for budget: seed draws uct's playouts (pns
// and minimax draw nothing). A run with a fixed budget that is not done by
// deadline (zero: none) fails; a timed one stops there. The result holds
// the figures so far also when the error is not nil. rollouts is run by
// package rollout, not here.
func Run(m engines.Machine, name string, budget Budget, seed uint64, deadline time.Time) (Result, error) {
	res := Result{Workload: name, Budget: budget}
	v := newView(m, deadline)
	start := time.Now()
	var err error
	if deadline.IsZero() && budget.Timed(name) {
		return res, fmt.Errorf("workload %s needs a budget (%s) or a deadline to stop at", name, map[string]string{UCT: "--iterations N", PNS: "--nodes N", Minimax: "--depth D"}[name])
	}
	switch name {
	case UCT:
		res.Timed = budget.Timed(name)
		err = runUCT(v, budget, seed, &res)
	case PNS, Minimax:
		role, rerr := roleIndex(m, budget.Role)
		if rerr != nil {
			return res, rerr
		}
		res.Budget.Role = m.Roles()[role]
		if name == PNS {
			res.Timed = budget.Timed(name)
			err = runPNS(v, budget, role, &res)
		} else {
			err = runMinimax(v, budget, role, &res)
		}
	case Rollouts:
		return res, fmt.Errorf("workload rollouts is the default, run by package rollout; workload.Run runs %s", strings.Join(Names[1:], ", "))
	default:
		return res, fmt.Errorf("no workload %q; the workloads are %s", name, strings.Join(Names, ", "))
	}
	res.Elapsed = time.Since(start)
	res.StateChanges = v.changes
	if errors.Is(err, errDeadline) {
		err = fmt.Errorf("workload %s with %s was not done by the deadline (%d state changes so far); give it more seconds or a smaller budget", name, res.Budget.String(name), v.changes)
	}
	return res, err
}

// roleIndex returns the index of role name in m ("" is the first).
func roleIndex(m engines.Machine, name string) (int, error) {
	roles := m.Roles()
	if len(roles) == 0 {
		return 0, errors.New("the game has no roles")
	}
	if name == "" {
		return 0, nil
	}
	if i := slices.Index(roles, name); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("no role %q in this game; its roles are %s", name, strings.Join(roles, ", "))
}

// errDeadline ends a fixed-work run at its deadline.
var errDeadline = errors.New("deadline")

// view asks m's questions as the workloads need them: legal moves in
// canonical order, state changes counted, the deadline read every 64 asks.
type view struct {
	m        engines.Machine
	roles    int
	texts    map[engines.Move]string
	changes  int64
	deadline time.Time
	ticks    int
}

func newView(m engines.Machine, deadline time.Time) *view {
	return &view{m: m, roles: len(m.Roles()), texts: map[engines.Move]string{}, deadline: deadline}
}

// text returns the canonical text of mv, cached.
func (v *view) text(mv engines.Move) string {
	t, ok := v.texts[mv]
	if !ok {
		t = v.m.MoveText(mv)
		v.texts[mv] = t
	}
	return t
}

// legal returns role's legal moves in s in canonical order, a move listed
// twice once, in a slice of its own.
func (v *view) legal(s engines.State, role int) ([]engines.Move, error) {
	ms, err := v.m.Legal(s, role)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b engines.Move) int { return strings.Compare(v.text(a), v.text(b)) })
	return slices.CompactFunc(out, func(a, b engines.Move) bool { return v.text(a) == v.text(b) }), nil
}

// next is m.Next, counted.
func (v *view) next(s engines.State, joint []engines.Move) (engines.State, error) {
	v.changes++
	return v.m.Next(s, joint)
}

// goals returns a copy of the goals of s.
func (v *view) goals(s engines.State) ([]int, error) {
	g, err := v.m.Goals(s)
	if err != nil {
		return nil, err
	}
	return slices.Clone(g), nil
}

// late reports, every 64th call, whether the deadline has passed.
func (v *view) late() bool {
	v.ticks++
	if v.ticks&63 != 0 || v.deadline.IsZero() {
		return false
	}
	return time.Now().After(v.deadline)
}

// over reports whether the deadline has passed; it reads the clock.
func (v *view) over() bool { return !v.deadline.IsZero() && time.Now().After(v.deadline) }
