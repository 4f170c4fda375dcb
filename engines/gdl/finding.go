package gdl

import (
	"fmt"
	"sort"
	"strings"
)

// Severity of a finding.
type Severity uint8

// Severities: an error makes a game invalid; a warning is shown to the user.
const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Codes name the kind of a finding; they are stable so that tests, the
// blacklist and reports can key on them.
const (
	CodeSyntax          = "syntax"            // malformed text
	CodeLimit           = "limit"             // over a size or depth budget
	CodeZeroArity       = "zero-arity"        // (foo) read as foo
	CodeEmptyRule       = "empty-rule"        // (<= head) read as a fact
	CodeNotDistinct     = "not-distinct"      // (not (distinct a b)) read as a = b
	CodeNegation        = "negation"          // not over something other than a sentence
	CodeKeywordArity    = "keyword-arity"     // e.g. (legal x)
	CodeKeywordFunction = "keyword-function"  // e.g. (cell (does x))
	CodeKeywordPlace    = "keyword-place"     // true in a head, next in a body, ...
	CodeMissing         = "missing"           // no role, terminal, goal or legal
	CodeDependsOnDoes   = "depends-on-does"   // legal, goal or terminal depend on does
	CodeDependsOnState  = "depends-on-state"  // init, base or input depend on true or does
	CodeUnsafe          = "unsafe"            // a variable not bound by a positive literal
	CodeStratification  = "stratification"    // negation inside a recursive cycle
	CodeRuleStratified  = "rule-stratified"   // stratified rule by rule, not relation by relation
	CodeRecursion       = "recursion"         // the GDL recursion restriction
	CodeSentenceArity   = "sentence-arity"    // one relation used with two arities
	CodeFunctionArity   = "function-arity"    // one function used with two arities
	CodeUndefined       = "undefined"         // a sentence used but never defined
	CodeUnused          = "unused"            // a sentence defined but never used
	CodeNameClash       = "name-clash"        // a name used as sentence and function
	CodeCharacters      = "characters"        // unusual characters in a name
	CodeCapitalisation  = "capitalisation"    // whiteWin and whitewin
	CodeVariableName    = "variable-sentence" // a variable used as a sentence
	CodeOrExpansion     = "or-expansion"      // or rewritten into too many rules
	CodeDistinctVar     = "distinct-constant" // (distinct a b) over constants only
)

// Finding is one message about a game file, with its position.
type Finding struct {
	Severity Severity
	Code     string
	File     string
	Pos      Pos
	Msg      string
}

func (f Finding) String() string {
	loc := f.File
	if f.Pos.Line > 0 {
		if loc == "" {
			loc = f.Pos.String()
		} else {
			loc += ":" + f.Pos.String()
		}
	}
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("%s%s: %s [%s]", loc, f.Severity, f.Msg, f.Code)
}

// Findings is a list of findings in file order.
type Findings []Finding

// Errors returns only the errors.
func (fs Findings) Errors() Findings {
	var out Findings
	for _, f := range fs {
		if f.Severity == Error {
			out = append(out, f)
		}
	}
	return out
}

// HasCode reports whether some finding has the code.
func (fs Findings) HasCode(code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

func (fs Findings) sort() {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Pos, fs[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// InvalidError is returned by Load for a game with error findings.
type InvalidError struct {
	File     string
	Findings Findings // the errors only
}

func (e *InvalidError) Error() string {
	var b strings.Builder
	n := len(e.Findings)
	fmt.Fprintf(&b, "%s: invalid game: %d error", e.File, n)
	if n != 1 {
		b.WriteString("s")
	}
	for i, f := range e.Findings {
		if i == 5 {
			fmt.Fprintf(&b, "\n\t... and %d more", n-5)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(f.String())
	}
	return b.String()
}

// SyntaxError is a malformed game file; reading stops at the first one.
type SyntaxError struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	}
	return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg)
}
