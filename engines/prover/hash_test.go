package prover

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// The store gives equal terms equal ids and different terms different ids,
// through the growth of its index, whatever their number of arguments.
func TestStoreIntern(t *testing.T) {
	s := newStore()
	f, g := gdl.Intern("f"), gdl.Intern("g")
	type term struct {
		fn   gdl.Symbol
		args []int32
	}
	var terms []term
	for i := range int32(3000) { // past the index's first size (1024 slots) twice
		terms = append(terms, term{f, []int32{i}}, term{g, []int32{i, i + 1}}, term{f, []int32{i, 1, 2, 3, 4, 5}})
	}
	ids := map[int32]bool{}
	for _, x := range terms {
		id := s.intern(x.fn, x.args)
		require.False(t, ids[id], "%v(%v) got the id of another term", x.fn, x.args)
		ids[id] = true
	}
	for i, x := range terms {
		id := s.intern(x.fn, x.args)
		assert.Equal(t, int32(i), id, "%v(%v) interned again", x.fn, x.args)
		assert.Equal(t, x.fn, s.terms[id].fn)
		assert.Equal(t, x.args, s.terms[id].args)
	}
	c := s.intern(f, nil)
	assert.Equal(t, c, s.intern(f, []int32{}), "a constant is the same with nil or empty arguments")
	assert.NotEqual(t, c, s.intern(g, nil))
	assert.Equal(t, "f", s.text(c))
	assert.Equal(t, "(g f f)", s.text(s.intern(g, []int32{c, c})))
}

func TestIDSet(t *testing.T) {
	var s idSet
	for i := range int32(1000) {
		require.True(t, s.add(3*i), "%d is new", 3*i)
	}
	for i := range int32(3000) {
		assert.Equal(t, i%3 != 0, s.add(i), "add %d", i)
	}
	assert.Equal(t, 3000, s.n)
	s.reset()
	assert.Zero(t, s.n)
	assert.True(t, s.add(0), "empty after reset")
}

func TestTableMap(t *testing.T) {
	m := newTableMap()
	key := func(i int) []byte { return fmt.Appendf(nil, "key %d", i) }
	var tables []*table
	for i := range 500 { // past the first size (64 slots)
		require.Nil(t, m.get(key(i)))
		tb := m.put(key(i))
		tb.rel = gdl.Symbol(i)
		tb.query = pat{kind: pFunc, args: m.pats(2)}
		tb.status = complete
		if i%2 == 1 {
			tb.status = evaluating
		}
		for a := range int32(i % 20) {
			require.True(t, tb.add(a))
		}
		tables = append(tables, tb)
	}
	for i, tb := range tables {
		require.Same(t, tb, m.get(key(i)), "key %d", i)
		assert.Len(t, tb.answers, i%20)
		assert.Len(t, tb.query.args, 2)
	}
	for i, tb := range tables {
		for j := range i % 20 {
			assert.False(t, tb.add(int32(j)), "table %d has answer %d", i, j)
		}
	}

	// After an abort: the complete tables stay, under their keys.
	m.keep(func(tb *table) bool { return tb.status == complete })
	for i, tb := range tables {
		if i%2 == 0 {
			assert.Same(t, tb, m.get(key(i)), "complete table %d kept", i)
		} else {
			assert.Nil(t, m.get(key(i)), "incomplete table %d dropped", i)
		}
	}
	assert.Equal(t, 250, m.n)

	// A new state: no table, and the next ones are the old ones emptied.
	m.clear()
	for i := range 500 {
		assert.Nil(t, m.get(key(i)), "key %d after clear", i)
	}
	tb := m.put(key(7))
	assert.Contains(t, tables, tb, "a recycled table")
	assert.Empty(t, tb.answers)
	assert.Equal(t, uint8(fresh), tb.status)
	assert.Zero(t, tb.rel)
	for a := range int32(30) {
		assert.True(t, tb.add(a), "answer %d of the recycled table is new", a)
	}
	assert.Same(t, tb, m.get(key(7)))
}
