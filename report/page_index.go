package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

type indexView struct {
	Title     string
	Runs      int
	Failed    int
	Games     int
	Versions  []link
	Histories []link // the history page of each engine
	Sources   []string
	Baseline  string
	Machines  []indexMachine
	Leads     []leadView // one per machine and setup where the baseline ran
	Pairs     []pairLink
	Buckets   []bucketView
	ManyGames bool

	Checked     bool // verdicts were given, or runs were marked wrong
	CheckRows   bool // verdicts were given
	Correctness []indexCorrectnessRow
	Styles      []verdictStyle

	Workloads    []workloadLink
	MachineCount int               // distinct machine fingerprints
	Robustness   []indexRobustness // one per machine and setup with transformed runs
}

type indexMachine struct {
	Facts     machineView
	Baseline  link
	HasBase   bool
	Summaries []summaryView
	Columns   []columnView
	Matrix    []matrixRow
	Versus    *versusView // every engine version against every other, with 3 or more
}

// versusView is the geometric mean of the speedup of every engine version
// (a row) over every other (a column) on one machine and setup.
type versusView struct {
	Columns []link
	Rows    []versusRow
}

type versusRow struct {
	Version link
	Cells   []versusCell
}

type versusCell struct {
	Text, Interval, Class, Title, Href string
}

// columnView is a version's column of the matrix; the reference of the
// correctness checks says so.
type columnView struct {
	L         link
	Reference bool
}

type matrixRow struct {
	Game  link
	Cells []matrixCell
}

type matrixCell struct {
	Class, Text, Title, Href string
	Mark                     verdictStyle // the correctness mark; Mark.Mark "" when never checked
}

type bucketView struct{ Class, Text string }

// buckets colour a cell by its speed relative to the fastest engine on
// the game: the upper bounds of rate/best, from the top bucket down.
var buckets = []struct {
	min  float64
	text string
}{
	{0.95, "fastest (≥ 95%, or not significantly slower)"}, {0.5, "≥ 1/2"}, {0.25, "≥ 1/4"}, {0.1, "≥ 1/10"},
	{1.0 / 30, "≥ 1/30"}, {0.01, "≥ 1/100"}, {0.001, "≥ 1/1000"}, {0, "< 1/1000"},
}

func bucketClass(rel float64) string {
	for i, b := range buckets {
		if rel >= b.min {
			return "q" + strconv.Itoa(i)
		}
	}
	return "q" + strconv.Itoa(len(buckets)-1)
}

func (b *builder) indexPage() (Page, error) {
	v := indexView{Title: b.o.title, Runs: b.c.Runs, Failed: b.c.Failed, Games: len(b.games), Sources: b.o.sources, Baseline: b.o.baseline,
		Checked: b.checked, CheckRows: len(b.checks.rows) > 0, Styles: styles()}
	if v.CheckRows {
		v.Correctness = b.indexCorrectness()
	}
	for _, ver := range b.c.Versions {
		v.Versions = append(v.Versions, versionLink(ver))
	}
	for _, e := range b.engines() {
		v.Histories = append(v.Histories, link{Text: e, Href: historyHref(e)})
	}
	for i, bk := range buckets {
		v.Buckets = append(v.Buckets, bucketView{"q" + strconv.Itoa(i), bk.text})
	}
	v.Workloads = workloadNav(b.c.Groups)
	seen := map[string]bool{}
	for _, m := range b.c.Groups {
		seen[m.Machine] = true
		if _, ok := b.baselines[m]; ok {
			for i := range v.Workloads {
				if v.Workloads[i].Href == "#"+machineAnchor(m) {
					v.Workloads[i].Href = "#lead-" + machineAnchor(m) // the lead of the workload's first section
				}
			}
		}
	}
	v.MachineCount = len(seen)
	for _, m := range b.c.Groups {
		if f := b.families[m]; f != nil {
			v.Robustness = append(v.Robustness, b.robustnessOf(f))
		}
		im := indexMachine{Facts: viewMachine(m)}
		bl, hasBase := b.baselines[m]
		im.HasBase = hasBase
		if hasBase {
			v.Leads = append(v.Leads, b.lead(m, bl))
			im.Baseline = versionLink(bl)
			for _, ver := range m.Versions {
				if ver == bl {
					continue
				}
				p := ComparePair(m, ver, bl)
				im.Summaries = append(im.Summaries, b.viewSummary(p, pairHref(versionPair{ver, bl})))
			}
		}
		for _, ver := range m.Versions {
			im.Columns = append(im.Columns, columnView{L: versionLink(ver), Reference: b.refs[ver]})
		}
		im.Versus = b.versus(m)
		for _, g := range m.Games {
			row := matrixRow{Game: gameLink(g)}
			var best *Cell
			for _, c := range measuredCells(m, g)[:min(1, b.counts[m][g])] {
				best = c
			}
			for _, ver := range m.Versions {
				row.Cells = append(row.Cells, b.matrixCell(m.Cell(g, ver), g, ver, best))
			}
			im.Matrix = append(im.Matrix, row)
		}
		v.Machines = append(v.Machines, im)
	}
	for _, p := range b.pairs {
		v.Pairs = append(v.Pairs, pairLink{A: versionLink(p.A), B: versionLink(p.B), Href: pairHref(p)})
	}
	return render("index.html", "index", &pageData{Title: b.o.title, Rows: b.c.Runs, Body: v})
}

// matrixCell is the cell of ver on game g in the index matrix, coloured by
// its speed relative to best (the fastest valid cell, nil when none) and
// marked with its correctness verdict.
func (b *builder) matrixCell(c *Cell, g string, ver Version, best *Cell) matrixCell {
	cell := matrixCellOf(c, best)
	mark, title := b.cellMark(c, g, ver)
	cell.Mark = mark
	if b.checked && mark.Class == "" {
		cell.Mark.Class = "ck-none" // keeps the column's figures aligned
	}
	if title != "" {
		if c == nil {
			title = ver.String() + " on " + g + ": " + title
		}
		cell.Title += "\n" + title
	}
	return cell
}

// matrixCellOf shades a cell by its median relative to the fastest's: the
// top shade when it is 95% of it or more, or when the U test of the two
// (with runs enough for one) finds no significant difference, so that a
// shade below the top one never marks a difference the runs cannot show
// (with too few runs to test, the point estimate decides).
func matrixCellOf(c *Cell, bestCell *Cell) matrixCell {
	best := 0.0
	if bestCell != nil {
		best = bestCell.Rate.Center
	}
	if c == nil {
		return matrixCell{Class: "none", Text: "·", Title: "not run"}
	}
	href := gameHref(c.Game)
	who := c.Version.String() + " on " + c.Game
	if c.AllContended() {
		cell := matrixCell{Class: "fail", Text: "⊘ contended", Href: href,
			Title: fmt.Sprintf("%s: every ok run (%d of %d) was contended: no rate", who, c.OK, len(c.Runs))}
		if c.AnyCPURate > 0 {
			cell.Text = "⊘ " + FormatRate(c.AnyCPURate) + "/CPU-s"
			cell.Title += fmt.Sprintf("; %s states per CPU-second (median of the contended runs: an indication, not a verdict)", FormatRate(c.AnyCPURate))
		}
		return cell
	}
	if !c.Measured() {
		r := c.FirstError()
		return matrixCell{Class: "fail", Text: "✗ " + r.Status, Href: href,
			Title: fmt.Sprintf("%s: all %d runs failed: %s: %s", who, len(c.Runs), r.Status, oneLine(r.ErrorMessage))}
	}
	cell := matrixCell{Text: FormatRate(c.Rate.Center), Href: href}
	switch {
	case c.Wrong:
		cell.Class = "wrong"
		cell.Title = fmt.Sprintf("%s: %s states/s, struck out: %s", who, FormatRate(c.Rate.Center), wrongNote)
	case best > 0:
		rel := c.Rate.Center / best
		cell.Class = bucketClass(rel)
		cell.Title = fmt.Sprintf("%s: %s states/s, %s of the fastest", who, FormatRate(c.Rate.Center), FormatPercent(rel))
		if g := compareCells(c.Game, c, bestCell); c != bestCell && rel < buckets[0].min && g.Testable && !(g.Hi < 1 && g.P < g.Cmp.Alpha) {
			cell.Class = bucketClass(1)
			cell.Title += fmt.Sprintf(", not significantly slower (p %s)", FormatP(g.Cmp))
		}
	default:
		cell.Class = "zero"
		cell.Title = who + ": 0 states/s"
	}
	if c.Failed() > 0 {
		cell.Class += " warn"
		r := c.FirstError()
		cell.Title += fmt.Sprintf("; %d of %d runs failed: %s: %s", c.Failed(), len(c.Runs), r.Status, oneLine(r.ErrorMessage))
	}
	if n := len(c.Contended); n > 0 {
		cell.Title += fmt.Sprintf("; %s left out as contended", plural(n, "run"))
	}
	return cell
}

// ---- correctness ----

// indexCorrectnessRow counts the verdicts of one engine version's games.
type indexCorrectnessRow struct {
	Version    link
	Reference  string
	Counts     []countView // games by folded verdict, in checkVerdictOrder
	NotChecked int         // games it ran that were never checked
}

// countView is a number in a table, with a class when it is bad news.
type countView struct {
	N     int
	Class string
}

// indexCorrectness is the correctness table of the index: every version
// that ran or was checked.
func (b *builder) indexCorrectness() []indexCorrectnessRow {
	var out []indexCorrectnessRow
	for _, v := range b.versions {
		cv := b.correctness(v)
		row := indexCorrectnessRow{Version: versionLink(v), Reference: cv.Reference, NotChecked: len(cv.NotChecked)}
		for i, g := range cv.Games {
			if i < len(checkVerdictOrder) {
				row.Counts = append(row.Counts, countView{N: g.N})
			} else {
				row.Counts[len(checkVerdictOrder)-1].N += g.N // an unknown verdict counts as unchecked
			}
		}
		if row.Counts[1].N > 0 {
			row.Counts[1].Class = "bad" // mismatches
		}
		out = append(out, row)
	}
	return out
}

// wrongNote says why a speed is struck out.
const wrongNote = "the version disagreed with the reference on this game, so its speed is no valid measurement (left out of ranks, medians and geometric means)"

// ---- the lead: one sentence per engine, ranked, and one chart ----

// leadView opens the index for one machine and setup: a sentence per
// engine version against the baseline, in hyperfine's style, fastest
// first, and a chart of the speedups per game.
type leadView struct {
	Facts     machineView
	Baseline  link
	Sentences []leadSentence
	Chart     template.HTML
	Caption   string
}

// leadSentence is "propnet@3-ccc ran 63.2× faster than prover@1-aaa
// (geometric mean over 6 games, ...)": Version, Verb, Factor, Rel,
// Baseline, then Detail.
type leadSentence struct {
	Rank     int
	Version  link
	Verb     string // "ran", "was", "could not be compared with"
	Factor   string // "63.2× faster than", "about as fast as", ""
	Class    string // good or bad: only for a significant difference
	Detail   string // what the figure is measured over, in parentheses
	PairHref string
	IsBase   bool
}

// leadEntry is one engine version's comparison with the baseline.
type leadEntry struct {
	v Version
	p *Pair // nil for the baseline itself
}

// lead builds the lead of m: the versions ranked by the geometric mean of
// their speedups over the baseline bl (the baseline at 1, versions with no
// common game last), each with its sentence.
func (b *builder) lead(m *Group, bl Version) leadView {
	lv := leadView{Facts: viewMachine(m), Baseline: versionLink(bl)}
	var entries []leadEntry
	for _, ver := range m.Versions {
		e := leadEntry{v: ver}
		if ver != bl {
			e.p = ComparePair(m, ver, bl)
		}
		entries = append(entries, e)
	}
	score := func(e leadEntry) float64 {
		if e.p == nil {
			return 1
		}
		return e.p.Summary.GeoMean
	}
	slices.SortStableFunc(entries, func(x, y leadEntry) int {
		sx, sy := score(x), score(y)
		switch nx, ny := math.IsNaN(sx), math.IsNaN(sy); {
		case nx && ny:
			return 0
		case nx:
			return 1
		case ny:
			return -1
		}
		return cmp.Compare(sy, sx)
	})
	var charted []leadEntry
	for i, e := range entries {
		s := leadSentence{Rank: i + 1, Version: versionLink(e.v)}
		if e.p == nil {
			s.IsBase, s.Verb, s.Detail = true, "is", "the baseline (1×): every figure is a ratio to its speed"
		} else {
			s.PairHref = pairHref(versionPair{e.v, bl})
			s.Verb, s.Factor, s.Class, s.Detail = leadText(&e.p.Summary, bl)
			if e.p.Summary.Compared > 0 {
				charted = append(charted, e)
			}
		}
		lv.Sentences = append(lv.Sentences, s)
	}
	if len(charted) > 0 {
		lv.Chart, lv.Caption = leadChart(charted, bl)
	}
	return lv
}

// noneCompared says why no game of a pair was compared: when runs were
// left out as contended, that they were, not that they failed.
func noneCompared(s *PairSummary) string {
	if n := s.ContendedA + s.ContendedB; n > 0 {
		why := fmt.Sprintf("no game where both ran ok, uncontended, with state changes (%s left out as contended, under %.2g of a CPU: rerun on a quieter machine, or with gdlperf run --rerun-contended); %s excluded", plural(n, "run"), ContendedShare, plural(s.ExcludedGames, "game"))
		if s.CPUGames > 0 {
			why += fmt.Sprintf("; an indication only, not a verdict: %s per CPU-second, the geometric mean over %s of the medians of every ok run, contended ones included, which shared caches and memory bandwidth", times(s.CPUGeoMean), plural(s.CPUGames, "game"))
		}
		return why
	}
	return fmt.Sprintf("no game where both ran ok with state changes; %s excluded", plural(s.ExcludedGames, "game"))
}

// leadText words a summary against the baseline bl so that it agrees with
// the verdict: "faster" or "slower" only when the geometric mean's 95%
// interval excludes 1, else "about as fast as"; the detail says what the
// figure is measured over.
func leadText(s *PairSummary, bl Version) (verb, factor, class, detail string) {
	if s.Compared == 0 {
		return "could not be compared with", "", "", noneCompared(s)
	}
	over := "over " + plural(s.Compared, "game")
	interval := "too few games for an interval"
	if finite(s.GeoLo) && finite(s.GeoHi) {
		interval = "95% interval " + FormatInterval(s.GeoLo, s.GeoHi)
	}
	if s.ExcludedGames > 0 {
		interval += fmt.Sprintf("; %s excluded", plural(s.ExcludedGames, "game"))
	}
	switch s.Overall {
	case 1:
		return "ran", times(s.GeoMean) + " faster than", "good",
			fmt.Sprintf("geometric mean of the speedup per game %s, %s", over, interval)
	case -1:
		return "ran", times(1/s.GeoMean) + " slower than", "bad",
			fmt.Sprintf("geometric mean of the speedup per game %s: %s, %s", over, times(s.GeoMean), interval)
	}
	return "was", "about as fast as", "",
		fmt.Sprintf("no significant difference; geometric mean of the speedup per game %s: %s, %s", over, times(s.GeoMean), interval)
}

// leadChart draws a row per engine version (in the lead's order): a dot
// per game at its speedup over the baseline on a log axis, filled and
// coloured where the game differs significantly, and the geometric mean
// as a large ring with its 95% interval; the dashed line is 1×.
func leadChart(entries []leadEntry, bl Version) (template.HTML, string) {
	rows := make([]ratioRow, len(entries))
	for i, e := range entries {
		rows[i] = ratioRow{name: e.v.String(), p: e.p}
	}
	chart := ratioRowsChart("speedup of each engine version over "+plain(bl.String())+", one dot per game", rows,
		"speedup over "+chartLabel(bl.String())+" (log scale)", "1× (as fast as "+chartLabel(bl.String())+")", false)
	caption := fmt.Sprintf("Speedup of each engine version over %s on each game both ran ok (the ratio of their median state changes per second), on a log axis, fastest engine first. Filled and coloured: the game differs significantly (Mann–Whitney U test, p-values adjusted by Holm over the games, and the interval excluding 1); a ring: it does not. The large ring is the geometric mean over the games, with its 95%% interval. Point at a dot for its game.", bl)
	return chart, caption
}

// ratioRow is a row of a ratio chart: its name and its comparison.
type ratioRow struct {
	name string
	p    *Pair
}

// ratioRowsChart draws a row per comparison: a dot per compared game at
// its ratio on a log axis, filled and coloured where the game differs
// significantly, and the geometric mean as a large ring with its 95%
// interval; the dashed line is 1× (refText in the legend). band adds
// dotted lines at 0.9× and 1.1×, the bounds of robustness.
func ratioRowsChart(label string, rows []ratioRow, xlabel, refText string, band bool) template.HTML {
	n := len(rows)
	c := newChart(label, vg.Points(26)*vg.Length(n)+vg.Points(48))
	var dots []dot
	var values []float64
	var seen [3]bool
	for row, e := range rows {
		k := 0
		for i := range e.p.Games {
			g := &e.p.Games[i]
			if g.Outcome != Compared {
				continue
			}
			col := colSame
			switch g.Sign {
			case 1:
				col = colFaster
			case -1:
				col = colSlower
			}
			seen[1-g.Sign] = true
			dots = append(dots, dot{row: row, value: log10OrNaN(g.Ratio), lo: math.NaN(), hi: math.NaN(), col: col, open: g.Sign == 0,
				r: vg.Points(3), dy: vg.Points(2.2) * vg.Length(k%5-2), title: e.name + " on " + gameRatioTitle(g)})
			values = append(values, g.Ratio)
			k++
		}
		s := e.p.Summary
		title := fmt.Sprintf("%s: geometric mean %s over %s", e.name, times(s.GeoMean), plural(s.Compared, "game"))
		if finite(s.GeoLo) && finite(s.GeoHi) {
			title += ", 95% interval " + FormatInterval(s.GeoLo, s.GeoHi)
			values = append(values, s.GeoLo, s.GeoHi)
		}
		dots = append(dots, dot{row: row, value: log10OrNaN(s.GeoMean), lo: log10OrNaN(s.GeoLo), hi: log10OrNaN(s.GeoHi), col: colText, open: true,
			r: vg.Points(5.5), title: title})
	}
	min, max, ok := positiveRange(values, []float64{1})
	if !ok {
		min, max = 0.1, 10
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	c.p.Add(grid, &dotRows{ch: c, n: n, dots: dots})
	c.p.X.Min, c.p.X.Max = clearOfOne(logRange(min, max))
	c.p.X.Tick.Marker = log10Ticks{format: tickRatio}
	c.p.X.Label.Text = xlabel
	c.p.X.Padding, c.p.Y.Padding = 0, 0
	c.p.Y.Min, c.p.Y.Max = -0.5, float64(n)-0.5
	ticks := make([]plot.Tick, n)
	for i, e := range rows {
		ticks[i] = plot.Tick{Value: float64(n - 1 - i), Label: chartLabel(e.name)}
	}
	c.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	c.p.Y.Tick.Length = 0
	line := refLine(0, c.p.Y.Min, c.p.Y.Max, true)
	c.p.Add(line)
	var bandLine *plotter.Line
	if band {
		for _, v := range []float64{robustLo, robustHi} {
			bandLine = refLine(math.Log10(v), c.p.Y.Min, c.p.Y.Max, true)
			bandLine.LineStyle.Width = vg.Points(0.8)
			bandLine.LineStyle.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			c.p.Add(bandLine)
		}
	}
	for i, item := range []legendItem{{"one game, significantly faster", dotThumb{col: colFaster}}, {"one game, no significant difference", dotThumb{col: colSame, open: true}}, {"one game, significantly slower", dotThumb{col: colSlower}}} {
		if seen[i] {
			c.legend(item.text, item.thumb)
		}
	}
	c.legend("geometric mean and its 95% interval", dotThumb{col: colText, open: true})
	c.legend(refText, line)
	if band {
		c.legend("0.9× and 1.1× (within 10%: robust)", bandLine)
	}
	return c.svg()
}

// versus builds the table of every version of m against every other: the
// geometric mean over their common games of the row's speedup over the
// column's, with its 95% interval, coloured only where that interval
// excludes 1; nil with fewer than 3 versions (the summaries against the
// baseline say it all).
func (b *builder) versus(m *Group) *versusView {
	if len(m.Versions) < 3 {
		return nil
	}
	pairs := map[versionPair]bool{}
	for _, p := range b.pairs {
		pairs[p] = true
	}
	v := &versusView{}
	for _, col := range m.Versions {
		v.Columns = append(v.Columns, versionLink(col))
	}
	for _, a := range m.Versions {
		row := versusRow{Version: versionLink(a)}
		for _, bv := range m.Versions {
			if a == bv {
				row.Cells = append(row.Cells, versusCell{Text: "·", Title: "the same version"})
				continue
			}
			s := ComparePair(m, a, bv).Summary
			cell := versusCell{Text: "—", Title: fmt.Sprintf("%s and %s: %s", a, bv, noneCompared(&s))}
			if s.Compared > 0 {
				cell = versusCell{Text: times(s.GeoMean), Class: signClass(s.Overall),
					Title: fmt.Sprintf("%s over %s: geometric mean of the speedup per game over %s", a, bv, plural(s.Compared, "game"))}
				if finite(s.GeoLo) && finite(s.GeoHi) {
					cell.Interval = FormatInterval(s.GeoLo, s.GeoHi)
					cell.Title += ", 95% interval " + cell.Interval
				} else {
					cell.Title += ", too few games for an interval"
				}
			}
			switch {
			case pairs[versionPair{a, bv}]:
				cell.Href = pairHref(versionPair{a, bv})
			case pairs[versionPair{bv, a}]:
				cell.Href = pairHref(versionPair{bv, a})
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}
