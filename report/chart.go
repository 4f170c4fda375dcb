package report

import (
	"bytes"
	"fmt"
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
	marks []mark // points drawn by svg itself, each with its <title>
}

// mark is a point of a chart that svg draws as an SVG <circle> of its own
// (gonum's canvas cannot give an element a title), in canvas coordinates
// (points, origin bottom left), with the point's name as its <title> and,
// for outliers, as a text label beside it.
type mark struct {
	x, y  vg.Length
	r     vg.Length
	col   color.Color
	open  bool // a ring: drawn white inside
	title string
	label string
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
	out := tidySVG(b.String(), c.label)
	if len(c.marks) > 0 {
		i := strings.LastIndex(out, "</svg>")
		out = out[:i] + c.marksSVG(c.h+band) + out[i:]
	}
	return template.HTML(out)
}

// marksSVG draws the chart's marks as SVG circles with titles, and the
// labels of outliers, on a canvas of height h (SVG's y axis points down).
// Every string is escaped for XML.
func (c *chart) marksSVG(h vg.Length) string {
	var b strings.Builder
	b.WriteString(`<g class="points">` + "\n")
	num := func(x vg.Length) string { return strconv.FormatFloat(float64(x), 'f', 2, 64) }
	for _, m := range c.marks {
		fill, stroke := hexColor(m.col), "#ffffff"
		switch {
		case m.open && m.r >= 5: // a large ring (a mean) shows the dots beneath it
			fill, stroke = "none", hexColor(m.col)
		case m.open:
			fill, stroke = "#ffffff", hexColor(m.col)
		}
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="1"><title>%s</title></circle>`+"\n",
			num(m.x), num(h-m.y), num(m.r), fill, stroke, html.EscapeString(m.title))
	}
	k := 0
	for _, m := range c.marks {
		if m.label == "" {
			continue
		}
		dy := vg.Length(-4) // above the point, then below, in turn
		if k%2 == 1 {
			dy = 10
		}
		k++
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" style="font-family:Liberation Sans,Arial,Helvetica,sans-serif;font-size:9px;font-weight:bold;fill:#333">%s</text>`+"\n",
			num(m.x), num(h-m.y+dy), html.EscapeString(m.label))
	}
	b.WriteString("</g>\n")
	return b.String()
}

// hexColor is #rrggbb of an opaque colour.
func hexColor(col color.Color) string {
	r, g, bl, _ := col.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, bl>>8)
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
	few := max-min <= 2.5
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

// clearOfOne widens a log10 range of ratios to hold 1 (log10 0) with a
// margin, so that the line of equal speed is not the frame of the plot.
func clearOfOne(lo, hi float64) (float64, float64) {
	lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	if lo == 0 {
		lo = -0.15
	}
	if hi == 0 {
		hi = 0.15
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

// bar is one row of a bar or dot chart.
type bar struct {
	label  string
	value  float64 // NaN: no bar
	lo, hi float64 // whisker; NaN: none
	color  color.Color
	open   bool   // a dot chart draws it as a ring: no significant difference
	title  string // what the point is, with its figures: its <title> in a dot chart
}

// hbars draws horizontal bars from the left edge of the axis, top to
// bottom in the order given, with whiskers. Only on a linear axis from 0,
// where the length of a bar is proportional to its value.
type hbars struct {
	bars []bar
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
	x0 := c.Min.X
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
		drawWhisker(c, clampX, y, half/2, b.lo, b.hi)
	}
}

// drawWhisker draws the interval [lo, hi] at height y with end caps.
func drawWhisker(c draw.Canvas, tr func(float64) vg.Length, y, cap vg.Length, lo, hi float64) {
	if !finite(lo) || !finite(hi) || hi <= lo {
		return
	}
	sty := draw.LineStyle{Color: colWhisker, Width: vg.Points(1)}
	l, r := tr(lo), tr(hi)
	c.StrokeLine2(sty, l, y, r, y)
	c.StrokeLine2(sty, l, y-cap, l, y+cap)
	c.StrokeLine2(sty, r, y-cap, r, y+cap)
}

// dot is one point of a dot chart, in axis units (log10 on a log axis).
type dot struct {
	row           int // 0 is the top row
	value, lo, hi float64
	col           color.Color
	open          bool
	r             vg.Length
	dy            vg.Length // offset within the row, to keep many dots apart
	title, label  string
}

// dotRows draws dots with whiskers in rows, top to bottom: the chart for
// a log axis, where no bar length would mean anything. The dots themselves
// become the chart's marks (SVG circles with titles).
type dotRows struct {
	ch   *chart
	n    int
	dots []dot
}

func (d *dotRows) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, t := range d.dots {
		for _, v := range []float64{t.value, t.lo, t.hi} {
			if finite(v) {
				xmin, xmax = math.Min(xmin, v), math.Max(xmax, v)
			}
		}
	}
	return xmin, xmax, -0.5, float64(d.n) - 0.5
}

func (d *dotRows) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	clampX := func(v float64) vg.Length { return trX(math.Max(p.X.Min, math.Min(p.X.Max, v))) }
	for _, t := range d.dots {
		if !finite(t.value) {
			continue
		}
		y := trY(float64(d.n-1-t.row)) + t.dy
		drawWhisker(c, clampX, y, vg.Points(3), t.lo, t.hi)
		d.ch.marks = append(d.ch.marks, mark{x: clampX(t.value), y: y, r: t.r, col: t.col, open: t.open, title: t.title, label: t.label})
	}
}

// xyMarks draws points at (x, y) in axis units as the chart's marks.
type xyMarks struct {
	ch  *chart
	pts []xyMark
}

type xyMark struct {
	x, y         float64
	col          color.Color
	title, label string
}

func (m *xyMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range m.pts {
		xmin, xmax, ymin, ymax = math.Min(xmin, p.x), math.Max(xmax, p.x), math.Min(ymin, p.y), math.Max(ymax, p.y)
	}
	return
}

func (m *xyMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pt := range m.pts {
		m.ch.marks = append(m.ch.marks, mark{x: trX(pt.x), y: trY(pt.y), r: vg.Points(2.2), col: pt.col, title: pt.title, label: pt.label})
	}
}

// dotThumb is the legend thumbnail of a dot (a ring when open).
type dotThumb struct {
	col  color.Color
	open bool
}

func (t dotThumb) Thumbnail(c *draw.Canvas) {
	centre := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	if t.open {
		c.DrawGlyph(draw.GlyphStyle{Color: t.col, Radius: vg.Points(3), Shape: draw.RingGlyph{}}, centre)
		return
	}
	c.DrawGlyph(draw.GlyphStyle{Color: t.col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}, centre)
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

// barChart draws one row per label: a bar with whiskers on a linear axis
// from 0, where a bar's length is proportional to its value, or a dot with
// whiskers on a log axis, which the chart uses when the values span more
// than a factor of 20 or ratio is set (speedups are always shown on a log
// axis). ref > 0 draws a dashed reference line. Each dot carries its bar's
// title (or its label) as an SVG title.
func barChart(label string, bars []bar, xlabel string, ratio bool, ref float64, refLabel string, legend []legendItem) template.HTML {
	n := len(bars)
	c := newChart(label, barHeight*vg.Length(n)+vg.Points(44))
	min, max, ok := positiveRange(barValues(bars), []float64{ref})
	if !ok {
		min, max = 1, 10
	}
	hasRef := ref > 0
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	c.p.Add(grid)
	// Dots: for ratios, and for rates spanning more than a factor of 20,
	// on a log axis, except for ratios within a factor of 4 of each other
	// (and of 1), which a linear axis shows better.
	dots := ratio || max/min > 20
	logAxis := dots && (!ratio || max/min > 4)
	if dots {
		tr := log10OrNaN
		if !logAxis {
			tr = func(x float64) float64 { // an unbounded interval (0, +Inf) has no whisker
				if x > 0 && finite(x) {
					return x
				}
				return math.NaN()
			}
		}
		ds := make([]dot, n)
		for i, b := range bars {
			col := b.color
			if col == nil {
				col = colBar
			}
			title := b.title
			if title == "" {
				title = b.label
			}
			ds[i] = dot{row: i, value: tr(b.value), lo: tr(b.lo), hi: tr(b.hi), col: col, open: b.open, r: vg.Points(3.5), title: title}
		}
		ref = tr(ref)
		if logAxis {
			c.p.X.Min, c.p.X.Max = logRange(min, max)
			c.p.X.Label.Text = xlabel + " (log scale)"
			format := tickRate
			if ratio {
				format = tickRatio
				c.p.X.Min, c.p.X.Max = clearOfOne(c.p.X.Min, c.p.X.Max)
			}
			c.p.X.Tick.Marker = log10Ticks{format: format}
		} else {
			pad := (max - min) * 0.06
			c.p.X.Min, c.p.X.Max = math.Max(0, min-pad), max+pad
			c.p.X.Label.Text = xlabel
			c.p.X.Tick.Marker = ratioTicks{}
		}
		c.p.Add(&dotRows{ch: c, n: n, dots: ds})
		for i, it := range legend {
			if t, isBar := it.thumb.(barThumb); isBar {
				legend[i].thumb = dotThumb{col: t.col}
			}
		}
	} else {
		c.p.X.Min, c.p.X.Max = 0, max*1.05
		c.p.X.Label.Text = xlabel
		c.p.X.Tick.Marker = rateTicks{}
		c.p.Add(&hbars{bars: bars})
	}
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

// ratioTicks labels a linear axis with ratios.
type ratioTicks struct{}

func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 4, 64) + "×"
		}
	}
	return ticks
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
// for many games, where labelled rows would not fit. Every point carries
// its name (names[i]) and value as an SVG title; the three highest and the
// three lowest are numbered on the chart, and key names them with their
// values, for the caption.
func profileChart(label string, values []float64, names []string, ylabel, xlabel string, ratio bool, ref float64, refLabel, pointLabel string) (chartHTML template.HTML, key string) {
	c := newChart(label, vg.Points(260))
	pts := &xyMarks{ch: c}
	format := tickRate
	if ratio {
		format = func(x float64) string { return times(x) }
	}
	var keys []string
	for i, v := range values {
		if y := log10OrNaN(v); !math.IsNaN(y) {
			m := xyMark{x: float64(i + 1), y: y, col: colBar, title: names[i] + ": " + format(v)}
			if len(values) > 6 && (i < 3 || i >= len(values)-3) {
				m.label = strconv.Itoa(len(keys) + 1)
				keys = append(keys, m.label+" "+names[i]+" ("+format(v)+")")
			}
			pts.pts = append(pts.pts, m)
		}
	}
	if len(keys) > 0 {
		key = "Numbered: " + strings.Join(keys, ", ") + "."
	}
	min, max, ok := positiveRange(values, []float64{ref})
	if !ok {
		min, max = 1, 10
	}
	c.p.Add(plotter.NewGrid(), pts)
	c.legend(pointLabel, dotThumb{col: colBar})
	c.p.Y.Min, c.p.Y.Max = logRange(min/1.2, max*1.2)
	c.p.Y.Tick.Marker = log10Ticks{format: tickRate}
	if ratio {
		c.p.Y.Tick.Marker = log10Ticks{format: tickRatio}
	}
	c.p.Y.Label.Text = ylabel + " (log scale)"
	c.p.X.Min, c.p.X.Max = 0, float64(len(values)+1)
	c.p.X.Tick.Marker = intTicks{}
	c.p.X.Label.Text = xlabel
	if ref > 0 {
		line := refLine(math.Log10(ref), c.p.X.Min, c.p.X.Max, false)
		c.p.Add(line)
		c.legend(refLabel, line)
	}
	return c.svg(), key
}
