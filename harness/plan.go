// Package harness plans and runs benchmark campaigns: every engine on every
// game, each run a separate engine process (ARCHITECTURE.md §3) with a time
// limit, its figures appended as one results row before the next run starts.
//
// The plan is deterministic: games and engines are enumerated in sorted
// order, each run gets a stable key (a hash of what makes it that run) and
// a seed derived from the campaign seed, the game and the repetition (so
// every engine plays the same seed on the same game), and the runs are
// interleaved in rounds as golang/benchmarks' bent does: shuffled with a
// seeded generator, then stably sorted by repetition, so every round holds
// each (game, engine) pair once in a random order and a slow hour of the
// machine does not fall on one engine only.
package harness

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/results"
)

// Run is one planned engine process run.
type Run struct {
	Key        string // stable run key
	Game       *Game
	Engine     *Engine
	Repetition int
	Seed       uint64
	Dims       Dims
}

// Dims are the dimensions of a run beside game, engine, version and
// repetition. The zero value is the gdl-perf run: random rollouts of the
// rules as written, timed. Every dimension that is not at its default is a
// part of the run key (results.RunKeyParts) and a column of the row, so
// runs that differ in one are never taken for each other.
type Dims struct {
	Workload      string // "" = rollouts
	Budget        string // the workload's budget, "name=value"
	Transform     string // "" = none
	TransformSeed uint64
	Measure       string // "" = time
}

// KeyParts are the dimensions' parts of the run key.
func (d Dims) KeyParts() []string {
	return results.RunKeyParts(d.Workload, d.Budget, d.Transform, d.TransformSeed, d.Measure)
}

// Options shape a campaign.
type Options struct {
	Seconds     int    // target seconds of rollouts per run
	Rollouts    int    // fixed-work mode when > 0: this many rollouts per run
	Repetitions int    // runs per (game, engine)
	Seed        uint64 // campaign seed
	Shard       Shard  // the part of the plan this process runs
	// Dims are the dimensions every (game, engine) runs in, each a run of
	// its own: the workloads with their budgets times the transforms with
	// their seeds (gdlperf run --workloads, --transforms); none is the
	// gdl-perf run alone, Dims{}.
	Dims []Dims
	// AutoRollouts: Rollouts is the default of instruction counts, not
	// the user's; a count of too few instructions for a process's noise is
	// taken again with enough rollouts (gdlperf run --measure instructions
	// without --rollouts).
	AutoRollouts bool
}

// Mode returns "time" or "rollouts".
func (o Options) Mode() string {
	if o.Rollouts > 0 {
		return "rollouts"
	}
	return "time"
}

// Shard selects part of a plan: shard I of N, by game, so every engine of
// one game runs on one node.
type Shard struct {
	I, N int
}

func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q is not i/n with 0 <= i < n", s)
	}
	return Shard{I: i, N: n}, nil
}

// Plan enumerates and orders the runs of a campaign.
func Plan(games []*Game, engines []*Engine, o Options) []Run {
	games = append([]*Game(nil), games...)
	sort.Slice(games, func(i, j int) bool { return games[i].Key < games[j].Key })
	engines = append([]*Engine(nil), engines...)
	sort.Slice(engines, func(i, j int) bool {
		if engines[i].Name != engines[j].Name {
			return engines[i].Name < engines[j].Name
		}
		return engines[i].Version < engines[j].Version
	})
	reps := max(o.Repetitions, 1)
	dims := o.Dims
	if len(dims) == 0 {
		dims = []Dims{{}}
	}
	var runs []Run
	for gi, g := range games {
		if o.Shard.N > 1 && gi%o.Shard.N != o.Shard.I {
			continue
		}
		for _, e := range engines {
			for _, d := range dims {
				for rep := 0; rep < reps; rep++ {
					runs = append(runs, Run{
						Key:        runKey(g.Key, e, rep, o, d),
						Game:       g,
						Engine:     e,
						Repetition: rep,
						Seed:       runSeed(o.Seed, g.Key, rep),
						Dims:       d,
					})
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6761646c70657266))
	rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Repetition < runs[j].Repetition })
	return runs
}

// runKey is a hash of what makes a run that run: game, engine, version,
// repetition, mode, target, campaign seed and the dimensions not at their
// defaults. With every dimension at its default it is the key gdlperf 1
// wrote, so campaigns started before the dimensions existed resume.
func runKey(game string, e *Engine, rep int, o Options, d Dims) string {
	target := o.Seconds
	if o.Rollouts > 0 {
		target = o.Rollouts
	}
	text := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%s\x00%d\x00%d", game, e.Name, e.Version, rep, o.Mode(), target, o.Seed)
	for _, p := range d.KeyParts() {
		text += "\x00" + p
	}
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:8])
}

func runSeed(seed uint64, game string, rep int) uint64 {
	h := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s\x00%d", seed, game, rep)))
	return binary.BigEndian.Uint64(h[:8]) >> 1 // positive as an int64, for tools that read it so
}

// Limit is the time limit of one run (ChildOptions.Limit: of wall time,
// or of CPU time for a run that works on a busy machine): gdl-perf's 240 s
// for 30 s runs, that is the target plus a grace of 210 s, scaled down for
// short runs but never under 60 s of grace.
func Limit(o Options) time.Duration {
	if o.Rollouts > 0 {
		return 30 * time.Minute
	}
	grace := max(60*time.Second, time.Duration(o.Seconds)*7*time.Second)
	return time.Duration(o.Seconds)*time.Second + min(grace, 210*time.Second)
}
