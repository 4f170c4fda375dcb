package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/report"
	"github.com/gdlperf/gdlperf/results"
)

// ReportOptions are the options of gdlperf report.
type ReportOptions struct {
	IO        *IO
	Results   string // a results folder or file
	Out       string // the site's folder
	Baseline  string // engine or engine@version
	Title     string
	Cache     string // the game cache, for the games' metadata
	Blacklist string
	// UCTIterations caps the uct charts of the game pages (0: none).
	UCTIterations int64
	UCTSeconds    float64 // the replays of one uct chart stop after this long
}

// NewCmdReport builds "gdlperf report": the static site of a campaign.
func NewCmdReport(streams *IO, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "report",
		Example: `  gdlperf report
  gdlperf report --results gdlperf-results --out site --baseline prover`,
		Short: "Write the static HTML pages of the results: tables, charts and comparisons",
		Long: `Report reads the results rows (a folder of *.csv files or one file) and
writes a static site to --out: an index that opens with one sentence per
engine version against --baseline, fastest first ("propnet ran 4.68x faster
than prover (geometric mean of the speedup per game over 6 games, 95%
interval ...)"; "faster" or "slower" only when that interval excludes 1)
and a chart of the speedups per game, then the campaign summary and the
games x engines matrix; a page per engine version (speedups against
--baseline, state changes per second, errors), a page per game (engines
ranked, its metadata and validator findings), a page per pair of engine
versions (the ratio per game with its interval and significance) and a
history page per engine (its versions in the order measured, each against
the first and the previous one). Chart points name their game when
pointed at.

Every page reads per workload (gdlperf run --workloads): a line of links
leads to each workload's sections, rollouts first, and the figures of
different workloads are never combined. A game page's uct section has the
uct chart: the mean value of each root move against the iterations, one
line per move, made by replaying the (deterministic) uct search with the
propnet (the prover where the propnet does not build) on the game's rules at 10, 20, 50, ... iterations up to the runs'
budget (at most --uct-chart-iterations); it is the same for every correct
engine. With rule transforms (gdlperf run --transforms), each engine page
has its sensitivity (the rate under each transform over the untransformed
rate, per game and as the geometric mean with its interval), each game page
the transforms side by side, and the index says which engines are robust
(within 10% under every transform: each geometric mean's 95% interval
inside [0.9, 1.1]).

When --results is a folder, the correctness verdicts of gdlperf check
(RESULTS/check/*.csv) are read as well: the matrix marks each engine
version's verdict on each game, the engine and game pages list the
mismatches with their move histories and reproducing commands, and a
version's speed on a game where it disagreed with the reference is struck
out and left out of its ranks, medians and geometric means.

Figures are medians over the repetitions with 95% confidence intervals and
Mann-Whitney U tests, as benchstat computes them. Rows of different
machines are never combined. The pages need no network and are the same
bytes for the same rows. The path of the index is printed on stdout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runReport(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Results, "results", "gdlperf-results", "results folder (or one results file)")
	f.StringVarP(&opts.Out, "out", "o", "gdlperf-site", "folder to write the site to")
	f.StringVar(&opts.Baseline, "baseline", report.DefaultBaseline, "engine (its newest version) or engine@version the others are measured against")
	f.StringVar(&opts.Title, "title", "gdlperf results", "title of the index page")
	f.StringVar(&opts.Cache, "cache", "", "game cache to read the games' metadata and rules from (default $GDLPERF_CACHE or the user cache)")
	f.Int64Var(&opts.UCTIterations, "uct-chart-iterations", report.DefaultUCTIterations, "the most iterations a game page's uct chart replays (0: no uct charts)")
	f.Float64Var(&opts.UCTSeconds, "uct-chart-seconds", report.DefaultUCTTimeout.Seconds(), "how long the replays of one uct chart may take, a safety net (the chart stops at the last point done and says so)")
	f.StringVar(&opts.Blacklist, "blacklist", "blacklist.txt", "blacklist file whose reasons the game pages show (./blacklist.txt if present; a missing file is an empty one)")
	return cmd
}

func runReport(opts *ReportOptions) error {
	rows, files, err := loadRowsFrom(opts.Results, opts.IO.Err)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no result rows in %s; gdlperf run writes them", opts.Results)
	}
	checks, err := loadCheckRowsFrom(opts.Results)
	if err != nil {
		return err
	}
	info, err := gameInfos(rows, opts.Cache, opts.Blacklist)
	if err != nil {
		return err
	}
	uct := report.UCTChart{MaxIterations: opts.UCTIterations, Timeout: time.Duration(opts.UCTSeconds * float64(time.Second))}
	if opts.UCTIterations <= 0 {
		uct.MaxIterations = -1
	}
	site, err := report.Render(rows,
		report.WithUCTChart(uct),
		report.WithBaseline(opts.Baseline),
		report.WithTitle(opts.Title),
		report.WithSources(files),
		report.WithVerdicts(checks),
		report.WithGameInfo(func(game string) (report.GameInfo, bool) { gi, ok := info[game]; return gi, ok }))
	if err != nil {
		return err
	}
	for _, w := range site.Warnings {
		fmt.Fprintln(opts.IO.Err, "warning:", w)
	}
	if err := site.Write(opts.Out); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Err, "wrote %d pages (%.1f MB) from %d rows and %d correctness rows to %s\n", len(site.Pages), float64(site.Bytes())/1e6, len(rows), len(checks), opts.Out)
	fmt.Fprintln(opts.IO.Out, filepath.Join(opts.Out, "index.html"))
	return nil
}

// loadRowsFrom reads a results folder or a single results file, with
// load warnings on warn. It returns the rows and the files read.
func loadRowsFrom(path string, warn io.Writer) ([]results.Row, []string, error) {
	w := results.WithWarnings(func(s string) { fmt.Fprintln(warn, "warning:", s) })
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading results: %w", err)
	}
	if st.IsDir() {
		return results.LoadDir(path, w)
	}
	rows, err := results.Load(path, w)
	return rows, []string{path}, err
}

// loadCheckRowsFrom reads the correctness rows of a results folder
// (DIR/check/*.csv); a results file, or a folder without check rows, has
// none.
func loadCheckRowsFrom(path string) ([]results.CheckRow, error) {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return nil, nil
	}
	rows, err := results.LoadCheckRows(path)
	if err != nil {
		return nil, fmt.Errorf("reading correctness rows: %w", err)
	}
	return rows, nil
}

// gameInfos gathers what is known of the games of rows: built-in games
// and games in the cache give their title, roles and validator findings;
// the blacklist gives its reasons. Missing games are no error: a game
// page then shows its key alone.
func gameInfos(rows []results.Row, cacheDir, blacklist string) (map[string]report.GameInfo, error) {
	bl, err := gamerepo.LoadBlacklist(blacklist)
	if err != nil {
		return nil, fmt.Errorf("blacklist: %w", err)
	}
	keys := map[string]bool{}
	for i := range rows {
		keys[rows[i].GameKey] = true
	}
	builtin := map[string]gamerepo.BuiltinGame{}
	for _, g := range gamerepo.Builtins() {
		builtin[g.Key] = g
	}
	var cache *gamerepo.Cache
	if c, err := gamerepo.OpenCache(cacheDir); err == nil {
		cache = c
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	out := make(map[string]report.GameInfo, len(sorted))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for _, key := range sorted {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			gi, ok := gameInfo(key, builtin, cache)
			if reason, listed := bl.Reason(key); listed {
				gi.Blacklisted, ok = reason, true
			}
			if ok {
				mu.Lock()
				out[key] = gi
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out, nil
}

// gameInfo finds the rules of key among the built-in games or in the
// cache (whichever cached version has that hash) and validates them.
func gameInfo(key string, builtin map[string]gamerepo.BuiltinGame, cache *gamerepo.Cache) (report.GameInfo, bool) {
	if g, ok := builtin[key]; ok {
		gi := report.GameInfo{RulesFile: "built in: " + g.File, Rules: g.Rules}
		validateInto(&gi, g.File, g.Rules)
		return gi, true
	}
	parts := strings.Split(key, "/")
	if cache == nil || len(parts) != 3 {
		return report.GameInfo{}, false
	}
	repo, err := gamerepo.RepoName(parts[0])
	if err != nil {
		return report.GameInfo{}, false
	}
	versions, err := cache.Versions(repo, parts[1])
	if err != nil {
		return report.GameInfo{}, false
	}
	for i := len(versions) - 1; i >= 0; i-- {
		g, err := cache.Load(repo, parts[1], versions[i])
		if err != nil || g.Key != key {
			continue
		}
		gi := report.GameInfo{Title: g.Title, Roles: g.Roles, RulesFile: g.Path, Rules: g.Rules}
		validateInto(&gi, g.File, g.Rules)
		return gi, true
	}
	return report.GameInfo{}, false
}

// validateInto adds the validator's findings (and the roles, when the
// metadata had none) to gi.
func validateInto(gi *report.GameInfo, file string, rules []byte) {
	g, err := gdl.Check(file, rules, gdl.DefaultLimits)
	if err != nil {
		gi.Findings = append(gi.Findings, err.Error())
		return
	}
	for _, f := range g.Findings {
		gi.Findings = append(gi.Findings, f.String())
	}
	if len(gi.Roles) == 0 {
		for _, r := range g.Roles {
			gi.Roles = append(gi.Roles, r.String())
		}
	}
}
