package gamecheck_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/gamerepo/gamecheck"
)

func game(name, rules string) gamerepo.Game {
	return gamerepo.Game{Key: gamerepo.GameKey("LOCAL", name, []byte(rules)), File: name + ".kif", Rules: []byte(rules)}
}

func TestBuiltinsAreValid(t *testing.T) {
	var games []gamerepo.Game
	games, err := gamerepo.Select("builtin", gamerepo.WithCacheDir(t.TempDir()))
	require.NoError(t, err)
	for i, r := range gamecheck.CheckAll(games, 0, nil) {
		assert.Equal(t, games[i].Key, r.Key)
		assert.Equal(t, gamecheck.Valid, r.Status, "%s: %s", r.Key, r.Reason)
		assert.Equal(t, 3, r.Rollouts, r.Key)
		assert.Positive(t, r.Steps, r.Key)
	}
}

const counter = `
(role r)
(init (step 0))
(<= (legal r go) (true (step ?n)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(succ 0 1) (succ 1 2) (succ 2 3)
`

func TestCheck(t *testing.T) {
	tests := []struct {
		name       string
		rules      string
		opts       []gamecheck.Option
		wantStatus gamecheck.Status
		wantReason string
	}{
		{
			name:       "valid",
			rules:      counter + "(<= terminal (true (step 3))) (goal r 100)",
			wantStatus: gamecheck.Valid,
		},
		{
			name:       "syntax",
			rules:      "(role r",
			wantStatus: gamecheck.Invalid,
			wantReason: "syntax: ",
		},
		{
			name:       "validator",
			rules:      counter + "(<= terminal (true (step 3))) (<= (goal r ?x) (true (step 3)))",
			wantStatus: gamecheck.Invalid,
			wantReason: "validator: ",
		},
		{
			name:       "no terminal state",
			rules:      counter + "(<= terminal (true (step 9))) (goal r 100) (succ 3 0)",
			opts:       []gamecheck.Option{gamecheck.WithStepLimit(50)},
			wantStatus: gamecheck.Invalid,
			wantReason: "rollout 0 (seed 1): no terminal state after 50 steps",
		},
		{
			name:       "no legal move",
			rules:      counter + "(<= terminal (true (step 9))) (goal r 100)",
			wantStatus: gamecheck.Invalid,
			wantReason: "rollout 0 (seed 1) step 4: no-legal-move: role r has no legal move",
		},
		{
			name:       "two goal values",
			rules:      counter + "(<= terminal (true (step 3))) (goal r 100) (<= (goal r 0) (true (step 3)))",
			wantStatus: gamecheck.Invalid,
			wantReason: "rollout 0 (seed 1) step 3: goal-count: role r has 2 goal values [0 100]",
		},
		{
			name:       "no goal value",
			rules:      counter + "(<= terminal (true (step 3))) (<= (goal r 100) (true (step 2)))",
			wantStatus: gamecheck.Invalid,
			wantReason: "goal-count: role r has 0 goal values",
		},
		{
			name:       "static only",
			rules:      counter + "(<= terminal (true (step 9))) (goal r 100)",
			opts:       []gamecheck.Option{gamecheck.StaticOnly()},
			wantStatus: gamecheck.Valid,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := gamecheck.Check(game(tt.name, tt.rules), tt.opts...)
			assert.Equal(t, tt.wantStatus, r.Status, r.Reason)
			assert.Contains(t, r.Reason, tt.wantReason)
			assert.NotContains(t, r.Reason, tt.name+".kif", "reasons do not name the file")
			for _, f := range r.Findings {
				assert.Equal(t, tt.name+".kif", f.File)
			}
		})
	}
}

func TestCheckBudget(t *testing.T) {
	b, ok := gamerepo.Builtin("breakthrough")
	require.True(t, ok)
	g := gamerepo.Game{Key: b.Key, File: b.File, Rules: b.Rules}
	r := gamecheck.Check(g, gamecheck.WithBudget(time.Nanosecond))
	assert.Equal(t, gamecheck.Unchecked, r.Status, r.Reason)
	assert.Contains(t, r.Reason, "the prover ran past the 1ns budget at rollout 0 (seed 1)")
}
