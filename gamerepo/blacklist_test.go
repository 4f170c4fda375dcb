package gamerepo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

func TestParseBlacklist(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    []gamerepo.BlacklistEntry
		wantErr string
	}{
		{name: "empty", text: ""},
		{name: "comments and blank lines", text: "# header\n\n  # indented\n"},
		{
			name: "entries",
			text: "# x\nBASE/chess/cX6VBQ;rollout 0: goal-count\nDRESDEN/a/AAAAAA ; reason; with; semicolons \n",
			want: []gamerepo.BlacklistEntry{{Key: "BASE/chess/cX6VBQ", Reason: "rollout 0: goal-count"}, {Key: "DRESDEN/a/AAAAAA", Reason: "reason; with; semicolons"}},
		},
		{name: "empty reason", text: "BASE/a/AAAAAA;\n", want: []gamerepo.BlacklistEntry{{Key: "BASE/a/AAAAAA"}}},
		{name: "last reason wins", text: "BASE/a/AAAAAA;one\nBASE/a/AAAAAA;two\n", want: []gamerepo.BlacklistEntry{{Key: "BASE/a/AAAAAA", Reason: "two"}}},
		{name: "no separator", text: "# c\nBASE/a/AAAAAA\n", wantErr: "bl.txt:2: want game-key;reason"},
		{name: "not a key", text: "BASE/a;x\n", wantErr: `bl.txt:1: "BASE/a" is not a game key REPO/key/hash`},
		{name: "empty key", text: ";x\n", wantErr: "bl.txt:1: want game-key;reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := gamerepo.ParseBlacklist("bl.txt", strings.NewReader(tt.text))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, b.Entries())
		})
	}
}

func TestBlacklistWriteReadBack(t *testing.T) {
	var b gamerepo.Blacklist
	b.Add("DRESDEN/z/AAAAAA", "second\nline")
	b.Add("BASE/a/BBBBBB", "first")
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf, "games excluded\n\nby gdlperf"))
	assert.Equal(t, "# games excluded\n#\n# by gdlperf\nBASE/a/BBBBBB;first\nDRESDEN/z/AAAAAA;second line\n", buf.String())

	path := filepath.Join(t.TempDir(), "blacklist.txt")
	require.NoError(t, b.WriteFile(path, "header"))
	got, err := gamerepo.ReadBlacklist(path)
	require.NoError(t, err)
	assert.Equal(t, b.Entries(), got.Entries())
	r, ok := got.Reason("BASE/a/BBBBBB")
	assert.True(t, ok)
	assert.Equal(t, "first", r)
	_, ok = got.Reason("BASE/a/CCCCCC")
	assert.False(t, ok)

	kept, skipped := got.Filter([]gamerepo.Game{{Key: "BASE/a/BBBBBB"}, {Key: "BASE/b/CCCCCC"}})
	assert.Equal(t, []string{"BASE/b/CCCCCC"}, keysOf(kept))
	assert.Equal(t, []string{"BASE/a/BBBBBB"}, keysOf(skipped))

	empty, err := gamerepo.LoadBlacklist(filepath.Join(t.TempDir(), "missing.txt"))
	require.NoError(t, err)
	assert.Equal(t, 0, empty.Len())
	_, err = gamerepo.ReadBlacklist(filepath.Join(t.TempDir(), "missing.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestRepoBlacklist: the repository's blacklist.txt parses, and its keys
// are unique.
func TestRepoBlacklist(t *testing.T) {
	b, err := gamerepo.ReadBlacklist("../blacklist.txt")
	if os.IsNotExist(err) {
		t.Skip("no blacklist.txt yet")
	}
	require.NoError(t, err)
	for _, e := range b.Entries() {
		assert.NotEmpty(t, e.Reason, e.Key)
	}
}

func TestBlacklistByHand(t *testing.T) {
	b, err := gamerepo.ParseBlacklist("b.txt", strings.NewReader("BASE/a/AAAAAA;found\n# by hand, after a long run\nBASE/b/BBBBBB;by hand\n"))
	require.NoError(t, err)
	assert.Equal(t, []gamerepo.BlacklistEntry{{Key: "BASE/a/AAAAAA", Reason: "found"}, {Key: "BASE/b/BBBBBB", Reason: "by hand", ByHand: true}}, b.Entries())

	// The validator can neither remove nor reword an entry added by hand.
	b.Remove("BASE/b/BBBBBB")
	b.Add("BASE/b/BBBBBB", "other")
	b.Remove("BASE/a/AAAAAA")
	b.Add("BASE/c/CCCCCC", "new")
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf, "header"))
	assert.Equal(t, "# header\nBASE/c/CCCCCC;new\n# By hand: defects found outside gdlperf games validate, kept when it rewrites this file.\nBASE/b/BBBBBB;by hand\n", buf.String())

	round, err := gamerepo.ParseBlacklist("b.txt", &buf)
	require.NoError(t, err)
	assert.Equal(t, b.Entries(), round.Entries())
	assert.Equal(t, []gamerepo.BlacklistEntry{{Key: "BASE/b/BBBBBB", Reason: "by hand", ByHand: true}}, b.KeepByHand().Entries())
}

// A LOCAL game (a file named by path) with the rules of a blacklisted game
// is blacklisted with it; a repository game is matched by its key only.
func TestBlacklistLookupMatchesLocalCopies(t *testing.T) {
	rules := []byte("(role robot)\n(init (cell 1))\n(<= (legal robot noop) (true (cell 1)))\n(<= terminal (true (cell 1)))\n(<= (goal robot 100) (true (cell 1)))\n")
	key := gamerepo.GameKey("BASE", "broken", rules)
	b, err := gamerepo.ParseBlacklist("b.txt", strings.NewReader(key+";goal-count\n"))
	require.NoError(t, err)

	path := filepath.Join(t.TempDir(), "copy.kif")
	require.NoError(t, os.WriteFile(path, rules, 0o644))
	local, err := gamerepo.LocalGame(path)
	require.NoError(t, err)
	require.NotEqual(t, key, local.Key)
	reason, ok := b.Lookup(local)
	assert.True(t, ok)
	assert.Equal(t, "the rules of "+key+": goal-count", reason)
	kept, skipped := b.Filter([]gamerepo.Game{local})
	assert.Empty(t, kept)
	assert.Len(t, skipped, 1)

	require.NoError(t, os.WriteFile(path, append(rules, "(<= (goal robot 0) (true (cell 2)))\n"...), 0o644))
	other, err := gamerepo.LocalGame(path)
	require.NoError(t, err)
	_, ok = b.Lookup(other)
	assert.False(t, ok, "other rules")

	_, ok = b.Lookup(gamerepo.Game{Key: "DRESDEN/broken/" + local.Key[len(local.Key)-6:], Repo: "DRESDEN"})
	assert.False(t, ok, "a repository game is matched by key")
	reason, ok = b.Lookup(gamerepo.Game{Key: key, Repo: "BASE"})
	assert.True(t, ok)
	assert.Equal(t, "goal-count", reason)
	_, ok = (*gamerepo.Blacklist)(nil).Lookup(local)
	assert.False(t, ok)
}
