package prover

import (
	"embed"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

//go:embed *.go
var source embed.FS

// Name is the engine's name in the registry and on the command line.
const Name = "prover"

func init() {
	engines.Register(engines.Engine{
		Name:    Name,
		Version: engines.SourceVersion("1", source, gdl.Source, engines.Source, rollout.Source),
		New: func(g *gdl.Game) (engines.Machine, error) {
			return NewMachine(g), nil
		},
	})
}

// state is the prover's native state: the sorted ids of the terms x of the
// facts (true x).
type state struct {
	facts []int32
}

// Machine is the prover as an engines.Machine.
type Machine struct {
	p       *Prover
	roles   []string
	roleIDs []int32
	legalQ  []pat
	goalQ   []pat
	nextQ   pat
	initQ   pat
	termQ   pat
	does    []int32
	moves   [][]engines.Move
	empty   []int32
}

var _ engines.Machine = (*Machine)(nil)

// NewMachine builds the prover for a loaded game.
func NewMachine(g *gdl.Game) *Machine {
	p := New(g)
	m := &Machine{p: p, empty: []int32{}}
	v0 := pat{kind: pVar, id: 0}
	for _, r := range g.Roles {
		id := p.st.fromTerm(r)
		m.roles = append(m.roles, r.String())
		m.roleIDs = append(m.roleIDs, id)
		role := pat{kind: pGround, id: id}
		m.legalQ = append(m.legalQ, pat{kind: pFunc, fn: gdl.SymLegal, args: []pat{role, v0}})
		m.goalQ = append(m.goalQ, pat{kind: pFunc, fn: gdl.SymGoal, args: []pat{role, v0}})
	}
	m.moves = make([][]engines.Move, len(g.Roles))
	m.nextQ = pat{kind: pFunc, fn: gdl.SymNext, args: []pat{v0}}
	m.initQ = pat{kind: pFunc, fn: gdl.SymInit, args: []pat{v0}}
	m.termQ = pat{kind: pGround, id: p.st.intern(gdl.SymTerminal, nil)}
	return m
}

// Prover returns the underlying prover.
func (m *Machine) Prover() *Prover { return m.p }

// Roles implements engines.Machine.
func (m *Machine) Roles() []string { return m.roles }

// Initial implements engines.Machine.
func (m *Machine) Initial() (engines.State, error) {
	m.p.setState(m.empty)
	ans, err := m.p.ask(m.initQ, 1)
	if err != nil {
		return nil, err
	}
	return m.makeState(ans), nil
}

func (m *Machine) makeState(atoms []int32) *state {
	facts := make([]int32, len(atoms))
	for i, a := range atoms {
		facts[i] = m.p.st.terms[a].args[0]
	}
	sort.Slice(facts, func(i, j int) bool { return facts[i] < facts[j] })
	out := facts[:0]
	for i, f := range facts {
		if i == 0 || f != facts[i-1] {
			out = append(out, f)
		}
	}
	return &state{facts: out}
}

// Terminal implements engines.Machine.
func (m *Machine) Terminal(s engines.State) (bool, error) {
	m.p.setState(s.(*state).facts)
	ans, err := m.p.ask(m.termQ, 0)
	return len(ans) > 0, err
}

// Legal implements engines.Machine.
func (m *Machine) Legal(s engines.State, role int) ([]engines.Move, error) {
	st := s.(*state)
	m.p.setState(st.facts)
	ans, err := m.p.ask(m.legalQ[role], 1)
	if err != nil {
		return nil, err
	}
	if len(ans) == 0 {
		return nil, engines.Errorf(engines.NoLegalMove, "role %s has no legal move in the state %s", m.roles[role], m.stateText(st))
	}
	moves := m.moves[role][:0]
	for _, a := range ans {
		moves = append(moves, engines.Move(m.p.st.terms[a].args[1]))
	}
	m.moves[role] = moves
	return moves, nil
}

// Next implements engines.Machine.
func (m *Machine) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	if len(joint) != len(m.roles) {
		return nil, engines.Errorf(engines.BadMove, "a joint move needs %d moves, not %d", len(m.roles), len(joint))
	}
	m.p.setState(s.(*state).facts)
	m.does = m.does[:0]
	for i, mv := range joint {
		if mv < 0 || int(mv) >= len(m.p.st.terms) {
			return nil, engines.Errorf(engines.BadMove, "move %d of role %s is not a term of this game", mv, m.roles[i])
		}
		m.does = append(m.does, m.p.st.intern(gdl.SymDoes, []int32{m.roleIDs[i], int32(mv)}))
	}
	m.p.setMoves(m.does)
	ans, err := m.p.ask(m.nextQ, 1)
	if err != nil {
		return nil, err
	}
	return m.makeState(ans), nil
}

// Goals implements engines.Machine.
func (m *Machine) Goals(s engines.State) ([]int, error) {
	st := s.(*state)
	m.p.setState(st.facts)
	goals := make([]int, len(m.roles))
	for i := range m.roles {
		ans, err := m.p.ask(m.goalQ[i], 1)
		if err != nil {
			return nil, err
		}
		if len(ans) != 1 {
			vals := make([]string, len(ans))
			for j, a := range ans {
				vals[j] = m.p.st.text(m.p.st.terms[a].args[1])
			}
			sort.Strings(vals)
			return nil, engines.Errorf(engines.GoalCount, "role %s has %d goal values [%s] in the state %s; it needs exactly one", m.roles[i], len(ans), strings.Join(vals, " "), m.stateText(st))
		}
		text := m.p.st.text(m.p.st.terms[ans[0]].args[1])
		v, err := strconv.Atoi(text)
		if err != nil {
			return nil, engines.Errorf(engines.GoalValue, "role %s has the goal value %s, which is not an integer", m.roles[i], text)
		}
		goals[i] = v
	}
	return goals, nil
}

// StateFacts implements engines.Machine.
func (m *Machine) StateFacts(s engines.State) []string {
	st := s.(*state)
	out := make([]string, len(st.facts))
	for i, f := range st.facts {
		out[i] = m.p.st.text(f)
	}
	sort.Strings(out)
	return out
}

func (m *Machine) stateText(st *state) string {
	facts := m.StateFacts(st)
	if len(facts) > 12 {
		facts = append(facts[:12:12], "...")
	}
	return "{" + strings.Join(facts, " ") + "}"
}

// MoveText implements engines.Machine.
func (m *Machine) MoveText(mv engines.Move) string { return m.p.st.text(int32(mv)) }
