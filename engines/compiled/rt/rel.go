package rt

import (
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Rel is a set of fixed-width tuples of term ids, stored row after row in
// one flat slice (append only until cleared, so the rows a semi-naive round
// added are a range). A hash set over all columns keeps it a set; indexes on
// column subsets serve the joins that bind those columns.
type Rel struct {
	W     int32
	N     int32
	Data  []int32
	set   []int32  // open addressing: row + 1
	skeys []uint64 // per slot: the packed tuple of its row, or 0
	smsk  uint32
	Ix    []*Index
	// Dlo and Dhi are the rows of the last semi-naive round.
	Dlo, Dhi int32
	// Base holds facts (W values each) added at every evaluation.
	Base []int32
	// direct: a width-1 relation is a set by term id (dmark[v] == dgen)
	// rather than a hash set, while its ids stay under maxDirect
	direct bool
	dmark  []uint32
	dgen   uint32
	// removable: the relation is filled by Push and emptied row by row
	// (Remove), its indexes' chains linked both ways (a true relation
	// that SetState updates by the facts that changed)
	removable bool
	// bits: a static relation's bit set (Freeze), or nil
	bits *bitSet
	// frozen: Freeze built a bit set or an index's array
	frozen bool
}

// Cells counts the values held by all relations; beyond MaxCells an add is
// a resource-limit game error.
var (
	Cells    int64
	MaxCells int64 = 40_000_000
)

// Work counts the evaluation's elementary operations: the rows the rules'
// loops go through (ScanAll, ScanDelta, Index.Step, Engine.ScanFacts), set
// and index probes, adds, term look-ups and interns, rows of rebuilt
// indexes and facts of states set. It is the warm-up's measure of a
// design's cost (choose.go): unlike time, the same in every process for
// a game.
var Work uint64

// staticClock, while set, bounds the computation of the static relations
// at start-up to staticBudget of CPU time (a busy machine does not fail
// it); ticks counts adds and interns between checks.
var (
	staticClock  *engines.WorkClock
	staticBudget = 20 * time.Second
	ticks        uint32
)

func tick() {
	ticks++
	if ticks&0xffff == 0 {
		tickCheck()
	}
}

// tickCheck is tick's check, out of line so that tick is inlined.
func tickCheck() {
	if staticClock != nil && staticClock.Used() > staticBudget {
		Fail(protocol.ResourceLimit, "the static relations took over %s of CPU to compute", staticBudget)
	}
	checkWarm()
}

// NewRel returns an empty relation of width w.
func NewRel(w int32) *Rel {
	r := &Rel{W: w, direct: w == 1, dgen: 1}
	if w > 0 {
		r.set = make([]int32, 16)
		r.skeys = make([]uint64, 16)
		r.smsk = 15
	}
	return r
}

func hashTuple(t []int32) uint32 {
	h := uint32(0x811C9DC5)
	for _, v := range t {
		h = mix(h, v)
	}
	return fin(h)
}

func (r *Rel) row(i int32) []int32 { return r.Data[i*r.W : i*r.W+r.W] }

func eq(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// packTuple packs a tuple of at most maxPack values, each under
// 1<<packBits[len(t)], with a marker bit, so that a packed key is never
// 0: value i at bit packBits[len(t)]*i. Up to four values have 15 bits
// each (pack2, pack3 and pack4 are the same layout for values known to
// be in range); wider tuples fewer, within 60 bits. The layout depends
// on the width, the same for every tuple of a relation or key of an
// index.
func packTuple(t []int32) (uint64, bool) {
	// unrolled by width: a loop's shift by a variable and its check of
	// each value cost amazons a sixth of its instructions (its relations
	// of six columns, added and found in every state)
	switch len(t) {
	case 0:
		return 1 << 63, true
	case 1:
		if uint32(t[0]) < 1<<15 {
			return pack1(t[0]), true
		}
		return 0, false
	case 2:
		if uint32(t[0])|uint32(t[1]) < 1<<15 {
			return pack2(t[0], t[1]), true
		}
		return 0, false
	case 3:
		if uint32(t[0])|uint32(t[1])|uint32(t[2]) < 1<<15 {
			return pack3(t[0], t[1], t[2]), true
		}
		return 0, false
	case 4:
		if uint32(t[0])|uint32(t[1])|uint32(t[2])|uint32(t[3]) < 1<<15 {
			return pack4(t[0], t[1], t[2], t[3]), true
		}
		return 0, false
	case 5:
		if uint32(t[0])|uint32(t[1])|uint32(t[2])|uint32(t[3])|uint32(t[4]) < 1<<12 {
			return pack5(t[0], t[1], t[2], t[3], t[4]), true
		}
		return 0, false
	case 6:
		if uint32(t[0])|uint32(t[1])|uint32(t[2])|uint32(t[3])|uint32(t[4])|uint32(t[5]) < 1<<10 {
			return pack6(t[0], t[1], t[2], t[3], t[4], t[5]), true
		}
		return 0, false
	}
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

// maxPack is the widest tuple that packs.
const maxPack = 8

// packBits is the bits of each value of a packed tuple, by width.
var packBits = [maxPack + 1]uint{15, 15, 15, 15, 15, 12, 10, 8, 7}

func pack1(a int32) uint64       { return 1<<63 | uint64(a) }
func pack2(a, b int32) uint64    { return pack1(a) | uint64(b)<<15 }
func pack3(a, b, c int32) uint64 { return pack2(a, b) | uint64(c)<<30 }
func pack4(a, b, c, d int32) uint64 {
	return pack3(a, b, c) | uint64(d)<<45
}

// pack5 and pack6 are packTuple's layouts of five values under 1<<12 and
// six under 1<<10.
func pack5(a, b, c, d, e int32) uint64 {
	return 1<<63 | uint64(a) | uint64(b)<<12 | uint64(c)<<24 | uint64(d)<<36 | uint64(e)<<48
}

func pack6(a, b, c, d, e, f int32) uint64 {
	return 1<<63 | uint64(a) | uint64(b)<<10 | uint64(c)<<20 | uint64(d)<<30 | uint64(e)<<40 | uint64(f)<<50
}

// slot returns the set slot of tuple t and whether it holds t.
func (r *Rel) slot(t []int32) (uint32, bool) {
	if key, ok := packTuple(t); ok {
		return r.probe(key)
	}
	for i := hashTuple(t) & r.smsk; ; i = (i + 1) & r.smsk {
		e := r.set[i]
		if e == 0 {
			return i, false
		}
		if r.skeys[i] == 0 && eq(r.row(e-1), t) {
			return i, true
		}
	}
}

// HasN reports whether the relation holds tuple t.
func (r *Rel) HasN(t []int32) bool {
	Work++
	if r.W == 0 {
		return r.N > 0
	}
	if r.direct {
		v := t[0]
		return uint32(v) < uint32(len(r.dmark)) && r.dmark[v] == r.dgen
	}
	if b := r.bits; b != nil {
		return b.has(t)
	}
	_, ok := r.slot(t)
	return ok
}

// bitSet answers a static relation's membership tests by a bit per tuple
// of the product of its columns' values (each column's values numbered
// densely): a few small arrays in the cache where the hash set's probes
// go anywhere in a table of 16 bytes a row.
type bitSet struct {
	dense [][]int32 // per column, by term id: the value's number from 1, or 0
	dims  []int32   // per column: its number of values
	bits  []uint64
}

// maxBitSet bounds a bit set's bits (32 KiB).
const maxBitSet = 1 << 18

// Freeze gives a static relation of width 2 or more, once computed, a bit
// set when its columns' values are few enough (their product under
// maxBitSet, each a term id under 1<<16), and each of its indexes whose key
// columns' values are few enough an array by them (Index.freeze).
func (r *Rel) Freeze() {
	r.unfreeze()
	if r.W < 2 || r.N == 0 {
		return
	}
	dense, dims, ok := r.numberColumns()
	if !ok {
		return
	}
	for _, ix := range r.Ix {
		r.frozen = ix.freeze(r, dense, dims) || r.frozen
	}
	size := 1
	for _, n := range dims {
		size *= int(n)
		if size > maxBitSet {
			return
		}
	}
	b := &bitSet{dense: dense, dims: dims}
	b.bits = make([]uint64, (size+63)/64)
	for row := range r.N {
		i := b.at(r.row(row))
		b.bits[i>>6] |= 1 << (i & 63)
	}
	r.bits = b
	r.frozen = true
}

// numberColumns numbers each column's values densely from 1: by term id,
// the value's number or 0, and each column's count of values; false when
// a value is not under 1<<16.
func (r *Rel) numberColumns() (dense [][]int32, dims []int32, ok bool) {
	dense, dims = make([][]int32, r.W), make([]int32, r.W)
	for i, v := range r.Data {
		c := i % int(r.W)
		if uint32(v) >= 1<<16 {
			return nil, nil, false
		}
		d := dense[c]
		if int(v) >= len(d) {
			d = append(d, make([]int32, int(v)+1-len(d))...)
			dense[c] = d
		}
		if d[v] == 0 {
			dims[c]++
			d[v] = dims[c]
		}
	}
	return dense, dims, true
}

// unfreeze drops what Freeze built: the relation is changing (an add to a
// static relation the fallback design fills on demand, or a Clear).
func (r *Rel) unfreeze() {
	r.bits = nil
	r.frozen = false
	for _, ix := range r.Ix {
		ix.dn = nil
	}
}

// at returns the bit of tuple t, or -1 when a value is not in its column.
func (b *bitSet) at(t []int32) int32 {
	i := int32(0)
	for c, v := range t {
		d := b.dense[c]
		if uint32(v) >= uint32(len(d)) || d[v] == 0 {
			return -1
		}
		i = i*b.dims[c] + d[v] - 1
	}
	return i
}

func (b *bitSet) has(t []int32) bool {
	i := b.at(t)
	return i >= 0 && b.bits[i>>6]&(1<<(i&63)) != 0
}

// num returns the number of value v in column c, from 0, or -1 when v is
// not in the column.
func (b *bitSet) num(c int, v int32) int32 {
	d := b.dense[c]
	if uint32(v) >= uint32(len(d)) {
		return -1
	}
	return d[v] - 1
}

// bit reports whether bit i is set (false for i < 0).
func (b *bitSet) bit(i int32) bool {
	return i >= 0 && b.bits[i>>6]&(1<<(i&63)) != 0
}

// has2, has3 and has4 are has for widths 2, 3 and 4, without the loop
// over the columns.
func (b *bitSet) has2(x, y int32) bool {
	i, j := b.num(0, x), b.num(1, y)
	if i|j < 0 {
		return false
	}
	return b.bit(i*b.dims[1] + j)
}

func (b *bitSet) has3(x, y, z int32) bool {
	i, j, k := b.num(0, x), b.num(1, y), b.num(2, z)
	if i|j|k < 0 {
		return false
	}
	return b.bit((i*b.dims[1]+j)*b.dims[2] + k)
}

func (b *bitSet) has4(x, y, z, w int32) bool {
	i, j, k, l := b.num(0, x), b.num(1, y), b.num(2, z), b.num(3, w)
	if i|j|k|l < 0 {
		return false
	}
	return b.bit(((i*b.dims[1]+j)*b.dims[2]+k)*b.dims[3] + l)
}

// Has1 is HasN for width 1.
func (r *Rel) Has1(a int32) bool {
	if uint32(a) < uint32(len(r.dmark)) {
		// inlined: a test of a mark by term id (only a direct relation
		// has marks)
		Work++
		return r.dmark[a] == r.dgen
	}
	return r.has1(a)
}

// has1 is Has1 for a relation that is not direct, kept out of line so
// that Has1 stays within the compiler's inlining budget.
//
//go:noinline
func (r *Rel) has1(a int32) bool {
	t := [1]int32{a}
	return r.HasN(t[:])
}

// Has2 is HasN for width 2: a tuple that packs is looked up by its key
// without the loops over its values (as packTuple and slot do them), a
// frozen relation's in its bit set.
func (r *Rel) Has2(a, b int32) bool {
	if r.bits == nil && uint32(a)|uint32(b) < 1<<15 {
		Work++
		_, ok := r.probe(pack2(a, b))
		return ok
	}
	return r.has2(a, b)
}

//go:noinline
func (r *Rel) has2(a, b int32) bool {
	if bs := r.bits; bs != nil {
		Work++
		return bs.has2(a, b)
	}
	t := [2]int32{a, b}
	return r.HasN(t[:])
}

// Has3 is HasN for width 3, as Has2.
func (r *Rel) Has3(a, b, c int32) bool {
	if r.bits == nil && uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		Work++
		_, ok := r.probe(pack3(a, b, c))
		return ok
	}
	return r.has3(a, b, c)
}

//go:noinline
func (r *Rel) has3(a, b, c int32) bool {
	if bs := r.bits; bs != nil {
		Work++
		return bs.has3(a, b, c)
	}
	t := [3]int32{a, b, c}
	return r.HasN(t[:])
}

// Has4 is HasN for width 4, as Has2.
func (r *Rel) Has4(a, b, c, d int32) bool {
	if bs := r.bits; bs != nil {
		Work++
		return bs.has4(a, b, c, d)
	}
	if uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<15 {
		Work++
		_, ok := r.probe(pack4(a, b, c, d))
		return ok
	}
	t := [4]int32{a, b, c, d}
	return r.HasN(t[:])
}

// probe returns the set slot of the tuple packed in key (packTuple) and
// whether it holds it: the slot's packed key, where a slot of a tuple that
// does not pack holds 0 (and a free slot, 0 in set too).
func (r *Rel) probe(key uint64) (uint32, bool) {
	for i := hashKey(key) & r.smsk; ; i = (i + 1) & r.smsk {
		k := r.skeys[i]
		if k == key {
			return i, true
		}
		if k == 0 && r.set[i] == 0 {
			return i, false
		}
	}
}

// AddN adds tuple t and reports whether it is new.
func (r *Rel) AddN(t []int32) bool {
	Work++
	if r.W == 0 {
		if r.N > 0 {
			return false
		}
		r.N = 1
		return true
	}
	if r.direct {
		v := t[0]
		if int(v) >= len(r.dmark) {
			if v >= maxDirect {
				r.direct = false
				r.dmark = nil // Has1 reads the marks of a direct relation only
				r.growSet()
				return r.AddN(t)
			}
			r.dmark = append(r.dmark, make([]uint32, max(int(v)+1, 2*len(r.dmark), 64)-len(r.dmark))...)
		}
		if r.dmark[v] == r.dgen {
			return false
		}
		r.dmark[v] = r.dgen
		r.push1(v)
		return true
	}
	i, ok := r.slot(t)
	if ok {
		return false
	}
	key, _ := packTuple(t)
	r.addAt(i, key, t)
	return true
}

// addAt adds tuple t, not in the relation, at its free set slot i; key
// is its packed key, or 0.
func (r *Rel) addAt(i uint32, key uint64, t []int32) {
	row := r.N
	r.set[i] = row + 1
	r.skeys[i] = key
	if r.frozen {
		r.unfreeze() // a static relation is frozen once computed: never here
	}
	tick()
	switch len(t) { // by value: append's copy of a slice calls memmove
	case 2:
		r.Data = append(r.Data, t[0], t[1])
	case 3:
		r.Data = append(r.Data, t[0], t[1], t[2])
	case 4:
		r.Data = append(r.Data, t[0], t[1], t[2], t[3])
	case 5:
		r.Data = append(r.Data, t[0], t[1], t[2], t[3], t[4])
	case 6:
		r.Data = append(r.Data, t[0], t[1], t[2], t[3], t[4], t[5])
	default:
		r.Data = append(r.Data, t...)
	}
	r.N++
	Cells += int64(r.W)
	if Cells > MaxCells {
		Fail(protocol.ResourceLimit, "the relations hold more than %d values", MaxCells)
	}
	if int(r.N)*2 > len(r.set) {
		r.growSet()
	}
	for _, ix := range r.Ix {
		if !ix.stale {
			ix.insert(r, row)
		}
	}
}

// ScanAll returns the number of rows, for a loop over them all, and
// counts them as work.
func (r *Rel) ScanAll() int32 {
	Work += uint64(r.N)
	return r.N
}

// ScanDelta returns Dhi, for a loop over the rows of the last semi-naive
// round, and counts them as work.
func (r *Rel) ScanDelta() int32 {
	Work += uint64(r.Dhi - r.Dlo)
	return r.Dhi
}

// Push appends a row that the caller knows is new, without the set (a
// relation filled only by Push, true facts, is never asked Has): the
// fact f's arguments args, then f, copied value by value rather than by
// two appends, each a call to memmove.
func (r *Rel) Push(args []int32, f int32) {
	Work++
	row := r.N
	n := len(r.Data)
	if cap(r.Data)-n < len(args)+1 {
		r.Data = append(r.Data[:cap(r.Data)], make([]int32, max(len(args)+1, cap(r.Data)))...)
	}
	r.Data = r.Data[:n+len(args)+1]
	d := r.Data[n:]
	for i, a := range args {
		d[i] = a
	}
	d[len(args)] = f
	r.pushed(row)
}

// push2, push3 and push4 are Push for widths 2 to 4 (a fact of one to
// three arguments), the arguments passed by value: SetState's calls for
// the common true relations, without the slice of the arguments.
func (r *Rel) push2(a, f int32) {
	Work++
	row := r.N
	r.Data = append(r.Data, a, f)
	r.pushed(row)
}

func (r *Rel) push3(a, b, f int32) {
	Work++
	row := r.N
	r.Data = append(r.Data, a, b, f)
	r.pushed(row)
}

func (r *Rel) push4(a, b, c, f int32) {
	Work++
	row := r.N
	r.Data = append(r.Data, a, b, c, f)
	r.pushed(row)
}

// pushed counts row, just appended by a push, and adds it to the indexes.
func (r *Rel) pushed(row int32) {
	r.N++
	Cells += int64(r.W)
	for _, ix := range r.Ix {
		if !ix.stale {
			ix.insert(r, row)
		}
	}
}

// Reset empties a relation filled by Push.
func (r *Rel) Reset() {
	Cells -= int64(r.N) * int64(r.W)
	r.N = 0
	r.Data = r.Data[:0]
	for _, ix := range r.Ix {
		ix.stale = true
	}
}

// Remove deletes row i of a removable relation: its last row takes its
// place.
func (r *Rel) Remove(i int32) {
	Work++
	last := r.N - 1
	for _, ix := range r.Ix {
		if ix.stale {
			continue
		}
		ix.unlink(r, i)
		if i != last {
			ix.move(r, last, i)
		}
		ix.Next = ix.Next[:last]
		ix.prev = ix.prev[:last]
	}
	w := r.W
	if i != last {
		copy(r.Data[i*w:i*w+w], r.Data[last*w:last*w+w])
	}
	r.Data = r.Data[:last*w]
	r.N = last
	Cells -= int64(w)
}

// Add0 adds the empty tuple.
func (r *Rel) Add0() bool { return r.AddN(nil) }

// Add1 is AddN for width 1. It repeats AddN's add by a direct relation's
// marks: a helper both share, though inlined, cost 0.5-1.2% more
// instructions a state change.
func (r *Rel) Add1(a int32) bool {
	if uint32(a) < uint32(len(r.dmark)) { // a direct relation's marks
		Work++
		if r.dmark[a] == r.dgen {
			return false
		}
		r.dmark[a] = r.dgen
		r.push1(a)
		return true
	}
	t := [1]int32{a}
	return r.AddN(t[:])
}

// Add2 is AddN for width 2.
func (r *Rel) Add2(a, b int32) bool {
	t := [2]int32{a, b}
	if uint32(a)|uint32(b) < 1<<15 {
		Work++
		key := pack2(a, b)
		i, ok := r.probe(key)
		if !ok {
			r.addAt(i, key, t[:])
		}
		return !ok
	}
	return r.AddN(t[:])
}

// Add3 is AddN for width 3, as Add2.
func (r *Rel) Add3(a, b, c int32) bool {
	t := [3]int32{a, b, c}
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		Work++
		key := pack3(a, b, c)
		i, ok := r.probe(key)
		if !ok {
			r.addAt(i, key, t[:])
		}
		return !ok
	}
	return r.AddN(t[:])
}

// Add4 is AddN for width 4, as Add2.
func (r *Rel) Add4(a, b, c, d int32) bool {
	t := [4]int32{a, b, c, d}
	if uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<15 {
		Work++
		key := pack4(a, b, c, d)
		i, ok := r.probe(key)
		if !ok {
			r.addAt(i, key, t[:])
		}
		return !ok
	}
	return r.AddN(t[:])
}

// Add5 is AddN for width 5, as Add4 (speedChess' and checkers' relations
// of five columns, through AddN's slice and loop).
func (r *Rel) Add5(a, b, c, d, e int32) bool {
	t := [5]int32{a, b, c, d, e}
	if uint32(a)|uint32(b)|uint32(c)|uint32(d)|uint32(e) < 1<<12 {
		Work++
		key := pack5(a, b, c, d, e)
		i, ok := r.probe(key)
		if !ok {
			r.addAt(i, key, t[:])
		}
		return !ok
	}
	return r.AddN(t[:])
}

// Add6 is AddN for width 6, as Add4 (amazons' moves and their paths).
func (r *Rel) Add6(a, b, c, d, e, f int32) bool {
	t := [6]int32{a, b, c, d, e, f}
	if uint32(a)|uint32(b)|uint32(c)|uint32(d)|uint32(e)|uint32(f) < 1<<10 {
		Work++
		key := pack6(a, b, c, d, e, f)
		i, ok := r.probe(key)
		if !ok {
			r.addAt(i, key, t[:])
		}
		return !ok
	}
	return r.AddN(t[:])
}

// push1 appends a row of a direct width-1 relation.
func (r *Rel) push1(v int32) {
	tick()
	row := r.N
	r.Data = append(r.Data, v)
	r.N++
	Cells++
	if Cells > MaxCells {
		Fail(protocol.ResourceLimit, "the relations hold more than %d values", MaxCells)
	}
	for _, ix := range r.Ix {
		if !ix.stale {
			ix.insert(r, row)
		}
	}
}

func (r *Rel) growSet() {
	n := 2 * len(r.set)
	for n < 4*int(r.N)+16 {
		n *= 2
	}
	r.set = make([]int32, n)
	r.skeys = make([]uint64, n)
	r.smsk = uint32(len(r.set) - 1)
	for row := int32(0); row < r.N; row++ {
		t := r.row(row)
		key, ok := packTuple(t)
		var i uint32
		if ok {
			i = hashKey(key) & r.smsk
		} else {
			i = hashTuple(t) & r.smsk
		}
		for r.set[i] != 0 {
			i = (i + 1) & r.smsk
		}
		r.set[i] = row + 1
		r.skeys[i] = key
	}
}

// clearSlots is the scratch list of the slots that a sparse Clear empties.
var clearSlots []uint32

// clearRows empties the set's slots of the rows, found by their probes
// (all found before any is emptied, so that no probe is cut short); a row
// not in the set (rows that Push added) empties the whole set instead.
func (r *Rel) clearRows() {
	clearSlots = clearSlots[:0]
	for row := int32(0); row < r.N; row++ {
		t := r.row(row)
		var i uint32
		if key, ok := packTuple(t); ok {
			i = hashKey(key) & r.smsk
		} else {
			i = hashTuple(t) & r.smsk
		}
		for r.set[i] != row+1 {
			if r.set[i] == 0 {
				clear(r.set)
				clear(r.skeys)
				return
			}
			i = (i + 1) & r.smsk
		}
		clearSlots = append(clearSlots, i)
	}
	for _, i := range clearSlots {
		r.set[i] = 0
		r.skeys[i] = 0
	}
}

// clearSparse: Clear empties the set's slots of its rows one by one when
// those are under 1/clearSparse of the table, else the whole table: a
// relation that was once large costs its rows, not its capacity. Finding
// a row's slot costs some 60 times as much as emptying a slot in bulk,
// hence 64. (An index's rebuild empties its whole table: keeping a list of its slots
// cost 1% of hex's instructions, and its tables did not show in the
// profiles.)
const clearSparse = 64

// Clear empties the relation (keeping its capacity) and adds its base
// facts again.
func (r *Rel) Clear() {
	if r.N == 0 && r.Dhi == 0 && r.Base == nil && !r.direct && !r.frozen {
		return // empty already (a magic copy no question asked, most states)
	}
	if r.direct {
		r.dgen++
		if r.dgen == 0 {
			clear(r.dmark)
			r.dgen = 1
		}
	} else if r.W > 0 {
		if int(r.N)*clearSparse < len(r.set) {
			r.clearRows()
		} else {
			clear(r.set)
			clear(r.skeys)
		}
	}
	Cells -= int64(r.N) * int64(r.W)
	r.N = 0
	r.Data = r.Data[:0]
	r.Dlo, r.Dhi = 0, 0
	if r.frozen {
		r.unfreeze()
	}
	for _, ix := range r.Ix {
		ix.stale = true
	}
	if r.W == 0 {
		if r.Base != nil {
			r.N = 1
		}
		return
	}
	for i := 0; i+int(r.W) <= len(r.Base); i += int(r.W) {
		r.AddN(r.Base[i : i+int(r.W)])
	}
}

// Mark starts a semi-naive evaluation: the rows so far are not new.
func (r *Rel) Mark() { r.Dhi = r.N }

// Advance makes the rows added since the last Mark or Advance the delta
// and reports whether there are any.
func (r *Rel) Advance() bool {
	r.Dlo, r.Dhi = r.Dhi, r.N
	return r.Dlo < r.Dhi
}

// Index maps the values of some columns to the rows that have them: Head
// (open addressing by key) holds the newest row of each key plus one, and
// Next chains each row to the previous row with the same key, so a chain
// is in decreasing row order (but in a removable relation, whose last row
// moves into the place of a row removed).
type Index struct {
	Cols []int32
	Next []int32
	prev []int32 // in a removable relation: the row before in the chain, or -1
	head []int32
	// hkeys, beside head: the packed key of the slot's key (packTuple,
	// hashed by hashKey), or 0 for a key that does not pack (hashed by
	// keyHash): a key is found without reading its rows
	hkeys []uint64
	mask  uint32
	keys  int
	// stale is set when the relation is cleared: the index is rebuilt
	// when it is next used, so an index no question of a state needs
	// costs nothing
	stale bool
	// direct: a one-column index kept as arrays by term id (the newest
	// row + 1, valid where dgen holds gen) instead of a hash table
	direct bool
	dhead  []int32
	dgen   []uint32
	gen    uint32
	// dn: a frozen relation's index as an array by its key columns'
	// values numbered densely (Freeze), a key's newest row + 1 or 0 at
	// sum of num[j] * stride[j]: a few loads from small arrays where a
	// hash probe computes a hash and compares a row
	dn     []int32
	num    [][]int32 // per key column: the relation's numbering
	stride []int32
}

// maxDenseIndex bounds an index array's entries (1 MiB).
const maxDenseIndex = 1 << 18

// freeze gives the index of frozen relation r an array by its key
// columns' numbers (0 for a value not in the column, so that a key with
// one is at an entry no row has) when the array is small: under
// maxDenseIndex entries and under 64 a row. It reports whether it did.
func (ix *Index) freeze(r *Rel, dense [][]int32, dims []int32) bool {
	ix.dn = nil
	if ix.direct || len(ix.Cols) < 2 || len(ix.Cols) > 4 {
		return false
	}
	size := 1
	stride := make([]int32, len(ix.Cols))
	for j := len(ix.Cols) - 1; j >= 0; j-- {
		stride[j] = int32(size)
		size *= int(dims[ix.Cols[j]]) + 1
		if size > maxDenseIndex || size > 64*int(r.N)+4096 {
			return false
		}
	}
	if ix.stale {
		ix.rebuild(r)
	}
	dn := make([]int32, size)
	num := make([][]int32, len(ix.Cols))
	for j, c := range ix.Cols {
		num[j] = dense[c]
	}
	// rows in increasing order: each key's entry ends at its newest row,
	// the head of its chain
	for row := range r.N {
		d := r.Data[row*r.W:]
		i := int32(0)
		for j, c := range ix.Cols {
			i += num[j][d[c]] * stride[j]
		}
		dn[i] = row + 1
	}
	ix.dn, ix.num, ix.stride = dn, num, stride
	return true
}

// at returns the array entry of a key value v in key column j: 0 (an
// entry no row has, with the other columns' at most their strides) for
// a value not in the column.
func (ix *Index) at(j int, v int32) int32 {
	if d := ix.num[j]; uint32(v) < uint32(len(d)) {
		return d[v] * ix.stride[j]
	}
	return 0
}

// maxDirect bounds the term ids of a direct index; a larger one turns it
// into a hash index.
const maxDirect = 1 << 22

// AddIndex adds an index on cols; it must be called while r is empty.
func (r *Rel) AddIndex(cols ...int32) *Index {
	ix := &Index{Cols: cols, head: make([]int32, 16), hkeys: make([]uint64, 16), mask: 15, direct: len(cols) == 1, gen: 1}
	r.Ix = append(r.Ix, ix)
	return ix
}

func (ix *Index) keyHash(r *Rel, row int32) uint32 {
	h := uint32(0x811C9DC5)
	d := r.Data[row*r.W:]
	for _, c := range ix.Cols {
		h = mix(h, d[c])
	}
	return fin(h)
}

// rowKey returns the packed key of row's indexed columns (packTuple's
// layout; 0 where they do not pack) and the key's hash.
func (ix *Index) rowKey(r *Rel, row int32) (uint64, uint32) {
	d := r.Data[row*r.W:]
	k, ok := packCols(d, ix.Cols)
	if ok {
		return k, hashKey(k)
	}
	if len(ix.Cols) > 4 && len(ix.Cols) <= maxPack {
		var t [maxPack]int32
		for j, c := range ix.Cols {
			t[j] = d[c]
		}
		if k, ok := packTuple(t[:len(ix.Cols)]); ok {
			return k, hashKey(k)
		}
	}
	return 0, ix.keyHash(r, row)
}

// packCols packs columns cs of row d as packTuple does, unrolled for up to
// four columns (a loop's shift by a variable cost englishDraughts a
// percent), or returns false (more columns, or a value out of range).
func packCols(d []int32, cs []int32) (uint64, bool) {
	switch len(cs) {
	case 1:
		a := d[cs[0]]
		if uint32(a) < 1<<15 {
			return pack1(a), true
		}
	case 2:
		a, b := d[cs[0]], d[cs[1]]
		if uint32(a)|uint32(b) < 1<<15 {
			return pack2(a, b), true
		}
	case 3:
		a, b, c := d[cs[0]], d[cs[1]], d[cs[2]]
		if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
			return pack3(a, b, c), true
		}
	case 4:
		a, b, c, e := d[cs[0]], d[cs[1]], d[cs[2]], d[cs[3]]
		if uint32(a)|uint32(b)|uint32(c)|uint32(e) < 1<<15 {
			return pack4(a, b, c, e), true
		}
	}
	return 0, false
}

// hashOf returns the hash of the key of row, k packed (or 0).
func (ix *Index) hashOf(r *Rel, k uint64, row int32) uint32 {
	if k != 0 {
		return hashKey(k)
	}
	return ix.keyHash(r, row)
}

// probe returns the newest row of packed key k, or -1.
func (ix *Index) probe(k uint64) int32 {
	for i := hashKey(k) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		if ix.hkeys[i] == k {
			return e - 1
		}
	}
}

func (ix *Index) sameKey(r *Rel, a, b int32) bool {
	return sameCols(r.Data[a*r.W:], r.Data[b*r.W:], ix.Cols)
}

// sameCols reports whether rows da and db hold the same values in cols.
func sameCols(da, db []int32, cols []int32) bool {
	for _, c := range cols {
		if da[c] != db[c] {
			return false
		}
	}
	return true
}

// keyAt reports whether row d holds key in cols.
func keyAt(d []int32, cols []int32, key []int32) bool {
	for j, c := range cols {
		if d[c] != key[j] {
			return false
		}
	}
	return true
}

func (ix *Index) insert(r *Rel, row int32) {
	if ix.direct {
		v := r.Data[row*r.W+ix.Cols[0]]
		if int(v) >= len(ix.dhead) {
			if v >= maxDirect {
				ix.direct = false
				ix.rebuild(r)
				return
			}
			n := max(int(v)+1, 2*len(ix.dhead), 64)
			ix.dhead = append(ix.dhead, make([]int32, n-len(ix.dhead))...)
			ix.dgen = append(ix.dgen, make([]uint32, n-len(ix.dgen))...)
		}
		next := int32(-1)
		if ix.dgen[v] == ix.gen {
			next = ix.dhead[v] - 1
		}
		ix.Next = append(ix.Next, next)
		if r.removable {
			ix.link(next, row)
		}
		ix.dgen[v] = ix.gen
		ix.dhead[v] = row + 1
		return
	}
	ix.Next = append(ix.Next, -1)
	key, h := ix.rowKey(r, row)
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			ix.head[i] = row + 1
			ix.hkeys[i] = key
			ix.keys++
			if r.removable {
				ix.link(-1, row)
			}
			if ix.keys*2 > len(ix.head) {
				ix.grow(r)
			}
			return
		}
		if ix.hkeys[i] == key && (key != 0 || ix.sameKey(r, e-1, row)) {
			ix.Next[row] = e - 1
			ix.head[i] = row + 1
			if r.removable {
				ix.link(e-1, row)
			}
			return
		}
	}
}

// link records row, the new head of its chain, as the row before next
// (-1: none) in a removable relation.
func (ix *Index) link(next, row int32) {
	ix.prev = append(ix.prev, -1)
	if next >= 0 {
		ix.prev[next] = row
	}
}

// headSlot returns the slot of a hash index's head that holds row + 1, a
// row at the head of its chain.
func (ix *Index) headSlot(r *Rel, row int32) uint32 {
	_, h := ix.rowKey(r, row)
	i := h & ix.mask
	for ix.head[i] != row+1 {
		i = (i + 1) & ix.mask
	}
	return i
}

// unlink takes row out of its chain in a removable relation; a key left
// without rows leaves the table (its slot emptied, the probe sequences
// after it shifted back: no tombstones).
func (ix *Index) unlink(r *Rel, row int32) {
	p, n := ix.prev[row], ix.Next[row]
	if n >= 0 {
		ix.prev[n] = p
	}
	if p >= 0 {
		ix.Next[p] = n
		return
	}
	if ix.direct {
		ix.dhead[r.Data[row*r.W+ix.Cols[0]]] = n + 1
		return
	}
	i := ix.headSlot(r, row)
	if n >= 0 {
		ix.head[i] = n + 1
		return
	}
	// backward shift deletion (Knuth's algorithm R)
	for j := (i + 1) & ix.mask; ix.head[j] != 0; j = (j + 1) & ix.mask {
		h := ix.hashOf(r, ix.hkeys[j], ix.head[j]-1) & ix.mask
		// the entry at j may fill i unless its home h lies cyclically
		// in (i, j]
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			ix.head[i], ix.hkeys[i] = ix.head[j], ix.hkeys[j]
			i = j
		}
	}
	ix.head[i] = 0
	ix.keys--
}

// move relinks row from, whose values are being copied to row to (out of
// every chain), in its place.
func (ix *Index) move(r *Rel, from, to int32) {
	p, n := ix.prev[from], ix.Next[from]
	ix.prev[to], ix.Next[to] = p, n
	if n >= 0 {
		ix.prev[n] = to
	}
	switch {
	case p >= 0:
		ix.Next[p] = to
	case ix.direct:
		ix.dhead[r.Data[from*r.W+ix.Cols[0]]] = to + 1
	default:
		ix.head[ix.headSlot(r, from)] = to + 1
	}
}

func (ix *Index) grow(r *Rel) {
	old, oldKeys := ix.head, ix.hkeys
	ix.head = make([]int32, 2*len(old))
	ix.hkeys = make([]uint64, 2*len(old))
	ix.mask = uint32(len(ix.head) - 1)
	for j, e := range old {
		if e == 0 {
			continue
		}
		k := oldKeys[j]
		i := ix.hashOf(r, k, e-1) & ix.mask
		for ix.head[i] != 0 {
			i = (i + 1) & ix.mask
		}
		ix.head[i], ix.hkeys[i] = e, k
	}
}

// rebuild makes a stale index again.
func (ix *Index) rebuild(r *Rel) {
	ix.gen++
	if ix.gen == 0 {
		clear(ix.dgen)
		ix.gen = 1
	}
	if ix.keys > 0 {
		clear(ix.head)
	}
	ix.keys = 0
	ix.Next = ix.Next[:0]
	ix.prev = ix.prev[:0]
	ix.stale = false
	Work += uint64(r.N)
	if ix.direct {
		for row := int32(0); row < r.N; row++ {
			if r.Data[row*r.W+ix.Cols[0]] >= maxDirect {
				ix.direct = false
				break
			}
		}
	}
	for row := int32(0); row < r.N; row++ {
		ix.insert(r, row)
	}
}

// Step returns the row after row in the index's chain (Next[row]),
// counted as work.
func (ix *Index) Step(row int32) int32 {
	Work++
	return ix.Next[row]
}

// FindN returns the newest row whose indexed columns hold key, or -1.
func (ix *Index) FindN(r *Rel, key []int32) int32 {
	Work++
	if ix.stale {
		ix.rebuild(r)
	}
	if k, ok := packTuple(key); ok {
		return ix.probe(k)
	}
	for i := hashTuple(key) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		if keyAt(r.Data[(e-1)*r.W:], ix.Cols, key) {
			return e - 1
		}
	}
}

// Find1 is FindN for a one-column key.
func (ix *Index) Find1(r *Rel, a int32) int32 {
	Work++
	if ix.stale {
		ix.rebuild(r)
	}
	if ix.direct {
		if uint32(a) < uint32(len(ix.dhead)) && ix.dgen[a] == ix.gen {
			return ix.dhead[a] - 1
		}
		return -1
	}
	if uint32(a) < 1<<15 {
		return ix.probe(pack1(a))
	}
	c := ix.Cols[0]
	for i := fin(mix(0x811C9DC5, a)) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		if r.Data[(e-1)*r.W+c] == a {
			return e - 1
		}
	}
}

// Find2 is FindN for a two-column key.
func (ix *Index) Find2(r *Rel, a, b int32) int32 {
	Work++
	if ix.dn != nil {
		return ix.dn[ix.at(0, a)+ix.at(1, b)] - 1
	}
	if ix.stale {
		ix.rebuild(r)
	}
	if uint32(a)|uint32(b) < 1<<15 {
		return ix.probe(pack2(a, b))
	}
	c0, c1 := ix.Cols[0], ix.Cols[1]
	for i := fin(mix(mix(0x811C9DC5, a), b)) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		d := r.Data[(e-1)*r.W:]
		if d[c0] == a && d[c1] == b {
			return e - 1
		}
	}
}

// Find3 is FindN for a three-column key.
func (ix *Index) Find3(r *Rel, a, b, c int32) int32 {
	Work++
	if ix.dn != nil {
		return ix.dn[ix.at(0, a)+ix.at(1, b)+ix.at(2, c)] - 1
	}
	if ix.stale {
		ix.rebuild(r)
	}
	if uint32(a)|uint32(b)|uint32(c) < 1<<15 {
		return ix.probe(pack3(a, b, c))
	}
	c0, c1, c2 := ix.Cols[0], ix.Cols[1], ix.Cols[2]
	for i := fin(mix(mix(mix(0x811C9DC5, a), b), c)) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		d := r.Data[(e-1)*r.W:]
		if d[c0] == a && d[c1] == b && d[c2] == c {
			return e - 1
		}
	}
}

// Find4 is FindN for a four-column key.
func (ix *Index) Find4(r *Rel, a, b, c, d int32) int32 {
	Work++
	if ix.dn != nil {
		return ix.dn[ix.at(0, a)+ix.at(1, b)+ix.at(2, c)+ix.at(3, d)] - 1
	}
	if ix.stale {
		ix.rebuild(r)
	}
	if uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<15 {
		return ix.probe(pack4(a, b, c, d))
	}
	c0, c1, c2, c3 := ix.Cols[0], ix.Cols[1], ix.Cols[2], ix.Cols[3]
	for i := fin(mix(mix(mix(mix(0x811C9DC5, a), b), c), d)) & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.head[i]
		if e == 0 {
			return -1
		}
		x := r.Data[(e-1)*r.W:]
		if x[c0] == a && x[c1] == b && x[c2] == c && x[c3] == d {
			return e - 1
		}
	}
}
