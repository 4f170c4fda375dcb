package propnet

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// The network.
//
// A node is a constant, a base proposition (true(x), set from the state), an
// input proposition (does(r,m), set from the joint move), or an AND or OR
// gate over literals. A literal is a node with a negation bit, so NOT gates
// are edges rather than nodes: lit = node<<1 | negated. Node 0 is the
// constant false, so literal 0 is false and literal 1 is true.
//
// From a grounding, every network atom becomes a node (an OR of its rule
// instances) and every rule instance with two or more literals an AND gate.
// The outputs are the legal, next, terminal, goal and init propositions as
// literals; next(x) feeds the base true(x) through a transition.
//
// Optimisation repeats, until nothing changes: constant folding and
// simplification in dependency order (absorbing and neutral constants,
// duplicate and complementary inputs, single-input gates replaced by their
// input), merging of gates with the same kind and inputs (hash-consing),
// folding of bases that can never change (never true, or always true) and of
// inputs whose legal proposition is constant, and removal of every node no
// output depends on. Cyclic components (from recursive rules) are simplified
// under least-fixed-point semantics: a positive self-loop in an OR is
// dropped, in an AND it makes the gate false, and a component with no
// input from outside is false.

type lit = int32

const (
	litFalse lit = 0
	litTrue  lit = 1
)

func mkLit(n int32, neg bool) lit {
	if neg {
		return n<<1 | 1
	}
	return n << 1
}

const (
	kConst uint8 = iota
	kBase
	kInput
	kAnd
	kOr
)

type baseProp struct {
	term int32 // x of true(x)
	text string
	node int32 // base node, or -1 when no gate reads it
	next lit
	init lit // a constant once optimised
	dead bool
}

type movePair struct {
	role  int
	term  int32
	text  string
	legal lit
	guard lit   // the move is legal when guard and legal both hold
	input int32 // input node, or -1
}

type goalOut struct {
	value int
	ok    bool // the value is an integer
	text  string
	lit   lit
}

type network struct {
	ts   *terms
	kind []uint8
	in   [][]lit
	name []int32 // the atom of a proposition node, -1 for other gates

	roles     []string
	bases     []baseProp
	pairs     []movePair
	roleMoves [][]int32
	terminal  lit
	goals     [][]goalOut

	budget *budget
	// noPartial: factor takes a shared literal out of an OR only when every
	// input of the OR shares it (see factor).
	noPartial bool
	// acyclic: the last optimisation round found no cyclic component
	// (simplifying, merging and factoring make none, so factor need not
	// look for them again).
	acyclic bool
}

// clone returns a copy of the network that optimising one leaves the other
// alone (the terms and the budget are shared).
func (nw *network) clone() *network {
	c := *nw
	c.kind = slices.Clone(nw.kind)
	c.name = slices.Clone(nw.name)
	c.in = make([][]lit, len(nw.in))
	for i, ins := range nw.in {
		c.in[i] = slices.Clone(ins)
	}
	c.bases = slices.Clone(nw.bases)
	c.pairs = slices.Clone(nw.pairs)
	c.roleMoves = make([][]int32, len(nw.roleMoves))
	for i, ms := range nw.roleMoves {
		c.roleMoves[i] = slices.Clone(ms)
	}
	c.goals = make([][]goalOut, len(nw.goals))
	for i, gs := range nw.goals {
		c.goals[i] = slices.Clone(gs)
	}
	return &c
}

func (nw *network) addNode(kind uint8, in []lit, name int32) int32 {
	id := int32(len(nw.kind))
	nw.kind = append(nw.kind, kind)
	nw.in = append(nw.in, in)
	nw.name = append(nw.name, name)
	return id
}

func (nw *network) nodeName(n int32) string {
	if n == 0 {
		return "false"
	}
	if nw.name[n] >= 0 {
		return nw.ts.text(nw.name[n])
	}
	switch nw.kind[n] {
	case kAnd:
		return fmt.Sprintf("and#%d", n)
	case kOr:
		return fmt.Sprintf("or#%d", n)
	}
	return fmt.Sprintf("node#%d", n)
}

func (nw *network) litName(l lit) string {
	switch l {
	case litFalse:
		return "false"
	case litTrue:
		return "true"
	}
	if l&1 != 0 {
		return "(not " + nw.nodeName(l>>1) + ")"
	}
	return nw.nodeName(l >> 1)
}

// buildNetwork turns a grounding into a network.
func buildNetwork(g *grounder, game *gdl.Game, b *budget) *network {
	ts := g.ts
	nw := &network{ts: ts, budget: b}
	b.phase = "network construction"
	b.figures = func() string {
		return fmt.Sprintf("%d nodes from %d rule instances", len(nw.kind), len(g.insts))
	}
	b.size = func() (int, string) { return len(nw.kind), "nodes" }
	nw.addNode(kConst, nil, -1)
	atomNode := make([]int32, len(ts.t))
	for i := range atomNode {
		atomNode[i] = -1
	}
	litOf := func(a int32) lit {
		if !g.atom(a) {
			return litFalse
		}
		if g.rels[ts.fn(a)].kind == relExact {
			return litTrue
		}
		return mkLit(atomNode[a], false)
	}
	for _, r := range game.Roles {
		nw.roles = append(nw.roles, r.String())
	}
	roleIndex := map[int32]int{}
	for i, r := range g.roles {
		if _, dup := roleIndex[r]; !dup {
			roleIndex[r] = i
		}
	}

	// Bases, sorted by text so that a state's facts come out sorted.
	trueRel := g.rels[gdl.SymTrue]
	for _, a := range trueRel.atoms {
		x := ts.args(a)[0]
		nw.bases = append(nw.bases, baseProp{term: x, text: ts.text(x)})
	}
	sort.Slice(nw.bases, func(i, j int) bool { return nw.bases[i].text < nw.bases[j].text })
	for i := range nw.bases {
		bp := &nw.bases[i]
		a := ts.lookup(gdl.SymTrue, []int32{bp.term})
		bp.node = nw.addNode(kBase, nil, a)
		atomNode[a] = bp.node
	}
	// Moves: one per legal(role, move) atom of a role, sorted by role and text.
	if legal := g.rels[gdl.SymLegal]; legal != nil {
		for _, a := range legal.atoms {
			args := ts.args(a)
			ri, ok := roleIndex[args[0]]
			if !ok {
				continue
			}
			nw.pairs = append(nw.pairs, movePair{role: ri, term: args[1], text: ts.text(args[1]), guard: litTrue, input: -1})
		}
	}
	sort.Slice(nw.pairs, func(i, j int) bool {
		if nw.pairs[i].role != nw.pairs[j].role {
			return nw.pairs[i].role < nw.pairs[j].role
		}
		return nw.pairs[i].text < nw.pairs[j].text
	})
	nw.roleMoves = make([][]int32, len(nw.roles))
	for i := range nw.pairs {
		p := &nw.pairs[i]
		nw.roleMoves[p.role] = append(nw.roleMoves[p.role], int32(i))
		if d := ts.lookup(gdl.SymDoes, []int32{g.roles[p.role], p.term}); g.atom(d) {
			p.input = nw.addNode(kInput, nil, d)
			atomNode[d] = p.input
		}
	}
	// View propositions.
	for _, r := range g.relList {
		if r.kind != relNet || r.name == gdl.SymTrue || r.name == gdl.SymDoes {
			continue
		}
		for _, a := range r.atoms {
			atomNode[a] = nw.addNode(kOr, nil, a)
		}
	}
	// Rule instances.
	var lits []lit
	for i, in := range g.insts {
		if i&4095 == 4095 {
			b.check()
		}
		lits = lits[:0]
		for _, a := range g.pool[in.off : in.off+in.npos] {
			lits = append(lits, litOf(a))
		}
		for _, a := range g.pool[in.off+in.npos : in.off+in.npos+in.nneg] {
			if l := litOf(a); l != litFalse {
				lits = append(lits, l^1)
			}
		}
		var out lit
		switch len(lits) {
		case 0:
			out = litTrue
		case 1:
			out = lits[0]
		default:
			out = mkLit(nw.addNode(kAnd, append([]lit(nil), lits...), -1), false)
		}
		h := atomNode[in.head]
		nw.in[h] = append(nw.in[h], out)
	}
	// Outputs.
	for i := range nw.bases {
		bp := &nw.bases[i]
		bp.next = litOf(ts.lookup(gdl.SymNext, []int32{bp.term}))
		bp.init = litOf(ts.lookup(gdl.SymInit, []int32{bp.term}))
	}
	for i := range nw.pairs {
		p := &nw.pairs[i]
		p.legal = litOf(ts.lookup(gdl.SymLegal, []int32{g.roles[p.role], p.term}))
	}
	nw.terminal = litOf(ts.lookup(gdl.SymTerminal, nil))
	nw.goals = make([][]goalOut, len(nw.roles))
	if goal := g.rels[gdl.SymGoal]; goal != nil {
		for _, a := range goal.atoms {
			args := ts.args(a)
			ri, ok := roleIndex[args[0]]
			if !ok {
				continue
			}
			text := ts.text(args[1])
			v, err := strconv.Atoi(text)
			nw.goals[ri] = append(nw.goals[ri], goalOut{value: v, ok: err == nil, text: text, lit: litOf(a)})
		}
	}
	for r := range nw.goals {
		sort.Slice(nw.goals[r], func(i, j int) bool { return nw.goals[r][i].text < nw.goals[r][j].text })
	}
	return nw
}

// forEachOutput calls f with a pointer to every output literal.
func (nw *network) forEachOutput(f func(*lit)) {
	for i := range nw.bases {
		if !nw.bases[i].dead {
			f(&nw.bases[i].next)
			f(&nw.bases[i].init)
		}
	}
	for i := range nw.pairs {
		f(&nw.pairs[i].legal)
		f(&nw.pairs[i].guard)
	}
	f(&nw.terminal)
	for r := range nw.goals {
		for i := range nw.goals[r] {
			f(&nw.goals[r][i].lit)
		}
	}
}

// sccs computes the strongly connected components of the graph whose edges
// go from a node to its inputs (Tarjan's algorithm, iteratively). Components
// come out in dependency order: a component after every component it reads.
// comp[n] is n's component; order lists the nodes component by component and
// start[c] is where component c begins in order.
func (nw *network) sccs() (comp, order, start []int32) { return nw.sccsFrom(nil) }

// sccsFrom is sccs with its depth-first searches started from the nodes of
// roots first, in that order, then from every node by id. Any order of the
// roots gives a dependency order; it decides which of them (and which of
// their inputs not numbered yet) are numbered next to each other.
func (nw *network) sccsFrom(roots []int32) (comp, order, start []int32) {
	n := len(nw.kind)
	idx := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	comp = make([]int32, n)
	for i := range idx {
		idx[i] = -1
	}
	order = make([]int32, 0, n)
	var stack []int32
	type frame struct{ v, i int32 }
	var frames []frame
	counter := int32(0)
	for i := -len(roots); i < n; i++ {
		s := int32(i)
		if i < 0 {
			s = roots[len(roots)+i]
		}
		if idx[s] >= 0 {
			continue
		}
		idx[s], low[s] = counter, counter
		counter++
		stack = append(stack, s)
		on[s] = true
		frames = append(frames, frame{s, 0})
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			v := f.v
			ins := nw.in[v]
			if int(f.i) < len(ins) {
				w := ins[f.i] >> 1
				f.i++
				if idx[w] < 0 {
					idx[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					frames = append(frames, frame{w, 0})
				} else if on[w] && idx[w] < low[v] {
					low[v] = idx[w]
				}
				continue
			}
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].v
				if low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == idx[v] {
				c := int32(len(start))
				start = append(start, int32(len(order)))
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp[w] = c
					order = append(order, w)
					if w == v {
						break
					}
				}
			}
		}
	}
	return comp, order, start
}

// postorder lists the nodes of an acyclic network in depth-first postorder
// over their inputs, from node 0 up (each node after its inputs).
func (nw *network) postorder() []int32 {
	n := len(nw.kind)
	seen := make([]bool, n)
	order := make([]int32, 0, n)
	type frame struct{ v, i int32 }
	var frames []frame
	for s := int32(0); s < int32(n); s++ {
		if seen[s] {
			continue
		}
		seen[s] = true
		frames = append(frames, frame{s, 0})
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if ins := nw.in[f.v]; int(f.i) < len(ins) {
				w := ins[f.i] >> 1
				f.i++
				if !seen[w] {
					seen[w] = true
					frames = append(frames, frame{w, 0})
				}
				continue
			}
			order = append(order, f.v)
			frames = frames[:len(frames)-1]
		}
	}
	return order
}

// cyclic reports whether component c (of size size, holding node v) is a
// cycle: more than one node, or a self-loop.
func (nw *network) cyclic(size int, v int32) bool {
	if size > 1 {
		return true
	}
	for _, l := range nw.in[v] {
		if l>>1 == v {
			return true
		}
	}
	return false
}

// inCycles marks the nodes of the cyclic components.
func (nw *network) inCycles(order, start []int32) []bool {
	in := make([]bool, len(nw.kind))
	for c := range start {
		end := int32(len(order))
		if c+1 < len(start) {
			end = start[c+1]
		}
		if members := order[start[c]:end]; nw.cyclic(len(members), members[0]) {
			for _, v := range members {
				in[v] = true
			}
		}
	}
	return in
}

type optimiser struct {
	nw   *network
	repl []lit
	ins  []lit
	exp  []lit
	cons consTable
}

// consTable finds a gate equal to another: of the same kind with the same
// inputs (an open-addressing table of node numbers, compared with the
// gates' inputs, so no key is built). Each slot keeps its gate's hash, so
// that a probe reads a gate's inputs only when the hashes match.
type consTable struct {
	nw    *network
	slots []int32  // node+1, 0 empty
	hash  []uint32 // the hash of the slot's gate
}

// reset empties the table for up to n gates.
func (t *consTable) reset(nw *network, n int) {
	size := 1024
	for size < 2*n {
		size *= 2
	}
	t.nw = nw
	if cap(t.slots) >= size {
		t.slots = t.slots[:size]
		clear(t.slots)
		t.hash = t.hash[:size]
	} else {
		t.slots = make([]int32, size)
		t.hash = make([]uint32, size)
	}
}

// add returns the gate equal to one of kind k with inputs ins, when the
// table holds one; else it enters v (whose inputs will be ins) and returns
// v.
func (t *consTable) add(k uint8, ins []lit, v int32) int32 {
	h := uint64(k) + 0x9e3779b97f4a7c15
	for _, l := range ins {
		h = (h ^ uint64(l)) * 0x100000001b3
		h ^= h >> 29
	}
	h32 := uint32(h >> 32)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		m := t.slots[i] - 1
		if m < 0 {
			t.slots[i] = v + 1
			t.hash[i] = h32
			return v
		}
		if t.hash[i] == h32 && t.nw.kind[m] == k && slices.Equal(t.nw.in[m], ins) {
			return m
		}
	}
}

func (o *optimiser) find(l lit) lit {
	for {
		r := o.repl[l>>1] ^ (l & 1)
		if r == l {
			return l
		}
		l = r
	}
}

// simplify returns the gate's simplified inputs, or its replacement (a
// constant or a literal) with ok false. self is the gate's own node:
// positive self-inputs follow least-fixed-point semantics.
func (o *optimiser) simplify(kind uint8, in []lit, self int32) (ins []lit, repl lit, ok bool, err error) {
	absorb, neutral := litFalse, litTrue // AND
	if kind == kOr {
		absorb, neutral = litTrue, litFalse
	}
	ins = o.ins[:0]
	for _, l := range in {
		l = o.find(l)
		switch {
		case l == absorb:
			return nil, absorb, false, nil
		case l == neutral:
			continue
		case l>>1 == self:
			if l&1 != 0 {
				return nil, 0, false, fmt.Errorf("%s depends negatively on itself", o.nw.nodeName(self))
			}
			if kind == kAnd {
				return nil, litFalse, false, nil // least fixed point
			}
			continue // OR: x = x | y is y in the least fixed point
		}
		ins = append(ins, l)
	}
	slices.Sort(ins)
	w := 0
	for i, l := range ins {
		if i > 0 && l == ins[w-1] {
			continue
		}
		if i > 0 && l == ins[w-1]^1 {
			return nil, absorb, false, nil // x and not x
		}
		ins[w] = l
		w++
	}
	ins = ins[:w]
	o.ins = ins
	switch len(ins) {
	case 0:
		return nil, neutral, false, nil
	case 1:
		return nil, ins[0], false, nil
	}
	return ins, 0, true, nil
}

// maxCopy is the most inputs of a gate that flatten copies into each of
// several readers.
const maxCopy = 16

// flatten splices into a gate of kind k the inputs of each input gate that
// nothing else reads: an AND of an AND is one AND, an OR of an OR one OR,
// and by De Morgan an AND of a NOT OR (an OR of a NOT AND) takes the
// negated inputs. Fewer, wider gates mean fewer propagation steps.
//
// fanout counts the readers of each gate at the start of the round, and
// readers those it has once gates found equal are merged: the one kept is
// read by all that read the others. Flattening a merged gate copies its
// inputs into each of its readers. That pays for small gates (amazons,
// with no copies at all, took 2.1 times the CPU per state change), but a
// large gate copied into many readers multiplies the links: BASE/shogi_ctk's
// 545,407 links grew to over 3 million in the first round, from gates of
// 17 to 256 inputs, and 30 rounds of factoring brought them back to only
// 2.24 million (28 s of CPU). So a merged gate is flattened only when it
// has at most maxCopy inputs.
func (o *optimiser) flatten(k uint8, in []lit, fanout, readers []int32, inCycle []bool) []lit {
	nw := o.nw
	dual := kOr
	if k == kOr {
		dual = kAnd
	}
	out := o.exp[:0]
	for _, l := range in {
		l = o.find(l)
		h := l >> 1
		if h != 0 && fanout[h] == 1 && (readers[h] == 1 || len(nw.in[h]) <= maxCopy) && !inCycle[h] && o.repl[h] == mkLit(h, false) {
			switch hk := nw.kind[h]; {
			case hk == k && l&1 == 0:
				out = append(out, nw.in[h]...)
				continue
			case hk == dual && l&1 != 0:
				for _, x := range nw.in[h] {
					out = append(out, x^1)
				}
				continue
			}
		}
		out = append(out, l)
	}
	o.exp = out
	return out
}

// round runs one pass of simplification and merging; it reports whether
// anything changed.
func (o *optimiser) round() (bool, error) {
	nw := o.nw
	n := len(nw.kind)
	o.repl = make([]lit, n)
	for i := range o.repl {
		o.repl[i] = mkLit(int32(i), false)
	}
	changed := false
	// The nodes in dependency order, component by component. Once a round
	// has found no cycle there is none (see acyclic), and every component
	// is a node: the order is the depth-first postorder, which is the
	// order Tarjan's algorithm gives an acyclic graph.
	var comp, order, start []int32
	var inCycle []bool
	if nw.acyclic {
		order = nw.postorder()
		inCycle = make([]bool, n)
	} else {
		comp, order, start = nw.sccs()
		inCycle = nw.inCycles(order, start)
		nw.acyclic = !slices.Contains(inCycle, true)
	}
	o.cons.reset(nw, n)
	// Fan-out, and the members of cyclic components, for flattening.
	fanout := make([]int32, n)
	for _, ins := range nw.in {
		for _, l := range ins {
			fanout[l>>1]++
		}
	}
	nw.forEachOutput(func(l *lit) { fanout[*l>>1] += 2 })
	readers := slices.Clone(fanout)
	components := len(start)
	if start == nil {
		components = len(order)
	}
	for c := range components {
		if c&1023 == 1023 {
			nw.budget.check()
		}
		var members []int32
		cyc := false
		if start == nil {
			members = order[c : c+1]
		} else {
			end := int32(len(order))
			if c+1 < len(start) {
				end = start[c+1]
			}
			members = order[start[c]:end]
			cyc = nw.cyclic(len(members), members[0])
		}
		for _, v := range members {
			k := nw.kind[v]
			if k != kAnd && k != kOr {
				continue
			}
			in := nw.in[v]
			if !cyc {
				in = o.flatten(k, in, fanout, readers, inCycle)
				if len(in) != len(nw.in[v]) {
					changed = true
				}
			}
			ins, repl, ok, err := o.simplify(k, in, v)
			if err != nil {
				return false, &RefusalError{Kind: RefuseCycle, Msg: err.Error()}
			}
			if !ok {
				o.repl[v] = repl
				readers[repl>>1] += readers[v] // what read v reads repl
				changed = true
				continue
			}
			if len(ins) != len(nw.in[v]) {
				changed = true
			}
			if !cyc {
				if m := o.cons.add(k, ins, v); m != v {
					o.repl[v] = mkLit(m, false)
					readers[m] += readers[v] // (as above)
					changed = true
					continue
				}
			}
			nw.in[v] = append(nw.in[v][:0], ins...)
		}
		if cyc {
			// A component that nothing outside feeds is false in the
			// least fixed point.
			external := false
			for _, v := range members {
				if o.repl[v] != mkLit(v, false) {
					continue
				}
				for _, l := range nw.in[v] {
					if comp[o.find(l)>>1] != int32(c) {
						external = true
					}
				}
			}
			if !external {
				for _, v := range members {
					if o.repl[v] == mkLit(v, false) {
						o.repl[v] = litFalse
						changed = true
					}
				}
			}
		}
	}
	// Bases that never change and inputs that are constant.
	for i := range nw.bases {
		bp := &nw.bases[i]
		if bp.dead || bp.node < 0 {
			continue
		}
		self := mkLit(bp.node, false)
		if o.repl[bp.node] != self {
			continue
		}
		next, init := o.find(bp.next), o.find(bp.init)
		switch {
		case init == litFalse && (next == litFalse || next == self):
			o.repl[bp.node] = litFalse
			changed = true
		case init == litTrue && (next == litTrue || next == self):
			o.repl[bp.node] = litTrue
			changed = true
		}
	}
	for _, moves := range nw.roleMoves {
		possible := 0
		for _, p := range moves {
			if o.find(nw.pairs[p].legal) != litFalse {
				possible++
			}
		}
		for _, p := range moves {
			mp := &nw.pairs[p]
			if mp.input < 0 || o.repl[mp.input] != mkLit(mp.input, false) {
				continue
			}
			switch legal := o.find(mp.legal); {
			case legal == litFalse:
				o.repl[mp.input] = litFalse
				changed = true
			case legal == litTrue && possible == 1:
				o.repl[mp.input] = litTrue
				changed = true
			}
		}
	}
	o.compact()
	return changed, nil
}

// compact resolves every literal, drops the nodes no output depends on and
// renumbers the rest.
func (o *optimiser) compact() {
	nw := o.nw
	n := len(nw.kind)
	nw.forEachOutput(func(l *lit) { *l = o.find(*l) })
	reach := make([]bool, n)
	reach[0] = true
	var stack []int32
	mark := func(l lit) {
		if v := l >> 1; !reach[v] {
			reach[v] = true
			stack = append(stack, v)
		}
	}
	nw.forEachOutput(func(l *lit) { mark(*l) })
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ins := nw.in[v]
		for i, l := range ins {
			ins[i] = o.find(l)
			mark(ins[i])
		}
	}
	newID := make([]int32, n)
	kind := make([]uint8, 0, n)
	in := make([][]lit, 0, n)
	name := make([]int32, 0, n)
	for v := 0; v < n; v++ {
		newID[v] = -1
		if !reach[v] || o.repl[v] != mkLit(int32(v), false) {
			continue
		}
		newID[v] = int32(len(kind))
		kind = append(kind, nw.kind[v])
		in = append(in, nw.in[v])
		name = append(name, nw.name[v])
	}
	remap := func(l lit) lit { return newID[l>>1]<<1 | l&1 }
	for _, ins := range in {
		for i, l := range ins {
			ins[i] = remap(l)
		}
	}
	nw.forEachOutput(func(l *lit) { *l = remap(*l) })
	for i := range nw.bases {
		bp := &nw.bases[i]
		if bp.node < 0 {
			continue
		}
		r := o.find(mkLit(bp.node, false))
		switch {
		case r == litFalse && bp.init == litFalse:
			bp.dead = true // never true
			bp.node = -1
		case r>>1 == bp.node && newID[bp.node] >= 0:
			bp.node = newID[bp.node]
		default:
			bp.node = -1 // constant, or read by no gate
		}
	}
	for i := range nw.pairs {
		mp := &nw.pairs[i]
		if mp.input >= 0 {
			if r := o.find(mkLit(mp.input, false)); r>>1 == mp.input && newID[mp.input] >= 0 {
				mp.input = newID[mp.input]
			} else {
				mp.input = -1
			}
		}
	}
	nw.kind, nw.in, nw.name = kind, in, name
}

// optimise simplifies the network to a fixed point (at most 30 rounds).
func (nw *network) optimise() error {
	nw.budget.phase = "network optimisation"
	nw.budget.figures = func() string { return fmt.Sprintf("%d nodes", len(nw.kind)) }
	nw.budget.size = func() (int, string) { return len(nw.kind), "nodes" }
	o := &optimiser{nw: nw}
	size := func() int {
		n := len(nw.kind)
		for _, ins := range nw.in {
			n += len(ins)
		}
		return n
	}
	// Rounds go on until nothing changes, or three rounds in a row shrink
	// the network by a tenth of a percent or less (the last ones of a large
	// network tend to take one link each, while a round that only
	// restructures may let the next one shrink it a lot).
	last, slow := size(), 0
	for range 30 {
		changed, err := o.round()
		if err != nil {
			return err
		}
		if nw.factor() {
			changed = true
		}
		if nw.impliedByMoves() {
			changed = true
		}
		now := size()
		if last-now <= last/1000 {
			slow++
		} else {
			slow = 0
		}
		if !changed || slow == 3 {
			break
		}
		last = now
	}
	return nil
}

// impliedByMoves drops from an AND gate that reads an input proposition
// does(r, m) the literals that legal(r, m) implies: a joint move is legal
// (GDL defines no next state for an illegal one, and Next refuses it), so
// when does(r, m) holds so do they. A frame rule such as (next (cell ?x ?y
// x)) :- (does xplayer (mark ?x ?y)) (true (cell ?x ?y b)) then reads the
// move alone.
func (nw *network) impliedByMoves() bool {
	// implied[v-1] are the literals implied by input node v, where
	// which[v] = v's index+1 (0: not an input with implications)
	which := make([]int32, len(nw.kind))
	var implied [][]lit
	for _, mp := range nw.pairs {
		if mp.input < 0 {
			continue
		}
		var ls []lit
		switch l := mp.legal; {
		case l == litTrue || l == litFalse:
		case l&1 == 0 && nw.kind[l>>1] == kAnd:
			ls = append(ls, nw.in[l>>1]...)
			ls = append(ls, l)
		default:
			ls = append(ls, l)
		}
		if len(ls) > 0 {
			if which[mp.input] == 0 {
				implied = append(implied, ls)
				which[mp.input] = int32(len(implied))
			} else {
				implied[which[mp.input]-1] = ls
			}
		}
	}
	if len(implied) == 0 {
		return false
	}
	changed := false
	var drop []lit
	for v, ins := range nw.in {
		if nw.kind[v] != kAnd {
			continue
		}
		drop = drop[:0]
		for _, l := range ins {
			if l&1 == 0 && which[l>>1] != 0 {
				drop = append(drop, implied[which[l>>1]-1]...)
			}
		}
		if len(drop) == 0 {
			continue
		}
		out := ins[:0]
		for _, l := range ins {
			if !slices.Contains(drop, l) {
				out = append(out, l)
			}
		}
		if len(out) != len(ins) {
			nw.in[v] = out
			changed = true
		}
	}
	return changed
}

// factor takes a literal shared by several AND gates of an OR out of them:
// OR(AND(a, x..), AND(a, y..), z) = OR(AND(a, OR(AND(x..), AND(y..))), z)
// when nothing else reads the AND gates (when every input shares a, the OR
// itself becomes the AND). The literal shared by the most gates goes first.
// Frame rules such as next(cell m n b) :- true(cell m n b), does(p, mark(j,
// k)), (j, k) is not (m, n) ground to such ORs; factored, the inner ORs of
// different cells often coincide and are merged by the next round, and a
// change of move reaches a few OR counters instead of many AND gates. It
// reports whether it changed anything; the next round simplifies what it
// leaves.
func (nw *network) factor() bool {
	n := len(nw.kind)
	fanout := make([]int32, n)
	for _, ins := range nw.in {
		for _, l := range ins {
			fanout[l>>1]++
		}
	}
	nw.forEachOutput(func(l *lit) { fanout[*l>>1] += 2 })
	var inCycle []bool
	if nw.acyclic {
		inCycle = make([]bool, n)
	} else {
		_, order, start := nw.sccs()
		inCycle = nw.inCycles(order, start)
	}
	// First pass: for each OR, the literal to take out, the gates that
	// share it and the key of the OR they would make.
	type plan struct {
		v     int
		a     lit
		group []lit
		full  bool
		key   string
	}
	var plans []plan
	keys := map[string]int{}
	// count[x] is how many of the candidates read x, for the literals of
	// counted (cleared after each OR)
	count := make([]int32, 2*n)
	var counted []lit
	var cand []lit
	var buf []byte
	for v := 0; v < n; v++ {
		if nw.kind[v] != kOr || inCycle[v] || len(nw.in[v]) < 2 {
			continue
		}
		cand = cand[:0]
		for _, l := range nw.in[v] {
			h := l >> 1
			if l&1 == 0 && nw.kind[h] == kAnd && fanout[h] == 1 && !inCycle[h] {
				cand = append(cand, l)
			}
		}
		if len(cand) < 2 {
			continue
		}
		counted = counted[:0]
		for _, l := range cand {
			for _, x := range nw.in[l>>1] {
				if count[x] == 0 {
					counted = append(counted, x)
				}
				count[x]++
			}
		}
		// the literal most candidates read, the least of equals
		a, best := lit(0), int32(1)
		for _, x := range counted {
			if c := count[x]; c > best || c == best && best > 1 && x < a {
				a, best = x, c
			}
			count[x] = 0
		}
		if best < 2 {
			continue
		}
		pl := plan{v: v, a: a}
		var parts []string
		for _, l := range cand {
			if slices.Contains(nw.in[l>>1], a) {
				pl.group = append(pl.group, l)
				var rest []lit
				for _, x := range nw.in[l>>1] {
					if x != a {
						rest = append(rest, x)
					}
				}
				slices.Sort(rest)
				buf = buf[:0]
				for _, x := range rest {
					buf = strconv.AppendInt(append(buf, ' '), int64(x), 10)
				}
				parts = append(parts, string(buf))
			}
		}
		slices.Sort(parts)
		pl.key = strings.Join(parts, "|")
		pl.full = len(pl.group) == len(nw.in[v])
		keys[pl.key]++
		plans = append(plans, pl)
	}
	// Second pass: factor an OR wholly (it becomes an AND), or in part when
	// another OR would make the same inner OR (they are then merged; a
	// factored part that nothing shares only makes the network deeper).
	changed := false
	for _, pl := range plans {
		if !pl.full && (nw.noPartial || keys[pl.key] < 2) {
			continue
		}
		v, a := pl.v, pl.a
		var rest []lit
		empty := false
		for _, l := range nw.in[v] {
			if !slices.Contains(pl.group, l) {
				rest = append(rest, l)
				continue
			}
			h := l >> 1
			ins := nw.in[h][:0]
			for _, x := range nw.in[h] {
				if x != a {
					ins = append(ins, x)
				}
			}
			nw.in[h] = ins
			empty = empty || len(ins) == 0
		}
		var factored lit
		switch {
		case empty:
			factored = a // a AND (... OR true)
		case len(rest) == 0:
			w := nw.addNode(kOr, pl.group, -1)
			nw.kind[v] = kAnd
			nw.in[v] = []lit{a, mkLit(w, false)}
			changed = true
			continue
		default:
			w := nw.addNode(kOr, pl.group, -1)
			factored = mkLit(nw.addNode(kAnd, []lit{a, mkLit(w, false)}, -1), false)
		}
		nw.in[v] = append(rest, factored)
		changed = true
	}
	return changed
}

// guardMin is the number of legal propositions a literal must be an input
// of to be taken out of them as their guard.
const guardMin = 8

// extractGuards takes out of each legal proposition that is an AND gate
// its input shared by the most legal propositions, when they are at least
// guardMin: the
// move is legal when the guard and the rest hold, and the guard is checked
// when the legal moves are asked for. A literal such as (true (control
// white)) is an input of every legal move of a role; as a guard it is read
// once per question instead of updating thousands of AND counters each
// time it changes.
func (nw *network) extractGuards() {
	// How many legal propositions each literal is an input of.
	shared := map[lit]int{}
	for _, mp := range nw.pairs {
		if g := mp.legal >> 1; mp.legal&1 == 0 && g != 0 && nw.kind[g] == kAnd {
			for _, l := range nw.in[g] {
				shared[l]++
			}
		}
	}
	made := map[string]int32{}
	var key []byte
	for i := range nw.pairs {
		mp := &nw.pairs[i]
		g := mp.legal >> 1
		if mp.legal&1 != 0 || g == 0 || nw.kind[g] != kAnd {
			continue
		}
		best := -1
		for j, l := range nw.in[g] {
			if best < 0 || shared[l] > shared[nw.in[g][best]] {
				best = j
			}
		}
		if shared[nw.in[g][best]] < guardMin {
			continue
		}
		mp.guard = nw.in[g][best]
		rest := make([]lit, 0, len(nw.in[g])-1)
		rest = append(rest, nw.in[g][:best]...)
		rest = append(rest, nw.in[g][best+1:]...)
		switch len(rest) {
		case 0:
			mp.legal = litTrue
			continue
		case 1:
			mp.legal = rest[0]
			continue
		}
		key = key[:0]
		for _, l := range rest {
			key = binary.LittleEndian.AppendUint32(key, uint32(l))
		}
		a, ok := made[string(key)]
		if !ok {
			a = nw.addNode(kAnd, rest, -1)
			made[string(key)] = a
		}
		mp.legal = mkLit(a, false)
	}
	nw.prune()
}

// prune drops unread nodes without simplifying (for the unoptimised network).
func (nw *network) prune() {
	o := &optimiser{nw: nw, repl: make([]lit, len(nw.kind))}
	for i := range o.repl {
		o.repl[i] = mkLit(int32(i), false)
	}
	o.compact()
}

// finish checks the network for negative cycles and constant init values
// and drops the bases that are never true.
func (nw *network) finish() error {
	comp, order, start := nw.sccs()
	for c := range start {
		end := int32(len(order))
		if c+1 < len(start) {
			end = start[c+1]
		}
		members := order[start[c]:end]
		if !nw.cyclic(len(members), members[0]) {
			continue
		}
		for _, v := range members {
			for _, l := range nw.in[v] {
				if l&1 != 0 && comp[l>>1] == int32(c) {
					var names []string
					for i, m := range members {
						if i == 8 {
							names = append(names, "...")
							break
						}
						names = append(names, nw.nodeName(m))
					}
					return &RefusalError{Kind: RefuseCycle, Msg: fmt.Sprintf("the ground network has a cycle through negation (%s reads %s); the rules are not stratified at the ground level: %s", nw.nodeName(v), nw.litName(l), strings.Join(names, ", "))}
				}
			}
		}
	}
	alive := nw.bases[:0]
	for _, bp := range nw.bases {
		if bp.dead {
			continue
		}
		alive = append(alive, bp)
	}
	nw.bases = alive
	return nil
}

// NetStats are the sizes of a network.
type NetStats struct {
	Components  int // nodes + NOT gates + transitions
	Links       int // inputs of gates (a negated one through its NOT gate) + transitions
	And, Or     int
	Not         int // distinct negated nodes (one NOT gate each)
	Constants   int
	Base, Input int
	Views       int // named propositions besides base and input
	Transitions int
}

func (nw *network) stats() NetStats {
	var s NetStats
	negated := map[int32]bool{}
	count := func(l lit) {
		if l&1 != 0 && l != litTrue {
			negated[l>>1] = true
		}
	}
	constUsed := false
	for v, k := range nw.kind {
		switch k {
		case kConst:
		case kBase:
			s.Base++
		case kInput:
			s.Input++
		case kAnd:
			s.And++
		case kOr:
			s.Or++
		}
		if v > 0 && nw.name[v] >= 0 && k != kBase && k != kInput {
			s.Views++
		}
		for _, l := range nw.in[v] {
			s.Links++
			count(l)
			if l>>1 == 0 {
				constUsed = true
			}
		}
	}
	nw.forEachOutput(func(l *lit) {
		count(*l)
		if *l>>1 == 0 {
			constUsed = true
		}
	})
	for _, bp := range nw.bases {
		if !bp.dead {
			s.Transitions++
		}
	}
	if constUsed {
		s.Constants = 1
	}
	s.Not = len(negated)
	s.Links += s.Not + s.Transitions
	s.Components = s.Base + s.Input + s.And + s.Or + s.Not + s.Constants + s.Transitions
	return s
}
