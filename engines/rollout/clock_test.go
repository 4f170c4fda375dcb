package rollout

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Between rollouts the clock is read rarely once rollouts are fast, but at
// least every 64 state changes: a run whose time is over stops within 64
// steps even when the rollouts have just become slow.
func TestClockStopsWithin64Steps(t *testing.T) {
	c := &clock{deadline: time.Now().Add(time.Hour), every: 1}
	var steps int64
	for range 10_000 { // fast zero-step rollouts: the reads grow rare
		assert.False(t, c.overBetween(steps))
	}
	assert.Greater(t, c.every, 64)
	c.deadline = time.Now().Add(-time.Second)
	stopped := false
	for i := 0; i < 8 && !stopped; i++ {
		steps += 8
		stopped = c.overBetween(steps)
	}
	assert.True(t, stopped, "not stopped within 64 steps")
}
