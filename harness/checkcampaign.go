package harness

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/results"
)

// CheckCampaign checks engines against the reference on games (gdlperf
// check): every method on every engine and game pair, Jobs pairs at once,
// each verdict appended to Out as soon as its pair is done, so a stopped
// check resumes where it stopped. The pairs whose every method has a stored
// verdict are skipped unless Again; those with an error verdict (no answer
// within the limits, a refusal, a crash: a time-out may have cost minutes)
// are checked again with RetryFailed, as gdlperf run --retry-failed does.
type CheckCampaign struct {
	Checker  *Checker
	Games    []*Game
	Engines  []*Engine
	Methods  []string
	Seed     uint64
	Rollouts int
	Jobs     int  // pairs at once (0 = 1)
	Again    bool // check again what was checked before
	// RetryFailed checks again the pairs whose stored verdict is error.
	RetryFailed bool
	Prior       []results.CheckRow // the verdicts stored before
	Out         string             // the verdicts file rows are appended to
	Progress    io.Writer          // nil for none
	Now         func() time.Time
}

// CheckSummary is what a check campaign knows at its end: the latest verdict
// of every check, stored before or made now.
type CheckSummary struct {
	Pairs, Resumed, Checked int
	Latest                  map[string]results.CheckRow // by check key
}

// Execute runs the checks not done before. An interruption returns
// ErrInterrupted; the verdicts of the pairs finished so far are stored.
func (c *CheckCampaign) Execute(ctx context.Context) (CheckSummary, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	sum := CheckSummary{Pairs: len(c.Games) * len(c.Engines), Latest: map[string]results.CheckRow{}}
	done := map[string]bool{}
	for _, r := range c.Prior {
		sum.Latest[r.CheckKey] = r
		done[r.CheckKey] = r.Verdict != results.VerdictError || !c.RetryFailed
	}
	type task struct {
		g       *Game
		e       *Engine
		methods []string
	}
	games := append([]*Game(nil), c.Games...)
	sort.Slice(games, func(i, j int) bool { return games[i].Key < games[j].Key })
	var tasks []task
	failedBefore := 0
	for _, g := range games {
		for _, e := range c.Engines {
			var methods []string
			failed := false
			for _, m := range c.Methods {
				k := c.Checker.Key(g.Key, e, m)
				if c.Again || !done[k] {
					methods = append(methods, m)
				}
				failed = failed || sum.Latest[k].Verdict == results.VerdictError
			}
			if len(methods) > 0 {
				tasks = append(tasks, task{g, e, methods})
			} else if failed {
				failedBefore++
			}
		}
	}
	sum.Resumed = sum.Pairs - len(tasks)
	if sum.Resumed > 0 && c.Progress != nil {
		failed := ""
		if failedBefore > 0 {
			failed = fmt.Sprintf(", %d of them failed: --retry-failed checks those again", failedBefore)
		}
		fmt.Fprintf(c.Progress, "%d of %d engine and game pairs were checked before (verdicts in %s; --again checks them again%s)\n", sum.Resumed, sum.Pairs, filepath.Dir(c.Out), failed)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		writeErr error
		p        = newProgress(c.Progress, false, len(tasks), 0, now)
	)
	if c.Checker.refs == nil {
		c.Checker.refs = &refCache{} // one for every copy below
	}
	forEach(ctx, c.Jobs, tasks, func(_ int, t task) {
		cc := *c.Checker
		cc.Methods = t.methods
		rows := cc.Check(ctx, t.e, t.g)
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return // interrupted: the rows say so and are not kept
		}
		if err := results.AppendCheckRows(c.Out, rows); err != nil {
			writeErr = fmt.Errorf("writing verdicts: %w", err)
			cancel()
			return
		}
		sum.Checked++
		for _, r := range rows {
			sum.Latest[r.CheckKey] = r
		}
		p.checked(t.e.Name, t.g.Key, rows)
	})
	if writeErr != nil {
		return sum, writeErr
	}
	if ctx.Err() != nil {
		return sum, ErrInterrupted
	}
	return sum, nil
}

// checked shows the verdicts of one finished engine and game pair, a line
// each, with the count, the rate of pairs and the ETA.
func (p *progress) checked(engine, game string, rows []results.CheckRow) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.w == nil {
		return
	}
	el := p.now().Sub(p.start)
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el.Seconds()
	}
	for _, r := range rows {
		fmt.Fprintf(p.w, "[%d/%d, %.2f/s, ETA %s] %s on %s, %s: %s %s\n", p.done, p.total, rate, p.eta().Round(time.Second),
			protocol.SafeText(engine), protocol.SafeText(game), r.Method, r.Verdict, protocol.Shorten(protocol.SafeText(r.Detail), 160))
	}
}

// grow adds n runs to the total (runs to do again).
func (p *progress) grow(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += n
	if p.bar != nil {
		p.bar.ChangeMax(p.total)
	}
}
