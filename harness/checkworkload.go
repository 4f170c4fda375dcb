package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
	"github.com/gdlperf/gdlperf/results"
)

// MethodWorkload compares each workload's answers (uct's root statistics,
// pns's proof, minimax's value and best move, and every count) of the
// engine process with the reference's: every correct engine searches the
// same tree (engines/workload/SPEC.md).
const MethodWorkload = "workload"

// DefaultCheckWorkloads are the workloads gdlperf check --methods workload
// compares, with their budgets.
var DefaultCheckWorkloads = []Dims{
	{Workload: workload.UCT, Budget: "iterations=2000"},
	{Workload: workload.PNS, Budget: "nodes=100000"},
	{Workload: workload.Minimax, Budget: "depth=3"},
}

// workloads runs each workload the engine declares as its engine process
// (its run command with --workload, the budget and the seed) and compares
// the result file's answer with the reference's, run in this process. The
// workloads it does not declare are named in the detail; none at all is
// unchecked. Each workload is checked whatever the others gave, so that a
// search that runs out of time does not hide another's mismatch: the
// verdict is a mismatch when one mismatched, else an error when one could
// not be checked, and the detail says what each gave.
func (c *Checker) workloads(ctx context.Context, e *Engine, g *Game, gameFile string, row *results.CheckRow) {
	if _, err := gdl.Load(g.File, g.Rules); err != nil {
		row.Verdict, row.Detail = results.VerdictError, oneLine("the game is invalid: "+err.Error(), 500)
		return
	}
	checks := c.Workloads
	if len(checks) == 0 {
		checks = DefaultCheckWorkloads
	}
	var agreed, skipped, mismatched, failed []string
	for _, d := range checks {
		if !e.Supports(d.Workload) {
			skipped = append(skipped, d.Workload)
			continue
		}
		verdict, detail, reproduce := c.workload(ctx, e, g, gameFile, d)
		switch {
		case ctx.Err() != nil:
			row.Verdict, row.Detail, row.Reproduce = results.VerdictError, "interrupted", ""
			return
		case verdict == results.VerdictOK:
			agreed = append(agreed, d.Workload+" "+d.Budget)
			continue
		case verdict == results.VerdictMismatch:
			mismatched = append(mismatched, detail)
			if row.Verdict != results.VerdictMismatch {
				row.Reproduce = reproduce
			}
			row.Verdict = results.VerdictMismatch
		default:
			failed = append(failed, detail)
			if row.Verdict == "" {
				row.Verdict, row.Reproduce = results.VerdictError, reproduce
			}
		}
	}
	var parts []string
	parts = append(parts, mismatched...)
	parts = append(parts, failed...)
	if len(agreed) > 0 {
		parts = append(parts, "agreed on "+strings.Join(agreed, ", "))
	}
	if len(skipped) > 0 {
		parts = append(parts, "not declared by the engine: "+strings.Join(skipped, ", "))
	}
	switch {
	case row.Verdict != "":
	case len(agreed) == 0:
		row.Verdict, parts = results.VerdictUnchecked, []string{"the engine declares none of the workloads " + workloadList(checks)}
	default:
		row.Verdict = results.VerdictOK
	}
	row.Detail = oneLine(strings.Join(parts, "; "), 2000)
}

// workload checks one workload of the engine against the reference: the
// verdict (ok, mismatch or error), what differed or failed, and the command
// that reproduces the engine's run.
func (c *Checker) workload(ctx context.Context, e *Engine, g *Game, gameFile string, d Dims) (verdict, detail, reproduce string) {
	// The engine is bounded by limit of CPU time (runBounded: one that
	// waits is stopped sooner); its own SECONDS, a wall-time bound of a
	// fixed-work run, is maxWall times the limit, the most wall time a run
	// that works gets, so that on a busy machine it is not the tighter
	// one.
	limit := max(c.Budget, time.Duration(WorkloadSeconds)*time.Second) + c.setup()
	seconds := int((maxWall*limit + time.Second - 1) / time.Second)
	reproduce = fmt.Sprintf("gdlperf engine run %s %s result.txt %d --workload %s %s --seed %d",
		e.Name, ShellQuote(g.Key), seconds, d.Workload, strings.Join(budgetArgs(d.Budget), " "), c.Seed)
	// The reference, once per game and workload for every engine
	// checked: it is the oracle, so it gets the time it needs
	// (ReferenceWorkloadTime, or --reference-time), not the engine's
	// budget.
	ref, err := c.referenceWorkload(ctx, g, d)
	if ctx.Err() != nil {
		return results.VerdictError, "interrupted", ""
	}
	if err != nil {
		return results.VerdictError, oneLine(fmt.Sprintf("workload %s: the reference: %v", d.Workload, err), 1000), ""
	}
	// The engine, as a process.
	resultFile := filepath.Join(filepath.Dir(gameFile), "workload-"+d.Workload+".txt")
	argv := append(append([]string(nil), e.Command...), "--workload", d.Workload)
	argv = append(argv, budgetArgs(d.Budget)...)
	argv = append(argv, "--seed", strconv.FormatUint(c.Seed, 10), gameFile, resultFile, strconv.Itoa(seconds))
	b, stderr, runErr := runBounded(ctx, argv, e.Dir, e.Env, limit, true)
	text, _ := os.ReadFile(resultFile)
	os.Remove(resultFile)
	got, _ := protocol.Parse(string(text))
	msg, failed := got.Get(protocol.KeyErrorMessage)
	switch {
	case ctx.Err() != nil:
		return results.VerdictError, "interrupted", ""
	case b.TimedOut:
		return results.VerdictError, fmt.Sprintf("workload %s took %s", d.Workload, b), reproduce
	case failed:
		return results.VerdictError, oneLine(fmt.Sprintf("workload %s: the engine fails: %s", d.Workload, msg), 1000), reproduce
	case runErr != nil:
		return results.VerdictError, oneLine(fmt.Sprintf("workload %s: %v (stderr: %s)", d.Workload, runErr, stderr), 1000), reproduce
	}
	if err := workload.CompareKeys(ref, got); err != nil {
		return results.VerdictMismatch, oneLine(err.Error(), 1000), reproduce
	}
	return results.VerdictOK, "", ""
}

// ReferenceWorkloadTime bounds a reference's workload run of gdlperf check.
const ReferenceWorkloadTime = 10 * time.Minute

type refWorkloadKey struct{ game, workload, budget string }

// refCache holds the reference's workload answers by game and workload.
type refCache struct {
	mu sync.Mutex
	m  map[refWorkloadKey]*refWorkload
}

func (rc *refCache) get(k refWorkloadKey) *refWorkload {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.m == nil {
		rc.m = map[refWorkloadKey]*refWorkload{}
	}
	rw := rc.m[k]
	if rw == nil {
		rw = &refWorkload{done: make(chan struct{})}
		rc.m[k] = rw
	}
	return rw
}

// drop removes rw, the entry of k, so that the next get makes a new one.
func (rc *refCache) drop(k refWorkloadKey, rw *refWorkload) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.m[k] == rw {
		delete(rc.m, k)
	}
}

type refWorkload struct {
	once        sync.Once
	done        chan struct{} // closed when res and err are set
	res         *protocol.Result
	err         error
	interrupted bool // the context of the check that started it ended
}

// referenceWorkload is the reference's answer to workload d on the game,
// computed once per Checker (checks of several engines share it), in a
// goroutine of its own, so that an interrupted check (ctx done) does not
// wait for the search to end: it returns ctx's error at once.
func (c *Checker) referenceWorkload(ctx context.Context, g *Game, d Dims) (*protocol.Result, error) {
	if c.refs == nil {
		c.refs = &refCache{}
	}
	k := refWorkloadKey{g.Key, d.Workload, d.Budget}
	for {
		rw := c.refs.get(k)
		rw.once.Do(func() { go c.computeReference(ctx, rw, g, d) })
		select {
		case <-rw.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if rw.interrupted && ctx.Err() == nil {
			// Started by a check that was interrupted (its context
			// ended): this one computes it again.
			c.refs.drop(k, rw)
			continue
		}
		return rw.res, rw.err
	}
}

// referenceLimit is the CPU time the reference may take for one workload
// of a game: --reference-time (ReferenceWorkloadTime), or the budget when
// longer.
func (c *Checker) referenceLimit() time.Duration {
	limit := ReferenceWorkloadTime
	if c.ReferenceTime > 0 {
		limit = c.ReferenceTime
	}
	return max(c.Budget, limit)
}

// computeReference runs the reference's search of d as an engine process
// (gdlperf engine run REFERENCE --workload ...), bounded as the engines
// are: by CPU time (referenceLimit), so that a busy machine, which gives
// it a part of a CPU, does not time it out (runBounded); it is killed when
// ctx ends, or with gdlperf. It keeps the answer in rw.
func (c *Checker) computeReference(ctx context.Context, rw *refWorkload, g *Game, d Dims) {
	defer close(rw.done)
	if c.Exe == "" {
		rw.err = fmt.Errorf("the checker has no gdlperf binary to run the reference %s with", c.Reference.Name)
		return
	}
	dir, err := os.MkdirTemp(c.WorkDir, "reference-")
	if err != nil {
		rw.err = err
		return
	}
	defer os.RemoveAll(dir)
	gameFile, resultFile := filepath.Join(dir, "game.kif"), filepath.Join(dir, "result.txt")
	if err := os.WriteFile(gameFile, g.Rules, 0o644); err != nil {
		rw.err = err
		return
	}
	limit := c.referenceLimit()
	seconds := int((maxWall*limit + time.Second - 1) / time.Second)
	argv := []string{c.Exe, "engine", "run", c.Reference.Name, "--workload", d.Workload}
	argv = append(argv, budgetArgs(d.Budget)...)
	argv = append(argv, "--seed", strconv.FormatUint(c.Seed, 10), gameFile, resultFile, strconv.Itoa(seconds))
	b, stderr, runErr := runBounded(ctx, argv, "", nil, limit, true)
	text, _ := os.ReadFile(resultFile)
	res, _ := protocol.Parse(string(text))
	msg, failed := res.Get(protocol.KeyErrorMessage)
	version, _ := res.Get(protocol.KeyVersion)
	switch {
	case ctx.Err() != nil:
		rw.err, rw.interrupted = ctx.Err(), true
	case b.TimedOut:
		rw.err = fmt.Errorf("workload %s with %s took %s (the reference's limit: gdlperf check --reference-time raises it)", d.Workload, d.Budget, b)
	case failed:
		rw.err = fmt.Errorf("%s", msg)
	case runErr != nil:
		rw.err = fmt.Errorf("%v (stderr: %s)", runErr, stderr)
	case version != c.Reference.Version:
		rw.err = fmt.Errorf("the process ran version %q of %s, not %q (the binary %s is another build)", version, c.Reference.Name, c.Reference.Version, c.Exe)
	default:
		rw.res = res
	}
}

func workloadList(ds []Dims) string {
	var names []string
	for _, d := range ds {
		names = append(names, d.Workload)
	}
	return strings.Join(names, ", ")
}
