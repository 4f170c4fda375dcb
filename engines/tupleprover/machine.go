// Package tupleprover answers the questions of a GDL game bottom-up over
// interned integer tuples: the second built-in engine, several times faster
// than the reference prover and checked against it.
//
// Every ground term, function terms included, is hash-consed to an int32
// id. A relation is a set of fixed-width tuples of ids in one flat slice,
// kept a set by a hash index over all its columns, with further hash
// indexes on the column subsets that its joins bind. Each strongly
// connected component of the relation dependency graph is a unit of
// evaluation. Units that depend on neither true nor does (static) are
// computed once, at setup, by semi-naive forward chaining (Ullman,
// "Principles of Database and Knowledge-Base Systems", 1988). The others
// are computed per state (or per joint move, for those that depend on
// does), lazily: each question (terminal, legal, next, goal) evaluates only
// the units it depends on that are not yet computed for the current state.
// A recursive unit runs one naive round and then semi-naive rounds, in which
// each rule runs once per recursive literal with that literal over the rows
// the previous round added.
//
// Every rule is compiled once per join order into a list of operations over
// registers: a greedy order puts literals whose columns are bound (or whose
// relations are small, sizes of static relations being known exactly) first,
// and each negation and distinct right after the literals that bind it. A
// positive literal looks its bound columns up in a hash index and matches the
// others (binding variables, decomposing function terms); true facts are
// split by function name into relations of their arguments, so that
// (true (cell ?x ?y b)) is a lookup in a three-column relation.
//
// Once the head of a rule is bound, the rest of its body only confirms it:
// the search stops at the first proof (and, for a proposition, does not
// start when it is known). A fact of the state is a register of the rules
// that match it whole, so (next (cell ?x ?y ?p)) from (true (cell ?x ?y ?p))
// costs no interning.
//
// A unit with negation inside its cycle (a game stratified only by its
// arguments, such as (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))) is
// split into groups of rules by rule-level dependencies, the heads that
// unify with a body literal; a negation inside a cycle of rules is refused.
//
// Two designs are built for each game, and the faster kept: the rules as
// written, evaluated bottom-up as above, and the rules rewritten with magic
// sets (magic.go), which computes only the tuples that the questions demand,
// as top-down tabling would, and is evaluated by the same machinery. Each
// plays up to 200 random steps while it warms up; the sizes of the relations
// seen then also reorder the joins, and the same steps played again with the
// final join orders give its work per question, which chooses the design.
// Work is counted (operations run, tuples emitted, rows scanned, facts
// loaded), never timed, and the warm-up is bounded by counts, so that every
// process makes the same choices for a game and does the same work per
// rollout (instruction counts of two processes agree); time caps remain
// only as safety nets. Bottom-up wins on most games; magic sets
// on games with relations written for a top-down reader (chess-like threat
// tests, list-building paths, amazons' moves ignoring a square), which
// bottom-up cannot compute whole within its budgets.
package tupleprover

import (
	"embed"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// Source is this package's code, hashed into the versions of the engines
// that use it (the compiled prover measures sizes with MeasureSizes).
//
//go:embed *.go
var Source embed.FS

// Name is the engine's name in the registry and on the command line.
const Name = "tupleprover"

func init() {
	engines.Register(engines.Engine{
		Name:    Name,
		Version: engines.SourceVersion("1", Source, gdl.Source, engines.Source, rollout.Source),
		New: func(g *gdl.Game) (engines.Machine, error) {
			m, err := New(g)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	})
}

// state is the native state: the ids of the terms x of the facts (true x),
// each once.
type state struct {
	facts []int32
}

type trueInput struct {
	fn    gdl.Symbol
	arity int32
	rel   *relation
}

// Machine is the tuple prover for one game.
type Machine struct {
	st      *store
	roles   []string
	roleIDs []int32

	units    []*unit
	does     *relation
	trueRels []trueInput
	trueOf   []int32 // per term id: 0 unknown, -1 no true relation, k+1 trueRels[k]

	initRel, termRel, legalRel, nextRel, goalRel *relation
	legalIx, goalIx                              *index
	qTerminal, qLegal, qNext, qGoal              []*unit

	// current context
	cur        *state
	inState    []uint32
	stamp      uint32
	stateGen   uint64
	moveGen    uint64
	joint      []int32
	movesValid bool

	// evaluation scratch
	regs []int32
	key  []int32
	tup  []int32

	// budgets
	cells    int64
	steps    uint64 // operations run (exec calls)
	emits    uint64 // head tuples emitted
	scanned  uint64 // rows of full scans
	loads    uint64 // state facts loaded
	qStart   time.Time
	budget   time.Duration
	qFrom    uint64 // the work done when the current question started
	qWork    uint64 // its budget of work; 0 for none
	deadline time.Time

	moves    [][]engines.Move
	goalVals map[int32]int
	slab     []int32

	// warming up: relation sizes are sampled for the join orders
	sampling bool
	// cost is the work per question of the warm-up rollouts with the
	// final join orders; it chooses the design
	cost float64

	maxCells  int64
	maxTerms  int
	limitAt   time.Time           // the static relations' time cap
	limitWork uint64              // and their budget of work; 0 for none
	static    map[gdl.Symbol]bool // static relations computed
	design    string
}

var _ engines.Machine = (*Machine)(nil)

// Option sets a knob of New.
type Option func(*Machine)

// WithDeadline makes the setup and every question fail with a
// resource-limit game error once t has passed, as SetDeadline does.
func WithDeadline(t time.Time) Option { return func(m *Machine) { m.deadline = t } }

// New compiles a game and computes its static relations. It compiles the
// rules as they are (plain bottom-up evaluation) and rewritten with magic
// sets (see gdl.MagicSets), which computes only the tuples the questions
// demand; each plays a few random steps while it warms up, and the one
// that does less work per question (counted, not timed: magic sets must do
// preferBottomUp times less) is kept. A design whose relations grow too
// large or too slow is dropped.
func New(g *gdl.Game, opts ...Option) (*Machine, error) {
	var o Machine
	for _, f := range opts {
		f(&o)
	}
	m, err := build(g, opts, designBottomUp, true)
	if o.design == designMagic {
		var static map[gdl.Symbol]bool
		if m != nil {
			static = m.static
		}
		return buildMagic(g, static, opts, false)
	}
	if o.design == designBottomUp || m == nil {
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	var ge *engines.GameError
	if err != nil && (!errors.As(err, &ge) || ge.Kind != engines.ResourceLimit) {
		return nil, err
	}
	if !m.deadline.IsZero() && time.Now().After(m.deadline) {
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	// With bottom-up working, magic sets gets the same tight budgets.
	m2, err2 := buildMagic(g, m.static, opts, err == nil)
	switch {
	case err2 != nil && err != nil:
		return nil, engines.Errorf(engines.ResourceLimit, "%s; rewritten with magic sets: %s", ge.Msg, strings.TrimPrefix(err2.Error(), string(engines.ResourceLimit)+": "))
	case err2 != nil:
		return m, nil
	case err == nil:
		// Work counted, not time, so that every process chooses the same.
		if m.cost <= preferBottomUp*m2.cost {
			return m, nil
		}
	}
	return m2, nil
}

// measure plays the warm-up rollouts again, with the final join orders,
// and keeps their work per question as the machine's cost.
func (m *Machine) measure() {
	_, m.cost = m.play(false, warmSteps, warmWork, warmCap)
	m.cur = nil
	m.movesValid = false
	m.stateGen++
	m.moveGen++
}

// work is the work the machine has done: operations run, head tuples
// emitted, rows scanned whole and state facts loaded. It counts what the time of a question
// goes to, and the same in every process, so the warm-up and the choice of
// design are measured with it instead of the clock.
func (m *Machine) work() uint64 { return m.steps + m.emits + m.scanned + m.loads }

// buildMagic builds the game rewritten with magic sets. Magic sets can
// close a cycle through a negation; the relation negated is then computed
// whole, and the game rewritten again.
func buildMagic(g *gdl.Game, static map[gdl.Symbol]bool, opts []Option, tight bool) (*Machine, error) {
	whole := map[gdl.Symbol]bool{}
	start := time.Now()
	for range 40 {
		if time.Since(start) > magicBudget {
			break
		}
		g2, orig := gdl.MagicSets(g, static, whole)
		if g2 == nil {
			return nil, engines.Errorf(engines.ResourceLimit, "the rewritten game has over %d rules", gdl.MaxMagicRules)
		}
		m, err := build(g2, opts, designMagic, tight)
		var ce *cycleError
		if !errors.As(err, &ce) || whole[orig[ce.negated]] || orig[ce.negated] == gdl.NoSymbol {
			if err != nil {
				return nil, err
			}
			return m, nil
		}
		whole[orig[ce.negated]] = true
	}
	return nil, engines.Errorf(engines.UnsupportedErr, "magic sets: negation inside recursion")
}

// The designs.
const (
	designBottomUp = "bottom-up"
	designMagic    = "magic sets"
)

// WithDesign forces a design, "bottom-up" or "magic sets" (for tests).
func WithDesign(d string) Option { return func(m *Machine) { m.design = d } }

// Design says how the machine evaluates the game: "bottom-up", or
// "magic sets" when it runs the rules rewritten by gdl.MagicSets.
func (m *Machine) Design() string { return m.design }

// warmUp plays random steps with sampling on, for the join orders, and
// reports whether it saw any state.
func (m *Machine) warmUp() bool {
	sampled, _ := m.play(true, warmSteps, warmWork, warmCap)
	return sampled
}

// play plays random rollouts (the same ones for every design) for steps
// steps, or until they have done work work, each question within
// warmQuestionWork, and returns whether it saw a state and the work per
// question. Game errors end it: the rollouts will meet them. The bounds are
// counts, so that two processes play the same; maxTime and warmQuestionCap
// are only safety nets for a game whose work is slow to count.
func (m *Machine) play(sample bool, steps int, work uint64, maxTime time.Duration) (seen bool, cost float64) {
	m.sampling = sample
	m.budget = warmQuestionCap
	m.qWork = warmQuestionWork
	questions := 0
	start := time.Now()
	from := m.work()
	defer func() {
		m.sampling = false
		m.budget = maxQuestion
		m.qWork = 0
		cost = math.Inf(1)
		if questions > 0 {
			cost = float64(m.work()-from) / float64(questions)
		}
	}()
	rng := rand.New(rand.NewPCG(1, 2))
	joint := make([]engines.Move, len(m.roles))
	played := 0
	more := func() bool {
		return played < steps && m.work()-from < work && time.Since(start) < maxTime
	}
	for more() {
		s0, err := m.Initial()
		if err != nil {
			return
		}
		s := s0
		for more() {
			if sample {
				m.sampleState(s.(*state))
			}
			seen = true
			term, err := m.Terminal(s)
			if err != nil {
				return
			}
			questions++
			if term {
				m.Goals(s)
				break
			}
			for i := range joint {
				legal, err := m.Legal(s, i)
				if err != nil {
					return
				}
				questions++
				joint[i] = legal[rng.IntN(len(legal))]
			}
			if s, err = m.Next(s, joint); err != nil {
				return
			}
			questions++
			played++
		}
	}
	return
}

// sampleState loads s and samples the true$f relations.
func (m *Machine) sampleState(s *state) {
	m.setState(s)
	for _, t := range m.trueRels {
		t.rel.sample()
	}
}

func (m *Machine) ensureScratch(w int) {
	if len(m.key) < w {
		m.key = make([]int32, w)
		m.tup = make([]int32, w)
	}
}

// compileUnit splits a unit's rules into groups and compiles every rule.
func (c *compiler) compileUnit(u *unit, rules []*gdl.Rule) error {
	inSet := map[gdl.Symbol]bool{}
	for _, r := range u.rels {
		inSet[r.sym] = true
	}
	groups, rec, err := gdl.RuleGroups(rules, inSet)
	if ce := (*gdl.RuleCycleError)(nil); errors.As(err, &ce) {
		return &cycleError{GameError: engines.Errorf(engines.UnsupportedErr, "%s", ce), negated: ce.Negated}
	}
	if err != nil {
		return err
	}
	for gi, rs := range groups {
		g := &group{recursive: rec[gi]}
		heads := map[*relation]bool{}
		for _, r := range rs {
			h := c.relOf(r.Head.Name)
			if !heads[h] {
				heads[h] = true
				g.heads = append(g.heads, h)
			}
		}
		for _, r := range rs {
			cr := &crule{src: r}
			p, err := c.compileRule(r, -1)
			if err != nil {
				return err
			}
			cr.base = p
			if g.recursive {
				for i, l := range r.Body {
					if l.Kind == gdl.LitAtom && l.Atom.Name != gdl.SymTrue && heads[c.relOf(l.Atom.Name)] {
						p, err := c.compileRule(r, i)
						if err != nil {
							return err
						}
						cr.deltas = append(cr.deltas, p)
					}
				}
			}
			g.rules = append(g.rules, cr)
		}
		u.groups = append(u.groups, g)
	}
	return nil
}

// initEstimates counts the initial state's facts per function name and
// their distinct arguments, as size estimates of the true$f relations.
func (c *compiler) initEstimates(init *relation) {
	st := c.m.st
	seen := map[trueKey][]map[int32]bool{}
	for row := int32(0); row < init.n; row++ {
		f := init.data[row]
		k := trueKey{st.fn[f], int(st.arity[f])}
		c.initCount[k]++
		if seen[k] == nil {
			seen[k] = make([]map[int32]bool, k.arity)
			for i := range seen[k] {
				seen[k][i] = map[int32]bool{}
			}
		}
		for i, a := range st.argsOf(f) {
			seen[k][i][a] = true
		}
	}
	for k, cols := range seen {
		d := make([]float64, len(cols))
		for i, s := range cols {
			d[i] = float64(max(len(s), 1))
		}
		c.initDist[k] = d
	}
}

// SetDeadline makes every question asked after t fail with a resource-limit
// game error once it runs long; the zero time removes the deadline.
func (m *Machine) SetDeadline(t time.Time) { m.deadline = t }

// Roles implements engines.Machine.
func (m *Machine) Roles() []string { return m.roles }

func (m *Machine) newState(facts []int32) *state {
	n := len(facts)
	if n > len(m.slab) {
		m.slab = make([]int32, max(4096, n))
	}
	s := &state{facts: m.slab[:n:n]}
	m.slab = m.slab[n:]
	copy(s.facts, facts)
	return s
}

// Initial implements engines.Machine.
func (m *Machine) Initial() (engines.State, error) {
	return m.newState(m.initRel.data[:m.initRel.n]), nil
}

// setState makes s the current state: its facts are marked by id and
// split by function name into the true$f relations.
func (m *Machine) setState(s *state) {
	if s == m.cur {
		return
	}
	m.cur = s
	m.stateGen++
	m.moveGen++
	m.movesValid = false
	m.stamp++
	if m.stamp == 0 {
		clear(m.inState)
		m.stamp = 1
	}
	if n := m.st.size(); len(m.inState) < n {
		m.inState = append(m.inState, make([]uint32, n-len(m.inState)+n/2)...)
	}
	if n := m.st.size(); len(m.trueOf) < n {
		m.trueOf = append(m.trueOf, make([]int32, n-len(m.trueOf)+n/2)...)
	}
	for _, t := range m.trueRels {
		m.cells -= int64(t.rel.n) * int64(t.rel.width)
		t.rel.clear()
	}
	st := m.st
	m.loads += uint64(len(s.facts))
	for _, f := range s.facts {
		m.inState[f] = m.stamp
		k := m.trueOf[f]
		if k == 0 {
			k = -1
			for i, t := range m.trueRels {
				if t.fn == st.fn[f] && t.arity == st.arity[f] {
					k = int32(i) + 1
				}
			}
			m.trueOf[f] = k
		}
		if k > 0 {
			r := m.trueRels[k-1].rel
			t := append(m.tup[:0], st.argsOf(f)...)
			r.push(append(t, f))
			m.cells += int64(r.width)
		}
	}
}

func (m *Machine) setMoves(joint []engines.Move) {
	if m.movesValid && len(joint) == len(m.joint) {
		same := true
		for i, mv := range joint {
			if int32(mv) != m.joint[i] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	m.movesValid = true
	m.moveGen++
	m.joint = m.joint[:0]
	m.does.clear()
	var t [2]int32
	for i, mv := range joint {
		m.joint = append(m.joint, int32(mv))
		t[0], t[1] = m.roleIDs[i], int32(mv)
		m.does.add(t[:])
	}
}

// Terminal implements engines.Machine.
func (m *Machine) Terminal(s engines.State) (term bool, err error) {
	defer m.guard(&err)
	m.setState(s.(*state))
	m.ensure(m.qTerminal)
	return m.termRel.n > 0, nil
}

// Legal implements engines.Machine.
func (m *Machine) Legal(s engines.State, role int) (moves []engines.Move, err error) {
	defer m.guard(&err)
	st := s.(*state)
	m.setState(st)
	m.ensure(m.qLegal)
	moves = m.moves[role][:0]
	key := [1]int32{m.roleIDs[role]}
	r := m.legalRel
	for row := m.legalIx.lookup(r, key[:]); row >= 0; row = m.legalIx.next[row] {
		moves = append(moves, engines.Move(r.data[2*row+1]))
	}
	m.moves[role] = moves
	if len(moves) == 0 {
		return nil, engines.Errorf(engines.NoLegalMove, "role %s has no legal move in the state %s", m.roles[role], m.stateText(st))
	}
	return moves, nil
}

// Next implements engines.Machine.
func (m *Machine) Next(s engines.State, joint []engines.Move) (next engines.State, err error) {
	if len(joint) != len(m.roles) {
		return nil, engines.Errorf(engines.BadMove, "a joint move needs %d moves, not %d", len(m.roles), len(joint))
	}
	for i, mv := range joint {
		if mv < 0 || int(mv) >= m.st.size() {
			return nil, engines.Errorf(engines.BadMove, "move %d of role %s is not a term of this game", mv, m.roles[i])
		}
	}
	defer m.guard(&err)
	m.setState(s.(*state))
	m.setMoves(joint)
	m.ensure(m.qNext)
	return m.newState(m.nextRel.data[:m.nextRel.n]), nil
}

// Goals implements engines.Machine.
func (m *Machine) Goals(s engines.State) (goals []int, err error) {
	defer m.guard(&err)
	st := s.(*state)
	m.setState(st)
	m.ensure(m.qGoal)
	goals = make([]int, len(m.roles))
	r := m.goalRel
	for i, role := range m.roleIDs {
		key := [1]int32{role}
		var vals []int32
		for row := m.goalIx.lookup(r, key[:]); row >= 0; row = m.goalIx.next[row] {
			vals = append(vals, r.data[2*row+1])
		}
		if len(vals) != 1 {
			texts := make([]string, len(vals))
			for j, v := range vals {
				texts[j] = m.st.text(v)
			}
			sort.Strings(texts)
			return nil, engines.Errorf(engines.GoalCount, "role %s has %d goal values [%s] in the state %s; it needs exactly one", m.roles[i], len(vals), strings.Join(texts, " "), m.stateText(st))
		}
		v, ok := m.goalVals[vals[0]]
		if !ok {
			text := m.st.text(vals[0])
			n, err := strconv.Atoi(text)
			if err != nil {
				return nil, engines.Errorf(engines.GoalValue, "role %s has the goal value %s, which is not an integer", m.roles[i], text)
			}
			v = n
			m.goalVals[vals[0]] = v
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
		out[i] = m.st.text(f)
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
func (m *Machine) MoveText(mv engines.Move) string {
	if mv < 0 || int(mv) >= m.st.size() {
		return fmt.Sprintf("<bad move %d>", mv)
	}
	return m.st.text(int32(mv))
}
