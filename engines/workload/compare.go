package workload

import (
	"fmt"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// maxDiffs bounds the differences a comparison lists.
const maxDiffs = 8

// Compare checks that got, a run of an engine, did the same work and found
// the same answer as ref, the reference's run of the same workload and
// budget: state changes, iterations, nodes, and the root statistics, the
// proof result or the value and best move. Time is not compared. Timed runs
// cannot be compared: their work depends on the engines' speed.
func Compare(ref, got Result) error {
	if ref.Workload != got.Workload || ref.Budget != got.Budget {
		return fmt.Errorf("the runs differ in what they ran: %s %s against %s %s", ref.Workload, ref.Budget.String(ref.Workload), got.Workload, got.Budget.String(got.Workload))
	}
	if ref.Timed || got.Timed {
		return fmt.Errorf("timed %s runs cannot be compared; give the workload a fixed budget", ref.Workload)
	}
	var d diffs
	d.int("state changes", ref.StateChanges, got.StateChanges)
	d.int("iterations", ref.Iterations, got.Iterations)
	d.int("nodes", ref.Nodes, got.Nodes)
	switch {
	case (ref.UCT == nil) != (got.UCT == nil), (ref.PNS == nil) != (got.PNS == nil), (ref.Minimax == nil) != (got.Minimax == nil):
		d.add("one run has an answer the other lacks")
	case ref.UCT != nil:
		compareUCT(&d, ref.UCT, got.UCT)
	case ref.PNS != nil:
		p, q := ref.PNS, got.PNS
		d.str("pns status", p.Status, q.Status)
		d.int("pns value", int64(p.Value), int64(q.Value))
		d.str("pns bounds", fmt.Sprintf("%d..%d", p.Lo, p.Hi), fmt.Sprintf("%d..%d", q.Lo, q.Hi))
		d.int("pns searches", int64(len(p.Runs)), int64(len(q.Runs)))
		for i := range min(len(p.Runs), len(q.Runs)) {
			a, b := p.Runs[i], q.Runs[i]
			d.str(fmt.Sprintf("pns search %d", i), fmt.Sprintf(">=%d %s in %d nodes", a.Threshold, a.Outcome, a.Nodes), fmt.Sprintf(">=%d %s in %d nodes", b.Threshold, b.Outcome, b.Nodes))
		}
	case ref.Minimax != nil:
		x, y := ref.Minimax, got.Minimax
		d.int("minimax value", int64(x.Value), int64(y.Value))
		d.str("minimax best move", x.Best, y.Best)
		d.str("minimax exact", fmt.Sprint(x.Exact), fmt.Sprint(y.Exact))
	}
	return d.err(ref.Workload)
}

func compareUCT(d *diffs, ref, got *UCTResult) {
	if len(ref.Root) != len(got.Root) {
		d.int("uct roles", int64(len(ref.Root)), int64(len(got.Root)))
		return
	}
	for r, a := range ref.Root {
		b := got.Root[r]
		if len(a.Moves) != len(b.Moves) {
			d.int("uct root moves of "+a.Role, int64(len(a.Moves)), int64(len(b.Moves)))
			continue
		}
		for i, m := range a.Moves {
			n := b.Moves[i]
			d.str(fmt.Sprintf("uct root %s move %d", a.Role, i), fmt.Sprintf("%s %d/%d", m.Move, m.Visits, m.Sum), fmt.Sprintf("%s %d/%d", n.Move, n.Visits, n.Sum))
		}
	}
}

// CompareKeys is Compare over two result files' workload keys (an
// external engine's run against the reference's): the workload and its
// budget, numStateChanges, numIterations, numNodes, value, bestMove,
// proofResult and answer must be equal.
func CompareKeys(ref, got *protocol.Result) error {
	var d diffs
	name, _ := ref.Get(KeyWorkload)
	for _, k := range []protocol.Key{KeyWorkload, KeyBudget, KeyTimed} {
		a, _ := ref.Get(k)
		b, _ := got.Get(k)
		d.str(string(k), a, b)
	}
	if len(d) > 0 {
		return d.err(name)
	}
	if t, _ := ref.Get(KeyTimed); t == "true" {
		return fmt.Errorf("timed %s runs cannot be compared; give the workload a fixed budget", name)
	}
	for _, k := range []protocol.Key{protocol.KeyNumStateChanges, KeyNumIterations, KeyNumNodes, KeyValue, KeyBestMove, KeyProofResult, KeyAnswer} {
		a, aok := ref.Get(k)
		b, bok := got.Get(k)
		switch {
		case aok && !bok:
			d.add(fmt.Sprintf("%s: %q, missing", k, a))
		case !aok && bok:
			d.add(fmt.Sprintf("%s: missing, %q", k, b))
		default:
			d.str(string(k), a, b)
		}
	}
	return d.err(name)
}

// diffs collects the differences of a comparison, reference first.
type diffs []string

func (d *diffs) add(s string) { *d = append(*d, s) }

func (d *diffs) int(what string, a, b int64) {
	if a != b {
		d.add(fmt.Sprintf("%s: %d, %d", what, a, b))
	}
}

func (d *diffs) str(what, a, b string) {
	if a != b {
		d.add(fmt.Sprintf("%s: %q, %q", what, a, b))
	}
}

func (d diffs) err(workload string) error {
	if len(d) == 0 {
		return nil
	}
	list := d
	if len(list) > maxDiffs {
		list = append(list[:maxDiffs:maxDiffs], fmt.Sprintf("and %d more", len(d)-maxDiffs))
	}
	return fmt.Errorf("%s runs differ (reference, engine): %s", workload, strings.Join(list, "; "))
}
