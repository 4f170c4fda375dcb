package report

import (
	"fmt"
	"strconv"
)

type indexView struct {
	Title     string
	Runs      int
	Failed    int
	Games     int
	Versions  []link
	Sources   []string
	Baseline  string
	Machines  []indexMachine
	Pairs     []pairLink
	Buckets   []bucketView
	ManyGames bool

	Checked     bool // verdicts were given, or runs were marked wrong
	CheckRows   bool // verdicts were given
	Correctness []indexCorrectnessRow
	Styles      []verdictStyle
}

type indexMachine struct {
	Facts     machineView
	Baseline  link
	HasBase   bool
	Summaries []summaryView
	Columns   []link
	Matrix    []matrixRow
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
	for i, bk := range buckets {
		v.Buckets = append(v.Buckets, bucketView{"q" + strconv.Itoa(i), bk.text})
	}
	for _, m := range b.c.Groups {
		im := indexMachine{Facts: viewMachine(m)}
		bl, hasBase := b.baselines[m]
		im.HasBase = hasBase
		if hasBase {
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
			im.Columns = append(im.Columns, versionLink(ver))
		}
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
		return matrixCell{Class: "fail", Text: "⊘ contended", Href: href,
			Title: fmt.Sprintf("%s: every ok run (%d of %d) was contended: no rate", who, c.OK, len(c.Runs))}
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
