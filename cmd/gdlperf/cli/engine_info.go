package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/harness"
)

// EngineInfoOptions are the options of gdlperf engine info.
type EngineInfoOptions struct {
	IO         *IO
	Engine     string
	Game       string
	MaxTime    time.Duration
	MaxMemory  int64 // MiB
	MaxSize    int
	NoOptimise bool
}

// newCmdEngineInfo builds "gdlperf engine info NAME GAME".
func newCmdEngineInfo(streams *IO) *cobra.Command { return NewCmdEngineInfo(streams, nil) }

// NewCmdEngineInfo builds "gdlperf engine info NAME GAME"; runF replaces
// the command's work in tests.
func NewCmdEngineInfo(streams *IO, runF func(*EngineInfoOptions) error) *cobra.Command {
	opts := &EngineInfoOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "info NAME GAME_FILE",
		Example: `  gdlperf engine info propnet builtin:connectfour
  gdlperf engine info compiled BASE/ticTacToe`,
		Short: "Build an engine for a game and print what it built (propnet: the network's size; compiled: its program)",
		Long: `Info builds the engine NAME for GAME_FILE (or builtin:NAME) as a benchmark run
would, and prints what the build made and how long it took. For propnet: the
grounding (atoms and rule instances), the network before and after
optimisation (components, links, AND, OR and NOT gates, constants,
transitions, base, input and view propositions) and the runtime layout
(propagated and goal-only nodes, cyclic components, state bits, moves, how
the legal moves are found). For compiled: the program's path in the cache, the
code generation and build times (or a cache hit), each design's size (or why it
was left out), and the program's start-up time and the design it keeps.

A game over the build's budget (--max-time, --max-memory, --max-size) is
refused with its sizes and exit status 1. The defaults are the engine's: the
environment variables GDLPERF_PROPNET_MAX_TIME, GDLPERF_PROPNET_MAX_MEMORY and
GDLPERF_PROPNET_MAX_SIZE set them for gdlperf engine run and gdlperf run.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Engine, opts.Game = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return runEngineInfo(opts)
		},
	}
	def, _ := propnet.OptionsFromEnv()
	cmd.Flags().DurationVar(&opts.MaxTime, "max-time", def.MaxTime, "budget of grounding and network construction in CPU time (0: none)")
	cmd.Flags().Int64Var(&opts.MaxMemory, "max-memory", def.MaxMemory>>20, "heap budget of the build in MiB (0: none)")
	cmd.Flags().IntVar(&opts.MaxSize, "max-size", def.MaxSize, "most atoms, rule instances, terms or network nodes of the build, each (0: none)")
	cmd.Flags().BoolVar(&opts.NoOptimise, "no-optimise", false, "keep the network as grounded")
	return cmd
}

func runEngineInfo(opts *EngineInfoOptions) error {
	e, err := lookupEngine(opts.Engine)
	if err != nil {
		return err
	}
	if e.Native != nil {
		return runNativeInfo(opts, e)
	}
	if opts.Engine != propnet.Name {
		return usage(fmt.Errorf("engine %s has no build figures to show; engine info knows %s and the engines with programs of their own (compiled)", opts.Engine, propnet.Name))
	}
	if opts.MaxTime < 0 || opts.MaxMemory < 0 || opts.MaxSize < 0 {
		return usage(fmt.Errorf("--max-time, --max-memory and --max-size must not be negative"))
	}
	name, src, err := readGame(opts.Game)
	if err != nil {
		return err
	}
	g, err := gdl.Load(name, src)
	if err != nil {
		return err
	}
	o := []propnet.Option{propnet.WithMaxTime(opts.MaxTime), propnet.WithMaxMemory(opts.MaxMemory << 20), propnet.WithMaxSize(opts.MaxSize)}
	if opts.NoOptimise {
		o = append(o, propnet.WithoutOptimisation())
	}
	start := time.Now()
	m, err := propnet.New(g, o...)
	if err != nil {
		return fmt.Errorf("%s: %w (after %s)", name, err, time.Since(start).Round(time.Millisecond))
	}
	return printPropnetInfo(opts.IO.Out, name, m.Build)
}

// runNativeInfo prepares an engine's own program for the game (a build
// or a cache hit), prints what the generator said of it, and starts it for
// one rollout to show its start-up time and the design it keeps.
func runNativeInfo(opts *EngineInfoOptions, e engines.Engine) error {
	name, src, err := readGame(opts.Game)
	if err != nil {
		return err
	}
	n, err := rollout.PrepareNative(e, name, src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer n.Close()
	prog, setupMs := n.Program, n.SetupMillis
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "game\t%s\n", name)
	fmt.Fprintf(w, "engine\t%s %s\n", e.Name, e.Version)
	fmt.Fprintf(w, "program\t%s\n", prog.Path)
	if prog.Setup[protocol.KeyBuildMilliseconds] == 0 {
		fmt.Fprintf(w, "setup\t%d ms (a cache hit)\n", setupMs)
	} else {
		fmt.Fprintf(w, "setup\t%d ms (code generation %d ms, build %d ms)\n", setupMs, prog.Setup[protocol.KeyCodegenMilliseconds], prog.Setup[protocol.KeyBuildMilliseconds])
	}
	for i, line := range prog.Info {
		label := ""
		if i == 0 {
			label = "designs"
		}
		fmt.Fprintf(w, "%s\t%s\n", label, line)
	}
	dir, err := os.MkdirTemp("", "gdlperf-info-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	harness.MarkOwner(dir) // so that a later campaign removes it if this process is killed
	result := filepath.Join(dir, "result.txt")
	runErr := n.Run([]string{"-rollouts", "1", n.File, result, "0"}, io.Discard, opts.IO.Err)
	text, _ := os.ReadFile(result)
	res, _ := protocol.Parse(string(text))
	if msg, ok := res.Get(protocol.KeyErrorMessage); ok {
		fmt.Fprintf(w, "start-up\tfailed: %s\n", msg)
	} else if runErr != nil {
		fmt.Fprintf(w, "start-up\tfailed: %v\n", runErr)
	} else {
		init, _ := res.Get(protocol.KeyInitMilliseconds)
		design, _ := res.Get(protocol.KeyDesign)
		fmt.Fprintf(w, "start-up\t%s ms, keeps the design %s\n", init, design)
	}
	return w.Flush()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func printPropnetInfo(out io.Writer, game string, b propnet.BuildStats) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "game\t%s\n", game)
	fmt.Fprintf(w, "engine\t%s %s\n", propnet.Name, propnet.Version)
	fmt.Fprintf(w, "build time\t%s (grounding %s, network %s, optimisation %s, layout %s)\n", ms(b.Total), ms(b.GroundTime), ms(b.NetworkTime), ms(b.OptimiseTime), ms(b.LayoutTime))
	gs := b.Ground
	fmt.Fprintf(w, "grounding\t%d exact atoms, %d network atoms, %d rule instances (%d literals), %d terms, %d iterations\n", gs.ExactAtoms, gs.NetAtoms, gs.Instances, gs.InstanceLinks, gs.Terms, gs.Iterations)
	fmt.Fprintln(w)
	after := "optimised"
	if b.Options.NoOptimise {
		after = "pruned (--no-optimise)"
	}
	fmt.Fprintf(w, "network\tas grounded\t%s\n", after)
	row := func(label string, x, y int) { fmt.Fprintf(w, "%s\t%d\t%d\n", label, x, y) }
	row("components", b.Before.Components, b.After.Components)
	row("links", b.Before.Links, b.After.Links)
	row("AND gates", b.Before.And, b.After.And)
	row("OR gates", b.Before.Or, b.After.Or)
	row("NOT gates", b.Before.Not, b.After.Not)
	row("constants", b.Before.Constants, b.After.Constants)
	row("transitions", b.Before.Transitions, b.After.Transitions)
	row("base propositions", b.Before.Base, b.After.Base)
	row("input propositions", b.Before.Input, b.After.Input)
	row("view propositions", b.Before.Views, b.After.Views)
	fmt.Fprintln(w)
	p := b.Program
	fmt.Fprintf(w, "runtime\t%d nodes: %d propagated, %d evaluated for goals only\n", p.Nodes, p.MainNodes, p.GoalOnlyNodes)
	fmt.Fprintf(w, "\t%d successor links (%d triggers of legal moves and next-state bits)\n", p.Successors, p.Triggers)
	fmt.Fprintf(w, "\t%d cyclic components (%d nodes, the largest %d)\n", p.CyclicComps, p.CyclicNodes, p.LargestCycle)
	fmt.Fprintf(w, "\t%d state bits, %d moves\n", p.StateBits, p.Moves)
	if p.DeferredGates > 0 {
		fmt.Fprintf(w, "\t%d gates read %d nodes by deferred edges (counted only while the gate's other input holds)\n", p.DeferredGates, p.DeferredSources)
	}
	legal := "read from their propositions when asked"
	if p.LegalTriggers {
		legal = "kept by triggers"
	}
	fmt.Fprintf(w, "\tlegal moves %s\n", legal)
	if b.LayoutChoice != "" {
		fmt.Fprintf(w, "\t%s\n", b.LayoutChoice)
	}
	if b.Lanes != "" {
		fmt.Fprintf(w, "\t%s\n", b.Lanes)
	}
	return w.Flush()
}
