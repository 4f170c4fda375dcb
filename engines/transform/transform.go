// Package transform rewrites a game description into another that plays
// identically: GDL in, GDL out, printed canonically (one rule a line, as
// gdl.Rule prints it). The same game can be written in many ways, and
// engines differ in how much that matters, so each rewrite is a benchmark
// dimension of its own (issue 21):
//
//   - shuffle: the order of the rules and of each rule's conjuncts drawn
//     at random (seeded), keeping only what safety and the placement rule
//     of distinct and not need (each right after the positive literals
//     that bind its variables) and the order of the role facts;
//   - adversarial: the worst order for a left-to-right prover: the most
//     general positive literal first (most unbound variables, fewest
//     constants), every distinct and not at the end (still safe);
//   - rename: every relation, function, constant and variable renamed to a
//     random word (seeded), the keywords and the numbers kept (any number
//     may reach a goal value through a variable); the metamorphic check's
//     renaming as a visible transform;
//   - reorder: conjuncts ordered by binding, after Kissmann's lecture on
//     improving game descriptions, for the arguments each rule's callers
//     bind (legal and goal are asked for one role): a literal with no
//     unbound variable first (a test), then does, then literals that share
//     a bound variable (no cross products), the fewest new variables,
//     dynamic relations before static ones at a tie (measured: a state is
//     sparse), and every distinct and not as soon as its variables are
//     bound;
//   - deor: the front end's cleaning as a rewrite: (or ...) expanded into
//     one rule per disjunct, (not (or a b)) as (not a) (not b),
//     (not (distinct a b)) as the unification of a and b (gdl.Clean);
//   - inline: a non-recursive derived relation used once in the body of a
//     non-recursive rule is replaced there by its bodies (one rule per
//     rule of the relation, heads unified) and vanishes;
//   - dedupe: conjuncts that repeat an earlier one of their body, rules
//     that repeat another up to its variables' names, or that another
//     subsumes (theta-subsumption: an instance of the other's
//     head with a superset of an instance of its body), are removed;
//   - condense: GGP-Base's condensation isolation: a body of four or more
//     literals is split, its first half becoming a new relation over the
//     variables the second half and the head share with it; state
//     (true, next, init, base, input) and legal, goal and terminal keep
//     their names and facts;
//   - optimise: what gdlperf recommends: deor and dedupe, which only remove
//     work and keep the authors' order of conjuncts (see OptimiseChain for
//     the measurements behind leaving reorder out).
//
// Every transform but deor works on or-free rules, so a chain whose first
// transform is another one de-ORs first. Each step's output is loaded
// again (gdl.Load: parse, clean, validate) and must have the same roles,
// so a transform that breaks a game is an error naming it, never an
// invalid file. Equivalence is proven by playing (Follow, MapTrace and the
// tests): traces of the original and the transformed game must be equal,
// after mapping names back for rename.
package transform

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Info names a transform and says in one line what it does.
type Info struct {
	Name    string
	Summary string
}

// The transforms' names.
const (
	Shuffle     = "shuffle"
	Adversarial = "adversarial"
	Rename      = "rename"
	Reorder     = "reorder"
	Deor        = "deor"
	Inline      = "inline"
	Dedupe      = "dedupe"
	Condense    = "condense"
	Optimise    = "optimise"
)

// OptimiseChain is the chain the optimise transform stands for: the
// rewrites that only remove work. Conjunct order matters to the prover
// (adversarial plays connectFour and hex at 0.03x and 0.05x, shuffle at
// 0.14x and 0.18x of the original's rate), but the authors' orders are
// already good: reorder, measured with the prover on the twenty panel
// games (2 s runs, states per CPU-second, two rounds), has a geometric
// mean of 0.74x, from 0.08x (reversi) to 2.36x (nineBoardTicTacToe), so it
// is a benchmark dimension, not a recommendation. Since gdl.Load expands
// or and places distinct and not after their binders for every engine,
// what optimise changes of the program an engine runs is dedupe's work:
// of the 502 valid game versions of the base and dresden mirrors it
// changes 22 (7 by removing rules alone; 15 only once repeated conjuncts
// go, which in duplicateStateLarge makes 14 rules duplicates; on the
// panel only pentago), and Result.Unchanged says so of a game.
var OptimiseChain = []string{Deor, Dedupe}

var infos = []Info{
	{Shuffle, "rules and conjuncts in a random order (--seed), distinct and not right after their binders"},
	{Adversarial, "conjuncts in the worst order for a left-to-right prover: most general first, distinct and not last"},
	{Rename, "every relation, function, constant and variable renamed to a random word (--seed); keywords and numbers kept"},
	{Reorder, "conjuncts ordered by binding (Kissmann) for what the callers bind: tests, does, connected literals, fewest new variables, dynamic before static; distinct and not as soon as bound"},
	{Deor, "(or ...) expanded into one rule per disjunct, (not (or ..)) and (not (distinct ..)) rewritten"},
	{Inline, "non-recursive relations used once replaced by their bodies"},
	{Dedupe, "repeated conjuncts, duplicate rules and rules subsumed by another removed"},
	{Condense, "long bodies split through new relations (GGP-Base's condensation isolation)"},
	{Optimise, "the recommended chain: " + strings.Join(OptimiseChain, ",")},
}

// Names lists the transforms, in the order of the package comment.
func Names() []Info { return append([]Info(nil), infos...) }

// Seeded reports whether a chain of transforms depends on its seed
// (shuffle and rename draw from it); the others give one variant.
func Seeded(chain []string) bool {
	for _, n := range chain {
		if n == Shuffle || n == Rename {
			return true
		}
	}
	return false
}

// Known reports whether name is a transform.
func Known(name string) bool {
	for _, i := range infos {
		if i.Name == name {
			return true
		}
	}
	return false
}

// ParseNames splits a comma-separated chain and checks every name.
func ParseNames(spec string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(spec, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		if !Known(n) {
			return nil, fmt.Errorf("unknown transform %q; the transforms are %s", n, strings.Join(knownNames(), ", "))
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no transform named in %q; the transforms are %s", spec, strings.Join(knownNames(), ", "))
	}
	return out, nil
}

func knownNames() []string {
	out := make([]string, len(infos))
	for i, in := range infos {
		out[i] = in.Name
	}
	return out
}

// Result is a transformed game.
type Result struct {
	Names []string // the chain applied
	Seed  uint64
	Text  []byte      // the rulesheet, printed canonically
	Game  *gdl.Game   // Text loaded
	Rules []*gdl.Rule // the rules printed
	// Renaming maps the names of Text back to the original's; nil when the
	// chain renames nothing.
	Renaming *Renaming
	// Loaded is the number of rules of the original as an engine loads it
	// (gdl.Load: or expanded, distinct and not placed after their
	// binders), and Unchanged says that Text loads to the same rules in
	// the same order: every built-in engine then runs the same program
	// on both, and a rate under the chain over the untransformed rate
	// measures only the noise of the machine.
	Loaded    int
	Unchanged bool
}

// Back maps a canonical text of the transformed game (a state fact, a
// move) to the original's names.
func (r *Result) Back(s string) string {
	if r.Renaming == nil {
		return s
	}
	return r.Renaming.Back(s)
}

// Apply runs the chain names on the rulesheet src with seed and returns the
// transformed rulesheet, printed canonically.
func Apply(names []string, seed uint64, src []byte) ([]byte, error) {
	r, err := Run(names, seed, "game", src)
	if err != nil {
		return nil, err
	}
	return r.Text, nil
}

// Run runs the chain names on the rulesheet src (named file in messages).
// src must be a valid game; every step's output is loaded again and must
// be valid with the same roles, or Run fails naming the step.
func Run(names []string, seed uint64, file string, src []byte) (*Result, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no transform named; the transforms are %s", strings.Join(knownNames(), ", "))
	}
	for _, n := range names {
		if !Known(n) {
			return nil, fmt.Errorf("unknown transform %q; the transforms are %s", n, strings.Join(knownNames(), ", "))
		}
	}
	orig, err := gdl.Load(file, src)
	if err != nil {
		return nil, fmt.Errorf("the game is invalid, so it is not transformed: %w", err)
	}
	raw, _, err := gdl.Parse(file, src, gdl.DefaultLimits)
	if err != nil {
		return nil, err
	}
	t := &state{file: file, seed: seed, rules: raw, clean: false}
	res := &Result{Names: names, Seed: seed}
	roles := orig.Roles
	var steps []string
	for _, n := range names {
		steps = append(steps, n)
		if n == Optimise {
			for _, m := range OptimiseChain {
				if err := t.step(m); err != nil {
					return nil, fmt.Errorf("transform %s (%s): %w", n, m, err)
				}
			}
		} else if err := t.step(n); err != nil {
			return nil, fmt.Errorf("transform %s: %w", n, err)
		}
		text := Print(t.rules, "")
		g, err := gdl.Load(file+" ("+strings.Join(steps, ",")+")", text)
		if err != nil {
			return nil, fmt.Errorf("transform %s made an invalid game (a bug of the transform; reproduce with gdlperf transform %s --seed %d): %w", n, strings.Join(steps, ","), seed, err)
		}
		if t.renaming != nil {
			res.Renaming = res.Renaming.then(t.renaming)
			t.renaming = nil
		}
		if got, want := termTexts(g.Roles, res.Back), termTexts(roles, nil); got != want {
			return nil, fmt.Errorf("transform %s changed the roles from %s to %s (a bug of the transform)", n, want, got)
		}
		res.Game = g
	}
	res.Rules = t.rules
	res.Loaded, res.Unchanged = len(orig.Rules), sameRules(orig.Rules, res.Game.Rules)
	header := fmt.Sprintf("; gdlperf transform %s --seed %d\n", strings.Join(names, ","), seed)
	res.Text = Print(t.rules, header)
	return res, nil
}

// sameRules reports whether a and b are the same rules in the same order.
func sameRules(a, b []*gdl.Rule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].String() != b[i].String() {
			return false
		}
	}
	return true
}

func termTexts(ts []*gdl.Term, back func(string) string) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
		if back != nil {
			s[i] = back(s[i])
		}
	}
	return strings.Join(s, " ")
}

// Print writes rules one a line, canonically, after header.
func Print(rules []*gdl.Rule, header string) []byte {
	var b strings.Builder
	b.WriteString(header)
	for _, r := range rules {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// state is a chain being applied.
type state struct {
	file     string
	seed     uint64
	rules    []*gdl.Rule
	clean    bool      // or-free, (not (distinct ..)) rewritten
	renaming *Renaming // of the last step
	fresh    int       // counter for new names
}

func (t *state) step(name string) error {
	if name != Deor && !t.clean {
		if err := t.deor(); err != nil {
			return err
		}
	}
	switch name {
	case Deor:
		return t.deor()
	case Shuffle:
		t.shuffle()
	case Adversarial:
		t.adversarial()
	case Rename:
		t.rename()
	case Reorder:
		t.reorder()
	case Inline:
		t.inline()
	case Dedupe:
		t.dedupe()
	case Condense:
		t.condense()
	default:
		return fmt.Errorf("unknown transform %q", name)
	}
	return nil
}

// deor runs the front end's cleaning.
func (t *state) deor() error {
	rules, findings := gdl.Clean(t.file, t.rules, gdl.DefaultLimits)
	if errs := findings.Errors(); len(errs) > 0 {
		return fmt.Errorf("deor: %v", errs[0])
	}
	t.rules, t.clean = rules, true
	return nil
}

// rng returns the random source of one step of the chain.
func (t *state) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(t.seed, stream))
}

// names returns every name the rules use.
func (t *state) names() map[string]bool {
	names := map[string]bool{}
	var collect func(x *gdl.Term)
	collect = func(x *gdl.Term) {
		names[x.Name.Name()] = true
		for _, a := range x.Args {
			collect(a)
		}
	}
	for _, r := range t.rules {
		collect(r.Head)
		for _, l := range r.Body {
			eachTerm(l, collect)
		}
	}
	return names
}

// eachTerm calls f on the top terms of l.
func eachTerm(l *gdl.Literal, f func(*gdl.Term)) {
	for _, x := range []*gdl.Term{l.Atom, l.Left, l.Right} {
		if x != nil {
			f(x)
		}
	}
	for _, s := range l.Sub {
		eachTerm(s, f)
	}
}

// sortedKeys returns the keys of m sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
