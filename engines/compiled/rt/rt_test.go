package rt

import (
	"slices"
	"testing"
)

func TestStoreInterns(t *testing.T) {
	s := NewStore()
	a := s.AddConst("a")
	b := s.AddConst("b")
	f := s.AddConst("f")
	s.AddFunctor(-1, 0)
	s.AddFunctor(f, 2)
	if s.Lookup2(1, a, b) != -1 {
		t.Fatal("lookup before intern")
	}
	x := s.Intern2(1, a, b)
	if y := s.Intern2(1, a, b); y != x {
		t.Fatalf("interned twice: %d %d", x, y)
	}
	if s.Lookup2(1, a, b) != x || s.Lookup2(1, b, a) != -1 || s.Lookup2(1, -1, a) != -1 {
		t.Fatal("lookup")
	}
	nested := s.Intern2(1, x, x)
	if got := s.Text(nested); got != "(f (f a b) (f a b))" {
		t.Fatalf("text %q", got)
	}
	// growth keeps every term
	ids := map[int32][2]int32{}
	for i := range int32(5000) {
		c := s.AddConst("c")
		ids[s.Intern2(1, c, i%7)] = [2]int32{c, i % 7}
	}
	for id, args := range ids {
		if s.Lookup2(1, args[0], args[1]) != id {
			t.Fatalf("lost term %d", id)
		}
	}
}

func TestRelIndexes(t *testing.T) {
	r := NewRel(3)
	ix := r.AddIndex(0)
	ix2 := r.AddIndex(0, 2)
	for i := range int32(1000) {
		if !r.Add3(i%10, i, i%3) {
			t.Fatal("a new row is not new")
		}
	}
	if r.Add3(5, 5, 2) {
		t.Fatal("a row added twice")
	}
	if !r.Has3(5, 15, 0) || r.Has3(5, 15, 1) {
		t.Fatal("has")
	}
	count := func(row int32, next []int32) int {
		n := 0
		last := int32(1 << 30)
		for ; row >= 0; row = next[row] {
			if row >= last {
				t.Fatal("a chain is not in decreasing row order")
			}
			last = row
			n++
		}
		return n
	}
	if n := count(ix.Find1(r, 4), ix.Next); n != 100 {
		t.Fatalf("index on column 0: %d rows", n)
	}
	if n := count(ix2.Find2(r, 4, 1), ix2.Next); n != 34 {
		t.Fatalf("index on columns 0 2: %d rows", n)
	}
	if ix.Find1(r, 77) != -1 {
		t.Fatal("a missing key")
	}
	r.Base = []int32{1, 2, 3}
	r.Clear()
	if r.N != 1 || !r.Has3(1, 2, 3) || ix.Find1(r, 1) != 0 || ix.Find1(r, 4) != -1 {
		t.Fatal("clear keeps the base facts only")
	}
	r.Mark()
	r.Add3(7, 7, 7)
	if !r.Advance() || r.Dlo != 1 || r.Dhi != 2 || r.Advance() {
		t.Fatal("semi-naive rounds")
	}
}

func TestPropositions(t *testing.T) {
	r := NewRel(0)
	if r.N != 0 || !r.Add0() || r.Add0() || !r.HasN(nil) {
		t.Fatal("a proposition")
	}
	r.Clear()
	if r.N != 0 {
		t.Fatal("clear")
	}
}

func TestIndexTurnsHashed(t *testing.T) {
	r := NewRel(2)
	ix := r.AddIndex(1)
	r.Add2(1, 5)
	r.Add2(2, 5)
	r.Add2(3, maxDirect+7)
	r.Add2(4, maxDirect+7)
	if ix.direct {
		t.Fatal("still direct")
	}
	n := 0
	for row := ix.Find1(r, 5); row >= 0; row = ix.Next[row] {
		n++
	}
	m := 0
	for row := ix.Find1(r, maxDirect+7); row >= 0; row = ix.Next[row] {
		m++
	}
	if n != 2 || m != 2 || ix.Find1(r, -1) != -1 {
		t.Fatalf("%d %d", n, m)
	}
}

func TestWidthOneSets(t *testing.T) {
	r := NewRel(1)
	for i := range int32(100) {
		if !r.Add1(i * 3) {
			t.Fatal("new")
		}
	}
	if r.Add1(3) || !r.Has1(3) || r.Has1(4) || r.Has1(-1) {
		t.Fatal("direct set")
	}
	r.Add1(maxDirect + 1)
	if r.direct || !r.Has1(maxDirect+1) || !r.Has1(3) || r.Add1(6) || r.N != 101 {
		t.Fatal("hashed set")
	}
	r.Clear()
	if r.N != 0 || r.Has1(3) {
		t.Fatal("clear")
	}
}

func TestStoreLargeIDs(t *testing.T) {
	s := NewStore()
	f := s.AddConst("f")
	s.AddFunctor(-1, 0)
	s.AddFunctor(f, 2)
	s.AddFunctor(f, 4)
	var big int32
	for range 70_000 {
		big = s.AddConst("c")
	}
	x := s.Intern2(1, big, 5)
	y := s.Intern2(1, 5, 6)
	z := s.InternN(2, []int32{1, 2, 3, big})
	for range 3000 { // growth rehashes both kinds of keys
		s.Intern2(1, s.AddConst("d"), 1)
	}
	if s.Lookup2(1, big, 5) != x || s.Lookup2(1, 5, 6) != y || s.LookupN(2, []int32{1, 2, 3, big}) != z || s.Intern2(1, big, 5) != x {
		t.Fatal("lookups after growth")
	}
	if s.Lookup2(1, 5, big) != -1 || s.Lookup2(1, -1, 5) != -1 {
		t.Fatal("missing terms")
	}
	if got := s.Text(z); got != "(f c c c c)" {
		t.Fatalf("text %q", got)
	}
}

func TestSetsMixPackedAndLarge(t *testing.T) {
	r := NewRel(2)
	for i := range int32(3000) {
		r.Add2(i, i*40) // values past 1<<15 are not packed
	}
	for i := range int32(3000) {
		if !r.Has2(i, i*40) || r.Has2(i, i*40+1) || r.Add2(i, i*40) {
			t.Fatalf("tuple %d", i)
		}
	}
	if r.N != 3000 {
		t.Fatal(r.N)
	}
}

// A relation that was once large is cleared slot by slot (Rel.clearRows):
// nothing of its old rows may stay in the set or its index, whichever way
// (packed keys or not) the rows were stored.
func TestClearOnceLargeRelation(t *testing.T) {
	r := NewRel(2)
	ix := r.AddIndex(0, 1)
	for i := range int32(5000) {
		r.Add2(i, i*40) // some values past 1<<15: not packed
	}
	if ix.Find2(r, 7, 280) != 7 {
		t.Fatal("index before clear")
	}
	for round := range int32(3) {
		r.Clear()
		if 5*clearSparse >= len(r.set) {
			t.Fatal("the set is not sparse: the test does not test the sparse clear")
		}
		for i := range int32(5) {
			if !r.Add2(i+round, 1) {
				t.Fatalf("round %d: row %d not new", round, i)
			}
		}
		for i := range int32(5000) {
			want := i >= round && i < round+5
			if r.Has2(i, 1) != want || r.Has2(i, i*40) && i != 0 {
				t.Fatalf("round %d: tuple %d after clear", round, i)
			}
			if got := ix.Find2(r, i, i*40); got != -1 && i != 0 {
				t.Fatalf("round %d: the index keeps row %d", round, got)
			}
		}
		if r.N != 5 || ix.Find2(r, round+2, 1) != 2 {
			t.Fatalf("round %d: %d rows", round, r.N)
		}
		// the tables hold the new rows only (a slot left behind would
		// fill the set, whose probes then never end)
		inUse := func(s []int32) (n int32) {
			for _, e := range s {
				if e != 0 {
					n++
				}
			}
			return n
		}
		keys := int32(0)
		for _, k := range r.skeys {
			if k != 0 {
				keys++
			}
		}
		if inUse(r.set) != 5 || keys != 5 || inUse(ix.head) != 5 {
			t.Fatalf("round %d: slots in use: set %d, keys %d, index %d", round, inUse(r.set), keys, inUse(ix.head))
		}
	}
	r.Clear()
	for i := range int32(5000) { // and it grows again
		r.Add2(i, i*40)
	}
	if r.N != 5000 || !r.Has2(4999, 4999*40) || ix.Find2(r, 4999, 4999*40) != 4999 {
		t.Fatal("after growing again")
	}
}

// TestStorePackedArities interns terms of one to eight arguments, with
// functors and arguments on both sides of the packed keys' limits (three
// arguments: functor 2^15, arguments 2^16; four: 2^11 and 2^13; five: 2^7
// and 2^9; six: 2^6 and 2^7; seven and eight: 2^5), through
// InternN and the fixed-arity helpers, and finds each again by every way
// in: terms of different functors or arities never share an id.
func TestStorePackedArities(t *testing.T) {
	s := NewStore()
	s.AddFunctor(-1, 0)
	for range 1 << 17 {
		s.AddConst("c")
	}
	var fks []int32
	for fk := int32(1); fk < 1<<15+3; fk++ {
		// arity 4 for functor 1, 3 for 16: keys that would meet without
		// the four-argument layout's marker bit
		s.AddFunctor(0, []int32{1, 4, 3, 2, 5, 3, 6, 1, 2, 7, 8}[fk%11])
		if fk < 12 || fk == 16 || fk > 1<<5-12 && fk < 1<<5+12 || fk > 1<<6-9 && fk < 1<<6+9 || fk > 1<<7-6 && fk < 1<<7+4 || fk > 1<<11-3 && fk < 1<<11+3 || fk > 1<<15-3 {
			fks = append(fks, fk)
		}
	}
	vals := []int32{0, 1, 7, 1<<5 - 1, 1 << 5, 1<<7 - 1, 1 << 7, 1<<9 - 1, 1 << 9, 1<<13 - 1, 1 << 13, 1<<16 - 1, 1 << 16}
	type term struct {
		fk   int32
		args [8]int32
	}
	ids := map[term]int32{}
	seen := map[int32]bool{}
	n := 0
	for _, fk := range fks {
		ar := int(s.FnArity[fk])
		for i := range 60 {
			var tm term
			tm.fk = fk
			for j, d := 0, i; j < ar && i > 0; j, d = j+1, d/len(vals) {
				tm.args[j] = vals[(d+j)%len(vals)] // i's digits; 0: all 0
			}
			args := tm.args[:ar]
			var id int32
			switch {
			case ar == 1 && i%2 == 0:
				id = s.Intern1(fk, args[0])
			case ar == 2 && i%2 == 0:
				id = s.Intern2(fk, args[0], args[1])
			case ar == 3 && i%2 == 0:
				id = s.Intern3(fk, args[0], args[1], args[2])
			case ar == 4 && i%2 == 0:
				id = s.Intern4(fk, args[0], args[1], args[2], args[3])
			case ar == 5 && i%2 == 0:
				id = s.Intern5(fk, args[0], args[1], args[2], args[3], args[4])
			default:
				id = s.InternN(fk, args)
			}
			if old, ok := ids[tm]; ok {
				if old != id {
					t.Fatalf("%v interned as %d and %d", tm, old, id)
				}
				continue
			}
			if seen[id] {
				t.Fatalf("%v got the id %d of another term", tm, id)
			}
			ids[tm], seen[id] = id, true
			n++
		}
	}
	for tm, id := range ids {
		ar := int(s.FnArity[tm.fk])
		args := tm.args[:ar]
		got := s.LookupN(tm.fk, args)
		switch ar {
		case 1:
			got = min(got, s.Lookup1(tm.fk, args[0]))
		case 2:
			got = min(got, s.Lookup2(tm.fk, args[0], args[1]))
		case 3:
			got = min(got, s.Lookup3(tm.fk, args[0], args[1], args[2]))
		case 4:
			got = min(got, s.Lookup4(tm.fk, args[0], args[1], args[2], args[3]))
		case 5:
			got = min(got, s.Lookup5(tm.fk, args[0], args[1], args[2], args[3], args[4]))
		}
		if got != id || s.InternN(tm.fk, args) != id {
			t.Fatalf("%v: interned as %d, found as %d", tm, id, got)
		}
		if a := s.ArgsOf(id); s.Fk[id] != tm.fk || [8]int32(append(append([]int32{}, a...), make([]int32, 8-len(a))...)) != tm.args {
			t.Fatalf("%v: term %d holds %d %v", tm, id, s.Fk[id], a)
		}
	}
	if n < 400 {
		t.Fatalf("only %d terms", n)
	}
	// six to eight arguments, every combination of values at the packing
	// bound's edges for one functor of each arity (one that packs): a
	// value past the bound would meet the next argument's
	for _, c := range []struct {
		arity, bound int32
	}{{6, 1 << 7}, {7, 1 << 5}, {8, 1 << 5}} {
		fk := int32(1)
		for s.FnArity[fk] != c.arity {
			fk++
		}
		edge := []int32{0, 1, c.bound - 1, c.bound}
		ids := map[[8]int32]int32{}
		for i := range 1 << (2 * c.arity) {
			var a [8]int32
			for j := range c.arity {
				a[j] = edge[i>>(2*j)&3]
			}
			ids[a] = s.InternN(fk, a[:c.arity])
		}
		for a, id := range ids {
			if s.LookupN(fk, a[:c.arity]) != id || !slices.Equal(s.ArgsOf(id), a[:c.arity]) {
				t.Fatalf("(%d %v): interned as %d, found as %d, holds %v", fk, a[:c.arity], id, s.LookupN(fk, a[:c.arity]), s.ArgsOf(id))
			}
		}
	}
}

// TestMemo: a memo keeps the ids put by source, never -1 (a term looked
// up before it exists may be interned later), and no source id from
// memoCap on.
func TestMemo(t *testing.T) {
	var m Memo
	if got := m.Get(5); got != -1 {
		t.Fatalf("empty memo: Get(5) = %d, want -1", got)
	}
	if got := m.Put(5, -1); got != -1 || m.Get(5) != -1 || len(m.ids) != 0 {
		t.Fatalf("Put(5, -1) = %d, then Get(5) = %d, %d ids; want -1, -1, 0 (not kept)", got, m.Get(5), len(m.ids))
	}
	if got := m.Put(5, 0); got != 0 || m.Get(5) != 0 {
		t.Fatalf("Put(5, 0) = %d, then Get(5) = %d; want 0, 0", got, m.Get(5))
	}
	m.Put(1000, 42)
	if m.Get(1000) != 42 || m.Get(5) != 0 || m.Get(999) != -1 {
		t.Fatalf("after Put(1000, 42): Get(1000) %d, Get(5) %d, Get(999) %d; want 42, 0, -1", m.Get(1000), m.Get(5), m.Get(999))
	}
	if got := m.Put(memoCap, 7); got != 7 || m.Get(memoCap) != -1 || len(m.ids) > memoCap {
		t.Fatalf("Put(memoCap, 7) = %d, Get = %d, %d ids; want 7, -1 (not kept), at most memoCap", got, m.Get(memoCap), len(m.ids))
	}
	m.Put(memoCap-1, 9)
	if m.Get(memoCap-1) != 9 || len(m.ids) != memoCap {
		t.Fatalf("Put(memoCap-1, 9): Get = %d, %d ids; want 9, memoCap", m.Get(memoCap-1), len(m.ids))
	}
}

// TestMemo2: a Memo2 keeps memoWays second keys per source, the first met;
// never -1, nor a key -1, nor a source from memo2Cap on.
func TestMemo2(t *testing.T) {
	var m Memo2
	if m.Get(3, 0) != -1 {
		t.Fatal("empty memo: Get(3, 0) != -1")
	}
	for k := int32(0); k < memoWays+1; k++ {
		m.Put(3, k, 100+k)
	}
	for k := int32(0); k < memoWays; k++ {
		if got := m.Get(3, k); got != 100+k {
			t.Errorf("Get(3, %d) = %d, want %d", k, got, 100+k)
		}
	}
	if got := m.Get(3, memoWays); got != -1 {
		t.Errorf("a key past the ways: Get(3, %d) = %d, want -1 (not kept)", memoWays, got)
	}
	if m.Get(2, 0) != -1 || m.Get(4, 0) != -1 {
		t.Error("a source's keys reach another source")
	}
	m.Put(5, 1, -1)
	m.Put(5, -1, 7)
	if m.Get(5, 1) != -1 || m.Get(5, -1) != -1 {
		t.Errorf("Get(5, 1) = %d, Get(5, -1) = %d; want -1, -1 (not kept)", m.Get(5, 1), m.Get(5, -1))
	}
	if got := m.Put(memo2Cap, 0, 9); got != 9 || m.Get(memo2Cap, 0) != -1 {
		t.Errorf("Put(memo2Cap, 0, 9) = %d, Get = %d; want 9, -1 (not kept)", got, m.Get(memo2Cap, 0))
	}
}
