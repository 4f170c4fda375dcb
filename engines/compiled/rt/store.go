// Package rt is the fixed, game-independent part of a compiled GDL program:
// interned terms, tuple sets with hash indexes, the evaluation of units, the
// per-step rollout loop (playout), the command line and the -serve line
// protocol. The engine process protocol (result file, traces, the driver of
// the rollouts and its clock) is package protocol's. The generator copies
// both packages beside the code it writes for one game.
package rt

import "github.com/gdlperf/gdlperf/engines/protocol"

// Store interns ground terms to int32 ids. Constants are 0..NumConsts-1
// (their functor is 0); a function term has a functor > 0 and its
// arguments' ids. Function terms are hash-consed by functor and arguments.
type Store struct {
	Fk   []int32 // functor of each term; 0 for a constant
	Off  []int32 // start of each term's arguments in Args
	Args []int32

	Names   []string // text of each constant
	FnName  []int32  // per functor: the constant id of its name
	FnArity []int32  // per functor: its arity

	table []int32  // open addressing: term id + 1; 0 is empty
	tkeys []uint64 // per slot: the packed key of its term, or 0
	mask  uint32
	used  int
	// MaxTerms bounds the ids; interning beyond it is a resource-limit
	// game error.
	MaxTerms int
}

// NewStore returns an empty store.
func NewStore() *Store {
	s := &Store{MaxTerms: 8_000_000}
	s.table = make([]int32, 1024)
	s.tkeys = make([]uint64, 1024)
	s.mask = 1023
	return s
}

// Size is the number of terms.
func (s *Store) Size() int { return len(s.Fk) }

// AddConst appends a constant and returns its id.
func (s *Store) AddConst(name string) int32 {
	id := int32(len(s.Fk))
	s.Fk = append(s.Fk, 0)
	s.Off = append(s.Off, int32(len(s.Args)))
	s.Names = append(s.Names, name)
	return id
}

// AddFunctor declares functor number len(FnName) (the first is 0, for
// constants) with its name and arity.
func (s *Store) AddFunctor(name, arity int32) {
	s.FnName = append(s.FnName, name)
	s.FnArity = append(s.FnArity, arity)
}

func mix(h uint32, v int32) uint32 {
	h ^= uint32(v)
	h *= 0x9E3779B1
	return h ^ h>>15
}

// fin is murmur3's finaliser: every bit of h reaches the low bits that
// pick a slot.
func fin(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85EBCA6B
	h ^= h >> 13
	h *= 0xC2B2AE35
	return h ^ h>>16
}

// pack packs a functor and its arguments into a key that is never 0, or
// says it cannot (ok false): with at most three arguments, the functor
// under 1<<15 and each argument under 1<<16 (bit 63 clear); with four,
// the functor under 1<<11 and each argument under 1<<13 (bit 63 set, so
// that the two layouts never meet); with five, the functor under 1<<7 and
// each argument under 1<<9 (bit 63 set and bits 52-62, where four
// arguments have their functor, never 0, clear); with six, the functor
// under 1<<6 and each argument under 1<<7 (bits 48-63, where up to three
// arguments have their functor, clear); with seven or eight, the functor
// and each argument under 1<<5 (bit 63 set, bits 45-62 clear; eight
// arguments' functor at bits 40-44, seven's at 35-39 with 40-44 clear).
func pack(fk int32, args []int32) (key uint64, ok bool) {
	switch len(args) {
	case 7, 8:
		return packArgs(1<<63, fk, 5, uint(5*len(args)), args, 5)
	case 6:
		return packArgs(0, fk, 6, 42, args, 7)
	case 5:
		if uint32(fk) >= 1<<7 {
			return 0, false
		}
		if uint32(args[0])|uint32(args[1])|uint32(args[2])|uint32(args[3])|uint32(args[4]) >= 1<<9 {
			return 0, false
		}
		return key5(fk, args[0], args[1], args[2], args[3], args[4]), true
	case 4:
		if uint32(fk) >= 1<<11 {
			return 0, false
		}
		a, b, c, d := uint32(args[0]), uint32(args[1]), uint32(args[2]), uint32(args[3])
		if a|b|c|d >= 1<<13 {
			return 0, false
		}
		return key4(fk, args[0], args[1], args[2], args[3]), true
	case 0, 1, 2, 3:
	default:
		return 0, false
	}
	if uint32(fk) >= 1<<15 {
		return 0, false
	}
	key = uint64(fk) << 48
	for i, a := range args {
		if uint32(a) >= 1<<16 {
			return 0, false
		}
		key |= uint64(a) << (32 - 16*i)
	}
	return key, true
}

// packArgs is pack's key of base, the functor (under 1<<fkBits) at bit
// fkAt and argument i (each under 1<<bits) at bit bits*i, or false.
func packArgs(base uint64, fk int32, fkBits, fkAt uint, args []int32, bits uint) (uint64, bool) {
	if uint32(fk) >= 1<<fkBits {
		return 0, false
	}
	k := base | uint64(fk)<<fkAt
	for i, a := range args {
		if uint32(a) >= 1<<bits {
			return 0, false
		}
		k |= uint64(a) << (bits * uint(i))
	}
	return k, true
}

// key4 is pack's key of four arguments, in range.
func key4(fk, a, b, c, d int32) uint64 {
	return 1<<63 | uint64(fk)<<52 | uint64(a)<<39 | uint64(b)<<26 | uint64(c)<<13 | uint64(d)
}

// key5 is pack's key of five arguments, in range.
func key5(fk, a, b, c, d, e int32) uint64 {
	return 1<<63 | uint64(fk)<<45 | uint64(a)<<36 | uint64(b)<<27 | uint64(c)<<18 | uint64(d)<<9 | uint64(e)
}

func hashKey(key uint64) uint32 {
	key *= 0x9E3779B97F4A7C15
	return uint32(key >> 32)
}

func (s *Store) hash(fk int32, args []int32) uint32 {
	h := mix(0x811C9DC5, fk)
	for _, a := range args {
		h = mix(h, a)
	}
	return fin(h)
}

func (s *Store) same(id, fk int32, args []int32) bool {
	if s.Fk[id] != fk {
		return false
	}
	o := s.Off[id]
	for i, a := range args {
		if s.Args[o+int32(i)] != a {
			return false
		}
	}
	return true
}

// find returns the slot of (fk args...) and whether it holds the term.
func (s *Store) find(fk int32, args []int32) (uint32, bool) {
	if key, ok := pack(fk, args); ok {
		return s.findKey(key)
	}
	Work++
	for i := s.hash(fk, args) & s.mask; ; i = (i + 1) & s.mask {
		e := s.table[i]
		if e == 0 {
			return i, false
		}
		if s.tkeys[i] == 0 && s.same(e-1, fk, args) {
			return i, true
		}
	}
}

func (s *Store) findKey(key uint64) (uint32, bool) {
	Work++
	for i := hashKey(key) & s.mask; ; i = (i + 1) & s.mask {
		if s.tkeys[i] == key {
			return i, true
		}
		if s.table[i] == 0 {
			return i, false
		}
	}
}

// LookupN returns the id of (fk args...), or -1 when it was never interned.
func (s *Store) LookupN(fk int32, args []int32) int32 {
	i, ok := s.find(fk, args)
	if !ok {
		return -1
	}
	return s.table[i] - 1
}

// InternN returns the id of (fk args...), interning it when new.
func (s *Store) InternN(fk int32, args []int32) int32 {
	i, ok := s.find(fk, args)
	if ok {
		return s.table[i] - 1
	}
	return s.add(i, fk, args)
}

func (s *Store) add(i uint32, fk int32, args []int32) int32 {
	for _, a := range args {
		if a < 0 {
			panic("rt: interning a term with a missing argument")
		}
	}
	id := int32(len(s.Fk))
	if int(id) >= s.MaxTerms {
		Fail(protocol.ResourceLimit, "the game made more than %d ground terms", s.MaxTerms)
	}
	tick()
	s.Fk = append(s.Fk, fk)
	s.Off = append(s.Off, int32(len(s.Args)))
	s.Args = append(s.Args, args...)
	s.table[i] = id + 1
	s.tkeys[i], _ = pack(fk, args)
	s.used++
	if s.used*2 > len(s.table) {
		s.grow()
	}
	return id
}

func (s *Store) grow() {
	old := s.table
	s.table = make([]int32, 2*len(old))
	s.tkeys = make([]uint64, 2*len(old))
	s.mask = uint32(len(s.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		id := e - 1
		fk := s.Fk[id]
		o := s.Off[id]
		args := s.Args[o : o+s.FnArity[fk]]
		key, ok := pack(fk, args)
		var i uint32
		if ok {
			i = hashKey(key) & s.mask
		} else {
			i = s.hash(fk, args) & s.mask
		}
		for s.table[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.table[i] = e
		s.tkeys[i] = key
	}
}

// Intern1 is InternN for one argument.
func (s *Store) Intern1(fk, a int32) int32 {
	t := [1]int32{a}
	return s.InternN(fk, t[:])
}

// Intern2 is InternN for two arguments.
func (s *Store) Intern2(fk, a, b int32) int32 {
	if uint32(fk) < 1<<15 && uint32(a)|uint32(b) < 1<<16 {
		if i, ok := s.findKey(uint64(fk)<<48 | uint64(a)<<32 | uint64(b)<<16); ok {
			return s.table[i] - 1
		}
	}
	t := [2]int32{a, b}
	return s.InternN(fk, t[:])
}

// Intern3 is InternN for three arguments.
func (s *Store) Intern3(fk, a, b, c int32) int32 {
	if uint32(fk) < 1<<15 && uint32(a)|uint32(b)|uint32(c) < 1<<16 {
		if i, ok := s.findKey(uint64(fk)<<48 | uint64(a)<<32 | uint64(b)<<16 | uint64(c)); ok {
			return s.table[i] - 1
		}
	}
	t := [3]int32{a, b, c}
	return s.InternN(fk, t[:])
}

// Intern4 is InternN for four arguments.
func (s *Store) Intern4(fk, a, b, c, d int32) int32 {
	if uint32(fk) < 1<<11 && uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<13 {
		if i, ok := s.findKey(key4(fk, a, b, c, d)); ok {
			return s.table[i] - 1
		}
	}
	t := [4]int32{a, b, c, d}
	return s.InternN(fk, t[:])
}

// Intern5 is InternN for five arguments.
func (s *Store) Intern5(fk, a, b, c, d, e int32) int32 {
	if uint32(fk) < 1<<7 && uint32(a)|uint32(b)|uint32(c)|uint32(d)|uint32(e) < 1<<9 {
		if i, ok := s.findKey(key5(fk, a, b, c, d, e)); ok {
			return s.table[i] - 1
		}
	}
	t := [5]int32{a, b, c, d, e}
	return s.InternN(fk, t[:])
}

// Lookup1 is LookupN for one argument.
func (s *Store) Lookup1(fk, a int32) int32 {
	if uint32(fk) < 1<<15 && uint32(a) < 1<<16 {
		if i, ok := s.findKey(uint64(fk)<<48 | uint64(a)<<32); ok {
			return s.table[i] - 1
		}
		return -1
	}
	t := [1]int32{a}
	return s.LookupN(fk, t[:])
}

// Lookup2 is LookupN for two arguments.
func (s *Store) Lookup2(fk, a, b int32) int32 {
	if uint32(fk) < 1<<15 && uint32(a)|uint32(b) < 1<<16 {
		if i, ok := s.findKey(uint64(fk)<<48 | uint64(a)<<32 | uint64(b)<<16); ok {
			return s.table[i] - 1
		}
		return -1
	}
	t := [2]int32{a, b}
	return s.LookupN(fk, t[:])
}

// Lookup3 is LookupN for three arguments.
func (s *Store) Lookup3(fk, a, b, c int32) int32 {
	if uint32(fk) < 1<<15 && uint32(a)|uint32(b)|uint32(c) < 1<<16 {
		if i, ok := s.findKey(uint64(fk)<<48 | uint64(a)<<32 | uint64(b)<<16 | uint64(c)); ok {
			return s.table[i] - 1
		}
		return -1
	}
	t := [3]int32{a, b, c}
	return s.LookupN(fk, t[:])
}

// Lookup4 is LookupN for four arguments.
func (s *Store) Lookup4(fk, a, b, c, d int32) int32 {
	if uint32(fk) < 1<<11 && uint32(a)|uint32(b)|uint32(c)|uint32(d) < 1<<13 {
		if i, ok := s.findKey(key4(fk, a, b, c, d)); ok {
			return s.table[i] - 1
		}
		return -1
	}
	t := [4]int32{a, b, c, d}
	return s.LookupN(fk, t[:])
}

// Lookup5 is LookupN for five arguments.
func (s *Store) Lookup5(fk, a, b, c, d, e int32) int32 {
	if uint32(fk) < 1<<7 && uint32(a)|uint32(b)|uint32(c)|uint32(d)|uint32(e) < 1<<9 {
		if i, ok := s.findKey(key5(fk, a, b, c, d, e)); ok {
			return s.table[i] - 1
		}
		return -1
	}
	t := [5]int32{a, b, c, d, e}
	return s.LookupN(fk, t[:])
}

// ArgsOf returns the arguments of term id.
func (s *Store) ArgsOf(id int32) []int32 {
	fk := s.Fk[id]
	if fk == 0 {
		return nil
	}
	o := s.Off[id]
	return s.Args[o : o+s.FnArity[fk]]
}

// Text prints a term canonically.
func (s *Store) Text(id int32) string {
	if id < 0 || int(id) >= len(s.Fk) {
		return "<bad term>"
	}
	b := make([]byte, 0, 32)
	return string(s.appendText(b, id))
}

func (s *Store) appendText(b []byte, id int32) []byte {
	fk := s.Fk[id]
	if fk == 0 {
		return append(b, s.Names[id]...)
	}
	b = append(b, '(')
	b = append(b, s.Names[s.FnName[fk]]...)
	for _, a := range s.ArgsOf(id) {
		b = append(b, ' ')
		b = s.appendText(b, a)
	}
	return append(b, ')')
}

// Memo keeps the ids of the terms that one place of the rules builds from
// the arguments of one source term (a true fact's, or a move's), by the
// source term's id: the terms a rule builds from a fact recur state after
// state (ticTacToe's rows look up (cell ?m 2 ?x) from each fact (cell ?m 1
// ?x)), and an array read replaces the store's hash lookup. It keeps only
// terms that exist (a term looked up and not found may be interned later),
// and only for source ids under memoCap.
type Memo struct {
	ids []int32 // per source id: the term's id + 1, or 0 when not kept
}

// memoCap bounds the source ids a Memo keeps: 4 bytes each, 256 KiB at
// most per place in the rules.
const memoCap = 1 << 16

// Get returns the id kept for source s, or -1 when none is. A hit counts
// as the lookup it replaces (Work), so that the warm-up's measure of a
// design is the same with or without the memo.
func (m *Memo) Get(s int32) int32 {
	if uint32(s) < uint32(len(m.ids)) {
		if id := m.ids[s]; id != 0 {
			Work++
			return id - 1
		}
	}
	return -1
}

// Put keeps id for source s, when it is a term's id (not -1) and s is
// under memoCap, and returns id.
func (m *Memo) Put(s, id int32) int32 {
	if id < 0 || uint32(s) >= memoCap {
		return id
	}
	if int(s) >= len(m.ids) {
		n := min(max(2*len(m.ids), int(s)+1, 64), memoCap)
		m.ids = append(m.ids, make([]int32, n-len(m.ids))...)
	}
	m.ids[s] = id + 1
	return id
}

// memoWays is the number of second keys a Memo2 keeps per source.
const memoWays = 4

// Memo2 is a Memo by two keys: a source (a term's id, or a static
// relation's row) and a second key (another source, or the value of the
// term's other variable), memoWays second keys per source, the first met
// kept.
type Memo2 struct {
	slots []int32 // per source, memoWays pairs: second key + 1, id + 1; 0 empty
}

// memo2Cap bounds the sources a Memo2 keeps: 32 bytes each, 1 MiB at most
// per place in the rules.
const memo2Cap = 1 << 15

// Get returns the id kept for source s and second key k, or -1 when none
// is. A hit counts as the lookup it replaces (Work).
func (m *Memo2) Get(s, k int32) int32 {
	i := uint(uint32(s)) * (2 * memoWays)
	if i+2*memoWays <= uint(len(m.slots)) {
		sl := m.slots[i : i+2*memoWays : i+2*memoWays]
		k++
		for j := 0; j < 2*memoWays; j += 2 {
			if sl[j] == k {
				Work++
				return sl[j+1] - 1
			}
		}
	}
	return -1
}

// Put keeps id for source s and second key k, when it is a term's id, s is
// under memo2Cap, k is not -1 and a way of s is free, and returns id.
func (m *Memo2) Put(s, k, id int32) int32 {
	if id < 0 || uint32(s) >= memo2Cap || k < 0 {
		return id
	}
	i := int(s) * 2 * memoWays
	if i >= len(m.slots) {
		n := min(max(2*len(m.slots), i+2*memoWays, 64*2*memoWays), memo2Cap*2*memoWays)
		m.slots = append(m.slots, make([]int32, n-len(m.slots))...)
	}
	sl := m.slots[i : i+2*memoWays]
	for j := 0; j < 2*memoWays; j += 2 {
		if sl[j] == 0 {
			sl[j], sl[j+1] = k+1, id+1
			break
		}
	}
	return id
}
