package report

import (
	"fmt"
	"html/template"
	"strings"
)

// The views of rule transforms: per engine version, the sensitivity of
// its rate to each transform (the engine page); per game, the transforms
// side by side (the game page); per engine version, whether it is robust
// (the index). Every figure is a ratio of a transformed setup's rate to
// the untransformed one's, with the statistics of every other ratio: the
// U test per game with Holm's adjustment over the games and the interval
// that inverts it; the geometric mean over the games with its t interval.

// sensCell is one ratio of a transform's rate to the untransformed rate.
type sensCell struct {
	Ratio, Interval, Class, Title string
}

// sensRow is a game of a sensitivity table.
type sensRow struct {
	Game  link
	Base  string // the untransformed rate
	Cells []sensCell
}

// sensitivityView is an engine version's sensitivity to the transforms of
// one family (machine and setup).
type sensitivityView struct {
	Transforms []string
	Rows       []sensRow
	GeoMeans   []sensCell // one per transform
	Compared   []int      // games in each geometric mean
	Verdict    robustView
	Chart      template.HTML
	Caption    string
}

// robustView is what the index says of one engine version's robustness.
type robustView struct {
	Version link
	Word    string // "robust", "not robust", "cannot tell"
	Says    string // the predicate of the sentence: "is robust", ...
	Class   string // good, bad or ""
	Detail  string
}

// transformPairs compares ver under each transform of f with ver
// untransformed; nil entries where ver did not run the transform.
func transformPairs(f *transformFamily, ver Version) []*Pair {
	out := make([]*Pair, len(f.Variants))
	for i, m := range f.Variants {
		if m.Has(ver) {
			out[i] = CompareAcross(m, ver, f.Base, ver)
		}
	}
	return out
}

// sensitivity builds ver's sensitivity view of family f, or nil when ver
// ran no transform of it (or not the untransformed rules).
func (b *builder) sensitivity(f *transformFamily, ver Version) *sensitivityView {
	if !f.Base.Has(ver) {
		return nil
	}
	pairs := transformPairs(f, ver)
	var labels []string
	var kept []*Pair
	for i, p := range pairs {
		if p != nil {
			labels = append(labels, f.Labels[i])
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	v := &sensitivityView{Transforms: labels}
	for _, g := range f.Base.Games {
		c := f.Base.Cell(g, ver)
		if c == nil {
			continue
		}
		row := sensRow{Game: gameLink(g), Base: cellRate(c)}
		for i, p := range kept {
			row.Cells = append(row.Cells, gameSensCell(p, g, labels[i]))
		}
		v.Rows = append(v.Rows, row)
	}
	rows := make([]ratioRow, len(kept))
	for i, p := range kept {
		s := p.Summary
		cell := sensCell{Ratio: times(s.GeoMean), Interval: FormatInterval(s.GeoLo, s.GeoHi), Class: signClass(s.Overall),
			Title: fmt.Sprintf("%s: geometric mean over %s", labels[i], plural(s.Compared, "game"))}
		v.GeoMeans = append(v.GeoMeans, cell)
		v.Compared = append(v.Compared, s.Compared)
		rows[i] = ratioRow{name: labels[i], p: p}
	}
	v.Verdict = robustVerdict(ver, labels, kept)
	v.Chart = ratioRowsChart("rate of "+plain(ver.String())+" under each transform relative to the untransformed rules, one dot per game", rows,
		"rate under the transform / rate untransformed (log scale)", "1× (as fast as untransformed)", true)
	v.Caption = fmt.Sprintf("The ratio of %s's median state changes per second under each transform to its median on the untransformed rules, on each game both ran ok, on a log axis. Filled and coloured: the game differs significantly (Mann–Whitney U test, p-values adjusted by Holm over the games, and the interval excluding 1); a ring: it does not. The large ring is the geometric mean over the games with its 95%% interval; the dotted lines are 0.9× and 1.1×: an engine is robust when every transform's interval lies between them.", ver)
	return v
}

// gameSensCell is the ratio of game g in p, a transform against the
// untransformed rules.
func gameSensCell(p *Pair, g, label string) sensCell {
	for i := range p.Games {
		pg := &p.Games[i]
		if pg.Game != g {
			continue
		}
		if pg.Outcome != Compared {
			return sensCell{Ratio: "—", Interval: "", Title: label + ": " + pg.Outcome.Describe(label, "untransformed")}
		}
		return sensCell{Ratio: times(pg.Ratio), Interval: FormatInterval(pg.Lo, pg.Hi), Class: signClass(pg.Sign), Title: gameRatioTitle(pg)}
	}
	return sensCell{Ratio: "·", Title: label + ": not run"}
}

// robustVerdict words ver's robustness over the transforms: robust when
// every transform's geometric-mean interval lies within [0.9, 1.1], not
// robust when some interval lies wholly outside, else the runs cannot
// tell (an interval across a bound, or too few games for one).
func robustVerdict(ver Version, labels []string, pairs []*Pair) robustView {
	rv := robustView{Version: versionLink(ver)}
	var beyond, unsure, within []string
	for i, p := range pairs {
		s := &p.Summary
		fig := fmt.Sprintf("%s %s", labels[i], times(s.GeoMean))
		if finite(s.GeoLo) && finite(s.GeoHi) {
			fig += " " + FormatInterval(s.GeoLo, s.GeoHi)
		} else {
			fig += fmt.Sprintf(" (no interval: %s)", plural(s.Compared, "game"))
		}
		switch robustness(s) {
		case 1:
			within = append(within, fig)
		case -1:
			beyond = append(beyond, fig)
		default:
			unsure = append(unsure, fig)
		}
	}
	switch {
	case len(beyond) > 0:
		rv.Word, rv.Says, rv.Class = "not robust", "is not robust", "bad"
		rv.Detail = "beyond 10% under " + strings.Join(beyond, ", ")
		if rest := append(unsure, within...); len(rest) > 0 {
			rv.Detail += "; the others: " + strings.Join(rest, ", ")
		}
	case len(unsure) > 0:
		rv.Word, rv.Says = "cannot tell", "cannot be called robust or not"
		rv.Detail = "the 95% interval is not within 10% and not beyond it under " + strings.Join(unsure, ", ")
		if len(within) > 0 {
			rv.Detail += "; within 10% under " + strings.Join(within, ", ")
		}
	default:
		rv.Word, rv.Says, rv.Class = "robust", "is robust", "good"
		rv.Detail = "within 10% under every transform: " + strings.Join(within, ", ")
	}
	return rv
}

// gameTransformsView is a game's engines under each transform of one
// family, side by side.
type gameTransformsView struct {
	Transforms []string
	Rows       []gameTransformRow
}

type gameTransformRow struct {
	Version link
	Base    string
	Cells   []gameTransformCell
}

type gameTransformCell struct {
	Rate string
	sensCell
}

// gameTransforms builds the side-by-side table of game in family f: per
// engine version, its rate untransformed and under each transform with
// the ratio, the same comparison (and Holm adjustment over the games) as
// the engine page's sensitivity table.
func (b *builder) gameTransforms(f *transformFamily, game string) *gameTransformsView {
	v := &gameTransformsView{Transforms: f.Labels}
	for _, ver := range f.Base.Versions {
		base := f.Base.Cell(game, ver)
		row := gameTransformRow{Version: versionLink(ver), Base: "·"}
		if base != nil {
			row.Base = cellRate(base)
		}
		any := false
		for i, p := range transformPairs(f, ver) {
			cell := gameTransformCell{Rate: "·", sensCell: sensCell{Ratio: "·"}}
			if p != nil {
				if c := f.Variants[i].Cell(game, ver); c != nil {
					cell.Rate = cellRate(c)
					any = true
				}
				cell.sensCell = gameSensCell(p, game, f.Labels[i])
			}
			row.Cells = append(row.Cells, cell)
		}
		if any || base != nil {
			v.Rows = append(v.Rows, row)
		}
	}
	if len(v.Rows) == 0 {
		return nil
	}
	return v
}

// indexRobustness is the index's robustness section of one family.
type indexRobustness struct {
	Facts      machineView
	Transforms []string
	Verdicts   []robustView
}

// robustnessOf words the robustness of every version of family f that ran
// some transform of it.
func (b *builder) robustnessOf(f *transformFamily) indexRobustness {
	ir := indexRobustness{Facts: viewMachine(f.Base), Transforms: f.Labels}
	for _, ver := range f.Base.Versions {
		var labels []string
		var pairs []*Pair
		for i, p := range transformPairs(f, ver) {
			if p != nil {
				labels, pairs = append(labels, f.Labels[i]), append(pairs, p)
			}
		}
		if len(pairs) > 0 {
			ir.Verdicts = append(ir.Verdicts, robustVerdict(ver, labels, pairs))
		}
	}
	return ir
}
