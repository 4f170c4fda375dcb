package report

import (
	"cmp"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gdlperf/gdlperf/engines"
	_ "github.com/gdlperf/gdlperf/engines/propnet" // the engines that replay uct searches
	"github.com/gdlperf/gdlperf/engines/protocol"
	_ "github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/results"
)

// The uct chart of a game page: the mean value of each root move against
// the number of iterations, one line per move (Landau's "UCT charts").
// The rows do not keep a uct run's answer (its root statistics), and a
// fixed-work campaign has them at one budget only, so the report makes the
// chart itself: uct is deterministic (engines/workload/SPEC.md §3), so it
// replays the search with a built-in engine (the propnet, the fastest, or
// the reference prover where the propnet does not build) on the game's
// rules, with
// the seed of the runs' first repetition, at 10, 20, 50, 100, ...
// iterations up to the budget. Every correct engine gives the same root
// statistics for a seed and a budget (gdlperf check --methods workload
// compares them), so the chart is every correct engine's.

// UCTChart configures the uct charts of the game pages.
type UCTChart struct {
	// Engines are the built-in engines that may replay the searches, the
	// first that builds the game doing it; nil is DefaultUCTEngines.
	Engines []string
	// MaxIterations caps the chart's last point (the runs' budget, or for
	// timed runs the most iterations a run made); 0 is
	// DefaultUCTIterations, a negative value draws no uct chart.
	MaxIterations int64
	// Timeout bounds the replays of one chart; 0 is DefaultUCTTimeout.
	// A chart cut short says so. It is a safety net: the chart's points are
	// set by iterations, so that a report of the same rows is the same on
	// any machine unless a replay runs into it.
	Timeout time.Duration
}

// Defaults of UCTChart.
const (
	DefaultUCTIterations = 2000
	DefaultUCTTimeout    = 60 * time.Second
)

// DefaultUCTEngines replay the uct charts: the propnet (a chart of 2,000
// iterations in milliseconds on most games), else the reference prover.
var DefaultUCTEngines = []string{"propnet", DefaultReference}

// maxUCTLines is the most moves a uct chart draws (those most visited at
// its last point).
const maxUCTLines = 10

// WithUCTChart configures the uct charts of the game pages (they are on
// by default, for games whose rules WithGameInfo supplies).
func WithUCTChart(c UCTChart) Option { return func(o *options) { o.uct = c } }

// uctView is the uct chart of one game in one group.
type uctView struct {
	Chart   template.HTML
	Caption string
	Note    string // why there is no chart, or how it was cut short
}

// uctPoints are the iteration counts of a chart up to top: 10, 20, 50,
// 100, ... below top, then top.
func uctPoints(top int64) []int64 {
	var out []int64
	for base := int64(10); base < top; base *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if base*m < top {
				out = append(out, base*m)
			}
		}
	}
	return append(out, top)
}

// uctBudget reads the iterations of a uct budget ("iterations=200"); 0 for
// a timed run.
func uctBudget(budget string) int64 { return workload.ParseBudget(budget).Iterations }

// uctChart builds the uct chart of game in group m: nil when m is not a
// uct group or the charts are off.
func (b *builder) uctChart(m *Group, game string) *uctView {
	cfg := b.o.uct
	if m.Setup.Workload != workload.UCT || cfg.MaxIterations < 0 {
		return nil
	}
	maxIt := cmp.Or(cfg.MaxIterations, DefaultUCTIterations)
	timeout := cmp.Or(cfg.Timeout, DefaultUCTTimeout)
	names := cfg.Engines
	if names == nil {
		names = DefaultUCTEngines
	}
	v := &uctView{}
	// The top: the budget, or the most iterations a timed run made.
	top, timed := uctBudget(m.Setup.Budget), false
	var seed uint64
	seedRep, seeds := -1, map[uint64]bool{}
	for _, ver := range m.Versions {
		c := m.Cell(game, ver)
		if c == nil {
			continue
		}
		for _, r := range c.Runs {
			if r.Status == results.StatusOK && uctBudget(m.Setup.Budget) == 0 {
				top, timed = max(top, r.Rollouts), true
			}
			if seedRep < 0 || r.Repetition < seedRep {
				seedRep, seed, seeds = r.Repetition, r.Seed, map[uint64]bool{}
			}
			if r.Repetition == seedRep {
				seeds[r.Seed] = true
			}
		}
	}
	if top <= 0 {
		v.Note = "No uct chart: no run of this game finished an iteration."
		return v
	}
	capped := top > maxIt
	top = min(top, maxIt)
	var info GameInfo
	ok := false
	if b.o.gameInfo != nil {
		info, ok = b.o.gameInfo(game)
	}
	if !ok || len(info.Rules) == 0 {
		v.Note = "No uct chart: the report needs the game's rules to replay the search (gdlperf report reads them from the game cache and the built-in games)."
		return v
	}
	m0, engine, why := replayMachine(names, game, info)
	if m0 == nil {
		v.Note = "No uct chart: " + why
		return v
	}
	deadline := time.Now().Add(timeout)
	var points []int64
	var roots []*workload.UCTResult
	var stop string
	for _, it := range uctPoints(top) {
		res, err := workload.Run(m0, workload.UCT, workload.Budget{Iterations: it}, seed, deadline)
		if err != nil && time.Now().After(deadline) {
			stop = fmt.Sprintf("The replay of %d iterations did not finish within the report's %s for this chart (gdlperf report --uct-chart-seconds): the chart stops at the last point that did.", it, timeout)
			break
		}
		if err != nil {
			stop = fmt.Sprintf("The replay of %d iterations failed: %s.", it, plain(oneLine(err.Error())))
			break
		}
		points, roots = append(points, it), append(roots, res.UCT)
	}
	if len(points) == 0 {
		v.Note = "No uct chart: " + stop
		return v
	}
	v.Chart = uctLines(game, points, roots)
	var how strings.Builder
	fmt.Fprintf(&how, "The mean goal value of each root move against the number of iterations (log axis), one line per move: the uct workload (engines/workload/SPEC.md §3) replayed by the report with %s on the game's rules, seed %d (the seed of the runs' repetition %d), at %s iterations, each point a search of its own. uct is deterministic: every correct engine finds the same root statistics for a seed and a budget (gdlperf check --methods workload compares them), so the chart is every correct engine's.",
		engine, seed, seedRep, joinInts(points))
	if timed {
		fmt.Fprintf(&how, " The runs were timed; the most iterations a run of this game made is the last point")
		if capped {
			fmt.Fprintf(&how, ", capped at %d", maxIt)
		}
		how.WriteString(".")
	} else if capped {
		fmt.Fprintf(&how, " The runs' budget is %d iterations; the chart stops at %d.", uctBudget(m.Setup.Budget), maxIt)
	}
	if len(seeds) > 1 {
		how.WriteString(" The runs of that repetition had different seeds: the chart is of the first.")
	}
	if why != "" {
		how.WriteString(" " + why)
	}
	if stop != "" {
		how.WriteString(" " + stop)
	}
	v.Caption = how.String()
	return v
}

// replayMachine builds the game with the first of names that builds it:
// the machine, the engine's name, and why the engines before it did not
// (all of them, when none did).
func replayMachine(names []string, game string, info GameInfo) (engines.Machine, string, string) {
	var why []string
	for _, name := range names {
		e, found := engines.Lookup(name)
		if !found {
			why = append(why, fmt.Sprintf("there is no built-in engine %s", name))
			continue
		}
		m, err := e.Build(cmp.Or(info.RulesFile, game), info.Rules, protocol.NewResult(""))
		if err != nil {
			why = append(why, fmt.Sprintf("%s does not build the game (%s)", name, plain(oneLine(err.Error()))))
			continue
		}
		if len(why) > 0 {
			return m, name, "It was replayed with " + name + " because " + strings.Join(why, "; ") + "."
		}
		return m, name, ""
	}
	if len(why) == 0 {
		return nil, "", "no engine to replay the search."
	}
	return nil, "", strings.Join(why, "; ") + "."
}

func joinInts(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ", ")
}

// uctPalette colours the lines of a uct chart.
var uctPalette = []color.RGBA{
	{0x44, 0x77, 0xaa, 0xff}, {0xee, 0x66, 0x77, 0xff}, {0x22, 0x88, 0x33, 0xff}, {0xcc, 0xbb, 0x44, 0xff}, {0x66, 0xcc, 0xee, 0xff},
	{0xaa, 0x33, 0x77, 0xff}, {0x33, 0x33, 0x33, 0xff}, {0xee, 0x77, 0x33, 0xff}, {0x00, 0x99, 0x88, 0xff}, {0x99, 0x99, 0x33, 0xff},
}

// uctLines draws the root moves' mean values at each point: a line per
// move of the roles that have a choice at the root (the most visited
// maxUCTLines at the last point), each point titled.
func uctLines(game string, points []int64, roots []*workload.UCTResult) template.HTML {
	type line struct {
		role, move string
		r, m       int // indices in the root statistics
		visits     int64
	}
	last := roots[len(roots)-1]
	var lines []line
	for r, rs := range last.Root {
		if len(rs.Moves) < 2 {
			continue
		}
		for m, ms := range rs.Moves {
			lines = append(lines, line{role: rs.Role, move: ms.Move, r: r, m: m, visits: ms.Visits})
		}
	}
	if len(lines) == 0 { // no role has a choice: draw every role's one move
		for r, rs := range last.Root {
			for m, ms := range rs.Moves {
				lines = append(lines, line{role: rs.Role, move: ms.Move, r: r, m: m, visits: ms.Visits})
			}
		}
	}
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.visits, a.visits) })
	left := max(0, len(lines)-maxUCTLines)
	lines = lines[:min(len(lines), maxUCTLines)]
	label := "mean value of each root move against uct iterations on " + plain(game)
	c := newChart(label, vg.Points(280))
	marks := &xyMarks{ch: c}
	for i, l := range lines {
		col := uctPalette[i%len(uctPalette)]
		var xys plotter.XYs
		for k, root := range roots {
			ms := root.Root[l.r].Moves[l.m]
			x := math.Log10(float64(points[k]))
			xys = append(xys, plotter.XY{X: x, Y: ms.Mean()})
			marks.pts = append(marks.pts, xyMark{x: x, y: ms.Mean(), col: col,
				title: fmt.Sprintf("%s %s after %d iterations: mean %.2f over %d visits", l.role, l.move, points[k], ms.Mean(), ms.Visits)})
		}
		pl, err := plotter.NewLine(xys)
		if err != nil {
			panic("report: " + err.Error()) // finite points by construction
		}
		pl.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.4)}
		c.p.Add(pl)
		c.legend(chartLabel(l.role+" "+l.move), pl)
	}
	if left > 0 {
		c.legend(fmt.Sprintf("(%d less visited moves not drawn)", left), noThumb{})
	}
	c.p.Add(marks)
	c.p.Y.Min, c.p.Y.Max = 0, 100
	c.p.Y.Label.Text = "mean goal value of the move"
	c.p.Y.Tick.Marker = intTicks{}
	lo, hi := math.Log10(float64(points[0])), math.Log10(float64(points[len(points)-1]))
	if hi <= lo {
		lo, hi = lo-0.5, hi+0.5
	}
	c.p.X.Min, c.p.X.Max = lo, hi
	c.p.X.Tick.Marker = log10Ticks{format: tickRate}
	c.p.X.Label.Text = "iterations (log scale)"
	return c.svg()
}

// noThumb is an empty legend thumbnail, for a note in the legend.
type noThumb struct{}

func (noThumb) Thumbnail(*draw.Canvas) {}
