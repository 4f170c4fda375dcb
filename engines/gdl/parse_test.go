package gdl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		lim      Limits
		wantLine int32
		wantCol  int32
		wantMsg  string
	}{
		{
			name:     "close paren too many, same line",
			src:      "(role x))",
			wantLine: 1, wantCol: 9,
			wantMsg: "')' without a matching '('",
		},
		{
			name:     "close paren too many, later line",
			src:      "(role x)\n(init (cell 1))\n\n   )\n(role y)",
			wantLine: 4, wantCol: 4,
			wantMsg: "')' without a matching '('",
		},
		{
			name:     "close paren too many after a comment with parens",
			src:      "; (((\n(role x) ; )\n)",
			wantLine: 3, wantCol: 1,
			wantMsg: "')' without a matching '('",
		},
		{
			name:     "unclosed paren reports where it opened",
			src:      "(role x)\n  (<= (legal x noop)\n      (true (control x))\n",
			wantLine: 2, wantCol: 3,
			wantMsg: "'(' is never closed (1 missing",
		},
		{
			name:     "unclosed paren swallowing the rest of the file",
			src:      "(role x)\n(<= (p ?x) (q ?x)\n(r a)\n(s b)\n",
			wantLine: 2, wantCol: 1,
			wantMsg: "'(' is never closed",
		},
		{
			name:     "unclosed paren after a tab",
			src:      "(role x)\n\t(init (cell 1)",
			wantLine: 2, wantCol: 2,
			wantMsg: "'(' is never closed",
		},
		{
			name:     "NUL byte inside an atom",
			src:      "(role x)\n(init (cell\x00 1))",
			wantLine: 2, wantCol: 12,
			wantMsg: "unexpected byte 0x00",
		},
		{
			name:     "NUL byte on its own",
			src:      "(role x)\n(init \x00)",
			wantLine: 2, wantCol: 7,
			wantMsg: "unexpected byte 0x00",
		},
		{
			name:     "other control byte",
			src:      "(role \x01x)",
			wantLine: 1, wantCol: 7,
			wantMsg: "unexpected byte 0x01",
		},
		{
			name:     "DEL byte",
			src:      "(role x\x7f)",
			wantLine: 1, wantCol: 8,
			wantMsg: "unexpected byte 0x7f",
		},
		{
			name:     "invalid UTF-8 byte",
			src:      "(role x)\n(role r\xff)",
			wantLine: 2, wantCol: 8,
			wantMsg: "invalid UTF-8 byte 0xff",
		},
		{
			name:     "truncated UTF-8 sequence",
			src:      "(role \xc3)",
			wantLine: 1, wantCol: 7,
			wantMsg: "invalid UTF-8 byte 0xc3",
		},
		{
			name:     "binary garbage",
			src:      "\x89PNG\r\n\x1a\n\x00\x00",
			wantLine: 1, wantCol: 1,
			wantMsg: "invalid UTF-8 byte 0x89",
		},
		{
			name:     "nesting deeper than DefaultLimits.MaxDepth",
			src:      strings.Repeat("(", DefaultLimits.MaxDepth+1) + "a" + strings.Repeat(")", DefaultLimits.MaxDepth+1),
			wantLine: 1, wantCol: int32(DefaultLimits.MaxDepth + 1),
			wantMsg: fmt.Sprintf("nested more than %d deep", DefaultLimits.MaxDepth),
		},
		{
			name:     "nesting deeper than a small MaxDepth",
			src:      "(role x)\n(a (b (c (d))))",
			lim:      Limits{MaxDepth: 3},
			wantLine: 2, wantCol: 10,
			wantMsg: "nested more than 3 deep",
		},
		{
			name:     "file over MaxBytes",
			src:      "(role xplayer)",
			lim:      Limits{MaxBytes: 10},
			wantLine: 1, wantCol: 1,
			wantMsg: "over the limit of 10",
		},
		{
			name:     "too many nodes",
			src:      "(role x) (init y)",
			lim:      Limits{MaxNodes: 5},
			wantLine: 1, wantCol: 16,
			wantMsg: "more than 5 atoms and lists",
		},
		{
			name:     "too many nodes counts lists",
			src:      "((((()))))",
			lim:      Limits{MaxNodes: 4},
			wantLine: 1, wantCol: 5,
			wantMsg: "more than 4 atoms and lists",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := tt.lim
			if lim == (Limits{}) {
				lim = DefaultLimits
			}
			rules, fs, err := Parse("bad.kif", []byte(tt.src), lim)
			se := syntaxError(t, err)
			assert.Nil(t, rules)
			assert.Nil(t, fs)
			assert.Equal(t, "bad.kif", se.File)
			assert.Equal(t, Pos{tt.wantLine, tt.wantCol}, se.Pos, "message: %s", se.Msg)
			assert.Contains(t, se.Msg, tt.wantMsg)
			assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("bad.kif:%d:%d: ", tt.wantLine, tt.wantCol)), "error text %q", err)

			// Check and Load report the same error.
			_, cerr := Check("bad.kif", []byte(tt.src), lim)
			assert.Equal(t, se, syntaxError(t, cerr))
		})
	}
}

// Columns are counted in bytes (ast.go: "1-based line and column (in
// bytes)"), including after a multi-byte UTF-8 character earlier on the line.
func TestParseColumnsAreBytes(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantLine int32
		wantCol  int32
	}{
		{name: "invalid byte inside an atom after a multi-byte rune", src: "(p \u00e9\xff)", wantLine: 1, wantCol: 6},
		{name: "extra paren after a multi-byte atom", src: "(p \u00e9) )", wantLine: 1, wantCol: 8},
		{name: "NUL after a multi-byte atom", src: "(\u00e9\u00e9 \x00)", wantLine: 1, wantCol: 7},
		{name: "extra paren after a three-byte rune", src: "(p \u20ac))", wantLine: 1, wantCol: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("", []byte(tt.src), DefaultLimits)
			se := syntaxError(t, err)
			assert.Equal(t, Pos{tt.wantLine, tt.wantCol}, se.Pos, "message: %s", se.Msg)
		})
	}
}

func TestParseLimitsAreInclusive(t *testing.T) {
	tests := []struct {
		name string
		src  string
		lim  Limits
	}{
		{name: "depth exactly MaxDepth", src: "(a (b (c)))", lim: Limits{MaxDepth: 3}},
		{name: "size exactly MaxBytes", src: "(role x)", lim: Limits{MaxBytes: 8}},
		{name: "nodes exactly MaxNodes", src: "(role x) (init y)", lim: Limits{MaxNodes: 6}},
		{name: "depth exactly DefaultLimits.MaxDepth", src: strings.Repeat("(", DefaultLimits.MaxDepth) + "a" + strings.Repeat(")", DefaultLimits.MaxDepth), lim: DefaultLimits},
		{name: "zero limits mean no limit", src: strings.Repeat("(a ", 2000) + strings.Repeat(")", 2000), lim: Limits{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("", []byte(tt.src), tt.lim)
			assert.NoError(t, err)
		})
	}
}

func TestSyntaxErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *SyntaxError
		want string
	}{
		{name: "with file", err: &SyntaxError{File: "games/x.kif", Pos: Pos{3, 7}, Msg: "boom"}, want: "games/x.kif:3:7: boom"},
		{name: "without file", err: &SyntaxError{Pos: Pos{1, 2}, Msg: "boom"}, want: "1:2: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

// Parse-level findings: well-formed text that is not (clean) GDL.
func TestParseFindings(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantRules []string
		wantCode  string
		wantSev   Severity
		wantPos   Pos
	}{
		{
			name:      "zero-arity relation read as a proposition",
			src:       "(foo)",
			wantRules: []string{"foo"},
			wantCode:  CodeZeroArity, wantSev: Warning, wantPos: Pos{1, 1},
		},
		{
			name:      "zero-arity relation in a body",
			src:       "(<= terminal\n    (true done)\n    (movepossible))",
			wantRules: []string{"(<= terminal (true done) movepossible)"},
			wantCode:  CodeZeroArity, wantSev: Warning, wantPos: Pos{3, 5},
		},
		{
			name:      "zero-arity function read as a constant",
			src:       "(init (control (gameover)))",
			wantRules: []string{"(init (control gameover))"},
			wantCode:  CodeZeroArity, wantSev: Warning, wantPos: Pos{1, 16},
		},
		{
			name:      "empty rule read as a fact",
			src:       "(role robot)\n(<= (legal robot giveup))",
			wantRules: []string{"(role robot)", "(legal robot giveup)"},
			wantCode:  CodeEmptyRule, wantSev: Warning, wantPos: Pos{2, 1},
		},
		{
			name:      "empty rule with a function in the head",
			src:       "(<= (base (step 1)))",
			wantRules: []string{"(base (step 1))"},
			wantCode:  CodeEmptyRule, wantSev: Warning, wantPos: Pos{1, 1},
		},
		{
			name:      "rule without a head",
			src:       "(role r)\n(<=)",
			wantRules: []string{"(role r)"},
			wantCode:  CodeSyntax, wantSev: Error, wantPos: Pos{2, 1},
		},
		{
			name:      "empty list as a sentence",
			src:       "(<= terminal ())",
			wantRules: []string{},
			wantCode:  CodeSyntax, wantSev: Error, wantPos: Pos{1, 14},
		},
		{
			name:      "empty list as a term",
			src:       "(cell ())",
			wantRules: []string{},
			wantCode:  CodeSyntax, wantSev: Error, wantPos: Pos{1, 7},
		},
		{
			name:      "list as a sentence name",
			src:       "((cell) 1)",
			wantRules: []string{},
			wantCode:  CodeSyntax, wantSev: Error, wantPos: Pos{1, 2},
		},
		{
			name:      "variable without a name",
			src:       "(cell ?)",
			wantRules: []string{},
			wantCode:  CodeSyntax, wantSev: Error, wantPos: Pos{1, 7},
		},
		{
			name:      "variable as a sentence",
			src:       "(<= terminal ?x (p ?x))",
			wantRules: []string{},
			wantCode:  CodeVariableName, wantSev: Error, wantPos: Pos{1, 14},
		},
		{
			name:      "variable as a relation name",
			src:       "(?r a)",
			wantRules: []string{},
			wantCode:  CodeVariableName, wantSev: Error, wantPos: Pos{1, 2},
		},
		{
			name:      "distinct as a fact",
			src:       "(distinct a b)",
			wantRules: []string{},
			wantCode:  CodeKeywordPlace, wantSev: Error, wantPos: Pos{1, 2},
		},
		{
			name:      "not with two arguments",
			src:       "(<= p (not q r))",
			wantRules: []string{},
			wantCode:  CodeKeywordArity, wantSev: Error, wantPos: Pos{1, 7},
		},
		{
			name:      "distinct with three arguments",
			src:       "(<= p (q ?x) (distinct ?x a b))",
			wantRules: []string{},
			wantCode:  CodeKeywordArity, wantSev: Error, wantPos: Pos{1, 14},
		},
		{
			name:      "empty or",
			src:       "(<= p (or))",
			wantRules: []string{},
			wantCode:  CodeKeywordArity, wantSev: Error, wantPos: Pos{1, 7},
		},
		{
			name:      "<= as a constant",
			src:       "(cell <=)",
			wantRules: []string{},
			wantCode:  CodeKeywordPlace, wantSev: Error, wantPos: Pos{1, 7},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, fs := mustParse(t, tt.src)
			assert.Equal(t, tt.wantRules, append([]string{}, ruleStrings(rules)...))
			got := withCode(fs, tt.wantCode)
			require.Len(t, got, 1, "findings: %s", describe(fs))
			assert.Equal(t, tt.wantSev, got[0].Severity)
			assert.Equal(t, tt.wantPos, got[0].Pos)
			assert.Equal(t, "game.kif", got[0].File)
			assert.NotEmpty(t, got[0].Msg)
		})
	}
}

func TestParseZeroArityIsTheProposition(t *testing.T) {
	rules, _ := mustParse(t, "(foo)\n(<= bar foo)\n(<= baz (foo))")
	require.Len(t, rules, 3)
	foo := rules[0].Head
	assert.Equal(t, Const, foo.Kind)
	assert.Equal(t, Intern("foo"), foo.Name)
	assert.Equal(t, 0, foo.Arity())
	assert.True(t, foo.Equal(rules[1].Body[0].Atom))
	assert.True(t, foo.Equal(rules[2].Body[0].Atom))
}

func TestParseEmptyRuleIsAFact(t *testing.T) {
	rules, fs := mustParse(t, "(<= (legal robot giveup))")
	require.Len(t, rules, 1)
	assert.Empty(t, rules[0].Body)
	assert.Equal(t, "(legal robot giveup)", rules[0].Head.String())
	require.Len(t, fs, 1)
	assert.Equal(t, CodeEmptyRule, fs[0].Code)
	assert.Equal(t, Warning, fs[0].Severity)
	assert.Contains(t, fs[0].Msg, "(legal robot giveup)")
}

func TestParseCaseInsensitive(t *testing.T) {
	src := "(<= whiteWin (true (cell 1 1 x)))\n" +
		"(<= (goal white 100) whitewin)\n" +
		"(<= (goal black 0) WHITEWIN)\n"
	rules, fs := mustParse(t, src)
	require.Len(t, rules, 3)
	a := rules[0].Head
	b := rules[1].Body[0].Atom
	c := rules[2].Body[0].Atom
	assert.Equal(t, a.Name, b.Name, "whiteWin and whitewin are one symbol")
	assert.Equal(t, a.Name, c.Name, "whiteWin and WHITEWIN are one symbol")
	assert.Equal(t, "whitewin", a.Name.Name(), "symbols are lower-cased")
	assert.Equal(t, "whitewin", a.String())

	caps := withCode(fs, CodeCapitalisation)
	require.Len(t, caps, 1, "one warning per name, however many spellings: %s", describe(fs))
	assert.Equal(t, Warning, caps[0].Severity)
	assert.Equal(t, Pos{2, 22}, caps[0].Pos, "reported where the second spelling is")
	assert.Contains(t, caps[0].Msg, "whiteWin")
	assert.Contains(t, caps[0].Msg, "whitewin")
}

func TestParseKeywordsAndVariablesAreCaseInsensitive(t *testing.T) {
	rules, _ := mustParse(t, "(ROLE Robot)\n(<= (Legal robot (Move ?X)) (TRUE (cell ?x)) (NOT (Blocked ?x)))")
	require.Len(t, rules, 2)
	assert.Equal(t, SymRole, rules[0].Head.Name)
	assert.Equal(t, "(role robot)", rules[0].String())
	r := rules[1]
	assert.Equal(t, SymLegal, r.Head.Name)
	require.Len(t, r.Body, 2)
	assert.Equal(t, SymTrue, r.Body[0].Atom.Name)
	assert.Equal(t, LitNot, r.Body[1].Kind, "NOT is the keyword not")
	assert.Equal(t, []Symbol{Intern("?x")}, r.Vars(), "?X and ?x are one variable")
	assert.Equal(t, "(<= (legal robot (move ?x)) (true (cell ?x)) (not (blocked ?x)))", r.String())
}

func TestParseComments(t *testing.T) {
	src := "; a header comment (with (unbalanced parens\n" +
		";; another one\n" +
		"(role robot) ; trailing comment )))\n" +
		"(init ;inline comment\n" +
		"  (cell 1))\n" +
		"(role other;comment right after an atom\n" +
		")\n" +
		"; last line without a newline"
	rules, fs := mustParse(t, src)
	assert.Empty(t, fs)
	assert.Equal(t, []string{"(role robot)", "(init (cell 1))", "(role other)"}, ruleStrings(rules))
	require.Len(t, rules, 3)
	assert.Equal(t, Pos{3, 1}, rules[0].Pos)
	assert.Equal(t, Pos{4, 1}, rules[1].Pos)
	assert.Equal(t, Pos{5, 3}, rules[1].Head.Args[0].Pos, "positions count the lines of comments")
	assert.Equal(t, Pos{6, 7}, rules[2].Head.Args[0].Pos)
}

func TestParseEmptyInputs(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{name: "empty", src: ""},
		{name: "whitespace", src: " \t\r\n\f\v\n"},
		{name: "only comments", src: "; one\n;two ((\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, fs := mustParse(t, tt.src)
			assert.Empty(t, rules)
			assert.Empty(t, fs)
		})
	}
}

// Old Mac files end lines with a lone CR. GGP-Base reads lines with
// BufferedReader.readLine, and gdlperf's game keys treat CR as a line end
// (ARCHITECTURE.md §5), so a comment ends at a CR and lines are counted.
func TestParseLoneCRIsALineEnd(t *testing.T) {
	rules, _ := mustParse(t, "(role a)\r; a comment\r(role b)\r")
	require.Equal(t, []string{"(role a)", "(role b)"}, ruleStrings(rules))
	assert.Equal(t, Pos{3, 1}, rules[1].Pos)
}

func TestParseCRLF(t *testing.T) {
	rules, fs := mustParse(t, "(role a)\r\n; comment\r\n(<= (p ?x)\r\n    (q ?x))\r\n")
	assert.Empty(t, fs)
	require.Equal(t, []string{"(role a)", "(<= (p ?x) (q ?x))"}, ruleStrings(rules))
	assert.Equal(t, Pos{3, 1}, rules[1].Pos)
	assert.Equal(t, Pos{4, 5}, rules[1].Body[0].Pos)
}

// A UTF-8 byte order mark (as some Windows editors write) is not a sentence.
func TestParseByteOrderMark(t *testing.T) {
	rules, fs := mustParse(t, "\ufeff(role a)\n(init p)\n")
	assert.Equal(t, []string{"(role a)", "(init p)"}, ruleStrings(rules))
	assert.Empty(t, fs)

	// Two files joined: a mark where a token starts is space too; inside
	// a name it is a character of the name.
	rules, fs = mustParse(t, "(role a)\n\ufeff(init p)\n \ufeffq (r \ufeffs x\ufeffy)\n")
	assert.Equal(t, []string{"(role a)", "(init p)", "q", "(r s x\ufeffy)"}, ruleStrings(rules))
	assert.Empty(t, fs)
	assert.Equal(t, Pos{2, 4}, rules[1].Pos, "columns count bytes")
}

func TestParsePositions(t *testing.T) {
	src := "(role robot)\n" +
		"(<= (legal ?p noop)\n" +
		"    (true (control ?p))\n" +
		"\t(not (distinct ?p robot)))\n"
	rules, fs := mustParse(t, src)
	assert.Empty(t, fs)
	require.Len(t, rules, 2)
	r := rules[1]
	assert.Equal(t, Pos{2, 1}, r.Pos)
	assert.Equal(t, Pos{2, 5}, r.Head.Pos)
	assert.Equal(t, Pos{2, 12}, r.Head.Args[0].Pos)
	assert.Equal(t, Pos{2, 15}, r.Head.Args[1].Pos)
	require.Len(t, r.Body, 2)
	assert.Equal(t, Pos{3, 5}, r.Body[0].Pos)
	assert.Equal(t, Pos{3, 5}, r.Body[0].Atom.Pos)
	assert.Equal(t, Pos{3, 11}, r.Body[0].Atom.Args[0].Pos)
	assert.Equal(t, Pos{3, 20}, r.Body[0].Atom.Args[0].Args[0].Pos)
	assert.Equal(t, Pos{4, 2}, r.Body[1].Pos)
	require.Len(t, r.Body[1].Sub, 1)
	d := r.Body[1].Sub[0]
	assert.Equal(t, LitDistinct, d.Kind)
	assert.Equal(t, Pos{4, 7}, d.Pos)
	assert.Equal(t, Pos{4, 17}, d.Left.Pos)
	assert.Equal(t, Pos{4, 20}, d.Right.Pos)
}

func TestParseStructure(t *testing.T) {
	rules, fs := mustParse(t, "(<= (p ?x (f ?y a)) (q ?x) (not (r ?y)) (distinct ?x ?y) (or (s ?x) t))")
	assert.Empty(t, fs)
	require.Len(t, rules, 1)
	r := rules[0]
	assert.Equal(t, Func, r.Head.Kind)
	assert.Equal(t, Intern("p"), r.Head.Name)
	require.Equal(t, 2, r.Head.Arity())
	assert.Equal(t, Var, r.Head.Args[0].Kind)
	assert.Equal(t, Intern("?x"), r.Head.Args[0].Name)
	assert.Equal(t, Func, r.Head.Args[1].Kind)
	assert.Equal(t, Const, r.Head.Args[1].Args[1].Kind)
	assert.False(t, r.Head.IsGround())
	assert.Equal(t, []Symbol{Intern("?x"), Intern("?y")}, r.Vars())

	require.Len(t, r.Body, 4)
	assert.Equal(t, LitAtom, r.Body[0].Kind)
	assert.Equal(t, LitNot, r.Body[1].Kind)
	assert.Nil(t, r.Body[1].Atom, "before cleaning, not holds its literal in Sub")
	require.Len(t, r.Body[1].Sub, 1)
	assert.Equal(t, LitAtom, r.Body[1].Sub[0].Kind)
	assert.Equal(t, LitDistinct, r.Body[2].Kind)
	assert.Equal(t, LitOr, r.Body[3].Kind)
	require.Len(t, r.Body[3].Sub, 2)
	assert.Equal(t, Const, r.Body[3].Sub[1].Atom.Kind)
}

func TestTermString(t *testing.T) {
	c := func(s string) *Term { return NewConst(Intern(s)) }
	v := func(s string) *Term { return NewVar(Intern(s)) }
	f := func(s string, args ...*Term) *Term { return NewFunc(Intern(s), args...) }
	tests := []struct {
		name string
		term *Term
		want string
	}{
		{name: "constant", term: c("xplayer"), want: "xplayer"},
		{name: "number", term: c("100"), want: "100"},
		{name: "variable", term: v("?x"), want: "?x"},
		{name: "function", term: f("cell", c("1"), c("1"), c("b")), want: "(cell 1 1 b)"},
		{name: "nested functions", term: f("f", f("g", f("h", c("a"))), v("?y")), want: "(f (g (h a)) ?y)"},
		{name: "sentence", term: f("true", f("control", v("?p"))), want: "(true (control ?p))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.term.String())
		})
	}
}

func TestRuleString(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "fact", src: "( role   xplayer )", want: "(role xplayer)"},
		{name: "proposition fact", src: "terminal", want: "terminal"},
		{name: "nested fact", src: "(init\n  (cell 1\t1 b))", want: "(init (cell 1 1 b))"},
		{
			name: "rule over several lines",
			src:  "(<= (legal ?P (mark ?X ?Y))\n    (true (cell ?x ?y b))\n    (true (control ?p)))",
			want: "(<= (legal ?p (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?p)))",
		},
		{name: "proposition head", src: "(<= terminal (true (step 10)))", want: "(<= terminal (true (step 10)))"},
		{name: "proposition in the body", src: "(<= (goal x 100) win)", want: "(<= (goal x 100) win)"},
		{
			name: "not, distinct and or",
			src:  "(<= (p ?x) (q ?x) (not (r ?x)) (distinct ?x a) (or (s ?x) t))",
			want: "(<= (p ?x) (q ?x) (not (r ?x)) (distinct ?x a) (or (s ?x) t))",
		},
		{name: "not over a proposition", src: "(<= p (not q))", want: "(<= p (not q))"},
		{name: "distinct over functions", src: "(<= p (distinct (f a) (g ?x)) (q ?x))", want: "(<= p (distinct (f a) (g ?x)) (q ?x))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, _ := mustParse(t, tt.src)
			require.Len(t, rules, 1)
			got := rules[0].String()
			assert.Equal(t, tt.want, got)

			// The canonical text reads back as the same rule.
			again, _ := mustParse(t, got)
			require.Len(t, again, 1)
			assert.Equal(t, got, again[0].String())
		})
	}
}

func TestLiteralString(t *testing.T) {
	a := NewFunc(Intern("p"), NewVar(Intern("?x")))
	tests := []struct {
		name string
		lit  *Literal
		want string
	}{
		{name: "atom", lit: &Literal{Kind: LitAtom, Atom: a}, want: "(p ?x)"},
		{name: "cleaned not", lit: &Literal{Kind: LitNot, Atom: a}, want: "(not (p ?x))"},
		{name: "distinct", lit: &Literal{Kind: LitDistinct, Left: NewVar(Intern("?x")), Right: NewConst(Intern("a"))}, want: "(distinct ?x a)"},
		{name: "or", lit: &Literal{Kind: LitOr, Sub: []*Literal{{Kind: LitAtom, Atom: a}, {Kind: LitAtom, Atom: NewConst(Intern("q"))}}}, want: "(or (p ?x) q)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.lit.String())
		})
	}
}

func TestSymbols(t *testing.T) {
	tests := []struct {
		name    string
		sym     Symbol
		text    string
		keyword bool
		isVar   bool
	}{
		{name: "role", sym: SymRole, text: "role", keyword: true},
		{name: "input", sym: SymInput, text: "input", keyword: true},
		{name: "rule arrow", sym: SymRule, text: "<=", keyword: true},
		{name: "plain", sym: Intern("cell"), text: "cell"},
		{name: "variable", sym: Intern("?x"), text: "?x", isVar: true},
		{name: "bad symbol", sym: Symbol(-1), text: "<bad symbol>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.text, tt.sym.Name())
			assert.Equal(t, tt.keyword, tt.sym.IsKeyword())
			assert.Equal(t, tt.isVar, tt.sym.IsVar())
		})
	}
	assert.Equal(t, SymRole, Intern("role"), "keywords are interned first")
	assert.Equal(t, Intern("cell"), Intern("cell"))
}
