package gdl

import (
	"sync"
)

// Symbol is an interned, lower-cased name: a constant, a function or
// relation name, or a variable (whose name keeps its leading '?').
// Symbols are process-wide, so two games loaded by one process share them and
// an engine compares names as integers.
type Symbol int32

// The GDL keywords, interned first so that their values are fixed.
const (
	NoSymbol Symbol = iota
	SymRole
	SymInit
	SymTrue
	SymNext
	SymLegal
	SymDoes
	SymGoal
	SymTerminal
	SymBase
	SymInput
	SymDistinct
	SymNot
	SymOr
	SymRule // "<="
	numKeywords
)

var keywordNames = [...]string{
	NoSymbol:    "",
	SymRole:     "role",
	SymInit:     "init",
	SymTrue:     "true",
	SymNext:     "next",
	SymLegal:    "legal",
	SymDoes:     "does",
	SymGoal:     "goal",
	SymTerminal: "terminal",
	SymBase:     "base",
	SymInput:    "input",
	SymDistinct: "distinct",
	SymNot:      "not",
	SymOr:       "or",
	SymRule:     "<=",
}

type symbolTable struct {
	mu    sync.RWMutex
	names []string
	ids   map[string]Symbol
}

var symbols = func() *symbolTable {
	t := &symbolTable{ids: make(map[string]Symbol)}
	for i, n := range keywordNames {
		t.names = append(t.names, n)
		if i > 0 {
			t.ids[n] = Symbol(i)
		}
	}
	return t
}()

// Intern returns the symbol of name, which must already be lower case.
func Intern(name string) Symbol {
	symbols.mu.RLock()
	s, ok := symbols.ids[name]
	symbols.mu.RUnlock()
	if ok {
		return s
	}
	symbols.mu.Lock()
	defer symbols.mu.Unlock()
	if s, ok := symbols.ids[name]; ok {
		return s
	}
	s = Symbol(len(symbols.names))
	symbols.names = append(symbols.names, name)
	symbols.ids[name] = s
	return s
}

// Name returns the text of s.
func (s Symbol) Name() string {
	symbols.mu.RLock()
	defer symbols.mu.RUnlock()
	if int(s) < 0 || int(s) >= len(symbols.names) {
		return "<bad symbol>"
	}
	return symbols.names[s]
}

func (s Symbol) String() string { return s.Name() }

// IsKeyword reports whether s is one of GDL's reserved words.
func (s Symbol) IsKeyword() bool { return s > NoSymbol && s < numKeywords }

// IsVar reports whether s names a variable.
func (s Symbol) IsVar() bool {
	n := s.Name()
	return len(n) > 0 && n[0] == '?'
}
