package rt

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Exit statuses, as gdlperf's.
const (
	exitFailure = 1
	exitUsage   = 2
)

// MaxTraceSteps bounds one traced (or fixed-work) rollout, as
// rollout.MaxTraceSteps.
const MaxTraceSteps = 10_000

var processStart = time.Now()

const usage = `usage:
  PROG [-design D] [-seed S] [-rollouts N] GAME_FILE RESULT_FILE SECONDS
  PROG -trace TRACE_FILE [-design D] [-seed S] [-rollouts N] GAME_FILE
  PROG -serve [-design D] [GAME_FILE]`

// RunChoose runs the command line args with the program's designs and
// returns the exit status. Each mode loads the designs and keeps the
// fastest in a warm-up (see choose), or the one that -design names.
func RunChoose(designs []Design, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compiled", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of the random move choices")
	rollouts := fs.Int("rollouts", -1, "fixed-work mode (a run) or number of rollouts (a trace, 1 by default)")
	trace := fs.String("trace", "", "write a trace to this file (\"-\": standard output)")
	serve := fs.Bool("serve", false, "answer questions on standard input")
	design := fs.String("design", "", "use this design, \""+DesignBottomUp+"\" or \"magic\", instead of the faster")
	fs.Usage = func() { fmt.Fprintln(stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest := fs.Args()
	forced := *design
	switch forced {
	case "", DesignBottomUp, DesignMagic:
	case "magic":
		forced = DesignMagic
	default:
		fmt.Fprintf(stderr, "-design must be %s or magic, not %q\n", DesignBottomUp, forced)
		return exitUsage
	}
	es := make([]*Engine, len(designs))
	for i, d := range designs {
		es[i] = d.Setup()
		es[i].Design = d.Name
	}
	e := es[0] // for the rules' checksum and the version
	switch {
	case *serve:
		if len(rest) > 1 {
			fs.Usage()
			return exitUsage
		}
		if len(rest) == 1 {
			if err := e.checkFile(rest[0]); err != nil {
				fmt.Fprintln(stderr, err)
				return exitFailure
			}
		}
		e, err := choose(es, forced)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFailure
		}
		if err := e.Serve(stdin, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return exitFailure
		}
		return 0
	case *trace != "":
		if len(rest) != 1 {
			fs.Usage()
			return exitUsage
		}
		n := 1
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "rollouts" })
		if set {
			if *rollouts < 0 {
				fmt.Fprintln(stderr, "-rollouts must not be negative")
				return exitUsage
			}
			n = *rollouts
		}
		if err := runTrace(es, forced, rest[0], *trace, *seed, n, stdout); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return exitFailure
		}
		return 0
	}
	if len(rest) != 3 {
		fs.Usage()
		return exitUsage
	}
	secs, err := strconv.Atoi(rest[2])
	if err != nil || secs < 0 {
		fmt.Fprintf(stderr, "SECONDS must be a whole number of seconds, not %q\n", rest[2])
		return exitUsage
	}
	res, err := process(es, forced, rest[0], secs, max(*rollouts, 0), *seed)
	if werr := res.WriteFile(rest[1]); werr != nil {
		fmt.Fprintln(stderr, "error: writing the result file:", werr)
		return exitFailure
	}
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return exitFailure
	}
	return 0
}

// checkFile refuses a game file whose bytes are not those the program was
// built for.
func (e *Engine) checkFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != e.RulesSHA {
		return fmt.Errorf("%s: the rules are not those this program was built for (sha256 %s, built for %s)", path, got, e.RulesSHA)
	}
	return nil
}

// process is one benchmark run, as rollout.Process.Run; the choice of the
// design is part of the start-up, before the timing starts.
func process(es []*Engine, forced, file string, secs, rollouts int, seed uint64) (res *Result, err error) {
	e := es[0]
	res = &Result{}
	res.Set("version", e.Version)
	fail := func(err error) (*Result, error) {
		res.Set("errorMessage", err.Error())
		res.SetInt("peakRSSKiB", PeakRSSKiB())
		return res, err
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = fail(fmt.Errorf("engine compiled panicked: %v\n%s", r, firstFrames(debug.Stack())))
		}
	}()
	if err := e.checkFile(file); err != nil {
		return fail(err)
	}
	e, err = choose(es, forced)
	if err != nil {
		return fail(err)
	}
	initMs := time.Since(processStart).Milliseconds()
	var st stats
	if rollouts > 0 {
		st, err = e.runFixed(rollouts, seed)
	} else {
		st, err = e.runTimed(time.Duration(secs)*time.Second, seed)
	}
	if err != nil {
		return fail(err)
	}
	res.SetInt("millisecondsTaken", st.elapsed.Milliseconds())
	res.SetInt("numStateChanges", st.stateChanges)
	res.SetInt("numRollouts", st.rollouts)
	res.SetInt("initMilliseconds", initMs)
	res.SetInt("peakRSSKiB", PeakRSSKiB())
	res.SetInt("gomaxprocs", int64(runtime.GOMAXPROCS(0)))
	res.Set("seed", fmt.Sprint(seed))
	res.Set("design", e.Design)
	return res, nil
}

func firstFrames(stack []byte) string {
	const max = 2000
	if len(stack) > max {
		stack = stack[:max]
	}
	return string(stack)
}

type stats struct {
	stateChanges, rollouts int64
	elapsed                time.Duration
}

// runTimed is rollout.Run.
func (e *Engine) runTimed(d time.Duration, seed uint64) (stats, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	choose := func(_ int, legal []int32) int32 { return legal[rng.IntN(len(legal))] }
	start := time.Now()
	deadline := start.Add(d)
	over := func() bool { return time.Now().After(deadline) }
	var st stats
	joint := make([]int32, len(e.Roles))
	for {
		stopped, err := e.playout(joint, choose, 0, over, &st)
		if err != nil || stopped {
			st.elapsed = time.Since(start)
			return st, err
		}
		st.rollouts++
		if over() {
			st.elapsed = time.Since(start)
			return st, nil
		}
	}
}

// runFixed is rollout.RunFixed.
func (e *Engine) runFixed(n int, seed uint64) (stats, error) {
	var texts []string
	text := func(mv int32) string {
		if int(mv) >= len(texts) {
			texts = append(texts, make([]string, int(mv)+1-len(texts))...)
		}
		if texts[mv] == "" {
			texts[mv] = e.S.Text(mv)
		}
		return texts[mv]
	}
	var sorted []int32
	var rng *rand.Rand
	choose := func(_ int, legal []int32) int32 {
		sorted = append(sorted[:0], legal...)
		slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(text(a), text(b)) })
		sorted = slices.CompactFunc(sorted, func(a, b int32) bool { return text(a) == text(b) })
		return sorted[rng.IntN(len(sorted))]
	}
	var st stats
	joint := make([]int32, len(e.Roles))
	start := time.Now()
	for r := 0; r < n; r++ {
		rng = rand.New(rand.NewPCG(seed, uint64(r)))
		if _, err := e.playout(joint, choose, MaxTraceSteps, nil, &st); err != nil {
			st.elapsed = time.Since(start)
			return st, err
		}
		st.rollouts++
	}
	st.elapsed = time.Since(start)
	return st, nil
}

// playout is rollout's playout.
func (e *Engine) playout(joint []int32, choose func(role int, legal []int32) int32, maxSteps int, stop func() bool, st *stats) (stopped bool, err error) {
	s, err := e.Initial()
	if err != nil {
		return false, err
	}
	for step := 0; ; step++ {
		if stop != nil && step&63 == 63 && stop() {
			return true, nil
		}
		if maxSteps > 0 && step >= maxSteps {
			return false, Errorf(ResourceLimit, "a rollout did not end within %d steps", maxSteps)
		}
		term, err := e.Terminal(s)
		if err != nil {
			return false, err
		}
		if term {
			break
		}
		for r := range joint {
			legal, err := e.Legal(s, r)
			if err != nil {
				return false, err
			}
			joint[r] = choose(r, legal)
		}
		if s, err = e.Next(s, joint); err != nil {
			return false, err
		}
		st.stateChanges++
	}
	_, err = e.Goals(s)
	return false, err
}

// TraceHeader is rollout.TraceHeader.
type TraceHeader struct {
	Roles   []string `json:"roles"`
	Engine  string   `json:"engine"`
	Version string   `json:"version"`
	Seed    uint64   `json:"seed"`
}

// TraceStep is rollout.TraceStep.
type TraceStep struct {
	Rollout  int        `json:"rollout"`
	Step     int        `json:"step"`
	State    []string   `json:"state"`
	Terminal bool       `json:"terminal"`
	Legal    [][]string `json:"legal,omitempty"`
	Joint    []string   `json:"joint,omitempty"`
	Goals    []int      `json:"goals,omitempty"`
	Error    string     `json:"error,omitempty"`
}

// runTrace is gdlperf engine trace: the trace goes to a temporary file
// renamed into place, kept when the game fails.
func runTrace(es []*Engine, forced, game, path string, seed uint64, n int, stdout io.Writer) error {
	if err := es[0].checkFile(game); err != nil {
		return err
	}
	e, err := choose(es, forced)
	if err != nil {
		return err
	}
	if path == "-" {
		w := bufio.NewWriter(stdout)
		terr := e.Trace(w, seed, n)
		if err := w.Flush(); err != nil {
			return err
		}
		return terr
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".trace-*")
	if err != nil {
		return err
	}
	terr := e.Trace(tmp, seed, n)
	if cerr := tmp.Close(); cerr != nil && terr == nil {
		terr = cerr
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return terr
}

// Trace is rollout.Trace.
func (e *Engine) Trace(w io.Writer, seed uint64, n int) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(TraceHeader{Roles: e.RoleNames(), Engine: "compiled", Version: e.Version, Seed: seed}); err != nil {
		return err
	}
	var gameErr error
	for r := 0; r < n && gameErr == nil; r++ {
		gameErr = e.traceRollout(enc, seed, r)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return gameErr
}

func (e *Engine) traceRollout(enc *json.Encoder, seed uint64, r int) error {
	rng := rand.New(rand.NewPCG(seed, uint64(r)))
	roles := len(e.Roles)
	fail := func(line TraceStep, err error) error {
		line.Error = err.Error()
		if werr := enc.Encode(line); werr != nil {
			return werr
		}
		return err
	}
	s, err := e.Initial()
	if err != nil {
		return fail(TraceStep{Rollout: r}, err)
	}
	type choice struct {
		text string
		move int32
	}
	for step := 0; ; step++ {
		line := TraceStep{Rollout: r, Step: step, State: e.StateFacts(s)}
		if step >= MaxTraceSteps {
			return fail(line, Errorf(ResourceLimit, "rollout %d did not end within %d steps", r, MaxTraceSteps))
		}
		term, err := e.Terminal(s)
		if err != nil {
			return fail(line, err)
		}
		line.Terminal = term
		if term {
			goals, err := e.Goals(s)
			if err != nil {
				return fail(line, err)
			}
			line.Goals = goals
			return enc.Encode(line)
		}
		joint := make([]int32, roles)
		line.Legal = make([][]string, roles)
		line.Joint = make([]string, roles)
		for role := 0; role < roles; role++ {
			moves, err := e.Legal(s, role)
			if err != nil {
				return fail(line, err)
			}
			cs := make([]choice, 0, len(moves))
			for _, mv := range moves {
				cs = append(cs, choice{e.S.Text(mv), mv})
			}
			slices.SortFunc(cs, func(a, b choice) int { return strings.Compare(a.text, b.text) })
			texts := make([]string, 0, len(cs))
			for i, c := range cs {
				if i > 0 && c.text == cs[i-1].text {
					continue
				}
				texts = append(texts, c.text)
			}
			pick := rng.IntN(len(texts))
			line.Legal[role] = texts
			line.Joint[role] = texts[pick]
			for _, c := range cs {
				if c.text == texts[pick] {
					joint[role] = c.move
					break
				}
			}
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
		if s, err = e.Next(s, joint); err != nil {
			return fail(TraceStep{Rollout: r, Step: step + 1}, err)
		}
	}
}
