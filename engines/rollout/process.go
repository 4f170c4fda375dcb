package rollout

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
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

// Run performs the run and returns the result file's content. A failure
// of the game or the engine (a panic included) is a result with
// errorMessage, never a crash of the caller; the error returned says the run
// failed.
func (p Process) Run() (res *Result, err error) {
	res = &Result{}
	res.Set("version", p.Engine.Version)
	fail := func(e error) (*Result, error) {
		res.Set("errorMessage", e.Error())
		res.SetInt("peakRSSKiB", PeakRSSKiB())
		return res, e
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = fail(fmt.Errorf("engine %s panicked: %v\n%s", p.Engine.Name, r, firstFrames(debug.Stack())))
		}
	}()
	start := time.Now()
	g, err := gdl.Load(p.File, p.Rules)
	if err != nil {
		return fail(err)
	}
	m, err := p.Engine.New(g)
	if err != nil {
		return fail(err)
	}
	initMs := time.Since(start).Milliseconds()
	var st Stats
	if p.Rollouts > 0 {
		st, err = RunFixed(m, p.Rollouts, p.Seed)
	} else {
		st, err = Run(m, time.Duration(p.Seconds)*time.Second, p.Seed)
	}
	if err != nil {
		return fail(err)
	}
	res.SetInt("millisecondsTaken", st.Elapsed.Milliseconds())
	res.SetInt("numStateChanges", st.StateChanges)
	res.SetInt("numRollouts", st.Rollouts)
	res.SetInt("initMilliseconds", initMs)
	res.SetInt("peakRSSKiB", PeakRSSKiB())
	res.SetInt("gomaxprocs", int64(runtime.GOMAXPROCS(0)))
	res.Set("seed", fmt.Sprint(p.Seed))
	return res, nil
}

func firstFrames(stack []byte) string {
	const max = 2000
	if len(stack) > max {
		stack = stack[:max]
	}
	return string(stack)
}
