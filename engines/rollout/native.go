package rollout

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Native is an engine's own program prepared for one game.
type Native struct {
	Program *engines.NativeProgram
	// File is the game file the program is given: the game's own, or a
	// temporary copy (a built-in game has no file), removed by Close.
	File string
	// SetupMillis is the time of loading the game and preparing the
	// program (code generation and build, or a cache hit).
	SetupMillis int64
	cleanup     func()
}

// PrepareNative loads the game (file names it in messages, rules is its
// text) and prepares the engine's own program for it.
func PrepareNative(e engines.Engine, file string, rules []byte) (*Native, error) {
	start := time.Now()
	g, err := gdl.Load(file, rules)
	if err != nil {
		return nil, err
	}
	prog, err := e.Native(g, rules)
	if err != nil {
		return nil, err
	}
	n := &Native{Program: prog, File: file, SetupMillis: time.Since(start).Milliseconds(), cleanup: func() {}}
	if b, rerr := os.ReadFile(file); rerr != nil || string(b) != string(rules) {
		// A built-in game has no file of its own: give the program a copy.
		f, err := os.CreateTemp("", "gdlperf-game-*.kif")
		if err != nil {
			return nil, err
		}
		_, err = f.Write(rules)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return nil, err
		}
		n.File = f.Name()
		n.cleanup = func() { os.Remove(f.Name()) }
	}
	return n, nil
}

// Close removes the temporary copy of the game, if one was made.
func (n *Native) Close() { n.cleanup() }

// Run runs the program with its own arguments (Program.Args) and then args
// as a child that shares the given streams; SIGTERM and SIGINT sent to
// this process are passed on, and the child dies with this process
// (Pdeathsig).
func (n *Native) Run(args []string, stdout, stderr io.Writer) error {
	path := n.Program.Path
	cmd := exec.Command(path, append(slices.Clip(n.Program.Args), args...)...)
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
