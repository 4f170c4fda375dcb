package propnet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
)

// TestBudgetCountsWorkNotWaiting: the time budget of a build is CPU time,
// so a build that waits for a CPU on a busy machine is not refused for the
// waiting (it was wall time: a loaded machine refused BASE/shogi_ctk,
// slaughter, sudoku and others that a quiet one builds), unless it waits
// WaitedFactor times its budget.
func TestBudgetCountsWorkNotWaiting(t *testing.T) {
	clock := engines.StartWorkClock()
	defer clock.Stop()
	if !clock.Thread() {
		t.Skip("no thread CPU clock here: the budget is wall time")
	}
	b := newBudget(Options{MaxTime: 50 * time.Millisecond}, clock)
	b.phase = "grounding"
	time.Sleep(100 * time.Millisecond)
	require.Nil(t, refusalOf(b.check), "twice the budget in wall time, none of it worked")
	time.Sleep(engines.WaitedFactor*50*time.Millisecond - 100*time.Millisecond + 10*time.Millisecond)
	ref := refusalOf(b.check)
	require.NotNil(t, ref, "past WaitedFactor times the budget in wall time")
	assert.Equal(t, RefuseTime, ref.Kind)
	assert.Contains(t, ref.Msg, "grounding did not finish within")
	assert.Contains(t, ref.Msg, "the machine is too busy")

	working := engines.StartWorkClock()
	defer working.Stop()
	b = newBudget(Options{MaxTime: 20 * time.Millisecond}, working)
	b.phase = "grounding"
	var ref2 *RefusalError
	x := uint64(1)
	for deadline := time.Now().Add(time.Minute); ref2 == nil && time.Now().Before(deadline); {
		for range 100000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		ref2 = refusalOf(b.check)
	}
	require.NotNil(t, ref2, "a minute of work under a budget of 20ms (x=%d)", x)
	assert.Contains(t, ref2.Msg, "within the time budget of 20ms of CPU")
}

// refusalOf runs check and returns the refusal it panics with, or nil.
func refusalOf(check func()) (ref *RefusalError) {
	defer func() {
		if r := recover(); r != nil {
			ref = r.(refusal).err
		}
	}()
	check()
	return nil
}
