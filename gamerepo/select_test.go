package gamerepo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

func keysOf(games []gamerepo.Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.Key)
	}
	return out
}

// syncedSubset is a cache holding the subset of both repositories.
func syncedSubset(t *testing.T) *gamerepo.Cache {
	srv := newAPIServer(t, subset)
	c := testCache(t)
	for _, repo := range []string{"base", "dresden"} {
		syncRepo(t, c, repo, testClient(t, srv.URL+"/"+repo))
	}
	return c
}

func TestSelectBuiltinNeedsNoCache(t *testing.T) {
	// A cache folder that does not exist, as on a fresh machine.
	dir := filepath.Join(t.TempDir(), "nothing")
	games, err := gamerepo.Select("builtin", gamerepo.WithCacheDir(dir))
	require.NoError(t, err)
	require.Len(t, games, len(gamerepo.Builtins()))
	for i, b := range gamerepo.Builtins() {
		g := games[i]
		assert.Equal(t, b.Key, g.Key)
		assert.Equal(t, gamerepo.RepoBuiltin, g.Repo)
		assert.Equal(t, b.Name, g.Name)
		assert.NotEmpty(t, g.Roles, b.Name)
		assert.Equal(t, b.Rules, g.Rules)
		assert.Empty(t, g.Path)
	}
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "selecting built-in games creates no cache")
}

func TestSelect(t *testing.T) {
	needMirror(t)
	c := syncedSubset(t)
	ttt, _ := gamerepo.Builtin("tictactoe")
	dir := t.TempDir()
	kif := filepath.Join(dir, "my game.kif")
	require.NoError(t, os.WriteFile(kif, ttt.Rules, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "other.kif"), []byte("(role a)\r\n(init (p))"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644))

	tests := []struct {
		name     string
		sel      string
		all      bool
		wantKeys []string
		wantErr  string
	}{
		{name: "one built-in", sel: "builtin:tictactoe", wantKeys: []string{ttt.Key}},
		{name: "a built-in in the panel's spelling", sel: "builtin:ticTacToe", wantKeys: []string{ttt.Key}},
		{name: "built-in key", sel: "BUILTIN/tictactoe/" + gamerepo.RulesHash(ttt.Rules), wantKeys: []string{ttt.Key}},
		{name: "built-in glob", sel: "builtin/tic*", wantKeys: []string{ttt.Key}},
		{name: "no such built-in", sel: "builtin:chess", wantErr: "the built-in games are breakthrough"},
		{name: "latest version", sel: "BASE/ticTacToe", wantKeys: []string{"BASE/ticTacToe/JRFsaQ"}},
		{name: "repository name in lower case", sel: "base/connectFour", wantKeys: []string{"BASE/connectFour/WAIKTw"}},
		{name: "exact key", sel: "BASE/ticTacToe/JRFsaQ", wantKeys: []string{"BASE/ticTacToe/JRFsaQ"}},
		{name: "older version by key", sel: "BASE/2pffa/j_AOGg", wantKeys: []string{"BASE/2pffa/j_AOGg"}},
		{name: "every version", sel: "BASE/2pffa/*", wantKeys: []string{"BASE/2pffa/j_AOGg", "BASE/2pffa/6oHijA"}},
		{name: "every version by option", sel: "BASE/2pffa", all: true, wantKeys: []string{"BASE/2pffa/j_AOGg", "BASE/2pffa/6oHijA"}},
		{name: "hash not cached", sel: "BASE/ticTacToe/AAAAAA", wantErr: "BASE/ticTacToe has no cached version with hash AAAAAA (cached: v0 BASE/ticTacToe/JRFsaQ)"},
		{name: "glob over keys", sel: "BASE/*pffa", wantKeys: []string{"BASE/2pffa/6oHijA", "BASE/3pffa/" + hashOf(t, c, "base", "3pffa", 1)}},
		{name: "glob over hashes", sel: "BASE/*/JRF*", wantKeys: []string{"BASE/ticTacToe/JRFsaQ"}},
		{name: "glob matching nothing", sel: "BASE/zz*", wantErr: "matches BASE/zz*"},
		{name: "dresden", sel: "DRESDEN/tictactoe", wantKeys: []string{"DRESDEN/tictactoe/BTTzPw"}},
		{name: "no such game", sel: "BASE/chess", wantErr: "no game BASE/chess in the cache"},
		{name: "repository not synced", sel: "stanford", wantErr: "the repository stanford is not in the cache"},
		{name: "comma list without duplicates", sel: "BASE/ticTacToe, builtin:tictactoe,BASE/ticTacToe/JRFsaQ", wantKeys: []string{"BASE/ticTacToe/JRFsaQ", ttt.Key}},
		{name: "a file", sel: kif, wantKeys: []string{gamerepo.GameKey("LOCAL", "my game", ttt.Rules)}},
		{name: "a folder", sel: dir, wantKeys: []string{gamerepo.GameKey("LOCAL", "my game", ttt.Rules), gamerepo.GameKey("LOCAL", "other", []byte("(role a)\n(init (p))\n"))}},
		{name: "LOCAL key", sel: "LOCAL/other", wantErr: "LOCAL games are named by their path"},
		{name: "nothing", sel: " , ", wantErr: "empty game selector"},
		{name: "unknown", sel: "chess", wantErr: `no games match "chess"`},
		{name: "bad glob", sel: "BASE/[", wantErr: "bad pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := []gamerepo.SelectOption{gamerepo.WithCache(c)}
			if tt.all {
				opts = append(opts, gamerepo.WithAllVersions())
			}
			games, err := gamerepo.Select(tt.sel, opts...)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantKeys, keysOf(games))
		})
	}

	t.Run("a whole repository", func(t *testing.T) {
		games, err := gamerepo.Select("base", gamerepo.WithCache(c))
		require.NoError(t, err)
		require.Len(t, games, len(subset["base"]))
		for _, g := range games {
			assert.Equal(t, "BASE", g.Repo)
			assert.NotEmpty(t, g.Roles, g.Key)
			assert.FileExists(t, g.Path)
			assert.Equal(t, g.Path, g.File)
			assert.Equal(t, g.Meta.Version, g.Version)
		}
		assert.Equal(t, "hexPie", games[5].Name)
		assert.Equal(t, "hex.kif", filepath.Base(games[5].Path), "hexPie's rulesheet is hex.kif")
	})
}

func hashOf(t *testing.T, c *gamerepo.Cache, repo, key string, v int) string {
	g, err := c.Load(repo, key, v)
	require.NoError(t, err)
	return gamerepo.RulesHash(g.Rules)
}

func TestSelectPanel(t *testing.T) {
	needMirror(t)
	srv := newAPIServer(t, map[string][]string{"base": gamerepo.Panel})
	c := testCache(t)
	syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	games, err := gamerepo.Select("panel", gamerepo.WithCache(c))
	require.NoError(t, err)
	require.Len(t, games, 20)
	for i, g := range games {
		assert.Equal(t, "BASE", g.Repo)
		assert.Equal(t, gamerepo.Panel[i], g.Name, "the panel's order")
	}
	assert.Equal(t, "BASE/ticTacToe/JRFsaQ", games[0].Key)

	// A panel game missing from the cache is named.
	_, err = gamerepo.Select("panel", gamerepo.WithCache(syncedSubset(t)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "breakthrough")
}

// A file named rulesheet.kif, as every dresden game is in the API's layout
// and in the cache, is a LOCAL game named by its folder (a version folder
// skipped), so that its rows and pages say which game it is; any other
// file is named by its file name.
func TestLocalGameNamedByFolderOfRulesheet(t *testing.T) {
	ttt, ok := gamerepo.Builtin("tictactoe")
	require.True(t, ok)
	root := t.TempDir()
	tests := []struct{ rel, want string }{
		{"dresden/statespacesmall/rulesheet.kif", "statespacesmall"},
		{"repos/dresden/games/quad_7x7/v3/rulesheet.kif", "quad_7x7"},
		{"games/v2/rulesheet.kif", "games"},
		{"games/version/rulesheet.kif", "version"},
		{"games/ticTacToe/v0/ticTacToe.kif", "ticTacToe"},
		{"games/v0/my game.kif", "my game"},
	}
	for _, tt := range tests {
		path := filepath.Join(root, filepath.FromSlash(tt.rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, ttt.Rules, 0o644))
		g, err := gamerepo.LocalGame(path)
		require.NoError(t, err, tt.rel)
		assert.Equal(t, tt.want, g.Name, tt.rel)
		assert.Equal(t, gamerepo.GameKey("LOCAL", tt.want, ttt.Rules), g.Key, tt.rel)
	}
}
