package engines

import (
	"runtime"
	"time"
)

// A WorkClock measures the CPU time of the goroutine that started it,
// which it locks to its OS thread until Stop: a budget of work, such as a
// propnet's grounding or a compiled program's static relations, that
// waiting on a busy machine does not use up, so that a game builds, or is
// refused, alike on a quiet machine and on a loaded one. Where the system
// has no per-thread CPU clock it measures wall time (Thread says which).
// A WorkClock is not safe for concurrent use.
type WorkClock struct {
	wall   time.Time
	cpu0   time.Duration
	thread bool
}

// StartWorkClock locks the calling goroutine to its thread and starts a
// clock of its CPU time.
func StartWorkClock() *WorkClock {
	runtime.LockOSThread()
	c := &WorkClock{wall: time.Now()}
	c.cpu0, c.thread = threadCPU()
	return c
}

// Used returns the CPU time the goroutine has used since the clock
// started (the wall time, where the system has no thread clock).
func (c *WorkClock) Used() time.Duration {
	if c.thread {
		if t, ok := threadCPU(); ok {
			return t - c.cpu0
		}
	}
	return time.Since(c.wall)
}

// Wall returns the wall time since the clock started.
func (c *WorkClock) Wall() time.Duration { return time.Since(c.wall) }

// Thread reports whether Used measures the thread's CPU time.
func (c *WorkClock) Thread() bool { return c.thread }

// Stop unlocks the goroutine from its thread. The clock can still be read.
func (c *WorkClock) Stop() { runtime.UnlockOSThread() }

// WaitedFactor is how many times its budget of CPU time a budgeted piece
// of work may take in wall time before it is stopped as one that waits
// rather than works: at under 1/WaitedFactor of a CPU, the machine is too
// busy for it to finish in a time anyone waits for.
const WaitedFactor = 10
