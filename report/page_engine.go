package report

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/gdlperf/gdlperf/results"
)

type engineView struct {
	Name, Version string
	History       link // the engine's history page
	Machines      []engineMachine
	Versions      []link // the engine's other versions
	Pairs         []pairLink
	Correctness   correctnessView
	Workloads     []workloadLink // the first section of each workload, when there are several
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
	WrongGames     []link           // games left out of the rate chart
	Sensitivity    *sensitivityView // the rate under each transform of this setup, against the untransformed rules
	HasDesign      bool             // some game's runs name the design the engine kept
}

type engineGameRow struct {
	Game                              link
	Rate, Spread, Rollouts, Init, RSS string
	CPURate                           string // states per CPU-second, "" when not reported
	Design                            string // the designs the ok runs name, "" for none
	OK, Runs                          int
	Contended                         int    // ok runs left out as contended
	Needs                             string // how many runs a verdict needs, when the cell has fewer
	ErrorRate                         string
	Failed                            bool
	Wrong                             bool // disagreed with the reference: the rate is struck out
	// TreeBound explains a uct rate of under one state change per
	// iteration (Cell.TreeBound), "" otherwise.
	TreeBound            string
	Check                verdictStyle
	CheckTitle           string
	Rank                 string
	Speedup, Interval, P string
	SpeedupClass         string
}

type errorRow struct {
	Game                             link
	Run                              link
	Repetition                       int
	Status, Message, Stderr, Started string
}

func (b *builder) enginePage(ver Version) (Page, error) {
	v := engineView{Name: ver.Engine, Version: ver.Version, Correctness: b.correctness(ver)}
	if _, ran := b.c.order[ver]; ran {
		v.History = link{Text: "history of " + ver.Engine, Href: historyHref(ver.Engine)}
	}
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
	v.Workloads = workloadNav(b.c.GroupsOf(ver))
	for _, m := range b.c.GroupsOf(ver) {
		em := engineMachine{Facts: viewMachine(m), Checked: b.checked}
		if f := b.families[m]; f != nil {
			em.Sensitivity = b.sensitivity(f, ver)
		}
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
			row.Design = runDesigns(c.Runs)
			em.HasDesign = em.HasDesign || row.Design != ""
			if c.Measured() {
				row.Rate, row.Spread = FormatRate(c.Rate.Center), spread(c)
				row.Rollouts, row.Init = FormatRate(c.Rollouts), FormatMs(c.InitMs)
				if c.TreeBound() {
					row.TreeBound = fmt.Sprintf("%.2f state changes per iteration: most uct iterations walked a tree that holds most of this game and asked the engine nothing; the rate measures the search more than the engine", c.PerIteration)
				}
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
			bars[i] = bar{label: c.Game, value: c.Rate.Center, lo: lo, hi: hi, title: c.Game + ": " + FormatRate(c.Rate.Center) + " states/s"}
		}
		caption += " " + whiskerCaption
		return barChart(label, bars, "state changes per second", false, 0, "",
			[]legendItem{{"median", barThumb{colBar}}, {"interval", whiskerThumb{}}}), caption
	}
	values, names := make([]float64, len(cells)), make([]string, len(cells))
	for i, c := range cells {
		values[i], names[i] = c.Rate.Center, c.Game
	}
	chart, key := profileChart(label, values, names, "state changes per second", "games, sorted by speed", false, 0, "", "one game")
	return chart, caption + " " + key
}

// ---- correctness ----

// verdictCount is the number of games (or checks) with one verdict.
type verdictCount struct {
	verdictStyle
	N     int
	Games []link
}

// methodRow counts one method's checks by verdict.
type methodRow struct {
	Method           string
	Counts           []int // in checkVerdictOrder
	Rollouts, States int   // compared, over the checks
}

// correctnessView is the Correctness section of an engine version's page.
type correctnessView struct {
	Checked    bool
	Reference  string
	Games      []verdictCount // games by folded verdict, in checkVerdictOrder
	Methods    []methodRow
	Mismatches []mismatchRow
	Problems   []problemRow
	NotChecked []link // games the version ran that were never checked
	WrongRuns  []link // games where runs of the version have status wrong
	Styles     []verdictStyle
}

// correctness builds the Correctness section of v's page.
func (b *builder) correctness(v Version) correctnessView {
	x := b.checks
	rows := x.byVersion[v]
	cv := correctnessView{Checked: len(rows) > 0, Reference: references(rows), Styles: styles()}
	games := map[string][]link{}
	methods := map[string]*methodRow{}
	var methodNames []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.GameKey] {
			seen[r.GameKey] = true
			verdict := x.verdict(r.GameKey, v)
			games[verdict] = append(games[verdict], b.gameLinkOrText(r.GameKey))
		}
		mr := methods[r.Method]
		if mr == nil {
			mr = &methodRow{Method: r.Method, Counts: make([]int, len(checkVerdictOrder))}
			methods[r.Method] = mr
			methodNames = append(methodNames, r.Method)
		}
		if i := slices.Index(checkVerdictOrder, r.Verdict); i >= 0 {
			mr.Counts[i]++
		} else {
			mr.Counts[len(checkVerdictOrder)-1]++
		}
		mr.Rollouts += r.Rollouts
		mr.States += r.States
		switch r.Verdict {
		case results.VerdictMismatch:
			cv.Mismatches = append(cv.Mismatches, viewMismatch(r, b.gameLinkOrText(r.GameKey)))
		case results.VerdictOK:
		default:
			cv.Problems = append(cv.Problems, viewProblem(r, b.gameLinkOrText(r.GameKey)))
		}
	}
	for _, verdict := range checkVerdictOrder {
		cv.Games = append(cv.Games, verdictCount{verdictStyle: verdictStyles[verdict], N: len(games[verdict]), Games: games[verdict]})
	}
	for _, verdict := range sortedKeys(keysOf(games)) {
		if !slices.Contains(checkVerdictOrder, verdict) {
			cv.Games = append(cv.Games, verdictCount{verdictStyle: styleOf(verdict), N: len(games[verdict]), Games: games[verdict]})
		}
	}
	slices.SortFunc(methodNames, func(a, b string) int { return cmp.Or(cmp.Compare(methodRank(a), methodRank(b)), cmp.Compare(a, b)) })
	for _, m := range methodNames {
		cv.Methods = append(cv.Methods, *methods[m])
	}
	for _, g := range b.gamesOf(v) {
		if !seen[g] {
			cv.NotChecked = append(cv.NotChecked, gameLink(g))
		}
		for _, m := range b.c.Groups {
			if c := m.Cell(g, v); c != nil && slices.ContainsFunc(c.Runs, func(r *results.Row) bool { return r.Status == results.StatusWrong }) {
				cv.WrongRuns = append(cv.WrongRuns, gameLink(g))
				break
			}
		}
	}
	return cv
}

// gamesOf returns the games v ran on any machine, sorted.
func (b *builder) gamesOf(v Version) []string {
	var out []string
	for _, g := range b.games {
		for _, m := range b.c.Groups {
			if m.Cell(g, v) != nil {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// gameVerdictRow is an engine version's verdict on the game of a game page.

// runDesigns is the designs the ok runs name (results.Row.Design), in the
// order first seen, joined by commas: a game whose runs kept two designs
// says so.
func runDesigns(runs []*results.Row) string {
	var ds []string
	for _, r := range runs {
		if r.Status == results.StatusOK && r.Design != "" && !slices.Contains(ds, r.Design) {
			ds = append(ds, r.Design)
		}
	}
	return strings.Join(ds, ", ")
}
