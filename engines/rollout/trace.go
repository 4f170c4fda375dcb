package rollout

import (
	"bufio"
	"encoding/json"
	"io"
	"math/rand/v2"
	"sort"

	"github.com/gdlperf/gdlperf/engines"
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

// MaxTraceSteps bounds one traced rollout, so a game that never ends still
// gives a finite trace (ending in an error line).
const MaxTraceSteps = 10_000

// Trace writes n traced rollouts of m as JSON Lines. Every choice is made
// from the legal moves sorted by their canonical text with
// rand.New(rand.NewPCG(seed, r)) for rollout r, so every correct engine
// writes the same bytes for the same game and seed. A game error is written
// as the last line and returned.
func Trace(w io.Writer, m engines.Machine, engine, version string, seed uint64, n int) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(TraceHeader{Roles: m.Roles(), Engine: engine, Version: version, Seed: seed}); err != nil {
		return err
	}
	var gameErr error
	for r := 0; r < n && gameErr == nil; r++ {
		gameErr = traceRollout(enc, m, seed, r)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return gameErr
}

func traceRollout(enc *json.Encoder, m engines.Machine, seed uint64, r int) error {
	rng := rand.New(rand.NewPCG(seed, uint64(r)))
	roles := len(m.Roles())
	fail := func(line TraceStep, err error) error {
		line.Error = err.Error()
		if werr := enc.Encode(line); werr != nil {
			return werr
		}
		return err
	}
	s, err := m.Initial()
	if err != nil {
		return fail(TraceStep{Rollout: r}, err)
	}
	type choice struct {
		text string
		move engines.Move
	}
	for step := 0; ; step++ {
		line := TraceStep{Rollout: r, Step: step, State: m.StateFacts(s)}
		if step >= MaxTraceSteps {
			return fail(line, engines.Errorf(engines.ResourceLimit, "rollout %d did not end within %d steps", r, MaxTraceSteps))
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
			return enc.Encode(line)
		}
		joint := make([]engines.Move, roles)
		line.Legal = make([][]string, roles)
		line.Joint = make([]string, roles)
		for role := 0; role < roles; role++ {
			moves, err := m.Legal(s, role)
			if err != nil {
				return fail(line, err)
			}
			cs := make([]choice, 0, len(moves))
			for _, mv := range moves {
				cs = append(cs, choice{m.MoveText(mv), mv})
			}
			sort.Slice(cs, func(i, j int) bool { return cs[i].text < cs[j].text })
			texts := make([]string, 0, len(cs))
			for i, c := range cs {
				if i > 0 && c.text == cs[i-1].text {
					continue // an engine may list a move twice; the set counts
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
		if s, err = m.Next(s, joint); err != nil {
			return fail(TraceStep{Rollout: r, Step: step + 1}, err)
		}
	}
}
