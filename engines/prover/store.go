package prover

import (
	"slices"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// gterm is a ground term in the store: a constant when args is nil.
type gterm struct {
	fn   gdl.Symbol
	args []int32
}

// store hash-conses ground terms, so that two ground terms are equal exactly
// when their ids are. Its index is an open-addressing hash table (hash.go)
// over the terms themselves: a slot holds a term's id+1 (0 is empty) and
// its hash, and it is at most half full.
type store struct {
	terms []gterm
	slots []termSlot
}

type termSlot struct {
	id   int32 // term id + 1; 0 is an empty slot
	hash uint32
}

func newStore() *store {
	return &store{slots: make([]termSlot, 1024)}
}

// intern returns the id of fn(args...); args is copied when a new term is made.
func (s *store) intern(fn gdl.Symbol, args []int32) int32 {
	h := termHash(int32(fn), args)
	mask := uint32(len(s.slots) - 1)
	i := h & mask
	for ; s.slots[i].id != 0; i = (i + 1) & mask {
		if s.slots[i].hash != h {
			continue
		}
		id := s.slots[i].id - 1
		if t := &s.terms[id]; t.fn == fn && slices.Equal(t.args, args) {
			return id
		}
	}
	id := s.add(fn, args)
	s.slots[i] = termSlot{id: id + 1, hash: h}
	if 2*len(s.terms) > len(s.slots) {
		s.grow()
	}
	return id
}

func (s *store) grow() {
	old := s.slots
	s.slots = make([]termSlot, 2*len(old))
	mask := uint32(len(s.slots) - 1)
	for _, e := range old {
		if e.id == 0 {
			continue
		}
		i := e.hash & mask
		for s.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = e
	}
}

func (s *store) add(fn gdl.Symbol, args []int32) int32 {
	var cp []int32
	if len(args) > 0 {
		cp = append([]int32(nil), args...)
	}
	s.terms = append(s.terms, gterm{fn: fn, args: cp})
	return int32(len(s.terms) - 1)
}

// fromTerm interns a ground AST term.
func (s *store) fromTerm(t *gdl.Term) int32 {
	if t.Kind != gdl.Func {
		return s.intern(t.Name, nil)
	}
	args := make([]int32, len(t.Args))
	for i, a := range t.Args {
		args[i] = s.fromTerm(a)
	}
	return s.intern(t.Name, args)
}

// text prints a ground term canonically.
func (s *store) text(id int32) string {
	var b strings.Builder
	s.write(&b, id)
	return b.String()
}

func (s *store) write(b *strings.Builder, id int32) {
	t := s.terms[id]
	if t.args == nil {
		b.WriteString(t.fn.Name())
		return
	}
	b.WriteByte('(')
	b.WriteString(t.fn.Name())
	for _, a := range t.args {
		b.WriteByte(' ')
		s.write(b, a)
	}
	b.WriteByte(')')
}
