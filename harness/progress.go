package harness

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/results"
)

// progress shows what a campaign is doing. On a terminal it is one
// updating line (github.com/schollz/progressbar): a bar, done/total, the
// elapsed time, then the ETA, the failures, the rate and the run in
// progress; a failed run also leaves a line of its own above the bar.
// Otherwise it prints a plain line per finished run, for logs. Engine and
// game names and error messages come from manifests, servers and engines:
// they are shown through protocol.SafeText, so that an escape sequence or a
// bidi override in them cannot take over the terminal.
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	perRun   time.Duration // expected wall time of a run, for the ETA before the first one ends
	now      func() time.Time

	mu      sync.Mutex
	start   time.Time
	done    int
	failed  int
	running []Run // the runs in progress, in the order they started
	bar     *progressbar.ProgressBar
	stop    chan struct{}
	stopped sync.WaitGroup
}

func newProgress(w io.Writer, terminal bool, total int, perRun time.Duration, now func() time.Time) *progress {
	p := &progress{w: w, terminal: terminal && w != nil, total: total, perRun: perRun, now: now, start: now()}
	if !p.terminal || total == 0 {
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(12),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionThrottle(0),
	)
	// Refresh the elapsed time and the ETA during long runs.
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.bar.Describe(p.describe())
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// eta is the expected time left: the mean wall time of the finished runs,
// or the expected time of a run before any finished, times the runs left.
func (p *progress) eta() time.Duration {
	left := p.total - p.done
	if p.done == 0 {
		return time.Duration(left) * p.perRun
	}
	el := p.now().Sub(p.start)
	return time.Duration(float64(el) / float64(p.done) * float64(left))
}

// describe is the text after the bar. Call with mu held.
func (p *progress) describe() string {
	s := "ETA " + p.eta().Round(time.Second).String()
	if p.done == 0 {
		s = "ETA ~" + p.eta().Round(time.Second).String()
	}
	s += fmt.Sprintf(", %d failed", p.failed)
	if r := p.runningText(); r != "" {
		s += ": " + r
	}
	width := 100
	if f, ok := p.w.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			width = w
		}
	}
	// The bar, the counts, the rate and the times take about 50 columns.
	return protocol.Shorten(s, max(width-52, 30))
}

func (p *progress) starting(r Run) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = append(p.running, r)
	p.bar.Describe(p.describe())
}

func (p *progress) finished(r Run, row *results.Row) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	failed := row.Status != results.StatusOK
	if failed {
		p.failed++
	}
	if p.w == nil {
		return
	}
	what := fmt.Sprintf("%.0f states/s", row.StatesPerSecond())
	if row.IsInstructions() {
		// Its times are of a counted (slowed) run: the count is its figure.
		what = fmt.Sprintf("%s instructions/rollout (%s)", row.InstructionsPerOp, row.Counter)
	}
	if row.Contended {
		what += fmt.Sprintf(" (contended: %s of a CPU)", row.CPUShare)
	}
	if failed {
		what = row.Status + ": " + protocol.Shorten(protocol.SafeText(strings.Join(strings.Fields(row.ErrorMessage), " ")), 123)
	}
	line := fmt.Sprintf("[%d/%d] %s: %s\n", p.done, p.total, runText(r), what)
	if p.bar == nil {
		io.WriteString(p.w, line)
		return
	}
	p.running = slices.DeleteFunc(p.running, func(x Run) bool { return x.Key == r.Key && x.Engine == r.Engine && x.Game == r.Game })
	if failed {
		// A failure keeps a line of its own above the bar.
		p.bar.Clear()
		io.WriteString(p.w, "\r"+line)
	}
	p.bar.Describe(p.describe())
	p.bar.Add(1)
}

// note prints a message on a line of its own.
func (p *progress) note(msg string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
		fmt.Fprintf(p.w, "\r%s\n", protocol.SafeText(msg))
		p.bar.Describe(p.describe())
		return
	}
	fmt.Fprintln(p.w, protocol.SafeText(msg))
}

func (p *progress) close() {
	if p.bar == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Clear()
	io.WriteString(p.w, "\r")
}

// runText names a run on the progress line.
func runText(r Run) string {
	w := ""
	if r.Dims.Workload != "" {
		w = ", " + r.Dims.Workload
	}
	if r.Dims.Transform != "" {
		w += fmt.Sprintf(", %s %d", r.Dims.Transform, r.Dims.TransformSeed)
	}
	return fmt.Sprintf("%s on %s (rep %d%s)", protocol.SafeText(r.Engine.Name), protocol.SafeText(r.Game.Key), r.Repetition, w)
}

// gameName is the name part of a game key: ticTacToe of BASE/ticTacToe/JRFsaQ.
func gameName(key string) string {
	if parts := strings.Split(key, "/"); len(parts) == 3 {
		return parts[1]
	}
	return key
}

// runningText names the runs in progress: one in full, several by their
// engines' and games' short names, so that every job fits on the line.
// Call with mu held.
func (p *progress) runningText() string {
	switch len(p.running) {
	case 0:
		return ""
	case 1:
		return runText(p.running[0])
	}
	names := make([]string, len(p.running))
	for i, r := range p.running {
		names[i] = protocol.SafeText(r.Engine.Name) + " " + protocol.SafeText(gameName(r.Game.Key))
	}
	return fmt.Sprintf("%d running: %s", len(p.running), strings.Join(names, ", "))
}
