package gdl

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a game file: 1-based line and column (in bytes).
type Pos struct {
	Line, Col int32
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// TermKind says what a Term is.
type TermKind uint8

// The kinds of terms.
const (
	Const TermKind = iota // a constant (or a proposition, as a sentence)
	Var                   // a variable, ?x
	Func                  // a function term (or a relation, as a sentence): (name args...)
)

// Term is a GDL term. A sentence is a Term too: a proposition is a Const and a
// relation a Func whose Name is the relation's name.
type Term struct {
	Kind TermKind
	Name Symbol
	Args []*Term
	Pos  Pos
}

// NewConst returns the constant name.
func NewConst(name Symbol) *Term { return &Term{Kind: Const, Name: name} }

// NewVar returns the variable name (with its '?').
func NewVar(name Symbol) *Term { return &Term{Kind: Var, Name: name} }

// NewFunc returns (name args...).
func NewFunc(name Symbol, args ...*Term) *Term {
	return &Term{Kind: Func, Name: name, Args: args}
}

// Arity is the number of arguments (0 for constants and variables).
func (t *Term) Arity() int { return len(t.Args) }

// IsGround reports whether t has no variables.
func (t *Term) IsGround() bool {
	switch t.Kind {
	case Var:
		return false
	case Func:
		for _, a := range t.Args {
			if !a.IsGround() {
				return false
			}
		}
	}
	return true
}

// Vars appends the variables of t, in order of first occurrence, to dst.
func (t *Term) Vars(dst []Symbol) []Symbol {
	switch t.Kind {
	case Var:
		for _, v := range dst {
			if v == t.Name {
				return dst
			}
		}
		return append(dst, t.Name)
	case Func:
		for _, a := range t.Args {
			dst = a.Vars(dst)
		}
	}
	return dst
}

// Equal reports whether t and u are the same term (positions ignored).
func (t *Term) Equal(u *Term) bool {
	if t.Kind != u.Kind || t.Name != u.Name || len(t.Args) != len(u.Args) {
		return false
	}
	for i := range t.Args {
		if !t.Args[i].Equal(u.Args[i]) {
			return false
		}
	}
	return true
}

// String prints t canonically: a constant as its name, a function as
// (name arg1 arg2) with single spaces.
func (t *Term) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Term) write(b *strings.Builder) {
	if t.Kind != Func {
		b.WriteString(t.Name.Name())
		return
	}
	b.WriteByte('(')
	b.WriteString(t.Name.Name())
	for _, a := range t.Args {
		b.WriteByte(' ')
		a.write(b)
	}
	b.WriteByte(')')
}

// Subst replaces variables by terms; variables not in the map stay.
type Subst map[Symbol]*Term

// Apply returns t with the substitution applied (sharing unchanged subterms).
func (s Subst) Apply(t *Term) *Term {
	switch t.Kind {
	case Var:
		if r, ok := s[t.Name]; ok {
			return r
		}
	case Func:
		var args []*Term
		for i, a := range t.Args {
			na := s.Apply(a)
			if na != a && args == nil {
				args = make([]*Term, len(t.Args))
				copy(args, t.Args[:i])
			}
			if args != nil {
				args[i] = na
			}
		}
		if args != nil {
			return &Term{Kind: Func, Name: t.Name, Args: args, Pos: t.Pos}
		}
	}
	return t
}

// LitKind says what a Literal is.
type LitKind uint8

// The kinds of body literals.
const (
	LitAtom     LitKind = iota // a sentence
	LitNot                     // (not sentence); before cleaning, (not literal)
	LitDistinct                // (distinct a b)
	LitOr                      // (or l1 l2 ...), removed by cleaning
)

// Literal is one element of a rule body.
type Literal struct {
	Kind  LitKind
	Atom  *Term      // LitAtom, and LitNot once cleaned
	Left  *Term      // LitDistinct
	Right *Term      // LitDistinct
	Sub   []*Literal // LitOr; LitNot before cleaning (one element)
	Pos   Pos
}

// Vars appends the variables of l, in order of first occurrence, to dst.
func (l *Literal) Vars(dst []Symbol) []Symbol {
	switch l.Kind {
	case LitAtom:
		return l.Atom.Vars(dst)
	case LitNot:
		if l.Atom != nil {
			return l.Atom.Vars(dst)
		}
		for _, s := range l.Sub {
			dst = s.Vars(dst)
		}
	case LitDistinct:
		return l.Right.Vars(l.Left.Vars(dst))
	case LitOr:
		for _, s := range l.Sub {
			dst = s.Vars(dst)
		}
	}
	return dst
}

func (l *Literal) String() string {
	switch l.Kind {
	case LitAtom:
		return l.Atom.String()
	case LitNot:
		if l.Atom != nil {
			return "(not " + l.Atom.String() + ")"
		}
		return "(not " + joinLits(l.Sub) + ")"
	case LitDistinct:
		return "(distinct " + l.Left.String() + " " + l.Right.String() + ")"
	case LitOr:
		return "(or " + joinLits(l.Sub) + ")"
	}
	return "?"
}

func joinLits(ls []*Literal) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.String()
	}
	return strings.Join(s, " ")
}

// Rule is a rule (<= Head Body...), or a fact when Body is empty.
type Rule struct {
	Head *Term
	Body []*Literal
	Pos  Pos
}

// String prints the rule canonically: a fact as its sentence, a rule as
// (<= head lit1 lit2 ...).
func (r *Rule) String() string {
	if len(r.Body) == 0 {
		return r.Head.String()
	}
	return "(<= " + r.Head.String() + " " + joinLits(r.Body) + ")"
}

// Vars returns the variables of the rule in order of first occurrence.
func (r *Rule) Vars() []Symbol {
	vs := r.Head.Vars(nil)
	for _, l := range r.Body {
		vs = l.Vars(vs)
	}
	return vs
}

// SortedStrings returns the canonical texts of terms, sorted.
func SortedStrings(terms []*Term) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.String()
	}
	sort.Strings(out)
	return out
}
