package rt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// crelModel is the reference of a counted relation: derivations per
// tuple, before and after the round.
type crelModel struct {
	old, cur map[[3]int32]int32
}

func (m *crelModel) in(t [3]int32, view uint8) bool {
	if view == StNew {
		return m.cur[t] > 0
	}
	return m.old[t] > 0
}

// TestCRelRounds plays random rounds of count changes on a counted
// relation of width 3 (some values past the packed keys' range, so that
// both kinds of set and index entries are in play) with two indexes, and
// checks after each Settle the views (HasNew, HasOld), the rows of Delta
// and their signs, every index chain against the rows of each view, and
// Rows; then Flush. Rows die and come back (zombies), and enough die at
// once for sweeps. The same counts through Count4 on a relation of width 4
// give the same views.
func TestCRelRounds(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			r := NewCRel(3)
			ix0 := r.AddIndex(0)
			ix12 := r.AddIndex(1, 2)
			r4 := NewCRel(4) // the same tuples, 9 inserted: Count4
			m := &crelModel{old: map[[3]int32]int32{}, cur: map[[3]int32]int32{}}
			val := func() int32 {
				if rng.IntN(10) == 0 {
					return 1<<15 + int32(rng.IntN(3)) // not packed
				}
				return int32(rng.IntN(5))
			}
			for round := range 300 {
				// a round: derivations added and removed, never below 0
				n := rng.IntN(40)
				if round%50 == 49 {
					n = 400
				}
				for range n {
					tu := [3]int32{val(), val(), val()}
					s := int32(1)
					if m.cur[tu] > 0 && rng.IntN(2) == 0 {
						s = -m.cur[tu]
						if rng.IntN(2) == 0 {
							s = -1
						}
					}
					m.cur[tu] += s
					r.Count3(tu[0], tu[1], tu[2], s)
					r4.Count4(tu[0], tu[1], 9, tu[2], s)
				}
				if round%10 == 9 {
					// many die at once: a sweep frees the zombies
					var ks [][3]int32
					for k, v := range m.cur {
						if v > 0 {
							ks = append(ks, k)
						}
					}
					slices.SortFunc(ks, func(a, b [3]int32) int { return slices.Compare(a[:], b[:]) })
					for _, k := range ks {
						if rng.IntN(3) > 0 {
							r.count(k[:], -m.cur[k])
							r4.count([]int32{k[0], k[1], 9, k[2]}, -m.cur[k])
							m.cur[k] = 0
						}
					}
				}
				r.Settle()
				check(t, r, ix0, ix12, m, round)
				r.Flush()
				r4.Settle()
				for k := range m.cur {
					for _, view := range []uint8{StNew, StOld} {
						has := r4.HasNewN
						if view == StOld {
							has = r4.HasOldN
						}
						if got := has([]int32{k[0], k[1], 9, k[2]}); got != m.in(k, view) {
							t.Fatalf("round %d: width 4: %v in view %d: %v, want %v", round, k, view, got, m.in(k, view))
						}
					}
				}
				r4.Flush()
				m.old = map[[3]int32]int32{}
				for k, v := range m.cur {
					if v > 0 {
						m.old[k] = v
					}
				}
			}
		})
	}
}

func check(t *testing.T, r *CRel, ix0, ix12 *CIndex, m *crelModel, round int) {
	t.Helper()
	keys := map[[3]int32]bool{}
	for k := range m.cur {
		keys[k] = true
	}
	for k := range m.old {
		keys[k] = true
	}
	live := 0
	for k := range keys {
		for _, view := range []uint8{StNew, StOld} {
			has := r.HasNew3
			if view == StOld {
				has = r.HasOld3
			}
			if got := has(k[0], k[1], k[2]); got != m.in(k, view) {
				t.Fatalf("round %d: %v in view %d: %v, want %v", round, k, view, got, m.in(k, view))
			}
		}
		if m.cur[k] > 0 {
			live++
		}
	}
	if int(r.Live()) != live {
		t.Fatalf("round %d: %d live rows, want %d", round, r.Live(), live)
	}
	var born, dead [][3]int32
	for _, row := range r.Delta() {
		tu := [3]int32(r.rowOf(row))
		if r.Sign(row) > 0 {
			born = append(born, tu)
		} else {
			dead = append(dead, tu)
		}
	}
	var wantBorn, wantDead [][3]int32
	for k := range keys {
		switch o, n := m.old[k] > 0, m.cur[k] > 0; {
		case n && !o:
			wantBorn = append(wantBorn, k)
		case o && !n:
			wantDead = append(wantDead, k)
		}
	}
	cmp := func(a, b [3]int32) int { return slices.Compare(a[:], b[:]) }
	for _, s := range [][][3]int32{born, dead, wantBorn, wantDead} {
		slices.SortFunc(s, cmp)
	}
	if !slices.Equal(born, wantBorn) || !slices.Equal(dead, wantDead) {
		t.Fatalf("round %d: delta born %v dead %v, want %v %v", round, born, dead, wantBorn, wantDead)
	}
	// every index chain, filtered by a view, is the view's tuples with
	// that key
	for k := range keys {
		for _, view := range []uint8{StNew, StOld} {
			var got, want [][3]int32
			for row := ix12.Find2(r, k[1], k[2]); row >= 0; row = ix12.Step(row) {
				if r.St[row]&view != 0 {
					got = append(got, [3]int32(r.rowOf(row)))
				}
			}
			for row := ix0.Find1(r, k[0]); row >= 0; row = ix0.Step(row) {
				if tu := [3]int32(r.rowOf(row)); r.St[row]&view != 0 && tu[0] != k[0] {
					t.Fatalf("round %d: index on column 0 gives %v for %d", round, tu, k[0])
				}
			}
			for k2 := range keys {
				if k2[1] == k[1] && k2[2] == k[2] && m.in(k2, view) {
					want = append(want, k2)
				}
			}
			slices.SortFunc(got, cmp)
			slices.SortFunc(want, cmp)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: index (1 2) at %v in view %d: %v, want %v", round, k, view, got, want)
			}
		}
	}
	// Rows holds every row of either view once
	seen := map[int32]bool{}
	n := 0
	for _, row := range r.Rows() {
		if seen[row] {
			t.Fatalf("round %d: row %d twice in Rows", round, row)
		}
		seen[row] = true
		if r.St[row]&stLive != 0 {
			n++
		}
	}
	inEither := 0
	for k := range keys {
		if m.in(k, StNew) || m.in(k, StOld) {
			inEither++
		}
	}
	if n != inEither || len(r.Rows()) != inEither {
		t.Fatalf("round %d: Rows has %d rows (%d in a view), want %d", round, len(r.Rows()), n, inEither)
	}
}

// TestCRelWidthZero: a relation of no columns (terminal) is born, dies
// and comes back.
func TestCRelWidthZero(t *testing.T) {
	r := NewCRel(0)
	r.Count0(2)
	r.Settle()
	if !r.HasNew0() || r.HasOld0() || r.Sign(r.Delta()[0]) != 1 {
		t.Fatal("born: want new, not old, sign +1")
	}
	r.Flush()
	r.Count0(-1)
	r.Settle()
	if r.Changed() || !r.HasNew0() {
		t.Fatal("one derivation left: unchanged")
	}
	r.Flush()
	r.Count0(-1)
	r.Settle()
	if r.HasNew0() || !r.HasOld0() || r.Sign(r.Delta()[0]) != -1 {
		t.Fatal("dead: want old, not new, sign -1")
	}
	r.Flush()
	r.Count0(1)
	r.Settle()
	if !r.HasNew0() || r.HasOld0() {
		t.Fatal("back: want new, not old")
	}
}
