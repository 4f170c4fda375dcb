package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/report"
	"github.com/gdlperf/gdlperf/results"
)

// Metrics of gdlperf ab.
const (
	abMetricAuto = "auto" // cpu when both engines report it, else time
	abMetricTime = "time" // wall milliseconds of the timed part per state change
	abMetricCPU  = "cpu"  // the timed part's CPU milliseconds per state change
	// abMetricInstructions is the user-mode instructions per rollout
	// (gdlperf run --measure instructions): fixed work only, nearly free of
	// the machine's noise, so its threshold is 1% by default.
	abMetricInstructions = "instructions"
)

// ABOptions are the options of gdlperf ab.
type ABOptions struct {
	IO          *IO
	Old, New    string // engine specs: NAME, NAME@VERSION, NAME@rev:REV
	Games       []string
	Manifest    string
	CacheDir    string
	Blacklist   string
	Blacklisted bool
	Threshold   float64 // percent
	Alpha       float64
	PerLook     int // pairs per look
	MaxReps     int // pairs per game at most (the budget)
	Spending    string
	Metric      string
	Counter     string // of --metric instructions
	Rollouts    int    // fixed work per run; 0 = calibrated per game
	Seconds     int    // time-mode runs, and the calibration run
	Seed        uint64
	Reruns      int     // contended runs rerun, per run, at most
	Contended   float64 // CPU share under which a run is contended
	Limit       time.Duration
	CPU         int
	GOMAXPROCS  int
	BuildCache  string
	SkipCompat  bool
	Save        string // results file the rows are appended to ("" none)
	Verdicts    string // results folder with gdlperf check verdicts ("" none)
	JSON        bool
}

const abLong = `Ab answers "did my change make the engine slower?" with one command. OLD
and NEW are two builds or versions of one engine:

  NAME@rev:REV    a built-in engine of gdlperf built from git revision REV
                  of the repository the current folder is in (prover@rev:HEAD~1);
                  built once into --build-cache/COMMIT, reused after
  NAME@VERSION    an entry of the manifest (two entries may share a name
                  with different versions: tp@1.0 tp@2.0), or the built-in
                  engine of this gdlperf when VERSION is its version
  NAME            a built-in engine, or the manifest's only entry of NAME

On every game of --games, runs of OLD and NEW are made in pairs: both with
the same seed, one after the other in a random order, the games of a round
shuffled. When both engines take --rollouts (fixed work), every run does the
same seeded rollouts, --rollouts of them or as many as OLD does in
--seconds (one calibration run per game); otherwise runs are --seconds long.
Every game starts with one warm-up run of each side (the calibration run
is OLD's), not counted. The figure of a run is its milliseconds per state
change: with --metric time the wall time of the timed part, and runs that
got less than 90% of a CPU (contended, --contended-below) are left out,
counted and run again (up to --reruns times each, then the game is
inconclusive: busy); with --metric cpu the CPU time of the timed part,
which waiting does not inflate, so contended runs are kept (and counted).
The default, auto, is cpu when the engines report that time in their
result files (gdlperf's own engines do: cpuMilliseconds), else time.

The decision is a group-sequential test per game on the log ratios
log(NEW/OLD) of the pairs: after every look of --reps-per-look pairs, up to
--max-reps, a t-test at the level an alpha-spending function gives that look
(Pocock type by default, O'Brien-Fleming type with --spending obf); the
looks are joined by the union bound, so the chance of a false alarm over
all looks is at most the level, and the level of a game is --alpha divided
by the number of games (Bonferroni), so an unchanged engine gets a "slower"
or "faster" verdict on any game with probability at most --alpha. A game is
slower (a regression) when its look rejects and the ratio is at least
1 + --threshold, faster likewise below, same when the look's repeated
confidence interval lies within the threshold either way; a game stops
as soon as it is decided. Undecided after the last look it is inconclusive,
with the budget that would likely decide it.

The table gives per game the median of each side, the geometric mean ratio
NEW/OLD with its interval, the verdict, the pairs used and the contended
runs; then the geometric mean ratio over the games. Progress goes to stderr.

Exit status: 0 no regression (every game decided), 3 a game is slower,
4 a game fails or is wrong with NEW and not with OLD, 5 inconclusive
(some game undecided, failing on both sides or on a machine too busy),
1 the comparison could not be made, 2 a bad command line.`

// NewCmdAB builds "gdlperf ab OLD NEW".
func NewCmdAB(streams *IO, runF func(*ABOptions) error) *cobra.Command {
	opts := &ABOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "ab OLD NEW",
		Example: `  # an optimizer change of a built-in engine: the last commit against the one before
  gdlperf ab prover@rev:HEAD~1 prover@rev:HEAD --games panel
  # two versions of an external engine from the manifest, counted in instructions
  gdlperf ab tp@1.0 tp@2.0 --manifest engines.toml --metric instructions --rollouts 100`,
		Short: "Decide whether NEW is slower than OLD: interleaved pairs of runs until a sequential test decides each game",
		Long:  abLong,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			if opts.Metric == abMetricInstructions && !cmd.Flags().Changed("threshold") {
				opts.Threshold = 1 // counts repeat to a fraction of a percent
			}
			if err := opts.validate(); err != nil {
				return usage(err)
			}
			if runF != nil {
				return runF(opts)
			}
			return runAB(opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.Games, "games", []string{"builtin"}, gamesHelp)
	f.StringVar(&opts.Manifest, "manifest", "", "TOML or JSON manifest of external engines (default: ./engines.toml or ./engines.json if present)")
	f.StringVar(&opts.CacheDir, "cache", "", "game cache folder (default $GDLPERF_CACHE or the user cache folder)")
	f.StringVar(&opts.Blacklist, "blacklist", "", "blacklist file of games to skip (default: ./"+DefaultBlacklist+" if present)")
	f.BoolVar(&opts.Blacklisted, "include-blacklisted", false, "run blacklisted games too")
	f.Float64Var(&opts.Threshold, "threshold", 5, "smallest change in percent that counts: slower or faster beyond it, same within it")
	f.Float64Var(&opts.Alpha, "alpha", 0.05, "family-wise false-alarm rate over all games and looks")
	f.IntVar(&opts.PerLook, "reps-per-look", 5, "pairs of runs per game between two looks (at least 2)")
	f.IntVar(&opts.MaxReps, "max-reps", 20, "the budget: pairs of runs per game at most")
	f.StringVar(&opts.Spending, "spending", report.SpendPocock, "alpha-spending function: pocock (decides large changes early) or obf (O'Brien-Fleming: saves the level for the end)")
	f.StringVar(&opts.Metric, "metric", abMetricAuto, "time (wall time of the timed part; contended runs rerun), cpu (its CPU time; contended runs kept), instructions (per rollout, counted: fixed-work engines; --threshold 1 by default; --counter) or auto (cpu when both engines report it)")
	f.StringVar(&opts.Counter, "counter", "auto", "instruction counter of --metric instructions: auto, perf or valgrind")
	f.IntVar(&opts.Rollouts, "rollouts", 0, "fixed work: seeded rollouts per run (default: as many as OLD does in --seconds, per game)")
	f.IntVar(&opts.Seconds, "seconds", 1, "seconds of a time-mode run, and of the calibration run of fixed work")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the rollouts and of the order of the runs")
	f.IntVar(&opts.Reruns, "reruns", 3, "times a contended run is run again before the game is called inconclusive (busy)")
	f.Float64Var(&opts.Contended, "contended-below", harness.DefaultContendedBelow, "CPU share of its timed part under which a run is contended")
	f.DurationVar(&opts.Limit, "limit", 0, "time limit per run, as gdlperf run --limit (default: as gdlperf run)")
	f.IntVar(&opts.CPU, "cpu", -1, "pin engine processes to this CPU")
	f.IntVar(&opts.GOMAXPROCS, "gomaxprocs", 0, "GOMAXPROCS for engine processes (0: inherit)")
	f.StringVar(&opts.BuildCache, "build-cache", "", "where NAME@rev:REV builds are kept (default: ab-builds in $GDLPERF_CACHE or the user cache folder)")
	f.BoolVar(&opts.SkipCompat, "skip-compat-check", false, "use external engines without their 3 s compatibility check")
	f.StringVar(&opts.Save, "save", "", "also append every run's row to this results CSV file")
	f.StringVar(&opts.Verdicts, "verdicts", "", "results folder whose correctness verdicts (gdlperf check) mark runs wrong")
	f.BoolVar(&opts.JSON, "json", false, "print the verdicts as JSON instead of a table")
	return cmd
}

func (o *ABOptions) validate() error {
	switch {
	case o.Metric != abMetricAuto && o.Metric != abMetricTime && o.Metric != abMetricCPU && o.Metric != abMetricInstructions:
		return fmt.Errorf("--metric %q is not auto, time, cpu or instructions", o.Metric)
	case o.Rollouts < 0:
		return fmt.Errorf("--rollouts %d is negative", o.Rollouts)
	case o.Seconds < 1:
		return fmt.Errorf("--seconds %d: at least 1", o.Seconds)
	case o.Reruns < 0:
		return fmt.Errorf("--reruns %d is negative", o.Reruns)
	case !(o.Contended > 0 && o.Contended <= 1):
		return fmt.Errorf("--contended-below %g is not a CPU share from 0 to 1", o.Contended)
	}
	d := o.design(1)
	if err := d.Validate(); err != nil {
		return fmt.Errorf("--alpha, --threshold, --reps-per-look, --max-reps or --spending: %w", err)
	}
	return nil
}

func (o *ABOptions) design(games int) report.SeqDesign {
	return report.SeqDesign{Alpha: o.Alpha, Threshold: o.Threshold / 100, PerLook: o.PerLook, MaxPairs: o.MaxReps, Games: games, Spending: o.Spending}
}

// abSide is OLD or NEW.
type abSide struct {
	Spec   string
	Engine *harness.Engine
	Label  string // the spec, with what it resolved to
}

// Game verdicts of gdlperf ab beside the sequential test's.
const (
	abBroken  = "broken"  // NEW fails where OLD does not
	abWrong   = "wrong"   // NEW's run is wrong (gdlperf check)
	abFixed   = "fixed"   // OLD fails where NEW does not
	abFailing = "failing" // both fail
	abBusy    = "busy"    // runs stayed contended
)

// abGame is one game's state and outcome.
type abGame struct {
	Game      *harness.Game
	Rollouts  int // fixed work per run; 0 in time mode
	Test      *report.SeqTest
	Old, New  []float64 // the figure of each pair's runs, ms per state change
	Contended int       // runs left out and rerun
	Verdict   string
	Detail    string
	Needed    int // pairs that would likely decide an inconclusive game; 0 unknown
	done      bool
	mismatch  bool // the sides did different numbers of state changes on one seed
}

// abResult is what gdlperf ab found, as printed (and as --json).
type abResult struct {
	Old       string         `json:"old"`
	New       string         `json:"new"`
	Mode      string         `json:"mode"`
	Metric    string         `json:"metric"`
	Threshold float64        `json:"thresholdPercent"`
	Alpha     float64        `json:"alpha"`
	Spending  string         `json:"spending"`
	PerLook   int            `json:"repsPerLook"`
	MaxReps   int            `json:"maxReps"`
	Games     []abGameResult `json:"games"`
	Overall   abOverall      `json:"overall"`
}

type abGameResult struct {
	Game       string  `json:"game"`
	OldMedian  float64 `json:"oldMsPerStateChange"`
	NewMedian  float64 `json:"newMsPerStateChange"`
	Ratio      float64 `json:"ratio"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	P          float64 `json:"p"`
	Level      float64 `json:"level"`
	Look       int     `json:"look"`
	Verdict    string  `json:"verdict"`
	Detail     string  `json:"detail,omitempty"`
	Pairs      int     `json:"pairs"`
	Contended  int     `json:"contended"`
	Rollouts   int     `json:"rollouts,omitempty"`
	PairsToUse int     `json:"pairsNeeded,omitempty"`
}

type abOverall struct {
	Ratio   float64 `json:"ratio"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Games   int     `json:"games"`
	Verdict string  `json:"verdict"`
	Exit    int     `json:"exit"`
}

func runAB(opts *ABOptions) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errw := opts.IO.Err
	warn := func(w string) { fmt.Fprintln(errw, "warning:", w) }
	old, new, err := resolveABSides(ctx, opts)
	if err != nil {
		return err
	}
	games, skipped, err := resolveGames(GameSelection{
		Selectors: opts.Games, CacheDir: opts.CacheDir, Blacklist: opts.Blacklist,
		IncludeBlacklisted: opts.Blacklisted, Warn: warn,
	})
	if err != nil {
		return usage(err)
	}
	printSkipped(errw, skipped, opts.Blacklist)
	if len(games) == 0 {
		return usage(errors.New("no games selected"))
	}
	r := &abRunner{opts: opts, old: old, new: new, ctx: ctx, fp: harness.ReadFingerprint(),
		measure: harness.Measurement{GdlperfVersion: BuildVersion(), ContendedBelow: opts.Contended}, progress: errw}
	r.fixed = old.Engine.FixedWork && new.Engine.FixedWork
	r.metric = opts.Metric
	if r.metric == abMetricInstructions {
		if !r.fixed {
			return usage(fmt.Errorf("--metric instructions counts fixed work: %s does not take --rollouts", map[bool]string{true: new.Label, false: old.Label}[old.Engine.FixedWork]))
		}
		mc, err := MeasureOptions{Measure: results.MeasureInstructions, Counter: opts.Counter}.resolve(ctx, opts.Rollouts, errw)
		if err != nil {
			return err
		}
		r.counter = mc.Counter
		// ab repeats the pairs itself and tests their spread, so one
		// process counts each work size (run's rows take the median of k).
		r.counter.Processes = 1
		if opts.Rollouts == 0 {
			opts.Rollouts = mc.Rollouts
		}
	}
	if !r.fixed && opts.Rollouts > 0 {
		warn(fmt.Sprintf("--rollouts %d: %s does not take --rollouts, so both run in time mode for --seconds %d", opts.Rollouts, map[bool]string{true: new.Label, false: old.Label}[old.Engine.FixedWork], opts.Seconds))
	}
	if opts.Verdicts != "" {
		v, err := results.RunVerdicts(opts.Verdicts)
		if err != nil {
			return err
		}
		r.verdict = v
	}
	if opts.Save != "" {
		w, err := results.OpenWriter(opts.Save)
		if err != nil {
			return err
		}
		defer w.Close()
		for _, msg := range w.Warnings() {
			warn(msg)
		}
		r.save = w
	}
	if !opts.SkipCompat {
		if err := r.compat(); err != nil {
			return err
		}
	}
	res, err := r.run(games)
	if err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else if err := writeABText(opts.IO.Out, res); err != nil {
		return err
	}
	return abExit(res)
}

// resolveABSides resolves OLD and NEW; revisions are built (once each).
func resolveABSides(ctx context.Context, opts *ABOptions) (abSide, abSide, error) {
	var cat *engineCatalog
	// Both revisions are resolved before either is built: a commit made
	// during the first build does not move the second side's HEAD.
	commits := map[string]string{} // rev -> commit
	top := ""
	for _, spec := range []string{opts.Old, opts.New} {
		if s, err := parseEngineSpec(spec); err == nil && s.Rev != "" && commits[s.Rev] == "" {
			t, c, err := revCommit(ctx, s.Rev)
			if err != nil {
				return abSide{}, abSide{}, err
			}
			top, commits[s.Rev] = t, c
		}
	}
	builds := map[string]*revBuild{} // commit -> build
	side := func(spec string) (abSide, error) {
		s, err := parseEngineSpec(spec)
		if err != nil {
			return abSide{}, usage(err)
		}
		if s.Rev != "" {
			b := builds[commits[s.Rev]]
			if b == nil {
				if b, err = buildCommit(ctx, top, s.Rev, commits[s.Rev], opts.BuildCache, opts.IO.Err); err != nil {
					return abSide{}, err
				}
				builds[b.Commit] = b
			}
			e, err := revEngine(ctx, b, s.Name)
			if err != nil {
				return abSide{}, err
			}
			return abSide{Spec: spec, Engine: e, Label: fmt.Sprintf("%s (commit %s, %s)", spec, b.Commit[:12], e.ID())}, nil
		}
		if cat == nil {
			if cat, err = loadEngineCatalog(opts.Manifest); err != nil {
				return abSide{}, usage(err)
			}
		}
		es, err := cat.named(s)
		if err != nil {
			return abSide{}, usage(err)
		}
		if len(es) > 1 {
			var ids []string
			for _, e := range es {
				ids = append(ids, e.ID())
			}
			return abSide{}, usage(fmt.Errorf("engine %s has %d versions (%s): name one as %s@VERSION", s.Name, len(es), strings.Join(ids, ", "), s.Name))
		}
		label := spec
		if id := es[0].ID(); id != spec {
			label += " (" + id + ")"
		}
		return abSide{Spec: spec, Engine: es[0], Label: label}, nil
	}
	old, err := side(opts.Old)
	if err != nil {
		return abSide{}, abSide{}, err
	}
	new, err := side(opts.New)
	if err != nil {
		return abSide{}, abSide{}, err
	}
	if old.Engine.Name != new.Engine.Name {
		fmt.Fprintf(opts.IO.Err, "note: OLD is engine %s and NEW engine %s: ab compares two versions of one engine, but goes on\n", old.Engine.Name, new.Engine.Name)
	}
	return old, new, nil
}

// abRunner runs the pairs of one gdlperf ab.
type abRunner struct {
	opts     *ABOptions
	old, new abSide
	ctx      context.Context
	fixed    bool
	metric   string           // time, cpu or instructions (auto resolved by the warm-up runs)
	counter  *harness.Counter // of the instructions metric
	sawCPU   bool             // an ok warm-up run reported its timed CPU time
	fp       harness.Fingerprint
	measure  harness.Measurement
	verdict  func(gameKey, engine, version string) (string, string)
	save     *results.Writer
	progress io.Writer
}

// compat runs the compatibility check of the external sides.
func (r *abRunner) compat() error {
	checked := map[*harness.Engine]bool{}
	for _, s := range []abSide{r.old, r.new} {
		if s.Engine.Builtin || checked[s.Engine] {
			continue
		}
		checked[s.Engine] = true
		fmt.Fprintf(r.progress, "checking that %s speaks the engine protocol (%d s on %s)...\n", s.Label, harness.CompatSeconds, harness.CompatGame)
		res := harness.CheckCompat(r.ctx, s.Engine, r.child(harness.Options{Seconds: harness.CompatSeconds}))
		if r.ctx.Err() != nil {
			return withCode(ExitInterrupted, errors.New("interrupted"))
		}
		if !res.OK {
			return fmt.Errorf("refusing %s: %s (--skip-compat-check skips the check)", s.Label, res.Reason)
		}
	}
	return nil
}

func (r *abRunner) child(o harness.Options) harness.ChildOptions {
	limit := r.opts.Limit
	if limit == 0 {
		limit = harness.Limit(o)
	}
	c := harness.ChildOptions{Limit: limit, GOMAXPROCS: r.opts.GOMAXPROCS, CPU: r.opts.CPU}
	if o.Rollouts == 0 {
		c.TargetSeconds = o.Seconds
	}
	return c
}

// rowCollector keeps the rows of a campaign (and saves them when asked).
type rowCollector struct {
	rows []*results.Row
	save *results.Writer
}

func (c *rowCollector) Append(row *results.Row) error {
	c.rows = append(c.rows, row)
	if c.save != nil {
		return c.save.Append(row)
	}
	return nil
}

// runOnce runs side on g as repetition rep (its seed is the repetition's,
// the same for both sides) and returns the row.
func (r *abRunner) runOnce(g *abGame, e *harness.Engine, rep int, o harness.Options) (*results.Row, error) {
	o.Seed, o.Repetitions = r.opts.Seed, rep+1
	var run *harness.Run
	plan := harness.Plan([]*harness.Game{g.Game}, []*harness.Engine{e}, o)
	if r.metric == abMetricInstructions {
		plan = harness.WithMeasure(plan, o, results.MeasureInstructions)
	}
	for _, x := range plan {
		if x.Repetition == rep {
			run = &x
			break
		}
	}
	col := &rowCollector{save: r.save}
	c := &harness.Campaign{
		Runs:        []harness.Run{*run},
		Options:     o,
		Child:       r.child(o),
		Writer:      col,
		Fingerprint: r.fp,
		SkipCompat:  true,
		Measure:     r.measure,
		Verdict:     r.verdict,
		Counter:     r.counter,
	}
	if _, err := c.Execute(r.ctx); err != nil {
		if errors.Is(err, harness.ErrInterrupted) {
			return nil, withCode(ExitInterrupted, errors.New("interrupted"))
		}
		return nil, err
	}
	if len(col.rows) != 1 {
		return nil, fmt.Errorf("run %s of %s on %s wrote %d rows", run.Key, e.ID(), g.Game.Key, len(col.rows))
	}
	return col.rows[0], nil
}

// figure is a run's milliseconds per state change by the metric, or an
// error saying why the run has none.
func (r *abRunner) figure(row *results.Row) (float64, string) {
	if r.metric == abMetricInstructions {
		if x, ok := row.PerOp(); ok {
			return x, ""
		}
		return 0, "no instruction count: " + row.ErrorMessage
	}
	rate := row.StatesPerSecond()
	if r.metric == abMetricCPU {
		rate = row.StatesPerCPUSecond()
		if rate == 0 && row.StateChanges > 0 {
			return 0, "the engine reports no CPU time of its timed part (cpuMilliseconds): use --metric time"
		}
	}
	if rate <= 0 {
		return 0, fmt.Sprintf("a run of %d ms with %d state changes has no rate: give more --rollouts or --seconds", row.MillisecondsTaken, row.StateChanges)
	}
	return 1000 / rate, ""
}

// measured runs side until it gives a row that is not contended (for the
// time metric), at most Reruns extra times. ok is false when the game is
// over (failed run: the row says so; or busy: g says so).
func (r *abRunner) measured(g *abGame, side string, e *harness.Engine, rep int) (*results.Row, bool, error) {
	o := harness.Options{Seconds: r.opts.Seconds, Rollouts: g.Rollouts}
	for attempt := 0; ; attempt++ {
		row, err := r.runOnce(g, e, rep, o)
		if err != nil {
			return nil, false, err
		}
		what := fmt.Sprintf("%d ms, %d state changes", row.MillisecondsTaken, row.StateChanges)
		if row.Status != results.StatusOK {
			what = row.Status + ": " + clip(row.ErrorMessage, 200)
		}
		contended := row.Status == results.StatusOK && row.Contended
		if contended && r.metric == abMetricCPU {
			what += fmt.Sprintf(" (contended: CPU share %s, kept: the metric is CPU time)", row.CPUShare)
		} else if contended {
			what += fmt.Sprintf(" (contended: CPU share %s, left out)", row.CPUShare)
		}
		fmt.Fprintf(r.progress, "  %s rep %d %s: %s\n", protocol.SafeText(g.Game.Key), rep, side, what)
		if contended {
			g.Contended++
		}
		if !contended || r.metric == abMetricCPU {
			return row, true, nil
		}
		if attempt >= r.opts.Reruns {
			g.Verdict, g.done = abBusy, true
			g.Detail = fmt.Sprintf("%d runs were contended (under %g of a CPU) and rerun, the last %d times in a row: the machine is too busy (a quieter one, or --metric cpu)", g.Contended, r.opts.Contended, r.opts.Reruns+1)
			return row, false, nil
		}
	}
}

// pair runs one pair of g, the sides in a random order, and adds it to the
// test (or ends the game).
func (r *abRunner) pair(g *abGame, rng *rand.Rand) error {
	rep := len(g.Old)
	type sideRun struct {
		name string
		e    *harness.Engine
		row  *results.Row
	}
	sides := []*sideRun{{name: "old", e: r.old.Engine}, {name: "new", e: r.new.Engine}}
	if rng.IntN(2) == 1 {
		sides[0], sides[1] = sides[1], sides[0]
	}
	for _, s := range sides {
		row, ok, err := r.measured(g, s.name, s.e, rep)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		s.row = row
	}
	if sides[0].name != "old" {
		sides[0], sides[1] = sides[1], sides[0]
	}
	oldRow, newRow := sides[0].row, sides[1].row
	oldOK, newOK := oldRow.Status == results.StatusOK, newRow.Status == results.StatusOK
	switch {
	case newRow.Status == results.StatusWrong && oldRow.Status != results.StatusWrong:
		g.Verdict, g.Detail = abWrong, clip(newRow.ErrorMessage, 300)
	case oldOK && !newOK:
		g.Verdict, g.Detail = abBroken, "NEW: "+newRow.Status+": "+clip(newRow.ErrorMessage, 300)
	case !oldOK && newOK:
		g.Verdict, g.Detail = abFixed, "OLD: "+oldRow.Status+": "+clip(oldRow.ErrorMessage, 300)
	case !oldOK && !newOK:
		g.Verdict, g.Detail = abFailing, "OLD: "+oldRow.Status+": "+clip(oldRow.ErrorMessage, 150)+"; NEW: "+newRow.Status+": "+clip(newRow.ErrorMessage, 150)
	}
	if g.Verdict != "" {
		g.done = true
		return nil
	}
	fo, why := r.figure(oldRow)
	if why == "" {
		var fn float64
		if fn, why = r.figure(newRow); why == "" {
			if r.fixed && oldRow.StateChanges != newRow.StateChanges && !g.mismatch {
				g.mismatch = true
				fmt.Fprintf(r.progress, "warning: on %s, OLD made %d state changes and NEW %d with the same seed and rollouts: they do not do the same work (a change of behaviour?); the figure is per state change\n",
					protocol.SafeText(g.Game.Key), oldRow.StateChanges, newRow.StateChanges)
			}
			g.Old, g.New = append(g.Old, fo), append(g.New, fn)
			g.Test.Add(math.Log(fn / fo))
			return nil
		}
	}
	g.Verdict, g.Detail, g.done = abFailing, why, true
	return nil
}

// prepare sets the fixed work of g (as many rollouts as OLD does in
// --seconds, unless --rollouts) and makes the warm-up run of each side (the
// calibration run is OLD's), not counted: the first run of a program on a
// game pays for cold caches and, for some engines, a build. The warm-up
// rows of the first game resolve --metric auto.
func (r *abRunner) prepare(g *abGame) error {
	warm := map[string]*results.Row{}
	if r.fixed && r.opts.Rollouts > 0 {
		g.Rollouts = r.opts.Rollouts
	}
	if r.fixed && r.opts.Rollouts == 0 {
		row, err := r.runOnce(g, r.old.Engine, 0, harness.Options{Seconds: r.opts.Seconds})
		if err != nil {
			return err
		}
		g.Rollouts = int(max(row.Rollouts, 1))
		if row.Status == results.StatusOK {
			fmt.Fprintf(r.progress, "%s: %d rollouts per run (what OLD did in %d s)\n", protocol.SafeText(g.Game.Key), g.Rollouts, r.opts.Seconds)
		}
		warm["old"] = row
	}
	o := harness.Options{Seconds: r.opts.Seconds, Rollouts: g.Rollouts}
	for _, s := range []struct {
		name string
		e    *harness.Engine
	}{{"old", r.old.Engine}, {"new", r.new.Engine}} {
		if warm[s.name] != nil {
			continue
		}
		row, err := r.runOnce(g, s.e, 0, o)
		if err != nil {
			return err
		}
		warm[s.name] = row
	}
	// A warm-up that fails is not the verdict: the game's pairs say how it
	// fails. An ok one without the CPU time of its timed part makes auto
	// time.
	for _, side := range []string{"old", "new"} {
		if row := warm[side]; r.metric == abMetricAuto && row.Status == results.StatusOK {
			if row.TimedCPUMs <= 0 {
				r.metric = abMetricTime
				fmt.Fprintf(r.progress, "metric: time (auto: %s does not report the CPU time of its timed part)\n", map[string]string{"old": r.old.Label, "new": r.new.Label}[side])
			}
			r.sawCPU = true
		}
	}
	return nil
}

// run plays the looks until every game is decided or its budget is spent.
func (r *abRunner) run(games []*harness.Game) (*abResult, error) {
	design := r.opts.design(len(games))
	mode := fmt.Sprintf("time (%d s per run)", r.opts.Seconds)
	if r.fixed {
		mode = "fixed work"
	}
	fmt.Fprintf(r.progress, "ab: OLD %s, NEW %s; %d games, %s; looks of %d pairs up to %d (%s spending), alpha %g over the games (Bonferroni), threshold %g%%\n",
		r.old.Label, r.new.Label, len(games), mode, design.PerLook, design.MaxPairs, design.Spending, design.Alpha, r.opts.Threshold)
	if o, n := r.old.Engine, r.new.Engine; o.Name == n.Name && o.Version != "" && o.Version == n.Version {
		// Two builds of one source differ by their binaries' layout
		// alone: on pancakes88, memory-bound, by 10-14% (a "faster" and
		// a "slower" verdict between builds of one commit).
		fmt.Fprintf(r.progress, "warning: OLD and NEW are the same engine version, %s: a verdict compares their binaries, not a change of source (layout alone moved memory-bound games by 10%%); to compare two sources, build both sides as NAME@rev:REV\n", o.ID())
	}
	var gs []*abGame
	for _, g := range games {
		ag := &abGame{Game: g, Test: &report.SeqTest{Design: design}}
		if err := r.prepare(ag); err != nil {
			return nil, err
		}
		gs = append(gs, ag)
	}
	if r.metric == abMetricAuto {
		r.metric = abMetricTime
		if r.sawCPU {
			r.metric = abMetricCPU
		}
		fmt.Fprintf(r.progress, "metric: %s (auto: the engines' warm-up runs %s the CPU time of their timed part)\n", r.metric, map[bool]string{true: "report", false: "do not report"}[r.sawCPU])
	}
	rng := rand.New(rand.NewPCG(r.opts.Seed, 0x61622d6f72646572))
	for look := 1; look <= design.Looks(); look++ {
		var active []*abGame
		for _, g := range gs {
			if !g.done {
				active = append(active, g)
			}
		}
		if len(active) == 0 {
			break
		}
		fmt.Fprintf(r.progress, "look %d of %d: %d games\n", look, design.Looks(), len(active))
		for {
			var round []*abGame
			for _, g := range active {
				if !g.done && g.Test.Need() > 0 {
					round = append(round, g)
				}
			}
			if len(round) == 0 {
				break
			}
			rng.Shuffle(len(round), func(i, j int) { round[i], round[j] = round[j], round[i] })
			for _, g := range round {
				if err := r.pair(g, rng); err != nil {
					return nil, err
				}
			}
		}
		for _, g := range active {
			if g.done {
				fmt.Fprintf(r.progress, "%s: %s (%s)\n", protocol.SafeText(g.Game.Key), g.Verdict, protocol.SafeText(g.Detail))
				continue
			}
			l, err := g.Test.Next()
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(r.progress, "%s: look %d, %d pairs, ratio %s %s, p %.2g (level %.2g): %s\n", protocol.SafeText(g.Game.Key),
				l.Look, l.Pairs, report.FormatRatio(l.Ratio), report.FormatInterval(l.Lo, l.Hi), l.P, l.Level, l.Verdict)
			if g.Test.Done {
				g.done = true
				g.Verdict = string(l.Verdict)
				if l.Verdict == report.SeqInconclusive {
					if n, ok := design.PairsNeeded(l.Mean, l.SD, 100000); ok {
						g.Needed = n
					}
				}
			}
		}
	}
	return r.result(gs, design), nil
}

func (r *abRunner) result(gs []*abGame, d report.SeqDesign) *abResult {
	res := &abResult{Old: r.old.Label, New: r.new.Label, Mode: "time", Metric: r.metric,
		Threshold: r.opts.Threshold, Alpha: r.opts.Alpha, Spending: d.Spending, PerLook: d.PerLook, MaxReps: d.MaxPairs}
	if res.Spending == "" {
		res.Spending = report.SpendPocock
	}
	if r.fixed {
		res.Mode = "rollouts"
	}
	var looks []report.SeqLook
	for _, g := range gs {
		l := g.Test.Last
		gr := abGameResult{Game: g.Game.Key, Verdict: g.Verdict, Detail: g.Detail, Pairs: len(g.Old),
			Contended: g.Contended, Rollouts: g.Rollouts, PairsToUse: g.Needed}
		if len(g.Old) > 0 {
			gr.OldMedian, gr.NewMedian = median(g.Old), median(g.New)
		}
		if l.Look > 0 {
			gr.Ratio, gr.Lo, gr.Hi, gr.P, gr.Level, gr.Look = l.Ratio, l.Lo, l.Hi, l.P, l.Level, l.Look
			looks = append(looks, l)
		}
		if gr.Verdict == string(report.SeqInconclusive) && gr.Detail == "" {
			gr.Detail = fmt.Sprintf("undecided after %d pairs", gr.Pairs)
			if g.Needed > 0 {
				gr.Detail += fmt.Sprintf("; about %d pairs would decide it (--max-reps %d)", g.Needed, g.Needed)
			} else {
				gr.Detail += "; the change is too close to the threshold for any budget to decide"
			}
		}
		res.Games = append(res.Games, gr)
	}
	res.Overall.Games = len(looks)
	res.Overall.Ratio, res.Overall.Lo, res.Overall.Hi, _ = report.GeoMeanRatio(looks)
	res.Overall.Exit, res.Overall.Verdict = abVerdict(res)
	return res
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// abVerdict is the overall verdict and exit code: newly failing or wrong
// games first, then regressions, then undecided games.
func abVerdict(res *abResult) (int, string) {
	by := map[string][]string{}
	for _, g := range res.Games {
		by[g.Verdict] = append(by[g.Verdict], g.Game)
	}
	var parts []string
	add := func(v, what string) {
		if n := len(by[v]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", gamesCount(n), what, gameList(by[v])))
		}
	}
	add(abBroken, "newly failing")
	add(abWrong, "wrong with NEW")
	add(string(report.SeqSlower), fmt.Sprintf("slower by %g%% or more", res.Threshold))
	add(string(report.SeqInconclusive), "undecided within the budget")
	add(abBusy, "on a machine too busy")
	add(abFailing, "failing on both sides or unmeasurable")
	text := strings.Join(parts, "; ")
	switch {
	case len(by[abBroken])+len(by[abWrong]) > 0:
		return ExitNewFailures, "regression: " + text
	case len(by[string(report.SeqSlower)]) > 0:
		return ExitRegression, "regression: " + text
	case len(by[string(report.SeqInconclusive)])+len(by[abBusy])+len(by[abFailing]) > 0:
		return ExitInconclusive, "inconclusive: " + text
	}
	return ExitOK, "no regression"
}

func abExit(res *abResult) error {
	if res.Overall.Exit == ExitOK {
		return nil
	}
	msg := res.Overall.Verdict
	if res.Overall.Exit == ExitInconclusive {
		need := 0
		for _, g := range res.Games {
			need = max(need, g.PairsToUse)
		}
		if need > 0 {
			msg += fmt.Sprintf("; about %d pairs per game would decide (--max-reps %d)", need, need)
		}
	}
	return withCode(res.Overall.Exit, errors.New(msg))
}

func writeABText(w io.Writer, res *abResult) error {
	fmt.Fprintf(w, "OLD %s\nNEW %s\n", protocol.SafeText(res.Old), protocol.SafeText(res.New))
	unit := "milliseconds per state change"
	if res.Metric == abMetricInstructions {
		unit = "instructions per rollout"
	}
	fmt.Fprintf(w, "mode %s, metric %s (%s), threshold %g%%, alpha %g over %s (Bonferroni), looks of %d pairs up to %d (%s spending)\n\n",
		res.Mode, res.Metric, unit, res.Threshold, res.Alpha, gamesCount(len(res.Games)), res.PerLook, res.MaxReps, res.Spending)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tOLD/CHANGE\tNEW/CHANGE\tRATIO\tINTERVAL\tVERDICT\tPAIRS\tCONTENDED")
	for _, g := range res.Games {
		ratio, interval, old, new := "-", "-", "-", "-"
		if g.Look > 0 {
			ratio, interval = report.FormatRatio(g.Ratio), report.FormatInterval(g.Lo, g.Hi)
		}
		if g.Pairs > 0 && res.Metric == abMetricInstructions {
			old, new = fmt.Sprintf("%.4g", g.OldMedian), fmt.Sprintf("%.4g", g.NewMedian)
		} else if g.Pairs > 0 {
			old, new = formatPerChange(g.OldMedian), formatPerChange(g.NewMedian)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", protocol.SafeText(g.Game), old, new, ratio, interval, g.Verdict, g.Pairs, g.Contended)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, g := range res.Games {
		if g.Detail != "" {
			fmt.Fprintf(w, "%s: %s: %s\n", protocol.SafeText(g.Game), g.Verdict, protocol.SafeText(g.Detail))
		}
	}
	overall := "no game measured"
	if res.Overall.Games > 0 {
		overall = fmt.Sprintf("geometric mean ratio %s %s over %s", report.FormatRatio(res.Overall.Ratio), report.FormatInterval(res.Overall.Lo, res.Overall.Hi), gamesCount(res.Overall.Games))
	}
	_, err := fmt.Fprintf(w, "\noverall: %s: %s\n", overall, res.Overall.Verdict)
	return err
}

// formatPerChange prints milliseconds per state change in µs or ms, three
// significant digits.
func formatPerChange(ms float64) string {
	if ms >= 1 {
		return fmt.Sprintf("%.3g ms", ms)
	}
	return fmt.Sprintf("%.3g µs", ms*1000)
}
