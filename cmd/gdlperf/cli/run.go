package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gdlperf/gdlperf/engines/transform"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

// RunOptions are the options of gdlperf run.
type RunOptions struct {
	IO             *IO
	Engines        []string
	Manifest       string
	Games          []string
	CacheDir       string
	Blacklist      string
	Seconds        int
	Rollouts       int
	Reps           int
	Seed           uint64
	ResultsDir     string
	Shard          string
	DryRun         bool
	RetryFailed    bool
	Limit          time.Duration
	MemoryLimit    int64
	GOMAXPROCS     int
	CPU            int
	Blacklisted    bool
	SkipCompat     bool
	RequireChecked bool
	FailOnError    bool
	Jobs           int
	CPUs           string
	RerunContended int
	ContendedBelow float64
	Measure        MeasureOptions
	// Workloads are the workloads of the plan (--workloads), with their
	// budgets.
	Workloads      []string
	WorkloadBudget workload.Budget
	// Transforms are the rule rewrites of the plan (--transforms), each
	// with TransformSeeds for the seeded ones.
	Transforms     []string
	TransformSeeds []uint
	// measured is what Measure resolved to (planRun).
	measured MeasureChoice
}

// NewCmdRun builds "gdlperf run", the main job.
func NewCmdRun(streams *IO, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run every engine on every game and append one results row per run",
		Long: `Run plans every (game, engine, repetition), interleaved in rounds, and runs
each as a separate engine process for --seconds of random rollouts (or
--rollouts seeded rollouts in fixed-work mode), appending one CSV row per run
to --results. A campaign that is stopped (Ctrl-C, a reboot, a kill) resumes
where it stopped when the same command is run again: finished runs are
skipped, the interrupted one is redone.

Games blacklisted in --blacklist (default: ./blacklist.txt when it exists)
are left out and listed, unless --include-blacklisted. External engines come
from --manifest (default: ./engines.toml or ./engines.json when one exists);
each is first run for 3 s on the built-in tic-tac-toe, and refused with the
reason when that does not give an ok result (--skip-compat-check skips it).

With --shard i/n (or a Slurm array task's SLURM_ARRAY_TASK_ID, or a
Kubernetes indexed job's JOB_COMPLETION_INDEX with GDLPERF_SHARDS=n) only
the games of shard i run, each shard writing its own file; see gdlperf slurm.
One campaign runs on a results folder at a time, or the shards of one plan
side by side; another is refused with the pid of the one running.

A run that fails (crash, time-out, error) is recorded and the campaign goes
on; the summary says how many failed, and --fail-on-error makes that exit
status 1.

Every row records the CPU share of the run's timed part (the engine's CPU
time over its wall time) and the load before and after. A run under
--contended-below (0.9) of a CPU is contended: another process took part of
its CPU, so its rate says more about the machine than about the engine;
compare, ab and the report leave it out of verdicts and say so.
--rerun-contended N runs such a run again at the end of the campaign, up to
N times (its rows are all kept, marked).

--jobs N runs N engine processes at once, each pinned to a CPU of its own
(--cpus, default one logical CPU per physical core of those this process may
use; --jobs 0 takes them all). The runs, their keys and seeds are the same
as with --jobs 1 and start in the same order, each on whichever CPU is free,
so every engine's runs spread over every CPU. Jobs share caches, memory
bandwidth and the chip's power budget (turbo), so rates under --jobs are
lower and noisier than alone; rows record the jobs and the CPU, and verdicts
never mix rows of different jobs. Measure with --jobs 1 when the figures are
the point, use --jobs for correctness sweeps and rough rankings.
--memory-limit is per job.

` + measureHelp,
		Example: `  # every built-in engine on the built-in games, 2 s per run (no network)
  gdlperf run --games builtin --seconds 2
  # the panel as reported: 30 s runs, 3 interleaved repetitions
  gdlperf run --games panel --reps 3
  # a quick sweep of the cached base repository on two cores
  gdlperf run --games base --seconds 2 --jobs 2
  # fixed work: 1000 seeded rollouts per run
  gdlperf run --games builtin --rollouts 1000 --engines prover,propnet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Shard == "" {
				shard, ok, err := shardFromEnv(os.Getenv)
				if err != nil {
					return usage(err)
				}
				if ok {
					opts.Shard = shard
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	addRunFlags(cmd.Flags(), opts)
	f := cmd.Flags()
	f.StringVar(&opts.Shard, "shard", "", "run shard i/n of the plan (by game); also read from SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX")
	f.BoolVar(&opts.DryRun, "dry-run", false, "print the plan, what is already done and the expected duration; run nothing")
	return cmd
}

// addRunFlags binds the flags that shape a campaign; gdlperf slurm passes
// them on to the gdlperf run of every array task.
func addRunFlags(f *pflag.FlagSet, opts *RunOptions) {
	addMeasureFlags(f, &opts.Measure)
	f.StringSliceVar(&opts.Workloads, "workloads", []string{workload.Rollouts}, "workloads of every game and engine: "+strings.Join(workload.Names, ", ")+" (engines/workload/SPEC.md)")
	f.Int64Var(&opts.WorkloadBudget.Iterations, "uct-iterations", 2000, "the budget of workload uct: iterations (0: timed, as many as --seconds allows)")
	f.Int64Var(&opts.WorkloadBudget.Nodes, "pns-nodes", 100_000, "the budget of workload pns: node expansions (0: timed, as many as --seconds allows)")
	f.IntVar(&opts.WorkloadBudget.Depth, "minimax-depth", 3, "the budget of workload minimax: plies (0: timed, iterative deepening for --seconds)")
	f.StringVar(&opts.WorkloadBudget.Role, "workload-role", "", "the role pns and minimax search for (default: each game's first)")
	f.StringSliceVar(&opts.Transforms, "transforms", []string{"none"}, "rule rewrites of every game (gdlperf transform): none, or transform names, a chain as a+b; rows keep the original game's key")
	f.UintSliceVar(&opts.TransformSeeds, "transform-seeds", []uint{1}, "seeds of the seeded transforms (shuffle, rename): one variant each")
	f.StringSliceVar(&opts.Engines, "engines", nil, "engines to run: built-in names or names from --manifest (default: every built-in engine)")
	f.StringVar(&opts.Manifest, "manifest", "", "TOML or JSON manifest of external engines (default: ./engines.toml or ./engines.json if present)")
	f.StringSliceVar(&opts.Games, "games", []string{"builtin"}, gamesHelp)
	f.StringVar(&opts.CacheDir, "cache", "", "game cache folder (default $GDLPERF_CACHE or the user cache folder)")
	f.StringVar(&opts.Blacklist, "blacklist", "", "blacklist file of games to skip (default: ./"+DefaultBlacklist+" if present)")
	f.BoolVar(&opts.Blacklisted, "include-blacklisted", false, "run blacklisted games too")
	f.IntVar(&opts.Seconds, "seconds", 30, "seconds of rollouts per run")
	f.IntVar(&opts.Rollouts, "rollouts", 0, "fixed-work mode: seeded rollouts per run instead of --seconds")
	f.IntVar(&opts.Reps, "reps", 1, "repetitions of every (game, engine)")
	f.Uint64Var(&opts.Seed, "seed", 1, "campaign seed (order of runs and rollout seeds)")
	f.StringVar(&opts.ResultsDir, "results", "gdlperf-results", "results folder")
	f.BoolVar(&opts.RetryFailed, "retry-failed", false, "run again the runs that failed before")
	f.DurationVar(&opts.Limit, "limit", 0, "time limit per run: past it in wall time a run is stopped, unless it works at a tenth of a CPU or more (a busy machine), then once it has used it in CPU time (default: seconds + a grace, 240s for 30s)")
	f.Int64Var(&opts.MemoryLimit, "memory-limit", 0, "resident memory limit per engine process in MiB (0: none)")
	f.IntVar(&opts.GOMAXPROCS, "gomaxprocs", 0, "GOMAXPROCS for engine processes (0: inherit)")
	f.IntVar(&opts.CPU, "cpu", -1, "pin engine processes to this CPU")
	f.BoolVar(&opts.SkipCompat, "skip-compat-check", false, "use external engines without their 3 s compatibility check")
	f.BoolVar(&opts.RequireChecked, "require-checked", false, "skip the runs of engine versions that gdlperf check did not find correct on the game")
	f.IntVar(&opts.Jobs, "jobs", 1, "engine processes at once, each pinned to a CPU of its own from --cpus (0: one per physical core); 1 measures best (see the README)")
	f.StringVar(&opts.CPUs, "cpus", "", "CPUs for --jobs, as 0-3,8 (default: those this process may use, one per physical core)")
	f.IntVar(&opts.RerunContended, "rerun-contended", 0, "run a contended run (under --contended-below of a CPU) again at the end of the campaign, up to this many times (0: never, so that a campaign's length is known in advance)")
	f.Float64Var(&opts.ContendedBelow, "contended-below", harness.DefaultContendedBelow, "CPU share of a run's timed part under which it is contended and left out of verdicts")
	f.BoolVar(&opts.FailOnError, "fail-on-error", false, "exit with status 1 when a run failed (its row is not ok), for CI; without it such a campaign exits 0 and says how many failed")
}

// shardFromEnv reads the shard of an array job from the environment:
//
//   - Slurm: SLURM_ARRAY_TASK_ID, normalised by SLURM_ARRAY_TASK_MIN and
//     _STEP to 0..COUNT-1, with SLURM_ARRAY_TASK_COUNT shards. Only arrays
//     of evenly spaced indices can be normalised (0-3, 1-7:2); a list such
//     as 0,2,5 is an error (give --shard).
//   - Kubernetes indexed jobs: JOB_COMPLETION_INDEX, with GDLPERF_SHARDS
//     (the job's completions) as the number of shards.
//
// The scripts of gdlperf slurm pass --shard themselves, so that a task
// resubmitted alone (sbatch --array=3) still runs shard 3.
func shardFromEnv(getenv func(string) string) (string, bool, error) {
	num := func(name string, def int) (int, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a number", name, v)
		}
		return n, nil
	}
	if getenv("SLURM_ARRAY_TASK_ID") != "" {
		id, err := num("SLURM_ARRAY_TASK_ID", 0)
		if err != nil {
			return "", false, err
		}
		lo, err := num("SLURM_ARRAY_TASK_MIN", 0)
		if err != nil {
			return "", false, err
		}
		hi, err := num("SLURM_ARRAY_TASK_MAX", -1)
		if err != nil {
			return "", false, err
		}
		step, err := num("SLURM_ARRAY_TASK_STEP", 1)
		if err != nil {
			return "", false, err
		}
		count, err := num("SLURM_ARRAY_TASK_COUNT", 0)
		if err != nil {
			return "", false, err
		}
		if step < 1 {
			return "", false, fmt.Errorf("SLURM_ARRAY_TASK_STEP=%d is not positive", step)
		}
		if count == 0 && hi >= lo {
			count = (hi-lo)/step + 1
		}
		if count < 1 {
			return "", false, errors.New("SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT (or _MAX): give --shard i/n")
		}
		if hi >= lo && (hi-lo)/step+1 != count {
			return "", false, fmt.Errorf("the Slurm array's indices are not evenly spaced (%d tasks from %d to %d by %d): give --shard i/n", count, lo, hi, step)
		}
		if id < lo || (id-lo)%step != 0 || (id-lo)/step >= count {
			return "", false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is not one of %d tasks from %d by %d: give --shard i/n", id, count, lo, step)
		}
		return fmt.Sprintf("%d/%d", (id-lo)/step, count), true, nil
	}
	if getenv("JOB_COMPLETION_INDEX") != "" {
		id, err := num("JOB_COMPLETION_INDEX", 0)
		if err != nil {
			return "", false, err
		}
		n, err := num("GDLPERF_SHARDS", 0)
		if err != nil {
			return "", false, err
		}
		if n < 1 {
			return "", false, errors.New("JOB_COMPLETION_INDEX is set but GDLPERF_SHARDS (the number of shards, the job's completions) is not: set it, or give --shard i/n")
		}
		if id < 0 || id >= n {
			return "", false, fmt.Errorf("JOB_COMPLETION_INDEX=%d is not below GDLPERF_SHARDS=%d", id, n)
		}
		return fmt.Sprintf("%d/%d", id, n), true, nil
	}
	return "", false, nil
}

// campaignPlan is what run and slurm work out from the options before
// running anything.
type campaignPlan struct {
	Options harness.Options
	Engines []*harness.Engine
	Games   []*harness.Game
	Runs    []harness.Run
	Limit   time.Duration
}

// planRun checks the options, selects the engines and the games (saying
// which blacklisted games it leaves out) and plans the runs.
func planRun(opts *RunOptions) (*campaignPlan, error) {
	if opts.Seconds < 0 || opts.Rollouts < 0 || opts.Reps < 1 {
		return nil, usage(errors.New("--seconds and --rollouts must not be negative, --reps at least 1"))
	}
	if opts.Jobs < 0 || opts.RerunContended < 0 || opts.ContendedBelow < 0 || opts.ContendedBelow > 1 {
		return nil, usage(errors.New("--jobs and --rerun-contended must not be negative, --contended-below is a share from 0 to 1"))
	}
	mc, err := opts.Measure.resolve(context.Background(), opts.Rollouts, opts.IO.Err)
	if err != nil {
		return nil, err
	}
	opts.measured = mc
	dims, err := workloadDims(opts.Workloads, opts.WorkloadBudget)
	if err != nil {
		return nil, err
	}
	if dims, err = transformDims(dims, opts.Transforms, opts.TransformSeeds); err != nil {
		return nil, err
	}
	p := &campaignPlan{Options: harness.Options{Seconds: opts.Seconds, Rollouts: mc.Rollouts, Repetitions: opts.Reps, Seed: opts.Seed, Dims: dims,
		AutoRollouts: mc.Dims == results.MeasureInstructions && opts.Rollouts == 0}}
	if opts.Shard != "" {
		s, err := harness.ParseShard(opts.Shard)
		if err != nil {
			return nil, usage(err)
		}
		p.Options.Shard = s
	}
	p.Engines, err = selectEngineVersions(opts.Engines, opts.Manifest)
	if err != nil {
		return nil, usage(err)
	}
	warn := func(w string) { fmt.Fprintln(opts.IO.Err, "warning:", w) }
	if opts.Rollouts > 0 {
		for _, e := range p.Engines {
			if !e.FixedWork {
				warn(fmt.Sprintf("engine %s does not take --rollouts: it runs in time mode for --seconds %d, and its rows say mode=time", e.Name, opts.Seconds))
			}
		}
	}
	games, skipped, err := resolveGames(GameSelection{
		Selectors: opts.Games, CacheDir: opts.CacheDir, Blacklist: opts.Blacklist,
		IncludeBlacklisted: opts.Blacklisted, Warn: warn,
	})
	if err != nil {
		return nil, usage(err)
	}
	printSkipped(opts.IO.Err, skipped, opts.Blacklist)
	if len(games) == 0 {
		return nil, usage(errors.New("no games selected"))
	}
	p.Games = games
	p.Runs = harness.WithMeasure(harness.Plan(games, p.Engines, p.Options), p.Options, mc.Dims)
	p.Limit = opts.Limit
	if p.Limit == 0 {
		p.Limit = harness.Limit(p.Options)
	}
	return p, nil
}

// doneRuns are the run keys a campaign skips: every key with a row (with
// --retry-failed, a finished row), but those whose rows are all contended
// while --rerun-contended allows another run. contended counts the
// contended rows of each key, for harness.Campaign.ContendedBefore.
func doneRuns(rows []results.Row, opts *RunOptions) (done map[string]bool, contended map[string]int) {
	done = results.Done(rows, opts.RetryFailed)
	contended = results.Contended(rows)
	for k, n := range contended {
		if n <= opts.RerunContended {
			delete(done, k)
		}
	}
	return done, contended
}

// jobCPUs are the CPUs of --jobs and --cpus, or nil for one job pinned by
// --cpu (or not at all). More memory for the jobs than the machine has is
// refused.
func jobCPUs(opts *RunOptions, machineMiB int64) ([]int, error) {
	if opts.Jobs == 1 && opts.CPUs == "" {
		return nil, nil
	}
	var list []int
	if opts.CPUs != "" {
		l, err := harness.ParseCPUList(opts.CPUs)
		if err != nil {
			return nil, usage(fmt.Errorf("--cpus: %w", err))
		}
		list = l
	}
	cpus, err := harness.JobCPUs(opts.Jobs, list)
	if err != nil {
		return nil, usage(err)
	}
	if total := int64(len(cpus)) * opts.MemoryLimit; opts.MemoryLimit > 0 && machineMiB > 0 && total > machineMiB {
		return nil, usage(fmt.Errorf("--jobs %d with --memory-limit %d MiB each needs %d MiB, but the machine has %d MiB: lower one of them", len(cpus), opts.MemoryLimit, total, machineMiB))
	}
	return cpus, nil
}

// resultsFile is the file a campaign appends to in dir: one per host and
// shard, so that the shards of an array job never share a file.
func resultsFile(dir, host string, s harness.Shard) string {
	name := sanitize(host)
	if s.N > 1 {
		name += fmt.Sprintf("-shard-%d-of-%d", s.I, s.N)
	}
	return filepath.Join(dir, name+".csv")
}

func runRun(opts *RunOptions) error {
	p, err := planRun(opts)
	if err != nil {
		return err
	}
	o := p.Options
	warn := func(w string) { fmt.Fprintln(opts.IO.Err, "warning:", w) }
	if opts.DryRun {
		var done map[string]bool
		if st, err := os.Stat(opts.ResultsDir); err == nil && st.IsDir() {
			rows, _, err := results.LoadDir(opts.ResultsDir, results.WithWarnings(warn))
			if err != nil {
				return err
			}
			done, _ = doneRuns(rows, opts)
		}
		return printPlan(opts.IO.Out, p.Runs, done, o, p.Limit)
	}

	if err := os.MkdirAll(opts.ResultsDir, 0o755); err != nil {
		return fmt.Errorf("results folder: %w", err)
	}
	// One campaign per results folder, or shards of one plan: two would
	// run the same runs.
	lock, err := lockCampaign(opts.ResultsDir, o.Shard)
	if err != nil {
		return err
	}
	defer lock.Close()
	fp := harness.ReadFingerprint()
	// The lock first, then the rows: no other process can add a row to
	// this file between the reading and the first run.
	w, err := results.OpenWriter(resultsFile(opts.ResultsDir, fp.Host, o.Shard))
	if err != nil {
		return err
	}
	defer w.Close()
	guard, err := fileGuard(w.Path())
	if err != nil {
		return err
	}
	for _, msg := range w.Warnings() {
		warn(msg)
	}
	rows, _, err := results.LoadDir(opts.ResultsDir, results.WithWarnings(warn))
	if err != nil {
		return err
	}
	cpus, err := jobCPUs(opts, fp.MemoryMiB)
	if err != nil {
		return err
	}
	if len(cpus) > 0 {
		where := "the harness shares them"
		if harness.PinSelf(cpus) {
			where = "the harness keeps off them"
		}
		fmt.Fprintf(opts.IO.Err, "%d jobs at once, on CPUs %s (%s)\n", len(cpus), harness.FormatCPUList(cpus), where)
	}
	done, contended := doneRuns(rows, opts)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &harness.Campaign{
		Runs:            p.Runs,
		Options:         o,
		Child:           harness.ChildOptions{Limit: p.Limit, MemoryLimit: opts.MemoryLimit << 20, GOMAXPROCS: opts.GOMAXPROCS, CPU: opts.CPU},
		Writer:          w,
		Done:            done,
		Fingerprint:     fp,
		Progress:        opts.IO.Err,
		Terminal:        isTTY(opts.IO.Err),
		SkipCompat:      opts.SkipCompat,
		RequireChecked:  opts.RequireChecked,
		Guard:           guard,
		Measure:         harness.Measurement{GdlperfVersion: BuildVersion(), ContendedBelow: opts.ContendedBelow},
		CPUs:            cpus,
		RerunContended:  opts.RerunContended,
		ContendedBefore: contended,
	}
	rows = nil
	v, err := results.RunVerdicts(opts.ResultsDir)
	if err != nil {
		return err
	}
	c.Verdict = v
	sum, err := c.Execute(ctx)
	msg := fmt.Sprintf("%d runs planned, %d already done, %d run now, %d failed", sum.Planned, sum.Skipped, sum.Ran, sum.Failed)
	if sum.Wrong > 0 {
		msg += fmt.Sprintf(" (%d of them wrong)", sum.Wrong)
	}
	if sum.Unchecked > 0 {
		msg += fmt.Sprintf(", %d skipped as not checked", sum.Unchecked)
	}
	if sum.Refused > 0 {
		msg += fmt.Sprintf(", %d not run: engine refused", sum.Refused)
	}
	if sum.Unsupported > 0 {
		msg += fmt.Sprintf(", %d skipped: workload not run by the engine", sum.Unsupported)
	}
	if sum.Contended > 0 {
		msg += fmt.Sprintf(", %d contended (under %.0f%% of a CPU: left out of verdicts; %d run again)", sum.Contended, 100*opts.ContendedBelow, sum.Rerun)
	}
	fmt.Fprintln(opts.IO.Err, msg)
	if errors.Is(err, harness.ErrInterrupted) {
		return withCode(ExitInterrupted, fmt.Errorf("interrupted; the finished runs are saved in %s (the interrupted run was not recorded): run the same command again to resume", opts.ResultsDir))
	}
	if err != nil {
		return err
	}
	if len(sum.RefusedEngines) > 0 {
		return fmt.Errorf("%s; fix the engine and run the same command again, or leave it out of --engines", strings.Join(sum.RefusedEngines, "; "))
	}
	if sum.Failed > 0 {
		how := "--retry-failed runs them again; --fail-on-error makes this exit 1"
		if opts.FailOnError {
			return fmt.Errorf("%d of %d runs failed (--fail-on-error); their rows in %s say why; --retry-failed runs them again", sum.Failed, sum.Ran, opts.ResultsDir)
		}
		fmt.Fprintf(opts.IO.Err, "%d of %d runs failed; their rows in %s say why (%s)\n", sum.Failed, sum.Ran, opts.ResultsDir, how)
	}
	return nil
}

// fileGuard returns a check that the results file at path is still the file
// the writer appends to: a file removed (or its folder) during a campaign
// would take every row with it, unseen.
func fileGuard(path string) (func() error, error) {
	start, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("results file: %w", err)
	}
	return func() error {
		st, err := os.Stat(path)
		if err == nil && os.SameFile(start, st) {
			return nil
		}
		return fmt.Errorf("the results file %s was removed during the campaign (the rows written to it went with it); restore it, or run the same command again to redo its runs", path)
	}, nil
}

func printPlan(w io.Writer, plan []harness.Run, done map[string]bool, o harness.Options, limit time.Duration) error {
	todo := 0
	for _, r := range plan {
		mark := ""
		if done[r.Key] {
			mark = "\tdone"
		} else {
			todo++
		}
		fmt.Fprintf(w, "%s\t%s\t%s\trep %d\tseed %d%s\n", r.Key, r.Engine.Name, r.Game.Key, r.Repetition, r.Seed, mark)
	}
	already := ""
	if n := len(plan) - todo; n > 0 {
		already = fmt.Sprintf(", %d already done, %d to run", n, todo)
	}
	if o.Rollouts > 0 {
		fmt.Fprintf(w, "%d runs of %d rollouts each%s; at most %s per run\n", len(plan), o.Rollouts, already, limit)
		return nil
	}
	per := time.Duration(o.Seconds)*time.Second + time.Second
	fmt.Fprintf(w, "%d runs%s, expected about %s (at most %s)\n", len(plan), already, (time.Duration(todo) * per).Round(time.Second), time.Duration(todo)*limit)
	return nil
}

func sanitize(s string) string {
	if s == "" {
		return "results"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// workloadDims are the run dimensions of --workloads: rollouts is the
// default dimension (gdlperf 1's run keys), the others carry their budget.
func workloadDims(names []string, b workload.Budget) ([]harness.Dims, error) {
	var out []harness.Dims
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if seen[n] {
			continue
		}
		seen[n] = true
		switch n {
		case workload.Rollouts:
			out = append(out, harness.Dims{})
		case workload.UCT, workload.PNS, workload.Minimax:
			budget := b
			if n == workload.UCT {
				budget.Role = ""
			}
			if b.Iterations < 0 || b.Nodes < 0 || b.Depth < 0 {
				return nil, usage(fmt.Errorf("workload %s needs a budget of 0 or more (--uct-iterations, --pns-nodes, --minimax-depth; 0 for a timed run of --seconds)", n))
			}
			out = append(out, harness.Dims{Workload: n, Budget: budget.String(n)})
		default:
			return nil, usage(fmt.Errorf("no workload %q; the workloads are %s", n, strings.Join(workload.Names, ", ")))
		}
	}
	return out, nil
}

// transformDims crosses the workload dimensions with --transforms: none is
// the game as written (gdlperf 1's keys), every other a rewrite, the seeded
// ones once per seed of --transform-seeds.
func transformDims(dims []harness.Dims, names []string, seedFlags []uint) ([]harness.Dims, error) {
	seeds := []uint64{1}
	if len(seedFlags) > 0 {
		seeds = seeds[:0]
		for _, s := range seedFlags {
			seeds = append(seeds, uint64(s))
		}
	}
	var out []harness.Dims
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		if n == "none" {
			out = append(out, dims...)
			continue
		}
		chain, err := transform.ParseNames(strings.ReplaceAll(n, "+", ","))
		if err != nil {
			return nil, usage(fmt.Errorf("--transforms: %w", err))
		}
		variants := []uint64{0}
		if transform.Seeded(chain) {
			variants = seeds
		}
		for _, seed := range variants {
			for _, d := range dims {
				d.Transform, d.TransformSeed = n, seed
				out = append(out, d)
			}
		}
	}
	return out, nil
}
