// Package gdl reads game descriptions in the Game Description Language.
//
// A file goes through stages with typed hand-offs: the reader splits the
// text into s-expressions (positions kept, sizes bounded), Parse turns them
// into rules over interned symbols, Clean rewrites what has one obvious
// meaning (or, (not (distinct ..)), (foo) for foo, literal order), Validate
// applies the checks of GGP-Base's static validator and of the GDL
// specification (Love et al. 2008: safety, stratified negation, the
// recursion restriction), and Analyse builds the dependency graph with its
// strongly connected components and strata. Engines only ever see a Game,
// which has passed all of them.
package gdl

import (
	"fmt"
	"io"
	"os"
)

// Game is a cleaned, validated and analysed game description.
type Game struct {
	File     string
	Rules    []*Rule   // cleaned rules and facts, in file order
	Roles    []*Term   // in the order of the role facts
	Findings Findings  // warnings (and errors, for a game that is not valid)
	Analysis *Analysis // dependency graph
}

// Check reads, cleans, validates and analyses src. It returns a *SyntaxError
// for a malformed file; otherwise it returns the game and every finding,
// errors included (see Findings.Errors).
func Check(file string, src []byte, lim Limits) (*Game, error) {
	rules, findings, err := Parse(file, src, lim)
	if err != nil {
		return nil, err
	}
	cleaned, cf := Clean(file, rules, lim)
	findings = append(findings, cf...)
	vf, a := Validate(file, cleaned)
	findings = append(findings, vf...)
	g := &Game{File: file, Rules: cleaned, Analysis: a}
	seen := map[string]bool{}
	for _, r := range cleaned {
		if r.Head.Name == SymRole && len(r.Body) == 0 && r.Head.Arity() == 1 {
			role := r.Head.Args[0]
			if seen[role.String()] {
				findings = append(findings, Finding{Severity: Error, Code: CodeKeywordPlace, File: file, Pos: r.Pos, Msg: fmt.Sprintf("role %s is declared twice", role)})
				continue
			}
			seen[role.String()] = true
			g.Roles = append(g.Roles, role)
		}
	}
	findings.sort()
	g.Findings = findings
	return g, nil
}

// Load is Check for engines: a game with error findings is an *InvalidError.
func Load(file string, src []byte) (*Game, error) {
	g, err := Check(file, src, DefaultLimits)
	if err != nil {
		return nil, err
	}
	if errs := g.Findings.Errors(); len(errs) > 0 {
		return nil, &InvalidError{File: file, Findings: errs}
	}
	return g, nil
}

// LoadFile reads and loads a game file.
func LoadFile(path string) (*Game, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Load(path, src)
}

// ReadFile reads a game file, refusing one over DefaultLimits.MaxBytes
// without reading it whole.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	max := int64(DefaultLimits.MaxBytes)
	buf, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(buf)) > max {
		return nil, fmt.Errorf("%s: file is over the limit of %d bytes", path, max)
	}
	return buf, nil
}
