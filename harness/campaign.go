package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/gdlperf/gdlperf/results"
)

// RowWriter is where a campaign appends its rows (results.Writer).
type RowWriter interface {
	Append(*results.Row) error
}

// Campaign runs a plan.
type Campaign struct {
	Runs        []Run
	Options     Options
	Child       ChildOptions
	Writer      RowWriter
	Done        map[string]bool // run keys already in the results
	Fingerprint Fingerprint
	WorkDir     string    // for game and result files; a temp dir when ""
	Progress    io.Writer // nil for none
	Terminal    bool      // Progress is a terminal: one updating line
	Now         func() time.Time
	// Compat holds the compatibility checks already done (by engine name);
	// Execute checks every other external engine that has runs to do
	// before its first run, unless SkipCompat. A refused engine's runs
	// are not run (Summary.Refused) and the reason is printed.
	Compat     map[string]CompatResult
	SkipCompat bool
	// Verdict, when set, gives the correctness verdict of an engine
	// version on a game (gdlperf check): results.StatusOK when it was
	// checked and agreed with the reference, results.StatusWrong with the
	// mismatch as detail when it did not, anything else (such as
	// "unchecked") otherwise. A run whose verdict is wrong is recorded
	// with status wrong and the detail as its error message.
	Verdict func(gameKey, engine, version string) (status string, detail string)
	// RequireChecked skips, with a printed reason, the runs whose verdict
	// is not ok (Summary.Unchecked). It needs Verdict.
	RequireChecked bool
}
	// Measure is how runs are measured: the harness's version, the
	// concurrency and the CPU share under which a run is contended.
	Measure Measurement
	// Guard, when set, is asked before every run and after every row
	// written; an error from it stops the campaign with that error (gdlperf
	// run: its results file is still where it writes).
	Guard func() error

// Summary is what a campaign did.
type Summary struct {
	Planned, Skipped, Ran, Failed int
	Refused                       int      // runs of engines that failed the compatibility check
	Unchecked                     int      // runs skipped by RequireChecked
	Wrong                         int      // runs recorded as wrong by the verdicts
	RefusedEngines                []string // the engines refused, with the reason
	Interrupted                   bool
}

// ErrInterrupted is returned when the campaign was stopped; the rows written
// so far are complete and a new run of the same command resumes.
var ErrInterrupted = errors.New("interrupted")

// Execute runs every run whose key is not done, appending one row each.
func (c *Campaign) Execute(ctx context.Context) (Summary, error) {
	sum := Summary{Planned: len(c.Runs)}
	now := c.Now
	if now == nil {
		now = time.Now
	}
	if c.RequireChecked && c.Verdict == nil {
		return sum, errors.New("RequireChecked needs a Verdict (run gdlperf check first)")
	}
	dir := c.WorkDir
	if dir == "" {
		d, err := os.MkdirTemp("", "gdlperf-run-")
		if err != nil {
			return sum, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	var notes []string
	todo := make([]Run, 0, len(c.Runs))
	uncheckedPair := map[string]bool{}
	for _, r := range c.Runs {
		if c.Done[r.Key] {
			sum.Skipped++
			continue
		}
		if c.RequireChecked {
			if v, detail := c.Verdict(r.Game.Key, r.Engine.Name, r.Engine.Version); v != results.StatusOK {
				sum.Unchecked++
				pair := r.Engine.Name + "\x00" + r.Game.Key
				if !uncheckedPair[pair] {
					uncheckedPair[pair] = true
					why := v
					if why == "" {
						why = "not checked"
					}
					if detail != "" {
						why += ": " + oneLine(detail, 200)
					}
					notes = append(notes, fmt.Sprintf("skipping %s %s on %s: its correctness verdict is %s", r.Engine.Name, r.Engine.Version, r.Game.Key, why))
				}
				continue
			}
		}
		todo = append(todo, r)
	}
	for _, n := range notes {
		if c.Progress != nil {
			fmt.Fprintln(c.Progress, n)
		}
	}
	todo, err := c.compat(ctx, todo, &sum)
	if err == nil && ctx.Err() != nil {
		err = ErrInterrupted
	}
	if err != nil {
		sum.Interrupted = errors.Is(err, ErrInterrupted)
		return sum, err
	}
	gameFiles := map[*Game]string{}
	perRun := time.Duration(c.Options.Seconds)*time.Second + time.Second
	if c.Options.Rollouts > 0 {
		perRun = 10 * time.Second
	}
	p := newProgress(c.Progress, c.Terminal, len(todo), perRun, now)
	defer p.close()
	for _, r := range todo {
		if ctx.Err() != nil {
			sum.Interrupted = true
			break
		}
		gf, ok := gameFiles[r.Game]
		if !ok {
			h := sha256.Sum256(r.Game.Rules)
			gf = filepath.Join(dir, "game-"+hex.EncodeToString(h[:8])+".kif")
			if err := os.WriteFile(gf, r.Game.Rules, 0o644); err != nil {
				return sum, fmt.Errorf("writing the game file: %w", err)
			}
			gameFiles[r.Game] = gf
		}
		p.starting(r)
		resultPath := filepath.Join(dir, "result-"+r.Key+".txt")
		args := c.args(r, gf, resultPath)
		start := now().UTC()
		load := LoadAverage()
		out := RunChild(ctx, r.Engine, args, resultPath, c.Child)
		os.Remove(resultPath)
		if out.Interrupted {
			sum.Interrupted = true
			break
		}
		row := c.row(r, out, start, load)
		if c.Verdict != nil {
			if v, detail := c.Verdict(r.Game.Key, r.Engine.Name, row.EngineVersion); v == results.StatusWrong {
				markWrong(row, detail)
				sum.Wrong++
			}
		}
		if err := c.Writer.Append(row); err != nil {
			return sum, fmt.Errorf("writing the results: %w", err)
		}
		sum.Ran++
		if row.Status != results.StatusOK {
			sum.Failed++
		}
		p.finished(r, row)
	}
	if sum.Interrupted {
		return sum, ErrInterrupted
	}
	return sum, nil
}

func (c *Campaign) args(r Run, game, result string) []string {
	if c.Options.Rollouts > 0 && r.Engine.FixedWork {
		return []string{"--rollouts", strconv.Itoa(c.Options.Rollouts), "--seed", strconv.FormatUint(r.Seed, 10), game, result, "0"}
	}
	if r.Engine.Builtin {
		return []string{"--seed", strconv.FormatUint(r.Seed, 10), game, result, strconv.Itoa(c.Options.Seconds)}
	}
	return []string{game, result, strconv.Itoa(c.Options.Seconds)}
}

func (c *Campaign) row(r Run, out Outcome, start time.Time, load string) *results.Row {
	f := c.Fingerprint
	row := &results.Row{
		RunKey:            r.Key,
		GameKey:           r.Game.Key,
		Engine:            r.Engine.Name,
		EngineVersion:     r.Engine.Version,
		Repetition:        r.Repetition,
		Status:            out.Status,
		ErrorMessage:      out.Error,
		StartTime:         start.Format(time.RFC3339),
		Mode:              "time",
		TargetSeconds:     c.Options.Seconds,
		MillisecondsTaken: out.Millis,
		StateChanges:      out.StateChanges,
		Rollouts:          out.Rollouts,
		InitMilliseconds:  out.InitMillis,
		PeakRSSKiB:        out.PeakRSSKiB,
		UserCPUMs:         out.UserCPU.Milliseconds(),
		SystemCPUMs:       out.SystemCPU.Milliseconds(),
		WallMs:            out.Wall.Milliseconds(),
		GOMAXPROCS:        out.GOMAXPROCS,
		Seed:              r.Seed,
		Shard:             c.Options.Shard.String(),
		Host:              f.Host,
		Machine:           f.ID(),
		CPUModel:          f.CPUModel,
		Governor:          f.Governor,
		LoadAverage:       load,
		GoVersion:         f.GoVersion,
		Kernel:            f.Kernel,
	}
	if out.Version != "" {
		row.EngineVersion = out.Version
	}
	if c.Options.Rollouts > 0 && r.Engine.FixedWork {
		row.Mode = "rollouts"
		row.TargetSeconds = 0
		row.TargetRollouts = c.Options.Rollouts
	}
	if out.Status != results.StatusOK {
		row.StderrTail = out.StderrTail
	}
	return row
}

// markWrong records that the engine version failed the correctness check
// on the game: the run's counts stay, its status is wrong.
func markWrong(row *results.Row, detail string) {
	msg := "wrong: " + oneLine(detail, 2000)
	if detail == "" {
		msg = "the engine version failed the correctness check on this game"
	}
	if row.Status != results.StatusOK {
		msg += "; and the run itself: " + row.Status + ": " + row.ErrorMessage
	}
	row.Status = results.StatusWrong
	row.ErrorMessage = msg
}

// compat runs the compatibility check of every external engine that has
// runs in todo and was not checked before, and drops the runs of the
// engines it refuses.
func (c *Campaign) compat(ctx context.Context, todo []Run, sum *Summary) ([]Run, error) {
	if c.SkipCompat {
		return todo, nil
	}
	if c.Compat == nil {
		c.Compat = map[string]CompatResult{}
	}
	var order []*Engine
	seen := map[string]bool{}
	for _, r := range todo {
		if !r.Engine.Builtin && !seen[r.Engine.Name] {
			seen[r.Engine.Name] = true
			order = append(order, r.Engine)
		}
	c.Measure.measure(row, r, out, f, c.Child.CPU, LoadAverage())
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Name < order[j].Name })
	for _, e := range order {
		if _, ok := c.Compat[e.Name]; ok {
			continue
		}
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "checking that %s speaks the engine protocol (%d s on %s)...\n", e.Name, CompatSeconds, CompatGame)
		}
		res := CheckCompat(ctx, e, c.Child)
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		c.Compat[e.Name] = res
		if c.Progress != nil && res.OK {
			fmt.Fprintf(c.Progress, "%s %s: compatible (%d state changes in %d ms)\n", e.Name, res.Outcome.Version, res.Outcome.StateChanges, res.Outcome.Millis)
		}
	}
	kept := todo[:0:0]
	refused := map[string]bool{}
	for _, r := range todo {
		if res, ok := c.Compat[r.Engine.Name]; ok && !r.Engine.Builtin && !res.OK {
			sum.Refused++
			if !refused[r.Engine.Name] {
				refused[r.Engine.Name] = true
				msg := fmt.Sprintf("refusing engine %s: %s", r.Engine.Name, res.Reason)
				sum.RefusedEngines = append(sum.RefusedEngines, msg)
				if c.Progress != nil {
					fmt.Fprintln(c.Progress, msg)
				}
			}
			continue
		}
		kept = append(kept, r)
	}
	return kept, nil
}
