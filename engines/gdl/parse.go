package gdl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits bound the work of reading a game file, which may come from anyone.
type Limits struct {
	MaxBytes int // size of the file
	MaxDepth int // nesting of parentheses
	MaxNodes int // atoms and lists in the file
	MaxRules int // rules after or-expansion
}

// DefaultLimits are far above any real game (the largest ggp.org rulesheet
// is under 1 MiB with a nesting depth under 20).
var DefaultLimits = Limits{
	MaxBytes: 16 << 20,
	MaxDepth: 512,
	MaxNodes: 4 << 20,
	MaxRules: 200_000,
}

// sexpr is the untyped tree of a file: an atom or a list.
type sexpr struct {
	atom   string // lower-cased; "" for a list
	raw    string // the atom as written
	list   []*sexpr
	isList bool
	pos    Pos
}

func (s *sexpr) String() string {
	if !s.isList {
		return s.atom
	}
	parts := make([]string, len(s.list))
	for i, e := range s.list {
		parts[i] = e.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// readSexprs splits src into top-level s-expressions.
func readSexprs(file string, src []byte, lim Limits) ([]*sexpr, error) {
	if lim.MaxBytes > 0 && len(src) > lim.MaxBytes {
		return nil, &SyntaxError{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, over the limit of %d", len(src), lim.MaxBytes)}
	}
	var (
		top   []*sexpr
		stack []*sexpr
		line  int32 = 1
		col   int32 = 1
		nodes int
	)
	add := func(e *sexpr) error {
		nodes++
		if lim.MaxNodes > 0 && nodes > lim.MaxNodes {
			return &SyntaxError{File: file, Pos: e.pos, Msg: fmt.Sprintf("more than %d atoms and lists, over the limit", lim.MaxNodes)}
		}
		if len(stack) == 0 {
			top = append(top, e)
		} else {
			p := stack[len(stack)-1]
			p.list = append(p.list, e)
		}
		return nil
	}
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3 // a UTF-8 byte-order mark
	}
	for i < len(src) {
		c := src[i]
		pos := Pos{line, col}
		switch {
		case c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
			// LF, or a lone CR (old Mac line ends); a CR before LF is space.
			line++
			col = 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			col++
			continue
		case c == 0xEF && i+2 < len(src) && src[i+1] == 0xBB && src[i+2] == 0xBF:
			// A byte-order mark where a token would start (files joined
			// with cat) is space, as at the start of the file; were it the
			// start of a name, the printed rules would lose it.
			i += 3
			col += 3
			continue
		case c == ';':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '(':
			if lim.MaxDepth > 0 && len(stack) >= lim.MaxDepth {
				return nil, &SyntaxError{File: file, Pos: pos, Msg: fmt.Sprintf("parentheses nested more than %d deep", lim.MaxDepth)}
			}
			e := &sexpr{isList: true, pos: pos}
			if err := add(e); err != nil {
				return nil, err
			}
			stack = append(stack, e)
			i++
			col++
			continue
		case c == ')':
			if len(stack) == 0 {
				return nil, &SyntaxError{File: file, Pos: pos, Msg: "unbalanced parentheses: ')' without a matching '('"}
			}
			stack = stack[:len(stack)-1]
			i++
			col++
			continue
		}
		// An atom: everything up to whitespace, a parenthesis or a comment.
		start := i
		for i < len(src) {
			c := src[i]
			if c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
				break
			}
			if c < 0x20 || c == 0x7f {
				return nil, &SyntaxError{File: file, Pos: Pos{line, col + int32(i-start)}, Msg: fmt.Sprintf("unexpected byte 0x%02x: not a text file?", c)}
			}
			if c >= 0x80 {
				r, n := utf8.DecodeRune(src[i:])
				if r == utf8.RuneError && n <= 1 {
					return nil, &SyntaxError{File: file, Pos: Pos{line, col + int32(i-start)}, Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x: not a text file?", c)}
				}
				i += n
				continue
			}
			i++
		}
		raw := string(src[start:i])
		col += int32(len(raw)) // columns count bytes
		if err := add(&sexpr{atom: strings.ToLower(raw), raw: raw, pos: pos}); err != nil {
			return nil, err
		}
	}
	if len(stack) > 0 {
		open := stack[len(stack)-1]
		return nil, &SyntaxError{File: file, Pos: open.pos, Msg: fmt.Sprintf("unbalanced parentheses: '(' is never closed (%d missing at end of file)", len(stack))}
	}
	return top, nil
}

// parser turns s-expressions into rules, collecting findings.
type parser struct {
	file     string
	findings Findings
	spelling map[string]string // lower-cased name -> first spelling
	reported map[string]bool
}

func (p *parser) add(sev Severity, code string, pos Pos, format string, args ...any) {
	p.findings = append(p.findings, Finding{Severity: sev, Code: code, File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads a KIF game description into rules, before cleaning and
// validation. A malformed file is a *SyntaxError with its position; what is
// well-formed text but not GDL becomes a finding.
func Parse(file string, src []byte, lim Limits) ([]*Rule, Findings, error) {
	top, err := readSexprs(file, src, lim)
	if err != nil {
		return nil, nil, err
	}
	p := &parser{file: file, spelling: map[string]string{}, reported: map[string]bool{}}
	var rules []*Rule
	for _, e := range top {
		if r := p.rule(e); r != nil {
			rules = append(rules, r)
		}
	}
	return rules, p.findings, nil
}

func (p *parser) symbol(e *sexpr) Symbol {
	if isVarName(e.atom) {
		// A variable's scope is its rule: ?X and ?x in two rules are harmless.
		return Intern(e.atom)
	}
	if first, ok := p.spelling[e.atom]; !ok {
		p.spelling[e.atom] = e.raw
	} else if first != e.raw && !p.reported[e.atom] {
		p.reported[e.atom] = true
		p.add(Warning, CodeCapitalisation, e.pos, "%s is also written %s; names are case-insensitive, so both are read as %s", e.raw, first, e.atom)
	}
	return Intern(e.atom)
}

func isVarName(s string) bool { return strings.HasPrefix(s, "?") }

func (p *parser) rule(e *sexpr) *Rule {
	if e.isList && len(e.list) > 0 && !e.list[0].isList && e.list[0].atom == "<=" {
		if len(e.list) < 2 {
			p.add(Error, CodeSyntax, e.pos, "rule %s has no head", e)
			return nil
		}
		head := p.sentence(e.list[1])
		if head == nil {
			return nil
		}
		r := &Rule{Head: head, Pos: e.pos}
		if len(e.list) == 2 {
			p.add(Warning, CodeEmptyRule, e.pos, "%s is written as a rule with an empty body; read as the fact %s", e, head)
		}
		for _, b := range e.list[2:] {
			l := p.literal(b)
			if l == nil {
				return nil
			}
			r.Body = append(r.Body, l)
		}
		return r
	}
	head := p.sentence(e)
	if head == nil {
		return nil
	}
	return &Rule{Head: head, Pos: e.pos}
}

// sentence reads a sentence: a proposition or a relation.
func (p *parser) sentence(e *sexpr) *Term {
	if !e.isList {
		if isVarName(e.atom) {
			p.add(Error, CodeVariableName, e.pos, "variable %s is used as a sentence", e.raw)
			return nil
		}
		if e.atom == "<=" || e.atom == "not" || e.atom == "or" || e.atom == "distinct" {
			p.add(Error, CodeKeywordPlace, e.pos, "keyword %s is used as a sentence", e.atom)
			return nil
		}
		return &Term{Kind: Const, Name: p.symbol(e), Pos: e.pos}
	}
	if len(e.list) == 0 {
		p.add(Error, CodeSyntax, e.pos, "empty list () is not a sentence")
		return nil
	}
	h := e.list[0]
	if h.isList {
		p.add(Error, CodeSyntax, h.pos, "a sentence's name must be a constant, not the list %s", h)
		return nil
	}
	if isVarName(h.atom) {
		p.add(Error, CodeVariableName, h.pos, "a sentence's name must be a constant, not the variable %s", h.raw)
		return nil
	}
	switch h.atom {
	case "<=", "not", "or", "distinct":
		p.add(Error, CodeKeywordPlace, h.pos, "keyword %s cannot be used here: %s is not a sentence", h.atom, e)
		return nil
	}
	if len(e.list) == 1 {
		p.add(Warning, CodeZeroArity, e.pos, "%s is written as a zero-arity relation; read as the proposition %s", e, h.atom)
		return &Term{Kind: Const, Name: p.symbol(h), Pos: e.pos}
	}
	t := &Term{Kind: Func, Name: p.symbol(h), Pos: e.pos, Args: make([]*Term, 0, len(e.list)-1)}
	for _, a := range e.list[1:] {
		at := p.term(a)
		if at == nil {
			return nil
		}
		t.Args = append(t.Args, at)
	}
	return t
}

// term reads an argument: a constant, a variable or a function term.
func (p *parser) term(e *sexpr) *Term {
	if !e.isList {
		if isVarName(e.atom) {
			if len(e.atom) == 1 {
				p.add(Error, CodeSyntax, e.pos, "a variable needs a name after '?'")
				return nil
			}
			return &Term{Kind: Var, Name: p.symbol(e), Pos: e.pos}
		}
		if e.atom == "<=" {
			p.add(Error, CodeKeywordPlace, e.pos, "keyword <= is used as a constant")
			return nil
		}
		return &Term{Kind: Const, Name: p.symbol(e), Pos: e.pos}
	}
	if len(e.list) == 0 {
		p.add(Error, CodeSyntax, e.pos, "empty list () is not a term")
		return nil
	}
	h := e.list[0]
	if h.isList || isVarName(h.atom) {
		p.add(Error, CodeSyntax, h.pos, "a function's name must be a constant, not %s", h)
		return nil
	}
	if h.atom == "<=" {
		p.add(Error, CodeKeywordPlace, h.pos, "keyword <= is used as a function")
		return nil
	}
	if len(e.list) == 1 {
		p.add(Warning, CodeZeroArity, e.pos, "%s is written as a zero-arity function; read as the constant %s", e, h.atom)
		return &Term{Kind: Const, Name: p.symbol(h), Pos: e.pos}
	}
	t := &Term{Kind: Func, Name: p.symbol(h), Pos: e.pos, Args: make([]*Term, 0, len(e.list)-1)}
	for _, a := range e.list[1:] {
		at := p.term(a)
		if at == nil {
			return nil
		}
		t.Args = append(t.Args, at)
	}
	return t
}

// literal reads a body literal.
func (p *parser) literal(e *sexpr) *Literal {
	if e.isList && len(e.list) > 0 && !e.list[0].isList {
		switch e.list[0].atom {
		case "not":
			if len(e.list) != 2 {
				p.add(Error, CodeKeywordArity, e.pos, "not takes one argument, not %d: %s", len(e.list)-1, e)
				return nil
			}
			sub := p.literal(e.list[1])
			if sub == nil {
				return nil
			}
			return &Literal{Kind: LitNot, Sub: []*Literal{sub}, Pos: e.pos}
		case "distinct":
			if len(e.list) != 3 {
				p.add(Error, CodeKeywordArity, e.pos, "distinct takes two arguments, not %d: %s", len(e.list)-1, e)
				return nil
			}
			l, r := p.term(e.list[1]), p.term(e.list[2])
			if l == nil || r == nil {
				return nil
			}
			return &Literal{Kind: LitDistinct, Left: l, Right: r, Pos: e.pos}
		case "or":
			if len(e.list) < 2 {
				p.add(Error, CodeKeywordArity, e.pos, "or needs at least one argument: %s", e)
				return nil
			}
			l := &Literal{Kind: LitOr, Pos: e.pos}
			for _, s := range e.list[1:] {
				sub := p.literal(s)
				if sub == nil {
					return nil
				}
				l.Sub = append(l.Sub, sub)
			}
			return l
		}
	}
	s := p.sentence(e)
	if s == nil {
		return nil
	}
	return &Literal{Kind: LitAtom, Atom: s, Pos: e.pos}
}
