package rt

import "github.com/gdlperf/gdlperf/engines/protocol"

// CRel is a counted relation of the incremental design: each row keeps
// the number of derivations that give it, and rows are added and deleted
// as those change from one state to the next, so that a state change
// costs the size of the change rather than the size of the relations.
//
// A round is one change of the state's facts. During a round a row is in
// the old view (the relation before the round), the new view (after it),
// or both: the bits StNew and StOld of St. A row born this round is only new, a row that died is only old and
// stays in place until Flush; Delta lists both. Deleted rows' places are
// reused, so the rows of a relation are not in the order they were added.
type CRel struct {
	W    int32
	N    int32   // rows in use, zombies or free, each W values of Data
	Data []int32 // row after row
	Cnt  []int32 // per row: its derivations
	St   []uint8 // per row: StNew, StOld, stTouch; 0 for a zombie, stFree for a free row
	Ix   []*CIndex
	// Base holds facts (W values each), a derivation each.
	Base    []int32
	free    []int32
	set     []int32  // open addressing: row + 1, 0 empty, tomb deleted
	skeys   []uint64 // per slot: its row's packed tuple, or 0
	smsk    uint32
	sused   int // slots not empty (rows and tombs)
	delta   []int32
	touched []int32
	live    int32 // rows in the new view
	// zombies are rows in neither view kept in the set and the indexes
	// (St 0), so that a tuple that comes back (a legal move of the role
	// in control every other state) takes its row again; sweep frees
	// them when they outnumber the live rows
	zombies int32
	// inuse lists the rows in either view (for scans), pos is each
	// row's place in it or -1
	inuse []int32
	pos   []int32
}

// The bits of CRel.St.
const (
	StNew   uint8 = 1 // the row is in the relation after the round
	StOld   uint8 = 2 // the row was in the relation before the round
	stTouch uint8 = 4 // the row's count changed in the unit being evaluated
	stFree  uint8 = 8 // the row is on the free list
	stLive        = StNew | StOld
)

// tomb marks a deleted entry of an open-addressing table.
const tomb = -1

// NewCRel returns an empty counted relation of width w.
func NewCRel(w int32) *CRel {
	r := &CRel{W: w}
	if w > 0 {
		r.set = make([]int32, 16)
		r.skeys = make([]uint64, 16)
		r.smsk = 15
	}
	return r
}

// AddIndex adds an index on cols; it must be called while r is empty.
func (r *CRel) AddIndex(cols ...int32) *CIndex {
	ix := &CIndex{Cols: cols, direct: len(cols) == 1, head: make([]int32, 16), hkeys: make([]uint64, 16), mask: 15}
	r.Ix = append(r.Ix, ix)
	return ix
}

func (r *CRel) rowOf(i int32) []int32 { return r.Data[i*r.W : i*r.W+r.W] }

// find returns the row holding t, or -1, and the slot where t would go.
func (r *CRel) find(t []int32) (int32, uint32) {
	if r.W == 0 {
		if r.N > 0 && r.St[0] != stFree {
			return 0, 0
		}
		return -1, 0
	}
	ins := int64(-1)
	if key, ok := packTuple(t); ok {
		for i := hashKey(key) & r.smsk; ; i = (i + 1) & r.smsk {
			if r.skeys[i] == key {
				return r.set[i] - 1, i
			}
			switch r.set[i] {
			case 0:
				if ins >= 0 {
					return -1, uint32(ins)
				}
				return -1, i
			case tomb:
				if ins < 0 {
					ins = int64(i)
				}
			}
		}
	}
	for i := hashTuple(t) & r.smsk; ; i = (i + 1) & r.smsk {
		e := r.set[i]
		if e == 0 {
			if ins >= 0 {
				return -1, uint32(ins)
			}
			return -1, i
		}
		if e == tomb {
			if ins < 0 {
				ins = int64(i)
			}
			continue
		}
		if r.skeys[i] == 0 && eq(r.rowOf(e-1), t) {
			return e - 1, i
		}
	}
}

// slotHash is the first slot to probe for tuple t.
func (r *CRel) slotHash(t []int32) (uint32, uint64) {
	if key, ok := packTuple(t); ok {
		return hashKey(key) & r.smsk, key
	}
	return hashTuple(t) & r.smsk, 0
}

// has reports whether t is in the view (StNew or StOld).
func (r *CRel) has(t []int32, view uint8) bool {
	Work++
	row, _ := r.find(t)
	return row >= 0 && r.St[row]&view != 0
}

// has0 is has for width 0: its one row, if any, is row 0.
func (r *CRel) has0(view uint8) bool {
	Work++
	return r.N > 0 && r.St[0]&view != 0
}

// HasNewN reports whether t is in the relation after the round.
func (r *CRel) HasNewN(t []int32) bool { return r.has(t, StNew) }

// HasOldN reports whether t was in the relation before the round.
func (r *CRel) HasOldN(t []int32) bool { return r.has(t, StOld) }

// HasNew0 is HasNewN for width 0.
func (r *CRel) HasNew0() bool { return r.has0(StNew) }

// HasOld0 is HasOldN for width 0.
func (r *CRel) HasOld0() bool { return r.has0(StOld) }

// HasNew1 is HasNewN for width 1.
func (r *CRel) HasNew1(a int32) bool {
	if uint32(a) < 1<<15 {
		Work++
		row := r.rowByKey(pack1(a))
		return row >= 0 && r.St[row]&StNew != 0
	}
	t := [1]int32{a}
	return r.has(t[:], StNew)
}

// HasOld1 is HasOldN for width 1.
func (r *CRel) HasOld1(a int32) bool {
	if uint32(a) < 1<<15 {
		Work++
		row := r.rowByKey(pack1(a))
		return row >= 0 && r.St[row]&StOld != 0
	}
	t := [1]int32{a}
	return r.has(t[:], StOld)
}

// HasNew2 is HasNewN for width 2.
func (r *CRel) HasNew2(a, b int32) bool {
	if uint32(a)|uint32(b) < 1<<15 {
		Work++
		row := r.rowByKey(pack2(a, b))
		return row >= 0 && r.St[row]&StNew != 0
	}
	t := [2]int32{a, b}
	return r.has(t[:], StNew)
}

// HasOld2 is HasOldN for width 2.
func (r *CRel) HasOld2(a, b int32) bool {
	if uint32(a)|uint32(b) < 1<<15 {
		Work++
		row := r.rowByKey(pack2(a, b))
		return row >= 0 && r.St[row]&StOld != 0
	}
	t := [2]int32{a, b}
	return r.has(t[:], StOld)
}

// HasNew3 is HasNewN for width 3.
func (r *CRel) HasNew3(a, b, c int32) bool {
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		Work++
		row := r.rowByKey(pack3(a, b, c))
		return row >= 0 && r.St[row]&StNew != 0
	}
	t := [3]int32{a, b, c}
	return r.has(t[:], StNew)
}

// HasOld3 is HasOldN for width 3.
func (r *CRel) HasOld3(a, b, c int32) bool {
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		Work++
		row := r.rowByKey(pack3(a, b, c))
		return row >= 0 && r.St[row]&StOld != 0
	}
	t := [3]int32{a, b, c}
	return r.has(t[:], StOld)
}

// Rows returns the rows in either view, for a loop over them that tests
// St, and counts them as work.
func (r *CRel) Rows() []int32 {
	Work += uint64(len(r.inuse))
	return r.inuse
}

func (r *CRel) use(row int32) {
	r.pos[row] = int32(len(r.inuse))
	r.inuse = append(r.inuse, row)
}

func (r *CRel) unuse(row int32) {
	i := r.pos[row]
	last := r.inuse[len(r.inuse)-1]
	r.inuse[i] = last
	r.pos[last] = i
	r.inuse = r.inuse[:len(r.inuse)-1]
	r.pos[row] = -1
}

// Delta returns the rows born or dead in this round (for a loop that
// takes Sign of each) and counts them as work.
func (r *CRel) Delta() []int32 {
	Work += uint64(len(r.delta))
	return r.delta
}

// Changed reports whether the relation has rows born or dead this round.
func (r *CRel) Changed() bool { return len(r.delta) > 0 }

// Sign is +1 for a row born this round, -1 for a row that died.
func (r *CRel) Sign(row int32) int32 { return int32(r.St[row]&StNew)*2 - 1 }

// Live returns the number of rows in the new view.
func (r *CRel) Live() int32 { return r.live }

// alloc takes a free row (or a new one) for t, with count 0, touched and
// no other state bits, and enters it in the set (at slot) and the
// indexes.
func (r *CRel) alloc(t []int32, slot uint32) int32 {
	var row int32
	if n := len(r.free); n > 0 {
		row = r.free[n-1]
		r.free = r.free[:n-1]
		copy(r.Data[row*r.W:], t)
	} else {
		row = r.N
		r.N++
		r.Data = append(r.Data, t...)
		r.Cnt = append(r.Cnt, 0)
		r.St = append(r.St, 0)
		r.pos = append(r.pos, -1)
		for _, ix := range r.Ix {
			ix.Next = append(ix.Next, -1)
			ix.Prev = append(ix.Prev, -1)
		}
		Cells += int64(r.W) + 1
		if Cells > MaxCells {
			Fail(protocol.ResourceLimit, "the relations hold more than %d values", MaxCells)
		}
	}
	tick()
	r.Cnt[row] = 0
	// in use from now on: touched until Settle
	r.St[row] = stTouch
	r.touched = append(r.touched, row)
	if r.W > 0 {
		if r.set[slot] == 0 {
			r.sused++
		}
		r.set[slot] = row + 1
		r.skeys[slot], _ = packTuple(t)
		if r.sused*2 > len(r.set) {
			r.rehash()
		}
	}
	for _, ix := range r.Ix {
		ix.insert(r, row)
	}
	return row
}

// remove frees a row: out of the set and the indexes, onto the free list.
func (r *CRel) remove(row int32) {
	Work++
	if r.W > 0 {
		i, _ := r.slotHash(r.rowOf(row))
		for ; r.set[i] != row+1; i = (i + 1) & r.smsk {
		}
		r.set[i] = tomb
		r.skeys[i] = 0
	}
	for _, ix := range r.Ix {
		ix.remove(r, row)
	}
	r.St[row] = stFree
	r.Cnt[row] = 0
	r.free = append(r.free, row)
}

// sweep frees the zombie rows.
func (r *CRel) sweep() {
	for row := int32(0); row < r.N; row++ {
		if r.St[row] == 0 {
			r.remove(row)
		}
	}
	r.zombies = 0
}

// rehash rebuilds the set without its tombs, larger if it is full of rows.
func (r *CRel) rehash() {
	rows := int(r.N) - len(r.free)
	n := len(r.set)
	for n < 4*rows+16 {
		n *= 2
	}
	r.set = make([]int32, n)
	r.skeys = make([]uint64, n)
	r.smsk = uint32(n - 1)
	r.sused = 0
	for row := int32(0); row < r.N; row++ {
		if r.St[row] == stFree {
			continue
		}
		i, key := r.slotHash(r.rowOf(row))
		for r.set[i] != 0 {
			i = (i + 1) & r.smsk
		}
		r.set[i] = row + 1
		r.skeys[i] = key
		r.sused++
	}
}

// rowByKey returns the row of the packed tuple key, or -1.
func (r *CRel) rowByKey(key uint64) int32 {
	for i := hashKey(key) & r.smsk; ; i = (i + 1) & r.smsk {
		if r.skeys[i] == key {
			return r.set[i] - 1
		}
		if r.set[i] == 0 {
			return -1
		}
	}
}

// count adds s derivations to t.
func (r *CRel) count(t []int32, s int32) {
	row, slot := r.find(t)
	if row < 0 {
		row = r.alloc(t, slot)
	}
	r.bump(row, s)
}

// bump adds s derivations to row.
func (r *CRel) bump(row, s int32) {
	Work++
	r.Cnt[row] += s
	if r.St[row]&stTouch == 0 {
		if r.St[row] == 0 {
			r.zombies--
		}
		r.St[row] |= stTouch
		r.touched = append(r.touched, row)
	}
}

// CountN adds s derivations to tuple t.
func (r *CRel) CountN(t []int32, s int32) { r.count(t, s) }

// Count0 is CountN for width 0.
func (r *CRel) Count0(s int32) { r.count(nil, s) }

// Count1 is CountN for width 1.
func (r *CRel) Count1(a, s int32) {
	if uint32(a) < 1<<15 {
		if row := r.rowByKey(pack1(a)); row >= 0 {
			r.bump(row, s)
			return
		}
	}
	t := [1]int32{a}
	r.count(t[:], s)
}

// Count2 is CountN for width 2.
func (r *CRel) Count2(a, b, s int32) {
	if uint32(a)|uint32(b) < 1<<15 {
		if row := r.rowByKey(pack2(a, b)); row >= 0 {
			r.bump(row, s)
			return
		}
	}
	t := [2]int32{a, b}
	r.count(t[:], s)
}

// Count3 is CountN for width 3.
func (r *CRel) Count3(a, b, c, s int32) {
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		if row := r.rowByKey(pack3(a, b, c)); row >= 0 {
			r.bump(row, s)
			return
		}
	}
	t := [3]int32{a, b, c}
	r.count(t[:], s)
}

// Count4 is CountN for width 4 (skirmish counted a fifth of its
// instructions through CountN's slice).
func (r *CRel) Count4(a, b, c, d, s int32) {
	if uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<15 {
		if row := r.rowByKey(pack4(a, b, c, d)); row >= 0 {
			r.bump(row, s)
			return
		}
	}
	t := [4]int32{a, b, c, d}
	r.count(t[:], s)
}

// ZeroCounts starts a recount: every row's count is 0, to be counted
// again (then Settle), and the base facts are counted.
func (r *CRel) ZeroCounts() {
	Work += uint64(len(r.inuse))
	for _, row := range r.inuse {
		r.Cnt[row] = 0
		if r.St[row]&stTouch == 0 {
			r.St[row] |= stTouch
			r.touched = append(r.touched, row)
		}
	}
	if r.W == 0 {
		if r.Base != nil {
			r.count(nil, 1)
		}
		return
	}
	for i := 0; i+int(r.W) <= len(r.Base); i += int(r.W) {
		r.count(r.Base[i:i+int(r.W)], 1)
	}
}

// Settle ends the evaluation of the relation's unit in this round: a
// touched row that had derivations and has none died, a new row with
// derivations is born (both go to Delta), a new row with none is freed.
// It reports whether the relation changed.
func (r *CRel) Settle() bool {
	Work += uint64(len(r.touched))
	for _, row := range r.touched {
		st := r.St[row] &^ stTouch
		c := r.Cnt[row]
		switch {
		case c < 0:
			panic("compiled: a tuple of the incremental design has fewer than no derivations")
		case st == stLive && c == 0:
			r.St[row] = StOld
			r.delta = append(r.delta, row)
			r.live--
		case st == 0 && c > 0:
			r.St[row] = StNew
			r.delta = append(r.delta, row)
			r.live++
			r.use(row)
		case st == 0:
			r.St[row] = 0
			r.zombies++
		default:
			r.St[row] = st
		}
	}
	r.touched = r.touched[:0]
	if r.zombies > r.live/2+16 {
		r.sweep()
	}
	return len(r.delta) > 0
}

// Flush ends the round: the rows born are live, the dead ones freed.
func (r *CRel) Flush() {
	Work += uint64(len(r.delta))
	for _, row := range r.delta {
		if r.St[row] == StOld {
			r.St[row] = 0
			r.zombies++
			r.unuse(row)
		} else {
			r.St[row] = stLive
		}
	}
	r.delta = r.delta[:0]
	if r.zombies > r.live/2+16 {
		r.sweep()
	}
}

// reset empties the relation (keeping its capacity): every row is freed
// and the indexes cleared.
func (r *CRel) reset() {
	Cells -= int64(r.N) * (int64(r.W) + 1)
	r.N = 0
	r.Data, r.Cnt, r.St, r.pos, r.inuse = r.Data[:0], r.Cnt[:0], r.St[:0], r.pos[:0], r.inuse[:0]
	r.free, r.delta, r.touched = r.free[:0], r.delta[:0], r.touched[:0]
	r.live, r.zombies = 0, 0
	clear(r.set)
	clear(r.skeys)
	r.sused = 0
	for _, ix := range r.Ix {
		clear(ix.head)
		clear(ix.hkeys)
		ix.keys = 0
		clear(ix.dhead)
		ix.Next, ix.Prev = ix.Next[:0], ix.Prev[:0]
	}
}

// CIndex maps the values of some columns of a counted relation to its
// rows: head (open addressing by key; row + 1, 0 empty, tomb for a key
// whose rows were all deleted) holds the first row of each key, and
// Next and Prev chain the rows with the same key both ways, so that a
// row is taken out in constant time. Rows of every state are chained:
// a loop over a chain tests St.
type CIndex struct {
	Cols   []int32
	Next   []int32
	Prev   []int32
	head   []int32
	hkeys  []uint64 // per slot: the packed key of its rows, or 0
	mask   uint32
	keys   int // slots not empty (keys and tombs)
	direct bool
	dhead  []int32 // direct: by term id, the first row + 1, or 0
}

// rowKey returns the first slot to probe for row's key and the key
// packed (0 when it does not pack).
func (ix *CIndex) rowKey(r *CRel, row int32) (uint32, uint64) {
	var k [maxPack]int32
	d := r.Data[row*r.W:]
	if key, ok := packCols(d, ix.Cols); ok {
		return hashKey(key) & ix.mask, key
	}
	if len(ix.Cols) > 4 && len(ix.Cols) <= maxPack {
		for i, c := range ix.Cols {
			k[i] = d[c]
		}
		if key, ok := packTuple(k[:len(ix.Cols)]); ok {
			return hashKey(key) & ix.mask, key
		}
	}
	h := uint32(0x811C9DC5)
	for _, c := range ix.Cols {
		h = mix(h, d[c])
	}
	return fin(h) & ix.mask, 0
}

func (ix *CIndex) sameKey(r *CRel, a, b int32) bool {
	return sameCols(r.Data[a*r.W:], r.Data[b*r.W:], ix.Cols)
}

// slot returns the head slot of row's key, and whether the key is there;
// otherwise the slot where it would go.
func (ix *CIndex) slot(r *CRel, row int32) (uint32, uint64, bool) {
	ins := int64(-1)
	i, key := ix.rowKey(r, row)
	for ; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			if ins >= 0 {
				return uint32(ins), key, false
			}
			return i, key, false
		}
		if e == tomb {
			if ins < 0 {
				ins = int64(i)
			}
			continue
		}
		if key != 0 {
			if ix.hkeys[i] == key {
				return i, key, true
			}
		} else if ix.hkeys[i] == 0 && ix.sameKey(r, e-1, row) {
			return i, key, true
		}
	}
}

func (ix *CIndex) insert(r *CRel, row int32) {
	ix.Prev[row] = -1
	if ix.direct {
		v := r.Data[row*r.W+ix.Cols[0]]
		if v >= maxDirect || v < 0 {
			ix.undirect(r, row)
			return
		}
		if int(v) >= len(ix.dhead) {
			ix.dhead = append(ix.dhead, make([]int32, max(int(v)+1, 2*len(ix.dhead), 64)-len(ix.dhead))...)
		}
		first := ix.dhead[v] - 1
		ix.Next[row] = first
		if first >= 0 {
			ix.Prev[first] = row
		}
		ix.dhead[v] = row + 1
		return
	}
	i, key, ok := ix.slot(r, row)
	if ok {
		first := ix.head[i] - 1
		ix.Next[row] = first
		ix.Prev[first] = row
		ix.head[i] = row + 1
		return
	}
	ix.Next[row] = -1
	if ix.head[i] == 0 {
		ix.keys++
	}
	ix.head[i] = row + 1
	ix.hkeys[i] = key
	if ix.keys*2 > len(ix.head) {
		ix.rehash(r)
	}
}

func (ix *CIndex) remove(r *CRel, row int32) {
	next, prev := ix.Next[row], ix.Prev[row]
	if next >= 0 {
		ix.Prev[next] = prev
	}
	if prev >= 0 {
		ix.Next[prev] = next
		return
	}
	// row heads its chain
	if ix.direct {
		ix.dhead[r.Data[row*r.W+ix.Cols[0]]] = next + 1
		return
	}
	i, _ := ix.rowKey(r, row)
	for ; ; i = (i + 1) & ix.mask {
		if ix.head[i] == row+1 {
			if next >= 0 {
				ix.head[i] = next + 1
			} else {
				ix.head[i] = tomb
				ix.hkeys[i] = 0
			}
			return
		}
	}
}

// rehash rebuilds the head table from the chains' first rows, without
// tombs, larger when full of keys.
func (ix *CIndex) rehash(r *CRel) {
	old := ix.head
	live := 0
	for _, e := range old {
		if e > 0 {
			live++
		}
	}
	n := len(old)
	for n < 4*live+16 {
		n *= 2
	}
	ix.head = make([]int32, n)
	ix.hkeys = make([]uint64, n)
	ix.mask = uint32(n - 1)
	ix.keys = 0
	for _, e := range old {
		if e <= 0 {
			continue
		}
		i, key := ix.rowKey(r, e-1)
		for ix.head[i] != 0 {
			i = (i + 1) & ix.mask
		}
		ix.head[i] = e
		ix.hkeys[i] = key
		ix.keys++
	}
}

// undirect turns a direct index into a hash index (a term id too large
// for an array), rebuilding it from the rows in use, then inserts row.
func (ix *CIndex) undirect(r *CRel, row int32) {
	ix.direct = false
	ix.dhead = nil
	for i := int32(0); i < r.N; i++ {
		if i == row || r.St[i] == stFree {
			continue
		}
		ix.insert(r, i)
	}
	ix.insert(r, row)
}

// Step returns the row after row in its chain, counted as work.
func (ix *CIndex) Step(row int32) int32 {
	Work++
	return ix.Next[row]
}

// Find1 returns the first row whose indexed column holds a, or -1.
func (ix *CIndex) Find1(r *CRel, a int32) int32 {
	Work++
	if ix.direct {
		if uint32(a) < uint32(len(ix.dhead)) {
			return ix.dhead[a] - 1
		}
		return -1
	}
	return ix.find1(r, a)
}

// find1 is find for a one-column key.
func (ix *CIndex) find1(r *CRel, a int32) int32 {
	if uint32(a) >= 1<<15 {
		t := [1]int32{a}
		return ix.find(r, t[:])
	}
	return ix.probe(pack1(a))
}

// probe returns the first row of packed key k (packTuple), or -1.
func (ix *CIndex) probe(k uint64) int32 {
	for i := hashKey(k) & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.hkeys[i] == k {
			return ix.head[i] - 1
		}
		if ix.head[i] == 0 {
			return -1
		}
	}
}

// Find2 is Find1 for a two-column key: a key that packs is probed
// without find's loops over its values.
func (ix *CIndex) Find2(r *CRel, a, b int32) int32 {
	Work++
	if uint32(a)|uint32(b) < 1<<15 {
		return ix.probe(pack2(a, b))
	}
	t := [2]int32{a, b}
	return ix.find(r, t[:])
}

// Find3 is Find1 for a three-column key, as Find2.
func (ix *CIndex) Find3(r *CRel, a, b, c int32) int32 {
	Work++
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		return ix.probe(pack3(a, b, c))
	}
	t := [3]int32{a, b, c}
	return ix.find(r, t[:])
}

// Find4 is Find1 for a four-column key, as Find2.
func (ix *CIndex) Find4(r *CRel, a, b, c, d int32) int32 {
	Work++
	if uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<15 {
		return ix.probe(pack4(a, b, c, d))
	}
	t := [4]int32{a, b, c, d}
	return ix.find(r, t[:])
}

// FindN is Find1 for any key.
func (ix *CIndex) FindN(r *CRel, key []int32) int32 {
	Work++
	return ix.find(r, key)
}

func (ix *CIndex) find(r *CRel, key []int32) int32 {
	if k, ok := packTuple(key); ok {
		for i := hashKey(k) & ix.mask; ; i = (i + 1) & ix.mask {
			if ix.hkeys[i] == k {
				return ix.head[i] - 1
			}
			if ix.head[i] == 0 {
				return -1
			}
		}
	}
	for i := hashTuple(key) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		if e != tomb && ix.hkeys[i] == 0 && keyAt(r.Data[(e-1)*r.W:], ix.Cols, key) {
			return e - 1
		}
	}
}
