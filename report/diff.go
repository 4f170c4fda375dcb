package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gdlperf/gdlperf/results"
)

// Verdict is what happened to one game between two versions.
type Verdict string

// Verdicts of a Diff.
const (
	Faster  Verdict = "faster"  // significantly faster, by more than the noise
	Slower  Verdict = "slower"  // significantly slower, by more than the noise: a regression
	Same    Verdict = "~"       // no significant change beyond the noise
	Broken  Verdict = "broken"  // no run failed before, some run fails now
	Fixed   Verdict = "fixed"   // some run failed before, none fails now
	Failing Verdict = "failing" // runs fail on both sides and one side has no ok run
	Added   Verdict = "new"     // only NEW ran the game
	Removed Verdict = "gone"    // only OLD ran the game
)

var verdictOrder = []Verdict{Faster, Slower, Same, Broken, Fixed, Failing, Added, Removed}

// DiffOptions configure Diff.
type DiffOptions struct {
	// Noise is the relative change below which a significant difference is
	// still "~": 0.02 for 2%.
	Noise float64
	// CrossMachine allows comparing rows of two different machines when the
	// sides have no machine in common (each side must then have one).
	CrossMachine bool
}

// Side is one side of a Diff: rows and how to name them in messages.
type Side struct {
	Label string
	Rows  []results.Row
}

// DiffGame is one game of a DiffTable: A is the new cell, B the old.
type DiffGame struct {
	PairGame
	Verdict Verdict
}

// DiffTable compares one engine's old and new runs on one machine.
type DiffTable struct {
	OldMachine, NewMachine string
	Old, New               Version
	Games                  []DiffGame // by game key
	Summary                PairSummary
	counts                 map[Verdict]int
}

// Count returns the number of games with verdict v.
func (t *DiffTable) Count(v Verdict) int { return t.counts[v] }

// Diff is the comparison of two sets of runs, table by table.
type Diff struct {
	Old, New string // the sides' labels
	Noise    float64
	Tables   []*DiffTable
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

// CompareSides compares the runs of old and new. Each side may hold several
// engines, each in one version; engines are matched by name, or directly
// when each side holds one engine. Rows are compared only within one
// machine (unless DiffOptions.CrossMachine allows a pair of single machines).
func CompareSides(old, new Side, o DiffOptions) (*Diff, error) {
	d := &Diff{Old: old.Label, New: new.Label, Noise: o.Noise}
	if len(old.Rows) == 0 {
		return nil, fmt.Errorf("%s has no results", old.Label)
	}
	if len(new.Rows) == 0 {
		return nil, fmt.Errorf("%s has no results", new.Label)
	}
	co, cn := Analyze(old.Rows), Analyze(new.Rows)
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
	type machinePair struct{ old, new *Machine }
	var machines []machinePair
	for _, mo := range co.Machines {
		if i := slices.IndexFunc(cn.Machines, func(m *Machine) bool { return m.ID == mo.ID }); i >= 0 {
			machines = append(machines, machinePair{mo, cn.Machines[i]})
		}
	}
	if len(machines) == 0 {
		if !o.CrossMachine || len(co.Machines) != 1 || len(cn.Machines) != 1 {
			msg := fmt.Sprintf("%s and %s were measured on different machines (%s; %s), and rates of two machines are not comparable", old.Label, new.Label, machineList(co), machineList(cn))
			if len(co.Machines) == 1 && len(cn.Machines) == 1 {
				msg += "; --cross-machine compares them anyway"
			}
			return nil, errors.New(msg)
		}
		machines = append(machines, machinePair{co.Machines[0], cn.Machines[0]})
		d.Warnings = append(d.Warnings, fmt.Sprintf("comparing machine %s (%s) with machine %s (%s): the ratios include the difference of the machines", plain(co.Machines[0].ID), old.Label, plain(cn.Machines[0].ID), new.Label))
	} else {
		for _, c := range []struct {
			camp  *Campaign
			other *Campaign
			label string
		}{{co, cn, old.Label}, {cn, co, new.Label}} {
			for _, m := range c.camp.Machines {
				if !slices.ContainsFunc(c.other.Machines, func(x *Machine) bool { return x.ID == m.ID }) {
					d.Warnings = append(d.Warnings, fmt.Sprintf("machine %s is only in %s: its runs are not compared", plain(m.ID), c.label))
				}
			}
		}
	}
	untestable, unbounded := 0, 0
	for _, mp := range machines {
		for _, ep := range engines {
			if !mp.old.Has(ep.old) && !mp.new.Has(ep.new) {
				continue
			}
			t := &DiffTable{OldMachine: mp.old.ID, NewMachine: mp.new.ID, Old: ep.old, New: ep.new, counts: map[Verdict]int{}}
			games := map[string]bool{}
			for _, g := range mp.old.Games {
				if mp.old.Cell(g, ep.old) != nil {
					games[g] = true
				}
			}
			for _, g := range mp.new.Games {
				if mp.new.Cell(g, ep.new) != nil {
					games[g] = true
				}
			}
			var pgs []PairGame
			for _, g := range sortedKeys(games) {
				pg := compareCells(g, mp.new.Cell(g, ep.new), mp.old.Cell(g, ep.old))
				v := verdict(&pg, o.Noise)
				if v == Same && pg.A.Measured() && pg.B.Measured() && !pg.Testable {
					untestable++
				}
				for _, c := range []*Cell{pg.A, pg.B} {
					if c.Measured() && !(finite(c.Rate.Lo) && finite(c.Rate.Hi)) {
						unbounded++
					}
				}
				t.counts[v]++
				t.Games = append(t.Games, DiffGame{PairGame: pg, Verdict: v})
				pgs = append(pgs, pg)
			}
			t.Summary = Summarize(pgs, "new", "old")
			d.Tables = append(d.Tables, t)
		}
	}
	if len(d.Tables) == 0 {
		return nil, fmt.Errorf("%s and %s have no runs of the same engine on the same machine", old.Label, new.Label)
	}
	if unbounded > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d samples (one side on one game) have fewer than 6 ok runs: their 95%% intervals are unbounded (±∞), as in benchstat", unbounded))
	}
	if untestable > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s had too few repetitions for a verdict (the U test needs at least 4 runs on a side to detect a difference at alpha 0.05); %s", plural(untestable, "game"), pluralVerb(untestable, "its verdict is", "their verdicts are")+" ~"))
	}
	return d, nil
}

func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
	case !g.A.Measured() || !g.B.Measured():
		return Failing
	}
	switch {
	case g.Sign > 0 && g.Ratio > 1+noise:
		return Faster
	case g.Sign < 0 && g.Ratio < 1-noise:
		return Slower
	}
	return Same
}

// oneVersionEach returns the engine versions of c, one per engine, or an
// error naming an engine with several versions.
func oneVersionEach(c *Campaign, label string) ([]Version, error) {
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

func machineList(c *Campaign) string {
	s := make([]string, len(c.Machines))
	for i, m := range c.Machines {
		s[i] = plain(m.ID)
		if s[i] == "" {
			s[i] = `""`
		}
	}
	return "machine " + strings.Join(s, ", ")
}

// WriteText writes the comparison as tables, one per engine and machine,
// each followed by its summary line and the errors of broken games.
func (d *Diff) WriteText(w io.Writer) error {
	for i, t := range d.Tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, t.heading())
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "game\told states/s\t\tnew states/s\t\tnew/old\t95% interval\tp\tverdict")
		for _, g := range t.Games {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", plain(g.Game),
				cellRate(g.B), cellSpread(g.B), cellRate(g.A), cellSpread(g.A),
				FormatRatio(g.Ratio), FormatInterval(g.Lo, g.Hi), FormatP(g.Cmp), g.Verdict)
		}
		if err := tw.Flush(); err != nil {
			return err
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
		fmt.Fprintln(w, t.summaryLine(d.Noise))
	}
	return nil
}

func (t *DiffTable) heading() string {
	if t.OldMachine == t.NewMachine {
		return fmt.Sprintf("%s → %s on machine %s", plain(t.Old.String()), plain(t.New.String()), plain(t.OldMachine))
	}
	return fmt.Sprintf("%s on machine %s → %s on machine %s", plain(t.Old.String()), plain(t.OldMachine), plain(t.New.String()), plain(t.NewMachine))
}

func (t *DiffTable) summaryLine(noise float64) string {
	var parts []string
	for _, v := range verdictOrder {
		n := t.counts[v]
		if n == 0 && (v == Failing || v == Added || v == Removed) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, v))
	}
	s := t.Summary
	line := fmt.Sprintf("summary: %s: %s (noise %s)", plural(len(t.Games), "game"), strings.Join(parts, ", "), FormatPercent(noise))
	if s.Compared > 0 {
		line += fmt.Sprintf("; new/old geomean %s, median %s over %s", FormatRatio(s.GeoMean), FormatRatio(s.Median), plural(s.Compared, "game"))
	} else {
		line += "; no game ran ok on both sides with state changes"
	}
	if s.ExcludedGames > 0 {
		line += fmt.Sprintf(" (%d excluded: %s)", s.ExcludedGames, exclusionText(s.Excluded))
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
