package rt

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// Exit statuses, as gdlperf's.
const (
	exitFailure = 1
	exitUsage   = 2
)

var processStart = time.Now()

const usage = `usage:
  PROG [-design D] [-seed S] [-rollouts N] GAME_FILE RESULT_FILE SECONDS
  PROG -workload uct|pns|minimax [budget flags] [-design D] [-seed S] GAME_FILE RESULT_FILE SECONDS
  PROG -trace TRACE_FILE [-design D] [-seed S] [-rollouts N] GAME_FILE
  PROG -serve [-design D] [GAME_FILE]
  PROG -choose`

// RunChoose runs the command line args with the program's designs and
// returns the exit status. Each mode loads the designs and keeps the
// fastest in a warm-up (see choose), or the one that -design names.
// -choose plays the warm-up alone and prints the name of the design kept:
// the program's build runs it once and records the name, which every
// run of the program is then given with -design (the warm-up's choice is
// a function of the game: it counts work, not time).
func RunChoose(designs []Design, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compiled", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of the random move choices")
	rollouts := fs.Int("rollouts", -1, "fixed-work mode (a run) or number of rollouts (a trace, 1 by default)")
	trace := fs.String("trace", "", "write a trace to this file (\"-\": standard output)")
	serve := fs.Bool("serve", false, "answer questions on standard input")
	chooseOnly := fs.Bool("choose", false, "play the warm-up and print the name of the design kept")
	design := fs.String("design", "", "use this design, \""+DesignBottomUp+"\", \"magic\", \"magic-sites\", \"magic-demand\" or \"incremental\", instead of the warm-up's choice")
	work := fs.String("workload", workload.Rollouts, "the work: "+strings.Join(workload.Names, ", ")+" (engines/workload/SPEC.md)")
	var budget workload.Budget
	fs.Int64Var(&budget.Iterations, "iterations", 0, "uct: iterations (0: as many as SECONDS allows, a timed run)")
	fs.Int64Var(&budget.Nodes, "nodes", 0, "pns: node expansions (0: timed)")
	fs.IntVar(&budget.Depth, "depth", 0, "minimax: plies to search")
	fs.StringVar(&budget.Role, "role", "", "pns and minimax: the role searched for (default: the first)")
	fs.IntVar(&budget.Threshold, "threshold", 0, "pns: one search for a goal of at least this (0: the value, by binary search)")
	fs.Usage = func() { fmt.Fprintln(stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest := fs.Args()
	forced := *design
	switch forced {
	case "", DesignBottomUp, DesignMagic, DesignMagicSites, DesignMagicDemand, DesignIncremental:
	case "magic":
		forced = DesignMagic
	case "magic-sites":
		forced = DesignMagicSites
	case "magic-demand":
		forced = DesignMagicDemand
	default:
		fmt.Fprintf(stderr, "-design must be %s, magic, magic-sites, magic-demand or incremental, not %q\n", DesignBottomUp, forced)
		return exitUsage
	}
	es := make([]*Engine, len(designs))
	for i, d := range designs {
		es[i] = d.Setup()
		es[i].Design, es[i].Fallback = d.Name, d.Fallback
	}
	e := es[0] // for the rules' checksum and the version
	switch {
	case *chooseOnly:
		if len(rest) != 0 {
			fs.Usage()
			return exitUsage
		}
		e, err := choose(es, forced)
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return exitFailure
		}
		fmt.Fprintln(stdout, e.Design)
		return 0
	case *serve:
		if len(rest) > 1 {
			fs.Usage()
			return exitUsage
		}
		if len(rest) == 1 {
			if err := e.checkFile(rest[0]); err != nil {
				fmt.Fprintln(stderr, err)
				return exitFailure
			}
		}
		e, err := choose(es, forced)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFailure
		}
		if err := e.Serve(stdin, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return exitFailure
		}
		return 0
	case *trace != "":
		if len(rest) != 1 {
			fs.Usage()
			return exitUsage
		}
		n := 1
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "rollouts" })
		if set {
			if *rollouts < 0 {
				fmt.Fprintln(stderr, "-rollouts must not be negative")
				return exitUsage
			}
			n = *rollouts
		}
		if err := runTrace(es, forced, rest[0], *trace, *seed, n, stdout); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return exitFailure
		}
		return 0
	}
	if len(rest) != 3 {
		fs.Usage()
		return exitUsage
	}
	secs, err := strconv.Atoi(rest[2])
	if err != nil || secs < 0 {
		fmt.Fprintf(stderr, "SECONDS must be a whole number of seconds, not %q\n", rest[2])
		return exitUsage
	}
	var res *protocol.Result
	if *work != workload.Rollouts {
		res, err = processWorkload(es, forced, rest[0], *work, budget, secs, *seed)
	} else {
		res, err = process(es, forced, rest[0], secs, max(*rollouts, 0), *seed)
	}
	if werr := res.WriteFile(rest[1]); werr != nil {
		fmt.Fprintln(stderr, "error: writing the result file:", werr)
		return exitFailure
	}
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return exitFailure
	}
	return 0
}

// checkFile refuses a game file whose bytes are not those the program was
// built for.
func (e *Engine) checkFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != e.RulesSHA {
		return fmt.Errorf("%s: the rules are not those this program was built for (sha256 %s, built for %s)", path, got, e.RulesSHA)
	}
	return nil
}

// process is one benchmark run, as rollout.Process.Run (protocol.Run);
// the choice of the design is part of the start-up, before the timing
// starts.
func process(es []*Engine, forced, file string, secs, rollouts int, seed uint64) (*protocol.Result, error) {
	e := es[0]
	setup := setupDesign(es, forced, file, &e)
	play := func() (protocol.Stats, error) {
		if rollouts > 0 {
			return e.runFixed(rollouts, seed)
		}
		return e.runTimed(protocol.NewClock(time.Duration(secs)*time.Second), seed)
	}
	return protocol.Run(e.Version, "compiled", processStart, seed, setup, play)
}

// setupDesign is the start-up of a run, before the timing starts: the game
// file checked and the design chosen into *e (and recorded).
func setupDesign(es []*Engine, forced, file string, e **Engine) func(*protocol.Result) error {
	return func(extra *protocol.Result) error {
		if err := (*e).checkFile(file); err != nil {
			return err
		}
		chosen, err := choose(es, forced)
		if err != nil {
			return err
		}
		*e = chosen
		extra.Set(protocol.KeyDesign, chosen.Design)
		return nil
	}
}

// runTimed is rollout.Run: the rollouts of protocol.Loop, with the same
// clock policy and random draws, over this engine's playout.
func (e *Engine) runTimed(c *protocol.Clock, seed uint64) (protocol.Stats, error) {
	rng := protocol.TimedRand(seed)
	choose := func(_ int, legal []int32) int32 { return legal[rng.IntN(len(legal))] }
	joint := make([]int32, len(e.Roles))
	return protocol.Loop(c, -1, func(_ int64, stop func() bool) (steps int64, stopped bool, err error) {
		stopped, err = e.playout(joint, choose, 0, stop, &steps)
		return steps, stopped, err
	})
}

// runFixed is rollout.RunFixed: protocol.Chooser's choices.
func (e *Engine) runFixed(n int, seed uint64) (protocol.Stats, error) {
	ch := protocol.NewIndexedChooser(e.MoveText, func(mv int32) int { return int(mv) })
	joint := make([]int32, len(e.Roles))
	return protocol.Loop(nil, int64(n), func(r int64, _ func() bool) (steps int64, stopped bool, err error) {
		ch.Start(seed, r)
		_, err = e.playout(joint, ch.Choose, protocol.MaxTraceSteps, nil, &steps)
		return steps, false, err
	})
}

// playout is rollout's playout over this engine's states, the hot loop of
// a run: one rollout, each role's move chosen by choose, its state changes
// counted in steps. With maxSteps > 0, a rollout longer than that is a game
// error; stop, when not nil, is asked before every step and ends the
// rollout unfinished when it says so.
func (e *Engine) playout(joint []int32, choose func(role int, legal []int32) int32, maxSteps int, stop func() bool, steps *int64) (stopped bool, err error) {
	defer e.guard(&err) // one for the rollout, not one per question
	e.playing = true    // until guard
	s := e.initial()
	for step := 0; ; step++ {
		if stop != nil && stop() {
			return true, nil
		}
		if maxSteps > 0 && step >= maxSteps {
			return false, protocol.Errorf(protocol.ResourceLimit, "a rollout did not end within %d steps", maxSteps)
		}
		if e.terminal(s) {
			break
		}
		for r := range joint {
			legal, err := e.legal(s, r)
			if err != nil {
				return false, err
			}
			joint[r] = choose(r, legal)
		}
		s = e.next(s, joint)
		*steps++
	}
	if len(e.goalBuf) != len(e.Roles) {
		e.goalBuf = make([]int, len(e.Roles))
	}
	err = e.goals(s, e.goalBuf)
	return false, err
}

// runTrace is gdlperf engine trace (protocol.WriteTrace).
func runTrace(es []*Engine, forced, game, path string, seed uint64, n int, stdout io.Writer) error {
	if err := es[0].checkFile(game); err != nil {
		return err
	}
	e, err := choose(es, forced)
	if err != nil {
		return err
	}
	return protocol.WriteTrace(path, stdout, func(w io.Writer) error { return e.Trace(w, seed, n) })
}

// Trace is rollout.Trace (protocol.Trace).
func (e *Engine) Trace(w io.Writer, seed uint64, n int) error {
	h := protocol.TraceHeader{Roles: e.RoleNames(), Engine: "compiled", Version: e.Version, Seed: seed}
	return protocol.Trace[*State, int32](w, e, h, n)
}
