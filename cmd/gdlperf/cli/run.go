package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

// RunOptions are the options of gdlperf run.
type RunOptions struct {
	IO          *IO
	Engines     []string
	Manifest    string
	Games       []string
	Seconds     int
	Rollouts    int
	Reps        int
	Seed        uint64
	ResultsDir  string
	Shard       string
	DryRun      bool
	RetryFailed bool
	Limit       time.Duration
	MemoryLimit int64
	GOMAXPROCS  int
	CPU         int
	Blacklisted bool
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
skipped, the interrupted one is redone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if shard, ok := shardFromEnv(); ok && opts.Shard == "" {
				opts.Shard = shard
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.Engines, "engines", nil, "engines to run: built-in names or names from --manifest (default: every built-in engine)")
	f.StringVar(&opts.Manifest, "manifest", "", "JSON manifest of external engines")
	f.StringSliceVar(&opts.Games, "games", []string{"builtin"}, "games: builtin, builtin:NAME, a .kif file or a folder of them")
	f.IntVar(&opts.Seconds, "seconds", 30, "seconds of rollouts per run")
	f.IntVar(&opts.Rollouts, "rollouts", 0, "fixed-work mode: seeded rollouts per run instead of --seconds")
	f.IntVar(&opts.Reps, "reps", 1, "repetitions of every (game, engine)")
	f.Uint64Var(&opts.Seed, "seed", 1, "campaign seed (order of runs and rollout seeds)")
	f.StringVar(&opts.ResultsDir, "results", "gdlperf-results", "results folder")
	f.StringVar(&opts.Shard, "shard", "", "run shard i/n of the plan (by game); also read from SLURM_ARRAY_TASK_ID/COUNT and JOB_COMPLETION_INDEX")
	f.BoolVar(&opts.DryRun, "dry-run", false, "print the plan and its expected duration, run nothing")
	f.BoolVar(&opts.RetryFailed, "retry-failed", false, "run again the runs that failed before")
	f.DurationVar(&opts.Limit, "limit", 0, "wall-clock limit per run (default: seconds + a grace, 240s for 30s)")
	f.Int64Var(&opts.MemoryLimit, "memory-limit", 0, "resident memory limit per engine process in MiB (0: none)")
	f.IntVar(&opts.GOMAXPROCS, "gomaxprocs", 0, "GOMAXPROCS for engine processes (0: inherit)")
	f.IntVar(&opts.CPU, "cpu", -1, "pin engine processes to this CPU")
	f.BoolVar(&opts.Blacklisted, "include-blacklisted", false, "run blacklisted games too")
	return cmd
}

// shardFromEnv reads a shard from Slurm's or Kubernetes' array variables.
func shardFromEnv() (string, bool) {
	if id := os.Getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		var i, lo, step, count int
		fmt.Sscan(id, &i)
		fmt.Sscan(os.Getenv("SLURM_ARRAY_TASK_MIN"), &lo)
		step = 1
		if s := os.Getenv("SLURM_ARRAY_TASK_STEP"); s != "" {
			fmt.Sscan(s, &step)
		}
		fmt.Sscan(os.Getenv("SLURM_ARRAY_TASK_COUNT"), &count)
		if count > 0 && step > 0 {
			return fmt.Sprintf("%d/%d", (i-lo)/step, count), true
		}
	}
	if id := os.Getenv("JOB_COMPLETION_INDEX"); id != "" {
		var n int
		fmt.Sscan(os.Getenv("GDLPERF_SHARDS"), &n)
		if n > 0 {
			return id + "/" + fmt.Sprint(n), true
		}
	}
	return "", false
}

func runRun(opts *RunOptions) error {
	if opts.Seconds < 0 || opts.Rollouts < 0 || opts.Reps < 1 {
		return withCode(ExitUsage, errors.New("--seconds and --rollouts must not be negative, --reps at least 1"))
	}
	o := harness.Options{Seconds: opts.Seconds, Rollouts: opts.Rollouts, Repetitions: opts.Reps, Seed: opts.Seed}
	if opts.Shard != "" {
		s, err := harness.ParseShard(opts.Shard)
		if err != nil {
			return withCode(ExitUsage, err)
		}
		o.Shard = s
	}
	engs, err := selectEngines(opts.Engines, opts.Manifest)
	if err != nil {
		return withCode(ExitUsage, err)
	}
	games, skipped, err := selectGames(opts.Games, !opts.Blacklisted)
	if err != nil {
		return withCode(ExitUsage, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(opts.IO.Err, "skipping blacklisted %s\n", s)
	}
	if len(games) == 0 {
		return withCode(ExitUsage, errors.New("no games selected"))
	}
	plan := harness.Plan(games, engs, o)
	limit := opts.Limit
	if limit == 0 {
		limit = harness.Limit(o)
	}
	if opts.DryRun {
		return printPlan(opts.IO.Out, plan, o, limit)
	}

	if err := os.MkdirAll(opts.ResultsDir, 0o755); err != nil {
		return withCode(ExitFailure, fmt.Errorf("results folder: %w", err))
	}
	warn := func(w string) { fmt.Fprintln(opts.IO.Err, "warning:", w) }
	rows, _, err := results.LoadDir(opts.ResultsDir, results.WithWarnings(warn))
	if err != nil {
		return withCode(ExitFailure, err)
	}
	fp := harness.ReadFingerprint()
	name := sanitize(fp.Host)
	if o.Shard.N > 1 {
		name += fmt.Sprintf("-shard-%d-of-%d", o.Shard.I, o.Shard.N)
	}
	w, err := results.OpenWriter(filepath.Join(opts.ResultsDir, name+".csv"))
	if err != nil {
		return withCode(ExitFailure, err)
	}
	defer w.Close()
	for _, msg := range w.Warnings() {
		warn(msg)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &harness.Campaign{
		Runs:        plan,
		Options:     o,
		Child:       harness.ChildOptions{Limit: limit, MemoryLimit: opts.MemoryLimit << 20, GOMAXPROCS: opts.GOMAXPROCS, CPU: opts.CPU},
		Writer:      w,
		Done:        results.Done(rows, opts.RetryFailed),
		Fingerprint: fp,
		Progress:    opts.IO.Err,
		Terminal:    isTTY(opts.IO.Err),
	}
	sum, err := c.Execute(ctx)
	fmt.Fprintf(opts.IO.Err, "%d runs planned, %d already done, %d run now, %d failed\n", sum.Planned, sum.Skipped, sum.Ran, sum.Failed)
	if errors.Is(err, harness.ErrInterrupted) {
		return withCode(ExitFailure, fmt.Errorf("interrupted; the finished runs are saved in %s: run the same command again to resume", opts.ResultsDir))
	}
	if err != nil {
		return withCode(ExitFailure, err)
	}
	return nil
}

func printPlan(w io.Writer, plan []harness.Run, o harness.Options, limit time.Duration) error {
	for _, r := range plan {
		fmt.Fprintf(w, "%s\t%s\t%s\trep %d\tseed %d\n", r.Key, r.Engine.Name, r.Game.Key, r.Repetition, r.Seed)
	}
	per := time.Duration(o.Seconds)*time.Second + time.Second
	if o.Rollouts > 0 {
		fmt.Fprintf(w, "%d runs of %d rollouts each; at most %s per run\n", len(plan), o.Rollouts, limit)
		return nil
	}
	fmt.Fprintf(w, "%d runs, expected about %s (at most %s)\n", len(plan), (time.Duration(len(plan)) * per).Round(time.Second), time.Duration(len(plan))*limit)
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

// selectEngines resolves engine names against the built-in engines and the
// manifest.
func selectEngines(names []string, manifest string) ([]*harness.Engine, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	all := map[string]*harness.Engine{}
	for _, e := range harness.BuiltinEngines(exe) {
		all[e.Name] = e
	}
	if manifest != "" {
		ext, err := harness.LoadManifest(manifest)
		if err != nil {
			return nil, err
		}
		for _, e := range ext {
			if _, dup := all[e.Name]; dup {
				return nil, fmt.Errorf("%s: engine %s is also a built-in engine; give it another name", manifest, e.Name)
			}
			all[e.Name] = e
		}
	}
	var out []*harness.Engine
	if len(names) == 0 {
		return harness.BuiltinEngines(exe), nil
	}
	for _, n := range names {
		e, ok := all[n]
		if !ok {
			return nil, fmt.Errorf("no engine %q (built-in: prover; external engines come from --manifest)", n)
		}
		out = append(out, e)
	}
	return out, nil
}
