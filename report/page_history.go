package report

import (
	"fmt"
	"html/template"
	"slices"
)

// The history page of an engine (asv's main page): its versions in the
// order they were measured (by their first run), on each machine and
// setup, with the geometric mean of their speedups over the first version
// and over the previous one, and their rate on every game, so that one
// sees when the engine got faster or slower.

type historyView struct {
	Engine string
	Groups []historyGroup
	Others []link // the history pages of the other engines
	// Workloads lead to the first section of each workload, when there
	// are several.
	Workloads []workloadLink
}

type historyGroup struct {
	Facts    machineView
	First    link // the version the others are measured against
	Versions []historyRow
	Chart    template.HTML
	Caption  string
	Columns  []link // the versions, in order
	Games    []historyGameRow
}

// historyRow is one version: when it was first measured and how it
// compares with the first version and with the one before it.
type historyRow struct {
	Version         link
	First           string // the day of its first run here
	Games           int    // games it ran ok here
	VsFirst, VsPrev string // geometric means, "—" for the first version
	FirstInterval   string
	PrevInterval    string
	FirstClass      string // good or bad: only when the interval excludes 1
	PrevClass       string
	PrevVerdict     string // "faster", "slower", "~", ""
	PrevPair        string // the pair page against the previous version, "" when none
	PrevCompared    int
	FirstCompared   int
}

type historyGameRow struct {
	Game  link
	Cells []historyCell
}

// historyCell is a version's rate on a game, coloured where it differs
// significantly from the previous version's.
type historyCell struct {
	Text, Class, Title string
}

func historyHref(engine string) string { return "history/" + SafeName(engine) + ".html" }

// engines returns the engines that ran, sorted.
func (b *builder) engines() []string {
	var out []string
	for _, v := range b.c.Versions {
		if !slices.Contains(out, v.Engine) {
			out = append(out, v.Engine)
		}
	}
	return out
}

func (b *builder) historyPage(engine string) (Page, error) {
	v := historyView{Engine: engine}
	for _, e := range b.engines() {
		if e != engine {
			v.Others = append(v.Others, link{Text: e, Href: historyHref(e)})
		}
	}
	pairs := map[versionPair]bool{}
	for _, p := range b.pairs {
		pairs[p] = true
	}
	var groups []*Group
	for _, m := range b.c.Groups {
		if slices.ContainsFunc(m.Versions, func(v Version) bool { return v.Engine == engine }) {
			groups = append(groups, m)
		}
	}
	v.Workloads = workloadNav(groups)
	for _, m := range groups {
		var vs []Version
		for _, ver := range m.Versions {
			if ver.Engine == engine {
				vs = append(vs, ver) // in the order measured: by first run
			}
		}
		hg := historyGroup{Facts: viewMachine(m), First: versionLink(vs[0])}
		var bars []bar
		vsPrev := make([]*Pair, len(vs))
		for i, ver := range vs {
			row := historyRow{Version: versionLink(ver), First: day(firstRun(m, ver)), VsFirst: "—", VsPrev: "—", FirstInterval: "—", PrevInterval: "—"}
			for _, g := range m.Games {
				if c := m.Cell(g, ver); c.Measured() && !c.Wrong {
					row.Games++
				}
			}
			if i > 0 {
				pf := ComparePair(m, ver, vs[0])
				row.VsFirst, row.FirstInterval, row.FirstClass, row.FirstCompared = times(pf.Summary.GeoMean), FormatInterval(pf.Summary.GeoLo, pf.Summary.GeoHi), signClass(pf.Summary.Overall), pf.Summary.Compared
				pp := ComparePair(m, ver, vs[i-1])
				vsPrev[i] = pp
				row.VsPrev, row.PrevInterval, row.PrevClass, row.PrevCompared = times(pp.Summary.GeoMean), FormatInterval(pp.Summary.GeoLo, pp.Summary.GeoHi), signClass(pp.Summary.Overall), pp.Summary.Compared
				switch {
				case pp.Summary.Compared == 0:
					row.PrevVerdict = "no common game"
				case pp.Summary.Overall > 0:
					row.PrevVerdict = "faster"
				case pp.Summary.Overall < 0:
					row.PrevVerdict = "slower"
				default:
					row.PrevVerdict = "~"
				}
				if vp := (versionPair{ver, vs[i-1]}); pairs[vp] {
					row.PrevPair = pairHref(vp)
				}
				s := pf.Summary
				title := fmt.Sprintf("%s (first run %s): %s the speed of %s, geometric mean over %s", ver, row.First, times(s.GeoMean), vs[0], plural(s.Compared, "game"))
				if finite(s.GeoLo) && finite(s.GeoHi) {
					title += ", 95% interval " + FormatInterval(s.GeoLo, s.GeoHi)
				}
				br := bar{label: shortVersion(ver), value: s.GeoMean, lo: s.GeoLo, hi: s.GeoHi, color: colSame, open: s.Overall == 0, title: title}
				switch s.Overall {
				case 1:
					br.color = colFaster
				case -1:
					br.color = colSlower
				}
				bars = append(bars, br)
			} else {
				bars = append(bars, bar{label: shortVersion(ver), value: 1, lo: 1, hi: 1, color: colText, open: true, title: fmt.Sprintf("%s (first run %s): the first version measured, 1×", ver, row.First)})
			}
			hg.Versions = append(hg.Versions, row)
			hg.Columns = append(hg.Columns, versionLink(ver))
		}
		for _, g := range m.Games {
			row := historyGameRow{Game: gameLink(g)}
			ran := false
			for i, ver := range vs {
				c := m.Cell(g, ver)
				cell := historyCell{Text: "·", Class: "none", Title: ver.String() + " did not run " + g}
				switch {
				case c == nil:
				case !c.Measured():
					cell = historyCell{Text: unmeasured(c), Class: "note", Title: ver.String() + " on " + g + ": no rate"}
					ran = true
				case c.Wrong:
					cell = historyCell{Text: FormatRate(c.Rate.Center), Class: "wrongrate", Title: ver.String() + " on " + g + ": struck out: " + wrongNote}
					ran = true
				default:
					ran = true
					cell = historyCell{Text: FormatRate(c.Rate.Center), Title: fmt.Sprintf("%s on %s: %s states/s", ver, g, FormatRate(c.Rate.Center))}
					if i > 0 {
						if j := slices.IndexFunc(vsPrev[i].Games, func(pg PairGame) bool { return pg.Game == g }); j >= 0 {
							pg := &vsPrev[i].Games[j]
							cell.Class = signClass(pg.Sign)
							if pg.Outcome == Compared {
								cell.Title += fmt.Sprintf("; %s of %s's", times(pg.Ratio), vs[i-1])
								if finite(pg.Lo) && finite(pg.Hi) {
									cell.Title += ", 95% interval " + FormatInterval(pg.Lo, pg.Hi)
								}
								if pg.Sign == 0 {
									cell.Title += ", no significant difference"
								}
							}
						}
					}
				}
				row.Cells = append(row.Cells, cell)
			}
			if ran {
				hg.Games = append(hg.Games, row)
			}
		}
		if len(vs) > 1 {
			hg.Chart = barChart("speed of each version of "+plain(engine)+" against its first, "+plain(vs[0].String()), bars,
				"speedup over "+chartLabel(vs[0].String()), true, 1, "as fast as "+chartLabel(vs[0].String()),
				[]legendItem{{"significantly faster", dotThumb{col: colFaster}}, {"no significant difference", dotThumb{col: colSame, open: true}}, {"significantly slower", dotThumb{col: colSlower}}, {"95% interval", whiskerThumb{}}})
			hg.Caption = fmt.Sprintf("Each version of %s in the order it was first measured (top first): the geometric mean, over the games both ran ok, of its speedup over %s (the ratio of median state changes per second per game), with its 95%% interval. Filled and coloured only where the interval excludes 1.", engine, vs[0])
		}
		v.Groups = append(v.Groups, hg)
	}
	return render(historyHref(engine), "history", &pageData{Title: "history of " + engine, Rows: b.c.Runs, Crumbs: []link{{Text: "history " + engine}}, Body: v})
}

// firstRun is the earliest start time of v's runs in m, "" when none has one.
func firstRun(m *Group, v Version) string {
	first := ""
	for _, g := range m.Games {
		if c := m.Cell(g, v); c != nil {
			for _, r := range c.Runs {
				if r.StartTime != "" && (first == "" || r.StartTime < first) {
					first = r.StartTime
				}
			}
		}
	}
	return first
}
