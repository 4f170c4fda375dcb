package propnet

import (
	"math/bits"
	"strings"
	"unsafe"

	"github.com/gdlperf/gdlperf/engines"
)

// state is the propnet's native state: the first word of a bitset whose
// bit i is set when base i holds; the other words follow it in its slab
// (see newState). A state is a bare pointer into a block of words that the
// garbage collector need not scan, and states are immutable once returned.
type state uint64

// bits returns the words of s.
func (m *Machine) bits(s *state) []uint64 { return unsafe.Slice((*uint64)(s), m.words) }

// Machine is the propnet as an engines.Machine. Fast mode keeps one
// evaluated position in the network: a question about another state
// propagates the bases that differ (the XOR of the two bitsets), and a
// joint move the inputs that differ from the last one.
type Machine struct {
	p    *program
	mode Mode

	cnt   []uint32 // counter per node; its sign bit is the gate's output
	out   []uint8  // the output successors have seen (fast), or the value (full pass)
	val   []uint8  // scratch for cyclic components
	work2 []int32  // scratch for cyclic components

	stack     []int32 // pending nodes: stack[:sp]; len(stack) is its capacity
	sp        int
	dirty     []uint64 // cyclic components to recompute
	ndirty    int
	cur       *state
	curBits   []uint64
	diffWords []int32 // scratch of moveTo
	moves     []int32 // current input move per role, or -1

	// Bits kept by triggers: tbits[:words] is the next state, the rest one
	// bit per move pair, set when its legal proposition holds (without its
	// guard).
	tbits    []uint64
	nextBits []uint64
	// touched has a bit per word of tbits that a trigger toggled since
	// moveTo last cleared it. While nextClean holds, the next state
	// differs from curBits only in touched words (moveTo last moved the
	// bases to the next state), so moveTo(nextBits) reads only those: a
	// state of pancakes88 has 631 words, of which a step changes two.
	touched   []uint64
	nextClean bool
	legalBuf  []engines.Move // role r's legal moves are built in legalBuf[roleStart[r]:]
	joint     []engines.Move // Rollout's joint move

	slab    []uint64 // words for the next states
	words   int      // words per state (at least one)
	initial *state
	Build   BuildStats

	// The network at the initial state, restored by copying when that is
	// cheaper than propagating the difference (the start of every rollout).
	snap        *snapshot
	work        int64   // edges processed by run
	pops        int64   // nodes popped whose output changed (for layoutCost)
	edgesPerBit float64 // running mean of the edges one base change costs
	meanWork    int64   // edges and base changes since edgesPerBit was updated
	meanBits    int64

	// The goal-only gates' counters (made at the first goals), the values
	// of the nodes they read at the last goals, and a stack.
	gcnt   []uint32
	glast  []uint8
	gout   []uint8 // the output successors have seen
	gstack []int32
	// goalWork counts the goal-only edges followed (for goalCost).
	goalWork int64

	// The armed lists of the deferred sources (program.deferred): source
	// k's armed gates are armed[srcAt[k]:srcAt[k]+armedLen[k]], and gate j
	// is at armedPos[j] there while armed.
	armed    []int32
	armedLen []int32
	armedPos []int32

	// lanes is the layout of bit-parallel rollouts (lanes.go) when the
	// build chose them for timed runs.
	lanes *laneProgram
	// layoutEst is layoutCost's estimate of this layout when chooseLayout
	// made one (0: none), for chooseLanes.
	layoutEst float64

	regs    drainRegs
	goDrain bool // drain with drainFastGo, not drainFast (for tests)
}

type snapshot struct {
	noMoves  bool // taken before any move was played
	cnt      []uint32
	out      []uint8
	tbits    []uint64
	moves    []int32
	armed    []int32
	armedLen []int32
	armedPos []int32
	bytes    int
}

var _ engines.Machine = (*Machine)(nil)

func newMachine(p *program, mode Mode) *Machine {
	m := &Machine{
		p: p, mode: mode,
		cnt:      make([]uint32, p.n),
		out:      make([]uint8, p.n),
		val:      make([]uint8, p.n),
		dirty:    make([]uint64, (len(p.cycStart)+63)/64),
		curBits:  make([]uint64, p.words),
		tbits:    make([]uint64, p.words+(len(p.pairs)+63)/64),
		touched:  make([]uint64, (p.words+(len(p.pairs)+63)/64+63)/64),
		legalBuf: make([]engines.Move, len(p.pairs)),
		moves:    make([]int32, len(p.roles)),
		armed:    make([]int32, len(p.deferred)),
		armedLen: make([]int32, len(p.srcAt)-1),
		armedPos: make([]int32, len(p.deferred)),
	}
	for r := range m.moves {
		m.moves[r] = -1
	}
	m.nextBits = m.tbits[:p.words:p.words]
	m.words = max(1, p.words)
	m.initial = m.newState()
	copy(m.bits(m.initial), p.initBits)
	if mode == Fast {
		m.reset()
	}
	return m
}

// reset evaluates the network with every base and input false and sets
// the counters, legal lists and next bits from it.
func (m *Machine) reset() {
	p := m.p
	for i := range m.out {
		m.out[i] = 0
	}
	p.fullPass(m.out)
	for v := int32(0); v < int32(p.n); v++ {
		switch p.kind[v] {
		case kAnd, kOr:
			ins := p.ins[p.inStart[v]:p.inStart[v+1]]
			t := uint32(0)
			for _, l := range ins {
				t += uint32(m.out[l>>1] ^ uint8(l&1))
			}
			if p.kind[v] == kAnd {
				m.cnt[v] = 0x80000000 - uint32(len(ins)) + t
			} else {
				m.cnt[v] = 0x7FFFFFFF + t
			}
		default:
			m.cnt[v] = uint32(m.out[v]) << 31
		}
	}
	// A deferred gate counts its deferred input only while armed.
	for k := range m.armedLen {
		m.armedLen[k] = 0
	}
	for j, dg := range p.deferred {
		m.cnt[dg.gate] -= uint32(m.out[dg.in>>1] ^ uint8(dg.in&1))
		if m.out[dg.arm>>1]^uint8(dg.arm&1) == 1 {
			m.arm(int32(j))
		}
	}
	for i := range m.tbits {
		m.tbits[i] = 0
	}
	for i, l := range p.nextLit {
		if m.litVal(l) == 1 {
			m.tbits[i/64] |= 1 << (i % 64)
		}
	}
	for i, mp := range p.pairs {
		if m.litVal(mp.legal) == 1 {
			b := p.words*64 + i
			m.tbits[b/64] |= 1 << (b % 64)
		}
	}
	for i := range m.curBits {
		m.curBits[i] = 0
	}
	m.nextClean = false
	m.cur = nil
	for r := range m.moves {
		m.moves[r] = -1
	}
}

// value is node n's current value: in fast mode a main node's counter
// sign (leaves are never popped, so their seen value may be stale).
func (m *Machine) value(n int32) uint8 {
	if m.mode == Fast && m.p.main[n] {
		return uint8(m.cnt[n] >> 31)
	}
	return m.out[n]
}

func (m *Machine) litVal(l lit) uint8 { return m.value(l>>1) ^ uint8(l&1) }

// legalMoves returns role r's legal moves: for each group of its moves
// whose guard holds, the moves whose legal proposition holds, read from the
// propositions (scan mode, full pass) or from the legal bits the triggers
// keep.
func (m *Machine) legalMoves(r int) []engines.Move {
	p := m.p
	if p.scanLegal && m.mode == Fast {
		return m.readMoves(r)
	}
	a := p.roleStart[r]
	buf := m.legalBuf[a:p.roleStart[r+1]]
	n := 0
	fast := m.mode == Fast
	for _, g := range p.roleGroups[r] {
		if fast {
			if m.cnt[g.guard>>1]>>31^uint32(g.guard&1) == 0 {
				continue
			}
		} else if m.litVal(g.guard) == 0 {
			continue
		}
		switch {
		case !fast:
			for i := g.lo; i < g.hi; i++ {
				if m.litVal(p.legalLit[i]) == 1 {
					buf[n] = engines.Move(i)
					n++
				}
			}
		default:
			off := p.words * 64
			for i := int(g.lo); i < int(g.hi); {
				bit := off + i
				w := m.tbits[bit>>6] >> (bit & 63)
				if w == 0 {
					i += 64 - bit&63
					continue
				}
				i += bits.TrailingZeros64(w)
				if i >= int(g.hi) {
					break
				}
				buf[n] = engines.Move(i)
				n++
				i++
			}
		}
	}
	return buf[:n:n]
}

// readMoves is legalMoves in fast mode when the moves are read from their
// propositions: for each group of role r's moves whose guard holds, every
// move is written and the count grows by its value (no branch per move; n
// never passes the move written). It reads without bounds checks: the
// groups, literals and buffer offsets come from compile, in range, and n
// is at most the number of moves of the role written so far.
func (m *Machine) readMoves(r int) []engines.Move {
	p := m.p
	if p.roleStart[r] == p.roleStart[r+1] {
		return nil // no move (and no buffer past the end to point at)
	}
	cntp := unsafe.Pointer(unsafe.SliceData(m.cnt))
	litp := unsafe.Pointer(unsafe.SliceData(p.legalLit))
	bufp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(m.legalBuf)), uintptr(p.roleStart[r])*4)
	gp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.groups)), uintptr(p.groupAt[r])*unsafe.Sizeof(legalGroup{}))
	end := unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.groups)), uintptr(p.groupAt[r+1])*unsafe.Sizeof(legalGroup{}))
	n := 0
	for ; gp != end; gp = unsafe.Add(gp, unsafe.Sizeof(legalGroup{})) {
		g := (*legalGroup)(gp)
		if *(*uint32)(unsafe.Add(cntp, uintptr(g.guard>>1)*4))>>31^uint32(g.guard&1) == 0 {
			continue
		}
		for i := g.lo; i < g.hi; i++ {
			l := *(*lit)(unsafe.Add(litp, uintptr(i)*4))
			*(*engines.Move)(unsafe.Add(bufp, uintptr(n)*4)) = engines.Move(i)
			n += int(*(*uint32)(unsafe.Add(cntp, uintptr(l>>1)*4))>>31 ^ uint32(l&1))
		}
	}
	return unsafe.Slice((*engines.Move)(bufp), n)
}

// newState hands out a zeroed state from a slab, so that a state change
// does not allocate (one allocation per slab of a few thousand states).
func (m *Machine) newState() *state {
	if len(m.slab) < m.words {
		m.slab = make([]uint64, max(4096, 16*m.words))
	}
	s := (*state)(&m.slab[0])
	m.slab = m.slab[m.words:]
	return s
}

// ---- propagation (fast mode) ----

// reserve makes room on the stack for n more pending nodes.
func (m *Machine) reserve(n int) {
	if len(m.stack)-m.sp < n {
		ns := make([]int32, 2*len(m.stack)+n+64)
		copy(ns, m.stack[:m.sp])
		m.stack = ns
	}
}

// emit tells the successors of node c that its output went up or down.
// drainFast has the same loops.
func (m *Machine) emit(c int32, up bool) {
	p := m.p
	cnt := m.cnt
	d := uint32(0xFFFFFFFF) // -1
	if up {
		d = 1
	}
	at := p.succAt[4*c : 4*c+5]
	m.work += int64(at[4] - at[0])
	m.reserve(int(at[2] - at[0]))
	stack, sp := m.stack, m.sp
	for i, run := range [4][]int32{p.succ[at[0]:at[1]], p.succ[at[1]:at[2]], p.succ[at[2]:at[3]], p.succ[at[3]:at[4]]} {
		dd := d
		if i&1 == 1 {
			dd = -d
		}
		for _, t := range run {
			old := cnt[t]
			nv := old + dd
			cnt[t] = nv
			if i < 2 {
				stack[sp] = t
				sp += int((old ^ nv) >> 31)
			}
		}
	}
	m.sp = sp
	if p.flags[c]&^8 != 0 {
		m.fire(c, d)
	}
}

// sccEdges tells the cyclic components that read node c that it changed
// by d, and marks them for recomputation.
func (m *Machine) sccEdges(c int32, d uint32) {
	p := m.p
	for _, e := range p.sccSucc[p.sccStart[c]:p.sccStart[c+1]] {
		t := e >> 2
		n := -(uint32(e) & 1)
		m.cnt[t] += (d ^ n) - n
		k := p.cyc[t]
		if m.dirty[k>>6]&(1<<(k&63)) == 0 {
			m.dirty[k>>6] |= 1 << (k & 63)
			m.ndirty++
		}
	}
}

// run propagates until the network is consistent again: pending node
// changes first, then the lowest dirty cyclic component, and so on. A node
// popped from the stack whose output is what its successors already saw
// (it changed back) is skipped. The stack has room for every successor of
// the popped node before its loop starts, so a push is a store and an add
// of the flip bit, without a branch.
func (m *Machine) run() {
	for {
		m.drain()
		if m.ndirty == 0 {
			return
		}
		for w, x := range m.dirty {
			if x != 0 {
				k := int32(w*64 + bits.TrailingZeros64(x))
				m.dirty[w] &^= 1 << (k & 63)
				m.ndirty--
				m.recompute(k)
				break
			}
		}
	}
}

// drain pops pending nodes until the stack is empty. The nodes without
// successors in cyclic components and with at most one trigger (most
// nodes) are run by drainFast, which stops at any other node whose output
// changed, or at one whose successors might not fit on the stack; emit
// runs that node, and drainFast goes on. The nodes are popped, and
// the successors pushed, in the same order either way.
func (m *Machine) drain() {
	p := m.p
	r := &m.regs
	r.cnt = unsafe.Pointer(unsafe.SliceData(m.cnt))
	r.out = unsafe.Pointer(unsafe.SliceData(m.out))
	r.succ = unsafe.Pointer(unsafe.SliceData(p.succ))
	r.at = unsafe.Pointer(unsafe.SliceData(p.succAt))
	r.flags = unsafe.Pointer(unsafe.SliceData(p.flags))
	r.trig1 = unsafe.Pointer(unsafe.SliceData(p.trig1))
	r.tbits = unsafe.Pointer(unsafe.SliceData(m.tbits))
	r.touched = unsafe.Pointer(unsafe.SliceData(m.touched))
	r.work, r.pops = m.work, m.pops
	for {
		r.stack = unsafe.Pointer(unsafe.SliceData(m.stack))
		r.sp = m.sp
		r.lim = len(m.stack) - p.maxFan
		var c int32
		if m.goDrain {
			c = drainFastGo(r)
		} else {
			c = drainFast(r)
		}
		m.sp = r.sp
		if c == -1 {
			break
		}
		if c < -1 {
			// Its successors are done; its triggers and deferred edges
			// are left.
			c = -2 - c
			m.work = r.work
			m.fire(c, uint32(m.out[c])*2-1)
			r.work = m.work
			continue
		}
		m.work = r.work
		m.emit(c, m.out[c] == 1)
		m.reserve(p.maxFan) // so that drainFast stops at fewer nodes
		r.work = m.work
	}
	m.work, m.pops = r.work, r.pops
}

// drainRegs is what drainFast works on: the machine's and the program's
// arrays (their first elements), the stack pointer and the room it has
// (lim: sp may be at most lim before a pop pushes up to maxFan nodes),
// and the work counters. drain_amd64.s reads it by these offsets.
type drainRegs struct {
	cnt   unsafe.Pointer // 0
	out   unsafe.Pointer // 8
	succ  unsafe.Pointer // 16
	at    unsafe.Pointer // 24
	flags unsafe.Pointer // 32
	stack unsafe.Pointer // 40
	trig1 unsafe.Pointer // 48
	tbits unsafe.Pointer // 56
	sp    int            // 64
	lim   int            // 72
	work  int64          // 80
	pops  int64          // 88
	c     int64          // 96: scratch for drainFast
	// touched: Machine.touched, the words of tbits toggled.
	touched unsafe.Pointer // 104
}

// drainFastGo is drainFast in Go: it pops nodes until the stack is empty
// (it returns -1) or until a node whose output changed has successors in
// cyclic components (flag 1) or sp is past lim: it returns that node, its
// seen output already set and its pop counted, for emit. Otherwise the
// gates that read the node are counted by d (negated ones by -d) and
// pushed when their output flips (a store and an add of the flip bit,
// without a branch), its leaf successors counted, and its one trigger's
// bit toggled (and its word marked touched); a node with more triggers
// (flag 2) is returned as -2-c for fire to toggle them.
//
// It reads without bounds checks: every node id and successor offset comes
// from compile, which built them in range, and the stack has room for
// maxFan more nodes above lim.
func drainFastGo(r *drainRegs) int32 {
	cntp, outp, succp, atp, flagsp, stackp := r.cnt, r.out, r.succ, r.at, r.flags, r.stack
	sp := r.sp
	for sp > 0 {
		sp--
		c := *(*int32)(unsafe.Add(stackp, uintptr(sp)*4))
		v := uint8(*(*uint32)(unsafe.Add(cntp, uintptr(c)*4)) >> 31)
		op := (*uint8)(unsafe.Add(outp, uintptr(c)))
		if v == *op {
			continue
		}
		*op = v
		r.pops++
		f := *(*uint8)(unsafe.Add(flagsp, uintptr(c)))
		if f == flagTrigLeaf {
			b := *(*int32)(unsafe.Add(r.trig1, uintptr(c)*4))
			*(*uint64)(unsafe.Add(r.tbits, uintptr(b>>6)*8)) ^= 1 << (b & 63)
			*(*uint64)(unsafe.Add(r.touched, uintptr(b>>12)*8)) |= 1 << (b >> 6 & 63)
			continue
		}
		if f&1 != 0 || sp > r.lim {
			r.sp = sp
			return c
		}
		d := uint32(v)*2 - 1 // +1 or -1
		at := (*[5]int32)(unsafe.Add(atp, uintptr(c)*16))
		r.work += int64(at[4] - at[0])
		ep := unsafe.Add(succp, uintptr(at[0])*4)
		for end := unsafe.Add(succp, uintptr(at[1])*4); ep != end; ep = unsafe.Add(ep, 4) {
			t := *(*uint32)(ep)
			tp := (*uint32)(unsafe.Add(cntp, uintptr(t)*4))
			old := *tp
			nv := old + d
			*tp = nv
			*(*uint32)(unsafe.Add(stackp, uintptr(sp)*4)) = t
			sp += int((old ^ nv) >> 31)
		}
		if f&8 != 0 {
			// Gates that read c negated, then leaves (only counted).
			for end := unsafe.Add(succp, uintptr(at[2])*4); ep != end; ep = unsafe.Add(ep, 4) {
				t := *(*uint32)(ep)
				tp := (*uint32)(unsafe.Add(cntp, uintptr(t)*4))
				old := *tp
				nv := old - d
				*tp = nv
				*(*uint32)(unsafe.Add(stackp, uintptr(sp)*4)) = t
				sp += int((old ^ nv) >> 31)
			}
			for end := unsafe.Add(succp, uintptr(at[3])*4); ep != end; ep = unsafe.Add(ep, 4) {
				*(*uint32)(unsafe.Add(cntp, uintptr(*(*uint32)(ep))*4)) += d
			}
			for end := unsafe.Add(succp, uintptr(at[4])*4); ep != end; ep = unsafe.Add(ep, 4) {
				*(*uint32)(unsafe.Add(cntp, uintptr(*(*uint32)(ep))*4)) -= d
			}
		}
		if f&4 != 0 {
			b := *(*int32)(unsafe.Add(r.trig1, uintptr(c)*4))
			*(*uint64)(unsafe.Add(r.tbits, uintptr(b>>6)*8)) ^= 1 << (b & 63)
			*(*uint64)(unsafe.Add(r.touched, uintptr(b>>12)*8)) |= 1 << (b >> 6 & 63)
		}
		if f&2 != 0 {
			r.sp = sp
			return -2 - c
		}
	}
	r.sp = 0
	return -1
}

// fire runs node c's successors in cyclic components, its deferred
// edges and its triggers; d is +1 or -1, the change of c's output.
func (m *Machine) fire(c int32, d uint32) {
	p := m.p
	f := p.flags[c]
	if f&1 != 0 {
		m.sccEdges(c, d)
	}
	if f&32 != 0 {
		m.deferredEdges(c, d)
	}
	if f&64 != 0 {
		m.armEdges(c)
	}
	tbits, touched := m.tbits, m.touched
	for _, x := range p.trig[p.trigStart[c]:p.trigStart[c+1]] {
		b := x >> 1
		tbits[b>>6] ^= 1 << (b & 63)
		touched[b>>12] |= 1 << (b >> 6 & 63)
	}
}

// exitWork is the work, in edges, of the propagation loop handing a node
// to fire (a deferred source's or an arming node's change) for the layout
// estimate: a return from drainFast and a call.
const exitWork = 10

// deferredEdges tells the armed gates of deferred source c that it
// changed by d, and pushes those whose output flipped.
func (m *Machine) deferredEdges(c int32, d uint32) {
	p := m.p
	k := p.srcK[c]
	lo := p.srcAt[k]
	armed := m.armed[lo : lo+m.armedLen[k]]
	m.reserve(len(armed))
	m.work += exitWork + 2*int64(len(armed)) // an armed gate costs about two edges
	for _, j := range armed {
		dg := &p.deferred[j]
		g := dg.gate
		n := -(uint32(dg.in) & 1)
		old := m.cnt[g]
		nv := old + (d ^ n) - n
		m.cnt[g] = nv
		m.stack[m.sp] = g
		m.sp += int((old ^ nv) >> 31)
	}
}

// armEdges arms or disarms the deferred gates whose other input is node c,
// which just changed: an armed gate counts its deferred input's seen
// value, a disarmed one does not.
func (m *Machine) armEdges(c int32) {
	p := m.p
	js := p.armSucc[p.armStart[c]:p.armStart[c+1]]
	m.reserve(len(js))
	m.work += exitWork + 4*int64(len(js)) // arming costs about four edges
	for _, j := range js {
		g := p.deferred[j].gate
		old := m.cnt[g]
		if m.out[c]^uint8(p.deferred[j].arm&1) == 1 {
			m.arm(j)
		} else {
			m.disarm(j)
		}
		m.stack[m.sp] = g
		m.sp += int((old ^ m.cnt[g]) >> 31)
	}
}

// arm adds deferred gate j to its source's armed list and its deferred
// input's seen value to its counter; disarm undoes it.
func (m *Machine) arm(j int32) {
	p := m.p
	dg := &p.deferred[j]
	k := dg.src
	m.armedPos[j] = m.armedLen[k]
	m.armed[p.srcAt[k]+m.armedLen[k]] = j
	m.armedLen[k]++
	m.cnt[dg.gate] += uint32(m.out[dg.in>>1] ^ uint8(dg.in&1))
}

func (m *Machine) disarm(j int32) {
	p := m.p
	dg := &p.deferred[j]
	k := dg.src
	m.armedLen[k]--
	last := m.armed[p.srcAt[k]+m.armedLen[k]]
	m.armed[p.srcAt[k]+m.armedPos[j]] = last
	m.armedPos[last] = m.armedPos[j]
	m.cnt[dg.gate] -= uint32(m.out[dg.in>>1] ^ uint8(dg.in&1))
}

// recompute finds the least fixed point of cyclic component k for its
// current external inputs and tells the outside what changed: it takes out
// the contributions of the members to each other, sets every member from
// its counter starting from false, and adds the contributions back as
// members become true.
func (m *Machine) recompute(k int32) {
	p := m.p
	a, b := p.cycStart[k], p.cycStart[k]+p.cycLen[k]
	cnt, val := m.cnt, m.val
	for v := a; v < b; v++ {
		if m.out[v] == 1 {
			for _, t := range p.intSucc[p.intStart[v]:p.intStart[v+1]] {
				cnt[t]--
			}
		}
		val[v] = 0
	}
	work := m.work2[:0]
	for v := a; v < b; v++ {
		if cnt[v]>>31 == 1 {
			val[v] = 1
			work = append(work, v)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, t := range p.intSucc[p.intStart[v]:p.intStart[v+1]] {
			cnt[t]++
			if val[t] == 0 && cnt[t]>>31 == 1 {
				val[t] = 1
				work = append(work, t)
			}
		}
	}
	m.work2 = work[:0]
	for v := a; v < b; v++ {
		if val[v] != m.out[v] {
			m.out[v] = val[v]
			m.emit(v, val[v] == 1)
		}
	}
}

// flip negates input or base node's output and pushes it; the caller has
// made room on the stack (reserve). A node of -1 (read by no gate) is
// nothing to flip.
func (m *Machine) flip(node int32) {
	if node < 0 {
		return
	}
	m.cnt[node] ^= 1 << 31
	m.stack[m.sp] = node
	m.sp++
}

// setState makes s the network's position.
func (m *Machine) setState(s *state) {
	if s == m.cur {
		return
	}
	sb := m.bits(s)
	if m.mode == FullPass {
		m.cur = s
		return
	}
	changed := 0
	for w, x := range m.curBits {
		changed += bits.OnesCount64(x ^ sb[w])
	}
	if s == m.initial && m.snap != nil && !(m.snap.noMoves && m.anyMove()) && float64(changed)*m.edgesPerBit*30 > float64(m.snap.bytes) {
		m.restore()
		return
	}
	m.moveTo(sb)
	m.cur = s
	if s == m.initial && (m.snap == nil || m.snap.noMoves && m.anyMove()) {
		// Taken again once moves have been played, so that the inputs
		// of a restored network are those of a real move, not all off
		// (which makes the first move of every rollout a large change).
		m.takeSnapshot()
	}
}

// moveTo sets the bases to sb, propagates, and keeps the running mean of
// the work a base change costs. sb is read before anything propagates (it
// may be nextBits). The words that differ are found in one pass, or, when
// sb is the next state and nextClean holds, among the touched words only
// (a state of pancakes88 has 631 words, of which a step changes two or
// three).
func (m *Machine) moveTo(sb []uint64) {
	before := m.work
	changed := 0
	diff := m.diffWords[:0]
	cur := m.curBits
	sb = sb[:len(cur)]
	next := len(sb) > 0 && &sb[0] == &m.nextBits[0]
	w := 0
	if next && m.nextClean {
		w = len(cur) // no scan
		for i, t := range m.touched {
			for ; t != 0; t &= t - 1 {
				if w := i*64 + bits.TrailingZeros64(t); w < len(cur) {
					if d := cur[w] ^ sb[w]; d != 0 {
						diff = append(diff, int32(w))
						changed += bits.OnesCount64(d)
					}
				}
			}
		}
	}
	clear(m.touched)
	m.nextClean = next
	for ; w+4 <= len(cur); w += 4 {
		// Four words at a time: most are equal in a large state.
		if (cur[w]^sb[w])|(cur[w+1]^sb[w+1])|(cur[w+2]^sb[w+2])|(cur[w+3]^sb[w+3]) == 0 {
			continue
		}
		for i := w; i < w+4; i++ {
			if d := cur[i] ^ sb[i]; d != 0 {
				diff = append(diff, int32(i))
				changed += bits.OnesCount64(d)
			}
		}
	}
	for ; w < len(cur); w++ {
		if d := cur[w] ^ sb[w]; d != 0 {
			diff = append(diff, int32(w))
			changed += bits.OnesCount64(d)
		}
	}
	m.diffWords = diff
	m.reserve(changed)
	// Bases that go off are pushed first, those that come on popped first
	// (as for the moves in Next).
	base := m.p.baseNode
	for _, w := range diff {
		for d := m.curBits[w] &^ sb[w]; d != 0; d &= d - 1 {
			m.flip(base[int(w)*64+bits.TrailingZeros64(d)])
		}
	}
	for _, w := range diff {
		for d := sb[w] &^ m.curBits[w]; d != 0; d &= d - 1 {
			m.flip(base[int(w)*64+bits.TrailingZeros64(d)])
		}
		m.curBits[w] = sb[w]
	}
	m.run()
	// The mean is updated every 256 bits changed (a division per state
	// change was a few percent of a small game's time).
	m.meanWork += m.work - before
	m.meanBits += int64(changed)
	if m.meanBits >= 256 {
		m.edgesPerBit = (3*m.edgesPerBit + float64(m.meanWork)/float64(m.meanBits)) / 4
		m.meanWork, m.meanBits = 0, 0
	}
}

func (m *Machine) anyMove() bool {
	for _, mv := range m.moves {
		if mv >= 0 {
			return true
		}
	}
	return false
}

func (m *Machine) takeSnapshot() {
	sn := &snapshot{
		cnt:   append([]uint32(nil), m.cnt...),
		out:   append([]uint8(nil), m.out...),
		tbits: append([]uint64(nil), m.tbits...),
		moves: append([]int32(nil), m.moves...),

		armed:    append([]int32(nil), m.armed...),
		armedLen: append([]int32(nil), m.armedLen...),
		armedPos: append([]int32(nil), m.armedPos...),
	}
	sn.bytes = 5*len(sn.cnt) + 8*len(sn.tbits) + 4*(len(sn.armed)+len(sn.armedLen)+len(sn.armedPos))
	sn.noMoves = !m.anyMove()
	m.snap = sn
}

// restore puts the network back at the initial state from the snapshot.
func (m *Machine) restore() {
	sn := m.snap
	copy(m.cnt, sn.cnt)
	copy(m.out, sn.out)
	copy(m.tbits, sn.tbits)
	copy(m.moves, sn.moves)
	copy(m.armed, sn.armed)
	copy(m.armedLen, sn.armedLen)
	copy(m.armedPos, sn.armedPos)
	copy(m.curBits, m.bits(m.initial))
	m.nextClean = false
	m.cur = m.initial
}

// ---- full pass ----

// evaluate computes every node for s and joint (nil: all inputs false).
func (m *Machine) evaluate(s *state, joint []engines.Move) {
	p := m.p
	for i := range m.out {
		m.out[i] = 0
	}
	sb := m.bits(s)
	for i, node := range p.baseNode {
		if node >= 0 && sb[i/64]&(1<<(i%64)) != 0 {
			m.out[node] = 1
		}
	}
	for _, mv := range joint {
		if in := p.pairs[mv].input; in >= 0 {
			m.out[in] = 1
		}
	}
	p.fullPass(m.out)
}

// evalGoals brings the goal-only gates (fast mode) to the network's
// position. The first time, or without incGoals, it evaluates them all
// from the values of the nodes they read; then, with incGoals, it
// propagates the changes of those nodes since the last time, as run does
// for the main part (a game whose goals read large tables, an arithmetic of
// the moves, evaluated them all at every terminal state).
func (m *Machine) evalGoals() {
	p := m.p
	if len(p.goalOnly) == 0 {
		return
	}
	if p.incGoals && m.gcnt != nil {
		m.goalChanges()
		return
	}
	for _, v := range p.goalOnly {
		for _, l := range p.ins[p.inStart[v]:p.inStart[v+1]] {
			if u := l >> 1; p.main[u] {
				m.out[u] = uint8(m.cnt[u] >> 31)
			}
		}
	}
	p.evalNodes(m.out, p.goalOnly)
	if !p.incGoals {
		return
	}
	// Counters from the values just computed, as reset does.
	m.gcnt = make([]uint32, p.n)
	m.glast = make([]uint8, p.n)
	m.gout = make([]uint8, p.n)
	for _, v := range p.goalOnly {
		ins := p.ins[p.inStart[v]:p.inStart[v+1]]
		t := uint32(0)
		for _, l := range ins {
			t += uint32(m.value(l>>1) ^ uint8(l&1))
		}
		if p.kind[v] == kAnd {
			m.gcnt[v] = 0x80000000 - uint32(len(ins)) + t
		} else {
			m.gcnt[v] = 0x7FFFFFFF + t
		}
		m.gout[v] = m.out[v]
	}
	for _, u := range p.goalSrc {
		m.glast[u] = m.value(u)
	}
}

// goalLit is the value of goal literal l once evalGoals has run: a
// goal-only gate's from its goal counter (the main part's snapshot, which
// restore copies back, does not cover them), any other node's as litVal.
func (m *Machine) goalLit(l lit) uint8 {
	if n := l >> 1; m.gcnt != nil && n != 0 && !m.p.live[n] {
		return uint8(m.gcnt[n]>>31) ^ uint8(l&1)
	}
	return m.litVal(l)
}

// goalChanges propagates the changes of the goal-only gates' inputs since
// the last goals.
func (m *Machine) goalChanges() {
	p := m.p
	stack := m.gstack[:0]
	for _, u := range p.goalSrc {
		if v := m.value(u); v != m.glast[u] {
			m.glast[u] = v
			stack = m.goalEdges(stack, u, v)
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := uint8(m.gcnt[c] >> 31)
		if v == m.gout[c] {
			continue
		}
		m.gout[c] = v
		stack = m.goalEdges(stack, c, v)
	}
	m.gstack = stack
}

// goalEdges tells the goal-only successors of node c that its value is now
// v, and pushes those whose output flipped.
func (m *Machine) goalEdges(stack []int32, c int32, v uint8) []int32 {
	p := m.p
	d := uint32(v)*2 - 1 // +1 or -1
	m.goalWork += int64(p.goalStart[c+1] - p.goalStart[c])
	for _, e := range p.goalSucc[p.goalStart[c]:p.goalStart[c+1]] {
		t := e >> 1
		neg := -(uint32(e) & 1)
		old := m.gcnt[t]
		nv := old + (d ^ neg) - neg
		m.gcnt[t] = nv
		if (old^nv)>>31 != 0 {
			stack = append(stack, t)
		}
	}
	return stack
}

// ---- engines.Machine ----

// Roles implements engines.Machine.
func (m *Machine) Roles() []string { return m.p.roles }

// Initial implements engines.Machine.
func (m *Machine) Initial() (engines.State, error) { return m.initial, nil }

// Terminal implements engines.Machine.
func (m *Machine) Terminal(s engines.State) (bool, error) {
	st := s.(*state)
	if m.mode == FullPass {
		m.evaluate(st, nil)
	} else {
		m.setState(st)
	}
	return m.litVal(m.p.terminal) == 1, nil
}

// Legal implements engines.Machine. The slice is the machine's own and
// changes with the next call.
func (m *Machine) Legal(s engines.State, role int) ([]engines.Move, error) {
	st := s.(*state)
	if m.mode == FullPass {
		m.evaluate(st, nil)
	} else {
		m.setState(st)
	}
	moves := m.legalMoves(role)
	if len(moves) == 0 {
		return nil, engines.Errorf(engines.NoLegalMove, "role %s has no legal move in the state %s", m.p.roles[role], m.stateText(st))
	}
	return moves, nil
}

// Next implements engines.Machine.
func (m *Machine) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	st := s.(*state)
	p := m.p
	if len(joint) != len(p.roles) {
		return nil, engines.Errorf(engines.BadMove, "a joint move needs %d moves, not %d", len(p.roles), len(joint))
	}
	for r, mv := range joint {
		if mv < 0 || int(mv) >= len(p.pairs) || p.pairs[mv].role != r {
			return nil, engines.Errorf(engines.BadMove, "move %d is not a move of role %s in this game", mv, p.roles[r])
		}
	}
	// The network assumes legal moves (see impliedByMoves).
	if m.mode == FullPass {
		m.evaluate(st, nil)
	} else {
		m.setState(st)
	}
	for r, mv := range joint {
		g, l := p.guardLit[mv], p.legalLit[mv]
		var ok uint32
		if m.mode == Fast {
			ok = (m.cnt[g>>1]>>31 ^ uint32(g&1)) & (m.cnt[l>>1]>>31 ^ uint32(l&1))
		} else {
			ok = uint32(m.litVal(g) & m.litVal(l))
		}
		if ok == 0 {
			return nil, engines.Errorf(engines.BadMove, "%s is not a legal move of role %s in the state %s", p.pairs[mv].text, p.roles[r], m.stateText(st))
		}
	}
	ns := m.newState()
	if m.mode == FullPass {
		m.evaluate(st, joint)
		for i, l := range p.nextLit {
			if m.litVal(l) == 1 {
				m.bits(ns)[i/64] |= 1 << (i % 64)
			}
		}
		return ns, nil
	}
	m.setState(st)
	m.play(joint)
	copy(m.bits(ns), m.nextBits)
	return ns, nil
}

// play sets the inputs to the joint move and propagates; the next state is
// then in nextBits.
func (m *Machine) play(joint []engines.Move) {
	p := m.p
	// The inputs that go off are pushed first, so that the ones that come
	// on are popped first: an OR over the moves (a frame rule's "some
	// move was made") then never sees all of them off on the way.
	m.reserve(2 * len(joint))
	for r, mv := range joint {
		if old := m.moves[r]; old != int32(mv) && old >= 0 {
			m.flip(p.pairs[old].input)
		}
	}
	for r, mv := range joint {
		if old := m.moves[r]; old != int32(mv) {
			m.flip(p.pairs[mv].input)
			m.moves[r] = int32(mv)
		}
	}
	m.run()
}

// Goals implements engines.Machine.
func (m *Machine) Goals(s engines.State) ([]int, error) {
	st := s.(*state)
	p := m.p
	if m.mode == FullPass {
		m.evaluate(st, nil)
	} else {
		m.setState(st)
		m.evalGoals()
	}
	goals := make([]int, len(p.roles))
	if err := m.goalsInto(goals, func() string { return m.stateText(st) }); err != nil {
		return nil, err
	}
	return goals, nil
}

// goalsInto reads every role's goal value from the network into goals;
// text describes the state for errors.
func (m *Machine) goalsInto(goals []int, text func() string) error {
	p := m.p
	for r, gs := range p.goals {
		n, at := 0, -1
		for i := range gs {
			if m.goalLit(gs[i].lit) == 1 {
				n++
				at = i
			}
		}
		if n != 1 {
			var vals []string
			for _, g := range gs {
				if m.goalLit(g.lit) == 1 {
					vals = append(vals, g.text)
				}
			}
			return engines.Errorf(engines.GoalCount, "role %s has %d goal values [%s] in the state %s; it needs exactly one", p.roles[r], n, strings.Join(vals, " "), text())
		}
		if !gs[at].ok {
			return engines.Errorf(engines.GoalValue, "role %s has the goal value %s, which is not an integer", p.roles[r], gs[at].text)
		}
		goals[r] = gs[at].value
	}
	return nil
}

// StateFacts implements engines.Machine. Bases are numbered in the order of
// their text, so the facts come out sorted.
func (m *Machine) StateFacts(s engines.State) []string {
	st := s.(*state)
	var out []string
	for w, x := range m.bits(st) {
		for x != 0 {
			i := w*64 + bits.TrailingZeros64(x)
			x &= x - 1
			out = append(out, m.p.baseText[i])
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func (m *Machine) stateText(st *state) string { return m.bitsText(m.bits(st)) }

// bitsText prints the state whose bitset is b, shortened.
func (m *Machine) bitsText(b []uint64) string {
	var facts []string
	for w, x := range b {
		for x != 0 {
			i := w*64 + bits.TrailingZeros64(x)
			x &= x - 1
			facts = append(facts, m.p.baseText[i])
		}
	}
	if len(facts) > 12 {
		facts = append(facts[:12:12], "...")
	}
	return "{" + strings.Join(facts, " ") + "}"
}

// MoveText implements engines.Machine.
func (m *Machine) MoveText(mv engines.Move) string {
	if mv < 0 || int(mv) >= len(m.p.pairs) {
		return "<bad move>"
	}
	return m.p.pairs[mv].text
}
