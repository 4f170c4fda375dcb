package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/harness"
)

// NewCmdEngine builds "gdlperf engine ...": the engine process and its tools.
func NewCmdEngine(streams *IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "engine",
		Short: "List engines; run and trace the built-in engines",
		Example: `  # the engines gdlperf run can use, with their versions
  gdlperf engine list
  # one benchmark run: 2 s of random rollouts of the prover on the built-in tic-tac-toe
  gdlperf engine run prover builtin:tictactoe result.txt 2 && cat result.txt
  # a trace of 2 seeded rollouts, as gdlperf check compares them
  gdlperf engine trace prover builtin:tictactoe - --seed 1 --rollouts 2
  # the propnet's network for connect four: its size and build time
  gdlperf engine info propnet builtin:connectfour`,
	}
	cmd.AddCommand(newCmdEngineList(streams), NewCmdEngineRun(streams, nil), NewCmdEngineTrace(streams, nil))
	return cmd
}

func newCmdEngineList(streams *IO) *cobra.Command {
	var manifest string
	var check, asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the built-in engines and the external engines of the manifest",
		Long: `List shows every engine gdlperf run can use: the built-in engines and the
external engines of --manifest (default: ./engines.toml or ./engines.json
when one exists), with their versions, whether they write traces for
gdlperf check, and the command the harness runs (GAME_FILE RESULT_FILE
SECONDS are appended to it). With --check each external engine is run for
3 s on the built-in tic-tac-toe, as before a campaign; the exit status is 1
when one fails.

--json prints a JSON array instead, one object per engine: {"name",
"version", "kind" (built-in or external), "trace", "fixedWork", "workloads",
"command" (the argument list), and with --check "check": {"ok", "version",
"reason"}}.`,
		Example: `  gdlperf engine list
  gdlperf engine list --manifest engines.toml --check
  gdlperf engine list --json | jq -r '.[] | .name + " " + .version'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return runEngineListJSON(streams, manifest, check)
			}
			return runEngineList(streams, manifest, check)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of the engines (fields in --help)")
	cmd.Flags().StringVar(&manifest, "manifest", "", "TOML or JSON manifest of external engines (default: ./engines.toml or ./engines.json if present)")
	cmd.Flags().BoolVar(&check, "check", false, "run the compatibility check of every external engine")
	return cmd
}

func runEngineList(streams *IO, manifest string, check bool) error {
	c, err := loadEngineCatalog(manifest)
	if err != nil {
		return usage(err)
	}
	ext := c.external
	w := tabwriter.NewWriter(streams.Out, 0, 4, 2, ' ', 0)
	header := "ENGINE\tVERSION\tKIND\tTRACE\tROLLOUTS\tCOMMAND"
	if check {
		header += "\tCHECK"
	}
	fmt.Fprintln(w, header)
	for _, e := range engines.List() {
		fmt.Fprintf(w, "%s\t%s\tbuilt-in\tyes\tyes\tgdlperf engine run %s", e.Name, protocol.SafeText(e.Version), e.Name)
		if check {
			fmt.Fprint(w, "\t-")
		}
		fmt.Fprintln(w)
	}
	// The names, versions and commands of the manifest and what an engine
	// reports are shown escaped (protocol.SafeText): no escape sequence or
	// bidi override reaches the terminal.
	var failed []string
	for _, e := range ext {
		version := e.Version
		if version == "" {
			version = "-"
		}
		command := harness.ShellJoin(e.Command)
		if e.Dir != "" {
			command += " (in " + e.Dir + ")"
		}
		if len(e.Env) > 0 {
			command = strings.Join(e.Env, " ") + " " + command
		}
		fmt.Fprintf(w, "%s\t%s\texternal\t%s\t%s\t%s", protocol.SafeText(e.Name), protocol.SafeText(version), yesNo(len(e.TraceCommand) > 0), yesNo(e.FixedWork), protocol.SafeText(command))
		if check {
			res := harness.CheckCompat(context.Background(), e, harness.ChildOptions{CPU: -1})
			if res.OK {
				fmt.Fprintf(w, "\tok (%s reported version %s)", protocol.SafeText(e.Name), protocol.SafeText(res.Outcome.Version))
			} else {
				fmt.Fprint(w, "\tFAILED")
				failed = append(failed, protocol.SafeText(e.Name+": "+res.Reason))
			}
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "\n"))
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func lookupEngine(name string) (engines.Engine, error) {
	e, ok := engines.Lookup(name)
	if !ok {
		var names []string
		for _, e := range engines.List() {
			names = append(names, e.Name)
		}
		return e, usage(fmt.Errorf("no built-in engine %q; the engines are %v", name, names))
	}
	return e, nil
}

// EngineRunOptions are the options of gdlperf engine run.
type EngineRunOptions struct {
	IO       *IO
	Engine   string
	Game     string
	Result   string
	Seconds  int
	Rollouts int
	Seed     uint64
	// Workload is the work of the run (engines/workload/SPEC.md):
	// rollouts (the default, the gdl-perf loop), uct, pns or minimax, with
	// its budget.
	Workload string
	Budget   workload.Budget
}

// NewCmdEngineRun builds "gdlperf engine run NAME GAME RESULT SECONDS", the
// engine process of one benchmark run.
func NewCmdEngineRun(streams *IO, runF func(*EngineRunOptions) error) *cobra.Command {
	opts := &EngineRunOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "run NAME GAME_FILE RESULT_FILE SECONDS",
		Short: "Run random rollouts for SECONDS and write a gdl-perf result file",
		Long: `Run is the engine process of one benchmark run (the gdl-perf protocol): it
loads GAME_FILE (or builtin:NAME), builds the engine (setup, not timed), runs
random rollouts for SECONDS and writes RESULT_FILE as "key = value" lines:
version, millisecondsTaken, numStateChanges, numRollouts, initMilliseconds,
cpuMilliseconds (the CPU time of the rollouts), peakRSSKiB, gomaxprocs and
seed, then design (the design kept) and options (non-default knobs, such
as the propnet's GDLPERF_PROPNET_* settings) where the engine has them; or
version and errorMessage on failure, with exit status 1.

--workload uct|pns|minimax runs a search instead of random rollouts
(engines/workload/SPEC.md: every correct engine gives the same tree, counts
and answer): uct --iterations N, pns --nodes N [--role R] [--threshold T],
minimax --depth D [--role R]; SECONDS bounds a run that takes too long. The
result file adds workload, workloadBudget, numIterations, numNodes, value,
bestMove, proofResult and answer (the root's statistics or the proof, one
line).`,
		Example: `  gdlperf engine run prover builtin:tictactoe result.txt 2
  gdlperf engine run propnet builtin:tictactoe result.txt 60 --workload pns --nodes 100000
  gdlperf engine run tupleprover builtin:connectfour result.txt 60 --workload uct --iterations 2000`,
		Args: cobra.ExactArgs(4),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Engine, opts.Game, opts.Result = args[0], args[1], args[2]
			n, err := strconv.Atoi(args[3])
			if err != nil || n < 0 {
				return usage(fmt.Errorf("SECONDS must be a whole number of seconds, not %q", args[3]))
			}
			opts.Seconds = n
			if runF != nil {
				return runF(opts)
			}
			return runEngineRun(opts)
		},
	}
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the random move choices")
	cmd.Flags().IntVar(&opts.Rollouts, "rollouts", 0, "fixed-work mode: play exactly this many seeded rollouts (as in a trace) and measure their time; SECONDS is ignored")
	addWorkloadFlags(cmd.Flags(), &opts.Workload, &opts.Budget)
	return cmd
}

// addWorkloadFlags binds --workload and its budget flags.
func addWorkloadFlags(f *pflag.FlagSet, name *string, b *workload.Budget) {
	f.StringVar(name, "workload", workload.Rollouts, "the work: "+strings.Join(workload.Names, ", ")+" (engines/workload/SPEC.md)")
	f.Int64Var(&b.Iterations, "iterations", 0, "uct: iterations (0: as many as SECONDS allows, a timed run)")
	f.Int64Var(&b.Nodes, "nodes", 0, "pns: node expansions (0: timed)")
	f.IntVar(&b.Depth, "depth", 0, "minimax: plies to search (0: as deep as SECONDS allows, iterative deepening, a timed run)")
	f.StringVar(&b.Role, "role", "", "pns and minimax: the role searched for (default: the first)")
	f.IntVar(&b.Threshold, "threshold", 0, "pns: one search for a goal of at least this (0: the value, by binary search)")
}

func runEngineRun(opts *EngineRunOptions) error {
	e, err := lookupEngine(opts.Engine)
	if err != nil {
		if werr := rollout.WriteFailure(opts.Result, "unknown", err); werr != nil {
			return fmt.Errorf("%v; and writing the result file: %v", err, werr)
		}
		return err
	}
	name, src, err := readGame(opts.Game)
	if err != nil {
		if werr := rollout.WriteFailure(opts.Result, e.Version, err); werr != nil {
			return fmt.Errorf("writing the result file: %w", werr)
		}
		return err
	}
	if opts.Workload != "" && opts.Workload != workload.Rollouts && e.Native != nil {
		// the engine's own program runs the workload (the compiled
		// prover's runs engines/workload's searches over its engine)
		b := opts.Budget
		args := []string{"-workload", opts.Workload, "-iterations", strconv.FormatInt(b.Iterations, 10), "-nodes", strconv.FormatInt(b.Nodes, 10),
			"-depth", strconv.Itoa(b.Depth), "-role", b.Role, "-threshold", strconv.Itoa(b.Threshold)}
		p := rollout.Process{Engine: e, File: name, Rules: src, Seconds: opts.Seconds, Seed: opts.Seed, ProgramArgs: args}
		return p.WriteResult(opts.Result, opts.IO.Out, opts.IO.Err)
	}
	if opts.Workload != "" && opts.Workload != workload.Rollouts {
		res, runErr := workload.Process{Engine: e, File: name, Rules: src, Workload: opts.Workload, Budget: opts.Budget, Seconds: opts.Seconds, Seed: opts.Seed}.Run()
		if err := res.WriteFile(opts.Result); err != nil {
			return fmt.Errorf("writing the result file: %w", err)
		}
		if runErr != nil {
			return runErr
		}
		return nil
	}
	p := rollout.Process{Engine: e, File: name, Rules: src, Seconds: opts.Seconds, Rollouts: opts.Rollouts, Seed: opts.Seed}
	if err := p.WriteResult(opts.Result, opts.IO.Out, opts.IO.Err); err != nil {
		return err
	}
	return nil
}

// EngineTraceOptions are the options of gdlperf engine trace.
type EngineTraceOptions struct {
	IO       *IO
	Engine   string
	Game     string
	Trace    string
	Seed     uint64
	Rollouts int
}

// NewCmdEngineTrace builds "gdlperf engine trace NAME GAME TRACE".
func NewCmdEngineTrace(streams *IO, runF func(*EngineTraceOptions) error) *cobra.Command {
	opts := &EngineTraceOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "trace NAME GAME_FILE TRACE_FILE",
		Example: `  gdlperf engine trace prover builtin:tictactoe - --seed 1 --rollouts 2
  gdlperf engine trace propnet BASE/hex hex.jsonl --seed 7 --rollouts 100`,
		Short: "Write a trace of seeded random rollouts (JSON Lines) for correctness checks",
		Long: `Trace plays --rollouts random rollouts with moves chosen by --seed from the
legal moves sorted by their text, and writes every state, legal move set,
joint move, terminal flag and goal vector as JSON Lines to TRACE_FILE ("-"
for standard output). Every correct engine writes the same bytes for the
same game and seed.`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Engine, opts.Game, opts.Trace = args[0], args[1], args[2]
			if runF != nil {
				return runF(opts)
			}
			return runEngineTrace(opts)
		},
	}
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the move choices")
	cmd.Flags().IntVar(&opts.Rollouts, "rollouts", 1, "number of rollouts")
	return cmd
}

func runEngineTrace(opts *EngineTraceOptions) error {
	e, err := lookupEngine(opts.Engine)
	if err != nil {
		return err
	}
	if opts.Rollouts < 0 {
		return usage(fmt.Errorf("--rollouts must not be negative"))
	}
	name, src, err := readGame(opts.Game)
	if err != nil {
		return err
	}
	p := rollout.Process{Engine: e, File: name, Rules: src, Rollouts: opts.Rollouts, Seed: opts.Seed}
	if err := p.WriteTrace(opts.Trace, opts.IO.Out, opts.IO.Err); err != nil {
		return err
	}
	return nil
}

// EngineListing is one engine of gdlperf engine list --json.
type EngineListing struct {
	Name      string        `json:"name"`
	Version   string        `json:"version"`
	Kind      string        `json:"kind"` // built-in or external
	Trace     bool          `json:"trace"`
	FixedWork bool          `json:"fixedWork"`
	Workloads []string      `json:"workloads"`
	Command   []string      `json:"command"`
	Check     *EngineCompat `json:"check,omitempty"`
}

// EngineCompat is the compatibility check of engine list --check --json.
type EngineCompat struct {
	OK      bool   `json:"ok"`
	Version string `json:"version,omitempty"` // what the engine reported
	Reason  string `json:"reason,omitempty"`
}

func runEngineListJSON(streams *IO, manifest string, check bool) error {
	c, err := loadEngineCatalog(manifest)
	if err != nil {
		return usage(err)
	}
	list := []EngineListing{}
	failed := 0
	for _, set := range [][]*harness.Engine{c.builtin, c.external} {
		for _, e := range set {
			l := EngineListing{Name: e.Name, Version: e.Version, Kind: "external", Trace: len(e.TraceCommand) > 0,
				FixedWork: e.FixedWork, Workloads: append([]string{"rollouts"}, e.Workloads...), Command: e.Command}
			if e.Builtin {
				l.Kind = "built-in"
			} else if check {
				res := harness.CheckCompat(context.Background(), e, harness.ChildOptions{CPU: -1})
				l.Check = &EngineCompat{OK: res.OK, Version: res.Outcome.Version, Reason: res.Reason}
				if !res.OK {
					failed++
				}
			}
			list = append(list, l)
		}
	}
	enc := json.NewEncoder(streams.Out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(list); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d engine(s) failed the compatibility check", failed)
	}
	return nil
}
