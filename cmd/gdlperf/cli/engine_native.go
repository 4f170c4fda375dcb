package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// prepareNative loads the game and prepares the engine's own program for
// it (code generation and build, or a cache hit). It returns the program,
// the game file the program is given (a temporary copy for a built-in game,
// removed by cleanup) and the setup time in milliseconds.
func prepareNative(e engines.Engine, name string, src []byte) (prog *engines.NativeProgram, file string, setupMs int64, cleanup func(), err error) {
	cleanup = func() {}
	start := time.Now()
	g, err := gdl.Load(name, src)
	if err != nil {
		return nil, "", 0, cleanup, err
	}
	prog, err = e.Native(g, src)
	if err != nil {
		return nil, "", 0, cleanup, err
	}
	setupMs = time.Since(start).Milliseconds()
	file = name
	if b, rerr := os.ReadFile(name); rerr != nil || string(b) != string(src) {
		// A built-in game has no file of its own: give the program a copy.
		f, err := os.CreateTemp("", "gdlperf-game-*.kif")
		if err != nil {
			return nil, "", 0, cleanup, err
		}
		_, err = f.Write(src)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return nil, "", 0, cleanup, err
		}
		file = f.Name()
		cleanup = func() { os.Remove(f.Name()) }
	}
	return prog, file, setupMs, cleanup, nil
}

// runNative runs the program as a child that shares this process's
// standard streams; SIGTERM and SIGINT sent to this process are passed on,
// and the child dies with this process (Pdeathsig).
func runNative(path string, args []string, stdout, stderr io.Writer) error {
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the engine's program %s: %w", path, err)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	return err
}

// runEngineRunNative is gdlperf engine run for an engine with a program of
// its own: setup here, rollouts in the program, and the setup figures added
// to the result file the program wrote.
func runEngineRunNative(opts *EngineRunOptions, e engines.Engine, name string, src []byte) error {
	fail := func(err error) error {
		res := protocol.NewResult(e.Version)
		res.Fail(err)
		if werr := res.WriteFile(opts.Result); werr != nil {
			return withCode(ExitFailure, fmt.Errorf("%v; and writing the result file: %v", err, werr))
		}
		return withCode(ExitFailure, err)
	}
	prog, file, setupMs, cleanup, err := prepareNative(e, name, src)
	defer cleanup()
	if err != nil {
		return fail(err)
	}
	args := []string{"-seed", strconv.FormatUint(opts.Seed, 10)}
	if opts.Rollouts > 0 {
		args = append(args, "-rollouts", strconv.Itoa(opts.Rollouts))
	}
	args = append(args, file, opts.Result, strconv.Itoa(opts.Seconds))
	runErr := runNative(prog.Path, args, opts.IO.Out, opts.IO.Err)
	text, rerr := os.ReadFile(opts.Result)
	if rerr != nil || len(text) == 0 {
		if runErr == nil {
			runErr = errors.New("the program wrote no result")
		}
		return fail(fmt.Errorf("engine program %s: %v", filepath.Base(prog.Path), runErr))
	}
	res, _ := protocol.Parse(string(text))
	init := setupMs
	if v, ok := res.Get(protocol.KeyInitMilliseconds); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			init += n
		}
	}
	if _, failed := res.Get(protocol.KeyErrorMessage); !failed {
		res.SetInt(protocol.KeyInitMilliseconds, init)
	}
	for _, k := range []protocol.Key{protocol.KeyCodegenMilliseconds, protocol.KeyBuildMilliseconds} {
		res.SetInt(k, prog.Setup[k])
	}
	if werr := res.WriteFile(opts.Result); werr != nil {
		return withCode(ExitFailure, fmt.Errorf("writing the result file: %w", werr))
	}
	if runErr != nil {
		return withCode(ExitFailure, runErr)
	}
	return nil
}

// runEngineTraceNative is gdlperf engine trace for an engine with a program
// of its own.
func runEngineTraceNative(opts *EngineTraceOptions, e engines.Engine, name string, src []byte) error {
	prog, file, _, cleanup, err := prepareNative(e, name, src)
	defer cleanup()
	if err != nil {
		return withCode(ExitFailure, err)
	}
	args := []string{"-trace", opts.Trace, "-seed", strconv.FormatUint(opts.Seed, 10), "-rollouts", strconv.Itoa(opts.Rollouts), file}
	if err := runNative(prog.Path, args, opts.IO.Out, opts.IO.Err); err != nil {
		return withCode(ExitFailure, err)
	}
	return nil
}
