package gdl

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ggpBaseGames = "reference/ggp-base-test-games"

// TestGGPBaseTestGames checks the front end's verdict on GGP-Base's engine
// test games against ../shared/reference/ggp-base-test-games/EXPECTED.md:
// the games marked invalid are rejected for the reason named, and every
// other game loads without an error.
func TestGGPBaseTestGames(t *testing.T) {
	dir := shared(t, ggpBaseGames)
	tests := []struct {
		name         string
		wantErr      string   // the code of the expected error; "" for a valid game
		wantWarnings []string // codes of warnings that must be there
		onlyWarnings bool     // wantWarnings are the only findings
		wantRoles    []string
	}{
		{name: "ticTacToe", wantRoles: []string{"xplayer", "oplayer"}},
		{name: "connectFour", wantRoles: []string{"red", "black"}},
		{name: "simpleMutex"},
		{name: "test_case_1a", wantWarnings: []string{CodeEmptyRule}},
		{name: "test_case_1b"},
		{name: "test_case_2a"},
		{name: "test_case_2b"},
		{name: "test_case_2c"},
		{name: "test_case_3a", wantWarnings: []string{CodeZeroArity}},
		{name: "test_case_3b", wantErr: CodeUnsafe},
		{name: "test_case_3c", wantWarnings: []string{CodeUndefined}},
		{name: "test_case_3d"},
		{name: "test_case_3e", wantErr: CodeUnsafe},
		{name: "test_case_3f", wantErr: CodeUnsafe},
		{name: "test_case_4a"},
		{name: "test_case_5a"},
		{name: "test_case_5b"},
		{name: "test_case_5c"},
		{name: "test_case_5d"},
		{name: "test_case_5e"},
		{name: "test_clean_not_distinct", wantWarnings: []string{CodeNotDistinct}},
		{name: "test_distinct_beginning_rule"},
		{name: "test_invalid_function_arities_differ", wantWarnings: []string{CodeFunctionArity}, onlyWarnings: true},
		{name: "test_invalid_sentence_arities_differ", wantErr: CodeSentenceArity},
	}

	// Every game in the folder is in the table.
	files, err := filepath.Glob(filepath.Join(dir, "*.kif"))
	require.NoError(t, err)
	var inFolder, inTable []string
	for _, f := range files {
		inFolder = append(inFolder, strings.TrimSuffix(filepath.Base(f), ".kif"))
	}
	for _, tt := range tests {
		inTable = append(inTable, tt.name)
	}
	sort.Strings(inTable)
	assert.Equal(t, inFolder, inTable, "the table must list every game of %s", dir)

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, tt.name+".kif")
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			g, err := Check(file, src, DefaultLimits)
			require.NoError(t, err, "no game here is malformed text")
			errs := g.Findings.Errors()
			if tt.wantErr == "" {
				assert.Empty(t, errs, "findings: %s", describe(g.Findings))
				_, err := Load(file, src)
				assert.NoError(t, err)
			} else {
				require.NotEmpty(t, errs, "the game is invalid (%s); findings: %s", tt.wantErr, describe(g.Findings))
				assert.Equal(t, []string{tt.wantErr}, codes(errs), "rejected for the reason named, and only for it")
				_, err := Load(file, src)
				var ie *InvalidError
				assert.ErrorAs(t, err, &ie)
			}
			for _, code := range tt.wantWarnings {
				assert.True(t, g.Findings.HasCode(code), "want a %s warning; findings: %s", code, describe(g.Findings))
			}
			if tt.onlyWarnings {
				assert.Equal(t, tt.wantWarnings, codes(g.Findings), "findings: %s", describe(g.Findings))
				for _, f := range g.Findings {
					assert.Equal(t, Warning, f.Severity)
				}
			}
			if tt.wantRoles != nil {
				var roles []string
				for _, r := range g.Roles {
					roles = append(roles, r.String())
				}
				assert.Equal(t, tt.wantRoles, roles)
			}
		})
	}
}

// test_case_3b: ?x ?y ?m ?n of distinctCell are bound by no positive literal.
func TestGGPBaseUnsafeNamesTheVariables(t *testing.T) {
	dir := shared(t, ggpBaseGames)
	tests := []struct {
		name    string
		file    string
		wantVar []string
	}{
		{name: "3b", file: "test_case_3b.kif", wantVar: []string{"?x", "?y"}},
		{name: "3e", file: "test_case_3e.kif", wantVar: []string{"?p"}},
		{name: "3f", file: "test_case_3f.kif", wantVar: []string{"?p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			require.NoError(t, err)
			g := mustCheck(t, string(src))
			msgs := ""
			for _, f := range withCode(g.Findings, CodeUnsafe) {
				msgs += f.Msg + "\n"
			}
			for _, v := range tt.wantVar {
				assert.Contains(t, msgs, "variable "+v+" ")
			}
		})
	}
}

// test_case_3a: (open2) is read as the proposition open2, so the game's rules
// about open2 and (open2) are about one sentence.
func TestGGPBaseZeroArityIsCleaned(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(shared(t, ggpBaseGames), "test_case_3a.kif"))
	require.NoError(t, err)
	g := mustCheck(t, string(src))
	open2 := g.Analysis.Relation(Intern("open2"))
	require.NotNil(t, open2)
	assert.Equal(t, 0, open2.Arity)
	assert.NotEmpty(t, open2.Rules)
}

// test_clean_not_distinct: every (not (distinct ..)) becomes an equality.
func TestGGPBaseCleanNotDistinct(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(shared(t, ggpBaseGames), "test_clean_not_distinct.kif"))
	require.NoError(t, err)
	g := mustCheck(t, string(src))
	got := ruleStrings(g.Rules)
	for _, want := range []string{
		"a",
		"(<= (b ?y) (c ?y) (domain ?y))",
		"(<= (d 3) (c 3))",
		"(<= (e 3) (c 2))",
		"(<= (f 3) (c 2))",
	} {
		assert.Contains(t, got, want)
	}
	for _, r := range got {
		assert.False(t, strings.HasPrefix(r, "(<= z "), "z can never hold: its rule is dropped, got %s", r)
		assert.NotContains(t, r, "distinct")
	}
	assert.Len(t, withCode(g.Findings, CodeNotDistinct), 7)
}
