package workload_test

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// TestMain gives the compiled prover a temporary cache folder (tests
// write only to temporary folders) and removes it at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gdlperf-workload-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GDLPERF_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// variant is a way to build a machine for the cross-engine test.
type variant struct {
	name string
	new  func(g *gdl.Game) (engines.Machine, error)
	// small: only on the small games (a slow twin)
	small bool
	// long: only without -short (the compiled prover builds a program per game)
	long bool
}

// plain hides a machine's own state keys, so pns keys states by their
// facts (engines.StateKey's fallback).
type plain struct{ engines.Machine }

func variants() []variant {
	lookup := func(name string) func(g *gdl.Game) (engines.Machine, error) {
		e, ok := engines.Lookup(name)
		if !ok {
			panic("workload test: no engine " + name)
		}
		return e.New
	}
	return []variant{
		{name: "prover, state keys by facts", small: true, new: func(g *gdl.Game) (engines.Machine, error) {
			return plain{prover.NewMachine(g)}, nil
		}},
		{name: tupleprover.Name, new: lookup(tupleprover.Name)},
		{name: "tupleprover bottom-up", small: true, new: func(g *gdl.Game) (engines.Machine, error) {
			return tupleprover.New(g, tupleprover.WithDesign("bottom-up"))
		}},
		{name: "tupleprover magic sets", small: true, new: func(g *gdl.Game) (engines.Machine, error) {
			return tupleprover.New(g, tupleprover.WithDesign("magic sets"))
		}},
		{name: propnet.Name, new: lookup(propnet.Name)},
		{name: "propnet full pass", small: true, new: func(g *gdl.Game) (engines.Machine, error) {
			return propnet.New(g, propnet.WithMode(propnet.FullPass))
		}},
		{name: compiled.Name, long: true, new: lookup(compiled.Name)},
	}
}

// smallGames are the games the slow twins play.
var smallGames = map[string]bool{"tictactoe": true, "racetotwentyone": true, "rockpaperscissors": true, "nim345": true, "nim123": true, "connectthree": true}

// TestEnginesAgree runs every workload with a fixed budget on every
// built-in game and the test games with the prover and with every other
// built-in engine (the compiled prover through its in-process machine,
// without -short), and requires the same work and answers: the same
// state changes, nodes and iterations, root statistics, proof results,
// values and best moves. It is the core of a workload check.
func TestEnginesAgree(t *testing.T) {
	pnsNodes := int64(20_000)
	if testing.Short() {
		pnsNodes = 500
	}
	budgets := []struct {
		workload string
		budget   workload.Budget
	}{
		{workload.UCT, workload.Budget{Iterations: 200}},
		{workload.PNS, workload.Budget{Nodes: pnsNodes}},
		{workload.Minimax, workload.Budget{Depth: 3}},
	}
	var games []string
	for _, g := range builtingames.All() {
		games = append(games, g.Name)
	}
	games = append(games, "nim345", "nim123", "connectthree")
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			g := load(t, name)
			ref := proverMachine(t, name)
			want := make([]workload.Result, len(budgets))
			for i, b := range budgets {
				var err error
				want[i], err = workload.Run(ref, b.workload, b.budget, 7, time.Now().Add(5*time.Minute))
				require.NoError(t, err, "the prover's %s", b.workload)
			}
			for _, v := range variants() {
				if v.long && testing.Short() || v.small && !smallGames[name] {
					continue
				}
				t.Run(v.name, func(t *testing.T) {
					m, err := v.new(g)
					require.NoError(t, err)
					if c, ok := m.(interface{ Close() error }); ok {
						defer c.Close()
					}
					for i, b := range budgets {
						got, err := workload.Run(m, b.workload, b.budget, 7, time.Now().Add(5*time.Minute))
						require.NoError(t, err, b.workload)
						assert.NoError(t, workload.Compare(want[i], got), "%s\nreference: %s\nengine:    %s", b.workload, short(want[i].Answer()), short(got.Answer()))
					}
				})
			}
		})
	}
}
