package rt

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRelRemove checks a removable relation (a true relation that
// SetState updates by the facts that changed) against a model: random
// pushes and removals, now and then a Reset, and after each step every
// index's chains hold exactly the rows with their key, both ways linked.
func TestRelRemove(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			r := NewRel(4)
			r.removable = true
			ixs := []*Index{r.AddIndex(0), r.AddIndex(1, 2), r.AddIndex(2), r.AddIndex(0, 1, 2)}
			model := map[int32][4]int32{} // by the last column, unique like a fact id
			next := int32(0)
			val := func(n int) int32 {
				if rng.IntN(50) == 0 {
					return maxDirect + int32(rng.IntN(2)) // a direct index turns hashed
				}
				return int32(rng.IntN(n))
			}
			for step := range 400 {
				if step%97 == 96 {
					r.Reset()
					clear(model)
				}
				for range rng.IntN(30) {
					tu := [4]int32{val(6), val(40), val(30), next}
					next++
					r.Push(tu[:3], tu[3])
					model[tu[3]] = tu
				}
				for range rng.IntN(30) {
					if r.N == 0 {
						break
					}
					i := int32(rng.IntN(int(r.N)))
					delete(model, r.Data[i*4+3])
					r.Remove(i)
				}
				// an index is used (and so rebuilt) now and then only
				for k, ix := range ixs {
					if rng.IntN(3) == 0 || step%10 == k {
						checkIndex(t, r, ix, model)
					}
				}
				if t.Failed() {
					t.Fatalf("step %d", step)
				}
			}
		})
	}
}

// checkIndex compares the chains of ix with the model's rows.
func checkIndex(t *testing.T, r *Rel, ix *Index, model map[int32][4]int32) {
	t.Helper()
	if int(r.N) != len(model) {
		t.Fatalf("%d rows, the model %d", r.N, len(model))
	}
	for row := range r.N {
		if m, ok := model[r.Data[row*4+3]]; !ok || [4]int32(r.Data[row*4:row*4+4]) != m {
			t.Fatalf("row %d holds %v, the model %v", row, r.Data[row*4:row*4+4], m)
		}
	}
	keys := map[[3]int32]int{}
	for _, m := range model {
		var k [3]int32
		for j, c := range ix.Cols {
			k[j] = m[c]
		}
		keys[k]++
	}
	keys[[3]int32{99, 99, 99}] = 0 // absent
	for k, n := range keys {
		key := k[:len(ix.Cols)]
		got, prev := 0, int32(-1)
		var first int32
		switch len(key) {
		case 1:
			first = ix.Find1(r, key[0])
		case 2:
			first = ix.Find2(r, key[0], key[1])
		default:
			first = ix.Find3(r, key[0], key[1], key[2])
		}
		for row := first; row >= 0; row = ix.Step(row) {
			if !keyAt(r.Data[row*4:], ix.Cols, key) {
				t.Errorf("index %v, key %v: row %d holds %v", ix.Cols, key, row, r.Data[row*4:row*4+4])
			}
			if ix.prev[row] != prev {
				t.Errorf("index %v, key %v: row %d's back link is %d, not %d", ix.Cols, key, row, ix.prev[row], prev)
			}
			prev = row
			got++
			if got > int(r.N) {
				t.Fatalf("index %v, key %v: a cycle", ix.Cols, key)
			}
		}
		if got != n {
			t.Errorf("index %v, key %v: %d rows in the chain, the model %d", ix.Cols, key, got, n)
		}
	}
}

// TestFreeze checks a static relation's membership tests and index
// look-ups after Freeze against a model: with a bit set and index arrays
// (small columns), and without (a value over 1<<16, or columns whose
// product passes maxBitSet), and again after an add has dropped them.
func TestFreeze(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	cases := []struct {
		name          string
		w, n          int
		vals          []int32
		bitSet, array bool
	}{
		{"pairs", 2, 40, []int32{0, 3, 4, 9, 300}, true, true},
		{"cells", 4, 500, []int32{1, 2, 3, 4, 5, 6, 7, 8}, true, true},
		{"large ids", 2, 40, []int32{1, 1 << 16}, false, false},
		{"wide", 3, 5000, func() []int32 {
			v := make([]int32, 70)
			for i := range v {
				v[i] = int32(i * 7)
			}
			return v
		}(), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRel(int32(c.w))
			var ixs []*Index
			for _, cols := range [][]int32{{1, 0}, []int32{0, 1, 2, 3}[:c.w], []int32{int32(c.w - 1), 0, 1}[:min(c.w, 3)]} {
				ixs = append(ixs, r.AddIndex(cols...))
			}
			model := map[[4]int32]bool{}
			tuple := func() [4]int32 {
				var k [4]int32
				for j := range c.w {
					k[j] = c.vals[rng.IntN(len(c.vals))]
				}
				return k
			}
			for range c.n {
				k := tuple()
				r.AddN(k[:c.w])
				model[k] = true
			}
			check := func(what string) {
				t.Helper()
				for range 2000 {
					k := tuple()
					if rng.IntN(5) == 0 {
						k[rng.IntN(c.w)] = int32(rng.IntN(400)) // values not in the columns
					}
					if got := r.HasN(k[:c.w]); got != model[k] {
						t.Fatalf("%s: HasN(%v) = %v, the model %v", what, k[:c.w], got, model[k])
					}
					if got := hasWidth(r, k[:c.w]); got != model[k] {
						t.Fatalf("%s: Has%d(%v) = %v, the model %v", what, c.w, k[:c.w], got, model[k])
					}
					for _, ix := range ixs {
						key := make([]int32, len(ix.Cols))
						for j, col := range ix.Cols {
							key[j] = k[col]
						}
						got := map[[4]int32]bool{}
						for row := findKey(ix, r, key); row >= 0; row = ix.Step(row) {
							var g [4]int32
							copy(g[:], r.row(row))
							if got[g] || !keyAt(r.row(row), ix.Cols, key) {
								t.Fatalf("%s: index %v, key %v: row %v twice or not of the key", what, ix.Cols, key, g)
							}
							got[g] = true
						}
						for m := range model {
							if keyAt(m[:], ix.Cols, key) && !got[m] {
								t.Fatalf("%s: index %v, key %v: row %v not found", what, ix.Cols, key, m)
							}
						}
					}
				}
			}
			r.Freeze()
			if (r.bits != nil) != c.bitSet || (ixs[0].dn != nil) != c.array {
				t.Fatalf("bit set %v, index array %v; want %v, %v", r.bits != nil, ixs[0].dn != nil, c.bitSet, c.array)
			}
			check("frozen")
			k := [4]int32{1, 2, 3, 4}
			r.AddN(k[:c.w]) // an add drops the bit set and the arrays
			model[k] = true
			if r.bits != nil || ixs[0].dn != nil {
				t.Fatal("an add after Freeze kept the bit set or an index array")
			}
			check("after an add")
		})
	}
}

// hasWidth calls the Has method of the tuple's width.
func hasWidth(r *Rel, k []int32) bool {
	switch len(k) {
	case 2:
		return r.Has2(k[0], k[1])
	case 3:
		return r.Has3(k[0], k[1], k[2])
	case 4:
		return r.Has4(k[0], k[1], k[2], k[3])
	}
	return r.HasN(k)
}

// findKey calls the Find method of the key's width.
func findKey(ix *Index, r *Rel, key []int32) int32 {
	switch len(key) {
	case 1:
		return ix.Find1(r, key[0])
	case 2:
		return ix.Find2(r, key[0], key[1])
	case 3:
		return ix.Find3(r, key[0], key[1], key[2])
	case 4:
		return ix.Find4(r, key[0], key[1], key[2], key[3])
	}
	return ix.FindN(r, key)
}

// TestSetStateChanges plays random sequences of states through SetState on
// a hand-built engine whose true relation has indexes: mostly a few facts
// changed from the current state (changeState's path), now and then a
// state far from it (set whole), some with a fact twice. After each, the
// state's facts hold and no other, the relation holds each once, and the
// indexes' chains hold exactly the rows of their keys.
func TestSetStateChanges(t *testing.T) {
	s := NewStore()
	var xs, vs []int32
	for i := range 8 {
		xs = append(xs, s.AddConst(fmt.Sprint("x", i)))
	}
	for i := range 3 {
		vs = append(vs, s.AddConst(fmt.Sprint("v", i)))
	}
	s.AddFunctor(-1, 0)
	s.AddFunctor(s.AddConst("cell"), 2)
	var facts []int32
	for _, x := range xs {
		for _, v := range vs {
			facts = append(facts, s.Intern2(1, x, v))
		}
	}
	e := NewEngine(s)
	r := NewRel(3)
	ixs := []*Index{r.AddIndex(1), r.AddIndex(0, 1)}
	e.TrueRel = []*Rel{nil, r}
	r.removable, e.trueIndexed, e.tup = true, true, make([]int32, 4)
	rng := rand.New(rand.NewPCG(9, 9))
	in := map[int32]bool{}
	changed := 0
	for step := range 3000 {
		switch {
		case step%200 == 0:
			clear(in)
			for _, f := range facts {
				if rng.IntN(2) == 0 {
					in[f] = true
				}
			}
		default:
			for range 1 + rng.IntN(3) {
				f := facts[rng.IntN(len(facts))]
				if in[f] {
					delete(in, f)
				} else {
					in[f] = true
				}
			}
		}
		var st []int32
		for _, f := range facts {
			if in[f] {
				st = append(st, f)
				if rng.IntN(40) == 0 {
					st = append(st, f) // a fact twice
				}
			}
		}
		rng.Shuffle(len(st), func(i, j int) { st[i], st[j] = st[j], st[i] })
		before := Work
		e.SetState(&State{Facts: st})
		if Work-before < uint64(len(st)) {
			changed++ // changeState's path costs less than setting every fact
		}
		for _, f := range facts {
			if e.Holds(f) != in[f] {
				t.Fatalf("step %d: fact %s holds %v", step, s.Text(f), e.Holds(f))
			}
		}
		if int(r.N) != len(in) {
			t.Fatalf("step %d: %d rows for %d facts", step, r.N, len(in))
		}
		seen := map[int32]bool{}
		for row := range r.N {
			f := r.Data[row*3+2]
			if !in[f] || seen[f] || e.rowOf[f] != row {
				t.Fatalf("step %d: row %d holds %s (in the state %v, seen %v, rowOf %d)", step, row, s.Text(f), in[f], seen[f], e.rowOf[f])
			}
			seen[f] = true
		}
		if step%7 == 0 { // an index is used (and kept from then on) now and then
			for _, ix := range ixs {
				checkChains(t, r, ix)
			}
		}
	}
	if changed < 1000 {
		t.Fatalf("only %d of 3000 states changed in place", changed)
	}
}

// checkChains checks that ix's chains hold exactly the rows of their keys,
// linked both ways.
func checkChains(t *testing.T, r *Rel, ix *Index) {
	t.Helper()
	keys := map[[2]int32]int{}
	for row := range r.N {
		var k [2]int32
		for j, c := range ix.Cols {
			k[j] = r.Data[row*r.W+c]
		}
		keys[k]++
	}
	for k, n := range keys {
		first := ix.Find1(r, k[0])
		if len(ix.Cols) == 2 {
			first = ix.Find2(r, k[0], k[1])
		}
		got, prev := 0, int32(-1)
		for row := first; row >= 0; row = ix.Step(row) {
			if !keyAt(r.Data[row*r.W:], ix.Cols, k[:len(ix.Cols)]) || ix.prev[row] != prev {
				t.Fatalf("index %v, key %v: row %d (back link %d, not %d)", ix.Cols, k, row, ix.prev[row], prev)
			}
			prev = row
			got++
		}
		if got != n {
			t.Fatalf("index %v, key %v: %d rows in the chain, %d in the relation", ix.Cols, k, got, n)
		}
	}
}

// TestRelWidths adds and looks up random tuples of each width up to
// past maxPack, with values on both sides of the width's packing bound
// (packBits), by AddN and HasN and by the methods of the width (Add2 ..
// Add6, Has2 .. Has4), against a model; two indexes, one on all columns
// but the last and one on the last two, find exactly the rows of a key.
func TestRelWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for w := 2; w <= maxPack+1; w++ {
		b := packBits[min(w, maxPack)]
		vals := []int32{0, 1, 2, 5, 1<<b - 1, 1 << b, 1<<b + 3, 40000}
		r := NewRel(int32(w))
		cols := make([]int32, w-1)
		for j := range cols {
			cols[j] = int32(j)
		}
		ixs := []*Index{r.AddIndex(cols...), r.AddIndex(int32(w-2), int32(w-1))}
		model := map[[maxPack + 1]int32]bool{}
		tuple := func() [maxPack + 1]int32 {
			var k [maxPack + 1]int32
			for j := range w {
				k[j] = vals[rng.IntN(len(vals))]
			}
			return k
		}
		add := func(k [maxPack + 1]int32) bool {
			if rng.IntN(2) == 0 {
				return r.AddN(k[:w])
			}
			switch w {
			case 2:
				return r.Add2(k[0], k[1])
			case 3:
				return r.Add3(k[0], k[1], k[2])
			case 4:
				return r.Add4(k[0], k[1], k[2], k[3])
			case 5:
				return r.Add5(k[0], k[1], k[2], k[3], k[4])
			case 6:
				return r.Add6(k[0], k[1], k[2], k[3], k[4], k[5])
			}
			return r.AddN(k[:w])
		}
		has := func(k [maxPack + 1]int32) (bool, bool) {
			return hasWidth(r, k[:w]), r.HasN(k[:w])
		}

		for round := range 6 {
			for range 300 {
				k := tuple()
				if got := add(k); got == model[k] {
					t.Fatalf("width %d: add(%v) = %v with the tuple in the model %v", w, k[:w], got, model[k])
				}
				model[k] = true
				q := tuple()
				a, b := has(q)
				if a != model[q] || b != model[q] {
					t.Fatalf("width %d: has(%v) = %v (by width), %v (HasN); the model %v", w, q[:w], a, b, model[q])
				}
				for _, ix := range ixs {
					key := make([]int32, len(ix.Cols))
					for j, c := range ix.Cols {
						key[j] = q[c]
					}
					n := 0
					for row := findKey(ix, r, key); row >= 0; row = ix.Step(row) {
						if !keyAt(r.row(row), ix.Cols, key) {
							t.Fatalf("width %d: index %v, key %v: row %v", w, ix.Cols, key, r.row(row))
						}
						n++
					}
					want := 0
					for m := range model {
						if keyAt(m[:], ix.Cols, key) {
							want++
						}
					}
					if n != want {
						t.Fatalf("width %d: index %v, key %v: %d rows, the model %d", w, ix.Cols, key, n, want)
					}
				}
			}
			if int(r.N) != len(model) {
				t.Fatalf("width %d: %d rows, the model %d", w, r.N, len(model))
			}
			if round%2 == 1 {
				r.Clear()
				clear(model)
			}
		}
	}
}

// TestClearEmpty: clearing a relation that is already empty (Clear's
// early return) still adds its base facts, a proposition's included, and
// leaves its indexes answering for the rows added after.
func TestClearEmpty(t *testing.T) {
	p := NewRel(0)
	p.Base = []int32{} // a fact of width 0
	p.Clear()
	if p.N != 1 {
		t.Fatalf("a proposition with a base fact holds %d tuples after Clear, not 1", p.N)
	}
	r := NewRel(2)
	r.Base = []int32{7, 8}
	r.Clear()
	if !r.Has2(7, 8) || r.N != 1 {
		t.Fatalf("the base fact is missing after Clear: %d rows", r.N)
	}
	e := NewRel(3)
	ix := e.AddIndex(0)
	for range 3 {
		e.Clear()
		if e.N != 0 || ix.Find1(e, 1) >= 0 {
			t.Fatalf("an empty relation has %d rows after Clear", e.N)
		}
		e.Add3(1, 2, 3)
		if row := ix.Find1(e, 1); row < 0 {
			t.Fatal("a row added after Clear is not in the index")
		}
		e.Clear()
	}
}

// TestPackTuple: packTuple, unrolled by width, packs as its loop (value i
// at bit packBits[width]*i, under 1<<packBits[width] each) or refuses as
// it does, for every width, values at the bounds and random ones; so does
// packCols, an index's columns of a row.
func TestPackTuple(t *testing.T) {
	loop := func(t []int32) (uint64, bool) {
		if len(t) > maxPack {
			return 0, false
		}
		b := packBits[len(t)]
		k := uint64(1) << 63
		for i, v := range t {
			if uint32(v) >= 1<<b {
				return 0, false
			}
			k |= uint64(v) << (b * uint(i))
		}
		return k, true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for w := 0; w <= maxPack+1; w++ {
		b := uint(15)
		if w <= maxPack {
			b = packBits[w]
		}
		values := []int32{0, 1, 1<<b - 1, 1 << b, -1, 1 << 20}
		for range 2000 {
			tu := make([]int32, w)
			for i := range tu {
				if rng.IntN(2) == 0 {
					tu[i] = values[rng.IntN(len(values))]
				} else {
					tu[i] = int32(rng.IntN(1 << b))
				}
			}
			k1, ok1 := packTuple(tu)
			k2, ok2 := loop(tu)
			if k1 != k2 || ok1 != ok2 {
				t.Fatalf("packTuple(%v) = %x, %v; the loop's: %x, %v", tu, k1, ok1, k2, ok2)
			}
			if w >= 1 && w <= 4 {
				// the columns of a row in reverse, as an index's
				row := append([]int32{7}, tu...)
				cols := make([]int32, w)
				rev := make([]int32, w)
				for i := range cols {
					cols[i] = int32(w - i)
					rev[i] = tu[w-1-i]
				}
				k3, ok3 := packCols(row, cols)
				k4, ok4 := loop(rev)
				if k3 != k4 || ok3 != ok4 {
					t.Fatalf("packCols(%v, %v) = %x, %v; the loop's: %x, %v", row, cols, k3, ok3, k4, ok4)
				}
			}
		}
	}
}

// TestAddWide: Add5 and Add6 keep the set of AddN (packTuple's keys): a
// tuple added one way is not added again the other, in range of the packed
// keys or not.
func TestAddWide(t *testing.T) {
	for _, w := range []int{5, 6} {
		r := NewRel(int32(w))
		add := func(k []int32) bool {
			if w == 5 {
				return r.Add5(k[0], k[1], k[2], k[3], k[4])
			}
			return r.Add6(k[0], k[1], k[2], k[3], k[4], k[5])
		}
		for i := range int32(200) {
			k := []int32{i % 7, i % 11, i, 3, i % 5, 1000 + i}[:w]
			if i%40 == 0 {
				k[1] = 1 << 13 // out of both widths' range
			}
			first, second := add, r.AddN
			if i%2 == 0 {
				first, second = r.AddN, add
			}
			if !first(k) || second(k) || !r.HasN(k) {
				t.Fatalf("width %d: %v added twice, or not found", w, k)
			}
		}
		if r.N != 200 {
			t.Fatalf("width %d: %d rows, want 200", w, r.N)
		}
	}
}
