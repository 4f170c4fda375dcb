package rt

// The incremental design (DesignIncremental) keeps the relations that
// depend on the state (but not on the moves) from one question to the next and
// updates them by the change of their inputs, by counting (Gupta, Mumick
// and Subrahmanian's counting algorithm): every derived tuple keeps its
// number of derivations (CRel), and a change of a relation's rows is
// carried to each rule that reads it by a delta plan per body literal,
// which joins the literal's rows born or dead in the round with the other
// literals, the ones before it in their new view and the ones after it in
// their old view (the telescoping sum of a join's change). A unit whose
// relations are stale (its question was not asked while its inputs
// changed) is recounted from scratch, with the same rules and counts.

// IncUnit is a unit of the incremental design that depends on the state:
// counted (the relations of one non-recursive strongly connected
// component that does not depend on the moves), or Plain, an ordinary unit
// computed from scratch when its scope's generation changes.
type IncUnit struct {
	Plain *Unit
	Rels  []*CRel
	// Inputs are the counted relations its rules read; Deps the units
	// that define the relations it reads (counted or plain). Facts: its
	// rules read the state's facts by term (E.Holds).
	Inputs []*CRel
	Deps   []*IncUnit
	Facts  bool
	// Recount counts every derivation of the rules, all literals in the
	// new view; Delta runs the delta plans of the literals whose relation
	// changed in the round.
	Recount func()
	Delta   func()
	// Always: the unit is recounted whenever its inputs change (its rules
	// read the state's facts whole, (true ?x), which have no delta
	// plan).
	Always bool
	round  uint64 // the last round the unit was brought up to date in
	dirty  bool   // its relations are stale: recount
	// evalRound: the last round a plain unit was computed in (its
	// readers then recount)
	evalRound uint64
}

// Inc is the incremental design's part of an engine.
type Inc struct {
	Units   []*IncUnit // in order of evaluation
	Rels    []*CRel    // every counted relation
	ByID    []*CRel    // by the data's relation id (nil: an ordinary one)
	TrueRel []*CRel    // per functor: the relation of its true facts, or nil
	// the question relations that are counted (nil where static or plain)
	Legal, Next, Goal, Term *CRel
	// NextState holds the next facts whose rules do not depend on the
	// moves (the generator's next$state), counted; nil if none
	NextState       *CRel
	LegalIx, GoalIx *CIndex

	QTerminal, QLegal, QNext, QGoal []*IncUnit

	round        uint64
	pending      bool     // some relation has rows born or dead this round
	factsChanged bool     // the state's facts changed in this round
	facts        []int32  // the facts the true relations hold
	spare        []int32  // the buffer of the next facts
	held         []bool   // by term: in facts
	chg          []uint32 // chg[x] == chgStamp: fact x changed this round
	chgStamp     uint32
	// trueTouched: the true relations whose counts changed in
	// incSetState, to settle
	trueTouched []*CRel
	seen        []uint32 // seen[x] == seenStamp: x is in the next state being made
	seenStamp   uint32
}

// HoldsOld reports whether term x was a fact of the state before the round.
func (e *Engine) HoldsOld(x int32) bool {
	return e.Holds(x) != e.FactChanged(x)
}

// FactChanged reports whether term x became or stopped being a fact in
// this round.
func (e *Engine) FactChanged(x int32) bool {
	in := e.Inc
	return uint32(x) < uint32(len(in.chg)) && in.chg[x] == in.chgStamp
}

// FactsChanged reports whether the state's facts changed in this round.
func (e *Engine) FactsChanged() bool { return e.Inc.factsChanged }

// FactSign is +1 for a fact born in this round, -1 for one that died.
func (e *Engine) FactSign(x int32) int32 {
	if e.Holds(x) {
		return 1
	}
	return -1
}

// flush ends the round: the units that should have taken its changes and
// did not (their questions were not asked) are stale, and so is every
// unit that reads one; then the relations forget the round's changes.
func (in *Inc) flush() {
	if in.pending {
		Work += uint64(len(in.Units) + len(in.Rels))
		for _, u := range in.Units {
			if u.Plain != nil || u.round == in.round || u.dirty {
				continue
			}
			stale := in.factsChanged && (u.Facts || u.Always)
			for _, r := range u.Inputs {
				stale = stale || r.Changed()
			}
			for _, d := range u.Deps {
				stale = stale || d.dirty || (d.Plain != nil && d.evalRound == in.round)
			}
			u.dirty = stale
		}
		for _, r := range in.Rels {
			if len(r.delta) > 0 {
				r.Flush()
			}
		}
	}
	in.round++
	in.pending, in.factsChanged = false, false
	in.chgStamp++
	if in.chgStamp == 0 {
		clear(in.chg)
		in.chgStamp = 1
	}
}

// reset empties every counted relation and makes every unit stale, after
// a failed question left them half computed.
func (in *Inc) reset() {
	for _, r := range in.Rels {
		r.reset()
	}
	for _, u := range in.Units {
		u.dirty = true
	}
	for _, f := range in.facts {
		in.held[f] = false
	}
	in.facts = in.facts[:0]
	in.trueTouched = in.trueTouched[:0]
	in.flush()
}

// incSetState makes s the current state: a new round whose changes are
// the facts born and dead between the true relations' facts and s's.
func (e *Engine) incSetState(s *State) {
	in := e.Inc
	in.flush()
	e.cur = s
	e.Facts = s.Facts
	e.stateGen++
	e.moveGen++
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
	if n := e.S.Size(); len(e.mark) < n || len(in.chg) < n || len(in.held) < n {
		m := n + n/2
		e.mark = append(e.mark, make([]uint32, max(m-len(e.mark), 0))...)
		in.chg = append(in.chg, make([]uint32, max(m-len(in.chg), 0))...)
		in.held = append(in.held, make([]bool, max(m-len(in.held), 0))...)
	}
	st := e.S
	Work += uint64(len(s.Facts) + len(in.facts))
	facts := in.spare[:0] // s's facts, each once, in s's order
	for _, f := range s.Facts {
		if e.mark[f] == e.stamp {
			continue // a repeated fact
		}
		e.mark[f] = e.stamp
		facts = append(facts, f)
		if !in.held[f] {
			in.held[f] = true
			in.change(e, st, f, 1)
		}
	}
	for _, f := range in.facts {
		if e.mark[f] != e.stamp {
			in.held[f] = false
			in.change(e, st, f, -1)
		}
	}
	in.facts, in.spare = facts, in.facts
	for _, r := range in.trueTouched {
		r.Settle()
	}
	in.trueTouched = in.trueTouched[:0]
	in.pending = in.pending || in.factsChanged
}

// change records fact f born (s = 1) or dead (-1) in this round.
func (in *Inc) change(e *Engine, st *Store, f int32, s int32) {
	in.chg[f] = in.chgStamp
	in.factsChanged = true
	if r := in.TrueRel[st.Fk[f]]; r != nil {
		if len(r.touched) == 0 {
			in.trueTouched = append(in.trueTouched, r)
		}
		t := append(e.tup[:0], st.ArgsOf(f)...)
		r.count(append(t, f), s)
	}
}

// incEnsure brings the units up to date with the round, in order: a plain
// unit is computed once per state (or joint move), a stale counted unit
// (or one that reads the facts whole, or a plain unit computed this
// round) is recounted, another runs the delta plans of its changed
// inputs.
func (e *Engine) incEnsure(units []*IncUnit) {
	in := e.Inc
	for _, u := range units {
		if p := u.Plain; p != nil {
			g := e.stateGen
			if p.Scope == PerMove {
				g = e.moveGen
			}
			if p.stamp != g {
				checkWarm()
				e.evalUnit(p)
				p.stamp = g
				u.evalRound = in.round
			}
			continue
		}
		if u.round == in.round {
			continue
		}
		checkWarm()
		changed := in.factsChanged && (u.Facts || u.Always)
		for _, r := range u.Inputs {
			changed = changed || r.Changed()
		}
		plainChanged := false
		for _, d := range u.Deps {
			plainChanged = plainChanged || (d.Plain != nil && d.evalRound == in.round)
		}
		switch {
		case u.dirty || (u.Always && changed) || plainChanged:
			for _, r := range u.Rels {
				r.ZeroCounts()
			}
			u.Recount()
		case changed:
			u.Delta()
		}
		for _, r := range u.Rels {
			if len(r.touched) > 0 && r.Settle() {
				in.pending = true
			}
		}
		u.dirty = false
		u.round = in.round
	}
}

// newStateUnion returns the state of the facts of NextState (new view)
// and of the plain next relation r, each once.
func (e *Engine) newStateUnion(c *CRel, r *Rel) *State {
	in := e.Inc
	if r.N == 0 {
		return e.newStateC(c)
	}
	in.seenStamp++
	if in.seenStamp == 0 {
		clear(in.seen)
		in.seenStamp = 1
	}
	if m := e.S.Size(); len(in.seen) < m {
		in.seen = append(in.seen, make([]uint32, m-len(in.seen)+m/2)...)
	}
	facts := e.factsSpace(int(c.Live()) + int(r.N))
	for _, row := range c.inuse {
		if c.St[row]&StNew != 0 {
			f := c.Data[row]
			in.seen[f] = in.seenStamp
			facts = append(facts, f)
		}
	}
	for _, f := range r.Data[:r.N] {
		if in.seen[f] != in.seenStamp {
			facts = append(facts, f)
		}
	}
	return e.newStateOf(facts[:len(facts):len(facts)])
}
