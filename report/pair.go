package report

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Outcome classifies one game of a comparison of A against B.
type Outcome int

// Outcomes, in the order they are listed.
const (
	Compared  Outcome = iota // both ran ok with state changes > 0: a finite, positive ratio
	ZeroA                    // A ran ok but made no state change (ratio 0)
	ZeroB                    // B ran ok but made no state change (ratio infinite)
	ZeroBoth                 // neither made a state change
	FailA                    // every run of A failed; B ran ok
	FailB                    // every run of B failed; A ran ok
	FailBoth                 // every run of both failed
	OnlyA                    // B did not run the game
	OnlyB                    // A did not run the game
	WrongA                   // A disagreed with the reference on the game (Cell.Wrong)
	WrongB                   // B disagreed with the reference
	WrongBoth                // both disagreed
)

// exclusionOrder is the order in which excluded games are listed: wrong
// answers first.
var exclusionOrder = []Outcome{WrongA, WrongB, WrongBoth, ZeroA, ZeroB, ZeroBoth, FailA, FailB, FailBoth, OnlyA, OnlyB}

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
	// Lo and Hi bound the ratio: [loA/hiB, hiA/loB] from the two 95%
	// intervals. Infinite (Lo 0, Hi +Inf) when an interval is: fewer than 6
	// runs on a side.
	Lo, Hi float64
	// Cmp is the Mann-Whitney U test of A's rates against B's (when both
	// are Measured).
	Cmp benchmath.Comparison
	// Sign is +1 when A is significantly faster (p < alpha), -1 when
	// significantly slower, 0 otherwise.
	Sign int
	// Testable says whether the sides had enough runs for the U test to
	// reach significance at all.
	Testable bool
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
	}
	g.Lo, g.Hi = ratioInterval(a.Rate, b.Rate)
	g.Cmp = benchmath.AssumeNothing.Compare(b.sample, a.sample)
	g.Testable = testable(g.Cmp)
	if g.Cmp.P < g.Cmp.Alpha && ca != cb {
		g.Sign = 1
		if ca < cb {
			g.Sign = -1
		}
	}
	return g
}

// testable says whether samples of these sizes can give a p-value below
// alpha at all: the smallest two-sided p of the exact U test is
// 2 / C(n1+n2, n1), reached when the samples do not overlap (benchmath
// warns when it exceeds alpha).
func testable(c benchmath.Comparison) bool {
	if c.N1 == 0 || c.N2 == 0 {
		return false
	}
	ways := 1.0 // C(n1+n2, n1)
	for i := 1; i <= c.N1; i++ {
		ways = ways * float64(c.N2+i) / float64(i)
	}
	return 2/ways <= c.Alpha
}

// ratioInterval is the conservative interval of a/b from the two intervals.
func ratioInterval(a, b benchmath.Summary) (lo, hi float64) {
	if !finite(a.Lo) || !finite(a.Hi) || !finite(b.Lo) || !finite(b.Hi) {
		return 0, math.Inf(1)
	}
	lo, hi = 0, math.Inf(1)
	if b.Hi > 0 {
		lo = max(a.Lo, 0) / b.Hi
	}
	if b.Lo > 0 {
		hi = a.Hi / b.Lo
	}
	return lo, hi
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
}

// Summarize aggregates games, naming the sides a and b in the reasons.
func Summarize(games []PairGame, a, b string) PairSummary {
	s := PairSummary{Games: len(games), Median: math.NaN(), GeoMean: math.NaN(), SumRatio: math.NaN()}
	excl := map[Outcome][]string{}
	var sumA, sumB, sumLog float64
	for i := range games {
		g := &games[i]
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
		if g.A.Measured() && g.B.Measured() && !g.Outcome.Wrong() {
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
		sumLog += math.Log(g.Ratio)
	}
	for _, o := range exclusionOrder {
		if gs := excl[o]; len(gs) > 0 {
			s.Excluded = append(s.Excluded, Exclusion{Outcome: o, Reason: o.Describe(a, b), Games: gs})
		}
	}
	if s.Compared > 0 {
		s.Median = median(slices.Clone(s.ComparedRatios))
		slices.Sort(s.ComparedRatios)
		s.GeoMean = math.Exp(sumLog / float64(s.Compared))
		s.SumRatio = sumA / sumB
	}
	return s
}

// Pair is the comparison of A against B on one machine, game by game.
type Pair struct {
	Machine *Machine
	A, B    Version
	Games   []PairGame // by game key
	Summary PairSummary
}

// ComparePair compares a against b on the games either ran on m.
func ComparePair(m *Machine, a, b Version) *Pair {
	p := &Pair{Machine: m, A: a, B: b}
	for _, game := range m.Games {
		ca, cb := m.Cell(game, a), m.Cell(game, b)
		if ca == nil && cb == nil {
			continue
		}
		p.Games = append(p.Games, compareCells(game, ca, cb))
	}
	p.Summary = Summarize(p.Games, a.String(), b.String())
	return p
}
