package prover

import "slices"

// The prover's hash tables. Go's maps take a random hash seed in every
// process (and every map), so the number of probes a lookup takes, and the
// instructions of a rollout, differ from process to process (about 0.2 %
// measured with Cachegrind, up to 0.6 % between two processes). These
// tables hash with fixed functions and probe linearly, so the same
// insertions in the same order take the same probes in every process: the
// prover's work is a function of the game, the seed and the rollouts only
// (gdlperf run --measure instructions relies on it). Their keys are small
// integers and short byte strings, which a multiply-and-shift hash spreads
// well enough.

const (
	hashMul  = 0x9e3779b97f4a7c15 // 2^64 / golden ratio (Fibonacci hashing)
	hashMul2 = 0xbf58476d1ce4e5b9 // splitmix64's
)

// mix finishes a hash: the high bits of a multiply depend on every bit.
func mix(h uint64) uint32 {
	h ^= h >> 31
	h *= hashMul2
	return uint32(h >> 32)
}

// termHash is the hash of the term fn(args...).
func termHash(fn int32, args []int32) uint32 {
	h := uint64(uint32(fn))*hashMul + uint64(len(args))
	for _, a := range args {
		h = (h ^ uint64(uint32(a))) * hashMul
	}
	return mix(h)
}

// bytesHash is the hash of a table key (FNV-1a, then mixed).
func bytesHash(b []byte) uint32 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return mix(h)
}

// idSet is a set of term ids: open addressing with linear probing, id+1 in
// a slot (0 is empty), at most half full.
type idSet struct {
	slots []int32
	n     int
}

// add adds id and reports whether it was new.
func (s *idSet) add(id int32) bool {
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint32(len(s.slots) - 1)
	for i := mix(uint64(uint32(id))*hashMul) & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = id + 1
			s.n++
			return true
		case id + 1:
			return false
		}
	}
}

// reset empties the set, keeping its memory.
func (s *idSet) reset() {
	clear(s.slots)
	s.n = 0
}

func (s *idSet) grow() {
	old := s.slots
	s.slots = make([]int32, max(32, 2*len(old)))
	s.n = 0
	for _, v := range old {
		if v != 0 {
			s.add(v - 1)
		}
	}
}

// tslot is a slot of a tableMap: the table, its key's hash and place in the
// map's key arena, and the generation it was stored in (a slot of an older
// generation is empty).
type tslot struct {
	t        *table
	hash     uint32
	gen      uint32
	off, len int32
}

// tableMap maps canonical query keys to their tables: open addressing with
// linear probing, at most half full. clear starts a new generation, and the
// slots of older ones count as empty. The map also holds the memory of its
// tables: it makes them (put) and their queries' arguments (pats), and
// clear recycles both for the next generation, so that a rollout
// allocates little.
type tableMap struct {
	slots []tslot
	keys  []byte // the keys of this generation's slots, end to end
	gen   uint32
	n     int

	live []*table // this generation's tables, in the order made
	free []*table // recycled tables

	chunks [][]pat // the memory of pats; chunks[chunk][:used] is taken
	chunk  int
	used   int
}

func newTableMap() *tableMap { return &tableMap{slots: make([]tslot, 64), gen: 1} }

func (m *tableMap) key(s *tslot) []byte { return m.keys[s.off : s.off+s.len] }

// get returns the table of key, or nil.
func (m *tableMap) get(key []byte) *table {
	h := bytesHash(key)
	mask := uint32(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.gen != m.gen {
			return nil
		}
		if s.hash == h && string(m.key(s)) == string(key) {
			return s.t
		}
	}
}

// put returns a new empty table stored under key, which is not in the map.
func (m *tableMap) put(key []byte) *table {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	var t *table
	if n := len(m.free); n > 0 {
		t = m.free[n-1]
		m.free = m.free[:n-1]
	} else {
		t = &table{}
	}
	m.live = append(m.live, t)
	off := len(m.keys)
	m.keys = append(m.keys, key...)
	m.insert(tslot{t: t, hash: bytesHash(key), gen: m.gen, off: int32(off), len: int32(len(key))})
	return t
}

// pats returns n pats for a query of this generation.
func (m *tableMap) pats(n int) []pat {
	for {
		if m.chunk == len(m.chunks) {
			m.chunks = append(m.chunks, make([]pat, max(256, n)))
		}
		c := m.chunks[m.chunk]
		if m.used+n <= len(c) {
			m.used += n
			return c[m.used-n : m.used : m.used]
		}
		m.chunk++
		m.used = 0
	}
}

func (m *tableMap) insert(s tslot) {
	mask := uint32(len(m.slots) - 1)
	i := s.hash & mask
	for m.slots[i].gen == m.gen {
		i = (i + 1) & mask
	}
	m.slots[i] = s
	m.n++
}

func (m *tableMap) grow() {
	old := m.slots
	m.slots = make([]tslot, 2*len(old))
	m.n = 0
	for _, s := range old {
		if s.gen == m.gen {
			m.insert(s)
		}
	}
}

// clear empties the map and recycles its tables and their queries.
func (m *tableMap) clear() {
	for _, t := range m.live {
		t.recycle()
	}
	m.free = append(m.free, m.live...)
	m.live = m.live[:0]
	m.chunk, m.used = 0, 0
	m.newGen()
}

func (m *tableMap) newGen() {
	m.gen++
	if m.gen == 0 { // after 2^32 clears: older slots could look current
		clear(m.slots)
		m.gen = 1
	}
	m.n = 0
	m.keys = m.keys[:0]
}

// keep keeps the tables for which ok is true and drops the others (not
// recycled: after an abort, anything may still point at them). Their
// queries' memory is kept as it is.
func (m *tableMap) keep(ok func(*table) bool) {
	var slots []tslot
	var keys []byte
	for _, s := range m.slots {
		if s.gen == m.gen && ok(s.t) {
			k := m.key(&s)
			s.off = int32(len(keys))
			keys = append(keys, k...)
			slots = append(slots, s)
		}
	}
	m.live = slices.DeleteFunc(m.live, func(t *table) bool { return !ok(t) })
	m.newGen()
	m.keys = append(m.keys, keys...)
	for _, s := range slots {
		s.gen = m.gen
		m.insert(s)
	}
}
