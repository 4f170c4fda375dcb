package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// builder holds what every page needs.
type builder struct {
	c         *Analysis
	o         options
	games     []string           // every game, sorted
	baselines map[*Group]Version // the baseline on each machine where it ran
	pairs     []versionPair
	ranks     map[*Group]map[cellKey]int // 1-based rank of a measured cell among its game's
	counts    map[*Group]map[string]int  // measured cells per game
	warnings  []string
	checks    *checkIndex
	checked   bool             // some check row was given, or some run was marked wrong
	versions  []Version        // the versions that ran or were checked, in order
	order     map[Version]int  // their order
	refs      map[Version]bool // the reference engines of the correctness checks
	families  map[*Group]*transformFamily
}

// versionPair is a pair page: A measured against B.
type versionPair struct{ A, B Version }

func newBuilder(c *Analysis, o options) *builder {
	b := &builder{c: c, o: o, baselines: map[*Group]Version{}, ranks: map[*Group]map[cellKey]int{}, counts: map[*Group]map[string]int{},
		checks: newCheckIndex(o.checks), order: map[Version]int{}}
	c.markMismatches(b.checks)
	b.refs = map[Version]bool{}
	for _, r := range b.checks.rows {
		if r.Reference != "" {
			b.refs[Version{r.Reference, r.ReferenceVersion}] = true
		}
	}
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
	for _, m := range c.Groups {
		for _, g := range m.Games {
			games[g] = true
		}
		for _, cell := range m.cells {
			b.checked = b.checked || cell.Wrong
		}
		if v, ok := b.resolveBaseline(m); ok {
			b.baselines[m] = v
		} else {
			b.warnings = append(b.warnings, fmt.Sprintf("baseline %s has no runs on machine %s (%s runs): its pages show no speedups", plain(o.baseline), plain(machineName(m.Machine)), m.Setup))
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
	b.families = transformFamilies(c.Groups)
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
func (b *builder) resolveBaseline(m *Group) (Version, bool) {
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
func shareGame(m *Group, x, y Version) bool {
	for _, g := range m.Games {
		if m.Cell(g, x) != nil && m.Cell(g, y) != nil {
			return true
		}
	}
	return false
}

// orient returns the pair of x and y with B the reference: the baseline,
// else the older version of one engine, else the earlier in order.
func (b *builder) orient(m *Group, x, y Version) versionPair {
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
func (b *builder) rank(m *Group) {
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
func measuredCells(m *Group, game string) []*Cell {
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
func machineAnchor(m *Group) string { return "machine-" + SafeName(m.Machine+"\x00"+m.Setup.String()) }

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
	Measures                                string // what the rate counts, for a search workload
	Hosts, CPU, Governor, Kernel, GoVersion string
	Dates                                   string
	Runs, Failed, Contended, Engines, Games int
}

func viewMachine(m *Group) machineView {
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
		ID: machineName(m.Machine), Anchor: machineAnchor(m), Setup: m.Setup.String(), Measures: setupMeasures(m.Setup),
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

type pairLink struct {
	A, B link
	Href string
}

// oneLine is protocol.OneLine: s on one line of at most 300 bytes.
func oneLine(s string) string { return protocol.OneLine(s, 300) }

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

// speedupChart draws the per-game ratios of a pair, A over B, fastest
// first: a dot per game on a log axis with the 95% interval of its ratio
// and the line of equal speed. A dot is filled and coloured only where the
// game differs significantly; its title names the game with its figures.
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
	caption := fmt.Sprintf("Ratio of %s's median state changes per second over %s's on each of the %s where both ran ok, highest first: above 1 (the dashed line) where %s is faster. Games excluded: %d.",
		p.A, p.B, plural(len(games), "game"), p.A, p.Summary.ExcludedGames)
	if len(games) <= maxBars {
		bars := make([]bar, len(games))
		var seen [3]bool // significantly faster, not significant, significantly slower
		for i, g := range games {
			bars[i] = bar{label: g.Game, value: g.Ratio, lo: g.Lo, hi: g.Hi, color: colSame, open: g.Sign == 0, title: gameRatioTitle(g)}
			switch g.Sign {
			case 1:
				bars[i].color = colFaster
			case -1:
				bars[i].color = colSlower
			}
			seen[1-g.Sign] = true
		}
		caption += " Filled and coloured: significant differences only (Mann–Whitney U test, p-values adjusted by Holm over the games, and the interval excluding 1); a ring: no significant difference. Whiskers: the 95% interval of the ratio from the U test, where the runs are enough for one."
		var legend []legendItem
		for i, item := range []legendItem{{"significantly faster", dotThumb{col: colFaster}}, {"no significant difference", dotThumb{col: colSame, open: true}}, {"significantly slower", dotThumb{col: colSlower}}} {
			if seen[i] {
				legend = append(legend, item)
			}
		}
		legend = append(legend, legendItem{"95% interval", whiskerThumb{}})
		return barChart(label, bars, "ratio ("+chartLabel(p.A.String())+" / "+chartLabel(p.B.String())+")", true, 1, "equal speed", legend), caption
	}
	values, names := make([]float64, len(games)), make([]string, len(games))
	for i, g := range games {
		values[i], names[i] = g.Ratio, g.Game
	}
	chart, key := profileChart(label, values, names, "ratio", "games, sorted by ratio", true, 1, "equal speed", "one game")
	return chart, caption + " " + key
}

// gameRatioTitle names a game of a pair with its ratio, interval and
// verdict, for the title of its point.
func gameRatioTitle(g *PairGame) string {
	s := g.Game + ": " + times(g.Ratio)
	if finite(g.Lo) && finite(g.Hi) {
		s += ", 95% interval " + FormatInterval(g.Lo, g.Hi)
	}
	switch g.Sign {
	case 1:
		s += ", significantly faster"
	case -1:
		s += ", significantly slower"
	default:
		s += ", no significant difference"
	}
	return s
}

// maxVersion is the longest engine version shown whole; a longer one (a
// hash of the engine's code) is cut, whole in its title.
const maxVersion = 12

// prettyName is the text of a link to an engine version or a game, for
// reading: the engine's name with its version shortened when it is a long
// hash (whole in the title), the game's key with its repository and rules
// hash muted. Other links are their text. Everything is escaped.
func prettyName(l link) template.HTML {
	esc := template.HTMLEscapeString
	switch {
	case strings.HasPrefix(l.Href, "engine/"):
		if i := strings.LastIndexByte(l.Text, '@'); i > 0 {
			name, ver := l.Text[:i], l.Text[i+1:]
			short := shortVersion(Version{name, ver})
			if short == l.Text {
				return template.HTML(esc(l.Text))
			}
			return template.HTML(`<span title="` + esc(l.Text) + `">` + esc(short) + `</span>`)
		}
	case strings.HasPrefix(l.Href, "game/"):
		if parts := strings.Split(l.Text, "/"); len(parts) == 3 {
			return template.HTML(`<span class="mute">` + esc(parts[0]) + `/</span>` + esc(parts[1]) + `<span class="mute">/` + esc(parts[2]) + `</span>`)
		}
	}
	return template.HTML(esc(l.Text))
}

// shortVersion is "engine@version" with a long version (a hash of the
// engine's code) cut, for the labels of charts; titles keep it whole.
func shortVersion(v Version) string {
	if r := []rune(v.Version); len(r) > maxVersion {
		v.Version = string(r[:maxVersion-4]) + "…"
	}
	return v.String()
}
