package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

// CheckOptions are the options of gdlperf check.
type CheckOptions struct {
	IO          *IO
	Engines     []string
	Manifest    string
	Games       []string
	Reference   string
	Budget      time.Duration
	Seed        uint64
	Rollouts    int
	MaxStates   int
	Methods     []string
	ResultsDir  string
	Again       bool
	RetryFailed bool
	Jobs        int
	// Blacklist is the blacklist file ("": ./blacklist.txt if present).
	Blacklist string
	// Blacklisted checks the blacklisted games too.
	Blacklisted bool
	// JSON prints the summary as one JSON document (CheckReport).
	JSON bool
	// WorkloadBudget are the budgets of the workload method (role and
	// threshold unused).
	WorkloadBudget workload.Budget
	// ReferenceTime bounds the reference's run of a workload (0: the
	// harness default).
	ReferenceTime time.Duration
}

// NewCmdCheck builds "gdlperf check".
func NewCmdCheck(streams *IO, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Prove that engines agree with the reference prover before their speed counts",
		Long: `Check compares every engine with the reference engine on every game:

  trace        the engine's trace of seeded random rollouts against the
               reference's, doubling the rollouts from 1 until --budget;
  exhaustive   every reachable state of small games (--max-states), built-in
               engines only;
  metamorphic  the game with every name replaced by a random word must give
               the same answers, built-in engines only.

An engine's setup (a propnet's grounding, a compiled program's build) may
take up to a minute on top of --budget, so that a refusal shows its reason.
Where a time-out fails a check (the first trace round, a self-check, a
transform's trace, a workload, the reference's search of a workload) the
limit is of the process's CPU time, so that a busy machine, which gives it
part of a CPU, does not fail a slow engine; one that waits without working
(under a tenth of a CPU after 3 times the limit in wall time) is stopped
then. The rounds of the trace method after the first end with the
budget, in wall time. A rewrite of the transforms method that the engine
gives no trace of fails the pair, and the other rewrites are still played:
the verdict names those not played and those that agree. A rewrite that a
built-in engine loads to the original's program (the same rules in the
same order, as gdlperf transform says on stderr) is not played by it: its
trace is the original's by construction, and the verdict lists it apart;
an external engine reads the text and plays every rewrite.
An engine (or the reference) that stops at one of its resource limits gives
no answer, which is not a mismatch: what agreed before counts, as when the
budget runs out, and a limit before anything was compared is a failed check.
An external engine is checked by trace when its manifest names a trace
command, and is "unchecked" otherwise. Verdicts are stored under
RESULTS/check/ (resumable); gdlperf run marks the rows of an engine version
that failed on a game as "wrong". A mismatch prints what differed, the moves
that lead there and a command that reproduces it. The summary counts every
engine and game pair asked for, those checked in an earlier, interrupted run
included. --jobs N checks N pairs at once. Exit status 1 when some check found
a mismatch or could not run.

--json prints the summary as one JSON object on stdout instead of the
table: {"ok": false, "engines": [{"engine", "version", "ok", "mismatch",
"failed", "unchecked"}...], "mismatches": [{"engine", "version", "game",
"method", "seed", "rollout", "step", "detail", "moves", "reproduce"}...],
"failures": [{"engine", "version", "game", "method", "detail"}...]}; ok is
true when no pair mismatched or failed (the exit status says the same). The
table lists the failed checks too, each with why.`,
		Example: `  # every built-in engine against the prover on the built-in games
  gdlperf check
  # the propnet on the panel, by trace only, 2 s per game, 2 pairs at once
  gdlperf check --engines propnet --games panel --methods trace --budget 2s --jobs 2
  # for CI: the verdicts as JSON
  gdlperf check --engines tupleprover --json | jq .ok`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runCheck(opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.Engines, "engines", nil, "engines to check (default: every built-in engine but the reference)")
	f.StringVar(&opts.Manifest, "manifest", "", "TOML or JSON manifest of external engines (default: ./engines.toml or ./engines.json if present)")
	f.StringSliceVar(&opts.Games, "games", []string{"builtin"}, "games (as for gdlperf run)")
	f.StringVar(&opts.Reference, "reference", "prover", "the reference engine")
	f.DurationVar(&opts.Budget, "budget", 30*time.Second, "time per engine, game and method")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the first round")
	f.IntVar(&opts.Rollouts, "rollouts", 0, "exactly this many rollouts in one round (to reproduce a mismatch)")
	f.IntVar(&opts.MaxStates, "max-states", 200_000, "exhaustive check: most states to compare")
	f.StringSliceVar(&opts.Methods, "methods", []string{harness.MethodTrace, harness.MethodExhaustive, harness.MethodMetamorphic}, "methods: trace, exhaustive, metamorphic, transforms (the engine on the game and on each rewrite of gdlperf transform), workload (the answers and counts of uct, pns and minimax at the budgets of --uct-iterations, --pns-nodes, --minimax-depth, of the engine process against the reference)")
	f.StringVar(&opts.ResultsDir, "results", "gdlperf-results", "results folder (verdicts go to RESULTS/check/)")
	f.BoolVar(&opts.Again, "again", false, "check again what was checked before")
	f.BoolVar(&opts.RetryFailed, "retry-failed", false, "check again the pairs that failed before (no answer within the limits, a refusal, a crash); a resumed check skips them otherwise")
	f.IntVar(&opts.Jobs, "jobs", 1, "engine and game pairs checked at once (each uses about one core; --budget is wall time, the limits that fail a check CPU time)")
	f.StringVar(&opts.Blacklist, "blacklist", "", "blacklist file of games to skip (default: ./"+DefaultBlacklist+" if present)")
	f.BoolVar(&opts.Blacklisted, "include-blacklisted", false, "check blacklisted games too (left out by default, as gdlperf run does)")
	f.BoolVar(&opts.JSON, "json", false, "print the summary as JSON (fields in --help)")
	f.Int64Var(&opts.WorkloadBudget.Iterations, "uct-iterations", 2000, "the budget of the workload method's uct: iterations")
	f.Int64Var(&opts.WorkloadBudget.Nodes, "pns-nodes", 100_000, "the budget of the workload method's pns: node expansions")
	f.IntVar(&opts.WorkloadBudget.Depth, "minimax-depth", 3, "the budget of the workload method's minimax: plies")
	f.DurationVar(&opts.ReferenceTime, "reference-time", harness.ReferenceWorkloadTime, "the workload method: the most CPU time the reference may take for one workload of a game (the budget, when longer); a reference that takes longer is an error of every engine's check of the game")
	return cmd
}

func runCheck(opts *CheckOptions) error {
	ref, ok := engines.Lookup(opts.Reference)
	if !ok {
		return usage(fmt.Errorf("no built-in engine %q to use as the reference", opts.Reference))
	}
	if opts.Jobs < 1 {
		return usage(fmt.Errorf("--jobs must be at least 1"))
	}
	workloads, err := checkWorkloads(opts.WorkloadBudget)
	if err != nil {
		return err
	}
	for _, m := range opts.Methods {
		if m != harness.MethodTrace && m != harness.MethodExhaustive && m != harness.MethodMetamorphic && m != harness.MethodTransforms && m != harness.MethodWorkload {
			return usage(fmt.Errorf("unknown method %q: trace, exhaustive, metamorphic, transforms or workload", m))
		}
	}
	names := opts.Engines
	if len(names) == 0 {
		for _, e := range engines.List() {
			if e.Name != ref.Name {
				names = append(names, e.Name)
			}
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(opts.IO.Err, "no engine to check: the reference is the only built-in engine (name one with --engines)")
		return nil
	}
	engs, err := selectEngineVersions(names, opts.Manifest)
	if err != nil {
		return usage(err)
	}
	games, skipped, err := resolveGames(GameSelection{Selectors: opts.Games, Blacklist: opts.Blacklist, IncludeBlacklisted: opts.Blacklisted})
	if err != nil {
		return usage(err)
	}
	printSkipped(opts.IO.Err, skipped, opts.Blacklist)
	sort.Slice(games, func(i, j int) bool { return games[i].Key < games[j].Key })
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "gdlperf-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	harness.MarkOwner(work) // so that a later campaign removes it if this process is killed
	prior, err := results.LoadCheckRows(opts.ResultsDir)
	if err != nil {
		return err
	}
	fp := harness.ReadFingerprint()
	cc := &harness.CheckCampaign{
		Checker: &harness.Checker{
			Exe: exe, Reference: ref, Budget: opts.Budget, Seed: opts.Seed, Rollouts: opts.Rollouts,
			MaxStates: opts.MaxStates, WorkDir: work, Host: fp.Host, Workloads: workloads, ReferenceTime: opts.ReferenceTime,
		},
		Games: games, Engines: engs, Methods: opts.Methods, Seed: opts.Seed, Rollouts: opts.Rollouts,
		Jobs: opts.Jobs, Again: opts.Again, RetryFailed: opts.RetryFailed, Prior: prior,
		Out:      filepath.Join(opts.ResultsDir, results.CheckDir, sanitize(fp.Host)+".csv"),
		Progress: opts.IO.Err,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := cc.Execute(ctx)
	if errors.Is(err, harness.ErrInterrupted) {
		return withCode(ExitInterrupted, errors.New("interrupted; the finished checks are saved: run the same command again to resume"))
	}
	if err != nil {
		return err
	}
	latest := sum.Latest

	if printCheckSummary(opts, cc.Checker, games, engs, latest) {
		return errors.New("some engines disagree with the reference or could not be checked")
	}
	return nil
}

// CheckReport is the summary of gdlperf check, as --json prints it.
type CheckReport struct {
	OK         bool            `json:"ok"` // no pair mismatched or failed
	Engines    []CheckTally    `json:"engines"`
	Mismatches []CheckMismatch `json:"mismatches"`
	Failures   []CheckFailure  `json:"failures"`
}

// CheckFailure is a check that gave no verdict (an engine or the
// reference with no answer within its limits, a refusal, a crash), with
// why.
type CheckFailure struct {
	Engine  string `json:"engine"`
	Version string `json:"version"`
	Game    string `json:"game"`
	Method  string `json:"method"`
	Detail  string `json:"detail"`
}

// CheckTally counts the verdicts of one engine over the pairs asked for:
// a pair is ok when every method agreed, mismatch when one differed, failed
// when one could not run, unchecked when one could not be checked.
type CheckTally struct {
	Engine    string `json:"engine"`
	Version   string `json:"version"`
	OK        int    `json:"ok"`
	Mismatch  int    `json:"mismatch"`
	Failed    int    `json:"failed"`
	Unchecked int    `json:"unchecked"`
}

// CheckMismatch is one mismatch, with the moves that lead to it and the
// command that reproduces it.
type CheckMismatch struct {
	Engine    string `json:"engine"`
	Version   string `json:"version"`
	Game      string `json:"game"`
	Method    string `json:"method"`
	Seed      uint64 `json:"seed"`
	Rollout   int    `json:"rollout"`
	Step      int    `json:"step"`
	Detail    string `json:"detail"`
	Moves     string `json:"moves,omitempty"`
	Reproduce string `json:"reproduce"`
}

// checkReport tallies the verdicts of every pair asked for, checked now or
// before (latest: the newest row of each check, by c's keys).
func checkReport(opts *CheckOptions, c *harness.Checker, games []*harness.Game, engs []*harness.Engine, latest map[string]results.CheckRow) CheckReport {
	rep := CheckReport{OK: true, Engines: []CheckTally{}, Mismatches: []CheckMismatch{}, Failures: []CheckFailure{}}
	for _, e := range engs {
		t := CheckTally{Engine: e.Name, Version: e.Version}
		for _, g := range games {
			worst := results.VerdictOK
			for _, m := range opts.Methods {
				r, ok := latest[c.Key(g.Key, e, m)]
				if !ok {
					r = results.CheckRow{Engine: e.Name, EngineVersion: e.Version, GameKey: g.Key, Method: m,
						Verdict: results.VerdictError, Detail: "not checked (an earlier check of the same folder was interrupted before it?)"}
				}
				switch r.Verdict {
				case results.VerdictMismatch:
					worst = r.Verdict
					rep.Mismatches = append(rep.Mismatches, CheckMismatch{
						Engine: r.Engine, Version: r.EngineVersion, Game: r.GameKey, Method: r.Method, Seed: r.Seed,
						Rollout: r.Rollout, Step: r.Step, Detail: r.Detail, Moves: r.History, Reproduce: r.Reproduce,
					})
				case results.VerdictError:
					if worst != results.VerdictMismatch {
						worst = r.Verdict
					}
					rep.Failures = append(rep.Failures, CheckFailure{Engine: r.Engine, Version: r.EngineVersion, Game: r.GameKey, Method: r.Method, Detail: r.Detail})
				case results.VerdictUnchecked:
					if worst == results.VerdictOK {
						worst = r.Verdict
					}
				}
			}
			switch worst {
			case results.VerdictOK:
				t.OK++
			case results.VerdictMismatch:
				t.Mismatch++
			case results.VerdictError:
				t.Failed++
			default:
				t.Unchecked++
			}
		}
		rep.OK = rep.OK && t.Mismatch == 0 && t.Failed == 0
		rep.Engines = append(rep.Engines, t)
	}
	sort.SliceStable(rep.Mismatches, func(i, j int) bool {
		a, b := rep.Mismatches[i], rep.Mismatches[j]
		if a.Game != b.Game {
			return a.Game < b.Game
		}
		return a.Engine < b.Engine
	})
	return rep
}

// printCheckSummary prints the mismatches and the verdicts per engine (or
// the JSON report) and reports whether any pair mismatched or failed.
func printCheckSummary(opts *CheckOptions, c *harness.Checker, games []*harness.Game, engs []*harness.Engine, latest map[string]results.CheckRow) (bad bool) {
	rep := checkReport(opts, c, games, engs, latest)
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
		return !rep.OK
	}
	for _, r := range rep.Mismatches {
		fmt.Fprintf(opts.IO.Out, "\nMISMATCH %s on %s (%s, seed %d, rollout %d, step %d)\n  %s\n", protocol.SafeText(r.Engine), protocol.SafeText(r.Game), r.Method, r.Seed, r.Rollout, r.Step, protocol.SafeText(r.Detail))
		if r.Moves != "" {
			fmt.Fprintf(opts.IO.Out, "  moves: %s\n", protocol.SafeText(r.Moves))
		}
		fmt.Fprintf(opts.IO.Out, "  reproduce: %s\n", protocol.SafeText(r.Reproduce))
	}
	if len(rep.Failures) > 0 {
		fmt.Fprintf(opts.IO.Out, "\nFAILED: %d check%s gave no verdict (no answer within the limits, a refusal or a crash; not a disagreement):\n", len(rep.Failures), plural(len(rep.Failures)))
		for _, f := range rep.Failures {
			fmt.Fprintf(opts.IO.Out, "  %s on %s (%s): %s\n", protocol.SafeText(f.Engine), protocol.SafeText(f.Game), f.Method, protocol.OneLine(protocol.SafeText(f.Detail), 300))
		}
		fmt.Fprintln(opts.IO.Out)
	}
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ENGINE\tOK\tMISMATCH\tFAILED\tUNCHECKED")
	for _, t := range rep.Engines {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\n", protocol.SafeText(t.Engine), t.OK, t.Mismatch, t.Failed, t.Unchecked)
	}
	w.Flush()
	return !rep.OK
}

// newCmdEngineSelfCheck builds the hidden "gdlperf engine selfcheck", which
// gdlperf check runs in a child process so that a hanging engine is killed.
func newCmdEngineSelfCheck(streams *IO) *cobra.Command {
	var method, reference, out string
	var seed uint64
	var rollouts, maxStates int
	var budget time.Duration
	cmd := &cobra.Command{
		Use:    "selfcheck NAME GAME_FILE",
		Short:  "Run an exhaustive or metamorphic check of a built-in engine (used by gdlperf check)",
		Hidden: true,
		Args:   cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := lookupEngine(args[0])
			if err != nil {
				return err
			}
			ref, err := lookupEngine(reference)
			if err != nil {
				return err
			}
			name, src, err := readGame(args[1])
			if err != nil {
				return err
			}
			g, err := gdl.Load(name, src)
			var res harness.SelfCheckResult
			if err != nil {
				res = harness.SelfCheckResult{Verdict: results.VerdictError, Detail: err.Error()}
			} else {
				res = harness.SelfCheck(ref, e, g, method, seed, rollouts, maxStates, budget)
			}
			b, err := json.Marshal(res)
			if err != nil {
				return err
			}
			if out == "" {
				_, err = streams.Out.Write(append(b, '\n'))
				return err
			}
			return os.WriteFile(out, b, 0o644)
		},
	}
	cmd.Flags().StringVar(&method, "method", harness.MethodExhaustive, "exhaustive or metamorphic")
	cmd.Flags().StringVar(&reference, "reference", "prover", "reference engine")
	cmd.Flags().StringVar(&out, "out", "", "write the JSON verdict here instead of standard output")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed")
	cmd.Flags().IntVar(&rollouts, "rollouts", 5, "metamorphic: rollouts")
	cmd.Flags().IntVar(&maxStates, "max-states", 200_000, "exhaustive: most states")
	cmd.Flags().DurationVar(&budget, "budget", 0, "exhaustive: stop (incomplete) after this long")
	return cmd
}

// checkWorkloads are the workloads of the workload method with the budgets
// of the flags: nil (harness.DefaultCheckWorkloads) for the defaults.
func checkWorkloads(b workload.Budget) ([]harness.Dims, error) {
	if b.Iterations <= 0 || b.Nodes <= 0 || b.Depth <= 0 {
		return nil, usage(fmt.Errorf("the workload method compares fixed work: --uct-iterations, --pns-nodes and --minimax-depth must be above 0"))
	}
	ds := []harness.Dims{
		{Workload: workload.UCT, Budget: b.String(workload.UCT)},
		{Workload: workload.PNS, Budget: b.String(workload.PNS)},
		{Workload: workload.Minimax, Budget: b.String(workload.Minimax)},
	}
	if slices.Equal(ds, harness.DefaultCheckWorkloads) {
		return nil, nil
	}
	return ds, nil
}
