package report

import (
	"html/template"
)

type pairView struct {
	A, B      link
	Machines  []pairMachine
	Workloads []workloadLink
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
	var groups []*Group
	for _, m := range b.c.Groups {
		if m.Has(vp.A) && m.Has(vp.B) {
			groups = append(groups, m)
		}
	}
	v.Workloads = workloadNav(groups)
	for _, m := range groups {
		p := ComparePair(m, vp.A, vp.B)
		pm := pairMachine{Facts: viewMachine(m), Summary: b.viewSummary(p, "")}
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
			case g.Outcome == TreeBound:
				row.Verdict = "no verdict: " + g.TreeBoundWhy(vp.A.String(), vp.B.String())
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
		}
		// The ratio per game, not a log-log scatter of the rates, where a
		// change of 30% sits on the diagonal.
		if p.Summary.Compared > 0 {
			pm.Chart, pm.Caption = speedupChart(p)
		}
		v.Machines = append(v.Machines, pm)
	}
	title := vp.A.String() + " vs " + vp.B.String()
	return render(pairHref(vp), "pair", &pageData{Title: title, Rows: b.c.Runs, Crumbs: []link{{Text: "pair " + title}}, Body: v})
}
