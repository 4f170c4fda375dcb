package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/transform"
	"github.com/gdlperf/gdlperf/report"
	"github.com/gdlperf/gdlperf/results"
)

// ExitNewFailures is compare's exit code when some game fails with NEW
// that did not with OLD (it takes precedence over ExitRegression).
const ExitNewFailures = 4

// ExitInconclusive is compare's exit code when no game regressed but some
// game could not be judged: its sides have too few ok, uncontended runs for
// the U test to ever be significant (after the adjustment over the games),
// every ok run of a side was contended, or it is a uct game whose runs made
// under one state change per iteration (report.Cell.TreeBound: the rate
// measures the search, not the engine). It is never 0, so that CI
// cannot pass on a comparison that could not have failed.
const ExitInconclusive = 5

// CompareOptions are the options of gdlperf compare.
type CompareOptions struct {
	IO           *IO
	Old, New     string  // result files or folders, or engine versions; New "" with one engine of two versions
	Results      string  // where engine versions are looked up
	Noise        float64 // percent
	CrossMachine bool
	Calibrate    bool     // divide NEW's rates by the reference engine's machine factor
	Reference    string   // the reference engine
	JSON         bool     // print the comparison as JSON (CompareReport)
	Metric       string   // time (rows timed) or instructions (rows counted)
	Workloads    []string // compare only these workloads ("": every one, a table each)
}

// NewCmdCompare builds "gdlperf compare OLD NEW".
func NewCmdCompare(streams *IO, runF func(*CompareOptions) error) *cobra.Command {
	opts := &CompareOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "compare OLD [NEW]",
		Short: "Compare two engine versions or two sets of results, game by game, for CI",
		Long: `Compare prints, per game, the median state changes per second of OLD and
NEW, their ratio with its 95% interval, the p-value of the Mann-Whitney U
test adjusted by Holm's method over the games of the table (the summary
says over how many), the ratio of
the medians of state changes per CPU-second (where the runs report their
CPU time), and a verdict:

  faster, slower  significant (adjusted p < 0.05) and the whole 95% interval
                  of the ratio beyond 1 ± --noise
  ~               no significant change beyond the noise
  inconclusive    too few ok runs for the test to ever be significant (the
                  output says how many a side needs), or every ok run of a
                  side was contended
  broken          runs fail with NEW and did not with OLD (fixed: the other way)
  failing         failures on both sides

The interval is the one the test implies (the distribution-free interval of
the ratio that inverts the U test), so "slower" never stands beside an
interval holding 1. A summary line per table follows: the counts, the
geometric mean of the ratios with its own 95% interval and verdict (slower
when the interval lies below 1 - --noise), and the contended runs left out.

Verdicts use the rate per wall-clock second of the timed part, gdl-perf's
figure: it sees what a player of the game would see, cache and memory
contention included, which CPU time does not. A run that got under 0.9 of a
CPU (the harness marks it contended; for older rows, user+system over wall
time, setup included) was preempted and measures the machine, not the
engine: it is listed ("left out ...") and excluded from every median, test
and verdict.

OLD and NEW are results files or folders, or engine versions looked up in
--results: ENGINE@VERSION, or ENGINE when it has one version there (or two,
the other one named on the other side). With a single argument ENGINE that
has two versions, the older is OLD. Rows are compared only within one
machine fingerprint and one setup: runs of different lengths, modes,
workloads, transforms or measures are never pooled or compared.

The sides must be one campaign: their start-time ranges overlap, as those
of two versions interleaved in one campaign do (gdlperf run --engines with
both).
Sides measured one after the other, or whose median CPU share (of the runs
kept) differs by more than 0.1 or median load per core by more than 1, are
refused: the machine may have changed in between. --calibrate compares them
anyway: the reference engine (--reference, prover by default) must have run
in both, on common games; its geometric mean ratio NEW/OLD is the machine
factor, and NEW's rates are divided by it before any verdict. For engine
versions looked up in --results, each side's reference runs are those that
started nearer in time to its own runs than to the other side's.

Each workload (gdlperf run --workloads) is compared in tables of its own,
never with another; --workload uct (or uct,pns) compares only those.

Rule transforms (gdlperf run --transforms) are compared as versions are:
ENGINE[@VERSION]:TRANSFORM names the engine's runs under one transform
(none for the untransformed rules), as in
  gdlperf compare propnet:none propnet:optimise
ENGINE@TRANSFORM says the same when TRANSFORM is not one of the engine's
versions in --results (gdlperf compare propnet@none propnet@optimise). A
side without a transform is its untransformed runs. The runs of the two
transforms are paired by machine and setup (mode, length, workload); a
seeded transform run with several seeds gives a table per seed. The
verdicts, the campaign rules and the exit status are those of versions.

Exit status: 0 no regression and every game judged, 3 a game got slower
(or the geometric mean did), 4 a game newly fails, 5 inconclusive (no
regression, but some game could not be judged), 1 the comparison could not
be made, 2 a bad command line.

--json prints one JSON object instead of the tables: {"old", "new",
"exit", "verdict", "noisePercent", "warnings", "tables": [{"oldVersion",
"newVersion", "oldMachine", "newMachine", "setup", "newSetup", "workload",
"budget", "oldTransform", "newTransform", "overall", "geoMean",
"geoLo", "geoHi", "machineFactor", "calibration", "contendedOld",
"contendedNew", "games": [{"game", "verdict", "oldRate", "newRate",
"oldRuns", "newRuns", "ratio", "lo", "hi", "p"}]}]}; a figure that does not
exist (no interval, no test) is null. The exit status is the same.`,
		Example: `  # two versions of an engine in one interleaved campaign
  gdlperf compare tupleprover@1-b795c4a0da tupleprover@1-b1af576fd4
  # two results folders; separate campaigns need a reference engine in both
  gdlperf compare old-results new-results --calibrate --reference prover
  # two engines, the uct workload only
  gdlperf compare prover propnet --workload uct
  # a rule transform against the untransformed rules
  gdlperf compare propnet:none propnet:optimise
  # for CI
  gdlperf compare propnet --json | jq '.exit'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				// A bare "gdlperf compare" asks how it is used.
				fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
				return usage(errors.New("compare needs OLD (and NEW): engine versions or results"))
			}
			return cobra.RangeArgs(1, 2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old = args[0]
			if len(args) == 2 {
				opts.New = args[1]
			}
			switch opts.Metric {
			case "time":
			case results.MeasureInstructions:
				if !cmd.Flags().Changed("noise") {
					opts.Noise = 1 // counts repeat to a fraction of a percent
				}
			default:
				return usage(fmt.Errorf("--metric %q is not time or instructions", opts.Metric))
			}
			if opts.Noise < 0 || opts.Noise >= 100 {
				return withCode(ExitUsage, fmt.Errorf("--noise is a percentage from 0 to 100, not %g", opts.Noise))
			}
			if runF != nil {
				return runF(opts)
			}
			return runCompare(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Results, "results", "gdlperf-results", "results folder (or file) where engine versions are looked up")
	f.Float64Var(&opts.Noise, "noise", 2, "percentage change below which a significant difference still counts as ~")
	f.BoolVar(&opts.CrossMachine, "cross-machine", false, "compare rows of two different machines (each side on one machine)")
	f.StringVar(&opts.Metric, "metric", "time", "what to compare: time (state changes per second) or instructions (per rollout, rows of gdlperf run --measure instructions; --noise 1 by default)")
	f.StringSliceVar(&opts.Workloads, "workload", nil, "compare only the runs of these workloads (rollouts, uct, pns, minimax; default every workload, a table each)")
	f.BoolVar(&opts.JSON, "json", false, "print the comparison as one JSON object (verdict, exit status, tables of games; fields in --help) instead of the tables")
	f.BoolVar(&opts.Calibrate, "calibrate", false, "divide NEW's rates by the machine factor of the reference engine (to compare separate campaigns)")
	f.StringVar(&opts.Reference, "reference", report.DefaultReference, "the engine whose rates measure the machine for --calibrate")
	return cmd
}

func runCompare(opts *CompareOptions) error {
	old, new, across, err := compareSides(opts)
	if err != nil {
		return withCode(ExitFailure, err)
	}
	if len(opts.Workloads) > 0 {
		for _, s := range []*report.Side{&old, &new} {
			if err := keepWorkloads(s, opts.Workloads); err != nil {
				return withCode(ExitFailure, err)
			}
		}
	}
	counted := opts.Metric == results.MeasureInstructions
	for _, s := range []*report.Side{&old, &new} {
		kept := s.Rows[:0:0]
		for _, r := range s.Rows {
			if r.IsInstructions() == counted {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			return withCode(ExitFailure, fmt.Errorf("%s has no rows measured in %s (--metric %s; gdlperf run --measure %s makes them)", s.Label, opts.Metric, opts.Metric, opts.Metric))
		}
		s.Rows = kept
	}
	d, err := report.CompareSides(old, new, report.DiffOptions{Noise: opts.Noise / 100, CrossMachine: opts.CrossMachine,
		Calibrate: opts.Calibrate, Reference: opts.Reference, Counted: counted, AcrossTransforms: across})
	if err != nil {
		return withCode(ExitFailure, err)
	}
	for _, w := range d.Warnings {
		fmt.Fprintln(opts.IO.Err, "warning:", w)
	}
	verdict := compareVerdict(d, opts)
	if opts.JSON {
		if err := writeCompareJSON(opts.IO.Out, d, verdict); err != nil {
			return withCode(ExitFailure, err)
		}
		return verdict
	}
	if err := d.WriteText(opts.IO.Out); err != nil {
		return withCode(ExitFailure, err)
	}
	return verdict
}

// compareVerdict is compare's exit: nil when no game regressed and every
// game was judged, else the error with its exit code and what it found.
func compareVerdict(d *report.Diff, opts *CompareOptions) error {
	var problems []string
	if n := d.Count(report.Broken); n > 0 {
		problems = append(problems, fmt.Sprintf("%s newly failing (%s)", gamesCount(n), gameList(d.Games(report.Broken))))
	}
	if n := d.Count(report.Slower); n > 0 {
		problems = append(problems, fmt.Sprintf("%s slower by more than %g%% (%s)", gamesCount(n), opts.Noise, gameList(d.Games(report.Slower))))
	}
	for _, t := range d.Overall(report.Slower) {
		s := t.Summary
		problems = append(problems, fmt.Sprintf("%s: geometric mean new/old %s, its 95%% interval %s below 1 - %g%%",
			t.New, report.FormatRatio(s.GeoMean), report.FormatInterval(s.GeoLo, s.GeoHi), opts.Noise))
	}
	switch {
	case d.Count(report.Broken) > 0:
		return withCode(ExitNewFailures, errors.New("regression: "+strings.Join(problems, "; ")))
	case len(problems) > 0:
		return withCode(ExitRegression, errors.New("regression: "+strings.Join(problems, "; ")))
	case d.Count(report.Inconclusive) > 0:
		games := d.Games(report.Inconclusive)
		msg := fmt.Sprintf("inconclusive: %s could not be judged (%s)", gamesCount(len(games)), gameList(games))
		if n := d.RunsNeeded(); n > 0 {
			msg += fmt.Sprintf("; a verdict needs at least %d ok, uncontended runs per side (gdlperf run --reps %d)", n, n)
		}
		return withCode(ExitInconclusive, errors.New(msg))
	}
	return nil
}

func gamesCount(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}

// gameList names up to five games, quoted so that no key can disturb the
// terminal.
func gameList(games []string) string {
	var q []string
	for i, g := range games {
		if i == 5 {
			q = append(q, fmt.Sprintf("and %d more", len(games)-5))
			break
		}
		q = append(q, fmt.Sprintf("%q", g))
	}
	return strings.Join(q, ", ")
}

// keepWorkloads keeps the rows (and the context) of s of the workloads
// named.
func keepWorkloads(s *report.Side, workloads []string) error {
	have := keepRows(s, func(r results.Row) string { return r.WorkloadName() }, func(w string) bool { return slices.Contains(workloads, w) })
	if len(s.Rows) == 0 {
		return fmt.Errorf("%s has no runs of workload %s (its other workloads: %s); gdlperf run --workloads makes them", s.Label, strings.Join(workloads, ", "), strings.Join(have, ", "))
	}
	return nil
}

// keepTransform keeps the rows (and the context) of s under transform
// name ("none": the untransformed rules).
func keepTransform(s *report.Side, name string) error {
	have := keepRows(s, func(r results.Row) string { return r.TransformName() }, func(t string) bool { return t == name })
	if len(s.Rows) == 0 {
		slices.Sort(have)
		return fmt.Errorf("%s has no runs under transform %s (its transforms: %s); gdlperf run --transforms makes them", s.Label, name, strings.Join(have, ", "))
	}
	s.Label += ":" + name
	return nil
}

// keepRows keeps the rows (and the context) of s whose value of dim is
// kept, and returns the other values seen, in order of appearance.
func keepRows(s *report.Side, dim func(results.Row) string, kept func(string) bool) (others []string) {
	keep := func(rows []results.Row) []results.Row {
		var out []results.Row
		for _, r := range rows {
			if v := dim(r); kept(v) {
				out = append(out, r)
			} else if !slices.Contains(others, v) {
				others = append(others, v)
			}
		}
		return out
	}
	s.Rows, s.Context = keep(s.Rows), keep(s.Context)
	return others
}

// splitTransform cuts ":TRANSFORM" off a side's argument, after the last
// colon: always after a bare engine name (so that an unknown transform is
// named as such), after a version only when it is none or a chain of
// transform names (a+b), so that a version with a colon of its own
// (tp@1.0:beta) stays whole.
func splitTransform(arg string) (string, string) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 || i == len(arg)-1 || isPath(arg) {
		return arg, ""
	}
	if !strings.Contains(arg[:i], "@") || isTransform(arg[i+1:]) {
		return arg[:i], arg[i+1:]
	}
	return arg, ""
}

// isTransform reports whether t names the untransformed rules (none) or a
// chain of transforms.
func isTransform(t string) bool {
	if t == results.DefaultTransform {
		return true
	}
	_, err := transform.ParseNames(strings.ReplaceAll(t, "+", ","))
	return err == nil
}

// compareSides resolves OLD and NEW into rows; across says that a side
// named a rule transform, so that the sides' runs are of one transform
// each and are compared across transforms.
func compareSides(opts *CompareOptions) (old, new report.Side, across bool, err error) {
	args := [2]string{opts.Old, opts.New}
	var transforms [2]string
	for i := range args {
		args[i], transforms[i] = splitTransform(args[i])
	}
	var pool *versionPool // the --results rows, loaded when a side names a version
	loadPool := func() (*versionPool, error) {
		if pool == nil {
			rows, _, err := loadRowsFrom(opts.Results, opts.IO.Err)
			if err != nil {
				return nil, fmt.Errorf("%w (engine versions are looked up in --results)", err)
			}
			pool = &versionPool{rows: rows, campaign: report.Analyse(rows), dir: opts.Results}
		}
		return pool, nil
	}
	if opts.New != "" && transforms == [2]string{} {
		// ENGINE@TRANSFORM: a transform of the engine's rows that is not
		// one of its versions.
		for i, a := range args {
			if isPath(a) || !strings.Contains(a, "@") {
				continue
			}
			v := report.ParseVersion(a)
			p, lerr := loadPool()
			if lerr != nil {
				break // compareSidesOf says why
			}
			isTransform := false
			for _, r := range p.rows {
				isTransform = isTransform || r.Engine == v.Engine && r.TransformName() == v.Version
			}
			if isTransform && !slices.Contains(p.campaign.VersionsOf(v.Engine), v) {
				args[i], transforms[i] = v.Engine, v.Version
			}
		}
	}
	o := *opts
	o.Old, o.New = args[0], args[1]
	old, new, err = compareSidesOf(&o, loadPool)
	if err != nil || transforms == [2]string{} {
		return old, new, false, err
	}
	for i, s := range []*report.Side{&old, &new} {
		if err := keepTransform(s, cmp.Or(transforms[i], results.DefaultTransform)); err != nil {
			return old, new, false, err
		}
	}
	return old, new, true, nil
}

// compareSidesOf resolves OLD and NEW into rows.
func compareSidesOf(opts *CompareOptions, loadPool func() (*versionPool, error)) (report.Side, report.Side, error) {
	if opts.New == "" {
		if isPath(opts.Old) {
			return report.Side{}, report.Side{}, fmt.Errorf("compare needs OLD and NEW; only one argument names an engine with two versions")
		}
		p, err := loadPool()
		if err != nil {
			return report.Side{}, report.Side{}, err
		}
		vs := p.campaign.VersionsOf(opts.Old)
		if len(vs) != 2 {
			return report.Side{}, report.Side{}, fmt.Errorf("with one argument, engine %s must have two versions in %s; it has %s", opts.Old, p.dir, versionsText(vs))
		}
		return p.sides(vs[0], vs[1])
	}
	args := [2]string{opts.Old, opts.New}
	var sides [2]report.Side
	var specs [2]*report.Version
	for i, a := range args {
		if isPath(a) {
			rows, _, err := loadRowsFrom(a, opts.IO.Err)
			if err != nil {
				return report.Side{}, report.Side{}, err
			}
			sides[i] = report.Side{Label: a, Rows: rows}
			continue
		}
		v := report.ParseVersion(a)
		specs[i] = &v
	}
	if specs[0] == nil && specs[1] == nil {
		return sides[0], sides[1], nil
	}
	p, err := loadPool()
	if err != nil {
		return report.Side{}, report.Side{}, err
	}
	var resolved [2]*report.Version
	for i, s := range specs {
		if s == nil {
			continue
		}
		var other *report.Version
		if o := specs[1-i]; o != nil && o.Engine == s.Engine {
			other = o
		}
		v, err := p.resolve(*s, other, i == 0)
		if err != nil {
			return report.Side{}, report.Side{}, err
		}
		resolved[i] = &v
	}
	if resolved[0] != nil && resolved[1] != nil {
		return p.sides(*resolved[0], *resolved[1])
	}
	for i, v := range resolved {
		if v != nil {
			sides[i] = p.side(*v, nil)
		}
	}
	return sides[0], sides[1], nil
}

// isPath says whether arg names results on disk rather than an engine: an
// existing folder, or an existing file named with a folder part or a .csv
// extension. A bare word is an engine even when a file of that name is in
// the current folder (an engine's binary often is); write ./NAME for such a
// file.
func isPath(arg string) bool {
	st, err := os.Stat(arg)
	if err != nil {
		return false
	}
	return st.IsDir() || strings.HasSuffix(arg, ".csv") || strings.ContainsRune(arg, os.PathSeparator) || strings.ContainsRune(arg, '/')
}

// versionPool is the rows where engine versions are looked up.
type versionPool struct {
	rows     []results.Row
	campaign *report.Analysis
	dir      string
}

// resolve finds the version spec names. A bare engine name is its only
// version; with two versions, the one the other side does not name, or
// (when both sides name the bare engine) the older for OLD and the newer
// for NEW.
func (p *versionPool) resolve(spec report.Version, other *report.Version, isOld bool) (report.Version, error) {
	vs := p.campaign.VersionsOf(spec.Engine)
	if len(vs) == 0 {
		var names []string
		seen := map[string]bool{}
		for _, v := range p.campaign.Versions {
			if !seen[v.Engine] {
				seen[v.Engine] = true
				names = append(names, v.Engine)
			}
		}
		return report.Version{}, fmt.Errorf("%s is neither a results file or folder nor an engine in %s (engines there: %s)", spec, p.dir, strings.Join(names, ", "))
	}
	if spec.Version != "" {
		for _, v := range vs {
			if v == spec {
				return v, nil
			}
		}
		return report.Version{}, fmt.Errorf("engine %s has no version %s in %s; it has %s", spec.Engine, spec.Version, p.dir, versionsText(vs))
	}
	switch {
	case len(vs) == 1:
		return vs[0], nil
	case len(vs) == 2 && other != nil && other.Version != "":
		if vs[0] == *other {
			return vs[1], nil
		}
		if vs[1] == *other {
			return vs[0], nil
		}
	case len(vs) == 2 && other != nil:
		if isOld {
			return vs[0], nil
		}
		return vs[1], nil
	}
	return report.Version{}, fmt.Errorf("engine %s has %s in %s; name one as %s@VERSION", spec.Engine, versionsText(vs), p.dir, spec.Engine)
}

// timeRange is the earliest and latest start time of a version's rows.
type timeRange struct{ first, last time.Time }

// distance is how far t lies outside r (0 inside).
func (r timeRange) distance(t time.Time) time.Duration {
	switch {
	case t.Before(r.first):
		return r.first.Sub(t)
	case t.After(r.last):
		return t.Sub(r.last)
	}
	return 0
}

// rangeOf returns the time range of v's rows and the machines they ran
// on; ok is false when some row has no (readable) start time.
func (p *versionPool) rangeOf(v report.Version) (timeRange, map[string]bool, bool) {
	var tr timeRange
	machines := map[string]bool{}
	ok := true
	for _, r := range p.rows {
		if r.Engine != v.Engine || r.EngineVersion != v.Version {
			continue
		}
		machines[r.Machine] = true
		t, err := time.Parse(time.RFC3339, r.StartTime)
		if err != nil {
			ok = false
			continue
		}
		if tr.first.IsZero() || t.Before(tr.first) {
			tr.first = t
		}
		if t.After(tr.last) {
			tr.last = t
		}
	}
	return tr, machines, ok && !tr.first.IsZero()
}

// sides returns the sides of two versions of the pool. The context of a
// side (where --calibrate finds the reference engine) is the rows of the
// other engines on its machines that started nearer to its own runs than
// to the other side's (inside its time range, or closer to it): the
// campaign it was measured in. Without start times, every such row is
// context of both.
func (p *versionPool) sides(old, new report.Version) (report.Side, report.Side, error) {
	ro, _, okO := p.rangeOf(old)
	rn, _, okN := p.rangeOf(new)
	if !okO || !okN {
		return p.side(old, nil), p.side(new, nil), nil
	}
	nearer := func(mine, other timeRange) func(time.Time) bool {
		return func(t time.Time) bool { return mine.distance(t) <= other.distance(t) }
	}
	return p.side(old, nearer(ro, rn)), p.side(new, nearer(rn, ro)), nil
}

// side is the rows of v, with as context the rows of other engines on v's
// machines: those whose start time in is true, or, for a nil in, those
// that started within v's time range (all of them when v's rows have no
// start times).
func (p *versionPool) side(v report.Version, in func(time.Time) bool) report.Side {
	tr, machines, ok := p.rangeOf(v)
	if in == nil {
		in = func(t time.Time) bool { return !ok || tr.distance(t) == 0 }
	}
	var rows, context []results.Row
	for _, r := range p.rows {
		switch {
		case r.Engine == v.Engine && r.EngineVersion == v.Version:
			rows = append(rows, r)
		case r.Engine == v.Engine || !machines[r.Machine]:
		default:
			t, err := time.Parse(time.RFC3339, r.StartTime)
			if err != nil || in(t) {
				context = append(context, r)
			}
		}
	}
	return report.Side{Label: v.String(), Rows: rows, Context: context}
}

func versionsText(vs []report.Version) string {
	if len(vs) == 0 {
		return "no version"
	}
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.Version
	}
	word := "versions"
	if len(vs) == 1 {
		word = "version"
	}
	return word + " " + strings.Join(s, ", ")
}

// CompareReport is gdlperf compare --json: the verdict and the tables.
type CompareReport struct {
	Old      string         `json:"old"`
	New      string         `json:"new"`
	Exit     int            `json:"exit"`    // the exit status: 0, 3 regression, 4 newly failing, 5 inconclusive
	Verdict  string         `json:"verdict"` // "no regression" or what was found
	Noise    float64        `json:"noisePercent"`
	Warnings []string       `json:"warnings"`
	Tables   []CompareTable `json:"tables"`
}

// CompareTable is one engine's old and new versions on one machine in one
// setup.
type CompareTable struct {
	OldVersion   string        `json:"oldVersion"` // ENGINE@VERSION
	NewVersion   string        `json:"newVersion"`
	OldMachine   string        `json:"oldMachine"`
	NewMachine   string        `json:"newMachine"`
	Setup        string        `json:"setup"`        // "2 s", "1000 rollouts, workload uct (iterations=2000)", ...
	NewSetup     string        `json:"newSetup"`     // NEW's setup: setup but for the transform when transforms are compared
	Workload     string        `json:"workload"`     // rollouts, uct, pns, minimax
	Budget       string        `json:"budget"`       // the workload's budget, "" for rollouts
	OldTransform string        `json:"oldTransform"` // "none" for the untransformed rules
	NewTransform string        `json:"newTransform"`
	Overall      string        `json:"overall"` // the verdict on the geometric mean
	GeoMean      *float64      `json:"geoMean"` // new/old rate, null when no game compares
	GeoLo        *float64      `json:"geoLo"`   // its 95% interval
	GeoHi        *float64      `json:"geoHi"`
	Factor       float64       `json:"machineFactor"` // NEW's rates were divided by it (1: not calibrated)
	Calibration  string        `json:"calibration,omitempty"`
	ContendedOld int           `json:"contendedOld"` // runs left out as contended
	ContendedNew int           `json:"contendedNew"`
	Games        []CompareGame `json:"games"`
}

// CompareGame is one game of a table. Rates are median state changes per
// second of the ok, uncontended runs; null where a side has none.
type CompareGame struct {
	Game    string   `json:"game"`
	Verdict string   `json:"verdict"` // faster, slower, ~, inconclusive, broken, fixed, failing, new, gone
	OldRate *float64 `json:"oldRate"`
	NewRate *float64 `json:"newRate"`
	OldRuns int      `json:"oldRuns"`
	NewRuns int      `json:"newRuns"`
	Ratio   *float64 `json:"ratio"` // new/old
	Lo      *float64 `json:"lo"`    // its 95% interval (the one the test implies)
	Hi      *float64 `json:"hi"`
	P       *float64 `json:"p"` // Holm-adjusted over the games of the table
}

// finite is x, or nil when x is NaN or infinite (JSON has no such number).
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func writeCompareJSON(w io.Writer, d *report.Diff, verdict error) error {
	rep := CompareReport{Old: d.Old, New: d.New, Noise: d.Noise * 100, Warnings: d.Warnings, Tables: []CompareTable{}, Verdict: "no regression"}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if verdict != nil {
		rep.Exit, rep.Verdict = exitCode(verdict), verdict.Error()
	}
	for _, t := range d.Tables {
		ct := CompareTable{OldVersion: t.Old.String(), NewVersion: t.New.String(), OldMachine: t.OldMachine, NewMachine: t.NewMachine,
			Setup: t.Setup.String(), NewSetup: t.NewSetup.String(), Workload: t.Setup.Workload, Budget: t.Setup.Budget,
			OldTransform: t.Setup.Transform, NewTransform: t.NewSetup.Transform, Overall: string(t.Overall), GeoMean: finite(t.Summary.GeoMean), GeoLo: finite(t.Summary.GeoLo),
			GeoHi: finite(t.Summary.GeoHi), Factor: t.Factor, Calibration: t.Calibration, Games: []CompareGame{}}
		// The pair is (A, B) = (new, old).
		ct.ContendedNew, ct.ContendedOld = t.Summary.ContendedA, t.Summary.ContendedB
		for _, g := range t.Games {
			cg := CompareGame{Game: g.Game, Verdict: string(g.Verdict), Ratio: finite(g.Ratio), Lo: finite(g.Lo), Hi: finite(g.Hi), P: finite(g.P)}
			if g.B != nil {
				cg.OldRuns = len(g.B.Runs)
				if g.B.Measured() {
					cg.OldRate = finite(g.B.Rate.Center)
				}
			}
			if g.A != nil {
				cg.NewRuns = len(g.A.Runs)
				if g.A.Measured() {
					cg.NewRate = finite(g.A.Rate.Center)
				}
			}
			ct.Games = append(ct.Games, cg)
		}
		rep.Tables = append(rep.Tables, ct)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
