package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
)

// Outcome classifies one game of a comparison of A against B.
type Outcome int

// Outcomes, in the order they are listed.
const (
	Compared      Outcome = iota // both ran ok with state changes > 0: a finite, positive ratio
	ZeroA                        // A ran ok but made no state change (ratio 0)
	ZeroB                        // B ran ok but made no state change (ratio infinite)
	ZeroBoth                     // neither made a state change
	FailA                        // every run of A failed; B ran ok
	FailB                        // every run of B failed; A ran ok
	FailBoth                     // every run of both failed
	OnlyA                        // B did not run the game
	OnlyB                        // A did not run the game
	WrongA                       // A disagreed with the reference on the game (Cell.Wrong)
	WrongB                       // B disagreed with the reference
	WrongBoth                    // both disagreed
	ContendedA                   // A ran ok, but every ok run of it was contended
	ContendedB                   // B ran ok, but every ok run of it was contended
	ContendedBoth                // both, every ok run contended
	TreeBound                    // a uct game where a side's runs made under one state change per iteration (Cell.TreeBound)
)

// exclusionOrder is the order in which excluded games are listed: wrong
// answers first.
var exclusionOrder = []Outcome{WrongA, WrongB, WrongBoth, ContendedA, ContendedB, ContendedBoth, TreeBound, ZeroA, ZeroB, ZeroBoth, FailA, FailB, FailBoth, OnlyA, OnlyB}

// Wrong says whether a side of the game disagreed with the reference.
func (o Outcome) Wrong() bool { return o == WrongA || o == WrongB || o == WrongBoth }

// Describe says why a game of this outcome is excluded from the median and
// the geometric mean, naming the sides a and b.
func (o Outcome) Describe(a, b string) string {
	switch o {
	case ZeroA:
		return fmt.Sprintf("%s ran ok but made 0 state changes (ratio 0)", a)
	case ZeroB:
		return fmt.Sprintf("%s ran ok but made 0 state changes (ratio infinite)", b)
	case ZeroBoth:
		return "both made 0 state changes (ratio undefined)"
	case FailA:
		return fmt.Sprintf("only %s failed (every run)", a)
	case FailB:
		return fmt.Sprintf("only %s failed (every run)", b)
	case FailBoth:
		return "both failed (every run)"
	case OnlyA:
		return fmt.Sprintf("not run by %s", b)
	case OnlyB:
		return fmt.Sprintf("not run by %s", a)
	case WrongA:
		return fmt.Sprintf("%s disagreed with the reference (correctness check mismatch)", a)
	case WrongB:
		return fmt.Sprintf("%s disagreed with the reference (correctness check mismatch)", b)
	case WrongBoth:
		return "both disagreed with the reference (correctness check mismatch)"
	case ContendedA:
		return fmt.Sprintf("every ok run of %s was contended (preempted: too little of a CPU)", a)
	case ContendedB:
		return fmt.Sprintf("every ok run of %s was contended (preempted: too little of a CPU)", b)
	case ContendedBoth:
		return fmt.Sprintf("every ok run of both was contended (preempted: too little of a CPU)")
	case TreeBound:
		return "the uct runs made under one state change per iteration: the tree holds most of the game and the rate measures the search, not the engine"
	}
	return "compared"
}

// PairGame is one game of a comparison of A against B.
type PairGame struct {
	Game    string
	A, B    *Cell // nil when that side did not run the game
	Outcome Outcome
	// Ratio is A's median rate over B's: above 1 when A is faster. NaN
	// unless both are Measured and neither is Wrong; 0 or +Inf when one
	// median is 0.
	Ratio float64
	// Lo and Hi bound the ratio: its 95% interval that inverts the U test
	// (ratioCI, over the pairwise ratios of the runs), so that it excludes 1
	// where the unadjusted test rejects. Unbounded (Lo 0, Hi +Inf) when the
	// runs are too few for the test (fewer than 4 a side, for equal sides).
	Lo, Hi float64
	// Cmp is the Mann-Whitney U test of A's rates against B's (when both
	// are Measured); Cmp.P is the unadjusted p-value.
	Cmp benchmath.Comparison
	// P is Cmp.P adjusted by Holm's method over every game of the
	// comparison that has a test (holm); NaN when this game has none.
	P float64
	// Tests is the number of games the adjustment of P was over.
	Tests int
	// Sign is +1 when A is significantly faster, -1 when significantly
	// slower, 0 otherwise. Significant means both: the adjusted P is below
	// alpha, and the interval [Lo, Hi] lies on one side of 1.
	Sign int
	// Testable says whether the sides had enough runs for the U test to
	// reach significance at all, after the adjustment: the smallest p-value
	// their sizes allow, times Tests (Holm's factor for the smallest
	// p-value), is below alpha.
	Testable bool
}

// Needs says, for a game whose test could not reach significance, how many
// ok runs a side needs and how many each has: "needs at least 4 ok runs
// per side; has 3 and 3"; "" when the game is testable or untested.
func (g *PairGame) Needs(a, b string) string {
	if g.Testable || !g.A.Measured() || !g.B.Measured() {
		return ""
	}
	return fmt.Sprintf("needs at least %d ok runs per side%s; has %d (%s) and %d (%s)",
		RunsNeeded(thresholds.CompareAlpha, g.Tests), overGames(g.Tests), g.A.Kept(), a, g.B.Kept(), b)
}

// TreeBoundWhy says why a game of outcome TreeBound has no verdict, with
// each tree-bound side's state changes per iteration; "" for another
// outcome.
func (g *PairGame) TreeBoundWhy(a, b string) string {
	if g.Outcome != TreeBound {
		return ""
	}
	var sides []string
	for _, x := range []struct {
		c    *Cell
		name string
	}{{g.A, a}, {g.B, b}} {
		if x.c.TreeBound() {
			sides = append(sides, fmt.Sprintf("%s %.2f", x.name, x.c.PerIteration))
		}
	}
	return fmt.Sprintf("the uct runs made under one state change per iteration (%s): the tree holds most of the game and the rate measures the search, not the engine; compare fixed iterations the tree does not fill, or a larger game", strings.Join(sides, ", "))
}

// overGames says what a number of runs needed depends on: "" for one
// test, " (p-values adjusted over 8 games)" for more.
func overGames(tests int) string {
	if tests <= 1 {
		return ""
	}
	return fmt.Sprintf(" (p-values adjusted over %d games)", tests)
}

// Significant says whether the difference is significant.
func (g *PairGame) Significant() bool { return g.Sign != 0 }

// compareCells compares a against b on one game; either may be nil.
func compareCells(game string, a, b *Cell) PairGame {
	g := PairGame{Game: game, A: a, B: b, Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	switch {
	case a == nil:
		g.Outcome = OnlyB
		return g
	case b == nil:
		g.Outcome = OnlyA
		return g
	case a.Wrong && b.Wrong:
		g.Outcome = WrongBoth
		return g
	case a.Wrong:
		g.Outcome = WrongA
		return g
	case b.Wrong:
		g.Outcome = WrongB
		return g
	case a.AllContended() && b.AllContended():
		g.Outcome = ContendedBoth
		return g
	case a.AllContended() && b.Measured():
		g.Outcome = ContendedA
		return g
	case b.AllContended() && a.Measured():
		g.Outcome = ContendedB
		return g
	case !a.Measured() && !b.Measured():
		g.Outcome = FailBoth
		return g
	case !a.Measured():
		g.Outcome = FailA
		return g
	case !b.Measured():
		g.Outcome = FailB
		return g
	}
	ca, cb := a.Rate.Center, b.Rate.Center
	switch {
	case ca == 0 && cb == 0:
		g.Outcome = ZeroBoth
	case ca == 0:
		g.Outcome = ZeroA
		g.Ratio = 0
	case cb == 0:
		g.Outcome = ZeroB
		g.Ratio = math.Inf(1)
	default:
		g.Outcome = Compared
		g.Ratio = ca / cb
		if a.TreeBound() || b.TreeBound() {
			g.Outcome = TreeBound // the ratio is shown, not counted
		}
	}
	if g.Outcome != ZeroBoth {
		g.Lo, g.Hi = ratioCI(a.Rates(), b.Rates(), Confidence)
	}
	g.Cmp = benchmath.AssumeNothing.Compare(b.sample, a.sample)
	g.P = g.Cmp.P
	g.Tests = 1
	g.Testable = canReject(g.Cmp.N1, g.Cmp.N2, g.Cmp.Alpha, 1)
	return g
}

// adjust adjusts the p-values of games for testing them all (Holm, over
// the games with a test) and sets each game's Sign from its adjusted P and
// its interval.
func adjust(games []PairGame) {
	ps := make([]float64, len(games))
	tests := 0
	for i := range games {
		ps[i] = math.NaN()
		if g := &games[i]; g.A.Measured() && g.B.Measured() && !g.Outcome.Wrong() && g.Outcome != TreeBound {
			ps[i] = g.Cmp.P
			tests++
		}
	}
	adj := holm(ps)
	for i := range games {
		g := &games[i]
		g.P, g.Tests, g.Sign = adj[i], tests, 0
		if math.IsNaN(g.P) {
			continue
		}
		g.Testable = canReject(g.Cmp.N1, g.Cmp.N2, g.Cmp.Alpha, tests)
		if g.P >= g.Cmp.Alpha {
			continue
		}
		switch {
		case g.Lo > 1:
			g.Sign = 1
		case g.Hi < 1:
			g.Sign = -1
		}
	}
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// Exclusion counts the games an aggregate left out, and why.
type Exclusion struct {
	Outcome Outcome
	Reason  string
	Games   []string
}

// PairSummary aggregates the games of a comparison of A against B.
type PairSummary struct {
	Games    int // games run by A or B
	Compared int // games in the median and the geometric mean
	// Median and GeoMean of the per-game ratios A/B over the Compared
	// games; SumRatio is the sum of A's medians over the sum of B's on them.
	// NaN when Compared is 0.
	Median, GeoMean, SumRatio float64
	// GeoLo and GeoHi are the 95% interval of the geometric mean
	// (geoMeanCI: the t interval of the mean log ratio over the compared
	// games); NaN with fewer than 2 compared games.
	GeoLo, GeoHi float64
	// Overall is the verdict on the geometric mean: +1 when its interval
	// lies above 1, -1 when below, 0 otherwise (or without an interval).
	Overall int
	// ContendedA and ContendedB count the runs left out as contended.
	ContendedA, ContendedB int
	// Tests is the number of games the p-values were adjusted over.
	Tests int
	// Wins, Losses and Ties count the games where both ran ok (including
	// zero rates) and neither disagreed with the reference, by their
	// medians; SigWins and SigLosses those of them where the U test says the
	// difference is significant.
	Wins, Losses, Ties int
	SigWins, SigLosses int
	Untestable         int // games with too few runs for any significance
	OnlyAFailed        []string
	OnlyBFailed        []string
	BothFailed         []string
	Excluded           []Exclusion // by outcome
	ExcludedGames      int
	PartialFailuresA   int // games where some but not all runs of A failed
	PartialFailuresB   int
	ComparedRatios     []float64 // the ratios of the compared games, ascending

	// CPUGeoMean is the geometric mean, over the CPUGames games where both
	// sides ran ok with CPU times and neither disagreed with the
	// reference, of the ratio of their medians of state changes per
	// CPU-second of every ok run, contended ones included (Cell.AnyCPURate):
	// an indication for a campaign whose runs were all contended, never a
	// verdict. NaN when CPUGames is 0.
	CPUGeoMean float64
	CPUGames   int
}

// Summarize aggregates games, naming the sides a and b in the reasons.
func Summarize(games []PairGame, a, b string) PairSummary {
	s := PairSummary{Games: len(games), Median: math.NaN(), GeoMean: math.NaN(), SumRatio: math.NaN(), GeoLo: math.NaN(), GeoHi: math.NaN(), CPUGeoMean: math.NaN()}
	excl := map[Outcome][]string{}
	var sumA, sumB, cpuLogs float64
	for i := range games {
		g := &games[i]
		s.Tests = max(s.Tests, g.Tests)
		if g.A != nil && g.B != nil && !g.Outcome.Wrong() && g.A.AnyCPURate > 0 && g.B.AnyCPURate > 0 {
			cpuLogs += math.Log(g.A.AnyCPURate / g.B.AnyCPURate)
			s.CPUGames++
		}
		if g.A != nil {
			s.ContendedA += len(g.A.Contended)
		}
		if g.B != nil {
			s.ContendedB += len(g.B.Contended)
		}
		if g.A != nil && g.A.Measured() && g.A.Failed() > 0 {
			s.PartialFailuresA++
		}
		if g.B != nil && g.B.Measured() && g.B.Failed() > 0 {
			s.PartialFailuresB++
		}
		switch g.Outcome {
		case FailA:
			s.OnlyAFailed = append(s.OnlyAFailed, g.Game)
		case FailB:
			s.OnlyBFailed = append(s.OnlyBFailed, g.Game)
		case FailBoth:
			s.BothFailed = append(s.BothFailed, g.Game)
		}
		if g.A.Measured() && g.B.Measured() && !g.Outcome.Wrong() && g.Outcome != TreeBound {
			ca, cb := g.A.Rate.Center, g.B.Rate.Center
			switch {
			case ca > cb:
				s.Wins++
			case ca < cb:
				s.Losses++
			default:
				s.Ties++
			}
			switch g.Sign {
			case 1:
				s.SigWins++
			case -1:
				s.SigLosses++
			}
			if !g.Testable {
				s.Untestable++
			}
		}
		if g.Outcome != Compared {
			excl[g.Outcome] = append(excl[g.Outcome], g.Game)
			s.ExcludedGames++
			continue
		}
		s.Compared++
		s.ComparedRatios = append(s.ComparedRatios, g.Ratio)
		sumA += g.A.Rate.Center
		sumB += g.B.Rate.Center
	}
	for _, o := range exclusionOrder {
		if gs := excl[o]; len(gs) > 0 {
			s.Excluded = append(s.Excluded, Exclusion{Outcome: o, Reason: o.Describe(a, b), Games: gs})
		}
	}
	if s.CPUGames > 0 {
		s.CPUGeoMean = math.Exp(cpuLogs / float64(s.CPUGames))
	}
	if s.Compared > 0 {
		s.Median = median(slices.Clone(s.ComparedRatios))
		slices.Sort(s.ComparedRatios)
		s.GeoMean, s.GeoLo, s.GeoHi = geoMeanCI(s.ComparedRatios, Confidence)
		s.SumRatio = sumA / sumB
		s.Overall = s.OverallBeyond(0)
	}
	return s
}

// OverallBeyond is the verdict on the geometric mean beyond a noise
// allowance: +1 when its interval lies above 1+noise, -1 when below
// 1-noise, 0 otherwise.
func (s PairSummary) OverallBeyond(noise float64) int {
	switch {
	case math.IsNaN(s.GeoLo) || math.IsNaN(s.GeoHi):
		return 0
	case s.GeoLo > 1+noise:
		return 1
	case s.GeoHi < 1-noise:
		return -1
	}
	return 0
}

// Pair is the comparison of A against B on one machine, game by game.
type Pair struct {
	Group   *Group
	A, B    Version
	Games   []PairGame // by game key
	Summary PairSummary
}

// ComparePair compares a against b on the games either ran on m.
func ComparePair(m *Group, a, b Version) *Pair {
	p := &Pair{Group: m, A: a, B: b}
	for _, game := range m.Games {
		ca, cb := m.Cell(game, a), m.Cell(game, b)
		if ca == nil && cb == nil {
			continue
		}
		p.Games = append(p.Games, compareCells(game, ca, cb))
	}
	adjust(p.Games)
	p.Summary = Summarize(p.Games, a.String(), b.String())
	return p
}
