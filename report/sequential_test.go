package report

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStudentT(t *testing.T) {
	tests := []struct {
		name  string
		t, df float64
		wantP float64
	}{
		{"df 1", 12.7062047, 1, 0.05},
		{"df 2", 4.30265273, 2, 0.05},
		{"df 10", 2.22813885, 10, 0.05},
		{"df 10 at 1%", 3.16927267, 10, 0.01},
		{"df 30", 2.04227246, 30, 0.05},
		{"large df is normal", 1.95996398, 1e7, 0.05},
		{"zero", 0, 5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.wantP, tTwoSided(tt.t, tt.df), 1e-6)
			if tt.t > 0 {
				assert.InDelta(t, tt.t, tQuantileTwoSided(tt.wantP, tt.df), 1e-5*tt.t)
			}
		})
	}
	assert.InDelta(t, 1.959963985, normalQuantile(0.975), 1e-8)
	assert.InDelta(t, -2.326347874, normalQuantile(0.01), 1e-8)
}

func TestSeqDesignLevels(t *testing.T) {
	for _, spending := range []string{SpendPocock, SpendOBF} {
		t.Run(spending, func(t *testing.T) {
			d := SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 3, MaxPairs: 15, Games: 2, Spending: spending}
			require.NoError(t, d.Validate())
			require.Equal(t, 5, d.Looks())
			sum := 0.0
			for k := 1; k <= d.Looks(); k++ {
				lv := d.LookLevel(k)
				assert.Positive(t, lv, "look %d", k)
				sum += lv
			}
			assert.InDelta(t, 0.025, sum, 1e-12, "the levels of the looks spend the game's alpha exactly")
		})
	}
	pocock := SeqDesign{Alpha: 0.05, PerLook: 3, MaxPairs: 15, Games: 1}
	obf := pocock
	obf.Spending = SpendOBF
	assert.Greater(t, pocock.LookLevel(1), 100*obf.LookLevel(1), "Pocock spends early, O'Brien-Fleming late")
	assert.Less(t, pocock.LookLevel(5), obf.LookLevel(5))
	// A budget that is not a multiple of the look: the last look is short.
	short := SeqDesign{Alpha: 0.05, PerLook: 4, MaxPairs: 10, Games: 1}
	assert.Equal(t, 3, short.Looks())
	assert.Equal(t, 10, short.PairsAt(3))
}

func TestSeqDesignValidate(t *testing.T) {
	ok := SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 3, MaxPairs: 15, Games: 1}
	tests := []struct {
		name    string
		change  func(*SeqDesign)
		wantErr string
	}{
		{"alpha", func(d *SeqDesign) { d.Alpha = 1.5 }, "alpha 1.5"},
		{"threshold", func(d *SeqDesign) { d.Threshold = -1 }, "threshold -1"},
		{"one pair per look", func(d *SeqDesign) { d.PerLook = 1 }, "at least 2"},
		{"budget below a look", func(d *SeqDesign) { d.MaxPairs = 2 }, "budget of 2 pairs"},
		{"no games", func(d *SeqDesign) { d.Games = 0 }, "0 games"},
		{"spending", func(d *SeqDesign) { d.Spending = "linear" }, `"linear"`},
	}
	require.NoError(t, ok.Validate())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ok
			tt.change(&d)
			err := d.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestSeqDecide(t *testing.T) {
	d := SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 3, MaxPairs: 9, Games: 1}
	slow := math.Log(1.3)
	tests := []struct {
		name        string
		look        int
		logs        []float64
		wantVerdict SeqVerdict
	}{
		{"a clear slow-down", 1, []float64{slow + 0.01, slow - 0.01, slow}, SeqSlower},
		{"a clear speed-up", 1, []float64{-slow + 0.01, -slow - 0.01, -slow}, SeqFaster},
		{"unchanged and tight", 1, []float64{0.001, -0.002, 0.0005}, SeqSame},
		{"identical figures", 1, []float64{0, 0, 0}, SeqSame},
		{"noisy", 1, []float64{0.1, -0.08, 0.03}, SeqUndecided},
		{"noisy at the last look", 3, []float64{0.1, -0.08, 0.03, 0.12, -0.1, 0.05, 0.09, -0.11, 0.02}, SeqInconclusive},
		{"significant but under the threshold, tight", 1, []float64{0.02, 0.021, 0.019}, SeqSame},
		{"significant but under the threshold, wide", 2, []float64{0.02, 0.06, 0.03, 0.05, 0.015, 0.065}, SeqUndecided},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := d.Decide(tt.look, tt.logs)
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerdict, l.Verdict, "%+v", l)
			assert.LessOrEqual(t, l.Lo, l.Ratio)
			assert.GreaterOrEqual(t, l.Hi, l.Ratio)
			if l.Verdict == SeqSlower {
				assert.Greater(t, l.Lo, 1.0, "a regression's interval lies above 1")
			}
		})
	}
	_, err := d.Decide(4, []float64{1, 2})
	assert.ErrorContains(t, err, "look 4")
	_, err = d.Decide(1, []float64{1})
	assert.ErrorContains(t, err, "at least 2 pairs")
}

func TestSeqTestSteps(t *testing.T) {
	s := &SeqTest{Design: SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 2, MaxPairs: 4, Games: 1}}
	assert.Equal(t, 2, s.Need())
	_, err := s.Next()
	assert.ErrorContains(t, err, "needs 2 more pairs")
	s.Add(0.1)
	s.Add(-0.1)
	l, err := s.Next()
	require.NoError(t, err)
	assert.Equal(t, SeqUndecided, l.Verdict)
	assert.False(t, s.Done)
	assert.Equal(t, 2, s.Need())
	s.Add(0.12)
	s.Add(-0.09)
	l, err = s.Next()
	require.NoError(t, err)
	assert.Equal(t, SeqInconclusive, l.Verdict)
	assert.True(t, s.Done)
	assert.Equal(t, 0, s.Need())
	_, err = s.Next()
	assert.Error(t, err)
}

// runSeq runs the real sequential procedure (SeqTest, as gdlperf ab does)
// on one game whose pairs come from draw, and returns its final look.
func runSeq(t *testing.T, d SeqDesign, draw func() float64) SeqLook {
	s := &SeqTest{Design: d}
	for !s.Done {
		for s.Need() > 0 {
			s.Add(draw())
		}
		_, err := s.Next()
		require.NoError(t, err)
	}
	return s.Last
}

// noise draws log ratios of two runs from one distribution: the log of
// each run's time is normal, and with probability outlier a run is
// 1.5 to 3 times slower (an interruption), on either side.
func noise(rng *rand.Rand, sd, outlier float64) func() float64 {
	run := func() float64 {
		x := rng.NormFloat64() * sd
		if rng.Float64() < outlier {
			x += math.Log(1.5 + 1.5*rng.Float64())
		}
		return x
	}
	return func() float64 { return run() - run() }
}

// TestSeqFalseAlarms shows the design's false-alarm rate on an unchanged
// engine: 2,000 replications of the whole sequential procedure (5 looks,
// stopping early when it may) on pairs drawn from one distribution. With
// no threshold every look can reject, the hardest case for the bound; the
// rate must stay at alpha (plus the simulation's own error).
func TestSeqFalseAlarms(t *testing.T) {
	const reps = 2000
	tests := []struct {
		name      string
		threshold float64
		games     int
		sd        float64
		outlier   float64
		perLook   int
		spending  string
	}{
		{"normal, no threshold", 0, 1, 0.03, 0, 3, SpendPocock},
		{"outliers, no threshold", 0, 1, 0.03, 0.1, 3, SpendPocock},
		{"normal, 5% threshold", 0.05, 1, 0.03, 0, 3, SpendPocock},
		{"three games, family-wise", 0, 3, 0.03, 0, 3, SpendPocock},
		{"looks of 5, the ab default", 0, 1, 0.03, 0, 5, SpendPocock},
		{"O'Brien-Fleming", 0, 1, 0.03, 0, 3, SpendOBF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := SeqDesign{Alpha: 0.05, Threshold: tt.threshold, PerLook: tt.perLook, MaxPairs: 5 * tt.perLook, Games: tt.games, Spending: tt.spending}
			rng := rand.New(rand.NewPCG(7, 11))
			alarms := 0
			for range reps {
				// A family of tt.games games: an alarm is any game called changed.
				alarm := false
				for range tt.games {
					v := runSeq(t, d, noise(rng, tt.sd, tt.outlier)).Verdict
					alarm = alarm || v == SeqSlower || v == SeqFaster
				}
				if alarm {
					alarms++
				}
			}
			rate := float64(alarms) / reps
			t.Logf("false-alarm rate %.4f over %d replications", rate, reps)
			// Binomial error of 2,000 draws at 5% is 0.5%: 1.5% is 3 of them.
			assert.LessOrEqual(t, rate, d.Alpha+0.015)
		})
	}
}

// TestSeqNaiveLooksInflate is the reason for the design: stopping at the
// first look whose plain t-test has p < 0.05 calls an unchanged engine
// changed far more often than 5% of the time.
func TestSeqNaiveLooksInflate(t *testing.T) {
	const reps = 2000
	rng := rand.New(rand.NewPCG(3, 5))
	alarms := 0
	for range reps {
		draw := noise(rng, 0.03, 0)
		var logs []float64
		for k := 1; k <= 5; k++ {
			for len(logs) < 3*k {
				logs = append(logs, draw())
			}
			m, sd := meanSD(logs)
			if tTwoSided(math.Abs(m)/(sd/math.Sqrt(float64(len(logs)))), float64(len(logs)-1)) < 0.05 {
				alarms++
				break
			}
		}
	}
	rate := float64(alarms) / reps
	t.Logf("naive rate %.4f", rate)
	assert.Greater(t, rate, 0.1)
}

// TestSeqPower: a 30% slow-down is found, on every game, in nearly every
// replication, mostly at the first look (with gdlperf ab's default looks
// of 5 pairs; a first look of 3 pairs has 2 degrees of freedom, too few to
// be sure of much at its small level).
func TestSeqPower(t *testing.T) {
	d := SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 5, MaxPairs: 20, Games: 3}
	rng := rand.New(rand.NewPCG(1, 2))
	const reps = 500
	found, firstLook := 0, 0
	for range reps {
		draw := noise(rng, 0.05, 0)
		l := runSeq(t, d, func() float64 { return math.Log(1.3) + draw() })
		if l.Verdict == SeqSlower {
			found++
			if l.Look == 1 {
				firstLook++
			}
		}
	}
	assert.GreaterOrEqual(t, found, reps*99/100)
	assert.Greater(t, firstLook, reps/2)
}

func TestSeqPairsNeeded(t *testing.T) {
	d := SeqDesign{Alpha: 0.05, Threshold: 0.05, PerLook: 2, MaxPairs: 2, Games: 1}
	// An unchanged engine with 3% noise: 2 pairs cannot show it is within 5%.
	l, err := d.Decide(1, []float64{0.03, -0.02})
	require.NoError(t, err)
	require.Equal(t, SeqInconclusive, l.Verdict)
	n, ok := d.PairsNeeded(l.Mean, l.SD, 10000)
	require.True(t, ok)
	assert.Greater(t, n, 2)
	assert.Zero(t, n%2)
	// The estimate is the smallest budget that decides these figures.
	e := d
	e.MaxPairs = n
	got, err := e.Decide(e.Looks(), sampleWith(l.Mean, l.SD, n))
	require.NoError(t, err)
	assert.Equal(t, SeqSame, got.Verdict)
	e.MaxPairs = n - 2
	if e.MaxPairs >= 2 {
		got, err = e.Decide(e.Looks(), sampleWith(l.Mean, l.SD, n-2))
		require.NoError(t, err)
		assert.Equal(t, SeqInconclusive, got.Verdict)
	}
	// A change right under the threshold is not decided by any budget up
	// to the limit.
	_, ok = d.PairsNeeded(math.Log(1.05)-1e-6, 0.05, 200)
	assert.False(t, ok)
	for _, n := range []int{2, 3, 7} {
		m, sd := meanSD(sampleWith(0.1, 0.02, n))
		assert.InDelta(t, 0.1, m, 1e-12)
		assert.InDelta(t, 0.02, sd, 1e-12)
	}
}

func TestGeoMeanRatio(t *testing.T) {
	r, lo, hi, ok := GeoMeanRatio([]SeqLook{
		{Mean: math.Log(1.2), SD: 0.01, Pairs: 5},
		{Mean: math.Log(1.5), SD: 0.01, Pairs: 5},
	})
	require.True(t, ok)
	assert.InDelta(t, math.Sqrt(1.2*1.5), r, 1e-9)
	assert.Less(t, lo, r)
	assert.Greater(t, hi, r)
	_, _, _, ok = GeoMeanRatio(nil)
	assert.False(t, ok)
}
