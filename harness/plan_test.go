package harness

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func planFixture() ([]*Game, []*Engine) {
	games := []*Game{{Key: "BUILTIN/b/x"}, {Key: "BUILTIN/a/y"}, {Key: "BUILTIN/c/z"}}
	engines := []*Engine{{Name: "tupleprover", Version: "2"}, {Name: "prover", Version: "1"}}
	return games, engines
}

func TestPlanIsDeterministicAndInterleaved(t *testing.T) {
	games, engines := planFixture()
	o := Options{Seconds: 30, Repetitions: 3, Seed: 42}
	a := Plan(games, engines, o)
	// Input order does not matter.
	b := Plan([]*Game{games[2], games[0], games[1]}, []*Engine{engines[1], engines[0]}, o)
	require.Len(t, a, 3*2*3)
	for i := range a {
		assert.Equal(t, a[i].Key, b[i].Key)
	}
	// Rounds: every (game, engine) pair once per repetition, in order.
	for rep := 0; rep < 3; rep++ {
		seen := map[string]bool{}
		for _, r := range a[rep*6 : rep*6+6] {
			assert.Equal(t, rep, r.Repetition)
			seen[r.Game.Key+" "+r.Engine.Name] = true
		}
		assert.Len(t, seen, 6)
	}
	// Run keys are unique; seeds agree across engines of one game and repetition.
	keys := map[string]bool{}
	seeds := map[string]uint64{}
	for _, r := range a {
		assert.False(t, keys[r.Key], "duplicate run key")
		keys[r.Key] = true
		k := fmt.Sprint(r.Game.Key, r.Repetition)
		if s, ok := seeds[k]; ok {
			assert.Equal(t, s, r.Seed)
		}
		seeds[k] = r.Seed
	}
	// Another campaign seed: another order.
	c := Plan(games, engines, Options{Seconds: 30, Repetitions: 3, Seed: 43})
	same := true
	for i := range a {
		if a[i].Game != c[i].Game || a[i].Engine != c[i].Engine {
			same = false
		}
	}
	assert.False(t, same)
}

func TestPlanKeyChangesWithVersionAndTarget(t *testing.T) {
	games, engines := planFixture()
	base := Plan(games[:1], engines[1:], Options{Seconds: 30, Seed: 1})[0].Key
	engines[1].Version = "1b"
	assert.NotEqual(t, base, Plan(games[:1], engines[1:], Options{Seconds: 30, Seed: 1})[0].Key)
	engines[1].Version = "1"
	assert.Equal(t, base, Plan(games[:1], engines[1:], Options{Seconds: 30, Seed: 1})[0].Key)
	assert.NotEqual(t, base, Plan(games[:1], engines[1:], Options{Seconds: 2, Seed: 1})[0].Key)
	assert.NotEqual(t, base, Plan(games[:1], engines[1:], Options{Rollouts: 30, Seed: 1})[0].Key)
}

func TestShardsPartitionByGame(t *testing.T) {
	var games []*Game
	for i := 0; i < 10; i++ {
		games = append(games, &Game{Key: fmt.Sprintf("BASE/g%02d/h", i)})
	}
	_, engines := planFixture()
	o := Options{Seconds: 1, Repetitions: 2, Seed: 7}
	all := Plan(games, engines, o)
	union := map[string]bool{}
	gameShard := map[string]int{}
	for i := 0; i < 4; i++ {
		o.Shard = Shard{I: i, N: 4}
		for _, r := range Plan(games, engines, o) {
			assert.False(t, union[r.Key])
			union[r.Key] = true
			if s, ok := gameShard[r.Game.Key]; ok {
				assert.Equal(t, s, i, "one game, one shard")
			}
			gameShard[r.Game.Key] = i
		}
	}
	assert.Len(t, union, len(all))
}

func TestParseShard(t *testing.T) {
	s, err := ParseShard("2/4")
	require.NoError(t, err)
	assert.Equal(t, Shard{I: 2, N: 4}, s)
	for _, bad := range []string{"4/4", "-1/2", "a/b", "1", "0/0"} {
		_, err := ParseShard(bad)
		assert.Error(t, err, bad)
	}
}

func TestLimit(t *testing.T) {
	assert.Equal(t, "4m0s", Limit(Options{Seconds: 30}).String())
	assert.Equal(t, "1m2s", Limit(Options{Seconds: 2}).String())
}

// The run key of a run at every default dimension is the key gdlperf 1
// wrote (pinned), so old campaigns resume; every dimension off its default
// gives another key.
func TestRunKeyDimensions(t *testing.T) {
	e := &Engine{Name: "prover", Version: "1-abc"}
	o := Options{Seconds: 30, Seed: 1}
	base := runKey("BASE/ticTacToe/JRFsaQ", e, 2, o, Dims{})
	assert.Equal(t, "e8f010bc2b427a7b", base, "the gdlperf 1 key of this run (sha256 of its parts, as gdlperf 1 hashed them)")
	seen := map[string]string{base: "default"}
	for name, d := range map[string]Dims{
		"workload":       {Workload: "uct", Budget: "iterations=2000"},
		"budget":         {Workload: "uct", Budget: "iterations=4000"},
		"transform":      {Transform: "shuffle", TransformSeed: 1},
		"transform seed": {Transform: "shuffle", TransformSeed: 2},
		"measure":        {Measure: "instructions"},
	} {
		k := runKey("BASE/ticTacToe/JRFsaQ", e, 2, o, d)
		if other, dup := seen[k]; dup {
			t.Errorf("%s gives the key of %s", name, other)
		}
		seen[k] = name
	}
	assert.Equal(t, base, runKey("BASE/ticTacToe/JRFsaQ", e, 2, o, Dims{Workload: "rollouts", Transform: "none", Measure: "time"}), "defaults spelled out are defaults")
}

// Every workload of the plan is a run of its own for every game, engine and
// repetition; rollouts keeps the gdlperf 1 keys; an engine that does not
// run a workload has its runs skipped with the reason, and a built-in one is
// given --workload and its budget before its arguments.
func TestPlanWorkloads(t *testing.T) {
	games, engines := planFixture()
	o := Options{Seconds: 2, Repetitions: 2, Seed: 1}
	plain := Plan(games, engines, o)
	o.Dims = []Dims{{}, {Workload: "uct", Budget: "iterations=200"}}
	both := Plan(games, engines, o)
	require.Len(t, both, 2*len(plain))
	keys := map[string]bool{}
	for _, r := range both {
		keys[r.Key] = true
	}
	assert.Len(t, keys, len(both), "every run its own key")
	for _, r := range plain {
		assert.True(t, keys[r.Key], "the rollouts runs keep their keys")
	}

	c := &Campaign{Options: o}
	builtin := &Engine{Name: "prover", Builtin: true, FixedWork: true, Workloads: []string{"uct"}}
	args := c.args(Run{Engine: builtin, Seed: 7, Dims: Dims{Workload: "uct", Budget: "iterations=200"}}, "g.kif", "r.txt")
	assert.Equal(t, []string{"--workload", "uct", "--iterations", "200", "--seed", "7", "g.kif", "r.txt", "60"}, args)
	assert.True(t, builtin.Supports("uct"))
	assert.False(t, (&Engine{Name: "ext"}).Supports("uct"))
	assert.True(t, (&Engine{Name: "ext"}).Supports(""))
}

func TestCampaignSkipsUnsupportedWorkloads(t *testing.T) {
	e := scriptEngine(t, "rollouts-only", `echo "$@" > /dev/null; `+fastBody)
	o := Options{Seconds: 1, Seed: 1, Dims: []Dims{{}, {Workload: "pns", Budget: "nodes=10"}}}
	c, w, progress := campaign(t, testGames(1), []*Engine{e}, o)
	c.SkipCompat = true
	sum, err := c.Execute(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Unsupported)
	require.Len(t, w.rows, 1)
	assert.Equal(t, "", w.rows[0].Workload)
	assert.Contains(t, progress.String(), "skipping workload pns for engine rollouts-only: it does not run it")
}
