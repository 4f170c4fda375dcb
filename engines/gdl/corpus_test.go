package gdl

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mirrorDir = "gamerepo-mirror"

// mirrorGame is one row of ../shared/gamerepo-mirror/index.tsv.
type mirrorGame struct {
	key    string // REPO/key/hash, as gdl-perf wrote it
	path   string // the file, relative to this package
	latest bool
}

// readMirrorIndex reads index.tsv by its header, so that added columns do
// not break the test.
func readMirrorIndex(t *testing.T) []mirrorGame {
	t.Helper()
	dir := shared(t, mirrorDir)
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	require.True(t, sc.Scan(), "index.tsv is empty")
	col := map[string]int{}
	for i, name := range strings.Split(sc.Text(), "\t") {
		col[name] = i
	}
	for _, name := range []string{"repo", "key", "latest", "path", "gdlperf_id"} {
		require.Contains(t, col, name, "index.tsv has no column %s", name)
	}
	var games []mirrorGame
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		require.Greater(t, len(fields), col["gdlperf_id"], "short line in index.tsv: %q", sc.Text())
		games = append(games, mirrorGame{
			key:    strings.ToUpper(fields[col["repo"]]) + "/" + fields[col["key"]] + "/" + fields[col["gdlperf_id"]],
			path:   filepath.Join(dir, filepath.FromSlash(fields[col["path"]])),
			latest: fields[col["latest"]] == "1",
		})
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, games)
	return games
}

// invalidGame is one line of gdl-perf's blacklist.
type invalidGame struct {
	key, reason string
}

func readInvalidGames(t *testing.T) []invalidGame {
	t.Helper()
	f, err := os.Open(shared(t, "reference/gdlperf-invalidGames.csv"))
	require.NoError(t, err)
	defer f.Close()
	var out []invalidGame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		key, reason, ok := strings.Cut(line, ";")
		require.True(t, ok, "bad line %q", line)
		out = append(out, invalidGame{key: key, reason: reason})
	}
	require.NoError(t, sc.Err())
	return out
}

// reasonCodes maps the messages of GGP-Base's static validator, as gdl-perf
// recorded them, to gdlperf's finding codes. The first match wins.
var reasonCodes = []struct {
	name     string
	contains string
	code     string
}{
	{name: "zero-arity rule", contains: "is written as a zero-arity rule", code: CodeEmptyRule},
	{name: "zero-arity relation", contains: "is written as a zero-arity relation", code: CodeZeroArity},
	{name: "zero-arity function", contains: "is written as a zero-arity function", code: CodeZeroArity},
	{name: "distinct inside a negation", contains: "that is not a sentence", code: CodeNotDistinct},
	{name: "function arities", contains: "The function with the name", code: CodeFunctionArity},
	{name: "sentence arities", contains: "The sentence with the name", code: CodeSentenceArity},
	{name: "keyword as a function", contains: "is being used as a function", code: CodeKeywordFunction},
	{name: "unsafe rule", contains: "Unsafe rule", code: CodeUnsafe},
	{name: "next in a body", contains: "relation should never be in the body", code: CodeKeywordPlace},
	{name: "input arity", contains: "The input relation should have arity", code: CodeKeywordArity},
}

// codeForReason returns the code for a static reason of the blacklist, or
// "" for a reason the static validator does not give.
func codeForReason(reason string) string {
	if !strings.Contains(reason, "Validator:") {
		return ""
	}
	for _, rc := range reasonCodes {
		if strings.Contains(reason, rc.contains) {
			return rc.code
		}
	}
	return ""
}

func TestCodeForReason(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		want   string
	}{
		{name: "zero-arity relation", reason: "Validator: ( terminal ) is written as a zero-arity relation, it should be written as a proposition instead. (Try dropping the parentheses.)", want: CodeZeroArity},
		{name: "zero-arity function", reason: "Validator: ( gameOver ) is written as a zero-arity function, it should be written as a constant instead. (Try dropping the parentheses.)", want: CodeZeroArity},
		{name: "zero-arity rule", reason: "Validator: ( <= ( legal robot giveup ) ) is written as a zero-arity rule, if it's always supposed to be true, it should be written as a relation instead. Otherwise, check your parentheses.", want: CodeEmptyRule},
		{name: "not distinct", reason: "Validator: The negation ( not ( distinct ?dir c3 ) ) contains a literal ( distinct ?dir c3 ) that is not a sentence. Only a single sentence is allowed inside a negation.", want: CodeNotDistinct},
		{name: "function arity", reason: "Validator: The function with the name cell appears with two different arities, 2 and 3", want: CodeFunctionArity},
		{name: "sentence arity", reason: "Validator: The sentence with the name base appears with two different arities, 2 and 1.", want: CodeSentenceArity},
		{name: "does as a function", reason: "Validator: The keyword does is being used as a function. It should only be used as the name of a sentence.", want: CodeKeywordFunction},
		{name: "unsafe", reason: "Validator: Unsafe rule ( <= ( distinctCell ?x ?y ?m ?n ) ( distinct ?x ?m ) ): Variable ?x is not defined in a positive relation in the rule's body", want: CodeUnsafe},
		{name: "next in a body", reason: "Validator: The next relation should never be in the body of a rule.", want: CodeKeywordPlace},
		{name: "input arity", reason: "Validator: The input relation should have arity 2 (first argument: the player, second argument: the move)", want: CodeKeywordArity},
		{name: "dynamic", reason: "Got goal results of size: 0 when expecting size one. Results were: []", want: ""},
		{name: "by hand", reason: "Capitalization issue: whitewin vs. whiteWin, blackwin vs. blackWin", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, codeForReason(tt.reason))
		})
	}
}

// TestMirrorParses reads every rulesheet of the mirror, every version: none
// is malformed text.
func TestMirrorParses(t *testing.T) {
	dir := shared(t, mirrorDir)
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".kif") {
			return err
		}
		n++
		rel, _ := filepath.Rel(dir, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			src, err := ReadFile(path)
			require.NoError(t, err)
			_, _, err = Parse(path, src, DefaultLimits)
			var se *SyntaxError
			if errors.As(err, &se) {
				t.Errorf("syntax error: %v", se)
			}
			assert.NoError(t, err)
		})
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 400, "the mirror holds about 500 rulesheets")
}

// TestInvalidGamesStaticReasons loads the games that gdl-perf blacklisted
// for a reason found by GGP-Base's static validator and that the mirror
// holds in the very version gdl-perf saw (same game key), and expects a
// finding of the corresponding code. gdlperf cleans some of these (zero
// arity, empty rules, (not (distinct ..))) with a warning, so the finding
// may be a warning.
func TestInvalidGamesStaticReasons(t *testing.T) {
	byKey := map[string]mirrorGame{}
	for _, g := range readMirrorIndex(t) {
		byKey[g.key] = g
	}
	type invalidCase struct {
		name     string
		path     string
		wantCode string
		reason   string
	}
	var tests []invalidCase
	for _, ig := range readInvalidGames(t) {
		code := codeForReason(ig.reason)
		if code == "" {
			continue
		}
		g, ok := byKey[ig.key]
		if !ok {
			continue // not mirrored, or mirrored in another version
		}
		tests = append(tests, invalidCase{name: ig.key, path: g.path, wantCode: code, reason: ig.reason})
	}
	require.GreaterOrEqual(t, len(tests), 20, "at least 20 blacklisted games with static reasons are mirrored")

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := ReadFile(tt.path)
			require.NoError(t, err)
			g, err := Check(tt.path, src, DefaultLimits)
			require.NoError(t, err)
			assert.True(t, g.Findings.HasCode(tt.wantCode), "gdl-perf: %s\nwant a %s finding; findings: %s", tt.reason, tt.wantCode, describe(g.Findings))
		})
	}
}

// TestMirrorLatestGamesValid loads the latest version of every mirrored game
// that gdl-perf did not blacklist: at least 95% must have no error.
func TestMirrorLatestGamesValid(t *testing.T) {
	blacklisted := map[string]bool{}
	for _, ig := range readInvalidGames(t) {
		blacklisted[ig.key] = true
	}
	var total int
	var invalid []string
	for _, g := range readMirrorIndex(t) {
		if !g.latest || blacklisted[g.key] {
			continue
		}
		total++
		src, err := ReadFile(g.path)
		require.NoError(t, err)
		game, err := Check(g.path, src, DefaultLimits)
		if err != nil {
			invalid = append(invalid, g.key+": "+err.Error())
			continue
		}
		if errs := game.Findings.Errors(); len(errs) > 0 {
			invalid = append(invalid, g.key+":"+describe(errs))
		}
	}
	sort.Strings(invalid)
	for _, s := range invalid {
		t.Log(s)
	}
	t.Logf("%d of %d latest mirrored games not blacklisted by gdl-perf have errors", len(invalid), total)
	require.Greater(t, total, 400)
	assert.LessOrEqual(t, float64(len(invalid)), 0.05*float64(total), "at most 5%% may be invalid")
}
