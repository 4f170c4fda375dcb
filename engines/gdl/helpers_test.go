package gdl

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sharedDir is the project's shared material (../shared from the project's
// root), seen from this package's folder.
const sharedDir = "../../../shared"

// shared returns the path of rel under the shared folder, skipping the test
// when that is not there (a checkout without ../shared).
func shared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(sharedDir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared material not available: %v", err)
	}
	return p
}

// mustCheck runs Check with DefaultLimits and requires that src is
// well-formed text.
func mustCheck(t testing.TB, src string) *Game {
	t.Helper()
	g, err := Check("game.kif", []byte(src), DefaultLimits)
	require.NoError(t, err)
	require.NotNil(t, g)
	return g
}

// mustParse runs Parse with DefaultLimits and requires that src is
// well-formed text.
func mustParse(t testing.TB, src string) ([]*Rule, Findings) {
	t.Helper()
	rules, fs, err := Parse("game.kif", []byte(src), DefaultLimits)
	require.NoError(t, err)
	return rules, fs
}

// syntaxError returns err as a *SyntaxError, failing the test when it is not one.
func syntaxError(t testing.TB, err error) *SyntaxError {
	t.Helper()
	require.Error(t, err)
	var se *SyntaxError
	require.True(t, errors.As(err, &se), "want a *SyntaxError, got %T: %v", err, err)
	return se
}

// ruleStrings prints rules canonically, one string per rule.
func ruleStrings(rules []*Rule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.String()
	}
	return out
}

// codes returns the sorted distinct codes of fs.
func codes(fs Findings) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if !seen[f.Code] {
			seen[f.Code] = true
			out = append(out, f.Code)
		}
	}
	sort.Strings(out)
	return out
}

// withCode returns the findings of fs that have code.
func withCode(fs Findings, code string) Findings {
	var out Findings
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// describe prints findings one per line, for failure messages.
func describe(fs Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n\t")
		b.WriteString(f.String())
	}
	return b.String()
}

// tinyGame is a complete, valid one-player game used as a base by tests
// that add one rule to it.
const tinyGame = `
(role robot)
(init (cell a))
(<= (legal robot go) (true (cell a)))
(<= (next (cell b)) (does robot go))
(<= terminal (true (cell b)))
(goal robot 100)
`
