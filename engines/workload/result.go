package workload

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// The result file keys of a workload run, beside protocol's (a run also
// sets millisecondsTaken, numStateChanges and numRollouts from Stats).
const (
	KeyWorkload      protocol.Key = "workload"       // uct, pns, minimax
	KeyBudget        protocol.Key = "workloadBudget" // Budget.String: "iterations=200", "nodes=20000 role=xplayer", "depth=3 role=xplayer"
	KeyNumIterations protocol.Key = "numIterations"  // uct
	KeyNumNodes      protocol.Key = "numNodes"       // uct: tree nodes; pns: expansions; minimax: states visited
	KeyValue         protocol.Key = "value"          // pns when proved without a threshold, minimax: the role's value
	KeyBestMove      protocol.Key = "bestMove"       // minimax
	KeyProofResult   protocol.Key = "proofResult"    // pns: proved, disproved or unknown
	KeyAnswer        protocol.Key = "answer"         // the answer in one line (Answer)
	KeyTimed         protocol.Key = "timed"          // true when the budget was the deadline's
)

// Keys lists the keys above in the order SetKeys writes them.
var Keys = []protocol.Key{KeyWorkload, KeyBudget, KeyNumIterations, KeyNumNodes, KeyValue, KeyBestMove, KeyProofResult, KeyAnswer, KeyTimed}

// Stats returns the run's figures as protocol's: uct's playouts are its
// rollouts (pns and minimax play none).
func (r Result) Stats() protocol.Stats {
	st := protocol.Stats{StateChanges: r.StateChanges, Elapsed: r.Elapsed}
	if r.Workload == UCT {
		st.Rollouts = r.Iterations
	}
	return st
}

// SetKeys writes the run's workload keys into res.
func (r Result) SetKeys(res *protocol.Result) {
	res.Set(KeyWorkload, r.Workload)
	res.Set(KeyBudget, r.Budget.String(r.Workload))
	if r.Workload == UCT {
		res.SetInt(KeyNumIterations, r.Iterations)
	}
	res.SetInt(KeyNumNodes, r.Nodes)
	switch {
	case r.PNS != nil:
		if r.PNS.Status == Proved && r.Budget.Threshold == 0 {
			res.SetInt(KeyValue, int64(r.PNS.Value))
		}
		res.Set(KeyProofResult, r.PNS.Status)
	case r.Minimax != nil:
		res.SetInt(KeyValue, int64(r.Minimax.Value))
		res.Set(KeyBestMove, r.Minimax.Best)
	}
	if a := r.Answer(); a != "" {
		res.Set(KeyAnswer, a)
	}
	if r.Timed {
		res.Set(KeyTimed, "true")
	}
}

// Answer is the run's answer in one line, as SPEC.md writes it:
//
//	uct:     xplayer: (mark 1 1) 23 52.17, (mark 1 2) 20 48.00; oplayer: noop 200 47.50
//	pns:     xplayer value 50: >=50 proved, >=75 disproved, ...
//	         xplayer value 50..74 unknown: >=50 proved, >=75 unknown
//	         xplayer >=60 disproved                       (with a threshold)
//	minimax: xplayer value 50 best (mark 1 1) depth 9 exact   (or horizon)
//
// A uct move is its text, its visits and its mean goal value to two
// decimals.
func (r Result) Answer() string {
	var b strings.Builder
	switch {
	case r.UCT != nil:
		for i, rs := range r.UCT.Root {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(rs.Role + ":")
			for j, m := range rs.Moves {
				if j > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, " %s %d %s", m.Move, m.Visits, strconv.FormatFloat(m.Mean(), 'f', 2, 64))
			}
		}
	case r.PNS != nil:
		p := r.PNS
		b.WriteString(p.Role)
		switch {
		case r.Budget.Threshold > 0:
		case p.Status == Proved:
			fmt.Fprintf(&b, " value %d", p.Value)
		default:
			fmt.Fprintf(&b, " value %d..%d %s", p.Lo, p.Hi, p.Status)
		}
		sep := ":"
		if r.Budget.Threshold > 0 {
			sep = ""
		}
		for i, run := range p.Runs {
			if i > 0 {
				sep = ","
			}
			fmt.Fprintf(&b, "%s >=%d %s", sep, run.Threshold, run.Outcome)
		}
		if len(p.Runs) == 0 {
			b.WriteString(" no search")
		}
	case r.Minimax != nil:
		x := r.Minimax
		exact := "horizon"
		if x.Exact {
			exact = "exact"
		}
		fmt.Fprintf(&b, "%s value %d best %s depth %d %s", x.Role, x.Value, x.Best, x.Depth, exact)
	}
	return b.String()
}
