package report

import (
	"bytes"
	"html"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Charts are drawn by gonum/plot into SVG and inlined into the pages. The
// text is set in Liberation Sans, whose metrics are Arial's and Helvetica's,
// and the SVG names those as fallbacks, so labels fit without embedding a
// font. Nothing in a chart depends on a map order or the clock, so the same
// data gives the same bytes.

var (
	colBar     = color.RGBA{0x44, 0x77, 0xaa, 0xff} // blue
	colWhisker = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colRef     = color.RGBA{0x88, 0x88, 0x88, 0xff}
	colFaster  = color.RGBA{0x22, 0x88, 0x33, 0xff}
	colSlower  = color.RGBA{0xcc, 0x33, 0x11, 0xff}
	colSame    = color.RGBA{0x66, 0x66, 0x66, 0xff}
	colText    = color.Black

	chartFont   = font.Font{Typeface: "Liberation", Variant: "Sans"}
	chartWidth  = 8.5 * vg.Inch
	barHeight   = vg.Points(15)
	legendRow   = vg.Points(16)
	chartMargin = vg.Points(8)
)

// maxBars is the most games drawn as labelled bars; above it a chart shows
// the sorted profile of the values instead.
const maxBars = 40

// maxLabel is the longest bar label; longer ones are cut with "…".
const maxLabel = 44

// chart is a plot with its legend in a band above it.
type chart struct {
	p     *plot.Plot
	items []legendItem
	label string // the accessible name of the <svg>
	w, h  vg.Length
}

type legendItem struct {
	text  string
	thumb plot.Thumbnailer
}

func newChart(label string, h vg.Length) *chart {
	p := plot.New()
	set := func(f *font.Font, size vg.Length) { *f = font.From(chartFont, size) }
	set(&p.Title.TextStyle.Font, 12)
	set(&p.X.Label.TextStyle.Font, 11)
	set(&p.Y.Label.TextStyle.Font, 11)
	set(&p.X.Tick.Label.Font, 10)
	set(&p.Y.Tick.Label.Font, 10)
	set(&p.Legend.TextStyle.Font, 10)
	return &chart{p: p, label: label, w: chartWidth, h: h}
}

func (c *chart) legend(text string, thumb plot.Thumbnailer) {
	c.items = append(c.items, legendItem{text, thumb})
}

// svg renders the chart as an inline <svg> element.
func (c *chart) svg() template.HTML {
	sty := text.Style{Color: colText, Font: font.From(chartFont, 10), Handler: c.p.TextHandler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	// Lay the legend out in rows first, to know the height of its band.
	const thumbW, gap = vg.Length(18), vg.Length(14)
	type placed struct {
		item legendItem
		x    vg.Length
		row  int
	}
	var layout []placed
	x, row := vg.Length(0), 0
	avail := c.w - 2*chartMargin
	for _, it := range c.items {
		w := thumbW + 4 + sty.Width(it.text)
		if x > 0 && x+w > avail {
			x, row = 0, row+1
		}
		layout = append(layout, placed{it, x, row})
		x += w + gap
	}
	band := vg.Length(0)
	if len(layout) > 0 {
		band = legendRow*vg.Length(row+1) + vg.Points(6)
	}
	canvas := vgsvg.New(c.w, c.h+band)
	dc := draw.Crop(draw.New(canvas), chartMargin, -chartMargin, chartMargin, -chartMargin)
	c.p.Draw(draw.Crop(dc, 0, 0, 0, -band))
	for _, pl := range layout {
		y := dc.Max.Y - legendRow*vg.Length(pl.row) - legendRow/2
		x0 := dc.Min.X + pl.x
		icon := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x0, Y: y - 5}, Max: vg.Point{X: x0 + thumbW, Y: y + 5}}}
		pl.item.thumb.Thumbnail(&icon)
		dc.FillText(sty, vg.Point{X: x0 + thumbW + 4, Y: y}, pl.item.text)
	}
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		panic("report: writing an SVG to memory: " + err.Error()) // cannot happen
	}
	return template.HTML(tidySVG(b.String(), c.label))
}

// tidySVG turns gonum's SVG document into an element for inlining: no XML
// prolog or comment, a class and an accessible label, and font fallbacks.
// gonum escapes the text it draws.
func tidySVG(s, label string) string {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = strings.Replace(s, "<svg ", `<svg class="chart" role="img" aria-label="`+html.EscapeString(label)+`" `, 1)
	return strings.ReplaceAll(s, "font-family:Liberation Sans;", "font-family:Liberation Sans,Arial,Helvetica,sans-serif;")
}

// chartLabel makes a game key or engine name fit a chart label.
func chartLabel(s string) string {
	s = plain(s)
	if r := []rune(s); len(r) > maxLabel {
		s = string(r[:maxLabel-1]) + "…"
	}
	return s
}

// log10Ticks labels an axis whose values are log10 of the data: powers of
// ten, with 2 and 5 times them labelled too when the range spans at most
// two decades, and unlabelled minor ticks between. (gonum's LogScale
// misplaces the box of a centred axis label, so charts plot log10 values on
// a linear axis instead.)
type log10Ticks struct{ format func(float64) string }

func (t log10Ticks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return nil
	}
	few := max-min <= 2
	var ticks []plot.Tick
	for e := math.Floor(min); e <= math.Ceil(max); e++ {
		for m := 1; m <= 9; m++ {
			v := e + math.Log10(float64(m))
			if v < min-1e-9 || v > max+1e-9 {
				continue
			}
			label := ""
			if m == 1 || few && (m == 2 || m == 5) {
				label = t.format(math.Pow(10, e) * float64(m))
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
	}
	return ticks
}

// tickRate labels a rate tick: 1, 20, 500, 1k, 2M.
func tickRate(x float64) string { return trimZeros(FormatRate(x)) }

// tickRatio labels a ratio tick: 0.01, 0.5, 1, 20, 1k.
func tickRatio(x float64) string {
	if x >= 1000 {
		return tickRate(x)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// trimZeros drops trailing zeros after a decimal point: 1.00k → 1k.
func trimZeros(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if i < 0 {
		i = len(s)
	}
	num, suffix := s[:i], s[i:]
	if strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + suffix
}

// logRange returns whole decades around the positive finite values, as
// log10 values.
func logRange(min, max float64) (float64, float64) {
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// log10OrNaN is log10 of positive finite values, NaN for the others.
func log10OrNaN(x float64) float64 {
	if x > 0 && finite(x) {
		return math.Log10(x)
	}
	return math.NaN()
}

// intTicks labels a linear axis with whole numbers.
type intTicks struct{}

func (intTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// positiveRange returns the smallest and largest positive finite values.
func positiveRange(xss ...[]float64) (min, max float64, ok bool) {
	min, max = math.Inf(1), 0
	for _, xs := range xss {
		for _, x := range xs {
			if x > 0 && !math.IsInf(x, 0) {
				min, max = math.Min(min, x), math.Max(max, x)
			}
		}
	}
	return min, max, max > 0
}

// bar is one bar of a horizontal bar chart.
type bar struct {
	label  string
	value  float64 // NaN: no bar
	lo, hi float64 // whisker; NaN: none
	color  color.Color
}

// hbars draws horizontal bars from base (or from the left edge of the
// axis when base is NaN), top to bottom in the order given, with whiskers.
type hbars struct {
	bars []bar
	base float64
}

func (h *hbars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, b := range h.bars {
		for _, v := range []float64{b.value, b.lo, b.hi} {
			if finite(v) {
				xmin, xmax = math.Min(xmin, v), math.Max(xmax, v)
			}
		}
	}
	return xmin, xmax, -0.5, float64(len(h.bars)) - 0.5
}

func (h *hbars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := len(h.bars)
	half := (trY(1) - trY(0)) * 0.36
	clampX := func(v float64) vg.Length { return trX(math.Max(p.X.Min, math.Min(p.X.Max, v))) }
	whisker := draw.LineStyle{Color: colWhisker, Width: vg.Points(1)}
	x0 := c.Min.X
	if !math.IsNaN(h.base) {
		x0 = clampX(h.base)
	}
	for i, b := range h.bars {
		if math.IsNaN(b.value) {
			continue
		}
		y := trY(float64(n - 1 - i))
		x1 := clampX(b.value)
		col := b.color
		if col == nil {
			col = colBar
		}
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y - half}, {X: x1, Y: y - half}, {X: x1, Y: y + half}, {X: x0, Y: y + half}})
		if finite(b.lo) && finite(b.hi) && b.hi > b.lo {
			l, r := clampX(b.lo), clampX(b.hi)
			c.StrokeLine2(whisker, l, y, r, y)
			c.StrokeLine2(whisker, l, y-half/2, l, y+half/2)
			c.StrokeLine2(whisker, r, y-half/2, r, y+half/2)
		}
	}
}

// barThumb and whiskerThumb draw legend thumbnails.
type barThumb struct{ col color.Color }

func (t barThumb) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(t.col, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

type whiskerThumb struct{}

func (whiskerThumb) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	sty := draw.LineStyle{Color: colWhisker, Width: vg.Points(1)}
	y := (r.Min.Y + r.Max.Y) / 2
	c.StrokeLine2(sty, r.Min.X+2, y, r.Max.X-2, y)
	c.StrokeLine2(sty, r.Min.X+2, r.Min.Y+2, r.Min.X+2, r.Max.Y-2)
	c.StrokeLine2(sty, r.Max.X-2, r.Min.Y+2, r.Max.X-2, r.Max.Y-2)
}

// barChart draws bars with whiskers, one per label. The axis is
// logarithmic when the values span more than a factor of 20 (or ratio is
// set: speedups are always shown on a log axis), linear from 0 otherwise.
// ref > 0 draws a dashed reference line.
func barChart(label string, bars []bar, xlabel string, ratio bool, ref float64, refLabel string, legend []legendItem) template.HTML {
	n := len(bars)
	c := newChart(label, barHeight*vg.Length(n)+vg.Points(44))
	min, max, ok := positiveRange(barValues(bars), []float64{ref})
	if !ok {
		min, max = 1, 10
	}
	hasRef := ref > 0
	base := math.NaN()
	if ratio || max/min > 20 {
		logged := make([]bar, n)
		for i, b := range bars {
			logged[i] = b
			logged[i].value, logged[i].lo, logged[i].hi = log10OrNaN(b.value), log10OrNaN(b.lo), log10OrNaN(b.hi)
		}
		bars = logged
		ref = log10OrNaN(ref)
		c.p.X.Min, c.p.X.Max = logRange(min, max)
		c.p.X.Label.Text = xlabel + " (log scale)"
		format := tickRate
		if ratio {
			format = tickRatio
			base = 0 // speedup bars grow from 1, right when faster, left when slower
			c.p.X.Min, c.p.X.Max = math.Min(c.p.X.Min, 0), math.Max(c.p.X.Max, 0)
		}
		c.p.X.Tick.Marker = log10Ticks{format: format}
	} else {
		c.p.X.Min, c.p.X.Max = 0, max*1.05
		c.p.X.Label.Text = xlabel
		c.p.X.Tick.Marker = rateTicks{}
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	c.p.Add(grid, &hbars{bars: bars, base: base})
	c.p.Y.Min, c.p.Y.Max = -0.5, float64(n)-0.5
	ticks := make([]plot.Tick, n)
	for i, b := range bars {
		ticks[i] = plot.Tick{Value: float64(n - 1 - i), Label: chartLabel(b.label)}
	}
	c.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	c.p.Y.Tick.Length = 0
	c.p.Y.Padding = 0
	c.p.X.Padding = 0
	if hasRef {
		line := refLine(ref, c.p.Y.Min, c.p.Y.Max, true)
		c.p.Add(line)
		legend = append(legend, legendItem{refLabel, line})
	}
	whiskers := slices.ContainsFunc(bars, func(b bar) bool { return finite(b.lo) && finite(b.hi) && b.hi > b.lo })
	for _, it := range legend {
		if _, isWhisker := it.thumb.(whiskerThumb); isWhisker && !whiskers {
			continue
		}
		c.legend(it.text, it.thumb)
	}
	return c.svg()
}

func barValues(bars []bar) []float64 {
	var out []float64
	for _, b := range bars {
		out = append(out, b.value, b.lo, b.hi)
	}
	return out
}

// refLine is a dashed line at x = v (vertical) or y = v (horizontal)
// from a to b along the other axis.
func refLine(v, a, b float64, vertical bool) *plotter.Line {
	pts := plotter.XYs{{X: a, Y: v}, {X: b, Y: v}}
	if vertical {
		pts = plotter.XYs{{X: v, Y: a}, {X: v, Y: b}}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		panic("report: " + err.Error()) // finite points by construction
	}
	l.LineStyle = draw.LineStyle{Color: colRef, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	return l
}

// rateTicks labels a linear axis with rates.
type rateTicks struct{}

func (rateTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = tickRate(ticks[i].Value)
		}
	}
	return ticks
}

// profileChart plots values (sorted descending by the caller) against
// their rank on a log axis, with a reference line at ref > 0: the chart
// for many games, where labelled bars would not fit.
func profileChart(label string, values []float64, ylabel, xlabel string, ratio bool, ref float64, refLabel, pointLabel string) template.HTML {
	c := newChart(label, vg.Points(260))
	var pts plotter.XYs
	for i, v := range values {
		if y := log10OrNaN(v); !math.IsNaN(y) {
			pts = append(pts, plotter.XY{X: float64(i + 1), Y: y})
		}
	}
	min, max, ok := positiveRange(values, []float64{ref})
	if !ok {
		min, max = 1, 10
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic("report: " + err.Error())
	}
	s.GlyphStyle = draw.GlyphStyle{Color: colBar, Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
	c.p.Add(plotter.NewGrid(), s)
	c.legend(pointLabel, s)
	c.p.Y.Min, c.p.Y.Max = logRange(min/1.2, max*1.2)
	format := tickRate
	if ratio {
		format = tickRatio
	}
	c.p.Y.Tick.Marker = log10Ticks{format: format}
	c.p.Y.Label.Text = ylabel + " (log scale)"
	c.p.X.Min, c.p.X.Max = 0, float64(len(values)+1)
	c.p.X.Tick.Marker = intTicks{}
	c.p.X.Label.Text = xlabel
	if ref > 0 {
		line := refLine(math.Log10(ref), c.p.X.Min, c.p.X.Max, false)
		c.p.Add(line)
		c.legend(refLabel, line)
	}
	return c.svg()
}

// point is one game of a scatter chart.
type point struct {
	x, y float64
	sign int // +1 y significantly faster, -1 slower, 0 not significant
}

// scatterChart plots y against x on log-log axes of the same range, with
// the diagonal y = x; points are coloured by significance.
func scatterChart(label string, pts []point, xlabel, ylabel string) template.HTML {
	c := newChart(label, 6*vg.Inch)
	c.w = 6.6 * vg.Inch       // about square, so that the diagonal is at 45°
	var groups [3]plotter.XYs // faster, ~, slower
	var xs []float64
	for _, p := range pts {
		x, y := log10OrNaN(p.x), log10OrNaN(p.y)
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		xs = append(xs, p.x, p.y)
		groups[1-p.sign] = append(groups[1-p.sign], plotter.XY{X: x, Y: y})
	}
	min, max, ok := positiveRange(xs)
	if !ok {
		min, max = 1, 10
	}
	lo, hi := logRange(min/1.2, max*1.2) // no point on the frame
	c.p.Add(plotter.NewGrid())
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		panic("report: " + err.Error())
	}
	diag.LineStyle = draw.LineStyle{Color: colRef, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	c.p.Add(diag)
	names := [3]string{"significantly faster", "no significant difference", "significantly slower"}
	cols := [3]color.Color{colFaster, colSame, colSlower}
	shapes := [3]draw.GlyphDrawer{draw.PyramidGlyph{}, draw.CircleGlyph{}, draw.SquareGlyph{}}
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		s, err := plotter.NewScatter(g)
		if err != nil {
			panic("report: " + err.Error())
		}
		s.GlyphStyle = draw.GlyphStyle{Color: cols[i], Radius: vg.Points(2.6), Shape: shapes[i]}
		c.p.Add(s)
		c.legend(names[i], s)
	}
	c.legend("equal speed", diag)
	for _, ax := range []*plot.Axis{&c.p.X, &c.p.Y} {
		ax.Min, ax.Max = lo, hi
		ax.Tick.Marker = log10Ticks{format: tickRate}
	}
	c.p.X.Label.Text = xlabel + " (log scale)"
	c.p.Y.Label.Text = ylabel + " (log scale)"
	return c.svg()
}
