package protocol

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// TraceHeader is the first line of a trace.
type TraceHeader struct {
	Roles   []string `json:"roles"`
	Engine  string   `json:"engine"`
	Version string   `json:"version"`
	Seed    uint64   `json:"seed"`
}

// TraceStep is one state of a rollout: its facts, whether it is terminal,
// and then either the legal moves with the joint move chosen, the goals,
// or the game error met there.
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

// MaxTraceSteps bounds one traced (or fixed-work) rollout, so a game that
// never ends still gives a finite trace (ending in an error line).
const MaxTraceSteps = 10_000

// Game is what a trace asks of an engine, over its native states S and
// moves M (engines.Machine is a Game[engines.State, engines.Move]).
type Game[S any, M comparable] interface {
	Initial() (S, error)
	Terminal(s S) (bool, error)
	Legal(s S, role int) ([]M, error)
	Next(s S, joint []M) (S, error)
	Goals(s S) ([]int, error)
	StateFacts(s S) []string
	MoveText(m M) string
}

// Trace writes n traced rollouts of g after the header h, as JSON Lines.
// Every choice is a Chooser's (seed h.Seed), so every correct engine
// writes the same bytes for the same game and seed. A game error is
// written as the last line and returned.
func Trace[S any, M comparable](w io.Writer, g Game[S, M], h TraceHeader, n int) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	ch := NewChooser(g.MoveText)
	var gameErr error
	for r := 0; r < n && gameErr == nil; r++ {
		gameErr = traceRollout(enc, g, ch, len(h.Roles), h.Seed, r)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return gameErr
}

func traceRollout[S any, M comparable](enc *json.Encoder, g Game[S, M], ch *Chooser[M], roles int, seed uint64, r int) error {
	ch.Start(seed, int64(r))
	fail := func(line TraceStep, err error) error {
		line.Error = err.Error()
		if werr := enc.Encode(line); werr != nil {
			return werr
		}
		return err
	}
	s, err := g.Initial()
	if err != nil {
		return fail(TraceStep{Rollout: r}, err)
	}
	for step := 0; ; step++ {
		line := TraceStep{Rollout: r, Step: step, State: g.StateFacts(s)}
		if step >= MaxTraceSteps {
			return fail(line, Errorf(ResourceLimit, "rollout %d did not end within %d steps", r, MaxTraceSteps))
		}
		term, err := g.Terminal(s)
		if err != nil {
			return fail(line, err)
		}
		line.Terminal = term
		if term {
			goals, err := g.Goals(s)
			if err != nil {
				return fail(line, err)
			}
			line.Goals = goals
			return enc.Encode(line)
		}
		joint := make([]M, roles)
		line.Legal = make([][]string, roles)
		line.Joint = make([]string, roles)
		for role := range roles {
			moves, err := g.Legal(s, role)
			if err != nil {
				return fail(line, err)
			}
			sorted := ch.Sorted(moves) // an engine may list a move twice; the set counts
			texts := make([]string, len(sorted))
			for i, mv := range sorted {
				texts[i] = ch.Text(mv)
			}
			pick := ch.Pick(len(sorted))
			line.Legal[role] = texts
			line.Joint[role] = texts[pick]
			joint[role] = sorted[pick]
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
		if s, err = g.Next(s, joint); err != nil {
			return fail(TraceStep{Rollout: r, Step: step + 1}, err)
		}
	}
}

// WriteTrace writes a trace with write to path, or to stdout for "-": into
// a temporary file in path's folder renamed into place, kept when write
// fails (a game error's trace ends in the line that says where). The error
// is write's, or the file's.
func WriteTrace(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".trace-*")
	if err != nil {
		return err
	}
	werr := write(tmp)
	if cerr := tmp.Close(); cerr != nil && werr == nil {
		werr = cerr
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return werr
}
