package workload

import (
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Process is one engine process of a workload run (gdlperf engine run
// --workload NAME ENGINE GAME RESULT SECONDS), as rollout.Process is of a
// rollouts run: load the game and build the machine with Engine.New (setup,
// not timed), run the workload until its budget is done or, for a timed
// budget, SECONDS are over, and report. The compiled prover runs through
// its in-process machine, which asks its program one question at a time.
type Process struct {
	Engine   engines.Engine
	File     string // the game's file name, for messages
	Rules    []byte // the game's text
	Workload string
	Budget   Budget
	// Seconds bounds the run: a timed budget's time, or the most a fixed
	// budget may take before it fails.
	Seconds int
	Seed    uint64
}

// Run performs the run and returns the result file's content: protocol's
// keys (millisecondsTaken is the workload's time, numRollouts uct's
// playouts), the machine's design or knobs as rollout.Process writes them,
// and the workload's keys (Result.SetKeys). A failure, a panic included, is
// a result with errorMessage; the error returned says the run failed.
func (p Process) Run() (*protocol.Result, error) {
	var m engines.Machine
	var wres Result
	setup := func(extra *protocol.Result) error {
		var err error
		m, err = p.Engine.Build(p.File, p.Rules, extra)
		return err
	}
	play := func() (protocol.Stats, error) {
		var err error
		wres, err = Run(m, p.Workload, p.Budget, p.Seed, time.Now().Add(time.Duration(p.Seconds)*time.Second))
		return wres.Stats(), err
	}
	res, err := protocol.Run(p.Engine.Version, p.Engine.Name, time.Now(), p.Seed, setup, play)
	if c, ok := m.(interface{ Close() error }); ok {
		c.Close()
	}
	if err == nil {
		wres.SetKeys(res)
	}
	return res, err
}
