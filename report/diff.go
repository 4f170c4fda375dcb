package report

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/gdlperf/gdlperf/results"
)

// Verdict is what happened to one game between two versions.
type Verdict string

// Verdicts of a Diff.
const (
	Faster       Verdict = "faster"       // significantly faster, by more than the noise
	Slower       Verdict = "slower"       // significantly slower, by more than the noise: a regression
	Same         Verdict = "~"            // no significant change beyond the noise, with runs enough to see one
	Inconclusive Verdict = "inconclusive" // too few (uncontended) runs for the test to ever be significant
	Broken       Verdict = "broken"       // no run failed before, some run fails now
	Fixed        Verdict = "fixed"        // some run failed before, none fails now
	Failing      Verdict = "failing"      // runs fail on both sides and one side has no ok run
	Added        Verdict = "new"          // only NEW ran the game
	Removed      Verdict = "gone"         // only OLD ran the game
)

var verdictOrder = []Verdict{Faster, Slower, Same, Inconclusive, Broken, Fixed, Failing, Added, Removed}

// DefaultReference is the engine whose rates measure the machine when two
// campaigns are compared (DiffOptions.Reference).
const DefaultReference = "prover"

// Limits beyond which the conditions of two sides differ markedly: the
// medians of their runs' CPU shares (capped at 1), and of the load per
// core when their runs started.
const (
	shareLimit = 0.1
	loadLimit  = 1.0
)

// DiffOptions configure Diff.
type DiffOptions struct {
	// Noise is the relative change below which a significant difference is
	// still "~": 0.02 for 2%.
	Noise float64
	// CrossMachine allows comparing rows of two different machines when the
	// sides have no machine in common (each side must then have one).
	CrossMachine bool
	// Reference is the engine that measures the machine: DefaultReference
	// when empty.
	Reference string
	// Calibrate divides NEW's rates by the machine factor: the geometric
	// mean, over the games both sides' reference engine ran, of its rate in
	// NEW over its rate in OLD. Without it, sides of separate campaigns or
	// of markedly different conditions are refused.
	Calibrate bool
	// Counted says the rows are instruction counts (gdlperf run --measure
	// instructions): a count does not depend on the machine's load or the
	// hour, so sides of separate campaigns compare as they are (on one
	// machine type: the machines are still paired).
	Counted bool
	// AcrossTransforms pairs the groups of the sides whose setups differ
	// in their rule transform only (each side holding the rows of one
	// transform): it compares transforms as versions are compared. A side
	// with several seeds of its transform gives a table per seed.
	AcrossTransforms bool
}

// Side is one side of a Diff: rows and how to name them in messages.
type Side struct {
	Label string
	Rows  []results.Row
	// Context are more rows of the side's campaign, not compared: the
	// reference engine's runs are looked for in Rows and Context (rows of
	// one run key count once).
	Context []results.Row
}

// DiffGame is one game of a DiffTable: A is the new cell, B the old.
type DiffGame struct {
	PairGame
	Verdict Verdict
}

// DiffTable compares one engine's old and new runs on one machine in one
// setup.
type DiffTable struct {
	OldMachine, NewMachine string
	Setup                  Setup // OLD's
	NewSetup               Setup // NEW's: Setup but for the transform when DiffOptions.AcrossTransforms
	Old, New               Version
	Games                  []DiffGame // by game key
	Summary                PairSummary
	// Overall is the verdict on the geometric mean of the ratios: Faster or
	// Slower when its 95% interval lies beyond 1±noise, else Same (or
	// Inconclusive with fewer than 2 compared games).
	Overall Verdict
	// Factor is the machine factor NEW's rates were divided by (1 when not
	// calibrated), Calibration says where it came from.
	Factor      float64
	Calibration string
	CPU         bool // some run of the table reported its timed CPU time
	counts      map[Verdict]int
}

// Count returns the number of games with verdict v.
func (t *DiffTable) Count(v Verdict) int { return t.counts[v] }

// Diff is the comparison of two sets of runs, table by table.
type Diff struct {
	Old, New string // the sides' labels
	Noise    float64
	Tables   []*DiffTable
	// OldConditions and NewConditions describe how each side was measured.
	OldConditions, NewConditions Conditions
	// Warnings are non-fatal findings: too few repetitions for a verdict,
	// machines or engines on one side only.
	Warnings []string
}

// Count returns the number of games with verdict v over all tables.
func (d *Diff) Count(v Verdict) int {
	n := 0
	for _, t := range d.Tables {
		n += t.counts[v]
	}
	return n
}

// Games returns the games with verdict v, over all tables.
func (d *Diff) Games(v Verdict) []string {
	var out []string
	for _, t := range d.Tables {
		for _, g := range t.Games {
			if g.Verdict == v {
				out = append(out, g.Game)
			}
		}
	}
	return out
}

// Overall returns the tables whose overall verdict is v.
func (d *Diff) Overall(v Verdict) []*DiffTable {
	var out []*DiffTable
	for _, t := range d.Tables {
		if t.Overall == v {
			out = append(out, t)
		}
	}
	return out
}

// RunsNeeded is the most ok runs per side any inconclusive game needs, 0
// when no game is inconclusive for want of runs.
func (d *Diff) RunsNeeded() int {
	n := 0
	for _, t := range d.Tables {
		for _, g := range t.Games {
			if g.Verdict == Inconclusive && g.A.Measured() && g.B.Measured() && g.Outcome != TreeBound {
				n = max(n, RunsNeeded(thresholds.CompareAlpha, g.Tests))
			}
		}
	}
	return n
}

// Conditions describe how one side's runs were measured.
type Conditions struct {
	First, Last string // earliest and latest start time; "" when no row has one
	// Share is the median CPU share (CPUShare, capped at 1) of the ok runs
	// that record one and were not contended (those are left out run by
	// run), over Shares runs; NaN when none does.
	Share  float64
	Shares int
	// Load is the median 1-minute load per logical CPU when the runs
	// started, over Loads runs; NaN when unknown.
	Load      float64
	Loads     int
	Contended int // ok runs left out as contended
}

func conditionsOf(rows []results.Row) Conditions {
	c := Conditions{Share: math.NaN(), Load: math.NaN()}
	var shares, loads []float64
	for i := range rows {
		r := &rows[i]
		if r.StartTime != "" {
			if c.First == "" || r.StartTime < c.First {
				c.First = r.StartTime
			}
			c.Last = max(c.Last, r.StartTime)
		}
		if l, ok := loadPerCore(r); ok {
			loads = append(loads, l)
		}
		if r.Status != results.StatusOK {
			continue
		}
		if bad, _ := contended(r); bad {
			c.Contended++
		} else if s, ok := CPUShare(r); ok {
			shares = append(shares, min(s, 1))
		}
	}
	c.Shares, c.Loads = len(shares), len(loads)
	if len(shares) > 0 {
		c.Share = median(shares)
	}
	if len(loads) > 0 {
		c.Load = median(loads)
	}
	return c
}

// String is "runs 2026-01-10T10:00:00Z – 2026-01-11T10:00:00Z, median CPU
// share 0.98, load 0.2 per core, 3 contended".
func (c Conditions) String() string {
	var parts []string
	if c.First != "" {
		parts = append(parts, "runs "+c.First+" – "+c.Last)
	} else {
		parts = append(parts, "no start times")
	}
	if c.Shares > 0 {
		parts = append(parts, fmt.Sprintf("median CPU share %.2f", c.Share))
	}
	if c.Loads > 0 {
		parts = append(parts, fmt.Sprintf("load %.2f per core", c.Load))
	}
	if c.Contended > 0 {
		parts = append(parts, fmt.Sprintf("%d contended", c.Contended))
	}
	return strings.Join(parts, ", ")
}

// OneCampaign says whether two sides are one campaign: their start-time
// ranges overlap, as those of versions measured in one interleaved campaign
// do. known is false when a side has no start times.
func OneCampaign(a, b Conditions) (one, known bool) {
	if a.First == "" || b.First == "" {
		return false, false
	}
	return max(a.First, b.First) <= min(a.Last, b.Last), true
}

// oneRunAGame reports whether rows hold at most one run of each game and
// setup (a cell).
func oneRunAGame(rows []results.Row) bool {
	type cell struct {
		game  string
		setup Setup
	}
	n := map[cell]int{}
	for i := range rows {
		c := cell{rows[i].GameKey, setupOf(&rows[i])}
		if n[c]++; n[c] > 1 {
			return false
		}
	}
	return true
}

// differences lists how the conditions of old and new differ markedly.
func differences(old, new Conditions) []string {
	var out []string
	if old.Shares > 0 && new.Shares > 0 && math.Abs(old.Share-new.Share) > shareLimit {
		out = append(out, fmt.Sprintf("their median CPU shares differ by more than %.1f (%.2f and %.2f)", shareLimit, old.Share, new.Share))
	}
	if old.Loads > 0 && new.Loads > 0 && math.Abs(old.Load-new.Load) > loadLimit {
		out = append(out, fmt.Sprintf("their median loads differ by more than %g per core (%.2f and %.2f)", loadLimit, old.Load, new.Load))
	}
	return out
}

// CompareSides compares the runs of old and new. Each side may hold several
// engines, each in one version; engines are matched by name, or directly
// when each side holds one engine. Rows are compared only within one
// machine and one setup (unless DiffOptions.CrossMachine allows a pair of
// single machines).
//
// Two sides are comparable as they are when they are one campaign
// (OneCampaign) and their conditions do not differ markedly (median CPU
// shares within 0.1, median loads per core within 1). Otherwise
// CompareSides refuses, unless DiffOptions.Calibrate is set: then NEW's
// rates are divided by the machine factor of the reference engine on each
// machine, and the sides must both have run it on common games.
func CompareSides(old, new Side, o DiffOptions) (*Diff, error) {
	d := &Diff{Old: old.Label, New: new.Label, Noise: o.Noise}
	if len(old.Rows) == 0 {
		return nil, fmt.Errorf("%s has no results", old.Label)
	}
	if len(new.Rows) == 0 {
		return nil, fmt.Errorf("%s has no results", new.Label)
	}
	ref := cmp.Or(o.Reference, DefaultReference)
	co, cn := Analyse(old.Rows), Analyse(new.Rows)
	eo, err := oneVersionEach(co, old.Label)
	if err != nil {
		return nil, err
	}
	en, err := oneVersionEach(cn, new.Label)
	if err != nil {
		return nil, err
	}
	type enginePair struct{ old, new Version }
	var engines []enginePair
	if len(eo) == 1 && len(en) == 1 {
		engines = append(engines, enginePair{eo[0], en[0]})
	} else {
		for _, v := range eo {
			if i := slices.IndexFunc(en, func(w Version) bool { return w.Engine == v.Engine }); i >= 0 {
				engines = append(engines, enginePair{v, en[i]})
			} else {
				d.Warnings = append(d.Warnings, fmt.Sprintf("engine %s is only in %s: not compared", plain(v.Engine), old.Label))
			}
		}
		for _, v := range en {
			if !slices.ContainsFunc(eo, func(w Version) bool { return w.Engine == v.Engine }) {
				d.Warnings = append(d.Warnings, fmt.Sprintf("engine %s is only in %s: not compared", plain(v.Engine), new.Label))
			}
		}
		if len(engines) == 0 {
			return nil, fmt.Errorf("%s and %s have no engine in common (%s; %s)", old.Label, new.Label, versionList(eo), versionList(en))
		}
	}
	machines, err := pairMachines(d, co, cn, old.Label, new.Label, o.CrossMachine, o.AcrossTransforms)
	if err != nil {
		return nil, err
	}

	// Are the sides comparable as they are?
	d.OldConditions, d.NewConditions = conditionsOf(old.Rows), conditionsOf(new.Rows)
	var reasons []string
	one, known := OneCampaign(d.OldConditions, d.NewConditions)
	switch {
	case o.Counted:
		// Counts: neither the campaigns nor the load matter.
	case known && !one:
		why := fmt.Sprintf("they are separate campaigns: their start times do not interleave (%s: %s – %s; %s: %s – %s), so the machine may have changed between them",
			old.Label, d.OldConditions.First, d.OldConditions.Last, new.Label, d.NewConditions.First, d.NewConditions.Last)
		if oneRunAGame(old.Rows) || oneRunAGame(new.Rows) {
			// One run a side on a game never interleaves, even in one
			// campaign: say what would tell.
			why += fmt.Sprintf(" (with one run a game on a side, the runs of one campaign cannot interleave either: give gdlperf run --reps %d or more, which a verdict on one game needs anyway)", RunsNeeded(0.05, 1))
		}
		reasons = append(reasons, why)
	case !known:
		d.Warnings = append(d.Warnings, fmt.Sprintf("cannot tell whether %s and %s are one campaign: some side's rows have no start times", old.Label, new.Label))
	}
	if !o.Counted {
		reasons = append(reasons, differences(d.OldConditions, d.NewConditions)...)
	}
	var calib *calibrator
	if o.Calibrate || len(reasons) > 0 {
		calib = newCalibrator(old, new, ref, engines[0].old.Engine == ref && len(engines) == 1)
	}
	if len(reasons) > 0 && !o.Calibrate {
		msg := fmt.Sprintf("%s and %s are not comparable as they are: %s", old.Label, new.Label, strings.Join(reasons, "; "))
		if f, note, err := calib.factor(machines[0].old, machines[0].new); err == nil {
			msg += fmt.Sprintf("; the machine factor is %s (%s): --calibrate divides %s's rates by it", FormatRatio(f), note, new.Label)
		} else {
			msg += fmt.Sprintf("; and %v. Measure both versions in one campaign (gdlperf run --engines with both), or run the reference engine %s in both campaigns and use --calibrate", err, plain(ref))
		}
		return nil, errors.New(msg)
	}

	for _, mp := range machines {
		factor, note := 1.0, ""
		if calib != nil {
			f, n, err := calib.factor(mp.old, mp.new)
			if err != nil {
				return nil, fmt.Errorf("cannot calibrate %s against %s: %w", new.Label, old.Label, err)
			}
			factor, note = f, n
		}
		for _, ep := range engines {
			if !mp.old.Has(ep.old) && !mp.new.Has(ep.new) {
				continue
			}
			t := diffTable(mp, ep.old, ep.new, factor, o.Noise)
			if note != "" {
				t.Calibration = fmt.Sprintf("machine factor %s from %s: %s's rates are divided by it", FormatRatio(factor), note, new.Label)
			}
			d.Tables = append(d.Tables, t)
		}
	}
	if len(d.Tables) == 0 {
		return nil, fmt.Errorf("%s and %s have no runs of the same engine on the same machine", old.Label, new.Label)
	}
	return d, nil
}

type machinePair struct{ old, new *Group }

// diffTable compares old on mp.old with new on mp.new, game by game, NEW's
// rates divided by factor.
func diffTable(mp machinePair, old, new Version, factor, noise float64) *DiffTable {
	t := &DiffTable{OldMachine: mp.old.Machine, NewMachine: mp.new.Machine, Setup: mp.old.Setup, NewSetup: mp.new.Setup, Old: old, New: new, Factor: factor, counts: map[Verdict]int{}}
	games := map[string]bool{}
	for _, g := range mp.old.Games {
		if mp.old.Cell(g, old) != nil {
			games[g] = true
		}
	}
	for _, g := range mp.new.Games {
		if mp.new.Cell(g, new) != nil {
			games[g] = true
		}
	}
	var pgs []PairGame
	for _, g := range sortedKeys(games) {
		pgs = append(pgs, compareCells(g, scaled(mp.new.Cell(g, new), factor), mp.old.Cell(g, old)))
	}
	adjust(pgs)
	for _, pg := range pgs {
		v := verdict(&pg, noise)
		t.counts[v]++
		t.Games = append(t.Games, DiffGame{PairGame: pg, Verdict: v})
		for _, c := range []*Cell{pg.A, pg.B} {
			if c == nil {
				continue
			}
			for _, r := range c.Runs {
				t.CPU = t.CPU || r.TimedCPUMs > 0
			}
		}
	}
	t.Summary = Summarize(pgs, "new", "old")
	switch {
	case t.Summary.Compared < 2:
		t.Overall = Inconclusive
	case t.Summary.OverallBeyond(noise) > 0:
		t.Overall = Faster
	case t.Summary.OverallBeyond(noise) < 0:
		t.Overall = Slower
	default:
		t.Overall = Same
	}
	return t
}

// pairMachines pairs the machines (fingerprint and setup) of the sides.
func pairMachines(d *Diff, co, cn *Analysis, oldLabel, newLabel string, cross, acrossTransforms bool) ([]machinePair, error) {
	var machines []machinePair
	ids := func(c *Analysis) []string {
		var out []string
		for _, m := range c.Groups {
			if !slices.Contains(out, m.Machine) {
				out = append(out, m.Machine)
			}
		}
		return out
	}
	io, in := ids(co), ids(cn)
	common := false
	for _, id := range io {
		common = common || slices.Contains(in, id)
	}
	if !common {
		if !cross || len(io) != 1 || len(in) != 1 {
			msg := fmt.Sprintf("%s and %s were measured on different machines (%s; %s), and rates of two machines are not comparable", oldLabel, newLabel, machineList(io), machineList(in))
			if len(io) == 1 && len(in) == 1 {
				msg += "; --cross-machine compares them anyway"
			}
			return nil, errors.New(msg)
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("comparing machine %s (%s) with machine %s (%s): the ratios include the difference of the machines", plain(io[0]), oldLabel, plain(in[0]), newLabel))
	}
	sameSetup := func(a, b Setup) bool { return a == b }
	if acrossTransforms {
		sameSetup = func(a, b Setup) bool { return untransformed(a) == untransformed(b) }
	}
	sameMachine := func(a, b *Group) bool { return sameSetup(a.Setup, b.Setup) && (a.Machine == b.Machine || !common) }
	for _, mo := range co.Groups {
		for _, mn := range cn.Groups {
			if sameMachine(mo, mn) {
				machines = append(machines, machinePair{mo, mn})
			}
		}
	}
	for _, c := range []struct {
		camp, other *Analysis
		label       string
	}{{co, cn, oldLabel}, {cn, co, newLabel}} {
		for _, m := range c.camp.Groups {
			switch {
			case slices.ContainsFunc(c.other.Groups, func(x *Group) bool { return sameMachine(m, x) }):
			case common && !slices.ContainsFunc(c.other.Groups, func(x *Group) bool { return x.Machine == m.Machine }):
				if !slices.Contains(d.Warnings, fmt.Sprintf("machine %s is only in %s: its runs are not compared", plain(m.Machine), c.label)) {
					d.Warnings = append(d.Warnings, fmt.Sprintf("machine %s is only in %s: its runs are not compared", plain(m.Machine), c.label))
				}
			default:
				d.Warnings = append(d.Warnings, fmt.Sprintf("runs of %s on machine %s are only in %s: runs of different setups are never pooled or compared", m.Setup, plain(m.Machine), c.label))
			}
		}
	}
	if len(machines) == 0 {
		return nil, fmt.Errorf("%s and %s have no runs of the same setup on the same machine (%s; %s): runs of different lengths, modes, workloads, transforms or measures are not compared", oldLabel, newLabel, setupList(co), setupList(cn))
	}
	return machines, nil
}

func setupList(c *Analysis) string {
	var s []string
	for _, m := range c.Groups {
		if x := m.Setup.String(); !slices.Contains(s, x) {
			s = append(s, x)
		}
	}
	return strings.Join(s, ", ")
}

// scaled returns a copy of c with its rates divided by f (c itself when f
// is 1 or c is nil).
func scaled(c *Cell, f float64) *Cell {
	if c == nil || f == 1 || !c.Measured() {
		return c
	}
	out := *c
	values := make([]float64, len(c.sample.Values))
	for i, v := range c.sample.Values {
		values[i] = v / f
	}
	out.sample = benchmath.NewSample(values, &thresholds)
	out.Rate = benchmath.AssumeNothing.Summary(out.sample, Confidence)
	out.CPURate = c.CPURate / f
	out.Rollouts = c.Rollouts / f
	return &out
}

// calibrator measures the machine with the reference engine's runs of
// each side.
type calibrator struct {
	ref           string
	old, new      *Analysis
	oldLb, newLb  string
	isComparedOne bool // the reference is the one engine compared
}

func newCalibrator(old, new Side, ref string, isCompared bool) *calibrator {
	pick := func(s Side) []results.Row {
		var out []results.Row
		seen := map[string]bool{}
		for _, rows := range [][]results.Row{s.Rows, s.Context} {
			for _, r := range rows {
				if r.Engine != ref || (r.RunKey != "" && seen[r.RunKey]) {
					continue
				}
				seen[r.RunKey] = true
				out = append(out, r)
			}
		}
		return out
	}
	return &calibrator{ref: ref, old: Analyse(pick(old)), new: Analyse(pick(new)), oldLb: old.Label, newLb: new.Label, isComparedOne: isCompared}
}

// factor is the machine factor between two machines of the sides: the
// geometric mean over the games the reference ran on both of its rate in
// NEW over its rate in OLD, with a note saying where it came from.
func (c *calibrator) factor(mo, mn *Group) (float64, string, error) {
	if c.isComparedOne {
		return 0, "", fmt.Errorf("the reference engine %s is the engine compared; name another with --reference", plain(c.ref))
	}
	find := func(camp *Analysis, m *Group, label string) (*Group, Version, error) {
		for _, x := range camp.Groups {
			if x.Machine != m.Machine || x.Setup != m.Setup {
				continue // the reference's runs of the same setup (and transform) as the compared ones
			}
			if len(x.Versions) > 1 {
				return nil, Version{}, fmt.Errorf("the reference engine %s has %d versions in %s (%s)", plain(c.ref), len(x.Versions), label, versionList(x.Versions))
			}
			return x, x.Versions[0], nil
		}
		return nil, Version{}, fmt.Errorf("%s has no runs of the reference engine %s on machine %s in %s", label, plain(c.ref), plain(machineName(m.Machine)), m.Setup)
	}
	ro, vo, err := find(c.old, mo, c.oldLb)
	if err != nil {
		return 0, "", err
	}
	rn, vn, err := find(c.new, mn, c.newLb)
	if err != nil {
		return 0, "", err
	}
	var ratios []float64
	for _, g := range ro.Games {
		a, b := rn.Cell(g, vn), ro.Cell(g, vo)
		if pg := compareCells(g, a, b); pg.Outcome == Compared {
			ratios = append(ratios, pg.Ratio)
		}
	}
	if len(ratios) == 0 {
		return 0, "", fmt.Errorf("the reference engine %s ran ok on no common game in %s and %s", plain(c.ref), c.oldLb, c.newLb)
	}
	gm, lo, hi := geoMeanCI(ratios, Confidence)
	note := fmt.Sprintf("%s on %s", plain(c.ref), plural(len(ratios), "game"))
	if !math.IsNaN(lo) {
		note += fmt.Sprintf(", 95%% interval %s", FormatInterval(lo, hi))
	}
	if vo != vn {
		note += fmt.Sprintf("; %s and %s: the factor includes the reference's own change", plain(vo.String()), plain(vn.String()))
	}
	return gm, note, nil
}

// verdict classifies g, where A is new and B is old.
func verdict(g *PairGame, noise float64) Verdict {
	switch {
	case g.B == nil:
		return Added
	case g.A == nil:
		return Removed
	}
	oldFail, newFail := g.B.Failed() > 0, g.A.Failed() > 0
	switch {
	case !oldFail && newFail:
		return Broken
	case oldFail && !newFail:
		return Fixed
	case g.A.AllContended() || g.B.AllContended():
		return Inconclusive
	case !g.A.Measured() || !g.B.Measured():
		return Failing
	case g.Outcome.Wrong():
		return Same
	case g.Outcome == TreeBound:
		return Inconclusive
	case !g.Testable:
		return Inconclusive
	case g.Sign > 0 && g.Lo > 1+noise:
		return Faster
	case g.Sign < 0 && g.Hi < 1-noise:
		return Slower
	}
	return Same
}

// oneVersionEach returns the engine versions of c, one per engine, or an
// error naming an engine with several versions.
func oneVersionEach(c *Analysis, label string) ([]Version, error) {
	var out []Version
	for _, v := range c.Versions {
		if len(out) > 0 && out[len(out)-1].Engine == v.Engine {
			vs := c.VersionsOf(v.Engine)
			return nil, fmt.Errorf("%s holds %d versions of engine %s (%s); compare engine versions instead, as %s", label, len(vs), plain(v.Engine), versionList(vs), plain(vs[0].String()))
		}
		out = append(out, v)
	}
	return out, nil
}

func versionList(vs []Version) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = plain(v.String())
	}
	return strings.Join(s, ", ")
}

func machineList(ids []string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = plain(id)
		if s[i] == "" {
			s[i] = `""`
		}
	}
	return "machine " + strings.Join(s, ", ")
}

// WriteText writes the comparison as tables, one per engine, machine and
// setup, each followed by the errors of broken games, the contended runs
// left out, what the inconclusive games need, and its summary line.
func (d *Diff) WriteText(w io.Writer) error {
	for i, t := range d.Tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, t.heading())
		if t.Calibration != "" {
			fmt.Fprintln(w, "calibrated:", t.Calibration)
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		head := "game\told states/s\t\tnew states/s\t\tnew/old\t95% interval\tp (Holm)"
		if t.CPU {
			head += "\tnew/old per CPU-s"
		}
		fmt.Fprintln(tw, head+"\tverdict")
		indicative := false
		for _, g := range t.Games {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", plain(g.Game),
				cellRate(g.B), cellSpread(g.B), cellRate(g.A), cellSpread(g.A),
				FormatRatio(g.Ratio), FormatInterval(g.Lo, g.Hi), formatP(&g.PairGame))
			if t.CPU {
				r := cpuRatio(g.A, g.B)
				indicative = indicative || strings.HasPrefix(r, "(")
				fmt.Fprintf(tw, "\t%s", r)
			}
			fmt.Fprintf(tw, "\t%s\n", g.Verdict)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if indicative {
			fmt.Fprintln(w, "(a ratio in parentheses): per CPU-second of every ok run, contended ones included, where a side's runs were all contended: an indication only, never a verdict")
		}
		for _, g := range t.Games {
			if g.Verdict != Broken && g.Verdict != Failing {
				continue
			}
			if r := g.A.FirstError(); r != nil {
				fmt.Fprintf(w, "%s %s: %d of %d new runs failed; %s", g.Verdict, plain(g.Game), g.A.Failed(), len(g.A.Runs), plain(r.Status))
				if r.ErrorMessage != "" {
					fmt.Fprintf(w, ": %s", plain(r.ErrorMessage))
				}
				fmt.Fprintln(w)
			}
		}
		for _, g := range t.Games {
			var parts []string
			for _, side := range []struct {
				name string
				c    *Cell
			}{{"old", g.B}, {"new", g.A}} {
				if side.c == nil {
					continue
				}
				for _, r := range side.c.Contended {
					_, why := contended(r)
					parts = append(parts, fmt.Sprintf("%s run %d (%s)", side.name, r.Repetition, why))
				}
			}
			if len(parts) > 0 {
				fmt.Fprintf(w, "left out %s: %s\n", plain(g.Game), strings.Join(parts, ", "))
			}
		}
		writeInconclusive(w, t.Games)
		fmt.Fprintln(w, t.summaryLine(d.Noise))
	}
	return nil
}

// writeInconclusive says why each inconclusive game is, one line a game,
// or one line for the games that share a reason when more than 3 do.
func writeInconclusive(w io.Writer, games []DiffGame) {
	var reasons []string
	byReason := map[string][]string{}
	for _, g := range games {
		if g.Verdict != Inconclusive {
			continue
		}
		why := g.TreeBoundWhy("new", "old")
		if why == "" {
			why = g.Needs("new", "old")
		}
		if why == "" {
			why = g.Outcome.Describe("new", "old")
		}
		if _, ok := byReason[why]; !ok {
			reasons = append(reasons, why)
		}
		byReason[why] = append(byReason[why], plain(g.Game))
	}
	for _, why := range reasons {
		gs := byReason[why]
		if len(gs) <= 3 {
			for _, g := range gs {
				fmt.Fprintf(w, "inconclusive %s: %s\n", g, why)
			}
			continue
		}
		names := strings.Join(gs[:5], ", ")
		if len(gs) > 5 {
			names += fmt.Sprintf(" and %d more", len(gs)-5)
		}
		fmt.Fprintf(w, "inconclusive, %d games (%s): %s\n", len(gs), names, why)
	}
}

// formatP is a game's adjusted p-value, or — without a test.
func formatP(g *PairGame) string {
	if math.IsNaN(g.P) || g.Cmp.N1 == 0 || g.Cmp.N2 == 0 {
		return "—"
	}
	return strconv.FormatFloat(g.P, 'f', 3, 64)
}

// cpuRatio is the ratio of the medians of state changes per CPU-second of
// the measured runs; in parentheses, of every ok run, when a side's runs
// were all contended (an indication, never a verdict); — when a side did
// not report its CPU time or disagreed with the reference.
func cpuRatio(a, b *Cell) string {
	switch {
	case a == nil || b == nil || a.Wrong || b.Wrong:
		return "—"
	case a.Measured() && b.Measured() && a.CPURate > 0 && b.CPURate > 0:
		return FormatRatio(a.CPURate / b.CPURate)
	case (a.AllContended() || b.AllContended()) && a.AnyCPURate > 0 && b.AnyCPURate > 0:
		return "(" + FormatRatio(a.AnyCPURate/b.AnyCPURate) + ")"
	}
	return "—"
}

func (t *DiffTable) heading() string {
	if t.NewSetup != t.Setup && t.NewSetup != (Setup{}) {
		return fmt.Sprintf("%s (%s) → %s (%s) on machine %s, %s runs", plain(t.Old.String()), transformWords(t.Setup), plain(t.New.String()), transformWords(t.NewSetup),
			plain(t.OldMachine), untransformed(t.Setup))
	}
	if t.OldMachine == t.NewMachine {
		return fmt.Sprintf("%s → %s on machine %s, %s runs", plain(t.Old.String()), plain(t.New.String()), plain(t.OldMachine), t.Setup)
	}
	return fmt.Sprintf("%s on machine %s → %s on machine %s, %s runs", plain(t.Old.String()), plain(t.OldMachine), plain(t.New.String()), plain(t.NewMachine), t.Setup)
}

func (t *DiffTable) summaryLine(noise float64) string {
	var parts []string
	for _, v := range verdictOrder {
		n := t.counts[v]
		if n == 0 && (v == Failing || v == Added || v == Removed || v == Inconclusive) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, v))
	}
	s := t.Summary
	line := fmt.Sprintf("summary: %s: %s (noise %s)", plural(len(t.Games), "game"), strings.Join(parts, ", "), FormatPercent(noise))
	if s.Tests > 1 {
		line += fmt.Sprintf("; p-values adjusted by Holm over %d games", s.Tests)
	}
	if s.Compared > 0 {
		line += fmt.Sprintf("; new/old geomean %s %s (%s), median %s over %s", FormatRatio(s.GeoMean), FormatInterval(s.GeoLo, s.GeoHi), t.Overall, FormatRatio(s.Median), plural(s.Compared, "game"))
	} else {
		line += "; no game ran ok on both sides with state changes"
		if s.CPUGames > 0 && s.ContendedA+s.ContendedB > 0 {
			line += fmt.Sprintf(" and uncontended; an indication only, not a verdict: new/old per CPU-second of every ok run, contended ones included, %s (geometric mean over %s)", FormatRatio(s.CPUGeoMean), plural(s.CPUGames, "game"))
		}
	}
	if s.ExcludedGames > 0 {
		line += fmt.Sprintf(" (%d excluded: %s)", s.ExcludedGames, exclusionText(s.Excluded))
	}
	if n := s.ContendedA + s.ContendedB; n > 0 {
		line += fmt.Sprintf("; %s left out as contended (%d old, %d new)", plural(n, "run"), s.ContendedB, s.ContendedA)
	} else {
		line += "; no contended run"
	}
	return line
}

func exclusionText(ex []Exclusion) string {
	parts := make([]string, len(ex))
	for i, e := range ex {
		parts[i] = fmt.Sprintf("%d %s", len(e.Games), e.Reason)
	}
	return strings.Join(parts, "; ")
}

func cellRate(c *Cell) string {
	switch {
	case c == nil:
		return "—"
	case !c.Measured() && c.OK > 0 && len(c.Contended) == c.OK:
		// The runs did not fail: every ok one was left out as contended.
		return "contended"
	case !c.Measured():
		return "failed"
	}
	return FormatRate(c.Rate.Center)
}

func cellSpread(c *Cell) string {
	if !c.Measured() {
		return ""
	}
	if math.IsInf(c.Rate.Lo, 0) || math.IsInf(c.Rate.Hi, 0) {
		return "±∞"
	}
	return FormatSpread(c.Rate)
}

// transformWords names a setup's transform: "untransformed", "transform
// shuffle (seed 1)".
func transformWords(s Setup) string {
	if s.Transform == results.DefaultTransform {
		return "untransformed"
	}
	return fmt.Sprintf("transform %s (seed %d)", plain(s.Transform), s.TransformSeed)
}
