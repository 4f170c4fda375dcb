package engines

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkClockCountsWorkNotWaiting: a budget of work is not used up by
// sleeping (or by waiting for a CPU), and is by computing.
func TestWorkClockCountsWorkNotWaiting(t *testing.T) {
	c := StartWorkClock()
	defer c.Stop()
	if runtime.GOOS == "linux" {
		require.True(t, c.Thread(), "Linux has a thread CPU clock")
	}
	if !c.Thread() {
		t.Skip("no thread CPU clock here: the clock is wall time")
	}
	time.Sleep(300 * time.Millisecond)
	assert.Less(t, c.Used(), 100*time.Millisecond, "sleeping used the budget")
	assert.GreaterOrEqual(t, c.Wall(), 300*time.Millisecond)
	before := c.Used()
	x := uint64(1)
	for deadline := time.Now().Add(time.Minute); c.Used()-before < 20*time.Millisecond; {
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		require.True(t, time.Now().Before(deadline), "a minute of computing counted under 20ms (x=%d)", x)
	}
}
