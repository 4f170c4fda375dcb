package rollout

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	// ProgramArgs are flags for the engine's own program (Engine.Native),
	// given before the positional arguments: a workload's (-workload NAME
	// and its budget), which the compiled prover's program runs itself.
	ProgramArgs []string
}

// Run performs the run and returns the result file's content
// (protocol.Run); a machine that is engines.Designed or engines.Tuned adds
// its design or its knobs. A failure of the game or the engine (a panic
// included) is a result with errorMessage, never a crash of the caller; the
// error returned says the run failed.
func (p Process) Run() (*protocol.Result, error) {
	var m engines.Machine
	setup := func(extra *protocol.Result) error {
		var err error
		m, err = p.Engine.Build(p.File, p.Rules, extra)
		return err
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

// WriteResult is gdlperf engine run: it performs the run and writes its
// result file at path. An engine with a program of its own
// (engines.Engine.Native) is set up here (code generation and build, or a
// cache hit) and its program, a child sharing stdout and stderr, runs the
// rollouts and writes the file, to which the setup figures are then added
// (initMilliseconds grows by the setup time, codegenMilliseconds and
// buildMilliseconds). Any other engine runs in this process (Run). The
// error says the run failed; the result file says why.
func (p Process) WriteResult(path string, stdout, stderr io.Writer) error {
	if p.Engine.Native != nil {
		return p.writeNativeResult(path, stdout, stderr)
	}
	if len(p.ProgramArgs) > 0 {
		err := fmt.Errorf("engine %s has no program of its own to give %s", p.Engine.Name, strings.Join(p.ProgramArgs, " "))
		if werr := WriteFailure(path, p.Engine.Version, err); werr != nil {
			return fmt.Errorf("%v; and writing the result file: %v", err, werr)
		}
		return err
	}
	res, err := p.Run()
	if werr := res.WriteFile(path); werr != nil {
		return fmt.Errorf("writing the result file: %w", werr)
	}
	return err
}

// WriteFailure writes the result file of a run that could not start (no
// such engine, an unreadable game): version and errorMessage. It returns
// the error of writing the file, if any.
func WriteFailure(path, version string, err error) error {
	res := protocol.NewResult(version)
	res.Set(protocol.KeyErrorMessage, err.Error())
	return res.WriteFile(path)
}

// WriteTrace is gdlperf engine trace: it writes the trace of p.Rollouts
// rollouts seeded with p.Seed (Trace) to path, "-" for stdout
// (protocol.WriteTrace), in this process or in the engine's own program.
// The trace is kept even when the game failed: its last line says where.
func (p Process) WriteTrace(path string, stdout, stderr io.Writer) error {
	if p.Engine.Native != nil {
		n, err := PrepareNative(p.Engine, p.File, p.Rules)
		if err != nil {
			return err
		}
		defer n.Close()
		args := []string{"-trace", path, "-seed", strconv.FormatUint(p.Seed, 10), "-rollouts", strconv.Itoa(p.Rollouts), n.File}
		return n.Run(args, stdout, stderr)
	}
	g, err := gdl.Load(p.File, p.Rules)
	if err != nil {
		return err
	}
	m, err := p.Engine.New(g)
	if err != nil {
		return err
	}
	return protocol.WriteTrace(path, stdout, func(w io.Writer) error {
		return Trace(w, m, p.Engine.Name, p.Engine.Version, p.Seed, p.Rollouts)
	})
}

// writeNativeResult is WriteResult for an engine with a program of its
// own: setup here, rollouts in the program, and the setup figures added to
// the result file the program wrote.
func (p Process) writeNativeResult(path string, stdout, stderr io.Writer) error {
	fail := func(err error) error {
		res := protocol.NewResult(p.Engine.Version)
		res.Fail(err)
		if werr := res.WriteFile(path); werr != nil {
			return fmt.Errorf("%v; and writing the result file: %v", err, werr)
		}
		return err
	}
	n, err := PrepareNative(p.Engine, p.File, p.Rules)
	if err != nil {
		return fail(err)
	}
	defer n.Close()
	args := []string{"-seed", strconv.FormatUint(p.Seed, 10)}
	if p.Rollouts > 0 {
		args = append(args, "-rollouts", strconv.Itoa(p.Rollouts))
	}
	args = append(args, p.ProgramArgs...)
	args = append(args, n.File, path, strconv.Itoa(p.Seconds))
	runErr := n.Run(args, stdout, stderr)
	text, rerr := os.ReadFile(path)
	if rerr != nil || len(text) == 0 {
		if runErr == nil {
			runErr = errors.New("the program wrote no result")
		}
		return fail(fmt.Errorf("engine program %s: %v", filepath.Base(n.Program.Path), runErr))
	}
	res, _ := protocol.Parse(string(text))
	init := n.SetupMillis
	if v, ok := res.Get(protocol.KeyInitMilliseconds); ok {
		if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
			init += ms
		}
	}
	if _, failed := res.Get(protocol.KeyErrorMessage); !failed {
		res.SetInt(protocol.KeyInitMilliseconds, init)
	}
	for _, k := range []protocol.Key{protocol.KeyCodegenMilliseconds, protocol.KeyBuildMilliseconds} {
		res.SetInt(k, n.Program.Setup[k])
	}
	if werr := res.WriteFile(path); werr != nil {
		return fmt.Errorf("writing the result file: %w", werr)
	}
	return runErr
}
