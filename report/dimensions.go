package report

import (
	"fmt"
	"slices"

	"github.com/gdlperf/gdlperf/results"
)

// This file holds what the pages need of the run dimensions beside the
// machine: the workloads (every page reads per workload, rollouts first)
// and the rule transforms (each transformed setup measured against the
// same setup untransformed).

// workloadOrder is the order of the workloads on every page.
var workloadOrder = []string{results.DefaultWorkload, "uct", "pns", "minimax"}

// workloadRank is the place of workload w in workloadOrder; other
// workloads come after, by name (compareSetups).
func workloadRank(w string) int {
	if i := slices.Index(workloadOrder, w); i >= 0 {
		return i
	}
	return len(workloadOrder)
}

// setupMeasures says what the rate of a setup's runs counts, for the
// facts of a section; "" for timed rollouts, whose rate is gdl-perf's.
func setupMeasures(s Setup) string {
	switch s.Workload {
	case results.DefaultWorkload:
		if s.Mode == "rollouts" {
			return "state changes per second of a fixed number of rollouts, played as a trace plays them (each move drawn from the legal moves sorted by text, through the engine's state machine rather than its own rollout loop): a cost timed runs do not have, so these rates compare with fixed-work runs only, never with timed ones"
		}
		return ""
	case "uct":
		return "state changes per second of the uct search (tree expansions and playout steps); rollouts/s is its iterations per second. Where the runs made under one state change per iteration, the tree held most of the game and the rate measures the search more than the engine (said where it happens)"
	case "pns":
		return "state changes per second of the proof-number search (every child state expanded)"
	case "minimax":
		return "state changes per second of the alpha-beta search"
	}
	return "state changes per second of the " + s.Workload + " workload"
}

// workloadLink is a link to the first section of a workload on a page.
type workloadLink struct {
	Workload string
	Href     string // "#anchor"
	Sections int
}

// workloadNav lists the workloads of groups (in page order) with a link
// to the first section of each, for the pages that hold sections of more
// than one workload; nil when they are all of one workload.
func workloadNav(groups []*Group) []workloadLink {
	var out []workloadLink
	for _, m := range groups {
		i := slices.IndexFunc(out, func(l workloadLink) bool { return l.Workload == m.Setup.Workload })
		if i < 0 {
			out = append(out, workloadLink{Workload: m.Setup.Workload, Href: "#" + machineAnchor(m)})
			i = len(out) - 1
		}
		out[i].Sections++
	}
	if len(out) < 2 {
		return nil
	}
	slices.SortStableFunc(out, func(a, b workloadLink) int { return workloadRank(a.Workload) - workloadRank(b.Workload) })
	return out
}

// untransformed is the setup s without its transform.
func untransformed(s Setup) Setup {
	s.Transform, s.TransformSeed = results.DefaultTransform, 0
	return s
}

// transformFamily is a group of untransformed runs and the groups of the
// same machine and setup under a rule transform.
type transformFamily struct {
	Base     *Group
	Variants []*Group // in page order
	Labels   []string // of each variant: its transform, with the seed when the name repeats
}

// transformFamilies finds, for every group of untransformed runs, the
// groups of the same machine and otherwise equal setup under a transform.
// Groups without a base (transformed runs whose untransformed ones are
// missing) belong to no family.
func transformFamilies(groups []*Group) map[*Group]*transformFamily {
	out := map[*Group]*transformFamily{}
	for _, base := range groups {
		if base.Setup.Transform != results.DefaultTransform {
			continue
		}
		f := &transformFamily{Base: base}
		names := map[string]int{}
		for _, m := range groups {
			if m != base && m.Machine == base.Machine && m.Setup.Transform != results.DefaultTransform && untransformed(m.Setup) == base.Setup {
				f.Variants = append(f.Variants, m)
				names[m.Setup.Transform]++
			}
		}
		if len(f.Variants) == 0 {
			continue
		}
		for _, m := range f.Variants {
			label := m.Setup.Transform
			if names[label] > 1 {
				label += fmt.Sprintf(" (seed %d)", m.Setup.TransformSeed)
			}
			f.Labels = append(f.Labels, label)
		}
		out[base] = f
	}
	return out
}

// Robustness bounds: an engine is robust to the way the rules are written
// when, under every transform, the 95% interval of the geometric mean of
// its rate ratio to the untransformed rules lies within [robustLo,
// robustHi] (within 10%).
const (
	robustLo = 0.9
	robustHi = 1.1
)

// robustness classifies the geometric mean of a transform's ratios: +1
// when its interval lies within the bounds, -1 when it lies wholly outside
// them (beyond 10% either way), 0 when the runs cannot tell (no interval,
// or one across a bound).
func robustness(s *PairSummary) int {
	switch {
	case !finite(s.GeoLo) || !finite(s.GeoHi):
		return 0
	case s.GeoLo >= robustLo && s.GeoHi <= robustHi:
		return 1
	case s.GeoHi < robustLo || s.GeoLo > robustHi:
		return -1
	}
	return 0
}

// CompareAcross compares version a on group ma against version b on
// group mb, game by game, as ComparePair does within one group: the runs
// of a transform against the untransformed ones, of one workload's
// versions, or of any two setups the caller means to hold side by side.
// The p-values are adjusted over the games by Holm's method.
func CompareAcross(ma *Group, a Version, mb *Group, b Version) *Pair {
	p := &Pair{Group: mb, A: a, B: b}
	games := map[string]bool{}
	for _, g := range ma.Games {
		if ma.Cell(g, a) != nil {
			games[g] = true
		}
	}
	for _, g := range mb.Games {
		if mb.Cell(g, b) != nil {
			games[g] = true
		}
	}
	for _, g := range sortedKeys(games) {
		p.Games = append(p.Games, compareCells(g, ma.Cell(g, a), mb.Cell(g, b)))
	}
	adjust(p.Games)
	p.Summary = Summarize(p.Games, a.String(), b.String())
	return p
}
