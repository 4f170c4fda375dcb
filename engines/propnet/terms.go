package propnet

import (
	"encoding/binary"
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

// terms interns ground terms to dense int32 ids. Keys are the functor
// followed by the argument ids, so a constant (4 bytes) never collides with
// a function term (at least 8 bytes).
type terms struct {
	t    []term
	pool []int32
	ids  map[string]int32
	buf  []byte
}

func newTerms() *terms {
	return &terms{ids: make(map[string]int32, 1024)}
}

func (ts *terms) key(fn gdl.Symbol, args []int32) []byte {
	b := binary.LittleEndian.AppendUint32(ts.buf[:0], uint32(fn))
	for _, a := range args {
		b = binary.LittleEndian.AppendUint32(b, uint32(a))
	}
	ts.buf = b
	return b
}

// lookup returns the id of fn(args), or -1 when it was never interned.
func (ts *terms) lookup(fn gdl.Symbol, args []int32) int32 {
	if id, ok := ts.ids[string(ts.key(fn, args))]; ok {
		return id
	}
	return -1
}

// intern returns the id of fn(args), interning it when it is new.
func (ts *terms) intern(fn gdl.Symbol, args []int32) int32 {
	k := ts.key(fn, args)
	if id, ok := ts.ids[string(k)]; ok {
		return id
	}
	id := int32(len(ts.t))
	ts.t = append(ts.t, term{fn: fn, start: int32(len(ts.pool)), n: int32(len(args))})
	ts.pool = append(ts.pool, args...)
	ts.ids[string(k)] = id
	return id
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

func (ts *terms) arity(id int32) int { return int(ts.t[id].n) }

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
