package propnet

import "sort"

// The program: the optimised network laid out for evaluation.
//
// Nodes are renumbered in dependency order (Tarjan's components, inputs
// first), so a full pass is one sweep over the node ids, and the members of
// a cyclic component are contiguous. Every gate has its inputs (for full
// passes) and every node that can change its successors (for propagation),
// in flat arrays.
//
// The main part of the network is what legal, next and terminal depend on;
// it is kept up to date by propagation. The rest (what only the goals read)
// is evaluated by a full pass over its nodes when the goals are asked.
//
// A node's successors are kept in three lists: plain gates (target<<1 |
// negated), gates inside a cyclic component, whose component is then
// recomputed as a whole, and triggers: a bit of the next state or of the
// legal moves to toggle (a trigger fires exactly when its proposition
// changes, so a toggle is right whatever the direction). Most nodes have only the first list, which the propagation loop
// runs without a branch per edge.

// deferredGate is a two-input AND gate that reads input in by a deferred
// edge from source src (program.srcK), armed while arm holds. Its fields
// are together: arming reads them all.
type deferredGate struct {
	gate    int32
	src     int32
	in, arm lit
}

// legalGroup is a range of a role's moves with the same guard.
type legalGroup struct {
	guard  lit
	lo, hi int32
}

// scanLimit is the most moves with one guard that are read one by one
// when asked rather than kept by triggers.
const scanLimit = 512

// flagTrigLeaf is the flags of a node whose only reader is one trigger.
const flagTrigLeaf = 16

type program struct {
	n       int
	kind    []uint8
	inStart []int32 // inputs of node v: ins[inStart[v]:inStart[v+1]]
	ins     []lit

	cyc      []int32 // cyclic component of a node, or -1
	cycStart []int32 // nodes of cyclic component k: cycStart[k] .. cycStart[k]+cycLen[k]
	cycLen   []int32
	main     []bool
	live     []bool  // main, or a base or input: its value is in the fast mode's node word
	goalOnly []int32 // goal-only nodes, in dependency order
	// The goal-only gates are kept up to date differentially when the goals
	// are asked (incGoals: there is no cyclic component among them): the
	// nodes they read from the rest (goalSrc) are compared with their values
	// at the last question, and the changes propagated along goalSucc
	// (target<<1 | negated) from goalStart.
	incGoals  bool
	goalSrc   []int32
	goalStart []int32
	goalSucc  []int32

	// The successors of node v are succ[succAt[4v]:succAt[4v+4]], plain
	// target ids in four runs: gates whose count follows v's output, then
	// gates that read v negated (their count goes the other way), then the
	// same two kinds of leaves (never pushed), from succAt[4v+2] and
	// succAt[4v+3]. So the propagation loop adds one constant per run and
	// reads no flag bits per edge.
	succAt    []int32
	succ      []int32
	sccStart  []int32 // successors inside a cyclic component: target<<2 | negated
	sccSucc   []int32
	trigStart []int32 // triggers: bit<<1 | legal, the bit of Machine.tbits to toggle
	trig      []int32
	flags     []uint8 // 1: the node has successors in cyclic components; 2: it has triggers or deferred edges (fire's work); 4 (alone): it has one trigger, trig1; 8 (with any): it has negated or leaf successors; flagTrigLeaf (alone): one trigger, trig1, and no successor; 32: it is a deferred source; 64: it arms deferred gates
	trig1     []int32 // the one trigger's bit, when flags is 4 or flagTrigLeaf
	maxFan    int     // the most gates one node's change pushes (its positive and negated runs)

	// Deferred edges. A node read by many two-input AND gates (each move
	// input of pancakes88 is read by 40,320, of which one at most has its
	// other input true) does not count them all when it changes: each such
	// gate (deferred[j]) leaves its deferred input (in) out of its counter
	// while its other input (arm) is false, when the gate is false
	// whatever the deferred input is. The machine keeps per deferred
	// source k the list of its armed gates (those whose other input
	// holds), and the source's change counts only those (flag 32); the
	// other input's change (flag 64) arms or disarms the gate, adding or
	// taking out the deferred input's seen value. Both kinds of node also
	// have flag 2, so the propagation loop hands them to fire once it has
	// run their plain successors.
	deferred []deferredGate
	srcK     []int32 // per node: its source index k, or -1
	srcAt    []int32 // armed list of source k: the machine's armed[srcAt[k]:srcAt[k+1]] has room for all its gates
	armStart []int32 // deferred gates node v arms: armSucc[armStart[v]:armStart[v+1]]
	armSucc  []int32

	scanNext   bool    // read the next state from the next propositions (no triggers)
	scanLegal  bool    // read the legal moves from the legal propositions (no triggers)
	intStart   []int32 // positive edges inside a cyclic component, by source
	intSucc    []int32
	pairRole   []int32 // role of each move pair
	legalLit   []lit   // legal proposition of each move pair
	guardLit   []lit   // and its guard
	roleStart  []int32 // first move pair of each role, and len(pairs) (pairs are sorted by role)
	roleGroups [][]legalGroup
	groups     []legalGroup // roleGroups flat: role r's are groups[groupAt[r]:groupAt[r+1]]
	groupAt    []int32

	// The state: bit i is base i.
	words    int
	baseNode []int32 // per base, its node or -1
	nextLit  []lit
	baseText []string
	initBits []uint64

	roles     []string
	pairs     []movePair
	roleMoves [][]int32
	terminal  lit
	goals     [][]goalOut

	stats ProgramStats
}

// ProgramStats are the sizes of the runtime layout.
type ProgramStats struct {
	Nodes         int // including the constant
	MainNodes     int // kept up to date by propagation
	GoalOnlyNodes int // evaluated when the goals are asked
	Successors    int // propagation edges, triggers included
	Triggers      int
	CyclicComps   int
	CyclicNodes   int
	LargestCycle  int
	StateBits     int
	Moves         int
	// LegalTriggers: the legal moves are kept by triggers, not read from
	// their propositions when asked.
	LegalTriggers bool
	// DeferredGates read DeferredSources, nodes with at least the
	// deferral bound of two-input AND readers, by deferred edges.
	DeferredGates   int
	DeferredSources int
}

// compile lays the network out for evaluation, with the legal moves read
// or kept by triggers as legal says (LegalAuto: read when every guard
// covers at most scanLimit moves).
func compile(nw *network, legal LegalLayout, deferFanout int) *program {
	p, newID := numberNodes(nw, deferFanout)
	initLit := p.layoutOutputs(nw, newID)
	p.initialState(initLit)
	p.markMain()
	p.layoutSuccessors(legal, deferFanout)
	p.stats.Nodes = p.n
	p.stats.GoalOnlyNodes = len(p.goalOnly)
	p.goalNet()
	p.stats.Successors = len(p.succ) + len(p.sccSucc) + len(p.intSucc) + len(p.trig)
	p.stats.CyclicComps = len(p.cycStart)
	p.stats.StateBits = len(p.baseNode)
	p.stats.Moves = len(p.pairs)
	p.stats.LegalTriggers = !p.scanLegal
	return p
}

// numberNodes renumbers the nodes in dependency order (Tarjan's
// components, inputs first), copies each gate's kind and inputs, and marks
// the cyclic components, whose members are contiguous. It returns the
// program so far and the new id of every node of nw.
//
// The two-input AND gates that deferEdges will likely defer (deferFanout)
// are numbered first, grouped by their arming input: a base of pancakes88
// arms 8 of its 322,560 deferred gates, and their counters side by side
// are one or two cache lines to a step's arming instead of eight misses
// (drain's order, by readers, scattered them over 1.3 MB).
func numberNodes(nw *network, deferFanout int) (*program, []int32) {
	_, order, start := nw.sccsFrom(deferRoots(nw, deferFanout))
	n := len(nw.kind)
	newID := make([]int32, n)
	for i, v := range order {
		newID[v] = int32(i)
	}
	p := &program{n: n, kind: make([]uint8, n), inStart: make([]int32, n+1), cyc: make([]int32, n)}
	for i, v := range order {
		p.kind[i] = nw.kind[v]
		p.inStart[i] = int32(len(p.ins))
		for _, l := range nw.in[v] {
			p.ins = append(p.ins, remapLit(newID, l))
		}
		p.cyc[i] = -1
	}
	p.inStart[n] = int32(len(p.ins))
	for c := range start {
		end := int32(len(order))
		if c+1 < len(start) {
			end = start[c+1]
		}
		if nw.cyclic(int(end-start[c]), order[start[c]]) {
			k := int32(len(p.cycStart))
			p.cycStart = append(p.cycStart, start[c])
			p.cycLen = append(p.cycLen, end-start[c])
			for i := start[c]; i < end; i++ {
				p.cyc[i] = k
			}
			p.stats.CyclicNodes += int(end - start[c])
			p.stats.LargestCycle = max(p.stats.LargestCycle, int(end-start[c]))
		}
	}
	return p, newID
}

// deferRoots lists the two-input AND gates of nw that read a node with at
// least deferFanout such readers (deferEdges' rule, before the main part
// and the cyclic components are known), sorted by their other input.
func deferRoots(nw *network, deferFanout int) []int32 {
	if deferFanout <= 0 {
		return nil
	}
	pair := func(v int) (a, b int32, ok bool) {
		in := nw.in[v]
		if nw.kind[v] != kAnd || len(in) != 2 {
			return 0, 0, false
		}
		a, b = in[0]>>1, in[1]>>1
		return a, b, a != 0 && b != 0 && a != b
	}
	readers := make([]int32, len(nw.kind))
	for v := range nw.kind {
		if a, b, ok := pair(v); ok {
			readers[a]++
			readers[b]++
		}
	}
	type root struct{ arm, gate int32 }
	var roots []root
	for v := range nw.kind {
		a, b, ok := pair(v)
		if !ok {
			continue
		}
		if readers[b] > readers[a] {
			a, b = b, a
		}
		if int(readers[a]) >= deferFanout {
			roots = append(roots, root{b, int32(v)})
		}
	}
	if len(roots) == 0 {
		return nil
	}
	sort.Slice(roots, func(i, j int) bool {
		if roots[i].arm != roots[j].arm {
			return roots[i].arm < roots[j].arm
		}
		return roots[i].gate < roots[j].gate
	})
	out := make([]int32, 1, 1+len(roots)) // node 0, the constant, stays first
	for _, r := range roots {
		out = append(out, r.gate)
	}
	return out
}

// remapLit is literal l with its node renumbered by newID.
func remapLit(newID []int32, l lit) lit { return newID[l>>1]<<1 | l&1 }

// layoutOutputs lays out the outputs in the new numbering: the roles,
// terminal, the moves (numbered by role, then guard, then text, so that
// the moves of a role that share a guard are one range, its legal
// group), the goals and the bases. It returns each base's init literal.
func (p *program) layoutOutputs(nw *network, newID []int32) (initLit []lit) {
	remap := func(l lit) lit { return remapLit(newID, l) }
	p.roles = nw.roles
	p.terminal = remap(nw.terminal)
	p.pairs = append([]movePair(nil), nw.pairs...)
	for i := range p.pairs {
		p.pairs[i].legal = remap(p.pairs[i].legal)
		p.pairs[i].guard = remap(p.pairs[i].guard)
		if p.pairs[i].input >= 0 {
			p.pairs[i].input = newID[p.pairs[i].input]
		}
	}
	sort.SliceStable(p.pairs, func(i, j int) bool {
		a, b := &p.pairs[i], &p.pairs[j]
		if a.role != b.role {
			return a.role < b.role
		}
		if a.guard != b.guard {
			return a.guard < b.guard
		}
		return a.text < b.text
	})
	p.roleMoves = make([][]int32, len(p.roles))
	p.roleStart = make([]int32, len(p.roles)+1)
	p.roleGroups = make([][]legalGroup, len(p.roles))
	for i, mp := range p.pairs {
		p.roleMoves[mp.role] = append(p.roleMoves[mp.role], int32(i))
		gs := p.roleGroups[mp.role]
		if len(gs) == 0 || gs[len(gs)-1].guard != mp.guard {
			gs = append(gs, legalGroup{guard: mp.guard, lo: int32(i)})
		}
		gs[len(gs)-1].hi = int32(i + 1)
		p.roleGroups[mp.role] = gs
	}
	for r := range p.roles {
		p.roleStart[r+1] = p.roleStart[r] + int32(len(p.roleMoves[r]))
	}
	p.groupAt = make([]int32, len(p.roles)+1)
	for r, gs := range p.roleGroups {
		p.groups = append(p.groups, gs...)
		p.groupAt[r+1] = int32(len(p.groups))
	}
	p.goals = make([][]goalOut, len(nw.goals))
	for r, gs := range nw.goals {
		p.goals[r] = append([]goalOut(nil), gs...)
		for i := range p.goals[r] {
			p.goals[r][i].lit = remap(p.goals[r][i].lit)
		}
	}
	p.words = (len(nw.bases) + 63) / 64
	for _, bp := range nw.bases {
		node := int32(-1)
		if bp.node >= 0 {
			node = newID[bp.node]
		}
		p.baseNode = append(p.baseNode, node)
		p.nextLit = append(p.nextLit, remap(bp.next))
		p.baseText = append(p.baseText, bp.text)
		initLit = append(initLit, remap(bp.init))
	}
	return initLit
}

// initialState sets the initial state's bits from each base's init
// literal: init depends on no base or input, so one full pass with all of
// them false gives it (optimised, it is constants).
func (p *program) initialState(initLit []lit) {
	p.initBits = make([]uint64, p.words)
	val := make([]uint8, p.n)
	p.fullPass(val)
	for i, l := range initLit {
		if val[l>>1]^uint8(l&1) == 1 {
			p.initBits[i/64] |= 1 << (i % 64)
		}
	}
}

// markMain marks the main part, what legal, next and terminal read, and
// lists the goal-only gates (the rest) in dependency order.
func (p *program) markMain() {
	n := p.n
	p.main = make([]bool, n)
	var stack []int32
	mark := func(l lit) {
		if v := l >> 1; !p.main[v] {
			p.main[v] = true
			stack = append(stack, v)
		}
	}
	mark(p.terminal)
	for _, l := range p.nextLit {
		mark(l)
	}
	for _, mp := range p.pairs {
		mark(mp.legal)
		mark(mp.guard)
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, l := range p.ins[p.inStart[v]:p.inStart[v+1]] {
			mark(l)
		}
	}
	p.live = make([]bool, n)
	for v := 1; v < n; v++ {
		p.live[v] = p.main[v] || p.kind[v] == kBase || p.kind[v] == kInput
		if p.main[v] {
			p.stats.MainNodes++
		} else if p.kind[v] == kAnd || p.kind[v] == kOr {
			p.goalOnly = append(p.goalOnly, int32(v))
		}
	}
}

// layoutSuccessors builds the three successor lists of the main nodes
// (plain gates, gates inside cyclic components, triggers), the edges
// inside the cyclic components, the deferred edges of nodes with at least
// deferFanout two-input AND readers (0: none), the per-node flags of the
// propagation loop, and the per-move arrays of the legal reading, with the
// legal moves read or kept by triggers as legal says.
func (p *program) layoutSuccessors(legal LegalLayout, deferFanout int) {
	n := p.n
	outs := make([][]int32, n)
	sccOuts := make([][]int32, n)
	trigs := make([][]int32, n)
	internal := make([][]int32, n)
	for v := int32(1); v < int32(n); v++ {
		if !p.main[v] {
			continue
		}
		for _, l := range p.ins[p.inStart[v]:p.inStart[v+1]] {
			src := l >> 1
			if src == 0 {
				continue // a constant never changes
			}
			switch {
			case p.cyc[v] >= 0 && p.cyc[src] == p.cyc[v]:
				internal[src] = append(internal[src], v)
			case p.cyc[v] >= 0:
				sccOuts[src] = append(sccOuts[src], v<<1|l&1)
			default:
				outs[src] = append(outs[src], v<<1|l&1)
			}
		}
	}
	addTrig := func(l lit, bit int32, legal int32) {
		if l>>1 == 0 {
			return
		}
		trigs[l>>1] = append(trigs[l>>1], bit<<1|legal)
		p.stats.Triggers++
	}
	// Games with few moves per role read the legal moves from their
	// propositions when asked (a few loads), so those propositions need no
	// triggers; others keep a bitset up to date by triggers. The next state
	// is always kept by triggers (reading it was slower even on
	// tic-tac-toe's 29 bases).
	p.scanLegal = legal != LegalTriggers
	for _, gs := range p.roleGroups {
		for _, g := range gs {
			if g.hi-g.lo > scanLimit && legal == LegalAuto {
				p.scanLegal = false
			}
		}
	}
	for i, l := range p.nextLit {
		addTrig(l, int32(i), 0)
	}
	for i, mp := range p.pairs {
		if !p.scanLegal {
			addTrig(mp.legal, int32(p.words*64+i), 1)
		}
		p.pairRole = append(p.pairRole, int32(mp.role))
		p.legalLit = append(p.legalLit, mp.legal)
		p.guardLit = append(p.guardLit, mp.guard)
	}
	arms := p.deferEdges(outs, deferFanout)
	// A main node that nothing reads by propagation (its value is read from
	// its counter when asked) is a leaf: it is never pushed.
	leaf := make([]bool, n)
	for v := 0; v < n; v++ {
		leaf[v] = p.main[v] && len(outs[v]) == 0 && len(sccOuts[v]) == 0 && len(trigs[v]) == 0 && len(internal[v]) == 0 && p.srcK[v] < 0 && len(arms[v]) == 0
	}
	for _, es := range sccOuts {
		for i, e := range es {
			es[i] = e>>1<<2 | e&1
		}
	}
	p.succAt = make([]int32, 4*n+1)
	for v := 0; v < n; v++ {
		// The four runs: positive, negated; then the leaves of each.
		for run := range 4 {
			p.succAt[4*v+run] = int32(len(p.succ))
			for _, e := range outs[v] {
				t := e >> 1
				if (e&1 == 1) == (run&1 == 1) && leaf[t] == (run >= 2) {
					p.succ = append(p.succ, t)
				}
			}
		}
	}
	p.succAt[4*n] = int32(len(p.succ))
	csr := func(lists [][]int32) (start, flat []int32) {
		start = make([]int32, n+1)
		for v := 0; v < n; v++ {
			start[v] = int32(len(flat))
			flat = append(flat, lists[v]...)
		}
		start[n] = int32(len(flat))
		return start, flat
	}
	p.sccStart, p.sccSucc = csr(sccOuts)
	p.trigStart, p.trig = csr(trigs)
	p.intStart, p.intSucc = csr(internal)
	p.armStart, p.armSucc = csr(arms)
	p.flags = make([]uint8, n)
	p.trig1 = make([]int32, n)
	for v := 0; v < n; v++ {
		if len(sccOuts[v]) > 0 {
			p.flags[v] |= 1
		}
		if len(trigs[v]) > 0 {
			p.flags[v] |= 2
		}
		if p.flags[v] == 2 && len(trigs[v]) == 1 {
			p.flags[v] = 4
			p.trig1[v] = trigs[v][0] >> 1
		}
		if p.succAt[4*v+1] != p.succAt[4*v+4] {
			p.flags[v] |= 8
		}
		if p.flags[v] == 4 && p.succAt[4*v] == p.succAt[4*v+4] {
			p.flags[v] = flagTrigLeaf
		}
		// A deferred source or an arming node is handed to fire after the
		// propagation loop has run its plain successors, as a node with
		// triggers is (flag 2: its one trigger, if it has one, is then
		// toggled by fire from the list, not by the loop).
		if p.srcK[v] >= 0 || len(arms[v]) > 0 {
			p.flags[v] = p.flags[v]&^(4|flagTrigLeaf) | 2
		}
		if p.srcK[v] >= 0 {
			p.flags[v] |= 32
		}
		if len(arms[v]) > 0 {
			p.flags[v] |= 64
		}
		p.maxFan = max(p.maxFan, int(p.succAt[4*v+2]-p.succAt[4*v]))
	}
}

// deferEdges chooses the deferred gates: the main two-input AND gates
// outside cyclic components that read a node with at least deferFanout
// such readers (the one with more, when both inputs have). It takes their
// edges from that source out of outs and returns, per node, the deferred
// gates it arms.
func (p *program) deferEdges(outs [][]int32, deferFanout int) (arms [][]int32) {
	n := p.n
	p.srcK = make([]int32, n)
	for v := range p.srcK {
		p.srcK[v] = -1
	}
	arms = make([][]int32, n)
	p.srcAt = []int32{0}
	if deferFanout <= 0 {
		return arms
	}
	pair := func(v int32) (a, b lit, ok bool) {
		if p.kind[v] != kAnd || !p.main[v] || p.cyc[v] >= 0 || p.inStart[v+1]-p.inStart[v] != 2 {
			return 0, 0, false
		}
		a, b = p.ins[p.inStart[v]], p.ins[p.inStart[v]+1]
		return a, b, a>>1 != 0 && b>>1 != 0 && a>>1 != b>>1
	}
	readers := make([]int32, n)
	for v := int32(1); v < int32(n); v++ {
		if a, b, ok := pair(v); ok {
			readers[a>>1]++
			readers[b>>1]++
		}
	}
	var count []int32 // deferred gates per source
	for v := int32(1); v < int32(n); v++ {
		a, b, ok := pair(v)
		if !ok {
			continue
		}
		if readers[b>>1] > readers[a>>1] {
			a, b = b, a
		}
		src := a >> 1
		if int(readers[src]) < deferFanout {
			continue
		}
		k := p.srcK[src]
		if k < 0 {
			k = int32(len(count))
			p.srcK[src] = k
			count = append(count, 0)
		}
		count[k]++
		j := int32(len(p.deferred))
		p.deferred = append(p.deferred, deferredGate{gate: v, src: k, in: a, arm: b})
		arms[b>>1] = append(arms[b>>1], j)
	}
	p.srcAt = make([]int32, len(count)+1)
	for k, c := range count {
		p.srcAt[k+1] = p.srcAt[k] + c
	}
	if len(p.deferred) == 0 {
		return arms
	}
	srcOf := make([]int32, n) // per deferred gate, its deferred source + 1
	for _, dg := range p.deferred {
		srcOf[dg.gate] = dg.in>>1 + 1
	}
	for src, es := range outs {
		if p.srcK[src] < 0 {
			continue
		}
		kept := es[:0]
		for _, e := range es {
			if srcOf[e>>1] != int32(src)+1 {
				kept = append(kept, e)
			}
		}
		outs[src] = kept
	}
	p.stats.DeferredGates = len(p.deferred)
	p.stats.DeferredSources = len(count)
	return arms
}

// eval computes node v from its inputs' values.
func (p *program) eval(val []uint8, v int32) uint8 {
	ins := p.ins[p.inStart[v]:p.inStart[v+1]]
	if p.kind[v] == kAnd {
		for _, l := range ins {
			if val[l>>1]^uint8(l&1) == 0 {
				return 0
			}
		}
		return 1
	}
	for _, l := range ins {
		if val[l>>1]^uint8(l&1) != 0 {
			return 1
		}
	}
	return 0
}

// evalComp computes the least fixed point of cyclic component k: from all
// false, re-evaluate its members until none changes (they are monotone:
// the edges inside a component are positive).
func (p *program) evalComp(val []uint8, k int32) {
	a, b := p.cycStart[k], p.cycStart[k]+p.cycLen[k]
	for v := a; v < b; v++ {
		val[v] = 0
	}
	for changed := true; changed; {
		changed = false
		for v := a; v < b; v++ {
			if val[v] == 0 && p.eval(val, v) == 1 {
				val[v] = 1
				changed = true
			}
		}
	}
}

// fullPass evaluates every gate in dependency order; base and input values
// must be set in val.
func (p *program) fullPass(val []uint8) {
	val[0] = 0
	for v := int32(1); v < int32(p.n); v++ {
		k := p.kind[v]
		if k != kAnd && k != kOr {
			continue
		}
		if c := p.cyc[v]; c >= 0 {
			if v == p.cycStart[c] {
				p.evalComp(val, c)
			}
			continue
		}
		val[v] = p.eval(val, v)
	}
}

// evalNodes evaluates the given gates (in dependency order) from the
// current values of everything else.
func (p *program) evalNodes(val []uint8, nodes []int32) {
	for _, v := range nodes {
		if c := p.cyc[v]; c >= 0 {
			if v == p.cycStart[c] {
				p.evalComp(val, c)
			}
			continue
		}
		val[v] = p.eval(val, v)
	}
}

// goalNet lays out the successors of the goal-only gates' inputs for their
// differential evaluation, when no goal-only gate is in a cyclic component.
func (p *program) goalNet() {
	p.incGoals = len(p.goalOnly) > 0
	for _, v := range p.goalOnly {
		if p.cyc[v] >= 0 {
			p.incGoals = false
			return
		}
	}
	if !p.incGoals {
		return
	}
	goal := make([]bool, p.n)
	for _, v := range p.goalOnly {
		goal[v] = true
	}
	succ := make([][]int32, p.n)
	src := make([]bool, p.n)
	for _, v := range p.goalOnly {
		for _, l := range p.ins[p.inStart[v]:p.inStart[v+1]] {
			u := l >> 1
			if u == 0 {
				continue // a constant never changes
			}
			succ[u] = append(succ[u], v<<1|l&1)
			if !goal[u] && !src[u] {
				src[u] = true
				p.goalSrc = append(p.goalSrc, u)
			}
		}
	}
	p.goalStart = make([]int32, p.n+1)
	for v := 0; v < p.n; v++ {
		p.goalStart[v] = int32(len(p.goalSucc))
		p.goalSucc = append(p.goalSucc, succ[v]...)
	}
	p.goalStart[p.n] = int32(len(p.goalSucc))
}
