package enginetest

import (
	"sort"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Kinds of deliberately broken engines, for testing the checks themselves.
const (
	DropLegal = "drop-legal" // drops the legal move whose text sorts first, when there are two or more
	KeepFact  = "keep-fact"  // keeps one fact that the next state should have deleted
	WrongGoal = "wrong-goal" // reports 100 minus the first role's goal
	LateWrong = "late-wrong" // right for 50 steps, then drops a legal move
)

// BrokenKinds lists the kinds of Broken.
var BrokenKinds = []string{DropLegal, KeepFact, WrongGoal, LateWrong}

// Broken wraps a correct machine in one that is wrong in the given way.
func Broken(kind string, m engines.Machine) engines.Machine {
	return &broken{Machine: m, kind: kind}
}

// BrokenEngine wraps an engine's machines with Broken.
func BrokenEngine(kind string, e engines.Engine) engines.Engine {
	return engines.Engine{
		Name:    e.Name + "-" + kind,
		Version: e.Version + "-" + kind,
		New: func(g *gdl.Game) (engines.Machine, error) {
			m, err := e.New(g)
			if err != nil {
				return nil, err
			}
			return Broken(kind, m), nil
		},
	}
}

type brokenState struct {
	inner engines.State
	extra string
	depth int
}

type broken struct {
	engines.Machine
	kind string
}

func (b *broken) Initial() (engines.State, error) {
	s, err := b.Machine.Initial()
	return &brokenState{inner: s}, err
}

func (b *broken) Terminal(s engines.State) (bool, error) {
	return b.Machine.Terminal(s.(*brokenState).inner)
}

func (b *broken) Legal(s engines.State, role int) ([]engines.Move, error) {
	bs := s.(*brokenState)
	moves, err := b.Machine.Legal(bs.inner, role)
	if err != nil || len(moves) < 2 {
		return moves, err
	}
	if b.kind == DropLegal || b.kind == LateWrong && bs.depth >= 50 {
		first := 0
		for i, mv := range moves {
			if b.MoveText(mv) < b.MoveText(moves[first]) {
				first = i
			}
		}
		out := make([]engines.Move, 0, len(moves)-1)
		out = append(out, moves[:first]...)
		return append(out, moves[first+1:]...), nil
	}
	return moves, nil
}

func (b *broken) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	bs := s.(*brokenState)
	n, err := b.Machine.Next(bs.inner, joint)
	if err != nil {
		return nil, err
	}
	ns := &brokenState{inner: n, depth: bs.depth + 1}
	if b.kind == KeepFact {
		now := map[string]bool{}
		for _, f := range b.Machine.StateFacts(n) {
			now[f] = true
		}
		var gone []string
		for _, f := range b.Machine.StateFacts(bs.inner) {
			if !now[f] {
				gone = append(gone, f)
			}
		}
		if len(gone) > 0 {
			sort.Strings(gone)
			ns.extra = gone[0]
		}
	}
	return ns, nil
}

func (b *broken) Goals(s engines.State) ([]int, error) {
	g, err := b.Machine.Goals(s.(*brokenState).inner)
	if err == nil && b.kind == WrongGoal && len(g) > 0 {
		g[0] = 100 - g[0]
		if g[0] == 50 {
			g[0] = 49
		}
	}
	return g, err
}

func (b *broken) StateFacts(s engines.State) []string {
	bs := s.(*brokenState)
	facts := b.Machine.StateFacts(bs.inner)
	if bs.extra != "" {
		facts = append(facts, bs.extra)
		sort.Strings(facts)
	}
	return facts
}

// LimitedEngine wraps an engine's machines in ones that answer as they do
// until after questions of legal moves were asked, then fail every further
// one with a resource-limit error, as an engine over its budget does (for
// testing how the checks treat limits: no answer, not a mismatch).
func LimitedEngine(e engines.Engine, after int) engines.Engine {
	return engines.Engine{
		Name:    e.Name + "-limited",
		Version: e.Version + "-limited",
		New: func(g *gdl.Game) (engines.Machine, error) {
			m, err := e.New(g)
			if err != nil {
				return nil, err
			}
			return &limited{Machine: m, after: after}, nil
		},
	}
}

type limited struct {
	engines.Machine
	after, asked int
}

func (l *limited) Legal(s engines.State, role int) ([]engines.Move, error) {
	if l.asked++; l.asked > l.after {
		return nil, engines.Errorf(engines.ResourceLimit, "the relations hold more than 10 values")
	}
	return l.Machine.Legal(s, role)
}
