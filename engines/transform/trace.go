package transform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// A renamed game's trace takes another path than the original's: moves are
// drawn by index from legal lists sorted by their text, and renaming
// changes the sort. So equivalence under renaming is shown in two steps:
// MapTrace maps the renamed game's trace back to the original names (a
// trace of the original game along the renamed game's choices), and Follow
// plays the original game along those joint moves; the two must be equal
// (conform.CompareTraces).

// MapTrace copies the trace r to w with every term mapped by back, the
// states and legal lists sorted again.
func MapTrace(r io.Reader, w io.Writer, back func(string) string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	all := func(ss []string, sorted bool) []string {
		if ss == nil {
			return nil
		}
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = back(s)
		}
		if sorted {
			sort.Strings(out)
		}
		return out
	}
	for first := true; sc.Scan(); first = false {
		if first {
			var h protocol.TraceHeader
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
				return fmt.Errorf("the trace's header: %w", err)
			}
			h.Roles = all(h.Roles, false)
			if err := enc.Encode(h); err != nil {
				return err
			}
			continue
		}
		var s protocol.TraceStep
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return fmt.Errorf("the trace's line %q: %w", clip(sc.Text()), err)
		}
		s.State = all(s.State, true)
		for i, l := range s.Legal {
			s.Legal[i] = all(l, true)
		}
		s.Joint = all(s.Joint, false)
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return bw.Flush()
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Follow writes the trace m plays along the joint moves of guide, a trace
// of the same game: the same header, and for each of guide's lines m's own
// state, terminal flag, legal moves and goals (or game error) with guide's
// joint move, after which m plays that joint move. It stops where m cannot
// (a joint move m does not find legal, a game error), so that comparing
// its output with guide shows the first difference.
func Follow(w io.Writer, m engines.Machine, guide io.Reader) error {
	sc := bufio.NewScanner(guide)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return err
		}
		return fmt.Errorf("the guide trace is empty")
	}
	var h protocol.TraceHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		return fmt.Errorf("the guide trace's header: %w", err)
	}
	h.Roles = m.Roles()
	if err := enc.Encode(h); err != nil {
		return err
	}
	roles := len(h.Roles)
	ch := protocol.NewChooser(m.MoveText)
	var s engines.State
	fail := func(line protocol.TraceStep, err error) error {
		line.Error = err.Error()
		return enc.Encode(line)
	}
	for sc.Scan() {
		var g protocol.TraceStep
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return fmt.Errorf("the guide trace's line %q: %w", clip(sc.Text()), err)
		}
		if g.Step == 0 {
			var err error
			if s, err = m.Initial(); err != nil {
				return fail(protocol.TraceStep{Rollout: g.Rollout}, err)
			}
		}
		line := protocol.TraceStep{Rollout: g.Rollout, Step: g.Step, State: m.StateFacts(s)}
		if g.Step >= protocol.MaxTraceSteps {
			return fail(line, protocol.Errorf(protocol.ResourceLimit, "rollout %d did not end within %d steps", g.Rollout, protocol.MaxTraceSteps))
		}
		term, err := m.Terminal(s)
		if err != nil {
			return fail(line, err)
		}
		line.Terminal = term
		if term {
			goals, err := m.Goals(s)
			if err != nil {
				return fail(line, err)
			}
			line.Goals = goals
			if err := enc.Encode(line); err != nil {
				return err
			}
			continue
		}
		joint := make([]engines.Move, roles)
		line.Legal = make([][]string, roles)
		line.Joint = g.Joint
		found := len(g.Joint) == roles
		for role := range roles {
			moves, err := m.Legal(s, role)
			if err != nil {
				return fail(line, err)
			}
			sorted := ch.Sorted(moves)
			texts := make([]string, len(sorted))
			ok := false
			for i, mv := range sorted {
				texts[i] = ch.Text(mv)
				if found && texts[i] == g.Joint[role] {
					joint[role], ok = mv, true
				}
			}
			line.Legal[role] = texts
			found = found && ok
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
		if !found {
			return nil // the guide's joint move is not legal here: the comparison says so
		}
		if s, err = m.Next(s, joint); err != nil {
			return fail(protocol.TraceStep{Rollout: g.Rollout, Step: g.Step + 1}, err)
		}
	}
	return sc.Err()
}
