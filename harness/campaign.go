package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdlperf/gdlperf/engines/workload"
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
	// Compat holds the compatibility checks already done (by engine ID,
	// NAME@VERSION: two manifest versions of one name are checked apart);
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
	// RerunContended runs a contended run again at the end of the
	// campaign, up to this many times per run key; ContendedBefore counts
	// the contended rows of each run key already in the results (a resumed
	// campaign reruns only what is left of that allowance).
	RerunContended  int
	ContendedBefore map[string]int
	// CPUs, when set, runs len(CPUs) engine processes at once, each pinned
	// to a CPU of its own (gdlperf run --jobs); Child.CPU is then ignored.
	CPUs         []int
	transformsMu sync.Mutex
	transforms   *transformCache
	// Counter counts the instructions of the runs measured in
	// instructions (Dims.Measure); nil = DetectCounter once.
	Counter *Counter
	// Measure is how runs are measured: the harness's version, the
	// concurrency and the CPU share under which a run is contended.
	Measure Measurement
	// Guard, when set, is asked before every run and after every row
	// written; an error from it stops the campaign with that error (gdlperf
	// run: its results file is still where it writes).
	Guard func() error
}

// Summary is what a campaign did.
type Summary struct {
	Planned, Skipped, Ran, Failed int
	Refused                       int      // runs of engines that failed the compatibility check
	Unchecked                     int      // runs skipped by RequireChecked
	Wrong                         int      // runs recorded as wrong by the verdicts
	Contended                     int      // rows recorded as contended (left out of verdicts)
	Unsupported                   int      // runs of a workload their engine does not run
	Rerun                         int      // contended runs run again
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
	// What a harness killed with SIGKILL left: its engines' processes and
	// its temporary folders.
	if killed, removed, err := CleanLeftovers(c.Child.TempRoot); (killed > 0 || removed > 0) && c.Progress != nil {
		fmt.Fprintf(c.Progress, "cleaned up after a gdlperf that was killed: %d process(es) stopped, %d temporary folder(s) removed\n", killed, removed)
	} else if err != nil && c.Progress != nil {
		fmt.Fprintf(c.Progress, "warning: cleaning up after a gdlperf that was killed: %v\n", err)
	}
	dir := c.WorkDir
	if dir == "" {
		d, err := os.MkdirTemp("", "gdlperf-run-")
		if err != nil {
			return sum, err
		}
		if err := MarkOwner(d); err != nil {
			os.RemoveAll(d)
			return sum, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	var notes []string
	todo := make([]Run, 0, len(c.Runs))
	uncheckedPair := map[string]bool{}
	unsupported := map[string]bool{}
	for _, r := range c.Runs {
		if c.Done[r.Key] {
			sum.Skipped++
			continue
		}
		if !r.Engine.Supports(r.Dims.Workload) {
			sum.Unsupported++
			if k := r.Engine.ID() + "\x00" + r.Dims.Workload; !unsupported[k] {
				unsupported[k] = true
				notes = append(notes, fmt.Sprintf("skipping workload %s for engine %s: it does not run it (a manifest engine declares the workloads it runs: workloads = [\"%s\"])", r.Dims.Workload, r.Engine.Name, r.Dims.Workload))
			}
			continue
		}
		if c.RequireChecked {
			if v, detail := c.Verdict(r.Game.Key, r.Engine.Name, r.Engine.Version); v != results.StatusOK {
				sum.Unchecked++
				pair := r.Engine.ID() + "\x00" + r.Game.Key
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
	perRun := time.Duration(c.Options.Seconds)*time.Second + time.Second
	if c.Options.Rollouts > 0 {
		perRun = 10 * time.Second
	}
	p := newProgress(c.Progress, c.Terminal, len(todo), perRun, now)
	defer p.close()
	// One worker per job, each with the CPU of its own; runs start in the
	// plan's order on whichever worker is free, so every engine's runs
	// spread over all CPUs and a slow core does not fall on one engine.
	// Rows are appended by one writer, as runs finish.
	children := c.workers()
	if c.Measure.Jobs == 0 {
		c.Measure.Jobs = len(children)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu           sync.Mutex
		fatal        error
		versionNoted = map[string]bool{}
	)
	stop := func(err error) {
		if fatal == nil {
			fatal = err
		}
		cancel()
	}
	// Contended runs go again at the end of the campaign, each up to
	// RerunContended times in all (counting the contended rows of earlier
	// campaigns on the folder).
	reruns := map[string]int{}
	for k, n := range c.ContendedBefore {
		reruns[k] = n
	}
	var again []Run
	run := func(w int, r Run) {
		mu.Lock()
		if fatal != nil || ctx.Err() != nil {
			mu.Unlock()
			return
		}
		if err := c.guard(); err != nil {
			stop(err)
			mu.Unlock()
			return
		}
		p.starting(r)
		mu.Unlock()
		var (
			row *results.Row
			out Outcome
			err error
		)
		if r.Dims.Measure == results.MeasureInstructions {
			row, out, err = c.runInstructions(ctx, r, dir, children[w], now, c.Counter)
		} else {
			row, out, err = c.runOne(ctx, r, dir, children[w], now)
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			stop(err)
			return
		case out.Interrupted || fatal != nil:
			if fatal == nil {
				sum.Interrupted = true
			}
			return
		}
		if v := out.Version; v != "" && r.Engine.Version != "" && v != r.Engine.Version && !versionNoted[r.Engine.ID()] {
			versionNoted[r.Engine.ID()] = true
			p.note(fmt.Sprintf("note: engine %s reported version %q, not the %q its run keys use: its rows record %q, so that a failed run and its retry are one version; give the manifest version = %q to record that one", r.Engine.Name, v, r.Engine.Version, r.Engine.Version, v))
		}
		if c.Verdict != nil {
			if v, detail := c.Verdict(r.Game.Key, r.Engine.Name, row.EngineVersion); v == results.StatusWrong {
				markWrong(row, detail)
				sum.Wrong++
			}
		}
		if err := c.Writer.Append(row); err != nil {
			stop(fmt.Errorf("writing the results: %w", err))
			return
		}
		sum.Ran++
		if row.Status != results.StatusOK {
			sum.Failed++
		}
		if row.Contended {
			sum.Contended++
			if reruns[r.Key] < c.RerunContended {
				reruns[r.Key]++
				again = append(again, r)
				p.grow(1)
			}
		}
		p.finished(r, row)
		if err := c.guard(); err != nil {
			stop(err)
		}
	}
	for len(todo) > 0 && fatal == nil && ctx.Err() == nil {
		forEach(ctx, len(children), todo, run)
		todo, again = again, nil
		if len(todo) > 0 {
			sum.Rerun += len(todo)
			p.note(fmt.Sprintf("running %d contended run(s) again (they got under %.0f%% of a CPU)", len(todo), 100*c.Measure.contendedBelow()))
		}
	}
	if fatal != nil {
		return sum, fatal
	}
	if sum.Interrupted || ctx.Err() != nil {
		sum.Interrupted = true
		return sum, ErrInterrupted
	}
	return sum, nil
}

// workers are the child options of each job: Child pinned to each CPU of
// CPUs, or Child alone when CPUs is empty (one job).
func (c *Campaign) workers() []ChildOptions {
	if len(c.CPUs) == 0 {
		return []ChildOptions{c.Child}
	}
	out := make([]ChildOptions, len(c.CPUs))
	for i, cpu := range c.CPUs {
		out[i] = c.Child
		out[i].CPU = cpu
	}
	return out
}

func (c *Campaign) guard() error {
	if c.Guard == nil {
		return nil
	}
	return c.Guard()
}

// runOne runs r once, in a private folder made under dir for this run
// alone and removed after it, and returns its row (not yet written). When
// the campaign was stopped during the run, the outcome says Interrupted
// and there is no row. An error is the harness's own (the folder could not
// be made): it stops the campaign.
//
// The folder has a name no engine can predict (os.MkdirTemp), so none can
// have planted a symlink where the harness writes; the game file in it is
// read-only in a read-only folder, so an engine that writes to its game
// file cannot spoil the runs after it; and one that makes it writable and
// changes it anyway has its run recorded as an error.
func (c *Campaign) runOne(ctx context.Context, r Run, dir string, child ChildOptions, now func() time.Time) (*results.Row, Outcome, error) {
	rules, terr := c.rulesOf(r)
	if terr != nil {
		// The rewrite failed (a size budget, a bug of the transform): the
		// run is an error of its own, the engine is not run.
		out := Outcome{Status: results.StatusError, Error: oneLine(terr.Error(), 2000)}
		return c.row(r, out, now().UTC(), LoadAverage(), child.CPU), out, nil
	}
	h := sha256.Sum256(rules)
	rd, err := newRunDir(dir, "run-", "game-"+hex.EncodeToString(h[:8])+".kif", rules)
	if err != nil {
		return nil, Outcome{}, fmt.Errorf("preparing the folder of run %s (%s on %s): %w", r.Key, r.Engine.Name, r.Game.Key, err)
	}
	defer rd.remove()
	args := c.args(r, rd.game, rd.result)
	if r.Dims.Workload != "" {
		// Fixed work, or at most SECONDS of search: a timed pns stops early
		// when it has proved the game.
		child.TargetSeconds = 0
		child.Limit = max(child.Limit, Limit(Options{Seconds: c.workloadSeconds(r.Dims)}))
	} else if c.Options.Rollouts > 0 && r.Engine.FixedWork {
		child.TargetSeconds = 0
	} else {
		child.TargetSeconds = c.Options.Seconds
	}
	start := now().UTC()
	load := LoadAverage()
	out := RunChild(ctx, r.Engine, args, rd.result, child)
	if out.Interrupted {
		return nil, out, nil
	}
	rd.checkGame(&out)
	// The row records the version of the run key, so that a run that
	// failed before its engine said its version and the run that retries it
	// are rows of one engine version.
	recorded := out
	if r.Engine.Version != "" {
		recorded.Version = r.Engine.Version
	}
	return c.row(r, recorded, start, load, child.CPU), out, nil
}

// WorkloadSeconds is the SECONDS of a fixed-work workload run: not its
// length but the bound past which the engine stops it as failed, the run's
// target seconds when longer.
const WorkloadSeconds = 60

// workloadSeconds is the SECONDS of a workload run: the campaign's seconds
// for a timed budget (uct iterations=0, pns nodes=0, minimax depth=0: as
// much search as the time allows), else the bound of fixed work.
func (c *Campaign) workloadSeconds(d Dims) int {
	if workload.ParseBudget(d.Budget).Timed(d.Workload) {
		return c.Options.Seconds
	}
	return max(WorkloadSeconds, c.Options.Seconds)
}

func (c *Campaign) args(r Run, game, result string) []string {
	if r.Dims.Workload != "" {
		args := append([]string{"--workload", r.Dims.Workload}, budgetArgs(r.Dims.Budget)...)
		return append(args, "--seed", strconv.FormatUint(r.Seed, 10), game, result, strconv.Itoa(c.workloadSeconds(r.Dims)))
	}
	if c.Options.Rollouts > 0 && r.Engine.FixedWork {
		return []string{"--rollouts", strconv.Itoa(c.Options.Rollouts), "--seed", strconv.FormatUint(r.Seed, 10), game, result, "0"}
	}
	if r.Engine.Builtin {
		return []string{"--seed", strconv.FormatUint(r.Seed, 10), game, result, strconv.Itoa(c.Options.Seconds)}
	}
	return []string{game, result, strconv.Itoa(c.Options.Seconds)}
}

func (c *Campaign) row(r Run, out Outcome, start time.Time, load string, cpu int) *results.Row {
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
	c.Measure.measure(row, r, out, f, cpu, LoadAverage())
	if c.Options.Rollouts > 0 && r.Engine.FixedWork {
		row.Mode = "rollouts"
		row.TargetSeconds = 0
		row.TargetRollouts = c.Options.Rollouts
	}
	if out.Status != results.StatusOK {
		row.StderrTail = out.StderrTail
	}
	row.Flags = strings.Join(out.Flags, "; ")
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
		if !r.Engine.Builtin && !seen[r.Engine.ID()] {
			seen[r.Engine.ID()] = true
			order = append(order, r.Engine)
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].ID() < order[j].ID() })
	for _, e := range order {
		if _, ok := c.Compat[e.ID()]; ok {
			continue
		}
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "checking that %s speaks the engine protocol (%d s on %s)...\n", e.Name, CompatSeconds, CompatGame)
		}
		res := CheckCompat(ctx, e, c.Child)
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		c.Compat[e.ID()] = res
		if c.Progress != nil && res.OK {
			fmt.Fprintf(c.Progress, "%s %s: compatible (%d state changes in %d ms)\n", e.Name, res.Outcome.Version, res.Outcome.StateChanges, res.Outcome.Millis)
		}
	}
	kept := todo[:0:0]
	refused := map[string]bool{}
	for _, r := range todo {
		if res, ok := c.Compat[r.Engine.ID()]; ok && !r.Engine.Builtin && !res.OK {
			sum.Refused++
			if !refused[r.Engine.ID()] {
				refused[r.Engine.ID()] = true
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

// runDir is the private folder of one engine process run: the game file,
// read-only in a read-only folder, and a writable folder of its own for the
// result file (engines write their result beside it and rename it into
// place).
type runDir struct {
	dir, out     string
	game, result string
	sum          [sha256.Size]byte
}

// newRunDir makes a folder with a fresh name (os.MkdirTemp: nothing can be
// waiting at it) under parent ("" for the system's temporary folder) and
// writes the game file name with rules in it, created exclusively.
func newRunDir(parent, prefix, name string, rules []byte) (*runDir, error) {
	d, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return nil, err
	}
	rd := &runDir{dir: d, out: filepath.Join(d, "out"), game: filepath.Join(d, name), sum: sha256.Sum256(rules)}
	rd.result = filepath.Join(rd.out, "result.txt")
	fail := func(err error) (*runDir, error) {
		rd.remove()
		return nil, err
	}
	f, err := os.OpenFile(rd.game, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o400)
	if err != nil {
		return fail(fmt.Errorf("writing the game file: %w", err))
	}
	if _, err := f.Write(rules); err != nil {
		f.Close()
		return fail(fmt.Errorf("writing the game file %s: %w", rd.game, err))
	}
	if err := f.Close(); err != nil {
		return fail(fmt.Errorf("writing the game file %s: %w", rd.game, err))
	}
	if err := os.Mkdir(rd.out, 0o700); err != nil {
		return fail(err)
	}
	if err := os.Chmod(d, 0o500); err != nil {
		return fail(err)
	}
	return rd, nil
}

// checkGame turns the outcome into an error when the game file is no longer
// the game's rules: the engine made it writable and changed it (or removed
// it), so its figures are not of this game.
func (rd *runDir) checkGame(out *Outcome) {
	b, err := os.ReadFile(rd.game)
	if err == nil && sha256.Sum256(b) == rd.sum {
		return
	}
	msg := "the engine changed its game file"
	if err != nil {
		msg = "the engine removed or hid its game file (" + err.Error() + ")"
	}
	if out.Status != results.StatusOK {
		msg += "; and the run itself: " + out.Status + ": " + out.Error
	}
	out.Status, out.Error = results.StatusError, msg
}

// remove deletes the folder, making every folder in it writable first (an
// engine may have left read-only ones).
func (rd *runDir) remove() {
	os.Chmod(rd.dir, 0o700)
	if os.RemoveAll(rd.dir) == nil {
		return
	}
	filepath.WalkDir(rd.dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	os.RemoveAll(rd.dir)
}

// budgetArgs turns a workload budget, "iterations=2000 role=xplayer", into
// the flags of the engine process: --iterations 2000 --role xplayer.
func budgetArgs(budget string) []string {
	var out []string
	for _, w := range strings.Fields(budget) {
		k, v, _ := strings.Cut(w, "=")
		out = append(out, "--"+k, v)
	}
	return out
}
