package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

const gamesMirror = "../../../../shared/gamerepo-mirror"

// gamesSmallMirror copies a few games of the shared mirror into a folder
// of the same layout.
func gamesSmallMirror(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(gamesMirror, "index.tsv")); err != nil {
		t.Skipf("the mirror is not there: %v", err)
	}
	dir := t.TempDir()
	games := map[string][]string{"base": {"ticTacToe", "2pffa"}, "dresden": {"tictactoe"}}
	for repo, keys := range games {
		list := `["` + strings.Join(keys, `","`) + `"]`
		require.NoError(t, os.MkdirAll(filepath.Join(dir, repo), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, repo, "games.json"), []byte(list), 0o644))
		for _, k := range keys {
			require.NoError(t, os.CopyFS(filepath.Join(dir, repo, k), os.DirFS(filepath.Join(gamesMirror, repo, k))))
		}
	}
	return dir
}

func TestGamesListOffline(t *testing.T) {
	// A fresh machine: no cache folder, and no network needed.
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(gamerepo.EnvCache, cache)
	code, stdout, stderr := run(t, "games", "list")
	require.Equal(t, ExitOK, code, stderr)
	assert.Empty(t, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 1+len(gamerepo.Builtins()))
	assert.Equal(t, []string{"KEY", "NAME", "ROLES", "SIZE", "STATUS"}, strings.Fields(lines[0]))
	for i, b := range gamerepo.Builtins() {
		f := strings.Fields(lines[i+1])
		assert.Equal(t, b.Key, f[0])
		assert.Equal(t, "ok", f[len(f)-1])
	}
	_, err := os.Stat(cache)
	assert.True(t, errors.Is(err, os.ErrNotExist), "listing creates no cache")

	code, stdout, _ = run(t, "games", "list", "--repo", "base")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "KEY  NAME  ROLES  SIZE  STATUS", strings.TrimSpace(stdout))
}

func TestGamesSyncListShowValidate(t *testing.T) {
	mirror := gamesSmallMirror(t)
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(gamerepo.EnvCache, filepath.Join(t.TempDir(), "not-this-one"))

	code, stdout, stderr := run(t, "games", "sync", "--mirror", mirror, "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "sync base: 2 games, 2 fetched (3 versions), 0 unchanged, 0 failed")
	assert.Contains(t, stderr, "sync dresden: 1 games, 1 fetched (1 versions), 0 unchanged, 0 failed")
	assert.NotContains(t, stderr, "\r", "no progress when stderr is not a terminal")

	code, _, stderr = run(t, "games", "sync", "--mirror", filepath.Join(mirror, "base"), "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "sync base: 2 games, 0 fetched (0 versions), 2 unchanged, 0 failed")
	assert.NotContains(t, stderr, "dresden")

	code, stdout, stderr = run(t, "games", "list", "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "BASE/ticTacToe/JRFsaQ")
	assert.Contains(t, stdout, "Tic-Tac-Toe")
	assert.Contains(t, stdout, "DRESDEN/tictactoe/BTTzPw")
	assert.Contains(t, stdout, "BUILTIN/tictactoe/")
	assert.NotContains(t, stdout, "BASE/2pffa/j_AOGg", "only the latest version")

	code, stdout, _ = run(t, "games", "list", "--cache", cache, "--repo", "base", "--versions")
	require.Equal(t, ExitOK, code)
	assert.Contains(t, stdout, "BASE/2pffa/j_AOGg")
	assert.Contains(t, stdout, "BASE/2pffa/6oHijA")
	assert.NotContains(t, stdout, "BUILTIN")

	bl := filepath.Join(t.TempDir(), "blacklist.txt")
	require.NoError(t, os.WriteFile(bl, []byte("BASE/ticTacToe/JRFsaQ;just a test\n"), 0o644))
	code, stdout, _ = run(t, "games", "list", "--cache", cache, "--blacklist", bl, "--valid")
	require.Equal(t, ExitOK, code)
	assert.NotContains(t, stdout, "BASE/ticTacToe/JRFsaQ")
	assert.Contains(t, stdout, "DRESDEN/tictactoe/BTTzPw")

	code, stdout, stderr = run(t, "games", "show", "BASE/ticTacToe", "--cache", cache, "--blacklist", bl)
	require.Equal(t, ExitOK, code, stderr)
	for _, want := range []string{"key:         BASE/ticTacToe/JRFsaQ", "title:       Tic-Tac-Toe", "blacklisted: just a test", `"rulesheet":"ticTacToe.kif"`, "findings: none", "rules:\n", "(role xplayer)"} {
		assert.Contains(t, stdout, want)
	}
	code, _, stderr = run(t, "games", "show", "BASE/chess", "--cache", cache)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "no game BASE/chess in the cache")

	code, stdout, stderr = run(t, "games", "validate", "BASE/ticTacToe", "builtin:tictactoe", "--cache", cache)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "# BASE/ticTacToe/JRFsaQ: valid (3 rollouts")
	assert.Contains(t, stderr, "validated 2 games: 2 valid, 0 invalid, 0 unchecked")

	bad := filepath.Join(t.TempDir(), "bad.kif")
	require.NoError(t, os.WriteFile(bad, []byte("(role r) (init p) (<= (legal r go) (true p)) (<= (next p) (true p)) (<= terminal (true q)) (goal r 100)"), 0o644))
	code, stdout, stderr = run(t, "games", "validate", bad, "--steps", "20", "--write", bl)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stdout, ";rollout 0 (seed 1): no terminal state after 20 steps")
	assert.Contains(t, stderr, "1 of 1 games invalid")
	got, err := gamerepo.ReadBlacklist(bl)
	require.NoError(t, err)
	assert.Equal(t, 2, got.Len(), "--write with games updates the file")

	// A whole rewrite drops what the validator no longer finds and keeps
	// the entries added by hand, even for games it finds valid.
	out := filepath.Join(t.TempDir(), "all.txt")
	require.NoError(t, os.WriteFile(out, []byte("# old header\nDRESDEN/tictactoe/BTTzPw;stale finding\n# By hand: found with 20,000 rollouts\nBASE/ticTacToe/JRFsaQ;a defect random play rarely reaches\n"), 0o644))
	code, stdout, stderr = run(t, "games", "validate", "--all", "--cache", cache, "--write", out)
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "validated 12 games")
	assert.Equal(t, 12, strings.Count(stdout, "\n"))
	got, err = gamerepo.ReadBlacklist(out)
	require.NoError(t, err)
	assert.Equal(t, []gamerepo.BlacklistEntry{{Key: "BASE/ticTacToe/JRFsaQ", Reason: "a defect random play rarely reaches", ByHand: true}}, got.Entries())
	text, _ := os.ReadFile(out)
	assert.Contains(t, string(text), "# Written by gdlperf games validate: the static validator, then 3 random rollouts")
	assert.Contains(t, string(text), "# By hand: ")
	assert.NotContains(t, string(text), "old header")

	// A game argument of engine commands may be the key of a cached game.
	t.Setenv(gamerepo.EnvCache, cache)
	code, stdout, stderr = run(t, "engine", "info", "propnet", "BASE/ticTacToe")
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "game        BASE/ticTacToe/JRFsaQ")
	code, _, stderr = run(t, "engine", "info", "propnet", "BASE/noSuchGame")
	assert.NotEqual(t, ExitOK, code)
	assert.Contains(t, stderr, "a game in the cache REPO/NAME[/HASH]")
}

func TestGamesSyncUnreachable(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	code, _, stderr := run(t, "games", "sync", "--url", "http://127.0.0.1:1", "--repo", "base", "--retries", "1", "--backoff", "1ms", "--cache", cache)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "sync base: the key list: GET http://127.0.0.1:1/base/games/")
	assert.Contains(t, stderr, "connection refused (after 2 attempts)")
	assert.Contains(t, stderr, "1 of 1 repository had failures")
}

func TestGamesFlags(t *testing.T) {
	streams := &IO{In: strings.NewReader(""), Out: &strings.Builder{}, Err: &strings.Builder{}}
	t.Run("sync", func(t *testing.T) {
		var got *GamesSyncOptions
		cmd := NewCmdGamesSync(streams, func(o *GamesSyncOptions) error { got = o; return nil })
		cmd.SetArgs([]string{"--repo", "base,dresden", "--url", "http://example.org/", "--jobs", "2"})
		require.NoError(t, cmd.Execute())
		assert.Equal(t, []string{"base", "dresden"}, got.Repos)
		assert.True(t, got.ReposSet)
		assert.Equal(t, "http://example.org/", got.URL)
		assert.Equal(t, 2, got.Jobs)
		assert.False(t, got.Interactive)

		cmd = NewCmdGamesSync(streams, func(o *GamesSyncOptions) error { got = o; return nil })
		cmd.SetArgs(nil)
		require.NoError(t, cmd.Execute())
		assert.Equal(t, gamerepo.DefaultRepos, got.Repos)
		assert.False(t, got.ReposSet)

		cmd = NewCmdGamesSync(streams, func(o *GamesSyncOptions) error { return nil })
		cmd.SetArgs([]string{"--url", "http://x", "--mirror", "/tmp"})
		err := cmd.Execute()
		require.Error(t, err)
		assert.Equal(t, ExitUsage, exitCode(err))
	})
	t.Run("validate", func(t *testing.T) {
		var got *GamesValidateOptions
		cmd := NewCmdGamesValidate(streams, func(o *GamesValidateOptions) error { got = o; return nil })
		cmd.SetArgs([]string{"--all", "--budget", "30s", "--write", "blacklist.txt"})
		require.NoError(t, cmd.Execute())
		assert.True(t, got.All)
		assert.Equal(t, "30s", got.Budget.String())
		assert.Equal(t, 3, got.Rollouts)
		assert.Equal(t, 1000, got.Steps)
		for _, args := range [][]string{nil, {"--all", "BASE/x"}} {
			code, _, stderr := run(t, append([]string{"games", "validate"}, args...)...)
			assert.Equal(t, ExitUsage, code, args)
			assert.Contains(t, stderr, "give --all or the games to validate")
		}
	})
	t.Run("show and list", func(t *testing.T) {
		var show *GamesShowOptions
		cmd := NewCmdGamesShow(streams, func(o *GamesShowOptions) error { show = o; return nil })
		cmd.SetArgs([]string{"BASE/ticTacToe", "builtin:hex", "--no-rules"})
		require.NoError(t, cmd.Execute())
		assert.Equal(t, []string{"BASE/ticTacToe", "builtin:hex"}, show.Selectors)
		assert.True(t, show.NoRules)
		var list *GamesListOptions
		cmd = NewCmdGamesList(streams, func(o *GamesListOptions) error { list = o; return nil })
		cmd.SetArgs([]string{"--repo", "base", "--valid"})
		require.NoError(t, cmd.Execute())
		assert.Equal(t, []string{"base"}, list.Repos)
		assert.True(t, list.Valid)
		assert.Equal(t, "blacklist.txt", list.Blacklist)
	})
}

// games list --json prints every game as an object CI can read.
func TestGamesListJSON(t *testing.T) {
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	code, stdout, stderr := run(t, "games", "list", "--repo", "builtin", "--json")
	require.Equal(t, 0, code, stderr)
	var games []GameListing
	require.NoError(t, json.Unmarshal([]byte(stdout), &games), stdout)
	require.NotEmpty(t, games)
	byName := map[string]GameListing{}
	for _, g := range games {
		assert.True(t, strings.HasPrefix(g.Key, "BUILTIN/"), g.Key)
		byName[g.Name] = g
	}
	ttt, ok := byName["tictactoe"]
	require.True(t, ok, "%+v", games)
	assert.Equal(t, []string{"xplayer", "oplayer"}, ttt.Roles)
	assert.Equal(t, "ok", ttt.Status)
	assert.Greater(t, ttt.Bytes, 100)
}
