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
}

// Summary is what a campaign did.
type Summary struct {
	Planned, Skipped, Ran, Failed int
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
	dir := c.WorkDir
	if dir == "" {
		d, err := os.MkdirTemp("", "gdlperf-run-")
		if err != nil {
			return sum, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	todo := make([]Run, 0, len(c.Runs))
	for _, r := range c.Runs {
		if c.Done[r.Key] {
			sum.Skipped++
			continue
		}
		todo = append(todo, r)
	}
	gameFiles := map[*Game]string{}
	p := progress{w: c.Progress, terminal: c.Terminal, total: len(todo), start: now(), now: now}
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
		if err := c.Writer.Append(row); err != nil {
			return sum, fmt.Errorf("writing the results: %w", err)
		}
		sum.Ran++
		if row.Status != results.StatusOK {
			sum.Failed++
		}
		p.finished(r, row)
	}
	p.close()
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

// progress prints what the campaign is doing: one updating line on a
// terminal, a plain line per finished run otherwise.
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	done     int
	failed   int
	start    time.Time
	now      func() time.Time
	width    int
}

func (p *progress) eta() string {
	if p.done == 0 {
		return "?"
	}
	el := p.now().Sub(p.start)
	left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
	return left.Round(time.Second).String()
}

func (p *progress) starting(r Run) {
	if p.w == nil || !p.terminal {
		return
	}
	line := fmt.Sprintf("[%d/%d] %d failed, ETA %s: %s on %s (rep %d)", p.done, p.total, p.failed, p.eta(), r.Engine.Name, r.Game.Key, r.Repetition)
	pad := p.width - len(line)
	p.width = len(line)
	if pad < 0 {
		pad = 0
	}
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
}

func (p *progress) finished(r Run, row *results.Row) {
	p.done++
	if row.Status != results.StatusOK {
		p.failed++
	}
	if p.w == nil || p.terminal {
		return
	}
	what := fmt.Sprintf("%.0f states/s", row.StatesPerSecond())
	if row.Status != results.StatusOK {
		what = row.Status + ": " + oneLine(row.ErrorMessage, 120)
	}
	fmt.Fprintf(p.w, "[%d/%d] %s on %s (rep %d): %s\n", p.done, p.total, r.Engine.Name, r.Game.Key, r.Repetition, what)
}

func (p *progress) close() {
	if p.w != nil && p.terminal && p.width > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.width, "")
	}
}
