package gdl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The files in testdata follow a naming convention (STYLE.md, habit 13):
//
//   - neg_<code>_<name>.kif must be rejected: gdl.Check reports an error
//     finding with that code (for code syntax, a *SyntaxError also counts).
//     A line "; at: L:C" says where the finding must be.
//   - ok_<name>.kif must load without errors. Lines "; expect: <code>" name
//     warnings it must have; "; expect-no-warnings" asks for none.

// directives are the test instructions in a testdata file's comments.
type directives struct {
	at         *Pos
	expect     []string
	noWarnings bool
}

func readDirectives(t *testing.T, src []byte) directives {
	t.Helper()
	var d directives
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "; at:"):
			var p Pos
			_, err := fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "; at:")), "%d:%d", &p.Line, &p.Col)
			require.NoError(t, err, "bad directive %q", line)
			d.at = &p
		case strings.HasPrefix(line, "; expect:"):
			d.expect = append(d.expect, strings.TrimSpace(strings.TrimPrefix(line, "; expect:")))
		case line == "; expect-no-warnings":
			d.noWarnings = true
		}
	}
	return d
}

// knownCodes are the codes of finding.go, so that a misspelt file name
// fails instead of testing nothing.
var knownCodes = map[string]bool{
	CodeSyntax: true, CodeLimit: true, CodeZeroArity: true, CodeEmptyRule: true,
	CodeNotDistinct: true, CodeNegation: true, CodeKeywordArity: true,
	CodeKeywordFunction: true, CodeKeywordPlace: true, CodeMissing: true,
	CodeDependsOnDoes: true, CodeDependsOnState: true, CodeUnsafe: true,
	CodeStratification: true, CodeRuleStratified: true, CodeRecursion: true, CodeSentenceArity: true,
	CodeFunctionArity: true, CodeUndefined: true, CodeUnused: true,
	CodeNameClash: true, CodeCharacters: true, CodeCapitalisation: true,
	CodeVariableName: true, CodeOrExpansion: true, CodeDistinctVar: true,
}

func testdataFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no testdata files match %s", pattern)
	sort.Strings(files)
	return files
}

func TestValidateRejectsNegativeCases(t *testing.T) {
	seen := map[string]bool{}
	for _, file := range testdataFiles(t, "neg_*.kif") {
		base := strings.TrimSuffix(filepath.Base(file), ".kif")
		code, name, ok := strings.Cut(strings.TrimPrefix(base, "neg_"), "_")
		t.Run(code+"/"+name, func(t *testing.T) {
			require.True(t, ok, "file name %s is not neg_<code>_<name>.kif", file)
			require.True(t, knownCodes[code], "unknown code %q in %s", code, file)
			seen[code] = true
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			d := readDirectives(t, src)

			g, err := Check(file, src, DefaultLimits)
			if err != nil {
				var se *SyntaxError
				require.True(t, errors.As(err, &se), "Check failed with %v", err)
				require.Equal(t, CodeSyntax, code, "unexpected syntax error: %v", err)
				assert.Equal(t, file, se.File)
				if d.at != nil {
					assert.Equal(t, *d.at, se.Pos, "syntax error: %v", err)
				}
				return
			}
			errs := g.Findings.Errors()
			require.NotEmpty(t, errs, "%s must be rejected; findings: %s", file, describe(g.Findings))
			got := withCode(errs, code)
			require.NotEmpty(t, got, "want an error with code %s; errors: %s", code, describe(errs))
			if d.at != nil {
				var positions []Pos
				for _, f := range got {
					positions = append(positions, f.Pos)
				}
				assert.Contains(t, positions, *d.at, "errors: %s", describe(got))
			}
			for _, f := range got {
				assert.Equal(t, file, f.File)
				assert.NotEmpty(t, f.Msg)
			}

			// Load refuses the game with the same errors.
			_, lerr := Load(file, src)
			var ie *InvalidError
			require.True(t, errors.As(lerr, &ie), "Load: %v", lerr)
			assert.Equal(t, errs, ie.Findings)
			assert.Contains(t, lerr.Error(), "invalid game")
		})
	}
	for _, code := range []string{
		CodeKeywordArity, CodeKeywordFunction, CodeKeywordPlace, CodeMissing,
		CodeDependsOnDoes, CodeDependsOnState, CodeUnsafe, CodeStratification,
		CodeRecursion, CodeSentenceArity, CodeNegation, CodeVariableName,
		CodeSyntax, CodeOrExpansion,
	} {
		assert.True(t, seen[code], "no testdata/neg_%s_*.kif", code)
	}
}

func TestValidateAcceptsPositiveCases(t *testing.T) {
	for _, file := range testdataFiles(t, "ok_*.kif") {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "ok_"), ".kif")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			d := readDirectives(t, src)
			g, err := Check(file, src, DefaultLimits)
			require.NoError(t, err)
			assert.Empty(t, g.Findings.Errors(), "findings: %s", describe(g.Findings))
			for _, code := range d.expect {
				assert.True(t, g.Findings.HasCode(code), "want a %s warning; findings: %s", code, describe(g.Findings))
			}
			if d.noWarnings {
				assert.Empty(t, g.Findings, "findings: %s", describe(g.Findings))
			}
			for _, f := range g.Findings {
				assert.Equal(t, file, f.File)
			}
			_, err = Load(file, src)
			assert.NoError(t, err)
		})
	}
}

func TestLoadFile(t *testing.T) {
	g, err := LoadFile(filepath.Join("testdata", "ok_tiny.kif"))
	require.NoError(t, err)
	assert.Equal(t, []string{"robot"}, SortedStrings(g.Roles))

	_, err = LoadFile(filepath.Join("testdata", "neg_unsafe_head.kif"))
	var ie *InvalidError
	require.True(t, errors.As(err, &ie), "err: %v", err)
	assert.True(t, ie.Findings.HasCode(CodeUnsafe))

	_, err = LoadFile(filepath.Join("testdata", "neg_syntax_unbalanced.kif"))
	var se *SyntaxError
	require.True(t, errors.As(err, &se), "err: %v", err)

	_, err = LoadFile(filepath.Join(t.TempDir(), "missing.kif"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestReadFileRefusesLargeFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.kif")
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(int64(DefaultLimits.MaxBytes)+1))
	require.NoError(t, f.Close())
	_, err = ReadFile(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over the limit")
}

func TestCheckRoles(t *testing.T) {
	g := mustCheck(t, "(role white)\n(role black)\n(role red)\n"+
		"(init p)\n(<= (legal ?r go) (role ?r))\n(<= (next q) (true p))\n(<= terminal (true q))\n(<= (goal ?r 100) (role ?r))")
	assert.Empty(t, g.Findings.Errors(), "findings: %s", describe(g.Findings))
	var roles []string
	for _, r := range g.Roles {
		roles = append(roles, r.String())
	}
	assert.Equal(t, []string{"white", "black", "red"}, roles, "roles in the order of the role facts")
}

// Findings are in file order (finding.go: "Findings is a list of findings in
// file order"), whichever stage found them.
func TestCheckFindingsInFileOrder(t *testing.T) {
	g := mustCheck(t, "(role robot)\n(role robot)\n"+
		"(init (cell a))\n(<= (legal robot go) (true (cell a)))\n(<= (next (cell b)) (does robot go))\n"+
		"(<= terminal (true (cell b)))\n(goal robot 100)\n(<= (goal ?r 0) (true (cell b)))\n")
	require.True(t, g.Findings.HasCode(CodeKeywordPlace), "findings: %s", describe(g.Findings))
	require.True(t, g.Findings.HasCode(CodeUnsafe), "findings: %s", describe(g.Findings))
	assert.True(t, sort.SliceIsSorted(g.Findings, func(i, j int) bool {
		a, b := g.Findings[i].Pos, g.Findings[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	}), "findings: %s", describe(g.Findings))
}

func TestValidateFindingDetails(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		code    string
		sev     Severity
		wantPos Pos
		wantMsg []string
	}{
		{
			name:    "unsafe names the variable",
			src:     tinyGame + "(<= (goal ?who 0) (true (cell b)))",
			code:    CodeUnsafe,
			sev:     Error,
			wantPos: Pos{8, 1},
			wantMsg: []string{"?who", "(goal ?who 0)"},
		},
		{
			name:    "sentence arity names both positions",
			src:     tinyGame + "(foo bar)\n(<= (goal robot 0) (foo bar baz))",
			code:    CodeSentenceArity,
			sev:     Error,
			wantPos: Pos{9, 20},
			wantMsg: []string{"foo", "8:1"},
		},
		{
			name:    "function arity is a warning",
			src:     tinyGame + "(<= (goal robot 0) (true (cell b b)))",
			code:    CodeFunctionArity,
			sev:     Warning,
			wantPos: Pos{8, 26},
			wantMsg: []string{"cell"},
		},
		{
			name:    "depends on does shows the path",
			src:     "(role robot)\n(<= (goal robot 0) moved)\n(<= moved (does robot go))\n(legal robot go)\n(<= terminal (true p))",
			code:    CodeDependsOnDoes,
			sev:     Error,
			wantPos: Pos{2, 1},
			wantMsg: []string{"goal -> moved -> does"},
		},
		{
			name:    "stratification names the literal",
			src:     tinyGame + "(<= p (true (cell a)) (not q))\n(<= q (true (cell a)) (not p))\n(<= (goal robot 0) p)",
			code:    CodeStratification,
			sev:     Error,
			wantPos: Pos{8, 23},
			wantMsg: []string{"(not q)"},
		},
		{
			name:    "missing has no position",
			src:     "(role robot)\n(init (cell a))\n(<= (legal robot go) (true (cell a)))\n(<= terminal (true (cell b)))",
			code:    CodeMissing,
			sev:     Error,
			wantPos: Pos{},
			wantMsg: []string{"goal"},
		},
		{
			name:    "undefined sentence",
			src:     tinyGame + "(<= (goal robot 0) (true (cell b)) squee)",
			code:    CodeUndefined,
			sev:     Warning,
			wantPos: Pos{8, 36},
			wantMsg: []string{"squee"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustCheck(t, tt.src)
			got := withCode(g.Findings, tt.code)
			require.NotEmpty(t, got, "findings: %s", describe(g.Findings))
			assert.Equal(t, tt.sev, got[0].Severity)
			assert.Equal(t, tt.wantPos, got[0].Pos)
			for _, m := range tt.wantMsg {
				assert.Contains(t, got[0].Msg, m)
			}
		})
	}
}

// A negation inside a cycle of relations that no instance goes through, as
// in (<= (goal ?r 0) (role ?r) (not (goal ?r 100))), is accepted with a
// warning: the GDL specification stratifies relations, not rules.
func TestValidateRuleStratified(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantWarn bool
		wantPos  Pos
		wantMsg  []string
		wantErr  bool
	}{
		{
			name:     "goal on its own negation through another argument",
			src:      tinyGame + "(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))",
			wantWarn: true,
			wantPos:  Pos{8, 27},
			wantMsg:  []string{"relation goal", "(not (goal ?r 100))", "(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))"},
		},
		{
			name:     "through another relation",
			src:      tinyGame + "(<= (goal ?r 0) (role ?r) (not (won ?r)))\n(<= (won ?r) (goal ?r 100))",
			wantWarn: true,
			wantPos:  Pos{8, 27},
			wantMsg:  []string{"relation goal", "(not (won ?r))"},
		},
		{
			name: "negation outside any cycle",
			src:  tinyGame + "(<= (goal robot 0) (not open))\n(<= open (true (cell a)))",
		},
		{
			name:    "unstratifiable is an error, not this warning",
			src:     tinyGame + "(<= p (true (cell a)) (not q))\n(<= q (true (cell a)) (not p))\n(<= (goal robot 0) p)",
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustCheck(t, tt.src)
			assert.Equal(t, tt.wantErr, g.Findings.HasCode(CodeStratification), "findings: %s", describe(g.Findings))
			got := withCode(g.Findings, CodeRuleStratified)
			if !tt.wantWarn {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "findings: %s", describe(g.Findings))
			assert.Empty(t, g.Findings.Errors())
			assert.Equal(t, Warning, got[0].Severity)
			assert.Equal(t, tt.wantPos, got[0].Pos)
			for _, m := range tt.wantMsg {
				assert.Contains(t, got[0].Msg, m)
			}
			assert.Contains(t, got[0].String(), fmt.Sprintf("%s:%d:%d: warning:", got[0].File, tt.wantPos.Line, tt.wantPos.Col))
		})
	}
}

// (distinct a b) over two constants is always true or always false; the
// code distinct-constant exists in finding.go for it.
func TestValidateDistinctOverConstants(t *testing.T) {
	tests := []struct {
		name string
		lit  string
	}{
		{name: "always false", lit: "(distinct a a)"},
		{name: "always true", lit: "(distinct a b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustCheck(t, tinyGame+"(<= (goal robot 0) (true (cell b)) "+tt.lit+")")
			assert.Empty(t, g.Findings.Errors(), "findings: %s", describe(g.Findings))
			got := withCode(g.Findings, CodeDistinctVar)
			require.Len(t, got, 1, "findings: %s", describe(g.Findings))
			assert.Equal(t, Warning, got[0].Severity)
			assert.Equal(t, Pos{8, 36}, got[0].Pos)
		})
	}
}

func TestAnalysis(t *testing.T) {
	g := mustCheck(t, tinyGame+
		"(succ 1 2)\n"+
		"(<= (less ?x ?y) (succ ?x ?y))\n"+
		"(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))\n"+
		"(<= open (not (true (cell b))))\n"+
		"(<= (goal robot 0) open (less 1 2))\n")
	require.Empty(t, g.Findings.Errors(), "findings: %s", describe(g.Findings))
	a := g.Analysis
	require.NotNil(t, a)

	less := a.Relation(Intern("less"))
	require.NotNil(t, less)
	assert.True(t, less.Recursive)
	assert.Equal(t, 2, less.Arity)
	assert.Len(t, less.Rules, 2)
	assert.False(t, less.UsesState)

	succ := a.Relation(Intern("succ"))
	require.NotNil(t, succ)
	assert.False(t, succ.Recursive)
	assert.Less(t, succ.SCC, less.SCC, "dependencies come first")

	open := a.Relation(Intern("open"))
	require.NotNil(t, open)
	assert.True(t, open.UsesState)
	assert.False(t, open.UsesMoves)
	assert.Equal(t, 1, open.Stratum, "open negates true, which is stratum 0")
	assert.Equal(t, []Dep{{Name: SymTrue, Negative: true}}, open.Deps)

	goal := a.Relation(SymGoal)
	assert.Equal(t, 1, goal.Stratum)
	assert.True(t, a.UsesState(SymGoal))
	assert.False(t, a.UsesMoves(SymGoal))
	assert.True(t, a.UsesMoves(SymNext))
	assert.False(t, a.UsesState(Intern("nothing")))
	assert.Nil(t, a.Relation(Intern("nothing")))

	// Order lists every relation once, dependencies first.
	pos := map[Symbol]int{}
	for i, n := range a.Order {
		_, dup := pos[n]
		assert.False(t, dup, "%s twice in Order", n)
		pos[n] = i
	}
	assert.Len(t, pos, len(a.Relations))
	for n, r := range a.Relations {
		for _, d := range r.Deps {
			if a.Relations[d.Name].SCC != r.SCC {
				assert.Less(t, pos[d.Name], pos[n], "%s depends on %s", n, d.Name)
			}
		}
	}
}

func TestAnalysisStrata(t *testing.T) {
	rules, _ := mustParse(t, "(<= a (q 1))\n(<= b (not a))\n(<= c (not b) a)\n(<= d c (not c))")
	cleaned, _ := Clean("", rules, DefaultLimits)
	a := Analyse(cleaned)
	tests := []struct {
		name    string
		rel     string
		stratum int
	}{
		{name: "positive only", rel: "a", stratum: 0},
		{name: "one negation", rel: "b", stratum: 1},
		{name: "negation of stratum 1", rel: "c", stratum: 2},
		{name: "negation of stratum 2", rel: "d", stratum: 3},
		{name: "undefined", rel: "q", stratum: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := a.Relation(Intern(tt.rel))
			require.NotNil(t, r)
			assert.Equal(t, tt.stratum, r.Stratum)
		})
	}
}

func TestAnalysisComponents(t *testing.T) {
	// a and b call each other; c depends on both; d stands alone.
	rules, _ := mustParse(t, "(<= a (q 1) b)\n(<= b a)\n(<= b (q 2))\n(<= c a (not b))\n(<= d (q 3))")
	cleaned, _ := Clean("", rules, DefaultLimits)
	a := Analyse(cleaned)
	comps := a.Components()
	var flat []Symbol
	seen := map[int]bool{}
	for _, comp := range comps {
		require.NotEmpty(t, comp)
		scc := a.Relations[comp[0]].SCC
		assert.False(t, seen[scc], "SCC %d in two components", scc)
		seen[scc] = true
		for _, n := range comp {
			assert.Equal(t, scc, a.Relations[n].SCC, "%s in the component of SCC %d", n, scc)
		}
		flat = append(flat, comp...)
	}
	assert.Equal(t, a.Order, flat, "the components cut Order, in its order")
	index := map[Symbol]int{}
	for i, comp := range comps {
		for _, n := range comp {
			index[n] = i
		}
	}
	assert.Equal(t, index[Intern("a")], index[Intern("b")], "a and b are one component")
	assert.Less(t, index[Intern("b")], index[Intern("c")], "dependencies first")
	assert.Less(t, index[Intern("q")], index[Intern("d")])
	assert.Len(t, comps, len(a.Order)-1, "only a and b share a component")
	assert.Empty(t, (&Analysis{}).Components())
}
