package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/results"
)

// NewCmdResults builds "gdlperf results merge|import|export": the tools
// around the results files.
func NewCmdResults(streams *IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "results",
		Short: "Merge, import and export results files",
		Example: `  # after gdlperf run --games builtin --seconds 2: the rows as a markdown table
  gdlperf results export --format markdown
  # the Go benchmark format, for benchstat
  gdlperf results export > all.txt
  # the results folder's files (shards, machines) joined into one
  gdlperf results merge gdlperf-results --out merged.csv`,
	}
	cmd.AddCommand(
		NewCmdResultsMerge(streams, nil),
		NewCmdResultsImport(streams, nil),
		NewCmdResultsExport(streams, nil),
	)
	return cmd
}

// ResultsMergeOptions are the options of gdlperf results merge.
type ResultsMergeOptions struct {
	IO     *IO
	Inputs []string
	Out    string
	Reps   int
}

// NewCmdResultsMerge builds "gdlperf results merge INPUT... --out FILE".
func NewCmdResultsMerge(streams *IO, runF func(*ResultsMergeOptions) error) *cobra.Command {
	opts := &ResultsMergeOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "merge INPUT... --out FILE",
		Example: `  # the shards of a Slurm array into one file
  gdlperf results merge gdlperf-results --out merged.csv
  # two machines' folders
  gdlperf results merge lab1/ lab2/ --out all.csv`,
		Short: "Join results files from shards and machines into one file",
		Long: `Merge reads every INPUT (a results file, or a folder whose *.csv files are
read) and writes the union of their rows to --out, sorted, with exact
duplicates dropped. A row is identified by its run key and machine. Merging
is idempotent: merging again, or merging the output with its inputs, writes
the same bytes, so --out may be one of the inputs, or inside an input
folder: report, compare and export read a merged file beside the files it
came from and count each run once (with a warning).

It then lists the (game, engine) cells with fewer than --reps ok runs
(default: the highest repetition in the rows plus one).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Inputs = args
			if opts.Reps < 0 {
				return usage(fmt.Errorf("--reps must not be negative"))
			}
			if runF != nil {
				return runF(opts)
			}
			return runResultsMerge(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Out, "out", "o", "", "the merged results file to write")
	cmd.Flags().IntVar(&opts.Reps, "reps", 0, "ok runs wanted per (game, engine) when listing missing cells (0: infer from the rows)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runResultsMerge(opts *ResultsMergeOptions) error {
	st, err := results.Merge(opts.Inputs, opts.Out)
	for _, w := range st.Warnings {
		fmt.Fprintln(opts.IO.Err, "warning:", w)
	}
	if err != nil {
		return err
	}
	out := opts.IO.Out
	fmt.Fprintf(out, "read %d rows from %d file%s\n", st.RowsRead, len(st.Files), plural(len(st.Files)))
	fmt.Fprintf(out, "dropped %d exact duplicate%s\n", st.Duplicates, plural(st.Duplicates))
	if st.Conflicts > 0 {
		fmt.Fprintf(out, "kept %d row%s sharing a run key and machine with another row (a retried run)\n", st.Conflicts, plural(st.Conflicts))
	}
	fmt.Fprintf(out, "wrote %d rows to %s\n", st.Written, opts.Out)

	rows, err := results.Load(opts.Out)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	reps, how := opts.Reps, ""
	if reps == 0 {
		for i := range rows {
			reps = max(reps, rows[i].Repetition+1)
		}
		how = " (inferred; set --reps)"
	}
	missing := results.Missing(rows, nil, nil, reps)
	if len(missing) == 0 {
		fmt.Fprintf(out, "no missing cells: every (game, engine) has %d ok run%s%s\n", reps, plural(reps), how)
		return nil
	}
	fmt.Fprintf(out, "%d (game, engine) cell%s with fewer than %d ok run%s%s:\n", len(missing), plural(len(missing)), reps, plural(reps), how)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tENGINE\tOK\tRUNS")
	for _, c := range missing {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", c.Game, c.Engine, c.OK, c.Runs)
	}
	return tw.Flush()
}

// ResultsImportOptions are the options of gdlperf results import.
type ResultsImportOptions struct {
	IO         *IO
	Files      []string
	ResultsDir string
	Source     string
}

// NewCmdResultsImport builds "gdlperf results import FILE... --results DIR".
func NewCmdResultsImport(streams *IO, runF func(*ResultsImportOptions) error) *cobra.Command {
	opts := &ResultsImportOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "import FILE... [--results DIR]",
		Short: "Import gdl-perf's ';'-separated result rows",
		Long: `Import reads gdl-perf's result files, one run per line
(game;engine;version;ok;error;ms;stateChanges;rollouts), and appends their
rows to DIR/imported-NAME.csv, NAME being the file's name without its
extension. Importing again adds only the rows not already there. Lines that
cannot be read are listed and the command exits with status 1; the other
lines are imported.

The rows are written in gdlperf's results CSV (the header row, run_key,...,
once per file, then one row per run) with status ok or error, mode time and
30 target seconds when ms is within a second of 30000; host and machine are
--source. gdlperf's own CSV files are refused: results merge joins those.`,
		Example: `  # a gdl-perf results file: no header, one run per line,
  # game;engine;version;ok;error;ms;stateChanges;rollouts
  printf 'BASE/ticTacToe/JRFsaQ;GGP_BASE_PROVER;2;true;;30000;1105858;39237\n' > GGP_BASE_PROVER.csv
  # appends its rows to gdlperf-results/imported-GGP_BASE_PROVER.csv
  gdlperf results import GGP_BASE_PROVER.csv
  # into another folder, labelled as the machine they ran on
  gdlperf results import GGP_BASE_PROVER.csv --results old --source lab-2016`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if runF != nil {
				return runF(opts)
			}
			return runResultsImport(opts)
		},
	}
	cmd.Flags().StringVar(&opts.ResultsDir, "results", "gdlperf-results", "results folder")
	cmd.Flags().StringVar(&opts.Source, "source", results.DefaultImportSource, "host and machine label of the imported rows")
	return cmd
}

func runResultsImport(opts *ResultsImportOptions) error {
	bad := 0
	for _, file := range opts.Files {
		n, err := importGdlPerfFile(opts, file)
		if err != nil {
			return err
		}
		bad += n
	}
	if bad > 0 {
		return fmt.Errorf("%d line%s could not be imported", bad, plural(bad))
	}
	return nil
}

// importGdlPerfFile imports one file and returns the number of bad lines.
func importGdlPerfFile(opts *ResultsImportOptions, file string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if first, _, _ := bytes.Cut(data, []byte("\n")); bytes.HasPrefix(first, []byte("run_key,")) {
		return 0, fmt.Errorf("%s is a gdlperf results file already; merge it with 'gdlperf results merge'", file)
	}
	rows, errs := results.ImportGdlPerf(bytes.NewReader(data), opts.Source)
	for _, e := range errs {
		fmt.Fprintf(opts.IO.Err, "%s: %v\n", file, e)
	}
	base := filepath.Base(file)
	out := filepath.Join(opts.ResultsDir, "imported-"+strings.TrimSuffix(base, filepath.Ext(base))+".csv")
	w, err := results.OpenWriter(out)
	if err != nil {
		return 0, err
	}
	defer w.Close()
	for _, warn := range w.Warnings() {
		fmt.Fprintln(opts.IO.Err, "warning:", warn)
	}
	// The writer holds the lock: what is in the file now stays so.
	have, err := results.Load(out)
	if err != nil {
		return 0, err
	}
	type id struct{ key, machine string }
	present := make(map[id]bool, len(have))
	for _, r := range have {
		present[id{r.RunKey, r.Machine}] = true
	}
	var fresh []results.Row
	for _, r := range rows {
		if !present[id{r.RunKey, r.Machine}] {
			fresh = append(fresh, r)
		}
	}
	if err := w.AppendRows(fresh); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	fmt.Fprintf(opts.IO.Out, "%s: imported %d row%s into %s (%d already there)\n", file, len(fresh), plural(len(fresh)), out, len(rows)-len(fresh))
	return len(errs), nil
}

// ResultsExportOptions are the options of gdlperf results export.
type ResultsExportOptions struct {
	IO         *IO
	ResultsDir string
	Format     string
}

// NewCmdResultsExport builds "gdlperf results export".
func NewCmdResultsExport(streams *IO, runF func(*ResultsExportOptions) error) *cobra.Command {
	opts := &ResultsExportOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "export [--results DIR] [--format benchfmt|csv|json|markdown]",
		Short: "Write the results as Go benchmark lines (for benchstat), CSV, JSON or markdown",
		Long: `Export writes the rows of the results folder to standard output. The
default format, benchfmt, is the Go benchmark format: one line per ok run,
named
BenchmarkGame/game=REPO:key:hash/engine=NAME/version=V-GOMAXPROCS, with ns/op
(per state change) and states/s, and the machine as configuration lines
(the benchstat commands of the examples are tested:
results.TestExportForBenchstat reads the export with benchstat's own parser
and projections). Rows measured in instructions give instructions/op
instead of ns/op.

The other formats write every row: csv (every column of the results CSV,
header row first), json (an array of objects keyed by those column names)
and markdown (a table of the runs).`,
		Example: `  # configuration lines (goos, cpu, host, machine, ...), then one line per ok run:
  # BenchmarkGame/game=BUILTIN:tictactoe:UxIcqg/engine=prover/version=V-2 N X ns/op Y states/s
  gdlperf results export > all.txt
  # engines side by side, a row per game
  benchstat -col /engine -row /game all.txt
  # the versions of one engine side by side (built-in engines' versions
  # are hashes of their code: see gdlperf engine list)
  benchstat -filter /engine:prover -col /version -row /game all.txt
  # every row and column, header first, from another folder
  gdlperf results export --results old --format csv > old.csv
  gdlperf results export --format json | jq -r '.[] | .engine + " " + .status'
  gdlperf results export --format markdown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(results.ExportFormats, opts.Format) && opts.Format != "bench" {
				return usage(fmt.Errorf("unknown --format %q; the formats are: %s", opts.Format, strings.Join(results.ExportFormats, ", ")))
			}
			if runF != nil {
				return runF(opts)
			}
			return runResultsExport(opts)
		},
	}
	cmd.Flags().StringVar(&opts.ResultsDir, "results", "gdlperf-results", "results folder")
	cmd.Flags().StringVar(&opts.Format, "format", "benchfmt", "output format: benchfmt (Go benchmark format), csv, json or markdown")
	return cmd
}

func runResultsExport(opts *ResultsExportOptions) error {
	rows, files, err := results.LoadDir(opts.ResultsDir, results.WithWarnings(func(w string) {
		fmt.Fprintln(opts.IO.Err, "warning:", w)
	}))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no results files (*.csv) in %s", opts.ResultsDir)
	}
	w := bufio.NewWriter(opts.IO.Out)
	err = results.Export(w, opts.Format, rows)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	ok := 0
	for i := range rows {
		if rows[i].Status == results.StatusOK {
			ok++
		}
	}
	if ok == 0 {
		fmt.Fprintf(opts.IO.Err, "warning: no ok runs among the %d rows of %s\n", len(rows), opts.ResultsDir)
	}
	return nil
}
