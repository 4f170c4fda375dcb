package compiled

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled/rt"
	"github.com/gdlperf/gdlperf/engines/fixedfluent"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Budgets of the generated program: a game beyond them is refused with a
// resource-limit error rather than handed to the compiler.
const (
	maxSourceBytes = 8 << 20 // generated Go source
	// the magic-sets design's source: a copy per call site makes it
	// larger, and a build takes about 6 s per MB
	maxMagicSourceBytes = 3 << 20
	maxPlans            = 20_000   // compiled rule bodies (one per rule, more in recursion)
	maxDataBytes        = 64 << 20 // names, ground terms and facts
	maxFileBytes        = 512 << 10
	maxCallsPerFn       = 200
	// smallRel: relations expected to be this small are scanned, not
	// indexed
	smallRel = 12
)

// fkey is a function symbol with its arity.
type fkey struct {
	name  gdl.Symbol
	arity int
}

// grel is a relation of the generated program.
type grel struct {
	id    int
	width int
	scope uint8
	sym   gdl.Symbol // NoSymbol for true$f relations
	ixs   [][]int    // indexed column sets
	// estimates for join orders
	facts int
	dist  []map[int32]bool
	est   float64
}

func (r *grel) index(cols []int) int {
	for i, c := range r.ixs {
		if fmt.Sprint(c) == fmt.Sprint(cols) {
			return i
		}
	}
	r.ixs = append(r.ixs, append([]int(nil), cols...))
	return len(r.ixs) - 1
}

type gunit struct {
	id     int
	scope  uint8
	rels   []*grel
	syms   []gdl.Symbol
	groups []*ggroup
	// guard: the clauses of rt.Unit.Guard (emptyGuard), nil for none
	guard []string
}

type ggroup struct {
	recursive bool
	heads     []*grel
	base      []string // plan functions
	deltas    []deltaPlan
}

type deltaPlan struct {
	rel *grel
	fn  string
}

type generator struct {
	pkg       string // the Go package, a folder of the program
	maxSource int    // budget of the generated source, in bytes
	g         *gdl.Game
	nameID    map[gdl.Symbol]int32
	names     []string
	fkID      map[fkey]int32
	fks       []fkey
	ground    map[string]int32
	groundL   [][]int32 // fk then args
	rels      map[gdl.Symbol]*grel
	relList   []*grel
	trueRel   map[int32]*grel
	does      *grel
	units     []*gunit
	unitOf    map[gdl.Symbol]*gunit
	roles     []int32
	facts     []int32 // rel id then values
	nfacts    int
	plans     int
	// init facts per functor, for estimates of true$f relations
	initCount map[int32]int
	initDist  map[int32][]map[int32]bool

	sizeLim sizeLimits
	sizes   *sizer
	// auxiliary columns of static relations: per (relation, term), the
	// term's id for each row, computed once after the static units
	aux     map[string]string
	auxCode strings.Builder
	auxFns  []string
	// memos: the rules' places that keep the terms they build by their
	// sources (emitter.memo), true for those with two keys (rt.Memo2)
	memos []bool
	// curStatic is set while the rules of a static unit are compiled:
	// they run before the auxiliary columns exist
	curStatic bool
	// growing: while the delta plans of a recursive group are compiled,
	// its heads, which grow round after round (cost)
	growing map[*grel]bool
	// inc: the incremental design, whose relations that depend on the
	// state but not on the moves are counted (rt.CRel, gen.counted);
	// incUnits its units
	inc      bool
	incUnits map[*gunit]*incUnit
	// plainRel: the relations of the incremental design's recursive
	// units that depend on the state, and of those that read a volatile
	// fact, computed as bottom-up does
	plainRel map[*grel]bool
	// volatile: the incremental design's functors of facts that no rule
	// keeps from one state to the next (volatileFunctors)
	volatile map[fkey]bool
	// prefixes: the static relations made of rules' static prefixes
	prefixes map[string]gdl.Symbol
	code     strings.Builder // plan and unit functions
	err      error
}

// generated is the output of the generator: Go files and the data blob,
// by path in the program's module.
type generated struct {
	files map[string][]byte
	stats string
	sizes []sizeRun // the sizer's runs, one per design
}

// The designs of a program, with their packages.
var designs = []struct{ pkg, name string }{
	{"bu", rt.DesignBottomUp},
	{"ms", rt.DesignMagic},
	{"mp", rt.DesignMagicSites},
	{"md", rt.DesignMagicDemand},
	{"in", rt.DesignIncremental},
}

// maxSitesSourceBytes bounds the source of the design with magic sets'
// copies per call site beside the shared ones (a build takes about 6 s
// per MB): where it is larger, the shared copies are the magic design.
const maxSitesSourceBytes = 384 << 10

// generate writes the Go program for g: one package per design that can be
// generated (bottom-up, from the rules as they are; magic sets, from the
// rules rewritten by gdl.MagicSetsShared; magic sets per call site, by
// gdl.MagicSets, where it differs and is small), each with its own data,
// and a main package that chooses between them at start-up
// (rt.MainChoose). When no design can be generated, the error is
// bottom-up's. version and rulesSHA are baked in.
func generate(g *gdl.Game, version, rulesSHA string) (*generated, error) {
	return generateWithin(g, defaultSizeLimits, version, rulesSHA)
}

// generateWithin is generate with the size estimates bounded by lim.
func generateWithin(g *gdl.Game, lim sizeLimits, version, rulesSHA string) (*generated, error) {
	g = unfoldHelpers(readFixedFluents(g))
	genBU := newGenerator(g, designs[0].pkg, maxSourceBytes, lim)
	bu, errBU := genBU.run(version, rulesSHA)
	ms, mp, errMS, errMP := generateMagic(g, lim, version, rulesSHA)
	// Where bottom-up's sizer computed every static relation within its
	// budget, none is large; otherwise a fallback design may ask the large
	// ones on demand.
	var md *generated
	var errMD error
	if bu == nil || len(bu.sizes) == 0 || !bu.sizes[0].statics {
		md, errMD = generateOnDemand(g, lim, version, rulesSHA)
	}
	in, errIn := generateIncremental(g, genBU.sizes, lim, version, rulesSHA)
	if bu == nil && ms == nil && mp == nil && md == nil && in == nil {
		return nil, errBU
	}
	errs := []error{errBU, errMS, errMP, errMD, errIn}
	out := &generated{files: map[string][]byte{}}
	var m strings.Builder
	m.WriteString("// Code generated by gdlperf's compiled prover. DO NOT EDIT.\n\npackage main\n\nimport (\n")
	var calls, stats []string
	for i, d := range []*generated{bu, ms, mp, md, in} {
		if d == nil && errs[i] == nil {
			continue // no large static relation: no fallback design
		}
		if d == nil {
			stats = append(stats, designs[i].name+": left out: "+errs[i].Error())
			continue
		}
		for name, b := range d.files {
			out.files[name] = b
		}
		out.sizes = append(out.sizes, d.sizes...)
		fmt.Fprintf(&m, "\t\"gdlprog/%s\"\n", designs[i].pkg)
		fallback := ""
		if d == md {
			fallback = ", Fallback: true"
		}
		calls = append(calls, fmt.Sprintf("rt.Design{Name: %s, Setup: %s.Setup%s}", strconv.Quote(designs[i].name), designs[i].pkg, fallback))
		stats = append(stats, designs[i].name+": "+d.stats)
	}
	m.WriteString("\t\"gdlprog/rt\"\n)\n\nfunc main() {\n\trt.MainChoose(" + strings.Join(calls, ", ") + ")\n}\n")
	out.files["main.go"] = []byte(m.String())
	out.stats = strings.Join(stats, "\n")
	return out, nil
}

// readFixedFluents returns g with its rules rewritten by
// fixedfluent.Rewrite, or g itself when no state term is fixed: both
// designs then compute once, as static relations, what depends only on the
// fixed terms (wargame's walls made every step's blocked paths and
// pursuit steps a per-state relation, 5-7x slower than the prover).
func readFixedFluents(g *gdl.Game) *gdl.Game {
	rules := fixedfluent.Rewrite(g.Rules)
	if rules == nil {
		return g
	}
	g2 := *g
	g2.Rules = rules
	g2.Analysis = gdl.Analyse(rules)
	return &g2
}

// generateMagic generates the magic-sets designs: the rules rewritten with
// gdl.MagicSetsShared (one copy of a relation per binding pattern)
// and with gdl.MagicSets (a copy per call site), the static
// relations kept whole (computed once, as bottom-up computes them). A
// rewriting that closes a cycle through a negation is done again with the
// relation negated computed whole, as the tuple prover does; when that
// does not end with shared copies (generateShared), the copies per call
// site, where negations close fewer cycles, or the shared copies with
// negations left out of their magic relations' rules, are the magic
// design (package ms) and there is no third.
// Otherwise the copies per call site are the third design (package mp)
// where they are other rules than the shared ones and their source is
// under maxSitesSourceBytes; the warm-up chooses. A game that the
// rewriting leaves as it is (no relation is asked with bound arguments)
// has no magic-sets design.
//
// Copies per call site multiply with the depth of the calls: on blobwars
// they made 22,716 rules (no design: over the size limit), on crissrace
// and Dresden's chinesecheckers4 2.5-2.9 MB of source (a 35 s cold build)
// running at 0.9x and 1.6x the prover; shared copies make 378, 381 and 309
// rules running at 4.3x, 5.0x and 3.4x the prover. But each call site's
// copy computes only its own demand: on connectFourLarger the copies per
// call site run 1.3x faster than the shared ones (91 KB of source).
func generateMagic(g *gdl.Game, lim sizeLimits, version, rulesSHA string) (ms, mp *generated, errMS, errMP error) {
	keep := staticsBut(g, nil)
	ms, sharedRules, kind, errSites, errMS := generateShared(g, keep, designs[1].pkg, lim, version, rulesSHA)
	switch {
	case kind == perSite:
		return ms, nil, errMS, errors.New("the magic-sets design has copies per call site")
	case kind == loose:
		return ms, nil, errMS, errSites
	case ms == nil:
		return nil, nil, errMS, errors.New("no magic-sets design")
	}
	mp, sites, errMP := generateMagicWith(perSiteCopies, false, g, keep, designs[2].pkg, maxSitesSourceBytes, lim, version, rulesSHA)
	if mp != nil && sites == sharedRules {
		return ms, nil, nil, fmt.Errorf("the same %d rules as the shared copies", sites)
	}
	return ms, mp, errMS, errMP
}

// staticsBut returns the static relations of g but those of large: the
// relations a magic-sets design computes whole.
func staticsBut(g *gdl.Game, large map[gdl.Symbol]bool) map[gdl.Symbol]bool {
	keep := map[gdl.Symbol]bool{}
	for name, r := range g.Analysis.Relations {
		if !r.UsesState && !r.UsesMoves && name != gdl.SymTrue && name != gdl.SymDoes && !large[name] {
			keep[name] = true
		}
	}
	return keep
}

// generateOnDemand generates the fallback design (package md): magic sets'
// shared copies (or the copies per call site, where a negation closes a
// cycle through a shared one), with the static relations too large to
// compute whole (largeStatics) asked on demand as the others. It is
// loaded only when no other design loads: laikLee_hex's isList (every list
// of up to 25 of 25 elements) and sudoku's exactlyFirst are past the
// program's limits computed whole, but a top-down reader asks them about
// one list, one row. Where a large relation can be computed whole all the
// same, the other designs keep doing it (mummymaze1p's direction-from:
// bottom-up runs 1.36x faster with it whole than magic sets with it on
// demand, which the warm-up's work count would have chosen). The result
// is nil, with a nil error, when no static relation is large.
func generateOnDemand(g *gdl.Game, lim sizeLimits, version, rulesSHA string) (*generated, error) {
	large := largeStatics(g, largeBudget)
	if len(large) == 0 {
		return nil, nil
	}
	md, _, _, _, err := generateShared(g, staticsBut(g, large), designs[3].pkg, lim, version, rulesSHA)
	return md, err
}

// generateShared generates a magic-sets design in package pkg with the
// relations of keep computed whole: magic sets' shared copies, or, where a
// negation closes a cycle through a shared one, the copies per call site
// (kind perSite), or, where those cannot be made (errSites says why), the
// shared copies with the negations that close cycles left out of the
// magic relations' rules (kind loose; err is theirs). rules is the number
// of rewritten rules of the shared copies.
//
// Leaving a negation out makes a magic relation larger: where computing
// the relation negated whole does as well, it runs faster (amazons 1.6x,
// speedChess 1.3x, crisscross 1.4x). Slaughter's shared copies close a
// cycle through (not (threatened_with_capture ...)) whole, its copies per
// call site make 7,320 rules (past the source limit) and bottom-up plays
// a state a second: with the negation left out, 3.6x the prover.
func generateShared(g *gdl.Game, keep map[gdl.Symbol]bool, pkg string, lim sizeLimits, version, rulesSHA string) (d *generated, rules int, kind copies, errSites, err error) {
	d, rules, err = generateMagicWith(gdl.MagicSetsShared, false, g, keep, pkg, maxMagicSourceBytes, lim, version, rulesSHA)
	if !errors.Is(err, errNegationInRecursion) {
		return d, rules, shared, nil, err
	}
	d, _, errSites = generateMagicWith(perSiteCopies, false, g, keep, pkg, maxMagicSourceBytes, lim, version, rulesSHA)
	if d != nil {
		return d, 0, perSite, nil, nil
	}
	d, rules, err = generateMagicWith(gdl.MagicSetsShared, true, g, keep, pkg, maxMagicSourceBytes, lim, version, rulesSHA)
	return d, rules, loose, errSites, err
}

// copies says which magic-sets copies a design has.
type copies int

const (
	shared  copies = iota // one per binding pattern
	perSite               // one per call site
	loose                 // shared, negations left out of magic rules
)

// errNegationInRecursion: the rewritten rules still negate a relation of
// their own recursion after every relation so negated is computed whole.
var errNegationInRecursion = engines.Errorf(engines.UnsupportedErr, "magic sets: negation inside recursion")

// generateMagicWith generates a magic-sets design in package pkg with the
// rules rewritten by rewrite, the relations of keep computed whole, and
// returns the number of rewritten rules. A rewriting that closes a cycle
// through a negation is done again with the relation negated computed
// whole; with loosen, where a magic relation's rule reads the negation,
// first with that negation left out of the magic relations' rules (a
// larger demand, the same answers).
func generateMagicWith(rewrite magicRewrite, loosen bool, g *gdl.Game, keep map[gdl.Symbol]bool, pkg string, maxSource int, lim sizeLimits, version, rulesSHA string) (*generated, int, error) {
	whole := map[gdl.Symbol]bool{}
	loose := map[gdl.Symbol]bool{}
	for range 40 {
		g2, orig := rewrite(g, keep, whole, loose)
		if g2 == nil {
			return nil, 0, engines.Errorf(engines.ResourceLimit, "the rewritten game has over %d rules", gdl.MaxMagicRules)
		}
		changed := false
		for c, o := range orig {
			if c != o {
				changed = true
				break
			}
		}
		if !changed {
			return nil, 0, engines.Errorf(engines.UnsupportedErr, "magic sets leave the game as it is")
		}
		out, err := generateDesign(g2, pkg, maxSource, lim, version, rulesSHA)
		var ce *cycleError
		if !errors.As(err, &ce) || orig[ce.negated] == gdl.NoSymbol {
			return out, len(g2.Rules), err
		}
		negated := orig[ce.negated]
		switch {
		case loosen && gdl.IsMagic(ce.rule.Head.Name) && !loose[negated] && !whole[negated]:
			loose[negated] = true
		case whole[negated]:
			// say which relation: the cycle error names it
			return nil, 0, fmt.Errorf("%w: %v", errNegationInRecursion, err)
		default:
			whole[negated] = true
		}
	}
	return nil, 0, errNegationInRecursion
}

// magicRewrite rewrites a game with magic sets: the relations of keep and
// whole computed whole, the negations of loose left out of the magic
// relations' rules (gdl.MagicSetsShared).
type magicRewrite func(g *gdl.Game, keep, whole, loose map[gdl.Symbol]bool) (*gdl.Game, map[gdl.Symbol]gdl.Symbol)

// perSiteCopies is gdl.MagicSets as a magicRewrite: the copies per call
// site are never loosened.
func perSiteCopies(g *gdl.Game, keep, whole, _ map[gdl.Symbol]bool) (*gdl.Game, map[gdl.Symbol]gdl.Symbol) {
	return gdl.MagicSets(g, keep, whole)
}

// cycleError is the unsupported-game error of a rule that negates a
// sentence of its own recursion; negated names the relation.
type cycleError struct {
	*engines.GameError
	rule    *gdl.Rule
	negated gdl.Symbol
}

func (e *cycleError) Unwrap() error { return e.GameError }

// generateDesign writes the package pkg of the program for g.
func generateDesign(g *gdl.Game, pkg string, maxSource int, lim sizeLimits, version, rulesSHA string) (*generated, error) {
	return newGenerator(g, pkg, maxSource, lim).run(version, rulesSHA)
}

// newGenerator returns a generator of the package pkg for g.
func newGenerator(g *gdl.Game, pkg string, maxSource int, lim sizeLimits) *generator {
	return &generator{
		pkg:       pkg,
		maxSource: maxSource,
		sizeLim:   lim,
		g:         g,
		nameID:    map[gdl.Symbol]int32{},
		fkID:      map[fkey]int32{},
		ground:    map[string]int32{},
		rels:      map[gdl.Symbol]*grel{},
		trueRel:   map[int32]*grel{},
		unitOf:    map[gdl.Symbol]*gunit{},
		initCount: map[int32]int{},
		initDist:  map[int32][]map[int32]bool{},
		aux:       map[string]string{},
		prefixes:  map[string]gdl.Symbol{},
		incUnits:  map[*gunit]*incUnit{},
		plainRel:  map[*grel]bool{},
	}
}

// counted reports whether relation r is counted (rt.CRel): in the
// incremental design, a relation that depends on the state but not on the
// moves, computed by a non-recursive unit, or the true facts of a
// functor.
func (gen *generator) counted(r *grel) bool {
	return gen.inc && r.scope == rtPerState && !gen.plainRel[r]
}

func (gen *generator) collectNames(t *gdl.Term) {
	if t.Kind == gdl.Var {
		return
	}
	if _, ok := gen.nameID[t.Name]; !ok {
		gen.nameID[t.Name] = int32(len(gen.names))
		gen.names = append(gen.names, t.Name.Name())
	}
	for _, a := range t.Args {
		gen.collectNames(a)
	}
}

func (gen *generator) functor(name gdl.Symbol, arity int) int32 {
	k := fkey{name, arity}
	if id, ok := gen.fkID[k]; ok {
		return id
	}
	gen.fks = append(gen.fks, k)
	id := int32(len(gen.fks))
	gen.fkID[k] = id
	return id
}

// termID returns the id of a ground term: constants are numbered first,
// then function terms in the order they are first met, which is the order
// the program interns them in at start-up.
func (gen *generator) termID(t *gdl.Term) int32 {
	if t.Kind == gdl.Const || len(t.Args) == 0 {
		return gen.nameID[t.Name]
	}
	fk := gen.functor(t.Name, len(t.Args))
	ids := make([]int32, 0, len(t.Args)+1)
	ids = append(ids, fk)
	for _, a := range t.Args {
		ids = append(ids, gen.termID(a))
	}
	key := fmt.Sprint(ids)
	if id, ok := gen.ground[key]; ok {
		return id
	}
	id := int32(len(gen.names) + len(gen.groundL))
	gen.ground[key] = id
	gen.groundL = append(gen.groundL, ids)
	return id
}

func (gen *generator) newRel(width int, scope uint8, sym gdl.Symbol) *grel {
	r := &grel{id: len(gen.relList), width: width, scope: scope, sym: sym, est: -1}
	r.dist = make([]map[int32]bool, width)
	for i := range r.dist {
		r.dist[i] = map[int32]bool{}
	}
	gen.relList = append(gen.relList, r)
	return r
}

func (gen *generator) trueRelation(fk int32) *grel {
	r := gen.trueRel[fk]
	if r == nil {
		r = gen.newRel(gen.fks[fk-1].arity+1, rtPerState, gdl.NoSymbol)
		gen.trueRel[fk] = r
	}
	return r
}

// Scopes, as rt.Static, rt.PerState and rt.PerMove.
const (
	rtStatic uint8 = iota
	rtPerState
	rtPerMove
)

// run generates the design's package in phases: the names and roles are
// interned, the relations declared, the facts loaded with the size
// estimates, the units compiled, and the program written.
func (gen *generator) run(version, rulesSHA string) (*generated, error) {
	gen.internNames()
	if err := gen.declareRelations(); err != nil {
		return nil, err
	}
	gen.loadFacts()
	if gen.sizes == nil {
		gen.sizes = measureSizesWithin(gen.g, gen.sizeLim)
	}
	if err := gen.compileUnits(); err != nil {
		return nil, err
	}
	gen.code.WriteString(gen.auxCode.String())
	gen.emitCalls("initAux", gen.auxFns)
	out, err := gen.emitProgram(version, rulesSHA)
	if out != nil {
		out.sizes = []sizeRun{gen.sizes.run}
		if r := gen.sizes.run; !r.tuple {
			out.stats += fmt.Sprintf(", sizes by the naive evaluation over %d states (the tuple prover's measure failed)", r.states)
		}
		switch r := gen.sizes.run; {
		case r.timedOut && r.tuple:
			out.stats += fmt.Sprintf(", the tuple prover's size estimates cut by the time cap of %s (the program depends on the machine's speed)", gen.sizeLim.timeCap)
		case r.timedOut:
			out.stats += fmt.Sprintf(", size estimates cut by the time cap of %s after %d units of work (the program depends on the machine's speed)", gen.sizeLim.timeCap, r.work)
		}
	}
	return out, err
}

// internNames numbers every name of the rules and the roles (constants
// first, in the order they are met) and interns the roles' terms.
func (gen *generator) internNames() {
	g := gen.g
	for _, r := range g.Rules {
		gen.collectNames(r.Head)
		for _, l := range r.Body {
			for _, t := range []*gdl.Term{l.Atom, l.Left, l.Right} {
				if t != nil {
					gen.collectNames(t)
				}
			}
		}
	}
	for _, r := range g.Roles {
		gen.collectNames(r)
	}
	for _, role := range g.Roles {
		gen.roles = append(gen.roles, gen.termID(role))
	}
}

// declareRelations makes a relation for every relation of the game, by
// SCC (dependencies first), with its scope (static, per state, per joint
// move), and the question relations the game lacks as empty static ones;
// it refuses a relation of over 64 arguments and a question relation of
// the wrong arity.
func (gen *generator) declareRelations() error {
	a := gen.g.Analysis
	for _, name := range a.Order {
		r := a.Relations[name]
		sc := rtStatic
		switch {
		case r.UsesMoves:
			sc = rtPerMove
		case r.UsesState:
			sc = rtPerState
		}
		switch name {
		case gdl.SymTrue:
			continue
		case gdl.SymDoes:
			gen.does = gen.newRel(2, rtPerMove, name)
			gen.rels[name] = gen.does
			continue
		}
		if r.Arity > 64 {
			return engines.Errorf(engines.UnsupportedErr, "the relation %s has %d arguments; the compiled prover takes at most 64", name.Name(), r.Arity)
		}
		gen.rels[name] = gen.newRel(r.Arity, sc, name)
	}
	if gen.does == nil {
		gen.does = gen.newRel(2, rtPerMove, gdl.SymDoes)
		gen.rels[gdl.SymDoes] = gen.does
	}
	for _, k := range []struct {
		s gdl.Symbol
		w int
	}{{gdl.SymInit, 1}, {gdl.SymTerminal, 0}, {gdl.SymLegal, 2}, {gdl.SymNext, 1}, {gdl.SymGoal, 2}} {
		r := gen.rels[k.s]
		if r == nil {
			r = gen.newRel(k.w, rtStatic, k.s)
			gen.rels[k.s] = r
		}
		if r.width != k.w {
			return engines.Errorf(engines.UnsupportedErr, "%s has %d arguments, not %d", k.s.Name(), r.width, k.w)
		}
	}
	gen.rels[gdl.SymLegal].index([]int{0})
	gen.rels[gdl.SymGoal].index([]int{0})
	return nil
}

// loadFacts writes the ground facts of the rules as the data of their
// relations and gathers the estimates they give: distinct values per
// column, the init facts per functor (for the true$f relations), and the
// exact size of a relation defined by facts only.
func (gen *generator) loadFacts() {
	g := gen.g
	for _, r := range g.Rules {
		if len(r.Body) > 0 {
			continue
		}
		rel := gen.rels[r.Head.Name]
		if rel == nil || r.Head.Name == gdl.SymDoes || !r.Head.IsGround() {
			continue
		}
		gen.facts = append(gen.facts, int32(rel.id))
		gen.nfacts++
		rel.facts++
		for i, arg := range r.Head.Args {
			id := gen.termID(arg)
			gen.facts = append(gen.facts, id)
			rel.dist[i][id] = true
		}
		if r.Head.Name == gdl.SymInit && r.Head.Args[0].Kind == gdl.Func {
			x := r.Head.Args[0]
			fk := gen.functor(x.Name, len(x.Args))
			gen.initCount[fk]++
			if gen.initDist[fk] == nil {
				gen.initDist[fk] = make([]map[int32]bool, len(x.Args))
				for i := range x.Args {
					gen.initDist[fk][i] = map[int32]bool{}
				}
			}
			for i, y := range x.Args {
				gen.initDist[fk][i][gen.termID(y)] = true
			}
		}
	}
	for _, rel := range gen.relList {
		if rel.sym == gdl.NoSymbol || rel == gen.does {
			continue
		}
		ar := g.Analysis.Relations[rel.sym]
		onlyFacts := true
		if ar != nil {
			for _, r := range ar.Rules {
				if len(r.Body) > 0 {
					onlyFacts = false
				}
			}
		}
		if onlyFacts {
			rel.est = float64(rel.facts)
		}
	}
}

// compileUnits compiles the rules of each strongly connected component
// (dependencies first) as a unit, within the budgets of rule bodies and
// source bytes, and adds an empty static unit for each question relation
// that no rule defines.
func (gen *generator) compileUnits() error {
	g := gen.g
	a := g.Analysis
	for _, comp := range a.Components() {
		u := &gunit{id: len(gen.units)}
		var rules []*gdl.Rule
		for _, name := range comp {
			if name == gdl.SymTrue || name == gdl.SymDoes {
				continue
			}
			r := gen.rels[name]
			u.rels = append(u.rels, r)
			u.syms = append(u.syms, name)
			u.scope = max(u.scope, r.scope)
			gen.unitOf[name] = u
			for _, rule := range a.Relations[name].Rules {
				if len(rule.Body) > 0 {
					rules = append(rules, rule)
				}
			}
		}
		if len(u.rels) == 0 {
			continue
		}
		gen.units = append(gen.units, u)
		if err := gen.compileUnit(u, rules); err != nil {
			return err
		}
		if gen.plans > maxPlans {
			return engines.Errorf(engines.ResourceLimit, "the game compiles to more than %d rule bodies (%d rules)", maxPlans, len(g.Rules))
		}
		if gen.code.Len() > gen.maxSource {
			return engines.Errorf(engines.ResourceLimit, "the game's generated source is over %d bytes (%d rules)", gen.maxSource, len(g.Rules))
		}
	}
	for _, name := range []gdl.Symbol{gdl.SymInit, gdl.SymTerminal, gdl.SymLegal, gdl.SymNext, gdl.SymGoal} {
		if gen.unitOf[name] == nil {
			u := &gunit{id: len(gen.units), scope: rtStatic, rels: []*grel{gen.rels[name]}, syms: []gdl.Symbol{name}}
			gen.units = append(gen.units, u)
			gen.unitOf[name] = u
			fmt.Fprintf(&gen.code, "func u%d() {}\n\n", u.id)
		}
	}
	return nil
}

// closure lists the non-static units that root depends on, in order.
func (gen *generator) closure(root gdl.Symbol) []*gunit {
	a := gen.g.Analysis
	seen := map[*gunit]bool{}
	var visit func(name gdl.Symbol)
	visit = func(name gdl.Symbol) {
		u := gen.unitOf[name]
		if u == nil || seen[u] {
			return
		}
		seen[u] = true
		for _, s := range u.syms {
			if ar := a.Relations[s]; ar != nil {
				for _, d := range ar.Deps {
					visit(d.Name)
				}
			}
		}
	}
	visit(root)
	var out []*gunit
	for u := range seen {
		if u.scope != rtStatic {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (gen *generator) compileUnit(u *gunit, rules []*gdl.Rule) error {
	inSet := map[gdl.Symbol]bool{}
	for _, s := range u.syms {
		inSet[s] = true
	}
	groups, rec, err := gdl.RuleGroups(rules, inSet)
	if ce := (*gdl.RuleCycleError)(nil); errors.As(err, &ce) {
		return &cycleError{GameError: engines.Errorf(engines.UnsupportedErr, "%s", err), rule: ce.Rule, negated: ce.Negated}
	}
	if err != nil {
		return engines.Errorf(engines.UnsupportedErr, "%s", err)
	}
	gen.curStatic = u.scope == rtStatic
	if gen.inc && u.scope == rtPerState && !slices.Contains(rec, true) && !readsItself(rules, inSet) && !gen.plainVolatile(u, rules) {
		return gen.compileUnitInc(u, groups)
	}
	if gen.inc && u.scope != rtStatic {
		gen.plainUnit(u, rules)
	}
	for gi, rs := range groups {
		gg := &ggroup{recursive: rec[gi]}
		heads := map[*grel]bool{}
		for _, r := range rs {
			h := gen.rels[r.Head.Name]
			if !heads[h] {
				heads[h] = true
				gg.heads = append(gg.heads, h)
			}
		}
		for _, r := range rs {
			if !gg.recursive || !gen.readsEmptyHead(r, heads) {
				fn, err := gen.compileRule(r, -1)
				if err != nil {
					return err
				}
				gg.base = append(gg.base, fn)
			}
			if gg.recursive {
				for i, l := range r.Body {
					if l.Kind == gdl.LitAtom && l.Atom.Name != gdl.SymTrue && heads[gen.rels[l.Atom.Name]] {
						gen.growing = heads
						fn, err := gen.compileRule(r, i)
						gen.growing = nil
						if err != nil {
							return err
						}
						gg.deltas = append(gg.deltas, deltaPlan{gen.rels[l.Atom.Name], fn})
					}
				}
			}
		}
		u.groups = append(u.groups, gg)
	}
	if !gen.inc {
		u.guard = gen.emptyGuard(u, rules)
	}
	gen.emitUnit(u)
	return nil
}

// readsEmptyHead reports whether rule r reads a relation of heads (a
// recursive group's) that has no facts: the group's first, naive round
// starts with it empty, so r has no plan in that round. The rows the round
// adds to it are the first semi-naive round's delta, which r's delta
// plans read (ruledepthquadratic's magic design ran 360 such plans a
// state, each finding its magic relation empty).
func (gen *generator) readsEmptyHead(r *gdl.Rule, heads map[*grel]bool) bool {
	for _, l := range r.Body {
		if l.Kind == gdl.LitAtom && l.Atom.Name != gdl.SymTrue {
			if h := gen.rels[l.Atom.Name]; heads[h] && h.facts == 0 {
				return true
			}
		}
	}
	return false
}

// readsItself reports whether a rule reads a relation of its own unit (a
// unit whose rule groups are stratified by their heads' arguments, as
// (goal ?r 0) defined by (not (goal ?r 100))).
func readsItself(rules []*gdl.Rule, in map[gdl.Symbol]bool) bool {
	for _, r := range rules {
		for _, l := range r.Body {
			if l.Kind != gdl.LitDistinct && in[l.Atom.Name] {
				return true
			}
		}
	}
	return false
}

// maxGuardLits bounds the relations of a rule that an empty guard tests.
const maxGuardLits = 2

// emptyGuard returns the guard of unit u (rt.Unit.Guard) as Go clauses,
// or nil when it has none: every rule has a positive literal over a
// relation of another unit that is empty, or reads a relation of u itself
// (which starts empty: no base facts), so no rule can ever fire. A rule's
// clause lists at most maxGuardLits relations that are not static (a
// static relation is seldom empty), and the same clause of two rules is
// written once. Magic sets makes many units whose magic relation is
// empty in most states; the guard skips them without calling their rules.
func (gen *generator) emptyGuard(u *gunit, rules []*gdl.Rule) []string {
	in := map[*grel]bool{}
	for _, r := range u.rels {
		if r.facts > 0 {
			return nil
		}
		in[r] = true
	}
	clauses := []string{}
	have := map[string]bool{}
	for _, r := range rules {
		internal := false
		var alts []string
		seen := map[*grel]bool{}
		for _, l := range r.Body {
			if l.Kind != gdl.LitAtom {
				continue
			}
			rel, _ := gen.litRel(l.Atom)
			if rel == nil || seen[rel] {
				continue
			}
			if in[rel] {
				internal = true
				break
			}
			seen[rel] = true
			if rel.scope != rtStatic && len(alts) < maxGuardLits {
				alts = append(alts, fmt.Sprintf("R%d", rel.id))
			}
		}
		if internal {
			continue
		}
		if len(alts) == 0 {
			return nil
		}
		c := "{" + strings.Join(alts, ", ") + "}"
		if !have[c] {
			have[c] = true
			clauses = append(clauses, c)
		}
	}
	return clauses
}

// emitCalls writes the statements as the body of fn, split into helper
// functions of at most maxCallsPerFn statements.
func (gen *generator) emitCalls(fn string, stmts []string) {
	if len(stmts) <= maxCallsPerFn {
		fmt.Fprintf(&gen.code, "func %s() {\n", fn)
		for _, s := range stmts {
			fmt.Fprintf(&gen.code, "\t%s\n", s)
		}
		gen.code.WriteString("}\n\n")
		return
	}
	var calls []string
	for i := 0; i < len(stmts); i += maxCallsPerFn {
		part := fmt.Sprintf("%s_%d", fn, len(calls))
		gen.emitCalls(part, stmts[i:min(i+maxCallsPerFn, len(stmts))])
		calls = append(calls, part+"()")
	}
	gen.emitCalls(fn, calls)
}

func (gen *generator) emitUnit(u *gunit) {
	var body []string
	for gi, gg := range u.groups {
		if !gg.recursive {
			for _, fn := range gg.base {
				body = append(body, fn+"()")
			}
			continue
		}
		// a recursive group: one naive round, then semi-naive rounds
		name := fmt.Sprintf("u%dg%d", u.id, gi)
		var s []string
		for _, h := range gg.heads {
			s = append(s, fmt.Sprintf("R%d.Mark()", h.id))
		}
		for _, fn := range gg.base {
			s = append(s, fn+"()")
		}
		gen.emitCalls(name+"base", s)
		s = s[:0]
		for _, d := range gg.deltas {
			s = append(s, fmt.Sprintf("if R%d.Dlo < R%d.Dhi {\n\t\t%s()\n\t}", d.rel.id, d.rel.id, d.fn))
		}
		gen.emitCalls(name+"delta", s)
		fmt.Fprintf(&gen.code, "func %s() {\n\t%sbase()\n\tfor {\n\t\tchanged := false\n", name, name)
		for _, h := range gg.heads {
			fmt.Fprintf(&gen.code, "\t\tif R%d.Advance() {\n\t\t\tchanged = true\n\t\t}\n", h.id)
		}
		fmt.Fprintf(&gen.code, "\t\tif !changed {\n\t\t\treturn\n\t\t}\n\t\t%sdelta()\n\t}\n}\n\n", name)
		body = append(body, name+"()")
	}
	gen.emitCalls(fmt.Sprintf("u%d", u.id), body)
}

// ruleVars tracks a rule's variables while it is compiled.
type ruleVars struct {
	bound map[gdl.Symbol]string
	nvars int
	// whole maps the text of a function term to the variable holding its
	// id, when a true fact matched it whole
	whole map[string]string
	// src: per variable read from the arguments of a term (a true fact,
	// or a function term a row holds), the variables holding the ids of
	// the terms its value is read from, outermost first: a term built
	// from variables that share one is a function of that id (memo)
	src  map[gdl.Symbol][]string
	decl []string
}

func newRuleVars() *ruleVars {
	return &ruleVars{bound: map[gdl.Symbol]string{}, whole: map[string]string{}, src: map[gdl.Symbol][]string{}}
}

func (rv *ruleVars) newVar(prefix string) string {
	v := fmt.Sprintf("%s%d", prefix, rv.nvars)
	rv.nvars++
	rv.decl = append(rv.decl, v)
	return v
}

func (rv *ruleVars) ground(t *gdl.Term) bool {
	switch t.Kind {
	case gdl.Var:
		_, ok := rv.bound[t.Name]
		return ok
	case gdl.Func:
		for _, a := range t.Args {
			if !rv.ground(a) {
				return false
			}
		}
	}
	return true
}

func (rv *ruleVars) varsBound(l *gdl.Literal) bool {
	for _, v := range l.Vars(nil) {
		if _, ok := rv.bound[v]; !ok {
			return false
		}
	}
	return true
}

// litRel returns the relation and column terms of a positive literal; for
// (true (f a b)) the relation true$f with columns a b (its last column, the
// whole fact, is not among them). It returns nil for (true X) with X a
// constant or variable.
func (gen *generator) litRel(a *gdl.Term) (*grel, []*gdl.Term) {
	if a.Name == gdl.SymTrue {
		x := a.Args[0]
		if x.Kind != gdl.Func || len(x.Args) == 0 {
			return nil, nil
		}
		return gen.trueRelation(gen.functor(x.Name, len(x.Args))), x.Args
	}
	return gen.rels[a.Name], a.Args
}

// estimate returns a relation's expected size and distinct values per
// column.
func (gen *generator) estimate(r *grel) (float64, []float64) {
	d := make([]float64, r.width)
	for i := range d {
		d[i] = 5
	}
	if r == gen.does {
		n := float64(len(gen.roles))
		d[0] = n
		return n, d
	}
	if st := gen.sizes.stats[r.sym]; r.sym != gdl.NoSymbol && st != nil && st.count > 0 {
		for i := range d {
			d[i] = math.Max(st.dist[i], 1)
		}
		return math.Max(st.n, 0.5), d
	}
	for fk, tr := range gen.trueRel {
		if tr != r {
			continue
		}
		if st := gen.sizes.trueStats[gen.fks[fk-1]]; st != nil && st.count > 0 {
			for i := range st.dist {
				d[i] = math.Max(st.dist[i], 1)
			}
			d[len(d)-1] = math.Max(st.n, 1)
			return math.Max(st.n, 0.5), d
		}
	}
	if r.est >= 0 {
		for i := range d {
			d[i] = math.Max(float64(len(r.dist[i])), 1)
		}
		return math.Max(r.est, 1), d
	}
	for fk, tr := range gen.trueRel {
		if tr != r {
			continue
		}
		n := float64(gen.initCount[fk])
		if n == 0 {
			n = 10
		}
		for i := range d {
			d[i] = 3
			if dd := gen.initDist[fk]; dd != nil && i < len(dd) {
				d[i] = math.Max(float64(len(dd[i])), 1)
			}
		}
		d[len(d)-1] = n
		return n, d
	}
	return 100, d
}

func (gen *generator) cost(l *gdl.Literal, rv *ruleVars) float64 {
	a := l.Atom
	if a.Name == gdl.SymTrue && (a.Args[0].Kind != gdl.Func || len(a.Args[0].Args) == 0) {
		if rv.ground(a.Args[0]) {
			return 0
		}
		return 1000
	}
	r, cols := gen.litRel(a)
	est, dist := gen.estimate(r)
	allBound, someBound := true, false
	for i, t := range cols {
		if rv.ground(t) {
			est /= dist[i]
			someBound = true
		} else {
			allBound = false
			if t.Kind == gdl.Func {
				est /= 2
			}
		}
	}
	if allBound {
		return 0
	}
	if !someBound && gen.growing[r] {
		// a scan of a relation that grows round after round, in each
		// round: quadratic in its final size, which the estimates
		// (sampled between rounds, or not at all) understate. On
		// laikLee_hex, (magic append_el ?el (list ?head ?tail)) scanned
		// for each new list ?tail cost 27% of the run; reading
		// (le ?head) first makes the list a term to look up.
		est *= growingScan
	}
	return est
}

// growingScan multiplies the cost of scanning a growing relation whole.
const growingScan = 8

// order chooses the join order of a rule's body: first (when >= 0) leads;
// then greedily the cheapest positive literal, each negation and distinct
// as soon as its variables are bound.
func (gen *generator) order(r *gdl.Rule, first int) ([]int, error) {
	rv := &ruleVars{bound: map[gdl.Symbol]string{}}
	bind := func(l *gdl.Literal) {
		for _, v := range l.Vars(nil) {
			rv.bound[v] = ""
		}
	}
	placed := make([]bool, len(r.Body))
	var out []int
	place := func(i int) {
		placed[i] = true
		out = append(out, i)
		if r.Body[i].Kind == gdl.LitAtom {
			bind(r.Body[i])
		}
	}
	if first >= 0 {
		// the leader binds its variables from its rows, even a negation
		// (the incremental design's delta plans)
		place(first)
		bind(r.Body[first])
	}
	for len(out) < len(r.Body) {
		for i, l := range r.Body {
			if !placed[i] && l.Kind != gdl.LitAtom && rv.varsBound(l) {
				place(i)
			}
		}
		if len(out) == len(r.Body) {
			break
		}
		best, bestCost := -1, math.Inf(1)
		for i, l := range r.Body {
			if placed[i] || l.Kind != gdl.LitAtom {
				continue
			}
			if c := gen.cost(l, rv); c < bestCost {
				best, bestCost = i, c
			}
		}
		if best < 0 {
			return nil, engines.Errorf(engines.NonGround, "rule %s: a negation or distinct has a variable no positive literal binds", r)
		}
		place(best)
	}
	for _, v := range r.Head.Vars(nil) {
		if _, ok := rv.bound[v]; !ok {
			return nil, engines.Errorf(engines.NonGround, "rule %s: the head variable %s is not bound by the body", r, v.Name())
		}
	}
	return out, nil
}

// emitter writes the body of one plan function.
type emitter struct {
	gen    *generator
	rule   *gdl.Rule
	rv     *ruleVars
	b      strings.Builder
	depth  int
	loops  []string // labels of the open loops, innermost last
	used   map[string]bool
	hgSet  bool
	hgLoop string // the loop to continue after a proof once the head is bound; "" to return
	delta  int    // the position (in order) of the delta literal, or -1
	head   *grel
	// scans: the open loops over a static relation's rows, outermost
	// first, with the variables whose values their rows hold
	scans []staticScan
	// count: a counting plan of the incremental design, which counts the
	// derivations of the head (by the leader's sign in a delta plan);
	// views are the literals' views of counted relations (rt.StNew,
	// rt.StOld), in order, nil for all new
	count bool
	views []uint8
	// srcStack: while match reads a function term's arguments, the
	// variables holding the ids of the terms being read, outermost
	// first; fresh: the variables the current literal's row binds
	srcStack []string
	fresh    []gdl.Symbol
	// noMemo: the term being written is the lookup a memo falls back to
	noMemo bool
}

// view returns literal i's view.
func (em *emitter) view(i int) uint8 {
	if em.views == nil {
		return viewNew
	}
	return em.views[i]
}

// The views of a counted relation's rows (rt.StNew, rt.StOld).
const (
	viewNew uint8 = 1
	viewOld uint8 = 2
)

// holds returns the Go test of whether ground term x is a fact in the
// literal's view.
func (em *emitter) holds(i int, x string) string {
	if em.view(i) == viewOld {
		return "E.HoldsOld(" + x + ")"
	}
	return "E.Holds(" + x + ")"
}

// has returns the Go test of whether the tuple is in relation r in the
// literal's view.
func (em *emitter) has(i int, r *grel, keys []string) string {
	rn := fmt.Sprintf("R%d", r.id)
	if !em.gen.counted(r) {
		if r.width == 0 {
			return rn + ".N > 0"
		}
		if r == em.gen.does {
			for ri, role := range em.gen.roles {
				if keys[0] == fmt.Sprint(role) {
					// a role's move: one load and a compare, where the
					// relation's test hashes the pair (buttons' next
					// rules test (does robot a) 18 times a state)
					return fmt.Sprintf("E.Did(%d, %s)", ri, keys[1])
				}
			}
		}
		return callN(rn, "Has", keys)
	}
	op := "HasNew"
	if em.view(i) == viewOld {
		op = "HasOld"
	}
	if r.width == 0 {
		return rn + "." + op + "0()"
	}
	return callN(rn, op, keys)
}

// viewFilter writes the test that skips a row of counted relation rn not
// in literal i's view.
func (em *emitter) viewFilter(rn, row string, i int) {
	em.line("if %s.St[%s]&%d == 0 {", rn, row, em.view(i))
	em.line("\tcontinue")
	em.line("}")
}

// staticScan is a loop over a static relation's rows: the variable of the
// row and, per variable whose value the row holds (read from it, or
// bound before and matched by it), its column.
type staticScan struct {
	rel  *grel
	row  string
	cols map[gdl.Symbol]int
}

func (em *emitter) line(format string, args ...any) {
	em.b.WriteString(strings.Repeat("\t", em.depth+1))
	fmt.Fprintf(&em.b, format, args...)
	em.b.WriteByte('\n')
}

// compileRule writes a plan function for rule r (with body literal first
// leading, over the last round's rows, when first >= 0) and returns its
// name.
func (gen *generator) compileRule(r *gdl.Rule, first int) (string, error) {
	order, err := gen.order(r, first)
	if err != nil {
		return "", err
	}
	gen.plans++
	fn := fmt.Sprintf("p%d", gen.plans)
	em := &emitter{gen: gen, rule: r, rv: newRuleVars(), used: map[string]bool{}, delta: -1}
	em.head = gen.rels[r.Head.Name]
	if first >= 0 {
		em.delta = 0
	}
	if em.head.width == 0 {
		em.line("if R%d.N > 0 {", em.head.id)
		em.line("\treturn")
		em.line("}")
	}
	lits := make([]*gdl.Literal, len(order))
	for i, o := range order {
		lits[i] = r.Body[o]
	}
	if first < 0 && !gen.curStatic {
		if lits, err = gen.staticPrefix(r, lits); err != nil {
			return "", err
		}
	}
	em.lits(lits, 0)
	gen.writePlan(fn, em)
	return fn, nil
}

// writePlan writes the plan function fn from its emitter.
func (gen *generator) writePlan(fn string, em *emitter) {
	body := em.b.String()
	// labels: keep those that are continued
	for lbl := range em.used {
		body = strings.Replace(body, "\x00"+lbl+"\x00", lbl+":\n\t", 1)
	}
	body = stripLabels(body)
	fmt.Fprintf(&gen.code, "func %s() {\n", fn)
	if len(em.rv.decl) > 0 {
		fmt.Fprintf(&gen.code, "\tvar %s int32\n", strings.Join(em.rv.decl, ", "))
		fmt.Fprintf(&gen.code, "\t%s = %s\n", strings.TrimSuffix(strings.Repeat("_, ", len(em.rv.decl)), ", "), strings.Join(em.rv.decl, ", "))
	}
	gen.code.WriteString(body)
	gen.code.WriteString("}\n\n")
}

// staticPrefix replaces a run of literals of a body that only read static
// relations (two joins or more, with the negations and distincts among
// them) by one literal over a new static relation that holds their join,
// computed once at start-up: a rule then reads one precomputed table
// instead of joining static tables in every state, and the function terms
// built from its variables become auxiliary columns. The run is the
// body's first one, at its start or after literals that bind none of its
// variables (hex's legal rule: (true (control ?p)), then the board's
// columns and rows, each cell's three terms looked up in every state
// before); a run that does not lead the body must join to at most
// maxStaticRun rows, as it is computed whole where the nested loops
// could stop early.
func (gen *generator) staticPrefix(r *gdl.Rule, lits []*gdl.Literal) ([]*gdl.Literal, error) {
	isStatic := func(name gdl.Symbol) bool {
		if name == gdl.SymTrue || name == gdl.SymDoes {
			return false
		}
		rel := gen.rels[name]
		return rel != nil && rel.scope == rtStatic
	}
	before := map[gdl.Symbol]bool{} // bound by the literals before the run
	for at := range lits {
		if at > 0 && lits[at-1].Kind == gdl.LitAtom {
			for _, v := range lits[at-1].Vars(nil) {
				before[v] = true
			}
		}
		out, ok, err := gen.staticRun(r, lits, at, before, isStatic)
		if ok || err != nil {
			return out, err
		}
	}
	return lits, nil
}

// maxStaticRun bounds the estimated join (the product of the static
// relations' sizes) of a run of static literals that does not lead a body.
const maxStaticRun = 1 << 16

// staticRun is staticPrefix for the run that starts at lits[at], whose
// atoms bind no variable of before: the body with the run replaced, and
// true, or false when it is not a run of two joins or more.
func (gen *generator) staticRun(r *gdl.Rule, lits []*gdl.Literal, at int, before map[gdl.Symbol]bool, isStatic func(gdl.Symbol) bool) ([]*gdl.Literal, bool, error) {
	bound := map[gdl.Symbol]bool{}
	n, joins := 0, 0
	size := 1.0
	for _, l := range lits[at:] {
		ok := false
		switch l.Kind {
		case gdl.LitAtom:
			ok = isStatic(l.Atom.Name)
			for _, v := range l.Vars(nil) {
				if before[v] {
					ok = false
				}
			}
		case gdl.LitNot, gdl.LitDistinct:
			ok = l.Kind == gdl.LitDistinct || isStatic(l.Atom.Name)
			for _, v := range l.Vars(nil) {
				if !bound[v] {
					ok = false
				}
			}
		}
		if !ok {
			break
		}
		if l.Kind == gdl.LitAtom {
			joins++
			est, _ := gen.estimate(gen.rels[l.Atom.Name])
			size *= est
			for _, v := range l.Vars(nil) {
				bound[v] = true
			}
		}
		n++
	}
	if joins < 2 || (at > 0 && size > maxStaticRun) {
		return lits, false, nil
	}
	// the prefix's variables that the rest of the rule uses, in order
	used := map[gdl.Symbol]bool{}
	for _, v := range r.Head.Vars(nil) {
		used[v] = true
	}
	for _, l := range lits[at+n:] {
		for _, v := range l.Vars(nil) {
			used[v] = true
		}
	}
	var args []*gdl.Term
	for _, l := range lits[at : at+n] {
		for _, v := range l.Vars(nil) {
			if used[v] && bound[v] {
				args = append(args, gdl.NewVar(v))
				delete(used, v)
			}
		}
	}
	body := append([]*gdl.Literal(nil), lits[at:at+n]...)
	key := (&gdl.Rule{Head: gdl.NewFunc(gdl.NoSymbol, args...), Body: body}).String()
	sym, ok := gen.prefixes[key]
	if !ok {
		sym = gdl.Intern(fmt.Sprintf("static prefix %d", len(gen.prefixes)))
		gen.prefixes[key] = sym
		head := gdl.NewFunc(sym, args...)
		if len(args) == 0 {
			head = gdl.NewConst(sym)
		}
		rel := gen.newRel(len(args), rtStatic, sym)
		gen.rels[sym] = rel
		u := &gunit{id: len(gen.units), scope: rtStatic, rels: []*grel{rel}, syms: []gdl.Symbol{sym}}
		gen.units = append(gen.units, u)
		gen.unitOf[sym] = u
		gen.curStatic = true
		fn, err := gen.compileRule(&gdl.Rule{Head: head, Body: body, Pos: r.Pos}, -1)
		gen.curStatic = false
		if err != nil {
			return nil, false, err
		}
		u.groups = []*ggroup{{heads: []*grel{rel}, base: []string{fn}}}
		gen.emitUnit(u)
	}
	atom := gdl.NewFunc(sym, args...)
	if len(args) == 0 {
		atom = gdl.NewConst(sym)
	}
	out := append(slices.Clip(lits[:at]), &gdl.Literal{Kind: gdl.LitAtom, Atom: atom})
	return append(out, lits[at+n:]...), true, nil
}

// stripLabels removes the label placeholders that no continue uses.
func stripLabels(s string) string {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i+1:], 0)
		s = s[:i] + s[i+1+j+1:]
	}
}

func (em *emitter) headBound() bool {
	for _, v := range em.rule.Head.Vars(nil) {
		if _, ok := em.rv.bound[v]; !ok {
			return false
		}
	}
	return true
}

func (em *emitter) innermost() string {
	if len(em.loops) == 0 {
		return ""
	}
	return em.loops[len(em.loops)-1]
}

// openLoop writes a loop header with a label placeholder.
func (em *emitter) openLoop(header string) {
	lbl := fmt.Sprintf("L%d", len(em.loops)+1)
	em.b.WriteString(strings.Repeat("\t", em.depth+1))
	em.b.WriteString("\x00" + lbl + "\x00")
	em.b.WriteString(header + " {\n")
	em.loops = append(em.loops, lbl)
	em.depth++
}

func (em *emitter) openIf(cond string) {
	em.line("if %s {", cond)
	em.depth++
}

func (em *emitter) close(loop bool) {
	em.depth--
	em.line("}")
	if loop {
		em.loops = em.loops[:len(em.loops)-1]
	}
}

// expr writes a bound term as a Go expression; intern says whether a
// function term that does not exist is interned (heads, distinct) or
// looked up as -1 (questions: no relation holds a term never made).
func (em *emitter) expr(t *gdl.Term, intern bool) string {
	switch t.Kind {
	case gdl.Var:
		v, ok := em.rv.bound[t.Name]
		if !ok {
			panic("compiled: unbound variable " + t.Name.Name())
		}
		return v
	case gdl.Const:
		return strconv.Itoa(int(em.gen.termID(t)))
	}
	if len(t.Args) == 0 || t.IsGround() {
		return strconv.Itoa(int(em.gen.termID(t)))
	}
	if v, ok := em.rv.whole[t.String()]; ok {
		return v
	}
	if a, ok := em.auxExpr(t); ok {
		return a
	}
	if !em.noMemo {
		if x, ok := em.memo(t, intern); ok {
			return x
		}
	}
	fk := em.gen.functor(t.Name, len(t.Args))
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		args[i] = em.expr(a, intern)
	}
	op := "Lookup"
	if intern {
		op = "Intern"
	}
	if len(args) <= 5 {
		return fmt.Sprintf("S.%s%d(%d, %s)", op, len(args), fk, strings.Join(args, ", "))
	}
	return fmt.Sprintf("S.%sN(%d, []int32{%s})", op, fk, strings.Join(args, ", "))
}

// memoSource is where the values of some variables of a rule come from:
// a variable holding the id of a term they are read from (a true fact's, or
// a function term's a row holds), or the row of a static relation that
// holds them (its index).
type memoSource struct {
	key  string
	vars []gdl.Symbol
	term bool // a term's id, not a row
}

// memoSources returns the sources of the variables vars (of a term), each
// with the variables it gives: the terms first (innermost first, by the
// variables in order), then the open loops over static relations'
// rows (innermost first).
func (em *emitter) memoSources(vars []gdl.Symbol) []memoSource {
	var out []memoSource
	at := map[string]int{}
	add := func(key string, v gdl.Symbol, term bool) {
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, memoSource{key: key, term: term})
		}
		if !slices.Contains(out[i].vars, v) {
			out[i].vars = append(out[i].vars, v)
		}
	}
	for _, v := range vars {
		chain := em.rv.src[v]
		for i := len(chain) - 1; i >= 0; i-- {
			add(chain[i], v, true)
		}
	}
	for i := len(em.scans) - 1; i >= 0; i-- {
		for _, v := range vars {
			if _, ok := em.scans[i].cols[v]; ok {
				add(em.scans[i].row, v, false)
			}
		}
	}
	return out
}

// memoKeys returns the keys of a memo of function term t (memo): a source
// that gives the most of its variables (k1), and, unless it gives them
// all, one that gives the rest, or the value of the one variable left
// (k2), but not a second term (its id, or a value read from it) when k1
// is a term's id. It returns false when t's variables have no such
// sources.
func (em *emitter) memoKeys(t *gdl.Term) (k1, k2 string, ok bool) {
	vars := t.Vars(nil)
	srcs := em.memoSources(vars)
	if len(srcs) == 0 {
		return "", "", false
	}
	best := 0
	for i, s := range srcs {
		if len(s.vars) > len(srcs[best].vars) {
			best = i
		}
	}
	var rest []gdl.Symbol
	for _, v := range vars {
		if !slices.Contains(srcs[best].vars, v) {
			rest = append(rest, v)
		}
	}
	k1 = srcs[best].key
	if len(rest) == 0 {
		return k1, "", true
	}
	for i, s := range srcs {
		if i == best || s.term && srcs[best].term {
			// (two terms' ids: the pairs of facts that meet in the
			// states, as hex's cells, are more than a memo's ways)
			continue
		}
		all := true
		for _, v := range rest {
			all = all && slices.Contains(s.vars, v)
		}
		if all {
			return k1, s.key, true
		}
	}
	if len(rest) == 1 && !(srcs[best].term && len(em.rv.src[rest[0]]) > 0) {
		return k1, em.rv.bound[rest[0]], true
	}
	// (the values of two variables packed into the second key: where
	// they come from two other static relations' rows, as
	// connectFourSimultaneous' open cells, a source meets more pairs than
	// a memo has ways, and the misses cost more than the hits save)
	return "", "", false
}

// memo writes the lookup (or interning) of function term t through a memo
// of this place in the rules, when its variables' values come from one or
// two sources (memoKeys): its id is read by the sources' keys (rt.Memo by
// one, rt.Memo2 by two), and looked up in the store only the first time.
// It returns the variable that holds the id (-1 for a term looked up that
// does not exist), or false when t has no such sources. The terms a rule
// builds from a fact, or from a fact and a static relation's row, recur
// state after state (ticTacToe's rows look up (cell ?m 2 ?x) from each fact
// (cell ?m 1 ?x); reversi's lines, a neighbour's cell from a static row of
// directions and the player): an array read replaces a hash lookup.
func (em *emitter) memo(t *gdl.Term, intern bool) (string, bool) {
	k1, k2, ok := em.memoKeys(t)
	if !ok {
		return "", false
	}
	em.noMemo = true
	call := em.expr(t, intern)
	em.noMemo = false
	em.gen.memos = append(em.gen.memos, k2 != "")
	name := fmt.Sprintf("M%d", len(em.gen.memos))
	keys := k1
	if k2 != "" {
		keys += ", " + k2
	}
	x := em.rv.newVar("x")
	em.line("%s = %s.Get(%s)", x, name, keys)
	em.line("if %s < 0 {", x)
	em.line("\t%s = %s.Put(%s, %s)", x, name, keys, call)
	em.line("}")
	return x, true
}

// auxExpr returns the auxiliary column holding function term t for the
// current row of a static relation, when that row holds the value of every
// variable of t (read from it, or matched by it: knightsTour's move terms
// from a knight's square, bound by the state, and its static moves' rows
// found by that square): the term's id is then computed once per row, after
// the static units, instead of being looked up in every state.
func (em *emitter) auxExpr(t *gdl.Term) (string, bool) {
	vars := t.Vars(nil)
	if len(vars) == 0 {
		return "", false
	}
	var sc *staticScan
	for i := len(em.scans) - 1; i >= 0 && sc == nil; i-- {
		sc = &em.scans[i]
		for _, v := range vars {
			if _, ok := sc.cols[v]; !ok {
				sc = nil
				break
			}
		}
	}
	if sc == nil {
		return "", false
	}
	var build func(t *gdl.Term) string
	build = func(t *gdl.Term) string {
		switch {
		case t.Kind == gdl.Var:
			return fmt.Sprintf("t[%d]", sc.cols[t.Name])
		case t.Kind == gdl.Const || len(t.Args) == 0 || t.IsGround():
			return strconv.Itoa(int(em.gen.termID(t)))
		}
		args := make([]string, len(t.Args))
		for i, a := range t.Args {
			args[i] = build(a)
		}
		fk := em.gen.functor(t.Name, len(t.Args))
		if len(args) <= 5 {
			return fmt.Sprintf("S.Intern%d(%d, %s)", len(args), fk, strings.Join(args, ", "))
		}
		return fmt.Sprintf("S.InternN(%d, []int32{%s})", fk, strings.Join(args, ", "))
	}
	r := sc.rel
	code := build(t)
	key := fmt.Sprintf("%d:%s", r.id, code)
	name, ok := em.gen.aux[key]
	if !ok {
		name = fmt.Sprintf("A%d", len(em.gen.aux))
		em.gen.aux[key] = name
		fn := "init" + name
		em.gen.auxFns = append(em.gen.auxFns, fn+"()")
		fmt.Fprintf(&em.gen.auxCode, "var %s []int32\n\nfunc %s() {\n\t%s = make([]int32, R%d.N)\n\tfor row := int32(0); row < R%d.N; row++ {\n\t\tt := R%d.Data[row*%d : row*%d+%d]\n\t\t_ = t\n\t\t%s[row] = %s\n\t}\n}\n\n",
			name, fn, name, r.id, r.id, r.id, r.width, r.width, r.width, name, code)
	}
	return fmt.Sprintf("%s[%s]", name, sc.row), true
}

// match writes the checks and bindings of value val against term t; a
// failure continues the innermost loop.
func (em *emitter) match(val string, t *gdl.Term) {
	switch t.Kind {
	case gdl.Var:
		if v, ok := em.rv.bound[t.Name]; ok {
			em.line("if %s != %s {", val, v)
			em.line("\tcontinue")
			em.line("}")
			return
		}
		v := em.rv.newVar("v")
		em.rv.bound[t.Name] = v
		em.rv.src[t.Name] = slices.Clone(em.srcStack)
		em.fresh = append(em.fresh, t.Name)
		em.line("%s = %s", v, val)
		return
	}
	if t.Kind == gdl.Const || len(t.Args) == 0 || t.IsGround() || em.rv.whole[t.String()] != "" {
		em.line("if %s != %s {", val, em.expr(t, false))
		em.line("\tcontinue")
		em.line("}")
		return
	}
	fk := em.gen.functor(t.Name, len(t.Args))
	m := em.rv.newVar("m")
	o := em.rv.newVar("o")
	em.line("%s = %s", m, val)
	em.line("if S.Fk[%s] != %d {", m, fk)
	em.line("\tcontinue")
	em.line("}")
	em.line("%s = S.Off[%s]", o, m)
	em.srcStack = append(em.srcStack, m)
	for i, a := range t.Args {
		em.match(fmt.Sprintf("S.Args[%s+%d]", o, i), a)
	}
	em.srcStack = em.srcStack[:len(em.srcStack)-1]
}

// factSource records, for the variables the current literal's row bound
// (fresh), that their values are read from the true fact whose id w holds.
func (em *emitter) factSource(w string) {
	for _, v := range em.fresh {
		em.rv.src[v] = append([]string{w}, em.rv.src[v]...)
	}
	em.fresh = em.fresh[:0]
}

func (em *emitter) tuple(ts []*gdl.Term, intern bool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = em.expr(t, intern)
	}
	return out
}

// callN returns the call of recv's op for the tuple args: the method of
// its width (Add2, HasNew3) up to three values, four for a plain
// relation's Has and six for its Add, else the one that takes a slice
// (AddN).
func callN(recv, op string, args []string) string {
	if n := len(args); n <= 3 || n == 4 && (op == "Has" || op == "Add") || n <= 6 && op == "Add" {
		return fmt.Sprintf("%s.%s%d(%s)", recv, op, len(args), strings.Join(args, ", "))
	}
	return fmt.Sprintf("%s.%sN([]int32{%s})", recv, op, strings.Join(args, ", "))
}

// lits writes literals i.. and the head, nested.
func (em *emitter) lits(lits []*gdl.Literal, i int) {
	if !em.hgSet && em.headBound() {
		em.hgSet = true
		em.hgLoop = em.innermost()
	}
	if i == len(lits) {
		em.emitHead()
		return
	}
	l := lits[i]
	switch l.Kind {
	case gdl.LitDistinct:
		em.openIf(fmt.Sprintf("%s != %s", em.expr(l.Left, true), em.expr(l.Right, true)))
		em.lits(lits, i+1)
		em.close(false)
		return
	case gdl.LitNot:
		if em.count && i == em.delta {
			em.leadDelta(lits, i, true)
			return
		}
		a := l.Atom
		if a.Name == gdl.SymTrue {
			em.openIf("!" + em.holds(i, em.expr(a.Args[0], false)))
		} else {
			r := em.gen.rels[a.Name]
			em.openIf("!(" + em.has(i, r, em.tuple(a.Args, false)) + ")")
		}
		em.lits(lits, i+1)
		em.close(false)
		return
	}
	if em.count && i == em.delta {
		em.leadDelta(lits, i, false)
		return
	}
	a := l.Atom
	if a.Name == gdl.SymTrue {
		x := a.Args[0]
		switch {
		case em.rv.ground(x):
			em.openIf(em.holds(i, em.expr(x, false)))
			em.lits(lits, i+1)
			em.close(false)
			return
		case x.Kind == gdl.Var:
			v := em.rv.newVar("v")
			f := fmt.Sprintf("f%d", len(em.loops)+1)
			em.openLoop(fmt.Sprintf("for _, %s := range E.ScanFacts()", f))
			em.line("%s = %s", v, f)
			em.rv.bound[x.Name] = v
			em.lits(lits, i+1)
			em.close(true)
			return
		}
	}
	r, cols := em.gen.litRel(a)
	delta := i == em.delta
	var keyCols []int
	var keys []string
	for c, t := range cols {
		if em.rv.ground(t) {
			keyCols = append(keyCols, c)
			keys = append(keys, em.expr(t, false))
		}
	}
	rn := fmt.Sprintf("R%d", r.id)
	counted := em.gen.counted(r)
	if len(keyCols) > 0 && len(keyCols) < len(cols) && r.scope != rtStatic && !counted && em.delta < 0 {
		// a small relation is scanned rather than indexed: an index is
		// rebuilt in every state it is used in. Not in a delta plan of a
		// recursive group: it runs for every new row of every round
		// (laikLee_hex's lists, scanned whole for each new row)
		if est, _ := em.gen.estimate(r); est <= smallRel {
			keyCols, keys = nil, nil
		}
	}
	if len(keyCols) == len(cols) && !delta {
		em.openIf(em.has(i, r, keys))
		em.lits(lits, i+1)
		em.close(false)
		return
	}
	n := len(em.loops) + 1
	row := fmt.Sprintf("row%d", n)
	if len(keyCols) > 0 {
		ix := fmt.Sprintf("X%d_%d", r.id, r.index(keyCols))
		var find string
		switch len(keys) {
		case 1:
			find = fmt.Sprintf("%s.Find1(%s, %s)", ix, rn, keys[0])
		case 2, 3, 4:
			find = fmt.Sprintf("%s.Find%d(%s, %s)", ix, len(keys), rn, strings.Join(keys, ", "))
		default:
			find = fmt.Sprintf("%s.FindN(%s, []int32{%s})", ix, rn, strings.Join(keys, ", "))
		}
		em.openLoop(fmt.Sprintf("for %s := %s; %s >= 0; %s = %s.Step(%s)", row, find, row, row, ix, row))
		if counted {
			em.viewFilter(rn, row, i)
		}
		if delta {
			em.line("if %s >= %s.Dhi {", row, rn)
			em.line("\tcontinue")
			em.line("}")
			em.line("if %s < %s.Dlo {", row, rn)
			em.line("\tbreak")
			em.line("}")
		}
	} else {
		// ScanAll and ScanDelta return the end of the rows and count
		// them as work (rt.Work)
		lo, hi := "int32(0)", rn+".ScanAll()"
		if delta {
			lo, hi = rn+".Dlo", rn+".ScanDelta()"
		}
		if counted {
			em.openLoop(fmt.Sprintf("for _, %s := range %s.Rows()", row, rn))
			em.viewFilter(rn, row, i)
		} else {
			em.openLoop(fmt.Sprintf("for %s, hi%d := %s, %s; %s < hi%d; %s++", row, n, lo, hi, row, n, row))
		}
	}
	w := r.width
	needWhole := a.Name == gdl.SymTrue && em.rv.whole[a.Args[0].String()] == ""
	var sc *staticScan
	if r.scope == rtStatic && r.sym != gdl.NoSymbol && !em.gen.curStatic {
		sc = &staticScan{rel: r, row: row, cols: map[gdl.Symbol]int{}}
		for _, c := range keyCols {
			if cols[c].Kind == gdl.Var {
				sc.cols[cols[c].Name] = c
			}
		}
	}
	if len(keyCols) < len(cols) || needWhole {
		t := fmt.Sprintf("t%d", n)
		em.line("%s := %s.Data[%s*%d : %s*%d+%d]", t, rn, row, w, row, w, w)
		isKey := make([]bool, len(cols))
		for _, c := range keyCols {
			isKey[c] = true
		}
		em.fresh = em.fresh[:0]
		for c, term := range cols {
			if isKey[c] {
				continue
			}
			em.match(fmt.Sprintf("%s[%d]", t, c), term)
			if sc != nil && term.Kind == gdl.Var {
				if _, ok := sc.cols[term.Name]; !ok {
					sc.cols[term.Name] = c
				}
			}
		}
		if needWhole {
			v := em.rv.newVar("w")
			em.line("%s = %s[%d]", v, t, w-1)
			em.rv.whole[a.Args[0].String()] = v
		}
		if a.Name == gdl.SymTrue {
			em.factSource(em.rv.whole[a.Args[0].String()])
		}
	}
	if sc != nil {
		em.scans = append(em.scans, *sc)
		defer func() { em.scans = em.scans[:len(em.scans)-1] }()
	}
	em.lits(lits, i+1)
	em.close(true)
}

func (em *emitter) emitHead() {
	h := em.rule.Head
	rn := fmt.Sprintf("R%d", em.head.id)
	if em.count {
		sign := "1"
		if em.delta >= 0 {
			sign = "sg"
		}
		args := em.tuple(h.Args, true)
		if len(args) <= 4 {
			em.line("%s.Count%d(%s)", rn, len(args), strings.Join(append(args, sign), ", "))
		} else {
			em.line("%s.CountN([]int32{%s}, %s)", rn, strings.Join(args, ", "), sign)
		}
		return
	}
	if em.head.width == 0 {
		em.line("%s.Add0()", rn)
	} else {
		em.line("%s", callN(rn, "Add", em.tuple(h.Args, true)))
	}
	if em.hgSet {
		if em.hgLoop == "" {
			em.line("return")
		} else {
			em.used[em.hgLoop] = true
			em.line("continue %s", em.hgLoop)
		}
	}
}

// emitProgram writes the design's package: engine.go (its variables and
// Setup, which fills in its engine), the rule files and the data.
func (gen *generator) emitProgram(version, rulesSHA string) (*generated, error) {
	var m strings.Builder
	fmt.Fprintf(&m, "// Code generated by gdlperf's compiled prover. DO NOT EDIT.\n\npackage %s\n\nimport (\n\t_ \"embed\"\n\n\t\"gdlprog/rt\"\n)\n\n", gen.pkg)
	m.WriteString("//go:embed game.bin\nvar data []byte\n\nvar S = rt.NewStore()\nvar E = rt.NewEngine(S)\n\n")
	counted := gen.counted
	// rn is the relation's name in Setup's ordinary lists: nil for a
	// counted relation
	rn := func(r *grel) string {
		if counted(r) {
			return "nil"
		}
		return fmt.Sprintf("R%d", r.id)
	}
	for _, r := range gen.relList {
		kind := "Rel"
		if counted(r) {
			kind = "CRel"
		}
		fmt.Fprintf(&m, "var R%d = rt.New%s(%d)\n", r.id, kind, r.width)
		for i, cols := range r.ixs {
			cs := make([]string, len(cols))
			for j, c := range cols {
				cs[j] = strconv.Itoa(c)
			}
			fmt.Fprintf(&m, "var X%d_%d = R%d.AddIndex(%s)\n", r.id, i, r.id, strings.Join(cs, ", "))
		}
	}
	for i, two := range gen.memos {
		kind := "Memo"
		if two {
			kind = "Memo2"
		}
		fmt.Fprintf(&m, "var M%d rt.%s\n", i+1, kind)
	}
	m.WriteString("\n// Setup fills in the design's engine.\nfunc Setup() *rt.Engine {\n")
	fmt.Fprintf(&m, "\tE.Version = %s\n\tE.RulesSHA = %s\n\tE.Data = data\n", strconv.Quote(version), strconv.Quote(rulesSHA))
	m.WriteString("\tE.Rels = []*rt.Rel{")
	for i, r := range gen.relList {
		if i > 0 {
			m.WriteString(", ")
		}
		m.WriteString(rn(r))
	}
	m.WriteString("}\n")
	fmt.Fprintf(&m, "\tE.TrueRel = make([]*rt.Rel, %d)\n", len(gen.fks)+1)
	fks := make([]int, 0, len(gen.trueRel))
	for fk := range gen.trueRel {
		fks = append(fks, int(fk))
	}
	sort.Ints(fks)
	for _, fk := range fks {
		if !gen.inc { // the incremental design's are in E.Inc
			fmt.Fprintf(&m, "\tE.TrueRel[%d] = R%d\n", fk, gen.trueRel[int32(fk)].id)
		}
	}
	fmt.Fprintf(&m, "\tE.Does = R%d\n", gen.does.id)
	roles := make([]string, len(gen.roles))
	for i, r := range gen.roles {
		roles[i] = strconv.Itoa(int(r))
	}
	fmt.Fprintf(&m, "\tE.Roles = []int32{%s}\n", strings.Join(roles, ", "))
	fmt.Fprintf(&m, "\tE.InitRel, E.LegalRel, E.NextRel, E.GoalRel, E.TermRel = %s, %s, %s, %s, %s\n",
		rn(gen.rels[gdl.SymInit]), rn(gen.rels[gdl.SymLegal]), rn(gen.rels[gdl.SymNext]), rn(gen.rels[gdl.SymGoal]), rn(gen.rels[gdl.SymTerminal]))
	ixName := func(sym gdl.Symbol) string {
		r := gen.rels[sym]
		if counted(r) {
			return "nil"
		}
		return fmt.Sprintf("X%d_%d", r.id, r.index([]int{0}))
	}
	fmt.Fprintf(&m, "\tE.LegalIx, E.GoalIx = %s, %s\n", ixName(gdl.SymLegal), ixName(gdl.SymGoal))
	for _, u := range gen.units {
		if iu := gen.incUnits[u]; iu != nil && !iu.plain {
			continue
		}
		rels := make([]string, len(u.rels))
		for i, r := range u.rels {
			rels[i] = fmt.Sprintf("R%d", r.id)
		}
		empty := ""
		if u.guard != nil && u.scope != rtStatic {
			empty = ", Guard: [][]*rt.Rel{" + strings.Join(u.guard, ", ") + "}"
		}
		fmt.Fprintf(&m, "\tU%d := &rt.Unit{Scope: %d, Rels: []*rt.Rel{%s}, Run: u%d%s}\n", u.id, u.scope, strings.Join(rels, ", "), u.id, empty)
	}
	list := func(us []*gunit) string {
		var s []string
		for _, u := range us {
			if !gen.inc || u.scope == rtStatic {
				s = append(s, fmt.Sprintf("U%d", u.id))
			}
		}
		return "[]*rt.Unit{" + strings.Join(s, ", ") + "}"
	}
	fmt.Fprintf(&m, "\tE.Units = %s\n", list(gen.units))
	if gen.inc {
		gen.emitIncUnits(&m)
	}
	fmt.Fprintf(&m, "\tE.QInit = %s\n\tE.QTerminal = %s\n\tE.QLegal = %s\n\tE.QNext = %s\n\tE.QGoal = %s\n",
		list(gen.closure(gdl.SymInit)), list(gen.closure(gdl.SymTerminal)), list(gen.closure(gdl.SymLegal)), list(gen.closure(gdl.SymNext)), list(gen.closure(gdl.SymGoal)))
	m.WriteString("\tE.AfterLoad = initAux\n\treturn E\n}\n")

	files := map[string][]byte{gen.pkg + "/engine.go": []byte(m.String())}
	// rule files of bounded size, split between functions
	code := gen.code.String()
	total := len(m.String())
	n := 0
	for len(code) > 0 {
		cut := len(code)
		if cut > maxFileBytes {
			cut = strings.Index(code[maxFileBytes:], "\n\nfunc ")
			if cut < 0 {
				cut = len(code)
			} else {
				cut += maxFileBytes + 2
			}
		}
		src := "// Code generated by gdlperf's compiled prover. DO NOT EDIT.\n\npackage " + gen.pkg + "\n\n" + code[:cut]
		files[fmt.Sprintf("%s/rules%d.go", gen.pkg, n)] = []byte(src)
		total += len(src)
		code = code[cut:]
		n++
	}
	if total > gen.maxSource {
		return nil, engines.Errorf(engines.ResourceLimit, "the game's generated source is %d bytes, over the budget of %d (%d rules, %d rule bodies)", total, gen.maxSource, len(gen.g.Rules), gen.plans)
	}
	data := gen.data()
	if len(data) > maxDataBytes {
		return nil, engines.Errorf(engines.ResourceLimit, "the game's data is %d bytes, over the budget of %d", len(data), maxDataBytes)
	}
	files[gen.pkg+"/game.bin"] = data
	return &generated{files: files, stats: fmt.Sprintf("%d rules, %d rule bodies, %d relations, %d bytes of source", len(gen.g.Rules), gen.plans, len(gen.relList), total)}, nil
}

func (gen *generator) data() []byte {
	b := []byte("GDLC1")
	v := func(x int) { b = binary.AppendVarint(b, int64(x)) }
	v(len(gen.names))
	for _, n := range gen.names {
		v(len(n))
		b = append(b, n...)
	}
	v(len(gen.fks))
	for _, k := range gen.fks {
		v(int(gen.nameID[k.name]))
		v(k.arity)
	}
	v(len(gen.groundL))
	for _, t := range gen.groundL {
		for _, x := range t {
			v(int(x))
		}
	}
	v(gen.nfacts)
	for _, x := range gen.facts {
		v(int(x))
	}
	return b
}
