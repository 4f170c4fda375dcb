package prover

import (
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// gterm is a ground term in the store: a constant when args is nil.
type gterm struct {
	fn   gdl.Symbol
	args []int32
}

type smallKey struct {
	fn gdl.Symbol
	n  int32
	a  [4]int32
}

// store hash-conses ground terms, so that two ground terms are equal exactly
// when their ids are.
type store struct {
	terms []gterm
	small map[smallKey]int32
	large map[string]int32
	buf   []byte
}

func newStore() *store {
	return &store{small: map[smallKey]int32{}, large: map[string]int32{}}
}

// intern returns the id of fn(args...); args is copied when a new term is made.
func (s *store) intern(fn gdl.Symbol, args []int32) int32 {
	if len(args) <= 4 {
		k := smallKey{fn: fn, n: int32(len(args))}
		copy(k.a[:], args)
		if id, ok := s.small[k]; ok {
			return id
		}
		id := s.add(fn, args)
		s.small[k] = id
		return id
	}
	b := s.buf[:0]
	b = strconv.AppendInt(b, int64(fn), 36)
	for _, a := range args {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(a), 36)
	}
	s.buf = b
	if id, ok := s.large[string(b)]; ok {
		return id
	}
	id := s.add(fn, args)
	s.large[string(b)] = id
	return id
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
