package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// assertNoTerminalControl checks that out holds none of the bytes an
// engine or a server could take over a terminal with.
func assertNoTerminalControl(t *testing.T, out string) {
	t.Helper()
	assert.True(t, utf8.ValidString(out), "invalid UTF-8 in %q", out)
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\u2066", "\u0085"} {
		assert.NotContains(t, out, bad)
	}
}

// hostileMirror is a repository folder with one game whose METADATA and
// rulesheet carry escape sequences and bidi overrides.
func hostileMirror(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "base")
	game := filepath.Join(dir, "evil")
	require.NoError(t, os.MkdirAll(game, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "games.json"), []byte(`["evil"]`), 0o644))
	meta := `{"rulesheet": "evil.kif", "version": 0, "gameName": "Evil\u001b[2J\u202eemaG", "roleNames": ["robot\u001b]0;owned\u0007"]}`
	require.NoError(t, os.WriteFile(filepath.Join(game, "METADATA"), []byte(meta), 0o644))
	rules := "; \x1b[2Jcleared \u2066isolate\r\n(role robot)\r\n(init (cell a))\n\t(<= (legal robot go) (true (cell a)))\n(<= (next (cell b)) (does robot go))\n(<= terminal (true (cell b)))\n(goal robot 100)\n(<= (goal robot 0) (true (cell a\u202eb)))\n"
	require.NoError(t, os.WriteFile(filepath.Join(game, "evil.kif"), []byte(rules), 0o644))
	return dir
}

func TestGamesListAndShowEscapeServerText(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	code, _, stderr := run(t, "games", "sync", "--mirror", hostileMirror(t), "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assertNoTerminalControl(t, stderr)

	code, stdout, stderr := run(t, "games", "list", "--cache", cache, "--repo", "base")
	require.Equal(t, ExitOK, code, stderr)
	assertNoTerminalControl(t, stdout)
	assert.Contains(t, stdout, `Evil\x1b[2J\u202eemaG`)
	assert.Contains(t, stdout, `robot\x1b]0;owned\x07`)

	code, stdout, stderr = run(t, "games", "show", "BASE/evil", "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assertNoTerminalControl(t, stdout)
	for _, want := range []string{
		`title:    Evil\x1b[2J\u202eemaG`,
		`roles:    robot\x1b]0;owned\x07`,
		`metadata: {"rulesheet":"evil.kif"`,
		`\u202e`, // in the findings and in the rules
		"rules:\n" + `; \x1b[2Jcleared \u2066isolate` + "\n(role robot)\n(init (cell a))\n\t(<= (legal robot go)",
		`(cell a\u202eb)`,
	} {
		assert.Contains(t, stdout, want)
	}

	code, stdout, stderr = run(t, "games", "validate", "BASE/evil", "--cache", cache, "--static")
	assertNoTerminalControl(t, stdout)
	assertNoTerminalControl(t, stderr)
	assert.NotEqual(t, ExitUsage, code, stderr)
}

// A server that never answers ends the sync at --time-limit, with the
// limit and the flag in the message.
func TestGamesSyncTimeLimit(t *testing.T) {
	quit := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(quit) })
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = run(t, "games", "sync", "--url", srv.URL, "--repo", "base,dresden", "--timeout", "30s", "--time-limit", "300ms", "--cache", filepath.Join(t.TempDir(), "cache"))
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the sync did not stop at --time-limit")
	}
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "sync base: the key list: gave up after 300ms, the time limit of the sync (--time-limit)")
	assert.Contains(t, stderr, "sync stopped after --time-limit 300ms")
	assert.NotContains(t, stderr, "sync dresden", "the limit is for all repositories together")
}

func TestGamesSyncLimitFlags(t *testing.T) {
	streams := &IO{In: strings.NewReader(""), Out: &strings.Builder{}, Err: &strings.Builder{}}
	var got *GamesSyncOptions
	cmd := NewCmdGamesSync(streams, func(o *GamesSyncOptions) error { got = o; return nil })
	cmd.SetArgs(nil)
	require.NoError(t, cmd.Execute())
	assert.Equal(t, gamerepo.DefaultMaxVersions, got.MaxVersions)
	assert.Equal(t, gamerepo.DefaultSyncTimeLimit, got.TimeLimit)
	cmd = NewCmdGamesSync(streams, func(o *GamesSyncOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--max-versions", "3", "--time-limit", "1m"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, 3, got.MaxVersions)
	assert.Equal(t, time.Minute, got.TimeLimit)
}

// engine list shows the names, versions and commands of a manifest and
// the versions engines report escaped.
func TestEngineListEscapesEngineText(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "evil.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nsleep \"$3\"; printf 'version = 2\\033[31m\\342\\200\\256\\nmillisecondsTaken = %d\\nnumStateChanges = 700\\nnumRollouts = 70\\n' \"$(($3*1000))\" > \"$2\"\n"), 0o755))
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(`[[engines]]
name = "evil"
version = "1\u001b[2J\u202e"
command = ["./evil.sh", "--flag=\u001b[H"]
`), 0o644))
	code, stdout, stderr := run(t, "engine", "list", "--manifest", manifest)
	require.Equal(t, ExitOK, code, stderr)
	assertNoTerminalControl(t, stdout)
	assert.Regexp(t, `evil\s+1\\x1b\[2J\\u202e\s+external`, stdout)
	assert.Contains(t, stdout, `--flag=\x1b[H`)

	code, stdout, stderr = run(t, "engine", "list", "--manifest", manifest, "--check")
	assertNoTerminalControl(t, stdout)
	assertNoTerminalControl(t, stderr)
	// The version an engine reports is shown escaped; should the result
	// file's reader refuse such a version, the check fails, escaped too.
	if code == ExitOK {
		assert.Contains(t, stdout, `ok (evil reported version 2\x1b[31m\u202e)`)
	} else {
		assert.Contains(t, stdout, "FAILED")
	}
}
