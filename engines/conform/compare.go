// Package conform checks that an engine answers like the reference prover
// (or any other engine), three ways:
//
//   - traces: both engines write the trace of the same seeded rollouts
//     (ARCHITECTURE.md §4) and the traces are compared line by line; the
//     first differing line is the shortest prefix of that rollout that shows
//     the difference;
//   - exhaustive: on a game with few reachable states, every reachable
//     state's legal moves, terminal flag, goals and successors are compared;
//   - metamorphic: every constant and variable of the game is renamed to a
//     random word, the renamed game is driven with the original trace's
//     joint moves (renamed), and after mapping the names back every state,
//     legal set, terminal flag and goal vector must be the same. It catches
//     answers that depend on names (hash order, interning) rather than
//     meaning.
//
// TraceCheck and RollerCheck drive the first on engines; the harness's
// gdlperf check and the test kit enginetest (Suite) run all of them. A
// machine that runs out of a resource limit gave no answer: the checks
// stop with a *LimitError, not a Mismatch. The package does not import
// testing: it is in the binary.
package conform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// Mismatch is a difference between an engine and the reference.
type Mismatch struct {
	Method  string     // "trace", "exhaustive" or "metamorphic"
	Rollout int        // trace and metamorphic
	Step    int        // steps from the initial state
	Diffs   []string   // what differed, one item each
	History [][]string // the joint moves from the initial state to the state that differs
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s mismatch at rollout %d, step %d: %s", m.Method, m.Rollout, m.Step, strings.Join(m.Diffs, "; "))
}

// HistoryText prints the move history, one joint move per step.
func (m *Mismatch) HistoryText() string {
	var b strings.Builder
	for i, j := range m.History {
		fmt.Fprintf(&b, "%d: %s\n", i, strings.Join(j, " "))
	}
	return b.String()
}

// CompareTraces compares an engine's trace with the reference's, line by
// line, and returns the first mismatch, or nil when they agree. Headers may
// differ in engine and version; roles and seed must agree.
func CompareTraces(ref, got io.Reader) (*Mismatch, error) {
	rs, gs := scanner(ref), scanner(got)
	var rh, gh rollout.TraceHeader
	if err := readLine(rs, &rh); err != nil {
		return nil, fmt.Errorf("reference trace: %w", err)
	}
	if err := readLine(gs, &gh); err != nil {
		return &Mismatch{Method: "trace", Diffs: []string{"the engine's trace has no valid header: " + err.Error()}}, nil
	}
	if strings.Join(rh.Roles, " ") != strings.Join(gh.Roles, " ") {
		return &Mismatch{Method: "trace", Diffs: []string{fmt.Sprintf("roles: reference %v, engine %v", rh.Roles, gh.Roles)}}, nil
	}
	if rh.Seed != gh.Seed {
		return nil, fmt.Errorf("the traces have different seeds, %d and %d", rh.Seed, gh.Seed)
	}
	var history [][]string
	lastRollout := -1
	for {
		var r, g rollout.TraceStep
		rerr := readLine(rs, &r)
		gerr := readLine(gs, &g)
		if rerr == io.EOF && gerr == io.EOF {
			return nil, nil
		}
		if rerr != nil && rerr != io.EOF {
			return nil, fmt.Errorf("reference trace: %w", rerr)
		}
		if r.Rollout != lastRollout {
			history, lastRollout = nil, r.Rollout
		}
		m := &Mismatch{Method: "trace", Rollout: r.Rollout, Step: r.Step, History: history}
		switch {
		case rerr == io.EOF:
			m.Rollout, m.Step = g.Rollout, g.Step
			m.Diffs = []string{"the engine's trace goes on after the reference's ends"}
			return m, nil
		case gerr == io.EOF:
			m.Diffs = []string{"the engine's trace ends early"}
			return m, nil
		case gerr != nil:
			m.Diffs = []string{"the engine's trace has a bad line: " + gerr.Error()}
			return m, nil
		}
		if rl, gl := errorKind(r.Error) == string(engines.ResourceLimit), errorKind(g.Error) == string(engines.ResourceLimit); rl != gl {
			side, msg, limited := "engine", g.Error, g
			if rl {
				side, msg, limited = "reference", r.Error, r
			}
			// The side at its limit answered up to this line's state, or
			// (out of it computing the state: the line has none) up to
			// the line before. (An engine that computed an empty state
			// and then ran out on that step passes the same way, wrong
			// or not: it gave no answer there to compare.)
			if limited.State == nil || len(setDiff("state", r.State, g.State)) == 0 {
				return nil, &LimitError{Side: side, Where: "the trace", Msg: msg, Rollout: r.Rollout, Step: r.Step, Compared: r.Rollout > 0 || r.Step > 0}
			}
		}
		if d := DiffSteps(&r, &g); len(d) > 0 {
			m.Diffs = d
			return m, nil
		}
		history = append(history, r.Joint)
	}
}

// LimitError says that a comparison stopped where the engine or the
// reference ran out of one of its resource limits (time, size, memory):
// that is no answer, so neither agreement nor a mismatch. Compared says
// whether anything agreed before it; gdlperf check counts that as it counts
// a check that ran out of its budget.
type LimitError struct {
	Side     string // "engine" or "reference"
	Where    string // the question
	Msg      string
	Rollout  int
	Step     int
	Compared bool
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the %s stopped at a resource limit at rollout %d, step %d (%s): %s", e.Side, e.Rollout, e.Step, e.Where, e.Msg)
}

// limitAt completes the *LimitError err with where it happened.
func limitAt(err error, rollout, step int, compared bool) *LimitError {
	le := err.(*LimitError)
	le.Rollout, le.Step, le.Compared = rollout, step, compared
	return le
}

func scanner(r io.Reader) *bufio.Scanner {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 256<<20)
	return s
}

func readLine(s *bufio.Scanner, v any) error {
	if !s.Scan() {
		if err := s.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	return json.Unmarshal(s.Bytes(), v)
}

// DiffSteps lists the differences between two trace lines.
func DiffSteps(r, g *rollout.TraceStep) []string {
	var d []string
	if r.Rollout != g.Rollout || r.Step != g.Step {
		return []string{fmt.Sprintf("the engine's line is rollout %d step %d, the reference's rollout %d step %d", g.Rollout, g.Step, r.Rollout, r.Step)}
	}
	d = append(d, setDiff("state", r.State, g.State)...)
	if r.Error != "" || g.Error != "" {
		rk, gk := errorKind(r.Error), errorKind(g.Error)
		if rk != gk {
			d = append(d, fmt.Sprintf("error: reference %q, engine %q", orNone(r.Error), orNone(g.Error)))
		}
		return d
	}
	if r.Terminal != g.Terminal {
		d = append(d, fmt.Sprintf("terminal: reference %v, engine %v", r.Terminal, g.Terminal))
		return d
	}
	if len(r.Legal) != len(g.Legal) {
		d = append(d, fmt.Sprintf("legal: reference has %d roles, engine %d", len(r.Legal), len(g.Legal)))
	} else {
		for i := range r.Legal {
			d = append(d, setDiff(fmt.Sprintf("legal moves of role %d", i), r.Legal[i], g.Legal[i])...)
		}
	}
	if fmt.Sprint(r.Goals) != fmt.Sprint(g.Goals) {
		d = append(d, fmt.Sprintf("goals: reference %v, engine %v", r.Goals, g.Goals))
	}
	if len(d) == 0 && strings.Join(r.Joint, "\x00") != strings.Join(g.Joint, "\x00") {
		d = append(d, fmt.Sprintf("joint move: reference %v, engine %v (same legal sets: the engine chose differently)", r.Joint, g.Joint))
	}
	return d
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// errorKind is the part of a game error before its first colon: engines
// word their messages differently but must agree on the kind.
func errorKind(s string) string {
	k, _, _ := strings.Cut(s, ":")
	return k
}

// setDiff describes what is missing from and extra in got compared to want.
func setDiff(what string, want, got []string) []string {
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	g := map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	var missing, extra []string
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	var d []string
	if len(missing) > 0 {
		d = append(d, fmt.Sprintf("%s missing %s", what, strings.Join(limit(missing), " ")))
	}
	if len(extra) > 0 {
		d = append(d, fmt.Sprintf("%s extra %s", what, strings.Join(limit(extra), " ")))
	}
	if len(d) == 0 && len(want) != len(got) {
		d = append(d, fmt.Sprintf("%s: reference lists %d, engine %d (duplicates)", what, len(want), len(got)))
	}
	return d
}

func limit(s []string) []string {
	if len(s) > 10 {
		return append(s[:10:10], fmt.Sprintf("... (%d in all)", len(s)))
	}
	return s
}
