package harness

import (
	"context"
	"sync"
)

// forEach runs work on every task with at most jobs of them at once, in the
// order of tasks: worker w (0 <= w < jobs) takes the next task when it is
// free, so a slow task does not hold the others back. It stops handing out
// tasks when ctx is done and returns when every started task has returned.
// It is the one worker pool of the harness: gdlperf run --jobs (a worker is
// a CPU) and gdlperf check --jobs (a worker is an engine and game pair)
// share it.
func forEach[T any](ctx context.Context, jobs int, tasks []T, work func(worker int, t T)) {
	jobs = max(min(jobs, len(tasks)), 1)
	next := make(chan T)
	var wg sync.WaitGroup
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				work(w, t)
			}
		}()
	}
feed:
	for _, t := range tasks {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}
