package transform

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Renaming maps the names of a renamed game back to the original's.
type Renaming struct {
	From map[string]string // new name -> original name
	To   map[string]string // original name -> new name
}

// Back maps every name of a canonical GDL text (a term, a rule) of the
// renamed game to the original's; names it does not know stay.
func (rn *Renaming) Back(s string) string { return gdl.MapNames(s, rn.From) }

// Forth maps a canonical text of the original game to the new names.
func (rn *Renaming) Forth(s string) string { return gdl.MapNames(s, rn.To) }

// then is rn followed by next (rn may be nil): new names of next map to the
// original's through both.
func (rn *Renaming) then(next *Renaming) *Renaming {
	if rn == nil {
		return next
	}
	out := &Renaming{From: map[string]string{}, To: map[string]string{}}
	for nw, mid := range next.From {
		orig := mid
		if o, ok := rn.From[mid]; ok {
			orig = o
		}
		out.From[nw], out.To[orig] = orig, nw
	}
	return out
}

// kept says whether a name stays under rename: the keywords, and numbers,
// which may become goal values through a variable.
func kept(n string) bool {
	if gdl.Intern(n).IsKeyword() {
		return true
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

func word(rng *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 4+rng.IntN(6))
	for i := range b {
		b[i] = letters[rng.IntN(len(letters))]
	}
	return string(b)
}

// rename gives every name but the kept ones a new random word, the same
// everywhere (a relation, a function and a constant of one name stay one
// name); variables get words too.
func (t *state) rename() {
	rng := t.rng(0x72656e616d65)
	names := t.names()
	used := map[string]bool{}
	for n := range names {
		used[n] = true
	}
	rn := &Renaming{From: map[string]string{}, To: map[string]string{}}
	sym := map[gdl.Symbol]gdl.Symbol{}
	for _, n := range sortedKeys(names) {
		if kept(n) {
			continue
		}
		var w string
		for {
			w = word(rng)
			if strings.HasPrefix(n, "?") {
				w = "?" + w
			}
			if !used[w] && !kept(w) {
				break
			}
		}
		used[w] = true
		rn.To[n], rn.From[w] = w, n
		sym[gdl.Intern(n)] = gdl.Intern(w)
	}
	var term func(x *gdl.Term) *gdl.Term
	term = func(x *gdl.Term) *gdl.Term {
		n := *x
		if s, ok := sym[x.Name]; ok {
			n.Name = s
		}
		if len(x.Args) > 0 {
			n.Args = make([]*gdl.Term, len(x.Args))
			for i, a := range x.Args {
				n.Args[i] = term(a)
			}
		}
		return &n
	}
	var lit func(l *gdl.Literal) *gdl.Literal
	lit = func(l *gdl.Literal) *gdl.Literal {
		n := *l
		if l.Atom != nil {
			n.Atom = term(l.Atom)
		}
		if l.Left != nil {
			n.Left, n.Right = term(l.Left), term(l.Right)
		}
		if len(l.Sub) > 0 {
			n.Sub = make([]*gdl.Literal, len(l.Sub))
			for i, s := range l.Sub {
				n.Sub[i] = lit(s)
			}
		}
		return &n
	}
	out := make([]*gdl.Rule, len(t.rules))
	for i, r := range t.rules {
		nr := &gdl.Rule{Head: term(r.Head), Pos: r.Pos}
		for _, l := range r.Body {
			nr.Body = append(nr.Body, lit(l))
		}
		out[i] = nr
	}
	t.rules, t.renaming = out, rn
}
