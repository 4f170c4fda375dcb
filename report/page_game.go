package report

import (
	"fmt"
	"html/template"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/results"
)

type gameView struct {
	Key                 string
	KeyLink             link // the key, for prettyName
	Repo, Name, Hash    string
	Title               string
	Roles               string
	RulesURL, RulesFile string
	Findings            []string
	Blacklisted         string
	Machines            []gameMachine
	Correctness         gameCorrectnessView
	Workloads           []workloadLink
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
	// Transforms holds the engines' rates on this game under each
	// transform of the setup, side by side (on the untransformed section).
	Transforms *gameTransformsView
	UCT        *uctView // the uct chart of a uct section
	// TreeBound says which engines' uct runs made under one state change
	// per iteration (Cell.TreeBound); "" when none did.
	TreeBound string
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
	v := gameView{Key: game, KeyLink: gameLink(game), Correctness: b.gameCorrectness(game)}
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
	var groups []*Group
	for _, m := range b.c.Groups {
		if _, ok := slices.BinarySearch(m.Games, game); ok {
			groups = append(groups, m)
		}
	}
	v.Workloads = workloadNav(groups)
	for _, m := range groups {
		gm := gameMachine{Facts: viewMachine(m), Checked: b.checked, Needed: RunsNeeded(thresholds.CompareAlpha, 1)}
		if f := b.families[m]; f != nil {
			gm.Transforms = b.gameTransforms(f, game)
		}
		gm.UCT = b.uctChart(m, game)
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
					bars = append(bars, bar{label: shortVersion(c.Version), value: c.Rate.Center, lo: lo, hi: hi, title: c.Version.String() + ": " + FormatRate(c.Rate.Center) + " states/s"})
				}
			} else {
				row.Rank, row.Rate, row.CI, row.Rel = "—", unmeasured(c), "—", "—"
			}
			if r := c.FirstError(); r != nil {
				row.FirstError = r.Status + ": " + oneLine(r.ErrorMessage)
			}
			gm.Ranked = append(gm.Ranked, row)
		}
		gm.TreeBound = treeBoundNote(cells)
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

// treeBoundNote says which of cells (of a uct section) are tree-bound, and
// what that means for their rates; "" when none is.
func treeBoundNote(cells []*Cell) string {
	var names []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cells {
		if c.Measured() && c.TreeBound() {
			names = append(names, c.Version.String())
			lo, hi = min(lo, c.PerIteration), max(hi, c.PerIteration)
		}
	}
	if len(names) == 0 {
		return ""
	}
	per := strconv.FormatFloat(lo, 'f', 2, 64)
	if hi-lo >= 0.005 {
		per += " to " + strconv.FormatFloat(hi, 'f', 2, 64)
	}
	return fmt.Sprintf("The uct runs of %s made under one state change per iteration (%s, medians): most iterations walked a tree that holds most of this game and asked the engine nothing, so these rates measure the search more than the engine, and engines of very different speeds come out alike. To compare engines here, use a larger game or fixed iterations (--uct-iterations N) few enough that the tree does not hold the game.", strings.Join(names, ", "), per)
}

// ---- correctness ----

// gameVerdictRow is an engine version's verdict on the game of a game page.
type gameVerdictRow struct {
	Version link
	verdictStyle
	Methods []string // "trace ✓ 63 rollouts"
	Detail  string   // the first mismatch's or error's
	Wrong   bool     // struck out on this page
}

// gameCorrectnessView is the Correctness section of a game's page.
type gameCorrectnessView struct {
	Checked    bool
	Reference  string
	Versions   []gameVerdictRow
	Mismatches []mismatchRow
	Problems   []problemRow
}

// gameCorrectness builds the Correctness section of game's page: every
// version that ran or was checked on it.
func (b *builder) gameCorrectness(game string) gameCorrectnessView {
	x := b.checks
	var all []*results.CheckRow
	vs := map[Version]bool{}
	for _, m := range b.c.Groups {
		for _, v := range m.Versions {
			if m.Cell(game, v) != nil {
				vs[v] = true
			}
		}
	}
	for _, v := range x.versions {
		if len(x.byCell[cellKey{game, v}]) > 0 {
			vs[v] = true
		}
	}
	versions := make([]Version, 0, len(vs))
	for v := range vs {
		versions = append(versions, v)
	}
	b.sortVersions(versions)
	gv := gameCorrectnessView{}
	for _, v := range versions {
		rows := x.byCell[cellKey{game, v}]
		all = append(all, rows...)
		row := gameVerdictRow{Version: versionLink(v)}
		if len(rows) == 0 {
			row.verdictStyle = verdictStyle{Word: "never checked"}
			if b.refs[v] {
				row.verdictStyle = refStyle
			}
			gv.Versions = append(gv.Versions, row)
			continue
		}
		gv.Checked = true
		verdict := x.verdict(game, v)
		row.verdictStyle = styleOf(verdict)
		row.Wrong = verdict == results.VerdictMismatch
		for _, r := range rows {
			row.Methods = append(row.Methods, methodNote(r))
			if row.Detail == "" && r.Verdict == verdict && verdict != results.VerdictOK {
				row.Detail = r.Method + ": " + r.Detail
			}
			switch r.Verdict {
			case results.VerdictMismatch:
				gv.Mismatches = append(gv.Mismatches, viewMismatch(r, versionLink(v)))
			case results.VerdictOK:
			default:
				gv.Problems = append(gv.Problems, viewProblem(r, versionLink(v)))
			}
		}
		gv.Versions = append(gv.Versions, row)
	}
	gv.Reference = references(all)
	return gv
}

// indexCorrectnessRow counts the verdicts of one engine version's games.
