package report

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/results"
)

// Confidence is the level of every interval in the reports.
const Confidence = 0.95

// thresholds are benchstat's: alpha 0.05 for the U test.
var thresholds = benchmath.DefaultThresholds

// Version is an engine version: the unit reports compare.
type Version struct {
	Engine  string
	Version string
}

// String is "engine@version", or the engine alone when it reported no version.
func (v Version) String() string {
	if v.Version == "" {
		return v.Engine
	}
	return v.Engine + "@" + v.Version
}

// ParseVersion reads "engine@version" or "engine" (then Version is "").
func ParseVersion(s string) Version {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		return Version{Engine: s[:i], Version: s[i+1:]}
	}
	return Version{Engine: s}
}

// Cell is what one engine version did on one game on one machine in one
// setup: its runs (the repetitions) and their statistics.
type Cell struct {
	Machine string
	Setup   Setup
	Game    string
	Version Version
	Runs    []*results.Row // by repetition, run key, start time
	OK      int            // runs with status ok, contended ones included

	// Contended are the ok runs that were contended (see contended): they
	// are listed but left out of the rate, its interval, the tests and the
	// verdicts.
	Contended []*results.Row

	// Rate is the median state changes per second (of the timed part, as
	// the engine reported it: gdl-perf's figure) of the ok runs that were
	// not contended, with its 95% confidence interval
	// (benchmath.AssumeNothing). Zero when there is no such run.
	Rate   benchmath.Summary
	sample *benchmath.Sample // the measured runs' rates, ascending

	// CPURate is the median state changes per CPU-second of the timed part
	// (results.Row.StatesPerCPUSecond) of the measured runs that reported
	// their CPU time; 0 when none did. Shown beside Rate, never used for
	// verdicts.
	CPURate float64

	// AnyCPURate is the median state changes per CPU-second of every ok run
	// that reported its CPU time, contended ones included: what a machine
	// that is never quiet can still say, as an indication (a contended
	// run's CPU-seconds are its own, but it shared caches and memory
	// bandwidth). Shown where every run was contended, never used for
	// verdicts. 0 when no ok run reported its CPU time.
	AnyCPURate float64

	Rollouts float64 // median rollouts per second of the measured runs

	// PerIteration is, for a uct cell, the median state changes per
	// iteration of the measured runs; -1 for other cells. Under one (see
	// TreeBound), most iterations asked the engine nothing.
	PerIteration float64
	InitMs       float64 // median init milliseconds of the measured runs; -1 when not reported
	PeakRSSKiB   int64   // highest peak RSS of the runs; 0 when not reported

	// Wrong says that the version disagreed with the reference on this
	// game: a run has status wrong (it failed the correctness check), or a
	// correctness row given to Render found a mismatch. Its rate is then no
	// valid speed: it is struck out on the pages and left out of ranks,
	// medians and geometric means. Runs with status wrong are failed runs,
	// never measurements.
	Wrong bool
}

// Failed is the number of runs that did not end ok.
func (c *Cell) Failed() int { return len(c.Runs) - c.OK }

// Measured says whether some run ended ok and was not contended, so that
// the cell has a rate.
func (c *Cell) Measured() bool { return c != nil && c.Kept() > 0 }

// Kept is the number of runs the rate is the median of: ok and not
// contended.
func (c *Cell) Kept() int {
	if c == nil {
		return 0
	}
	return c.OK - len(c.Contended)
}

// AllContended says whether the cell has ok runs but every one of them was
// contended: it has no rate, yet nothing failed.
func (c *Cell) AllContended() bool { return c != nil && c.OK > 0 && c.Kept() == 0 }

// ErrorRate is the fraction of runs that failed.
func (c *Cell) ErrorRate() float64 {
	if len(c.Runs) == 0 {
		return 0
	}
	return float64(c.Failed()) / float64(len(c.Runs))
}

// Rates returns the measured runs' state changes per second, ascending.
func (c *Cell) Rates() []float64 {
	if c.sample == nil {
		return nil
	}
	return c.sample.Values
}

// FirstError returns the first failed run, or nil.
func (c *Cell) FirstError() *results.Row {
	for _, r := range c.Runs {
		if r.Status != results.StatusOK {
			return r
		}
	}
	return nil
}

// Group is the results of one machine fingerprint in one setup (mode,
// target, workload, transform, measure): the runs that may be compared with
// each other. Ratios and intervals are only ever computed within one Group,
// so runs of two machines, of 2 s and of 3 s, or of two workloads, are never
// pooled.
type Group struct {
	Machine    string // the machine fingerprint
	Setup      Setup
	Hosts      []string // distinct values seen, sorted
	CPUModels  []string
	Governors  []string
	Kernels    []string
	GoVersions []string
	First      string // earliest start time (RFC 3339), "" when no row has one
	Last       string // latest start time
	Runs       int
	Failed     int
	Contended  int // ok runs left out as contended

	Games    []string  // sorted
	Versions []Version // by engine name, then oldest first
	cells    map[cellKey]*Cell
}

type cellKey struct {
	game    string
	version Version
}

// Cell returns the cell of game and v, or nil when v never ran game here.
func (m *Group) Cell(game string, v Version) *Cell { return m.cells[cellKey{game, v}] }

// Has says whether v ran in this group.
func (m *Group) Has(v Version) bool { return slices.Contains(m.Versions, v) }

// Analysis is every row, grouped by machine and setup, with the statistics
// of every cell: what Analyse returns.
type Analysis struct {
	Groups []*Group // by machine, then setup
	Runs   int
	Failed int
	// Versions are all engine versions, by engine name, then oldest first
	// (by the earliest start time of their runs, then by name).
	Versions []Version
	order    map[Version]int
}

// Analyse groups rows by machine, setup, game and engine version and
// computes the statistics of every cell. It keeps pointers into rows: do not change them
// afterwards. Analyse does not depend on the order of rows.
func Analyse(rows []results.Row) *Analysis {
	c := &Analysis{Runs: len(rows), order: map[Version]int{}}
	type machineKey struct {
		id    string
		setup Setup
	}
	machines := map[machineKey]*Group{}
	first := map[Version]string{}
	setups := setupsOf(rows)
	for i := range rows {
		r := &rows[i]
		setup := setups[i]
		m := machines[machineKey{r.Machine, setup}]
		if m == nil {
			m = &Group{Machine: r.Machine, Setup: setup, cells: map[cellKey]*Cell{}}
			machines[machineKey{r.Machine, setup}] = m
		}
		v := Version{r.Engine, r.EngineVersion}
		k := cellKey{r.GameKey, v}
		cell := m.cells[k]
		if cell == nil {
			cell = &Cell{Machine: r.Machine, Setup: setup, Game: r.GameKey, Version: v}
			m.cells[k] = cell
		}
		cell.Runs = append(cell.Runs, r)
		m.Runs++
		if r.Status != results.StatusOK {
			m.Failed++
			c.Failed++
		}
		if r.StartTime != "" {
			if f, ok := first[v]; !ok || f == "" || r.StartTime < f {
				first[v] = r.StartTime
			}
			if m.First == "" || r.StartTime < m.First {
				m.First = r.StartTime
			}
			m.Last = max(m.Last, r.StartTime)
		} else if _, ok := first[v]; !ok {
			first[v] = ""
		}
	}
	// Versions in order: by engine, then by first run (unknown last), then name.
	for v := range first {
		c.Versions = append(c.Versions, v)
	}
	slices.SortFunc(c.Versions, func(a, b Version) int {
		if x := cmp.Compare(a.Engine, b.Engine); x != 0 {
			return x
		}
		fa, fb := first[a], first[b]
		if (fa == "") != (fb == "") {
			if fa == "" {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(a.Version, b.Version))
	})
	for i, v := range c.Versions {
		c.order[v] = i
	}
	for _, m := range machines {
		games := map[string]bool{}
		versions := map[Version]bool{}
		sets := [5]map[string]bool{{}, {}, {}, {}, {}}
		for k, cell := range m.cells {
			games[k.game] = true
			versions[k.version] = true
			slices.SortFunc(cell.Runs, compareRuns)
			for _, r := range cell.Runs {
				for i, s := range [5]string{r.Host, r.CPUModel, r.Governor, r.Kernel, r.GoVersion} {
					if s != "" {
						sets[i][s] = true
					}
				}
			}
			cell.compute()
			m.Contended += len(cell.Contended)
		}
		m.Hosts, m.CPUModels, m.Governors, m.Kernels, m.GoVersions = sortedKeys(sets[0]), sortedKeys(sets[1]), sortedKeys(sets[2]), sortedKeys(sets[3]), sortedKeys(sets[4])
		m.Games = sortedKeys(games)
		for v := range versions {
			m.Versions = append(m.Versions, v)
		}
		c.sortVersions(m.Versions)
		c.Groups = append(c.Groups, m)
	}
	slices.SortFunc(c.Groups, func(a, b *Group) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), compareSetups(a.Setup, b.Setup))
	})
	return c
}

// setupsOf returns the setup of every row. A row of unknown target (0, as
// in imported gdl-perf rows of failed runs) takes the target of its
// machine's other rows of the same setup when they all have one; else it
// stays a setup of its own.
func setupsOf(rows []results.Row) []Setup {
	type key struct {
		machine string
		setup   Setup // with Target 0
	}
	targets := map[key][]int{}
	out := make([]Setup, len(rows))
	for i := range rows {
		out[i] = setupOf(&rows[i])
		if out[i].Target != 0 {
			k := out[i]
			k.Target = 0
			if ts := targets[key{rows[i].Machine, k}]; !slices.Contains(ts, out[i].Target) {
				targets[key{rows[i].Machine, k}] = append(ts, out[i].Target)
			}
		}
	}
	for i := range out {
		if out[i].Target == 0 {
			if ts := targets[key{rows[i].Machine, out[i]}]; len(ts) == 1 {
				out[i].Target = ts[0]
			}
		}
	}
	return out
}

// sortVersions sorts vs in the campaign's order of versions.
func (c *Analysis) sortVersions(vs []Version) {
	slices.SortFunc(vs, func(a, b Version) int { return cmp.Compare(c.order[a], c.order[b]) })
}

// VersionsOf returns the versions of engine, oldest first.
func (c *Analysis) VersionsOf(engine string) []Version {
	var out []Version
	for _, v := range c.Versions {
		if v.Engine == engine {
			out = append(out, v)
		}
	}
	return out
}

// GroupsOf returns the groups where v ran.
func (c *Analysis) GroupsOf(v Version) []*Group {
	var out []*Group
	for _, m := range c.Groups {
		if m.Has(v) {
			out = append(out, m)
		}
	}
	return out
}

func compareRuns(a, b *results.Row) int {
	return cmp.Or(
		cmp.Compare(a.Repetition, b.Repetition),
		cmp.Compare(a.RunKey, b.RunKey),
		cmp.Compare(a.StartTime, b.StartTime),
		cmp.Compare(a.Status, b.Status),
		cmp.Compare(a.StateChanges, b.StateChanges),
		cmp.Compare(a.MillisecondsTaken, b.MillisecondsTaken),
		cmp.Compare(a.ErrorMessage, b.ErrorMessage),
	)
}

func sortedKeys[K cmp.Ordered](m map[K]bool) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// compute fills the statistics of c from its runs.
func (c *Cell) compute() {
	var rates, cpuRates, anyCPURates, rollouts, inits, perIt []float64
	reported := false
	c.PerIteration = -1
	for _, r := range c.Runs {
		c.PeakRSSKiB = max(c.PeakRSSKiB, r.PeakRSSKiB)
		if r.Status == results.StatusWrong {
			c.Wrong = true
		}
		if r.Status != results.StatusOK {
			continue
		}
		c.OK++
		if r.TimedCPUMs > 0 && !r.IsInstructions() {
			anyCPURates = append(anyCPURates, r.StatesPerCPUSecond())
		}
		if bad, _ := contended(r); bad {
			c.Contended = append(c.Contended, r)
			continue
		}
		rates = append(rates, rowRate(r))
		if cr := r.StatesPerCPUSecond(); r.TimedCPUMs > 0 && !r.IsInstructions() {
			cpuRates = append(cpuRates, cr)
		}
		ro := 0.0
		if r.MillisecondsTaken > 0 {
			ro = float64(r.Rollouts) * 1000 / float64(r.MillisecondsTaken)
		}
		rollouts = append(rollouts, ro)
		if c.Setup.Workload == workload.UCT && r.Rollouts > 0 {
			perIt = append(perIt, float64(r.StateChanges)/float64(r.Rollouts))
		}
		inits = append(inits, float64(r.InitMilliseconds))
		if r.InitMilliseconds > 0 || r.PeakRSSKiB > 0 {
			reported = true
		}
	}
	c.InitMs = -1
	if len(anyCPURates) > 0 {
		c.AnyCPURate = median(anyCPURates)
	}
	if len(rates) == 0 {
		return
	}
	if len(cpuRates) > 0 {
		c.CPURate = median(cpuRates)
	}
	c.sample = benchmath.NewSample(rates, &thresholds)
	c.Rate = benchmath.AssumeNothing.Summary(c.sample, Confidence)
	c.Rollouts = median(rollouts)
	if len(perIt) > 0 {
		c.PerIteration = median(perIt)
	}
	if reported {
		c.InitMs = median(inits)
	}
}

// TreeBound says that c is a uct cell whose runs made under one state
// change per iteration (the median): most iterations walked a tree that
// holds most of the game (every iteration that reaches a node the tree
// lacks adds it with one state change and plays out from it), so the
// search's own bookkeeping, not the engine, set the rate. On such a game
// the engines' uct rates come out alike whatever their speeds (BASE/
// ticTacToe and knightsTour, 5 s runs).
func (c *Cell) TreeBound() bool { return c.PerIteration >= 0 && c.PerIteration < 1 }

// median is benchmath's median of xs (which it sorts).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &thresholds), Confidence).Center
}

// rowRate is the figure a cell's statistics are over, higher better: state
// changes per second, or, for a row measured in instructions (gdlperf run
// --measure instructions, whose times are of a counted and so slowed run),
// rollouts per 10^9 instructions: the inverse of its instructions per
// rollout, so that a ratio of two versions is old/new instructions and
// every test and interval works as for rates. Such rows are a setup of
// their own (Setup.Measure) and never mix with timed ones.
func rowRate(r *results.Row) float64 {
	if r.IsInstructions() {
		if x, ok := r.PerOp(); ok {
			return 1e9 / x
		}
		return 0
	}
	return r.StatesPerSecond()
}
