package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/results"
)

// builder holds what every page needs.
type builder struct {
	c         *Campaign
	o         options
	games     []string             // every game, sorted
	baselines map[*Machine]Version // the baseline on each machine where it ran
	pairs     []versionPair
	ranks     map[*Machine]map[cellKey]int // 1-based rank of a measured cell among its game's
	counts    map[*Machine]map[string]int  // measured cells per game
	warnings  []string
	checks    *checkIndex
	checked   bool            // some check row was given, or some run was marked wrong
	versions  []Version       // the versions that ran or were checked, in order
	order     map[Version]int // their order
}

// versionPair is a pair page: A measured against B.
type versionPair struct{ A, B Version }

func newBuilder(c *Campaign, o options) *builder {
	b := &builder{c: c, o: o, baselines: map[*Machine]Version{}, ranks: map[*Machine]map[cellKey]int{}, counts: map[*Machine]map[string]int{},
		checks: newCheckIndex(o.checks), order: map[Version]int{}}
	c.markMismatches(b.checks)
	b.checked = len(b.checks.rows) > 0
	b.versions = slices.Clone(c.Versions)
	for _, v := range b.checks.versions {
		if _, ok := c.order[v]; !ok {
			b.versions = append(b.versions, v) // checked, never run: after the versions that ran
		}
	}
	for i, v := range b.versions {
		b.order[v] = i
	}
	b.sortVersions(b.versions)
	for i, v := range b.versions {
		b.order[v] = i
	}
	games := map[string]bool{}
	pairs := map[versionPair]bool{}
	for _, m := range c.Machines {
		for _, g := range m.Games {
			games[g] = true
		}
		for _, cell := range m.cells {
			b.checked = b.checked || cell.Wrong
		}
		if v, ok := b.resolveBaseline(m); ok {
			b.baselines[m] = v
		} else {
			b.warnings = append(b.warnings, fmt.Sprintf("baseline %s has no runs on machine %s (%s runs): its pages show no speedups", plain(o.baseline), plain(machineName(m.ID)), m.Setup))
		}
		bl, hasBase := b.baselines[m]
		for i, x := range m.Versions {
			for _, y := range m.Versions[i+1:] {
				if hasBase && (x == bl || y == bl) || shareGame(m, x, y) {
					pairs[b.orient(m, x, y)] = true
				}
			}
		}
		b.rank(m)
	}
	b.games = sortedKeys(games)
	for p := range pairs {
		b.pairs = append(b.pairs, p)
	}
	slices.SortFunc(b.pairs, func(p, q versionPair) int {
		return cmp.Or(cmp.Compare(c.order[p.A], c.order[q.A]), cmp.Compare(c.order[p.B], c.order[q.B]))
	})
	return b
}

// sortVersions sorts vs by engine, then in the campaign's order, the
// versions that were only checked last.
func (b *builder) sortVersions(vs []Version) {
	slices.SortStableFunc(vs, func(x, y Version) int {
		return cmp.Or(cmp.Compare(x.Engine, y.Engine), cmp.Compare(b.order[x], b.order[y]))
	})
}

// resolveBaseline finds the baseline version on m.
func (b *builder) resolveBaseline(m *Machine) (Version, bool) {
	spec := b.o.baseline
	if strings.Contains(spec, "@") {
		v := ParseVersion(spec)
		return v, m.Has(v)
	}
	var found Version
	ok := false
	for _, v := range m.Versions {
		if v.Engine == spec {
			found, ok = v, true // the newest comes last
		}
	}
	return found, ok
}

// shareGame says whether x and y both ran some game on m.
func shareGame(m *Machine, x, y Version) bool {
	for _, g := range m.Games {
		if m.Cell(g, x) != nil && m.Cell(g, y) != nil {
			return true
		}
	}
	return false
}

// orient returns the pair of x and y with B the reference: the baseline,
// else the older version of one engine, else the earlier in order.
func (b *builder) orient(m *Machine, x, y Version) versionPair {
	if bl, ok := b.baselines[m]; ok {
		if x == bl {
			return versionPair{y, x}
		}
		if y == bl {
			return versionPair{x, y}
		}
	}
	if b.c.order[x] > b.c.order[y] {
		x, y = y, x
	}
	return versionPair{A: y, B: x}
}

// rank orders the measured cells of every game of m by median rate.
func (b *builder) rank(m *Machine) {
	ranks := map[cellKey]int{}
	counts := map[string]int{}
	for _, g := range m.Games {
		cells := measuredCells(m, g)
		for i, c := range cells {
			ranks[cellKey{g, c.Version}] = i + 1
		}
		counts[g] = len(cells)
	}
	b.ranks[m], b.counts[m] = ranks, counts
}

// measuredCells returns the measured cells of game on m that did not
// disagree with the reference, fastest first: the valid speeds.
func measuredCells(m *Machine, game string) []*Cell {
	var cells []*Cell
	for _, v := range m.Versions {
		if c := m.Cell(game, v); c.Measured() && !c.Wrong {
			cells = append(cells, c)
		}
	}
	slices.SortStableFunc(cells, func(x, y *Cell) int { return cmp.Compare(y.Rate.Center, x.Rate.Center) })
	return cells
}

func engineHref(v Version) string { return "engine/" + SafeName(v.String()) + ".html" }
func gameHref(g string) string    { return "game/" + SafeName(g) + ".html" }
func pairHref(p versionPair) string {
	return "pair/" + SafeName(p.A.String()) + "_vs_" + SafeName(p.B.String()) + ".html"
}
func runAnchor(c *Cell, i int) string {
	return "run-" + SafeName(c.Machine+"\x00"+c.Version.String()+"\x00"+strconv.Itoa(i))
}
func machineAnchor(m *Machine) string { return "machine-" + SafeName(m.ID+"\x00"+m.Setup.String()) }

func machineName(id string) string {
	if id == "" {
		return "(no fingerprint)"
	}
	return id
}

func versionLink(v Version) link { return link{Text: v.String(), Href: engineHref(v)} }
func gameLink(g string) link     { return link{Text: g, Href: gameHref(g)} }

func gameLinks(games []string) []link {
	out := make([]link, len(games))
	for i, g := range games {
		out[i] = gameLink(g)
	}
	return out
}

// machineView describes a machine and setup at the top of its section.
type machineView struct {
	ID, Anchor, Setup                       string
	Hosts, CPU, Governor, Kernel, GoVersion string
	Dates                                   string
	Runs, Failed, Contended, Engines, Games int
}

func viewMachine(m *Machine) machineView {
	j := func(xs []string) string {
		if len(xs) == 0 {
			return "unknown"
		}
		return strings.Join(xs, "; ")
	}
	dates := "unknown (the rows have no start times)"
	if m.First != "" {
		dates = day(m.First) + " – " + day(m.Last)
		if day(m.First) == day(m.Last) {
			dates = day(m.First)
		}
	}
	return machineView{
		ID: machineName(m.ID), Anchor: machineAnchor(m), Setup: m.Setup.String(),
		Hosts: j(m.Hosts), CPU: j(m.CPUModels), Governor: j(m.Governors), Kernel: j(m.Kernels), GoVersion: j(m.GoVersions),
		Dates: dates, Runs: m.Runs, Failed: m.Failed, Contended: m.Contended, Engines: len(m.Versions), Games: len(m.Games),
	}
}

func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return t
}

// summaryView is a PairSummary for the pages.
type summaryView struct {
	A, B                                   link
	PairHref                               string
	Games, Compared                        int
	Median, GeoMean, GeoInterval, SumRatio string
	// MedianClass colours the median and the geometric mean: good or bad
	// only when the geometric mean's interval lies above or below 1.
	MedianClass                            string
	Tests                                  int // games the p-values were adjusted over
	ContendedA, ContendedB                 int // runs left out as contended
	Wins, Losses, Ties, SigWins, SigLosses int
	Untestable                             int
	Significant                            string // "faster / slower", or — when no game could be tested
	Excluded                               []exclusionView
	ExcludedGames                          int
	ExcludedWrong                          int  // games left out because a side disagreed with the reference
	Checked                                bool // correctness verdicts were given
	OnlyAFailed, OnlyBFailed, BothFailed   []link
	PartialA, PartialB                     int
}

type exclusionView struct {
	Count  int
	Reason string
	Games  []link
}

func (b *builder) viewSummary(p *Pair, href string) summaryView {
	s := p.Summary
	v := summaryView{Checked: b.checked,
		A: versionLink(p.A), B: versionLink(p.B), PairHref: href,
		Games: s.Games, Compared: s.Compared,
		Median: times(s.Median), GeoMean: times(s.GeoMean), GeoInterval: FormatInterval(s.GeoLo, s.GeoHi), SumRatio: times(s.SumRatio),
		MedianClass: signClass(s.Overall), Tests: s.Tests, ContendedA: s.ContendedA, ContendedB: s.ContendedB,
		Wins: s.Wins, Losses: s.Losses, Ties: s.Ties, SigWins: s.SigWins, SigLosses: s.SigLosses, Untestable: s.Untestable,
		ExcludedGames: s.ExcludedGames,
		OnlyAFailed:   gameLinks(s.OnlyAFailed), OnlyBFailed: gameLinks(s.OnlyBFailed), BothFailed: gameLinks(s.BothFailed),
		PartialA: s.PartialFailuresA, PartialB: s.PartialFailuresB,
		Significant: fmt.Sprintf("%d / %d", s.SigWins, s.SigLosses),
	}
	if s.Untestable > 0 && s.Untestable == s.Wins+s.Losses+s.Ties {
		v.Significant = "— (too few runs)"
	}
	for _, e := range s.Excluded {
		v.Excluded = append(v.Excluded, exclusionView{Count: len(e.Games), Reason: e.Reason, Games: gameLinks(e.Games)})
		if e.Outcome.Wrong() {
			v.ExcludedWrong += len(e.Games)
		}
	}
	return v
}

// times prints a ratio as a factor: 383.6×, or — when undefined.
func times(r float64) string {
	if math.IsNaN(r) {
		return "—"
	}
	return FormatRatio(r) + "×"
}

// ---- index ----

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

type pairLink struct {
	A, B link
	Href string
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
	for _, m := range b.c.Machines {
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

func oneLine(s string) string {
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.Join(strings.Fields(s), " ")
}

// ---- engine version ----

type engineView struct {
	Name, Version string
	Machines      []engineMachine
	Versions      []link // the engine's other versions
	Pairs         []pairLink
	Correctness   correctnessView
}

type engineMachine struct {
	Checked        bool
	Facts          machineView
	Baseline       link
	HasBase        bool
	IsBase         bool
	Summary        summaryView
	SpeedupChart   template.HTML
	SpeedupCaption string
	RateChart      template.HTML
	RateCaption    string
	Games          []engineGameRow
	Errors         []errorRow
	WrongGames     []link // games left out of the rate chart
}

type engineGameRow struct {
	Game                              link
	Rate, Spread, Rollouts, Init, RSS string
	CPURate                           string // states per CPU-second, "" when not reported
	OK, Runs                          int
	Contended                         int    // ok runs left out as contended
	Needs                             string // how many runs a verdict needs, when the cell has fewer
	ErrorRate                         string
	Failed                            bool
	Wrong                             bool // disagreed with the reference: the rate is struck out
	Check                             verdictStyle
	CheckTitle                        string
	Rank                              string
	Speedup, Interval, P              string
	SpeedupClass                      string
}

type errorRow struct {
	Game                             link
	Run                              link
	Repetition                       int
	Status, Message, Stderr, Started string
}

func (b *builder) enginePage(ver Version) (Page, error) {
	v := engineView{Name: ver.Engine, Version: ver.Version, Correctness: b.correctness(ver)}
	for _, o := range b.versions {
		if o.Engine != ver.Engine {
			continue
		}
		if o != ver {
			v.Versions = append(v.Versions, versionLink(o))
		}
	}
	for _, p := range b.pairs {
		if p.A == ver || p.B == ver {
			v.Pairs = append(v.Pairs, pairLink{A: versionLink(p.A), B: versionLink(p.B), Href: pairHref(p)})
		}
	}
	for _, m := range b.c.MachinesOf(ver) {
		em := engineMachine{Facts: viewMachine(m), Checked: b.checked}
		bl, hasBase := b.baselines[m]
		em.HasBase, em.IsBase = hasBase, hasBase && bl == ver
		var pair *Pair
		speedup := map[string]*PairGame{}
		if hasBase && !em.IsBase {
			em.Baseline = versionLink(bl)
			pair = ComparePair(m, ver, bl)
			em.Summary = b.viewSummary(pair, pairHref(versionPair{ver, bl}))
			for i := range pair.Games {
				speedup[pair.Games[i].Game] = &pair.Games[i]
			}
			em.SpeedupChart, em.SpeedupCaption = speedupChart(pair)
		}
		var rated []*Cell
		for _, g := range m.Games {
			c := m.Cell(g, ver)
			if c == nil {
				continue
			}
			row := engineGameRow{Game: gameLink(g), OK: c.OK, Runs: len(c.Runs), ErrorRate: FormatPercent(c.ErrorRate()), Failed: !c.Measured(), RSS: FormatKiB(c.PeakRSSKiB),
				Wrong: c.Wrong && c.Measured(), Contended: len(c.Contended), Needs: needs(c), CPURate: cpuRate(c)}
			row.Check, row.CheckTitle = b.cellMark(c, g, ver)
			if c.Measured() {
				row.Rate, row.Spread = FormatRate(c.Rate.Center), spread(c)
				row.Rollouts, row.Init = FormatRate(c.Rollouts), FormatMs(c.InitMs)
				if c.Wrong {
					row.Rank = "—"
					em.WrongGames = append(em.WrongGames, gameLink(g))
				} else {
					rated = append(rated, c)
					row.Rank = fmt.Sprintf("%d of %d", b.ranks[m][cellKey{g, ver}], b.counts[m][g])
				}
			} else {
				row.Rate, row.Rank = unmeasured(c), "—"
			}
			if pg := speedup[g]; pg != nil && !math.IsNaN(pg.Ratio) {
				row.Speedup, row.Interval, row.P = FormatRatio(pg.Ratio), FormatInterval(pg.Lo, pg.Hi), testedP(pg)
				row.SpeedupClass = signClass(pg.Sign)
			} else {
				row.Speedup, row.Interval, row.P = "—", "—", "—"
			}
			v := row
			em.Games = append(em.Games, v)
			for i, r := range c.Runs {
				if r.Status == results.StatusOK {
					continue
				}
				em.Errors = append(em.Errors, errorRow{
					Game: gameLink(g), Run: link{Text: "run", Href: gameHref(g) + "#" + runAnchor(c, i)},
					Repetition: r.Repetition, Status: r.Status, Message: r.ErrorMessage, Stderr: r.StderrTail, Started: r.StartTime,
				})
			}
		}
		em.RateChart, em.RateCaption = rateChart(ver, rated)
		if n := len(em.WrongGames); n > 0 {
			em.RateCaption += fmt.Sprintf(" Left out: %s where it disagreed with the reference.", plural(n, "game"))
		}
		v.Machines = append(v.Machines, em)
	}
	return render(engineHref(ver), "engine", &pageData{Title: ver.String(), Rows: b.c.Runs,
		Crumbs: []link{{Text: "engine " + ver.String()}}, Body: v})
}

// testedP is the adjusted p-value of a game, or — when the runs were too
// few for the test to ever be significant.
func testedP(g *PairGame) string {
	if !g.Testable {
		return "—"
	}
	return formatP(g)
}

// unmeasured is what stands for the rate of a cell without one.
func unmeasured(c *Cell) string {
	if c.AllContended() {
		return "contended"
	}
	return "failed"
}

// needs says how many ok runs a cell lacks for any verdict: "needs ≥ 4
// for a verdict", or "" when it has them (or no rate at all).
func needs(c *Cell) string {
	n := RunsNeeded(thresholds.CompareAlpha, 1)
	if !c.Measured() || c.Kept() >= n {
		return ""
	}
	return fmt.Sprintf("needs ≥ %d for a verdict", n)
}

// cpuRate is a cell's median states per CPU-second, or "" when its runs
// did not report their CPU time.
func cpuRate(c *Cell) string {
	if !c.Measured() || c.CPURate <= 0 {
		return ""
	}
	return FormatRate(c.CPURate)
}

func signClass(sign int) string {
	switch sign {
	case 1:
		return "good"
	case -1:
		return "bad"
	}
	return ""
}

// spread is a cell's ±% interval, as benchstat prints it.
func spread(c *Cell) string {
	if !c.Measured() {
		return ""
	}
	return FormatSpread(c.Rate)
}

// speedupChart draws the per-game speedups of a pair, sorted.
func speedupChart(p *Pair) (template.HTML, string) {
	var games []*PairGame
	for i := range p.Games {
		if p.Games[i].Outcome == Compared {
			games = append(games, &p.Games[i])
		}
	}
	if len(games) == 0 {
		return "", "No game where both ran ok with state changes: nothing to chart."
	}
	slices.SortStableFunc(games, func(x, y *PairGame) int { return cmp.Compare(y.Ratio, x.Ratio) })
	label := fmt.Sprintf("speedup of %s over %s per game", plain(p.A.String()), plain(p.B.String()))
	caption := fmt.Sprintf("Speedup of %s over %s (ratio of median state changes per second) on each of the %s where both ran ok, fastest first; the dashed line is equal speed. Games excluded: %d.",
		p.A, p.B, plural(len(games), "game"), p.Summary.ExcludedGames)
	if len(games) <= maxBars {
		bars := make([]bar, len(games))
		var seen [3]bool // significantly faster, not significant, significantly slower
		for i, g := range games {
			bars[i] = bar{label: g.Game, value: g.Ratio, lo: g.Lo, hi: g.Hi, color: colSame}
			switch g.Sign {
			case 1:
				bars[i].color = colFaster
			case -1:
				bars[i].color = colSlower
			}
			seen[1-g.Sign] = true
		}
		caption += " Colour: significant differences only (Mann–Whitney U test, p-values adjusted by Holm over the games, and the interval excluding 1). Whiskers: the 95% interval of the ratio from the U test, where the runs are enough for one."
		var legend []legendItem
		for i, item := range []legendItem{{"significantly faster", barThumb{colFaster}}, {"no significant difference", barThumb{colSame}}, {"significantly slower", barThumb{colSlower}}} {
			if seen[i] {
				legend = append(legend, item)
			}
		}
		legend = append(legend, legendItem{"95% interval", whiskerThumb{}})
		return barChart(label, bars, "speedup ("+chartLabel(p.A.String())+" / "+chartLabel(p.B.String())+")", true, 1, "equal speed", legend), caption
	}
	values := make([]float64, len(games))
	for i, g := range games {
		values[i] = g.Ratio
	}
	return profileChart(label, values, "speedup", "games, sorted by speedup", true, 1, "equal speed", "one game"), caption
}

// rateChart draws a version's median rates per game, sorted.
func rateChart(ver Version, cells []*Cell) (template.HTML, string) {
	cells = slices.Clone(cells)
	slices.SortStableFunc(cells, func(x, y *Cell) int { return cmp.Compare(y.Rate.Center, x.Rate.Center) })
	if len(cells) == 0 {
		return "", "No game ran ok: nothing to chart."
	}
	label := fmt.Sprintf("state changes per second of %s per game", plain(ver.String()))
	caption := fmt.Sprintf("Median state changes per second of %s on each of the %s it ran ok, fastest first.", ver, plural(len(cells), "game"))
	if len(cells) <= maxBars {
		bars := make([]bar, len(cells))
		for i, c := range cells {
			lo, hi := whisker(c)
			bars[i] = bar{label: c.Game, value: c.Rate.Center, lo: lo, hi: hi}
		}
		caption += " " + whiskerCaption
		return barChart(label, bars, "state changes per second", false, 0, "",
			[]legendItem{{"median", barThumb{colBar}}, {"interval", whiskerThumb{}}}), caption
	}
	values := make([]float64, len(cells))
	for i, c := range cells {
		values[i] = c.Rate.Center
	}
	return profileChart(label, values, "state changes per second", "games, sorted by speed", false, 0, "", "one game"), caption
}

const whiskerCaption = "Whiskers: the 95% confidence interval of the median with 6 or more runs, the range of the runs with 2 to 5."

// whisker is the interval drawn around a cell's median: its 95% interval
// when finite, else the range of its runs.
func whisker(c *Cell) (lo, hi float64) {
	if finite(c.Rate.Lo) && finite(c.Rate.Hi) {
		return c.Rate.Lo, c.Rate.Hi
	}
	rs := c.Rates()
	if len(rs) < 2 {
		return math.NaN(), math.NaN()
	}
	return rs[0], rs[len(rs)-1]
}

// ---- game ----

type gameView struct {
	Key                 string
	Repo, Name, Hash    string
	Title               string
	Roles               string
	RulesURL, RulesFile string
	Findings            []string
	Blacklisted         string
	Machines            []gameMachine
	Correctness         gameCorrectnessView
}

type gameMachine struct {
	Checked bool
	CPU     bool // some run reported its timed CPU time
	Needed  int  // ok runs a cell needs for any verdict
	Facts   machineView
	Ranked  []gameEngineRow
	Chart   template.HTML
	Caption string
	Runs    []runRow
	Errors  int
}

type gameEngineRow struct {
	Rank                                       string
	Version                                    link
	Rate, Spread, CI, Rel, Rollouts, Init, RSS string
	CPURate                                    string // states per CPU-second, "" when not reported
	OK, Runs                                   int
	Contended                                  int    // ok runs left out as contended
	Needs                                      string // how many runs a verdict needs, when the cell has fewer
	ErrorRate                                  string
	Failed                                     bool
	Wrong                                      bool // disagreed with the reference: the rate is struck out
	Check                                      verdictStyle
	CheckTitle                                 string
	FirstError                                 string
}

type runRow struct {
	ID                                     string
	Version                                link
	Repetition                             int
	Status                                 string
	Rate, Ms, States, Rollouts, Init, RSS  string
	Share, CPURate                         string // CPU share and states per CPU-second, "—" when unknown
	Started, Message, Stderr, RunKey, Host string
	Failed                                 bool
	Contended                              string // why the run is left out, "" when it counts
}

func (b *builder) gamePage(game string) (Page, error) {
	v := gameView{Key: game, Correctness: b.gameCorrectness(game)}
	if parts := strings.Split(game, "/"); len(parts) == 3 {
		v.Repo, v.Name, v.Hash = parts[0], parts[1], parts[2]
		if repo := strings.ToLower(parts[0]); repo == "base" || repo == "dresden" || repo == "stanford" {
			v.RulesURL = "http://games.ggp.org/" + repo + "/games/" + url.PathEscape(parts[1]) + "/"
		}
	}
	if b.o.gameInfo != nil {
		if info, ok := b.o.gameInfo(game); ok {
			v.Title, v.Roles = info.Title, strings.Join(info.Roles, ", ")
			if info.RulesURL != "" {
				v.RulesURL = info.RulesURL
			}
			v.RulesFile, v.Findings, v.Blacklisted = info.RulesFile, info.Findings, info.Blacklisted
		}
	}
	for _, m := range b.c.Machines {
		if _, ok := slices.BinarySearch(m.Games, game); !ok {
			continue
		}
		gm := gameMachine{Facts: viewMachine(m), Checked: b.checked, Needed: RunsNeeded(thresholds.CompareAlpha, 1)}
		cells := measuredCells(m, game)
		best := 0.0
		if len(cells) > 0 {
			best = cells[0].Rate.Center
		}
		for _, ver := range m.Versions {
			if c := m.Cell(game, ver); c != nil && c.Measured() && c.Wrong {
				cells = append(cells, c)
			}
		}
		for _, ver := range m.Versions {
			if c := m.Cell(game, ver); c != nil && !c.Measured() {
				cells = append(cells, c)
			}
		}
		var bars []bar
		wrong := 0
		for _, c := range cells {
			row := gameEngineRow{Version: versionLink(c.Version), OK: c.OK, Runs: len(c.Runs), ErrorRate: FormatPercent(c.ErrorRate()), Failed: !c.Measured(), RSS: FormatKiB(c.PeakRSSKiB),
				Wrong: c.Wrong && c.Measured(), Contended: len(c.Contended), Needs: needs(c), CPURate: cpuRate(c)}
			gm.CPU = gm.CPU || row.CPURate != ""
			row.Check, row.CheckTitle = b.cellMark(c, game, c.Version)
			if c.Measured() {
				row.Rank = "—"
				if !c.Wrong {
					row.Rank = strconv.Itoa(b.ranks[m][cellKey{game, c.Version}])
				}
				row.Rate, row.Spread = FormatRate(c.Rate.Center), spread(c)
				row.CI = FormatInterval(c.Rate.Lo, c.Rate.Hi)
				if finite(c.Rate.Lo) && finite(c.Rate.Hi) {
					row.CI = "[" + FormatRate(c.Rate.Lo) + ", " + FormatRate(c.Rate.Hi) + "]"
				}
				row.Rel = "—"
				if best > 0 && !c.Wrong {
					row.Rel = FormatPercent(c.Rate.Center / best)
				}
				row.Rollouts, row.Init = FormatRate(c.Rollouts), FormatMs(c.InitMs)
				if c.Wrong {
					wrong++
				} else {
					lo, hi := whisker(c)
					bars = append(bars, bar{label: c.Version.String(), value: c.Rate.Center, lo: lo, hi: hi})
				}
			} else {
				row.Rank, row.Rate, row.CI, row.Rel = "—", unmeasured(c), "—", "—"
			}
			if r := c.FirstError(); r != nil {
				row.FirstError = r.Status + ": " + oneLine(r.ErrorMessage)
			}
			gm.Ranked = append(gm.Ranked, row)
		}
		if len(bars) > 0 {
			gm.Chart = barChart("state changes per second of each engine on "+plain(game), bars, "state changes per second", false, 0, "",
				[]legendItem{{"median", barThumb{colBar}}, {"interval", whiskerThumb{}}})
			gm.Caption = "Median state changes per second of each engine version that ran ok, fastest first. " + whiskerCaption
			if wrong > 0 {
				gm.Caption += fmt.Sprintf(" Left out: %s that disagreed with the reference.", plural(wrong, "engine version"))
			}
		}
		for _, ver := range m.Versions {
			c := m.Cell(game, ver)
			if c == nil {
				continue
			}
			for i, r := range c.Runs {
				rr := runRow{ID: runAnchor(c, i), Version: versionLink(ver), Repetition: r.Repetition, Status: r.Status,
					Ms: strconv.FormatInt(r.MillisecondsTaken, 10), States: strconv.FormatInt(r.StateChanges, 10), Rollouts: strconv.FormatInt(r.Rollouts, 10),
					Init: "—", RSS: FormatKiB(r.PeakRSSKiB), Started: r.StartTime, Message: r.ErrorMessage, Stderr: r.StderrTail, RunKey: r.RunKey, Host: r.Host,
					Failed: r.Status != results.StatusOK}
				if r.InitMilliseconds > 0 || r.PeakRSSKiB > 0 {
					rr.Init = FormatMs(float64(r.InitMilliseconds))
				}
				rr.Share, rr.CPURate = "—", "—"
				if share, ok := CPUShare(r); ok {
					rr.Share = strconv.FormatFloat(share, 'f', 2, 64)
				}
				if cr := r.StatesPerCPUSecond(); cr > 0 {
					rr.CPURate = FormatRate(cr)
				}
				if bad, why := contended(r); bad && !rr.Failed {
					rr.Contended = why + ": left out of the rate and every verdict"
				}
				if rr.Failed {
					gm.Errors++
					rr.Rate = "—"
				} else {
					rr.Rate = FormatRate(r.StatesPerSecond())
				}
				gm.Runs = append(gm.Runs, rr)
			}
		}
		v.Machines = append(v.Machines, gm)
	}
	return render(gameHref(game), "game", &pageData{Title: game, Rows: b.c.Runs, Crumbs: []link{{Text: "game " + game}}, Body: v})
}

// ---- pair ----

type pairView struct {
	A, B     link
	Machines []pairMachine
}

type pairMachine struct {
	Facts   machineView
	Summary summaryView
	Chart   template.HTML
	Caption string
	Games   []pairRow
}

type pairRow struct {
	Game                                       link
	A, ASpread, B, BSpread, Ratio, Interval, P string
	AWrong, BWrong                             bool // struck out: disagreed with the reference
	Verdict, Class                             string
}

func (b *builder) pairPage(vp versionPair) (Page, error) {
	v := pairView{A: versionLink(vp.A), B: versionLink(vp.B)}
	for _, m := range b.c.Machines {
		if !m.Has(vp.A) || !m.Has(vp.B) {
			continue
		}
		p := ComparePair(m, vp.A, vp.B)
		pm := pairMachine{Facts: viewMachine(m), Summary: b.viewSummary(p, "")}
		var pts []point
		for _, g := range p.Games {
			row := pairRow{Game: gameLink(g.Game), A: cellRate(g.A), ASpread: cellSpread(g.A), B: cellRate(g.B), BSpread: cellSpread(g.B),
				Ratio: FormatRatio(g.Ratio), Interval: FormatInterval(g.Lo, g.Hi), P: testedP(&g)}
			row.AWrong = g.A != nil && g.A.Wrong && g.A.Measured()
			row.BWrong = g.B != nil && g.B.Wrong && g.B.Measured()
			switch {
			case g.Outcome.Wrong():
				row.Verdict, row.Class = "excluded: "+g.Outcome.Describe(vp.A.String(), vp.B.String()), "bad"
			case g.Outcome == ContendedA, g.Outcome == ContendedB, g.Outcome == ContendedBoth:
				row.Verdict = "no verdict: " + g.Outcome.Describe(vp.A.String(), vp.B.String())
			case g.Outcome == FailA, g.Outcome == FailB, g.Outcome == FailBoth, g.Outcome == OnlyA, g.Outcome == OnlyB:
				row.Verdict, row.Class = g.Outcome.Describe(vp.A.String(), vp.B.String()), "bad"
				if g.Outcome == OnlyA || g.Outcome == OnlyB {
					row.Class = ""
				}
			case g.Sign > 0:
				row.Verdict, row.Class = "faster", "good"
			case g.Sign < 0:
				row.Verdict, row.Class = "slower", "bad"
			case !g.Testable:
				row.Verdict = "~ (too few runs to tell: " + g.Needs(vp.A.String(), vp.B.String()) + ")"
			default:
				row.Verdict = "~"
			}
			pm.Games = append(pm.Games, row)
			if g.Outcome == Compared {
				pts = append(pts, point{x: g.B.Rate.Center, y: g.A.Rate.Center, sign: g.Sign})
			}
		}
		if len(pts) > 0 {
			pm.Chart = scatterChart(fmt.Sprintf("%s against %s, one point per game", plain(vp.A.String()), plain(vp.B.String())), pts,
				chartLabel(vp.B.String())+" states/s", chartLabel(vp.A.String())+" states/s")
			pm.Caption = fmt.Sprintf("Median state changes per second of %s (up) against %s (across) on each of the %s where both ran ok with state changes; points above the dashed line are games where %s is faster. Significance: Mann–Whitney U test, p-values adjusted by Holm over %s, p < 0.05, and the 95%% interval of the ratio excluding 1.",
				vp.A, vp.B, plural(len(pts), "game"), vp.A, plural(p.Summary.Tests, "game"))
		}
		v.Machines = append(v.Machines, pm)
	}
	title := vp.A.String() + " vs " + vp.B.String()
	return render(pairHref(vp), "pair", &pageData{Title: title, Rows: b.c.Runs, Crumbs: []link{{Text: "pair " + title}}, Body: v})
}
