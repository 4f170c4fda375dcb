package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gdlperf/gdlperf/harness"
)

// SlurmOptions are the options of gdlperf slurm.
type SlurmOptions struct {
	IO      *IO
	Run     RunOptions
	RunArgs []string // the gdlperf run flags given, as --name=value
	Shards  int
	Out     string
	JobName string
	Time    string
	Sbatch  []string
	Gdlperf string
	Dir     string // the folder the tasks run in (the current one)
}

// NewCmdSlurm builds "gdlperf slurm --shards N [run flags...]".
func NewCmdSlurm(streams *IO, runF func(*SlurmOptions) error) *cobra.Command {
	opts := &SlurmOptions{IO: streams}
	opts.Run.IO = streams
	cmd := &cobra.Command{
		Use: "slurm --shards N [run flags...]",
		Example: `  gdlperf slurm --shards 16 --games base --seconds 30 --reps 3 --out campaign.sbatch
  gdlperf slurm --shards 4 --games panel --jobs 8 --out panel.sbatch`,
		Short: "Write an sbatch script that runs a campaign as a Slurm job array of N shards",
		Long: `Slurm writes a batch script for sbatch: a job array of --shards tasks, task i
running "gdlperf run --shard i/N" with the run flags given here, in the
current folder, so every task writes its own file (HOST-shard-i-of-N.csv)
into the same --results folder, which must be on a file system the nodes
share. The plan is sharded by game: every engine of one game runs on one
node. Submit it with "sbatch FILE"; a task that was stopped resumes when it
is submitted again alone ("sbatch --array=3 FILE"). When the array is done,
"gdlperf results merge RESULTS --out merged.csv" joins the shards and lists
missing cells.

The script is printed, or written to --out. --time is the array tasks' time
limit (default: twice the expected time of the largest shard plus 10
minutes; none in fixed-work mode); --sbatch adds any other #SBATCH option
(--sbatch=--partition=bench --sbatch=--exclusive).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Shards < 1 {
				return usage(errors.New("--shards must be at least 1"))
			}
			runFlags := pflag.NewFlagSet("run", pflag.ContinueOnError)
			addRunFlags(runFlags, &RunOptions{})
			opts.RunArgs = nil
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if runFlags.Lookup(f.Name) == nil || f.Name == "results" || f.Name == "seed" {
					return
				}
				opts.RunArgs = append(opts.RunArgs, "--"+f.Name+"="+flagValue(f))
			})
			// Always explicit: where the rows go and the seed that makes
			// the shards one campaign.
			opts.RunArgs = append(opts.RunArgs, "--results="+opts.Run.ResultsDir, fmt.Sprintf("--seed=%d", opts.Run.Seed))
			sort.Strings(opts.RunArgs)
			if opts.Dir == "" {
				d, err := os.Getwd()
				if err != nil {
					return err
				}
				opts.Dir = d
			}
			if opts.Gdlperf == "" {
				exe, err := os.Executable()
				if err != nil {
					return err
				}
				opts.Gdlperf = exe
			}
			if runF != nil {
				return runF(opts)
			}
			return runSlurm(opts)
		},
	}
	f := cmd.Flags()
	addRunFlags(f, &opts.Run)
	f.IntVar(&opts.Shards, "shards", 0, "number of array tasks (shards of the plan, by game)")
	f.StringVarP(&opts.Out, "out", "o", "", "write the script to this file (default: print it)")
	f.StringVar(&opts.JobName, "job-name", "gdlperf", "the job's name")
	f.StringVar(&opts.Time, "time", "", "time limit of each array task, as sbatch takes it (default: from the plan)")
	f.StringArrayVar(&opts.Sbatch, "sbatch", nil, "another #SBATCH option, e.g. --sbatch=--partition=bench (repeatable)")
	f.StringVar(&opts.Gdlperf, "gdlperf", "", "the gdlperf binary the tasks run (default: this one)")
	_ = cmd.MarkFlagRequired("shards")
	return cmd
}

// flagValue is a flag's value as the command line would give it.
func flagValue(f *pflag.Flag) string {
	if s, ok := f.Value.(pflag.SliceValue); ok {
		return strings.Join(s.GetSlice(), ",")
	}
	return f.Value.String()
}

func runSlurm(opts *SlurmOptions) error {
	// Plan the whole campaign now: bad flags fail here, not on the nodes.
	ro := opts.Run
	ro.Shard = ""
	p, err := planRun(&ro)
	if err != nil {
		return err
	}
	largest, empty := 0, 0
	for i := 0; i < opts.Shards; i++ {
		o := p.Options
		o.Shard = harness.Shard{I: i, N: opts.Shards}
		n := len(harness.Plan(p.Games, p.Engines, o))
		largest = max(largest, n)
		if n == 0 {
			empty++
		}
	}
	external := 0
	for _, e := range p.Engines {
		if !e.Builtin {
			external++
		}
	}
	expected := time.Duration(largest)*(time.Duration(p.Options.Seconds)*time.Second+time.Second) + time.Duration(external*harness.CompatSeconds)*time.Second
	if j := opts.Run.Jobs; j > 1 {
		expected /= time.Duration(j) // --jobs runs j at once on each node
	}
	limit := opts.Time
	if limit == "" && p.Options.Rollouts == 0 {
		limit = slurmTime(2*expected + 10*time.Minute)
	}
	if empty > 0 {
		fmt.Fprintf(opts.IO.Err, "warning: %d of the %d shards have no runs: the plan is sharded by game and has %d games\n", empty, opts.Shards, len(p.Games))
	}
	if strings.Contains(opts.Gdlperf, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(opts.IO.Err, "warning: the script runs %s, a temporary binary of go run that will be gone; build gdlperf (make build) and give --gdlperf\n", opts.Gdlperf)
	}

	script := slurmScript(opts, len(p.Runs), len(p.Games), len(p.Engines), largest, expected, limit)
	if opts.Out == "" {
		_, err := fmt.Fprint(opts.IO.Out, script)
		return err
	}
	if err := os.WriteFile(opts.Out, []byte(script), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Err, "wrote %s: %d runs in %d shards (the largest has %d runs, about %s); submit it with: sbatch %s\n",
		opts.Out, len(p.Runs), opts.Shards, largest, expected.Round(time.Second), harness.ShellQuote(opts.Out))
	return nil
}

// slurmTime formats d as sbatch's --time: D-HH:MM:SS.
func slurmTime(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d-%02d:%02d:%02d", s/86400, s%86400/3600, s%3600/60, s%60)
}

func slurmScript(opts *SlurmOptions, runs, games, engines, largest int, expected time.Duration, limit string) string {
	var b strings.Builder
	q := harness.ShellQuote
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# A gdlperf campaign as a Slurm job array, written by gdlperf slurm.\n")
	fmt.Fprintf(&b, "# %d runs (%d game%s x %d engine%s x %d repetition%s) in %d shards by game;\n", runs, games, plural(games), engines, plural(engines), opts.Run.Reps, plural(opts.Run.Reps), opts.Shards)
	fmt.Fprintf(&b, "# the largest shard has %d runs, expected to take about %s.\n", largest, expected.Round(time.Second))
	fmt.Fprintf(&b, "# Submit: sbatch %s. Task i runs shard i/%d and appends to its own file in\n", q(filepath.Base(nonEmpty(opts.Out, "FILE"))), opts.Shards)
	fmt.Fprintf(&b, "# %s; a task submitted again (sbatch --array=i ...) resumes where it stopped.\n", opts.Run.ResultsDir)
	fmt.Fprintf(&b, "# Then: gdlperf results merge %s --out merged.csv\n", q(opts.Run.ResultsDir))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", opts.JobName)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", opts.Shards-1)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n")
	switch j := opts.Run.Jobs; {
	case j == 0:
		// --jobs 0: one job per physical core of the node, all of it.
		fmt.Fprintf(&b, "#SBATCH --exclusive\n")
	case j > 1:
		// One CPU per job; SMT siblings are left idle by the harness.
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j)
	}
	if !strings.ContainsAny(opts.Dir, " \t'\"\\") {
		// The output file goes there too; the script changes into it anyway.
		fmt.Fprintf(&b, "#SBATCH --chdir=%s\n", opts.Dir)
	}
	fmt.Fprintf(&b, "#SBATCH --output=slurm-%%x-%%A_%%a.out\n")
	if limit != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", limit)
	}
	for _, s := range opts.Sbatch {
		fmt.Fprintf(&b, "#SBATCH %s\n", s)
	}
	fmt.Fprintf(&b, "set -eu\n")
	fmt.Fprintf(&b, "cd %s\n", q(opts.Dir))
	fmt.Fprintf(&b, "exec %s run --shard \"${SLURM_ARRAY_TASK_ID}/%d\"", q(opts.Gdlperf), opts.Shards)
	for _, a := range opts.RunArgs {
		fmt.Fprintf(&b, " \\\n  %s", q(a))
	}
	fmt.Fprintf(&b, "\n")
	return b.String()
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
