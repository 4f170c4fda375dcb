package report

import (
	"fmt"
	"html/template"
)

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
	for _, m := range b.c.Groups {
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
