package tupleprover

import (
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// store hash-conses ground terms into dense int32 ids: a constant is its
// symbol with no arguments, a function term its symbol and the ids of its
// arguments. Two ground terms are equal exactly when their ids are. Terms
// live in flat arrays and the table is open addressing over ids, so looking a
// term up allocates nothing.
type store struct {
	fn    []gdl.Symbol
	off   []int32 // start of the arguments in args
	arity []int32
	hash  []uint32
	args  []int32
	slots []int32 // id+1, 0 when empty
	mask  uint32
}

func newStore() *store {
	s := &store{}
	s.slots = make([]int32, 1024)
	s.mask = 1023
	return s
}

func (s *store) size() int { return len(s.fn) }

func termHash(fn gdl.Symbol, args []int32) uint32 {
	h := uint32(fn)*0x9e3779b1 ^ uint32(len(args))
	for _, a := range args {
		h = (h ^ uint32(a)) * 0x85ebca6b
		h ^= h >> 13
	}
	h ^= h >> 16
	return h
}

func (s *store) same(id int32, fn gdl.Symbol, args []int32) bool {
	if s.fn[id] != fn || int(s.arity[id]) != len(args) {
		return false
	}
	o := s.off[id]
	for i, a := range args {
		if s.args[int(o)+i] != a {
			return false
		}
	}
	return true
}

// lookup returns the id of fn(args...) when the term exists.
func (s *store) lookup(fn gdl.Symbol, args []int32) (int32, bool) {
	h := termHash(fn, args)
	for i := h & s.mask; ; i = (i + 1) & s.mask {
		v := s.slots[i]
		if v == 0 {
			return -1, false
		}
		if s.hash[v-1] == h && s.same(v-1, fn, args) {
			return v - 1, true
		}
	}
}

// intern returns the id of fn(args...), making the term when it is new.
func (s *store) intern(fn gdl.Symbol, args []int32) int32 {
	h := termHash(fn, args)
	i := h & s.mask
	for ; ; i = (i + 1) & s.mask {
		v := s.slots[i]
		if v == 0 {
			break
		}
		if s.hash[v-1] == h && s.same(v-1, fn, args) {
			return v - 1
		}
	}
	id := int32(len(s.fn))
	s.fn = append(s.fn, fn)
	s.off = append(s.off, int32(len(s.args)))
	s.arity = append(s.arity, int32(len(args)))
	s.hash = append(s.hash, h)
	s.args = append(s.args, args...)
	s.slots[i] = id + 1
	if uint32(len(s.fn))*2 > s.mask {
		s.grow()
	}
	return id
}

func (s *store) grow() {
	n := uint32(len(s.slots)) * 2
	s.slots = make([]int32, n)
	s.mask = n - 1
	for id, h := range s.hash {
		i := h & s.mask
		for s.slots[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = int32(id) + 1
	}
}

// argsOf returns the arguments of term id (nil for a constant).
func (s *store) argsOf(id int32) []int32 {
	o := s.off[id]
	return s.args[o : o+s.arity[id] : o+s.arity[id]]
}

// fromTerm interns a ground AST term.
func (s *store) fromTerm(t *gdl.Term) int32 {
	if t.Kind != gdl.Func || len(t.Args) == 0 {
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
	if s.arity[id] == 0 {
		b.WriteString(s.fn[id].Name())
		return
	}
	b.WriteByte('(')
	b.WriteString(s.fn[id].Name())
	for _, a := range s.argsOf(id) {
		b.WriteByte(' ')
		s.write(b, a)
	}
	b.WriteByte(')')
}
