package report

// Sequential A/B testing of two versions of one engine (gdlperf ab).
//
// The data of one game are pairs of runs, one of each version, with the same
// seed and in the same round; the sample is the log ratio of their costs,
// d = log(new/old) (milliseconds for the same fixed work, or milliseconds
// per state change in time mode), so d > 0 is a slow-down. Pairs are added
// in looks of PerLook pairs up to MaxPairs; after every look a two-sided
// one-sample t-test of "mean d = 0" is made on all the pairs so far.
//
// Repeated looks at a growing sample inflate false alarms: a rule that stops
// as soon as p < 0.05 says "changed" for an unchanged engine about 14% of the
// time over five looks. The design is therefore a group-sequential test with
// an alpha-spending function (Lan & DeMets 1983): the level a of a game is
// spent over its looks, look k (information fraction t_k = n_k/MaxPairs) may
// reject at the level Δ_k = a·(f(t_k) − f(t_{k−1})), with f the Pocock-type
// spending function f(t) = ln(1 + (e − 1)·t) (default: most of the level is
// available early, so a large change stops after the first look) or the
// O'Brien-Fleming-type f(t) = 2 − 2Φ(z_{1−a/2}/√t) / a (little early, most
// at the end). The looks are combined with the union bound (Bonferroni over
// looks) instead of the joint normal law of the looks' statistics: every
// look's t-test is exact for normal d whatever the other looks did, so the
// chance of any false rejection is at most ΣΔ_k = a with no approximation
// for small samples (the price is a slightly wider boundary than the
// Armitage-McPherson-Rowe recursion gives; the true rate is below a).
// Equivalently, each look k has a repeated confidence interval (Jennison &
// Turnbull 1989, §9) at level 1 − Δ_k, and all of them, over all looks,
// cover the true ratio together with probability at least 1 − a.
//
// Several games form one family: the level of each game is a = Alpha/Games
// (Bonferroni), so the chance that any game of an unchanged engine gets a
// "slower" or "faster" verdict is at most Alpha. Holm's step-down procedure
// is not used: its levels change when other games are decided, which would
// make one game's stopping depend on the others and the intervals would no
// longer be one simultaneous family.
//
// Verdicts at a look, with L = log(1 + Threshold):
//   - slower: the look's test rejects (its interval lies above ratio 1) and
//     the estimated ratio is at least 1 + Threshold;
//   - faster: the same below 1/(1 + Threshold);
//   - same: the interval lies within (1/(1 + Threshold), 1 + Threshold): any
//     change is smaller than the threshold (this stops the game early; it is
//     the equivalence half of the design and costs no false alarms);
//   - otherwise undecided: more pairs, or inconclusive after the last look.
//
// Stopping for "same" or for a verdict only ever drops later looks, which
// cannot add a false rejection, so the bound holds for the whole procedure.

import (
	"errors"
	"fmt"
	"math"
	"sync"
)

// Spending functions of a SeqDesign.
const (
	SpendPocock = "pocock"
	SpendOBF    = "obf"
)

// SeqVerdict is the sequential test's verdict on one game.
type SeqVerdict string

// Sequential verdicts.
const (
	SeqUndecided    SeqVerdict = "undecided"    // more pairs needed (not after the last look)
	SeqSlower       SeqVerdict = "slower"       // a regression beyond the threshold
	SeqFaster       SeqVerdict = "faster"       // an improvement beyond the threshold
	SeqSame         SeqVerdict = "same"         // any change is within the threshold
	SeqInconclusive SeqVerdict = "inconclusive" // the budget ran out undecided
)

// SeqDesign is a group-sequential test of paired log ratios; see the
// comment at the top of this file.
type SeqDesign struct {
	Alpha     float64 // family-wise two-sided level (0.05)
	Threshold float64 // smallest relative change that matters (0.05 for 5%)
	PerLook   int     // pairs added per look (at least 2)
	MaxPairs  int     // the budget: pairs per game at most (at least PerLook)
	Games     int     // tests in the family (Bonferroni); at least 1
	Spending  string  // SpendPocock (default, "") or SpendOBF
}

// Validate checks the design's numbers.
func (d SeqDesign) Validate() error {
	switch {
	case !(d.Alpha > 0 && d.Alpha < 1):
		return fmt.Errorf("alpha %g is not between 0 and 1 (0.05 is usual)", d.Alpha)
	case !(d.Threshold >= 0 && d.Threshold < 10):
		return fmt.Errorf("threshold %g is not a relative change from 0 to 10 (0.05 for 5%%)", d.Threshold)
	case d.PerLook < 2:
		return fmt.Errorf("%d pairs per look is too few: a t-test needs at least 2", d.PerLook)
	case d.MaxPairs < d.PerLook:
		return fmt.Errorf("a budget of %d pairs is less than one look of %d", d.MaxPairs, d.PerLook)
	case d.Games < 1:
		return fmt.Errorf("a family of %d games: at least 1", d.Games)
	case d.Spending != "" && d.Spending != SpendPocock && d.Spending != SpendOBF:
		return fmt.Errorf("spending function %q is not %s or %s", d.Spending, SpendPocock, SpendOBF)
	}
	return nil
}

// Looks is the number of looks: MaxPairs/PerLook rounded up.
func (d SeqDesign) Looks() int { return (d.MaxPairs + d.PerLook - 1) / d.PerLook }

// PairsAt is the number of pairs at look k (1-based).
func (d SeqDesign) PairsAt(k int) int { return min(k*d.PerLook, d.MaxPairs) }

// GameAlpha is the level of one game: Alpha/Games.
func (d SeqDesign) GameAlpha() float64 { return d.Alpha / float64(max(d.Games, 1)) }

// spent is the level spent by information fraction t in [0, 1].
func (d SeqDesign) spent(t float64) float64 {
	a := d.GameAlpha()
	if t <= 0 {
		return 0
	}
	if t >= 1 {
		return a
	}
	if d.Spending == SpendOBF {
		z := normalQuantile(1 - a/2)
		return math.Min(a, math.Erfc(z/math.Sqrt(t)/math.Sqrt2))
	}
	return a * math.Log(1+(math.E-1)*t)
}

// LookLevel is Δ_k, the two-sided level at which look k may reject.
func (d SeqDesign) LookLevel(k int) float64 {
	n := float64(d.MaxPairs)
	return d.spent(float64(d.PairsAt(k))/n) - d.spent(float64(d.PairsAt(k-1))/n)
}

// SeqLook is the test at one look.
type SeqLook struct {
	Look, Looks int
	Pairs       int
	Mean, SD    float64 // of the log ratios
	Ratio       float64 // exp(Mean): the geometric mean of new/old
	Lo, Hi      float64 // the repeated confidence interval of the ratio at this look
	P           float64 // two-sided p-value of the look's t-test
	Level       float64 // the level the look may reject at (Δ_k)
	Verdict     SeqVerdict
}

// Decide tests the log ratios of look k (1-based; len(logRatios) pairs,
// normally PairsAt(k)). At the last look an undecided game is inconclusive.
func (d SeqDesign) Decide(k int, logRatios []float64) (SeqLook, error) {
	if err := d.Validate(); err != nil {
		return SeqLook{}, err
	}
	K := d.Looks()
	if k < 1 || k > K {
		return SeqLook{}, fmt.Errorf("look %d is not one of the design's %d", k, K)
	}
	n := len(logRatios)
	if n < 2 {
		return SeqLook{}, errors.New("a look needs at least 2 pairs")
	}
	l := SeqLook{Look: k, Looks: K, Pairs: n, Level: d.LookLevel(k)}
	l.Mean, l.SD = meanSD(logRatios)
	se := l.SD / math.Sqrt(float64(n))
	df := float64(n - 1)
	half := 0.0
	switch {
	case se > 0:
		l.P = tTwoSided(math.Abs(l.Mean)/se, df)
		half = tQuantileTwoSided(l.Level, df) * se
	case l.Mean != 0:
		l.P = 0
	default:
		l.P = 1
	}
	l.Ratio = math.Exp(l.Mean)
	l.Lo, l.Hi = math.Exp(l.Mean-half), math.Exp(l.Mean+half)
	L := math.Log1p(d.Threshold)
	sig := l.P <= l.Level && half < math.Abs(l.Mean)
	switch {
	case sig && l.Mean > 0 && l.Mean >= L:
		l.Verdict = SeqSlower
	case sig && l.Mean < 0 && -l.Mean >= L:
		l.Verdict = SeqFaster
	case l.Mean+half < L && l.Mean-half > -L:
		l.Verdict = SeqSame
	case k == K:
		l.Verdict = SeqInconclusive
	default:
		l.Verdict = SeqUndecided
	}
	return l, nil
}

// SeqTest is the sequential test of one game as it runs: pairs are added
// with Add until Need is 0, then Next makes the look; after a look whose
// verdict is not SeqUndecided the test is Done.
type SeqTest struct {
	Design SeqDesign
	Logs   []float64 // the log ratios so far
	Last   SeqLook   // the latest look (Look 0 before the first)
	Done   bool
}

// Need is the number of pairs to add before the next look (0 when the look
// can be made, or the test is done).
func (s *SeqTest) Need() int {
	if s.Done {
		return 0
	}
	return max(0, s.Design.PairsAt(s.Last.Look+1)-len(s.Logs))
}

// Add adds the log ratio log(new/old) of one pair.
func (s *SeqTest) Add(logRatio float64) { s.Logs = append(s.Logs, logRatio) }

// Next makes the next look on the pairs so far.
func (s *SeqTest) Next() (SeqLook, error) {
	if s.Done {
		return s.Last, errors.New("the test is done")
	}
	if n := s.Need(); n > 0 {
		return s.Last, fmt.Errorf("look %d needs %d more pairs", s.Last.Look+1, n)
	}
	l, err := s.Design.Decide(s.Last.Look+1, s.Logs)
	if err != nil {
		return s.Last, err
	}
	s.Last = l
	s.Done = l.Verdict != SeqUndecided
	return l, nil
}

// PairsNeeded estimates the budget (MaxPairs, a multiple of PerLook) with
// which a game whose log ratios have the given mean and standard deviation
// would be decided at the last look: the smallest budget whose last look,
// with these figures, gives a verdict. ok is false when no budget up to
// limit does (a change right at the threshold, or no spread estimate).
func (d SeqDesign) PairsNeeded(mean, sd float64, limit int) (int, bool) {
	decidedWith := func(maxPairs int) bool {
		e := d
		e.MaxPairs = maxPairs
		logs := sampleWith(mean, sd, maxPairs)
		l, err := e.Decide(e.Looks(), logs)
		return err == nil && l.Verdict != SeqInconclusive && l.Verdict != SeqUndecided
	}
	step := d.PerLook
	lo := (d.MaxPairs/step + 1) * step
	if lo > limit {
		return 0, false
	}
	// Double until decided, then search back: decisions grow with the budget
	// but for the small wobble of the last look's level.
	hi := lo
	for !decidedWith(hi) {
		if hi >= limit {
			return 0, false
		}
		hi = min(2*hi, limit/step*step)
	}
	for hi-lo > step {
		mid := (lo + hi) / 2 / step * step
		if mid <= lo {
			break
		}
		if decidedWith(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if decidedWith(lo) {
		return lo, true
	}
	return hi, true
}

// sampleWith is n values with exactly the given mean and (sample) standard
// deviation: mean ± sd·√((n−1)/n), alternating (the last one the mean when n
// is odd, the spread then adjusted).
func sampleWith(mean, sd float64, n int) []float64 {
	out := make([]float64, n)
	m := n / 2 * 2
	if m == 0 {
		out[0] = mean
		return out
	}
	// m values at mean ± c and n−m at the mean: sample variance m·c²/(n−1).
	c := sd * math.Sqrt(float64(n-1)/float64(m))
	for i := range out {
		switch {
		case i >= m:
			out[i] = mean
		case i%2 == 0:
			out[i] = mean + c
		default:
			out[i] = mean - c
		}
	}
	return out
}

func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// GeoMeanRatio combines the looks of several games into the geometric mean
// ratio over them, with a normal-approximation 95% interval from the games'
// standard errors (descriptive: the per-game verdicts carry the error
// control).
func GeoMeanRatio(looks []SeqLook) (ratio, lo, hi float64, ok bool) {
	if len(looks) == 0 {
		return 0, 0, 0, false
	}
	var sum, v float64
	for _, l := range looks {
		sum += l.Mean
		if l.Pairs > 0 {
			v += l.SD * l.SD / float64(l.Pairs)
		}
	}
	g := float64(len(looks))
	m, se := sum/g, math.Sqrt(v)/g
	return math.Exp(m), math.Exp(m - 1.959963984540054*se), math.Exp(m + 1.959963984540054*se), true
}

// tTwoSided is P(|T| >= t) for Student's t with df degrees of freedom:
// I_{df/(df+t²)}(df/2, 1/2).
func tTwoSided(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	return regIncBeta(df/2, 0.5, df/(df+t*t))
}

type tKey struct{ p, df float64 }

// tQuantiles memoises tQuantileTwoSided: a design asks for the same few
// levels and degrees of freedom again and again.
var tQuantiles sync.Map

// tQuantileTwoSided is the t with P(|T| >= t) = p.
func tQuantileTwoSided(p, df float64) float64 {
	if v, ok := tQuantiles.Load(tKey{p, df}); ok {
		return v.(float64)
	}
	t := tQuantileSearch(p, df)
	tQuantiles.Store(tKey{p, df}, t)
	return t
}

func tQuantileSearch(p, df float64) float64 {
	if p >= 1 {
		return 0
	}
	if p <= 0 {
		return math.Inf(1)
	}
	lo, hi := 0.0, 1.0
	for tTwoSided(hi, df) > p {
		lo, hi = hi, hi*2
		if hi > 1e12 {
			return math.Inf(1)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if tTwoSided(mid, df) > p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// normalQuantile is Φ⁻¹(p) for p in (0, 1), by bisection on erfc.
func normalQuantile(p float64) float64 {
	lo, hi := -40.0, 40.0
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(-mid/math.Sqrt2) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (§6.4) with the modified Lentz
// method.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		aa := fm * (b - fm) * x / ((qam + 2*fm) * (a + 2*fm))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + 2*fm) * (qap + 2*fm))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
