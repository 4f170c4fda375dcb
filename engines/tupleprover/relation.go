package tupleprover

import "github.com/gdlperf/gdlperf/engines/gdl"

// relation is a set of fixed-width tuples of term ids, stored row after row
// in one flat slice. A set index over all columns keeps it a set; further
// indexes on column subsets serve the joins that bind those columns.
// Clearing is O(1) in the indexes (generation stamps), so a per-state
// relation is emptied and refilled without touching its capacity.
type relation struct {
	sym   gdl.Symbol
	name  string
	width int
	n     int32 // rows
	data  []int32
	set   *index   // all columns; nil when width is 0 or 1
	mark  []uint32 // width 1: membership by term id, valid when == gen
	gen   uint32
	idx   []*index // on column subsets, used by the joins
	scope scope

	// semi-naive evaluation: the rows of the last round
	dlo, dhi int32
	// before its first evaluation, an estimate of its size for join order
	est float64
	// sizes and distinct values per column seen while warming up
	sumN    float64
	evals   int
	distSum []float64
	distN   int
}

// sample records the relation's size and, for its first evaluations, the
// distinct values of each column, as estimates for join orders.
func (r *relation) sample() {
	r.sumN += float64(r.n)
	r.evals++
	if r.n == 0 || r.distN >= 8 || r.width == 0 {
		return
	}
	if r.distSum == nil {
		r.distSum = make([]float64, r.width)
	}
	seen := map[int32]bool{}
	for col := range r.width {
		clear(seen)
		for row := int32(0); row < r.n; row++ {
			seen[r.data[row*int32(r.width)+int32(col)]] = true
		}
		r.distSum[col] += float64(len(seen))
	}
	r.distN++
}

type scope uint8

const (
	scopeStatic scope = iota // depends on neither true nor does
	scopeState               // depends on true
	scopeMove                // depends on does
)

func newRelation(name string, width int, sc scope) *relation {
	r := &relation{name: name, width: width, scope: sc, gen: 1}
	if width > 1 {
		all := make([]int, width)
		for i := range all {
			all[i] = i
		}
		r.set = newIndex(all)
	}
	return r
}

// indexOn returns the relation's index on cols, making it when new.
func (r *relation) indexOn(cols []int) *index {
	if len(cols) == r.width && r.set != nil {
		return r.set
	}
	for _, ix := range r.idx {
		if equalInts(ix.cols, cols) {
			return ix
		}
	}
	ix := newIndex(cols)
	for row := int32(0); row < r.n; row++ {
		ix.insert(r, row)
	}
	r.idx = append(r.idx, ix)
	return ix
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (r *relation) clear() {
	if r.n == 0 {
		return
	}
	r.n = 0
	r.data = r.data[:0]
	r.gen++
	if r.gen == 0 {
		clear(r.mark)
		r.gen = 1
	}
	if r.set != nil {
		r.set.clear()
	}
	for _, ix := range r.idx {
		ix.clear()
	}
}

func (r *relation) row(i int32) []int32 {
	w := int32(r.width)
	return r.data[i*w : i*w+w : i*w+w]
}

// has reports whether the tuple is in r.
func (r *relation) has(t []int32) bool {
	switch r.width {
	case 0:
		return r.n > 0
	case 1:
		v := t[0]
		return int(v) < len(r.mark) && r.mark[v] == r.gen
	}
	return r.set.find(r, t) >= 0
}

// add inserts the tuple and reports whether it is new.
func (r *relation) add(t []int32) bool {
	switch r.width {
	case 0:
		if r.n > 0 {
			return false
		}
		r.n = 1
		return true
	case 1:
		v := t[0]
		if int(v) >= len(r.mark) {
			r.mark = append(r.mark, make([]uint32, int(v)+1-len(r.mark)+len(r.mark)/2+16)...)
		}
		if r.mark[v] == r.gen {
			return false
		}
		r.mark[v] = r.gen
	default:
		if r.set.find(r, t) >= 0 {
			return false
		}
	}
	row := r.n
	r.data = append(r.data, t...)
	r.n++
	if r.set != nil {
		r.set.insert(r, row)
	}
	for _, ix := range r.idx {
		ix.insert(r, row)
	}
	return true
}

// push appends a tuple known not to be in r (state facts are unique),
// keeping the column indexes but not the set index.
func (r *relation) push(t []int32) {
	switch r.width {
	case 0:
		r.n = 1
		return
	case 1:
		v := t[0]
		if int(v) >= len(r.mark) {
			r.mark = append(r.mark, make([]uint32, int(v)+1-len(r.mark)+len(r.mark)/2+16)...)
		}
		r.mark[v] = r.gen
	}
	row := r.n
	r.data = append(r.data, t...)
	r.n++
	for _, ix := range r.idx {
		ix.insert(r, row)
	}
}

// index is a hash index of a relation's rows on some columns: open
// addressing from the key to the newest row with that key, and a chain per
// row to the next older row with the same key. Walking a chain from its head
// visits rows newest first, which lets a semi-naive round stop at the start
// of its delta.
type index struct {
	cols  []int
	heads []int32  // newest row with the key of the slot
	gens  []uint32 // slot is used when its gen is gen
	gen   uint32
	used  int
	mask  uint32
	next  []int32 // per row
	// direct: a one-column index whose slots are the term ids
	direct bool
	col    int32
}

func newIndex(cols []int) *index {
	ix := &index{cols: cols, gen: 1}
	if len(cols) == 1 {
		// one column: heads and gens are indexed by the term id itself
		ix.direct = true
		ix.col = int32(cols[0])
		return ix
	}
	ix.heads = make([]int32, 8)
	ix.gens = make([]uint32, 8)
	ix.mask = 7
	return ix
}

// lookup1 is lookup for a direct index.
func (ix *index) lookup1(v int32) int32 {
	if int(v) < len(ix.gens) && ix.gens[v] == ix.gen {
		return ix.heads[v]
	}
	return -1
}

func (ix *index) insert1(r *relation, row int32) {
	v := r.data[row*int32(r.width)+ix.col]
	if int(v) >= len(ix.gens) {
		n := max(int(v)+1+len(ix.gens)/2, 64)
		heads := make([]int32, n)
		copy(heads, ix.heads)
		gens := make([]uint32, n)
		copy(gens, ix.gens)
		ix.heads, ix.gens = heads, gens
	}
	if ix.gens[v] == ix.gen {
		ix.next[row] = ix.heads[v]
	} else {
		ix.gens[v] = ix.gen
		ix.next[row] = -1
	}
	ix.heads[v] = row
}

func (ix *index) clear() {
	ix.used = 0
	ix.gen++
	if ix.gen == 0 {
		clear(ix.gens)
		ix.gen = 1
	}
}

func hashKey(key []int32) uint32 {
	h := uint32(0x811c9dc5)
	for _, v := range key {
		h = (h ^ uint32(v)) * 0x9e3779b1
		h ^= h >> 15
	}
	return h
}

func (ix *index) hashRow(r *relation, row int32) uint32 {
	h := uint32(0x811c9dc5)
	base := row * int32(r.width)
	for _, c := range ix.cols {
		h = (h ^ uint32(r.data[base+int32(c)])) * 0x9e3779b1
		h ^= h >> 15
	}
	return h
}

func (ix *index) rowEquals(r *relation, a, b int32) bool {
	w := int32(r.width)
	for _, c := range ix.cols {
		if r.data[a*w+int32(c)] != r.data[b*w+int32(c)] {
			return false
		}
	}
	return true
}

func (ix *index) rowMatches(r *relation, row int32, key []int32) bool {
	base := row * int32(r.width)
	for i, c := range ix.cols {
		if r.data[base+int32(c)] != key[i] {
			return false
		}
	}
	return true
}

// lookup returns the newest row whose key columns equal key, or -1.
func (ix *index) lookup(r *relation, key []int32) int32 {
	if ix.direct {
		return ix.lookup1(key[0])
	}
	if len(key) == 2 {
		return ix.lookup2(r, key[0], key[1])
	}
	h := hashKey(key)
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.gens[i] != ix.gen {
			return -1
		}
		if head := ix.heads[i]; ix.rowMatches(r, head, key) {
			return head
		}
	}
}

// lookup2 is lookup for a key of two columns.
func (ix *index) lookup2(r *relation, a, b int32) int32 {
	h := uint32(0x811c9dc5)
	h = (h ^ uint32(a)) * 0x9e3779b1
	h ^= h >> 15
	h = (h ^ uint32(b)) * 0x9e3779b1
	h ^= h >> 15
	w := int32(r.width)
	c0, c1 := int32(ix.cols[0]), int32(ix.cols[1])
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.gens[i] != ix.gen {
			return -1
		}
		head := ix.heads[i]
		if r.data[head*w+c0] == a && r.data[head*w+c1] == b {
			return head
		}
	}
}

// find returns the row equal to the whole tuple t (for the set index).
func (ix *index) find(r *relation, t []int32) int32 {
	if r.n == 0 {
		return -1
	}
	return ix.lookup(r, t)
}

func (ix *index) insert(r *relation, row int32) {
	if int(row) >= len(ix.next) {
		n := max(2*len(ix.next), 16, int(row)+1)
		nx := make([]int32, n)
		copy(nx, ix.next)
		ix.next = nx
	}
	if ix.direct {
		ix.insert1(r, row)
		return
	}
	if (ix.used+1)*2 > len(ix.heads) {
		ix.grow(r)
	}
	h := ix.hashRow(r, row)
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.gens[i] != ix.gen {
			ix.gens[i] = ix.gen
			ix.heads[i] = row
			ix.next[row] = -1
			ix.used++
			return
		}
		if head := ix.heads[i]; ix.rowEquals(r, head, row) {
			ix.next[row] = head
			ix.heads[i] = row
			return
		}
	}
}

// grow doubles the slots and moves each key's chain head; the chains
// themselves are untouched, so a chain being walked stays valid.
func (ix *index) grow(r *relation) {
	oldHeads, oldGens, oldGen := ix.heads, ix.gens, ix.gen
	n := uint32(len(ix.heads)) * 2
	ix.heads = make([]int32, n)
	ix.gens = make([]uint32, n)
	ix.mask = n - 1
	ix.gen = 1
	for j, g := range oldGens {
		if g != oldGen {
			continue
		}
		head := oldHeads[j]
		h := ix.hashRow(r, head)
		i := h & ix.mask
		for ix.gens[i] == ix.gen {
			i = (i + 1) & ix.mask
		}
		ix.gens[i] = ix.gen
		ix.heads[i] = head
	}
}
