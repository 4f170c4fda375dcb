package propnet

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"
	"unsafe"

	"github.com/gdlperf/gdlperf/engines"
)

// Bit-parallel rollouts (lanes).
//
// On a small network a full pass costs less than 64 differential steps, so
// timed runs can play 64 rollouts at once, one in each bit (lane) of a
// machine word per node: every step evaluates the network's gates once
// over words, lane l's value in bit l. A step is two passes in dependency
// order: the gates that read no move input (terminal, the legal moves and
// what they read), then, once each lane has drawn its moves and set its
// inputs, the gates that do (the next state). A lane whose rollout ends
// reads its goals, and starts the next rollout where it stands: its bits
// of the bases and of the first pass's gates are set to their values in
// the initial state (constants of the program), so no lane waits.
//
// Each rollout draws from its own stream (engines.BatchRoller: rollout r
// from rand.New(rand.NewPCG(seed, r)), each role in order drawing
// legal[rng.IntN(len(legal))] from the moves in the order Legal returns
// them), so a lane plays exactly the rollout the machine's methods play
// with the same stream, whatever lane and step it runs in.

// laneCode is a straight-line program over lane words: per gate its node,
// then len<<1 | or, then its input literals; a cyclic component is one
// entry, -1-k, recomputed to its least fixed point.
type laneCode []int32

// laneProgram is the layout of a program for lanes.
type laneProgram struct {
	pass1, pass2, goal laneCode
	// blend are the nodes a lane starting a rollout takes the initial
	// state's values of: the bases read by gates and the first pass's
	// gates; blendOn says which of them hold there.
	blend     []int32
	blendOn   []bool
	inputs    []int32 // the input nodes, cleared at every step
	moveInput []int32 // per move, its input node or -1
	// byText lists each role's moves sorted by their text: role r's are
	// byText[roleStart[r]:roleStart[r+1]].
	byText    []int32
	maxRole   int // the most moves of one role
	links     int // input literals evaluated per step (both passes)
	gates     int // gates evaluated per step
	goalLinks int // and when a lane's rollout ends
}

// newLaneProgram lays p out for lanes, or returns nil when a lane cannot
// play it: legal, terminal or a goal reads a move input (the game is not
// valid GDL then), or the initial state is terminal.
func newLaneProgram(p *program) *laneProgram {
	if bits.UintSize != 64 {
		return nil // lanePCG draws as math/rand/v2 does on 64-bit machines
	}
	n := p.n
	dep := make([]bool, n) // reads a move input, directly or not
	for v := 1; v < n; v++ {
		switch p.kind[v] {
		case kInput:
			dep[v] = true
		case kAnd, kOr:
			for _, l := range p.ins[p.inStart[v]:p.inStart[v+1]] {
				dep[v] = dep[v] || dep[l>>1]
			}
		}
		// A cyclic component reads an input when any member does.
		if c := p.cyc[v]; c >= 0 && int32(v) == p.cycStart[c]+p.cycLen[c]-1 {
			any := false
			for u := p.cycStart[c]; u <= int32(v); u++ {
				any = any || dep[u]
			}
			for u := p.cycStart[c]; u <= int32(v); u++ {
				dep[u] = any
			}
		}
	}
	if dep[p.terminal>>1] {
		return nil
	}
	for i := range p.pairs {
		if dep[p.legalLit[i]>>1] || dep[p.guardLit[i]>>1] {
			return nil
		}
	}
	for _, gs := range p.goals {
		for _, g := range gs {
			if dep[g.lit>>1] {
				return nil
			}
		}
	}
	lp := &laneProgram{}
	emit := func(code *laneCode, v int32) {
		if c := p.cyc[v]; c >= 0 {
			if v == p.cycStart[c] {
				*code = append(*code, -1-c)
			}
			return
		}
		ins := p.ins[p.inStart[v]:p.inStart[v+1]]
		h := int32(len(ins)) << 1
		if p.kind[v] == kOr {
			h |= 1
		}
		*code = append(*code, v, h)
		*code = append(*code, ins...)
	}
	for v := int32(1); v < int32(n); v++ {
		k := p.kind[v]
		if k == kInput {
			lp.inputs = append(lp.inputs, v)
			continue
		}
		if k != kAnd && k != kOr {
			continue
		}
		links := int(p.inStart[v+1] - p.inStart[v])
		if p.main[v] {
			lp.gates++
			lp.links += links
		}
		switch {
		case !p.main[v]:
			if dep[v] {
				return nil
			}
			emit(&lp.goal, v)
			lp.goalLinks += links
		case dep[v]:
			emit(&lp.pass2, v)
		default:
			emit(&lp.pass1, v)
		}
	}
	// The initial state's values: bases from the initial bits, gates by a
	// full pass (the second pass's are not used: no input is set).
	val := make([]uint8, n)
	for i, node := range p.baseNode {
		if node >= 0 && p.initBits[i/64]>>(i%64)&1 == 1 {
			val[node] = 1
		}
	}
	p.fullPass(val)
	if val[p.terminal>>1]^uint8(p.terminal&1) == 1 {
		return nil // every rollout is over before it starts
	}
	for _, node := range p.baseNode {
		if node >= 0 {
			lp.blend = append(lp.blend, node)
			lp.blendOn = append(lp.blendOn, val[node] == 1)
		}
	}
	for v := int32(1); v < int32(n); v++ {
		if p.main[v] && !dep[v] && (p.kind[v] == kAnd || p.kind[v] == kOr) {
			lp.blend = append(lp.blend, v)
			lp.blendOn = append(lp.blendOn, val[v] == 1)
		}
	}
	for i, mp := range p.pairs {
		lp.moveInput = append(lp.moveInput, mp.input)
		lp.byText = append(lp.byText, int32(i))
	}
	for r := range p.roles {
		moves := lp.byText[p.roleStart[r]:p.roleStart[r+1]]
		sort.Slice(moves, func(a, b int) bool { return p.pairs[moves[a]].text < p.pairs[moves[b]].text })
	}
	for r := range p.roles {
		lp.maxRole = max(lp.maxRole, int(p.roleStart[r+1]-p.roleStart[r]))
	}
	return lp
}

// runLanes evaluates code over the lane words val. It reads without
// bounds checks: the code comes from newLaneProgram, every node in range.
func (p *program) runLanes(val []uint64, code laneCode) {
	vp := unsafe.Pointer(unsafe.SliceData(val))
	pc := unsafe.Pointer(unsafe.SliceData(code))
	end := unsafe.Add(pc, len(code)*4)
	for pc != end {
		t := *(*int32)(pc)
		if t < 0 {
			p.laneComp(val, -1-t)
			pc = unsafe.Add(pc, 4)
			continue
		}
		h := *(*int32)(unsafe.Add(pc, 4))
		in := unsafe.Add(pc, 8)
		pc = unsafe.Add(in, uintptr(h>>1)*4)
		var acc uint64
		if h&1 == 0 {
			acc = ^uint64(0)
			for ; in != pc; in = unsafe.Add(in, 4) {
				l := *(*lit)(in)
				acc &= *(*uint64)(unsafe.Add(vp, uintptr(l>>1)*8)) ^ -uint64(l&1)
			}
		} else {
			for ; in != pc; in = unsafe.Add(in, 4) {
				l := *(*lit)(in)
				acc |= *(*uint64)(unsafe.Add(vp, uintptr(l>>1)*8)) ^ -uint64(l&1)
			}
		}
		*(*uint64)(unsafe.Add(vp, uintptr(t)*8)) = acc
	}
}

// laneComp computes the least fixed point of cyclic component k in every
// lane: from all false, re-evaluate its members until none changes (the
// edges inside a component are positive, so values only grow).
func (p *program) laneComp(val []uint64, k int32) {
	a, b := p.cycStart[k], p.cycStart[k]+p.cycLen[k]
	for v := a; v < b; v++ {
		val[v] = 0
	}
	for changed := true; changed; {
		changed = false
		for v := a; v < b; v++ {
			if w := laneGate(val, p.kind[v] == kAnd, p.ins[p.inStart[v]:p.inStart[v+1]]); w != val[v] {
				val[v] = w
				changed = true
			}
		}
	}
}

// laneGate is an AND or OR gate over the lane words of its inputs: the
// loop runLanes runs with unsafe reads.
func laneGate(val []uint64, and bool, ins []lit) uint64 {
	if and {
		acc := ^uint64(0)
		for _, l := range ins {
			acc &= val[l>>1] ^ -uint64(l&1)
		}
		return acc
	}
	acc := uint64(0)
	for _, l := range ins {
		acc |= val[l>>1] ^ -uint64(l&1)
	}
	return acc
}

// laneWord is literal l's lane word.
func laneWord(val []uint64, l lit) uint64 { return val[l>>1] ^ -uint64(l&1) }

// lanes is the state of a batch of rollouts.
type lanes struct {
	lp     *laneProgram
	val    []uint64 // per node
	base   []uint64 // per base, all of them (the state's text needs those no gate reads)
	next   []uint64 // scratch of the next state
	rng    [64]lanePCG
	roll   [64]int64  // each lane's rollout
	steps  [64]int64  // and its state changes so far
	cnt    [64]int32  // legal moves found per lane
	mask   [64]uint64 // or their bitset, for a role of at most 64 moves
	list   []int32    // lane l's legal moves of the role: list[l*maxRole:]
	goals  []int
	active uint64
	sorted bool // draw from the legal moves sorted by text (laneProgram.rank)
	work   laneWork
}

// Batch implements engines.BatchRoller: the machine plays timed runs in
// lanes when its build chose them.
func (m *Machine) Batch() bool { return m.lanes != nil && m.mode == Fast }

// Rollouts implements engines.BatchRoller: 64 rollouts at once, one per
// lane, rollout r drawing from rand.New(rand.NewPCG(seed, r)).
func (m *Machine) Rollouts(b engines.Batch) (steps int64, err error) {
	lp := m.lanes
	if lp == nil {
		// Asked of a machine whose build did not choose lanes (a test's
		// check): a lane program for this batch only, so the machine's
		// timed runs still play one rollout at a time.
		if lp = newLaneProgram(m.p); lp == nil {
			return 0, errors.New("propnet: this game cannot be played in lanes (its legal moves, terminal or goals read a move, or its initial state is terminal)")
		}
	}
	_, steps, err = m.playLanes(lp, b)
	return steps, err
}

// laneWork counts what a batch did, for laneCost.
type laneWork struct {
	iters, goalRuns, pairs, draws int64
}

// playLanes is Rollouts over lp; it returns the batch's state with its
// work counts.
func (m *Machine) playLanes(lp *laneProgram, b engines.Batch) (L *lanes, steps int64, err error) {
	p := m.p
	seed, n, stop, done := b.Seed, b.N, b.Stop, b.Done
	L = &lanes{
		lp:     lp,
		val:    make([]uint64, p.n),
		base:   make([]uint64, len(p.baseNode)),
		next:   make([]uint64, len(p.baseNode)),
		list:   make([]int32, 64*max(1, lp.maxRole)),
		goals:  make([]int, len(p.roles)),
		sorted: b.Sorted,
	}
	var nr int64 // the next rollout to start
	start := func(l int) bool {
		if n >= 0 && nr >= n {
			L.active &^= 1 << l
			return false
		}
		L.rng[l] = lanePCG{hi: seed, lo: uint64(nr)}
		L.roll[l], L.steps[l] = nr, 0
		L.active |= 1 << l
		nr++
		return true
	}
	for l := range 64 {
		start(l)
	}
	m.laneBlend(L, L.active)
	p.runLanes(L.val, lp.pass1)
	for iter := 0; L.active != 0; iter++ {
		if stop != nil && iter&3 == 3 && stop() {
			return L, steps, nil
		}
		L.work.iters++
		if b.MaxSteps > 0 {
			// As the one-at-a-time loop: a rollout that has made MaxSteps
			// state changes is an error, ended or not.
			for a := L.active; a != 0; a &= a - 1 {
				if L.steps[bits.TrailingZeros64(a)] >= int64(b.MaxSteps) {
					return L, steps, engines.Errorf(engines.ResourceLimit, "a rollout did not end within %d steps", b.MaxSteps)
				}
			}
		}
		if t := laneWord(L.val, p.terminal) & L.active; t != 0 {
			L.work.goalRuns++
			p.runLanes(L.val, lp.goal)
			restart := uint64(0)
			for ; t != 0; t &= t - 1 {
				l := bits.TrailingZeros64(t)
				if err := m.laneGoals(L, l); err != nil {
					return L, steps, err
				}
				done(L.roll[l], L.steps[l], L.goals)
				if start(l) {
					restart |= 1 << l
				}
			}
			m.laneBlend(L, restart)
			if L.active == 0 {
				break
			}
		}
		for _, v := range lp.inputs {
			L.val[v] = 0
		}
		for r := range p.roles {
			if err := m.laneMoves(L, r); err != nil {
				return L, steps, err
			}
		}
		p.runLanes(L.val, lp.pass2)
		for i, l := range p.nextLit {
			L.next[i] = laneWord(L.val, l)
		}
		for i, node := range p.baseNode {
			L.base[i] = L.next[i]
			if node >= 0 {
				L.val[node] = L.next[i]
			}
		}
		for a := L.active; a != 0; a &= a - 1 {
			L.steps[bits.TrailingZeros64(a)]++
		}
		steps += int64(bits.OnesCount64(L.active))
		p.runLanes(L.val, lp.pass1)
	}
	return L, steps, nil
}

// laneBlend sets the lanes of mask to the initial state: the bases and the
// first pass's gates.
func (m *Machine) laneBlend(L *lanes, mask uint64) {
	if mask == 0 {
		return
	}
	p, lp := m.p, L.lp
	for i, v := range lp.blend {
		w := L.val[v] &^ mask
		if lp.blendOn[i] {
			w |= mask
		}
		L.val[v] = w
	}
	for i := range p.baseNode {
		w := L.base[i] &^ mask
		if p.initBits[i/64]>>(i%64)&1 == 1 {
			w |= mask
		}
		L.base[i] = w
	}
}

// laneMoves draws role r's move in every active lane and sets its input:
// the legal moves of each lane are listed in the order Legal returns them
// (the moves of each group whose guard holds, by pair number), as a bitset
// of the role's moves when it has at most 64, else as a list.
func (m *Machine) laneMoves(L *lanes, r int) error {
	p, lp := m.p, L.lp
	lo := p.roleStart[r]
	small := p.roleStart[r+1]-lo <= 64
	if small {
		L.mask = [64]uint64{}
	} else {
		L.cnt = [64]int32{}
	}
	add := func(i, pos int32, w uint64) {
		if small {
			for bit := uint64(1) << (pos - lo); w != 0; w &= w - 1 {
				L.mask[bits.TrailingZeros64(w)&63] |= bit
			}
			return
		}
		for ; w != 0; w &= w - 1 {
			l := bits.TrailingZeros64(w)
			L.list[l*lp.maxRole+int(L.cnt[l])] = i
			L.cnt[l]++
		}
	}
	if L.sorted {
		// By text: the moves in their rank order, each with its guard;
		// a bitset's bit is the move's rank.
		for pos := lo; pos < p.roleStart[r+1]; pos++ {
			i := lp.byText[pos]
			if w := laneWord(L.val, p.guardLit[i]) & L.active & laneWord(L.val, p.legalLit[i]); w != 0 {
				add(i, pos, w)
			}
		}
	} else {
		for _, g := range p.groups[p.groupAt[r]:p.groupAt[r+1]] {
			gw := laneWord(L.val, g.guard) & L.active
			if gw == 0 {
				continue
			}
			for i := g.lo; i < g.hi; i++ {
				if small {
					// Inlined add: the loop of most games.
					for w, bit := gw&laneWord(L.val, p.legalLit[i]), uint64(1)<<(i-lo); w != 0; w &= w - 1 {
						L.mask[bits.TrailingZeros64(w)&63] |= bit
					}
					continue
				}
				add(i, i, gw&laneWord(L.val, p.legalLit[i]))
			}
		}
	}
	L.work.draws += int64(bits.OnesCount64(L.active))
	for a := L.active; a != 0; a &= a - 1 {
		l := bits.TrailingZeros64(a)
		var mv int32
		if small {
			x := L.mask[l]
			if x == 0 {
				return m.laneNoMove(L, r, l)
			}
			c := bits.OnesCount64(x)
			L.work.pairs += int64(c)
			for k := L.rng[l].intN(uint64(c)); k > 0; k-- {
				x &= x - 1
			}
			mv = lo + int32(bits.TrailingZeros64(x))
			if L.sorted {
				mv = lp.byText[mv]
			}
		} else {
			c := L.cnt[l]
			if c == 0 {
				return m.laneNoMove(L, r, l)
			}
			L.work.pairs += int64(c)
			mv = L.list[l*lp.maxRole+int(L.rng[l].intN(uint64(c)))]
		}
		if in := lp.moveInput[mv]; in >= 0 {
			L.val[in] |= 1 << l
		}
	}
	return nil
}

// laneNoMove is the error of role r without a legal move in lane l.
func (m *Machine) laneNoMove(L *lanes, r, l int) error {
	return engines.Errorf(engines.NoLegalMove, "role %s has no legal move in the state %s", m.p.roles[r], m.bitsText(m.laneState(L, l)))
}

// laneGoals reads lane l's goal values into L.goals, as goalsInto does.
func (m *Machine) laneGoals(L *lanes, l int) error {
	p := m.p
	for r, gs := range p.goals {
		n, at := 0, -1
		for i := range gs {
			if laneWord(L.val, gs[i].lit)>>l&1 == 1 {
				n++
				at = i
			}
		}
		if n != 1 {
			var vals []string
			for _, g := range gs {
				if laneWord(L.val, g.lit)>>l&1 == 1 {
					vals = append(vals, g.text)
				}
			}
			return engines.Errorf(engines.GoalCount, "role %s has %d goal values [%s] in the state %s; it needs exactly one", p.roles[r], n, strings.Join(vals, " "), m.bitsText(m.laneState(L, l)))
		}
		if !gs[at].ok {
			return engines.Errorf(engines.GoalValue, "role %s has the goal value %s, which is not an integer", p.roles[r], gs[at].text)
		}
		L.goals[r] = gs[at].value
	}
	return nil
}

// laneState is lane l's state as a bitset.
func (m *Machine) laneState(L *lanes, l int) []uint64 {
	b := make([]uint64, m.words)
	for i, w := range L.base {
		b[i/64] |= (w >> l & 1) << (i % 64)
	}
	return b
}

// lanePCG is math/rand/v2's PCG with its Rand's IntN, as they are on a
// 64-bit machine, without the interface call of a rand.Source: each lane
// draws from its own, and a rollout must draw exactly what
// rand.New(rand.NewPCG(seed, r)).IntN draws (TestLanePCG).
type lanePCG struct{ hi, lo uint64 }

// next advances the state: state = state * mul + inc (128-bit).
func (p *lanePCG) next() (hi, lo uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo = bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	return hi, lo
}

// uint64 is PCG.Uint64: DXSM output of the next state.
func (p *lanePCG) uint64() uint64 {
	hi, lo := p.next()
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// intN is Rand.IntN(n) for n > 0 (uint64n: a power of two masks one draw;
// otherwise Lemire's multiply with rejection). n == 1 draws and returns 0.
func (p *lanePCG) intN(n uint64) uint64 {
	if n&(n-1) == 0 {
		if n == 1 {
			p.next() // the draw's value is not needed
			return 0
		}
		return p.uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(p.uint64(), n)
		}
	}
	return hi
}

// laneFeatures are what a batch did per state change, the terms of its
// estimated cost.
type laneFeatures struct {
	Links, Gates, Pairs, Draws, Blend, Iters float64
}

// The estimate of lanes: laneCost plays a batch for at most laneCostIters
// steps of 64 lanes and about laneCostWork literals, and weighs what it did
// per state change by the time each operation takes, in nanoseconds: a
// literal of a gate evaluated, a gate, a legal move of a lane found, a
// lane's draw, a node of a lane set to the initial state, a step. The
// weights are a least-squares fit (of relative errors) of the CPU time per
// state change in lanes of 250 base games on this project's machines
// (TestLanesSpeed): median error 8.5%, 90th percentile 28%. With them and
// laneMargin, the choice between lanes and one rollout at a time was within
// 2% of the faster of the two (geometric mean over those games).
const (
	laneCostIters = 256
	laneCostWork  = 16_000_000

	laneCostLink  = 0.64
	laneCostGate  = 1.02
	laneCostPair  = 1.05
	laneCostDraw  = 10.6
	laneCostBlend = 1.36
	laneCostIter  = 199
)

// laneCost returns the estimated nanoseconds of a state change of lp's
// batches on m, and what it is estimated from: a count of operations, the
// same in every process. A game error in the batch makes it +Inf.
func laneCost(m *Machine, lp *laneProgram) (float64, laneFeatures) {
	asked := 0
	perAsk := 4 * max(1, lp.links)
	stop := func() bool {
		asked++
		return 4*asked >= laneCostIters || asked*perAsk >= laneCostWork
	}
	L, steps, err := m.playLanes(lp, engines.Batch{Seed: costSeed, N: -1, Stop: stop, Done: func(_, _ int64, _ []int) {}})
	if err != nil || steps == 0 {
		return math.Inf(1), laneFeatures{}
	}
	w, sc := L.work, float64(steps)
	f := laneFeatures{
		Links: float64(w.iters*int64(lp.links)+w.goalRuns*int64(lp.goalLinks)) / sc,
		Gates: float64(w.iters*int64(lp.gates)) / sc,
		Pairs: float64(w.pairs) / sc,
		Draws: float64(w.draws) / sc,
		Blend: float64(w.goalRuns*int64(len(lp.blend)+len(m.p.baseNode))) / sc,
		Iters: float64(w.iters) / sc,
	}
	ns := laneCostLink*f.Links + laneCostGate*f.Gates + laneCostPair*f.Pairs + laneCostDraw*f.Draws + laneCostBlend*f.Blend + laneCostIter*f.Iters
	return ns, f
}

var _ engines.Designed = (*Machine)(nil)

// Design implements engines.Designed: how the machine's timed runs play,
// "lanes" (64 rollouts at once) or "one at a time"; a run's result names it.
func (m *Machine) Design() string {
	if m.Batch() {
		return "lanes"
	}
	return "one at a time"
}

// goalCost returns the estimated nanoseconds per state change that one
// rollout at a time spends on the goals (layoutCost leaves them out: every
// layout has the same goals): costRollouts seeded rollouts of at most
// costSteps state changes in all, the goal-only edges followed at their
// ends weighed as layoutCost weighs an edge, the nodes read from the rest
// as a legal proposition read, and a full pass over the goal-only gates (when
// they are not kept differentially) by its literals.
func goalCost(m *Machine) float64 {
	p := m.p
	if len(p.goalOnly) == 0 {
		return 0
	}
	links := 0
	for _, v := range p.goalOnly {
		links += int(p.inStart[v+1] - p.inStart[v])
	}
	goals := make([]int, len(p.roles))
	var steps, ends int64
	work0 := m.goalWork
	for r := uint64(0); r < costRollouts && steps < costSteps; r++ {
		asked := int64(0)
		n, stopped, err := m.Rollout(rand.New(rand.NewPCG(costSeed, r)), func() bool {
			asked++
			return steps+64*asked >= costSteps
		}, goals)
		steps += n
		if err != nil || stopped {
			break
		}
		ends++
	}
	ns := costEdge*float64(m.goalWork-work0) + costRead*float64(ends*int64(len(p.goalSrc)))
	if !p.incGoals {
		ns = costEdge * float64(ends*int64(links))
	}
	return ns / float64(max(steps, 1))
}
