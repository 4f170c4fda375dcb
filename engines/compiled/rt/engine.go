package rt

import (
	"encoding/binary"
	"errors"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Fail stops the evaluation with a game error; the question that runs it
// returns the error.
func Fail(kind protocol.ErrorKind, format string, args ...any) {
	panic(protocol.Errorf(kind, format, args...))
}

// guard turns a Fail into an error; questions and rollouts defer it
// (and a rollout's end, with or without an error, is here).
func (e *Engine) guard(err *error) {
	e.playing = false
	if r := recover(); r != nil {
		ge, ok := r.(*protocol.GameError)
		if !ok {
			panic(r)
		}
		*err = ge
		// the relations are half computed: forget them
		e.cur = nil
		e.stateGen++
		e.moveGen++
		e.movesValid = false
		if e.Inc != nil {
			e.Inc.reset()
		}
	}
}

// Scopes of units: computed once, once per state, once per joint move.
const (
	Static uint8 = iota
	PerState
	PerMove
)

// checkEmpty (GDLPERF_COMPILED_CHECK_EMPTY set, for tests) runs the units
// that Unit.Guard skips all the same and panics when one derives a tuple.
var checkEmpty = os.Getenv("GDLPERF_COMPILED_CHECK_EMPTY") != ""

// Unit is a strongly connected component of the relation graph, evaluated
// as a whole by Run after its relations are cleared.
type Unit struct {
	Scope uint8
	Rels  []*Rel
	Run   func()
	// Guard, when not nil, has clauses of relations: when every clause
	// has an empty relation, the unit derives nothing in the current
	// state (each rule needs a relation of a clause, or one of the unit's
	// own), and its relations are emptied without running its rules; no
	// clause at all: the unit never derives anything
	Guard [][]*Rel
	stamp uint64
}

// empty reports whether every clause of the unit's guard has an empty
// relation.
func (u *Unit) empty() bool {
	for _, c := range u.Guard {
		hit := false
		for _, r := range c {
			if r.N == 0 {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// State is a set of facts: the ids of the terms x of (true x).
type State struct {
	Facts []int32
}

// Engine answers the questions of one compiled game.
type Engine struct {
	Version  string // the engine version baked in at generation
	RulesSHA string // sha256 (hex) of the rules the program was built for
	Data     []byte // the game's data: names, ground terms, facts
	Design   string // DesignBottomUp, DesignMagic, DesignMagicSites or DesignMagicDemand
	Fallback bool   // Design.Fallback

	S       *Store
	Rels    []*Rel // in the order of the data's facts
	TrueRel []*Rel // per functor: the relation of its true facts, or nil
	Does    *Rel
	Roles   []int32 // term ids of the roles

	InitRel, LegalRel, NextRel, GoalRel, TermRel *Rel
	LegalIx, GoalIx                              *Index

	Units []*Unit
	// Inc is the incremental design's part, nil in the other designs.
	Inc *Inc
	// AfterLoad runs once the static units are computed.
	AfterLoad                              func()
	QInit, QTerminal, QLegal, QNext, QGoal []*Unit

	mark       []uint32
	stamp      uint32
	cur        *State
	Facts      []int32 // the current state's facts
	stateGen   uint64
	moveGen    uint64
	joint      []int32
	movesValid bool
	moves      [][]int32
	tup        []int32
	empty      *State
	slab       []int32 // states' facts are cut from it
	states     []State // and the states themselves (one allocation for many)
	init       *State  // the initial state, once computed
	// playing: a rollout (playout) is on; its states are play's two,
	// alternately (newStateOf)
	playing    bool
	play       [2]State
	playFacts  [2][]int32
	playNext   int
	goalVals   []int32 // goals' scratch list
	goalBuf    []int   // a rollout's goal values
	goalNum    []int   // by term id: the goal value it reads as, + 1, or 0
	rowOf      []int32 // per fact of the current state: its row in its true relation
	born, dead []int32 // changeState's scratch lists
	// trueIndexed: some true relation has an index; SetState changes the
	// true relations by the facts that changed only then or in states of
	// 16 facts or more (setting a few facts anew costs less)
	trueIndexed bool
	cells       int64 // Cells while another engine is active
}

// NewEngine returns an engine over the store s; the generated code fills
// in the rest before calling Load.
func NewEngine(s *Store) *Engine { return &Engine{S: s, stateGen: 2, moveGen: 2} }

// Load reads the game's data into the store and relations and computes the
// static units.
func (e *Engine) Load() (err error) {
	defer e.guard(&err)
	d := e.Data
	pos := 0
	next := func() int64 {
		v, n := binary.Varint(d[pos:])
		if n <= 0 {
			panic(protocol.Errorf(protocol.UnsupportedErr, "the program's game data is corrupt at byte %d", pos))
		}
		pos += n
		return v
	}
	if string(d[:5]) != "GDLC1" {
		return protocol.Errorf(protocol.UnsupportedErr, "the program's game data has a bad header")
	}
	pos = 5
	nc := int(next())
	for range nc {
		l := int(next())
		e.S.AddConst(string(d[pos : pos+l]))
		pos += l
	}
	nf := int(next())
	e.S.AddFunctor(-1, 0)
	for range nf {
		name := int32(next())
		e.S.AddFunctor(name, int32(next()))
	}
	ng := int(next())
	var args []int32
	for i := range ng {
		fk := int32(next())
		args = args[:0]
		for range e.S.FnArity[fk] {
			args = append(args, int32(next()))
		}
		if id := e.S.InternN(fk, args); int(id) != nc+i {
			return protocol.Errorf(protocol.UnsupportedErr, "the program's game data interns term %d as %d", nc+i, id)
		}
	}
	nfacts := int(next())
	for range nfacts {
		id := next()
		r := e.Rels[id]
		if r == nil {
			c := e.Inc.ByID[id]
			if c.Base == nil {
				c.Base = []int32{}
			}
			for range c.W {
				c.Base = append(c.Base, int32(next()))
			}
			continue
		}
		if r.W == 0 {
			r.Base = []int32{}
			continue
		}
		for range r.W {
			r.Base = append(r.Base, int32(next()))
		}
	}
	if pos != len(d) {
		return protocol.Errorf(protocol.UnsupportedErr, "the program's game data has %d bytes too many", len(d)-pos)
	}
	for _, r := range e.TrueRel {
		if r != nil {
			r.removable = true
			e.trueIndexed = e.trueIndexed || len(r.Ix) > 0
		}
	}
	e.moves = make([][]int32, len(e.Roles))
	e.empty = &State{}
	w := 2
	for _, r := range e.Rels {
		if r != nil {
			w = max(w, int(r.W))
		}
	}
	if e.Inc != nil {
		for _, r := range e.Inc.Rels {
			w = max(w, int(r.W))
		}
		for _, u := range e.Inc.Units {
			u.dirty = true
		}
	}
	e.tup = make([]int32, w+1)
	staticClock = engines.StartWorkClock()
	defer func() { staticClock.Stop(); staticClock = nil }()
	for _, u := range e.Units {
		if u.Scope == Static {
			e.evalUnit(u)
			u.stamp = 1
		}
	}
	if e.AfterLoad != nil {
		e.AfterLoad()
	}
	for _, u := range e.Units {
		if u.Scope == Static {
			for _, r := range u.Rels {
				r.Freeze()
			}
		}
	}
	return nil
}

func (e *Engine) evalUnit(u *Unit) {
	for _, r := range u.Rels {
		r.Clear()
	}
	u.Run()
}

func (e *Engine) ensure(units []*Unit) {
	for _, u := range units {
		g := e.stateGen
		switch u.Scope {
		case Static:
			g = 1
		case PerMove:
			g = e.moveGen
		}
		if u.stamp == g {
			continue
		}
		checkWarm()
		if u.Guard != nil && u.empty() {
			if checkEmpty {
				e.evalUnit(u)
				for _, r := range u.Rels {
					if r.N > 0 {
						panic("compiled: a unit whose guard says it is empty derives tuples")
					}
				}
			}
			for _, r := range u.Rels {
				if r.N > 0 {
					r.Clear()
				}
			}
		} else {
			e.evalUnit(u)
		}
		u.stamp = g
	}
}

// Holds reports whether term x is a fact of the current state (false for
// -1, a term that does not exist).
func (e *Engine) Holds(x int32) bool {
	return uint32(x) < uint32(len(e.mark)) && e.mark[x] == e.stamp
}

// ScanFacts returns the current state's facts, for a loop over them, and
// counts them as work.
func (e *Engine) ScanFacts() []int32 {
	Work += uint64(len(e.Facts))
	return e.Facts
}

// SetState makes s the current state.
func (e *Engine) SetState(s *State) {
	if s == e.cur {
		return
	}
	if e.Inc != nil {
		e.incSetState(s)
		return
	}
	old := e.cur
	e.cur = s
	e.Facts = s.Facts
	e.stateGen++
	e.moveGen++
	e.movesValid = false
	if n := e.S.Size(); len(e.mark) < n || len(e.rowOf) < n {
		m := n + n/2
		e.mark = append(e.mark, make([]uint32, max(m-len(e.mark), 0))...)
		e.rowOf = append(e.rowOf, make([]int32, max(m-len(e.rowOf), 0))...)
	}
	if old != nil && e.stamp+1 != 0 && (e.trueIndexed || len(s.Facts) >= 16) && e.changeState(old, s) {
		return
	}
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
	for _, r := range e.TrueRel {
		if r != nil && r.N > 0 {
			r.Reset()
		}
	}
	Work += uint64(len(s.Facts))
	for _, f := range s.Facts {
		if e.mark[f] == e.stamp {
			continue // a repeated fact
		}
		e.mark[f] = e.stamp
		e.push(f)
	}
}

// push adds fact f to its true relation.
func (e *Engine) push(f int32) {
	st := e.S
	r := e.TrueRel[st.Fk[f]]
	if r == nil {
		return
	}
	e.rowOf[f] = r.N
	o := st.Off[f]
	switch r.W { // a true relation's width is its functor's arity + 1
	case 2:
		r.push2(st.Args[o], f)
	case 3:
		a := st.Args[o : o+2]
		r.push3(a[0], a[1], f)
	case 4:
		a := st.Args[o : o+3]
		r.push4(a[0], a[1], a[2], f)
	default:
		r.Push(st.ArgsOf(f), f)
	}
}

// changeState makes s the current state in place of old by the facts that
// changed between them: those of old not in s leave their true relations,
// those of s not in old join them, and the indexes built follow. It gives
// up, changing no relation, when the facts born and dead outnumber half of
// s's facts (setting every fact anew is then cheaper).
func (e *Engine) changeState(old, s *State) bool {
	stamp := e.stamp + 1 // the facts of s; e.stamp is old's
	born := e.born[:0]
	for _, f := range s.Facts {
		switch e.mark[f] {
		case stamp: // a repeated fact
		case e.stamp:
			e.mark[f] = stamp
		default:
			e.mark[f] = stamp
			born = append(born, f)
		}
	}
	dead := e.dead[:0]
	for _, f := range old.Facts {
		if e.mark[f] == e.stamp {
			e.mark[f] = 0 // once, if old has it twice (no stamp is 0)
			dead = append(dead, f)
		}
	}
	e.born, e.dead = born, dead
	Work += uint64(len(s.Facts)+len(old.Facts)) / 4
	e.stamp = stamp // SetState's next stamp, if it gives up, is above every mark
	if 2*(len(born)+len(dead)) > len(s.Facts) {
		return false
	}
	st := e.S
	for _, f := range dead {
		if r := e.TrueRel[st.Fk[f]]; r != nil {
			i := e.rowOf[f]
			if last := r.N - 1; i != last {
				e.rowOf[r.Data[(last+1)*r.W-1]] = i
			}
			r.Remove(i)
		}
	}
	for _, f := range born {
		e.push(f)
	}
	return true
}

func (e *Engine) setMoves(joint []int32) {
	if e.movesValid && len(joint) == len(e.joint) {
		same := true
		for i, mv := range joint {
			if mv != e.joint[i] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	e.movesValid = true
	e.moveGen++
	e.joint = append(e.joint[:0], joint...)
	e.Does.Clear()
	for i, mv := range joint {
		e.Does.Add2(e.Roles[i], mv)
	}
}

// Did reports whether the current joint move's move of role i (of
// Roles) is m: the does relation's test for a role named in the rules.
func (e *Engine) Did(i int, m int32) bool {
	Work++
	return i < len(e.joint) && e.joint[i] == m
}

// Initial returns the initial state.
func (e *Engine) Initial() (s *State, err error) {
	defer e.guard(&err)
	return e.initial(), nil
}

// initial, terminal, legal, next and goals are the questions without the
// guard that turns a game error's panic into the error returned: the
// methods of the same names add it, a rollout (playout) has one of its
// own.
func (e *Engine) initial() *State {
	if e.init == nil || e.Inc != nil {
		// The empty state first: the incremental design's change from
		// the last rollout's end to the initial state cost more than its
		// changes to the empty state and from it (connectFourSimultaneous
		// 0.84x), where the others' cost less (hodgepodge 1.15x).
		e.SetState(e.empty)
	}
	if e.init == nil { // the same in every rollout (init reads no state)
		e.ensure(e.QInit)
		playing := e.playing
		e.playing = false // kept: not one of a rollout's two states
		e.init = e.newState(e.InitRel)
		e.playing = playing
	}
	return e.init
}

func (e *Engine) newState(r *Rel) *State {
	n := int(r.N)
	facts := e.factsSpace(n)[:n]
	copy(facts, r.Data[:n])
	return e.newStateOf(facts)
}

// factsSpace returns room for a new state's n facts (length 0, capacity
// n): cut from a slab shared by many states, or in a rollout (playing)
// the buffer of the state after the current one.
func (e *Engine) factsSpace(n int) []int32 {
	if e.playing {
		b := e.playFacts[e.playNext]
		if cap(b) < n {
			b = make([]int32, 0, n+n/2+16)
			e.playFacts[e.playNext] = b
		}
		return b[:0:n]
	}
	if n > len(e.slab) {
		e.slab = make([]int32, max(4096, n))
	}
	return e.slab[:0:n]
}

// newStateOf returns a new state of facts, which factsSpace gave room
// for. A rollout (playing) alternates between two states and their
// buffers: the state it makes at a step is dead two steps later (the
// step after uses it as the old state of SetState's change), and an
// allocation a step, with its share of the garbage collector's work,
// was some 10% of the time of a game of a few facts. Other states are
// cut from a slab of states, as their facts from a slab of facts.
func (e *Engine) newStateOf(facts []int32) *State {
	if e.playing {
		s := &e.play[e.playNext]
		if s == e.cur {
			panic("compiled: a rollout's new state overwrites the current one")
		}
		e.playNext ^= 1
		s.Facts = facts[:len(facts):len(facts)]
		return s
	}
	e.slab = e.slab[len(facts):]
	facts = facts[:len(facts):len(facts)]
	if len(e.states) == 0 {
		e.states = make([]State, 256)
	}
	s := &e.states[0]
	e.states = e.states[1:]
	s.Facts = facts
	return s
}

// newStateC is newState for a counted relation: its rows in the new
// view.
func (e *Engine) newStateC(r *CRel) *State {
	facts := e.factsSpace(int(r.Live()))
	for _, row := range r.inuse {
		if r.St[row]&StNew != 0 {
			facts = append(facts, r.Data[row])
		}
	}
	return e.newStateOf(facts)
}

// Terminal reports whether s is terminal.
func (e *Engine) Terminal(s *State) (term bool, err error) {
	defer e.guard(&err)
	return e.terminal(s), nil
}

func (e *Engine) terminal(s *State) bool {
	e.SetState(s)
	if in := e.Inc; in != nil {
		e.incEnsure(in.QTerminal)
		if in.Term != nil {
			return in.Term.Live() > 0
		}
	}
	e.ensure(e.QTerminal)
	return e.TermRel.N > 0
}

// Legal returns the legal moves of role in s, in the engine's order; the
// slice is reused by the next call for the same role.
func (e *Engine) Legal(s *State, role int) (moves []int32, err error) {
	defer e.guard(&err)
	return e.legal(s, role)
}

func (e *Engine) legal(s *State, role int) ([]int32, error) {
	e.SetState(s)
	moves := e.moves[role][:0]
	if e.Inc != nil {
		e.incEnsure(e.Inc.QLegal)
	}
	if in := e.Inc; in != nil && in.Legal != nil {
		r := in.Legal
		for row := in.LegalIx.Find1(r, e.Roles[role]); row >= 0; row = in.LegalIx.Next[row] {
			if r.St[row]&StNew != 0 {
				moves = append(moves, r.Data[2*row+1])
			}
		}
	} else {
		e.ensure(e.QLegal)
		r := e.LegalRel
		if r.N <= smallScan {
			moves = scanRole(r, e.Roles[role], moves)
		} else {
			for row := e.LegalIx.Find1(r, e.Roles[role]); row >= 0; row = e.LegalIx.Next[row] {
				moves = append(moves, r.Data[2*row+1])
			}
		}
	}
	e.moves[role] = moves
	if len(moves) == 0 {
		return nil, protocol.Errorf(protocol.NoLegalMove, "role %s has no legal move in the state %s", e.S.Text(e.Roles[role]), e.StateText(s))
	}
	return moves, nil
}

// smallScan bounds the legal and goal relations whose rows of a role are
// found by a scan of them all rather than by their index on the role,
// which is rebuilt in every state (a game of a few moves spent a fifth of
// its time on it).
const smallScan = 64

// scanRole appends to out the second values of the rows of r (width 2)
// whose first is role, newest first as the index's chain has them.
func scanRole(r *Rel, role int32, out []int32) []int32 {
	Work += uint64(r.N)
	for row := r.N - 1; row >= 0; row-- {
		if r.Data[2*row] == role {
			out = append(out, r.Data[2*row+1])
		}
	}
	return out
}

// Next returns the state after the joint move.
func (e *Engine) Next(s *State, joint []int32) (next *State, err error) {
	if len(joint) != len(e.Roles) {
		return nil, protocol.Errorf(protocol.BadMove, "a joint move needs %d moves, not %d", len(e.Roles), len(joint))
	}
	for i, mv := range joint {
		if mv < 0 || int(mv) >= e.S.Size() {
			return nil, protocol.Errorf(protocol.BadMove, "move %d of role %s is not a term of this game", mv, e.S.Text(e.Roles[i]))
		}
	}
	defer e.guard(&err)
	return e.next(s, joint), nil
}

// next is Next for a joint move known to be made of terms.
func (e *Engine) next(s *State, joint []int32) *State {
	e.SetState(s)
	e.setMoves(joint)
	if in := e.Inc; in != nil {
		e.incEnsure(in.QNext)
		switch {
		case in.Next != nil:
			return e.newStateC(in.Next)
		case in.NextState != nil:
			return e.newStateUnion(in.NextState, e.NextRel)
		}
	}
	e.ensure(e.QNext)
	return e.newState(e.NextRel)
}

// Goals returns each role's goal value in s.
func (e *Engine) Goals(s *State) (goals []int, err error) {
	defer e.guard(&err)
	goals = make([]int, len(e.Roles))
	return goals, e.goals(s, goals)
}

// goals writes each role's goal value in s into goals (a rollout's end
// allocates nothing).
func (e *Engine) goals(s *State, goals []int) error {
	e.SetState(s)
	in := e.Inc
	if in != nil {
		e.incEnsure(in.QGoal)
		if in.Goal == nil {
			in = nil
		}
	}
	e.ensure(e.QGoal)
	r := e.GoalRel
	for i, role := range e.Roles {
		vals := e.goalVals[:0]
		if in != nil {
			c := in.Goal
			for row := in.GoalIx.Find1(c, role); row >= 0; row = in.GoalIx.Next[row] {
				if c.St[row]&StNew != 0 {
					vals = append(vals, c.Data[2*row+1])
				}
			}
		} else if r.N <= smallScan {
			vals = scanRole(r, role, vals)
		} else {
			for row := e.GoalIx.Find1(r, role); row >= 0; row = e.GoalIx.Next[row] {
				vals = append(vals, r.Data[2*row+1])
			}
		}
		e.goalVals = vals
		if len(vals) != 1 {
			texts := make([]string, len(vals))
			for j, v := range vals {
				texts[j] = e.S.Text(v)
			}
			sort.Strings(texts)
			return protocol.Errorf(protocol.GoalCount, "role %s has %d goal values [%s] in the state %s; it needs exactly one", e.S.Text(role), len(vals), strings.Join(texts, " "), e.StateText(s))
		}
		n, err := e.goalValue(role, vals[0])
		if err != nil {
			return err
		}
		goals[i] = n
	}
	return nil
}

// goalValue returns the integer that term v of role's goal reads as,
// remembered by term id (a rollout of a step or two printed and parsed
// it at its end).
func (e *Engine) goalValue(role, v int32) (int, error) {
	if int(v) < len(e.goalNum) && e.goalNum[v] != 0 {
		return e.goalNum[v] - 1, nil
	}
	text := e.S.Text(v)
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, protocol.Errorf(protocol.GoalValue, "role %s has the goal value %s, which is not an integer", e.S.Text(role), text)
	}
	if v < 1<<16 && n >= 0 && n < 1<<30 {
		if int(v) >= len(e.goalNum) {
			e.goalNum = append(e.goalNum, make([]int, int(v)+1-len(e.goalNum))...)
		}
		e.goalNum[v] = n + 1
	}
	return n, nil
}

// StateFacts returns the facts of s, printed and sorted.
func (e *Engine) StateFacts(s *State) []string {
	out := make([]string, len(s.Facts))
	for i, f := range s.Facts {
		out[i] = e.S.Text(f)
	}
	sort.Strings(out)
	return out
}

// StateText prints at most 12 facts of s for messages.
func (e *Engine) StateText(s *State) string {
	facts := e.StateFacts(s)
	if len(facts) > 12 {
		facts = append(facts[:12:12], "...")
	}
	return "{" + strings.Join(facts, " ") + "}"
}

// RoleNames returns the roles' texts.
func (e *Engine) RoleNames() []string {
	out := make([]string, len(e.Roles))
	for i, r := range e.Roles {
		out[i] = e.S.Text(r)
	}
	return out
}

// MoveText returns the text of a move.
func (e *Engine) MoveText(m int32) string { return e.S.Text(m) }

// asGameError reports whether err is a game error.
func asGameError(err error) (*protocol.GameError, bool) {
	var ge *protocol.GameError
	ok := errors.As(err, &ge)
	return ge, ok
}
