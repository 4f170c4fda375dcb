package propnet

import (
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// term is an interned ground term: a constant (no arguments) or a function
// term whose arguments are ids of interned terms. A sentence is a term too.
type term struct {
	fn    gdl.Symbol
	start int32 // offset of the arguments in terms.pool
	n     int32 // number of arguments
}

// terms interns ground terms to dense int32 ids in an open-addressing hash
// table over the terms themselves: no key is allocated, and nothing in it
// holds a pointer, so tens of millions of terms cost the garbage collector
// nothing to scan.
type terms struct {
	t     []term
	hash  []uint32 // hash of each term
	pool  []int32
	slots []uint64 // hash<<32 | term id + 1, or 0 for an empty slot
}

func newTerms() *terms {
	return &terms{slots: make([]uint64, 1024)}
}

func hashTerm(fn gdl.Symbol, args []int32) uint32 {
	h := uint64(fn)*0x9e3779b97f4a7c15 + uint64(len(args))
	for _, a := range args {
		h ^= uint64(uint32(a))
		h *= 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	h ^= h >> 29
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 32
	return uint32(h)
}

func (ts *terms) equal(id int32, fn gdl.Symbol, args []int32) bool {
	t := ts.t[id]
	if t.fn != fn || int(t.n) != len(args) {
		return false
	}
	for i, a := range ts.pool[t.start : t.start+t.n] {
		if a != args[i] {
			return false
		}
	}
	return true
}

// find returns the slot of fn(args): its id+1 there, or 0 at the empty
// slot where it would go.
func (ts *terms) find(h uint32, fn gdl.Symbol, args []int32) int {
	mask := len(ts.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := ts.slots[i]
		if s == 0 || uint32(s>>32) == h && ts.equal(int32(uint32(s))-1, fn, args) {
			return i
		}
	}
}

// lookup returns the id of fn(args), or -1 when it was never interned.
func (ts *terms) lookup(fn gdl.Symbol, args []int32) int32 {
	return int32(uint32(ts.slots[ts.find(hashTerm(fn, args), fn, args)])) - 1
}

// intern returns the id of fn(args), interning it when it is new.
func (ts *terms) intern(fn gdl.Symbol, args []int32) int32 {
	h := hashTerm(fn, args)
	i := ts.find(h, fn, args)
	if s := ts.slots[i]; s != 0 {
		return int32(uint32(s)) - 1
	}
	id := int32(len(ts.t))
	ts.t = append(ts.t, term{fn: fn, start: int32(len(ts.pool)), n: int32(len(args))})
	ts.hash = append(ts.hash, h)
	ts.pool = append(ts.pool, args...)
	ts.slots[i] = uint64(h)<<32 | uint64(id+1)
	if 2*len(ts.t) > len(ts.slots) {
		ts.grow()
	}
	return id
}

func (ts *terms) grow() {
	ts.slots = make([]uint64, 2*len(ts.slots))
	mask := len(ts.slots) - 1
	for id, h := range ts.hash {
		i := int(h) & mask
		for ts.slots[i] != 0 {
			i = (i + 1) & mask
		}
		ts.slots[i] = uint64(h)<<32 | uint64(id+1)
	}
}

// fromTerm interns a ground gdl term.
func (ts *terms) fromTerm(t *gdl.Term) int32 {
	if t.Kind != gdl.Func {
		return ts.intern(t.Name, nil)
	}
	args := make([]int32, len(t.Args))
	for i, a := range t.Args {
		args[i] = ts.fromTerm(a)
	}
	return ts.intern(t.Name, args)
}

func (ts *terms) args(id int32) []int32 {
	t := ts.t[id]
	return ts.pool[t.start : t.start+t.n : t.start+t.n]
}

func (ts *terms) fn(id int32) gdl.Symbol { return ts.t[id].fn }

// text prints a term canonically, as gdl.Term.String does.
func (ts *terms) text(id int32) string {
	var b strings.Builder
	ts.write(&b, id)
	return b.String()
}

func (ts *terms) write(b *strings.Builder, id int32) {
	t := ts.t[id]
	if t.n == 0 {
		b.WriteString(t.fn.Name())
		return
	}
	b.WriteByte('(')
	b.WriteString(t.fn.Name())
	for _, a := range ts.args(id) {
		b.WriteByte(' ')
		ts.write(b, a)
	}
	b.WriteByte(')')
}
