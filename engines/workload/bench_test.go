package workload_test

import (
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// BenchmarkTicTacToe runs each workload on tic-tac-toe with each built-in
// engine (the compiled prover's in-process machine, which asks its program
// one question at a time, without -short): uct 1000 iterations, pns to the
// value, minimax to full depth. Besides ns/op it reports nodes/s (uct's
// iterations, pns's expansions, minimax's states) and state changes/s.
func BenchmarkTicTacToe(b *testing.B) {
	g := load(b, "tictactoe")
	names := []string{prover.Name, tupleprover.Name, propnet.Name}
	if !testing.Short() {
		names = append(names, compiled.Name)
	}
	budgets := []struct {
		workload string
		budget   workload.Budget
	}{
		{workload.UCT, workload.Budget{Iterations: 1000}},
		{workload.PNS, workload.Budget{Nodes: 100_000}},
		{workload.Minimax, workload.Budget{Depth: 9}},
	}
	for _, name := range names {
		m := machine(b, name, g)
		for _, w := range budgets {
			b.Run(name+"/"+w.workload, func(b *testing.B) {
				var nodes, changes int64
				var took time.Duration
				for b.Loop() {
					res, err := workload.Run(m, w.workload, w.budget, 1, time.Time{})
					if err != nil {
						b.Fatal(err)
					}
					if w.workload == workload.UCT {
						nodes += res.Iterations
					} else {
						nodes += res.Nodes
					}
					changes += res.StateChanges
					took += res.Elapsed
				}
				b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
				b.ReportMetric(float64(changes)/took.Seconds(), "changes/s")
			})
		}
	}
}
