package rollout

import (
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Process is one benchmark run of a built-in engine, as the engine process
// of ARCHITECTURE.md §3 does it: load the game and build the machine (setup,
// not timed as rollouts), run rollouts for the given time, and report.
type Process struct {
	Engine  engines.Engine
	File    string // the game's file name, for messages
	Rules   []byte // the game's text
	Seconds int
	// Rollouts > 0 selects fixed-work mode: exactly this many rollouts,
	// chosen as in a trace, and the time they take is the measure.
	Rollouts int
	Seed     uint64
}

// Run performs the run and returns the result file's content
// (protocol.Run); a machine that is engines.Designed or engines.Tuned adds
// its design or its knobs. A failure of the game or the engine (a panic
// included) is a result with errorMessage, never a crash of the caller; the
// error returned says the run failed.
func (p Process) Run() (*protocol.Result, error) {
	var m engines.Machine
	setup := func(extra *protocol.Result) error {
		g, err := gdl.Load(p.File, p.Rules)
		if err != nil {
			return err
		}
		if m, err = p.Engine.New(g); err != nil {
			return err
		}
		if d, ok := m.(engines.Designed); ok && d.Design() != "" {
			extra.Set(protocol.KeyDesign, d.Design())
		}
		if t, ok := m.(engines.Tuned); ok && t.Knobs() != "" {
			extra.Set(protocol.KeyOptions, t.Knobs())
		}
		return nil
	}
	play := func() (protocol.Stats, error) {
		var st Stats
		var err error
		if p.Rollouts > 0 {
			st, err = RunFixed(m, p.Rollouts, p.Seed)
		} else {
			st, err = Run(m, time.Duration(p.Seconds)*time.Second, p.Seed)
		}
		return st.Stats, err
	}
	return protocol.Run(p.Engine.Version, p.Engine.Name, time.Now(), p.Seed, setup, play)
}
