package report

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/aclements/go-moremath/stats"
)

// This file holds the statistics beyond benchmath's: the interval of a
// ratio that agrees with the U test, the adjustment of many tests, the
// interval of a geometric mean and the number of runs a verdict needs.

// exactU is the largest sample size for which the null distribution of the
// U statistic is computed exactly; above it, the normal approximation is
// used (as go-moremath's MannWhitneyUTest does above 50).
const exactU = 50

// uCache holds the null CDFs of U by sample sizes.
var uCache sync.Map

// uCDF returns the null distribution of the Mann–Whitney U statistic for
// samples of n1 and n2 values without ties: cdf[u] = P(U <= u), u from 0 to
// n1*n2. The counts of arrangements with U = u follow the recurrence of
// Mann and Whitney (1947), c(n, m, u) = c(n-1, m, u-m) + c(n, m-1, u).
func uCDF(n1, n2 int) []float64 {
	if n1 > n2 {
		n1, n2 = n2, n1
	}
	type key struct{ n1, n2 int }
	if v, ok := uCache.Load(key{n1, n2}); ok {
		return v.([]float64)
	}
	size := n1*n2 + 1
	// rows[n][u] = c(n, m, u) for the current m.
	rows := make([][]float64, n1+1)
	for n := range rows {
		rows[n] = make([]float64, size)
	}
	for n := range rows {
		rows[n][0] = 1 // c(n, 0, 0): n values and none of the other sample
	}
	for m := 1; m <= n2; m++ {
		for n := 1; n <= n1; n++ {
			// c(n, m, u) = c(n-1, m, u-m) + c(n, m-1, u); rows[n] holds
			// c(n, m-1, .) and rows[n-1] already c(n-1, m, .).
			for u := n * m; u >= m; u-- {
				rows[n][u] += rows[n-1][u-m]
			}
		}
	}
	counts := rows[n1]
	total := 0.0
	for _, c := range counts {
		total += c
	}
	cdf := make([]float64, size)
	sum := 0.0
	for u, c := range counts {
		sum += c
		cdf[u] = sum / total
	}
	uCache.Store(key{n1, n2}, cdf)
	return cdf
}

// minP is the smallest two-sided p-value the exact U test can give for
// samples of n1 and n2 values: 2 / C(n1+n2, n1), reached when they do not
// overlap. benchmath's test is the exact one for samples this small.
func minP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	ways := 1.0 // C(n1+n2, n1)
	for i := 1; i <= n1; i++ {
		ways = ways * float64(n2+i) / float64(i)
	}
	return min(1, 2/ways)
}

// canReject says whether samples of n1 and n2 values can give a p-value
// below alpha at all, when it is adjusted (holm) over tests tests: the
// smallest p-value is multiplied by tests.
func canReject(n1, n2 int, alpha float64, tests int) bool {
	return minP(n1, n2)*float64(max(tests, 1)) < alpha
}

// RunsNeeded is the smallest number of ok runs per side (the same on both
// sides) with which the U test can reach p < alpha after the adjustment
// over tests games: 4 for one game at alpha 0.05 (3 and 3 give at best
// p = 0.1, 4 and 4 p = 0.029), 6 for 20 games, 9 for 700.
func RunsNeeded(alpha float64, tests int) int {
	for n := 1; ; n++ {
		if canReject(n, n, alpha, tests) {
			return n
		}
	}
}

// ratioCI is the distribution-free confidence interval of the ratio of a's
// rates over b's that inverts the Mann–Whitney U test (Moses 1953, the
// interval of the Hodges–Lehmann estimate; Hollander and Wolfe,
// "Nonparametric Statistical Methods", §4.3): of the n1·n2 pairwise ratios
// a_i / b_j in order, it runs from the k-th to the (n1·n2+1-k)-th, where k
// is the largest rank with P(U < k) <= (1-confidence)/2 under the null. It
// excludes 1 exactly when the exact U test (without ties) rejects equality
// at alpha = 1-confidence: the verdicts and the intervals shown agree. It
// is unbounded, (0, +Inf), when the samples are too small for any k.
func ratioCI(a, b []float64, confidence float64) (lo, hi float64) {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 0, math.Inf(1)
	}
	tail := (1 - confidence) / 2
	k := 0 // P(U <= k-1) < tail
	if n1 <= exactU && n2 <= exactU {
		cdf := uCDF(n1, n2)
		for k < len(cdf) && cdf[k] < tail {
			k++
		}
	} else {
		// Normal approximation with continuity correction.
		mean := float64(n1*n2) / 2
		sd := math.Sqrt(float64(n1*n2*(n1+n2+1)) / 12)
		z := stats.NormalDist{Mu: 0, Sigma: 1}.InvCDF(1 - tail)
		k = int(math.Floor(mean - z*sd + 0.5))
	}
	if k < 1 {
		return 0, math.Inf(1)
	}
	ratios := make([]float64, 0, n1*n2)
	for _, x := range a {
		for _, y := range b {
			switch {
			case y > 0:
				ratios = append(ratios, x/y)
			case x > 0:
				ratios = append(ratios, math.Inf(1))
			default:
				ratios = append(ratios, 1) // both 0: no difference
			}
		}
	}
	slices.Sort(ratios)
	return ratios[k-1], ratios[len(ratios)-k]
}

// holm adjusts the p-values ps for testing them all (Holm 1979, the
// step-down Bonferroni method): the i-th smallest is multiplied by m-i+1
// (m the number of tests, i from 1), made no smaller than the adjusted
// p-values before it, and capped at 1. Rejecting where the adjusted value
// is below alpha keeps the chance of any false verdict among the m tests
// at alpha or below. NaN entries are no tests: they stay NaN and do not
// count in m.
func holm(ps []float64) []float64 {
	out := make([]float64, len(ps))
	var idx []int
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(ps[x], ps[y]) })
	m, running := len(idx), 0.0
	for rank, i := range idx {
		running = max(running, min(1, float64(m-rank)*ps[i]))
		out[i] = running
	}
	return out
}

// geoMeanCI is the geometric mean of positive ratios with its confidence
// interval: the Student t interval of the mean of their logarithms (the
// games taken as a sample of games), exponentiated. NaN bounds with fewer
// than two ratios.
func geoMeanCI(ratios []float64, confidence float64) (gm, lo, hi float64) {
	n := len(ratios)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean := 0.0
	for _, r := range ratios {
		mean += math.Log(r)
	}
	mean /= float64(n)
	gm = math.Exp(mean)
	if n < 2 {
		return gm, math.NaN(), math.NaN()
	}
	ss := 0.0
	for _, r := range ratios {
		d := math.Log(r) - mean
		ss += d * d
	}
	se := math.Sqrt(ss / float64(n-1) / float64(n))
	t := tQuantile(float64(n-1), 1-(1-confidence)/2)
	return gm, math.Exp(mean - t*se), math.Exp(mean + t*se)
}

// tQuantile inverts the CDF of Student's t with v degrees of freedom by
// bisection.
func tQuantile(v, p float64) float64 {
	d := stats.TDist{V: v}
	lo, hi := 0.0, 1.0
	for d.CDF(hi) < p {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if d.CDF(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
