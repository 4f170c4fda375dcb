package gamerepo_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

const (
	rulesV0 = "(role red)\r\n(role blue)\r\n(init (p))"
	rulesV2 = "(role red)\n(role blue)\n(init (q))\n"
)

// TestMirrorUpstreamLayout reads a folder laid out as a checkout of
// ggp-org/ggp-repository: <key>/ is version 0, v<N>/ has what changed.
func TestMirrorUpstreamLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"g/METADATA":       `{"gameName": "G", "rulesheet": "g.kif", "description": "g.txt", "version": 0}`,
		"g/g.kif":          rulesV0,
		"g/g.txt":          "about g",
		"g/v1/g.txt":       "about g, v1",
		"g/v2/g.kif":       rulesV2,
		"single/METADATA":  `{"rulesheet": "s.kif"}`,
		"single/s.kif":     "(role r)",
		"notagame/x.kif":   "(role r)",
		"other/README.txt": "x",
	})
	m, err := gamerepo.NewMirror(dir)
	require.NoError(t, err)
	ctx := context.Background()
	keys, err := m.Keys(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"g", "single"}, keys)
	_, err = m.Bundle(ctx)
	assert.ErrorIs(t, err, gamerepo.ErrNotFound)

	meta := func(v int) map[string]any {
		b, err := m.Metadata(ctx, "g", v)
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(b, &out))
		return out
	}
	assert.Equal(t, 2.0, meta(gamerepo.Latest)["version"])
	assert.Equal(t, 1.0, meta(1)["version"])
	assert.Equal(t, []any{"red", "blue"}, meta(0)["roleNames"])
	assert.Equal(t, 2.0, meta(0)["numRoles"])
	_, err = m.Metadata(ctx, "g", 3)
	assert.ErrorIs(t, err, gamerepo.ErrNotFound)

	file := func(v int, name string) string {
		b, err := m.File(ctx, "g", v, name, 1<<20)
		require.NoError(t, err)
		return string(b)
	}
	assert.Equal(t, "(role red)\n(role blue)\n(init (p))\n", file(0, "g.kif"), "served form")
	assert.Equal(t, "(role red)\n(role blue)\n(init (p))\n", file(1, "g.kif"), "v1 falls back to v0")
	assert.Equal(t, rulesV2, file(2, "g.kif"))
	assert.Equal(t, rulesV2, file(gamerepo.Latest, "g.kif"))
	assert.Equal(t, "about g, v1\n", file(2, "g.txt"), "v2 falls back to v1")
	_, err = m.File(ctx, "g", 0, "missing.kif", 1<<20)
	assert.ErrorIs(t, err, gamerepo.ErrNotFound)
	_, err = m.File(ctx, "g", 0, "../single/s.kif", 1<<20)
	assert.ErrorContains(t, err, "refused file name")
	_, err = m.File(ctx, "../g", 0, "g.kif", 1<<20)
	assert.ErrorContains(t, err, "refused game key")

	c := testCache(t)
	sum := syncRepo(t, c, "base", m)
	assert.Empty(t, sum.Failed)
	assert.Equal(t, 4, sum.Versions)
	g, err := c.Load("base", "g", 2)
	require.NoError(t, err)
	assert.Equal(t, gamerepo.GameKey("BASE", "g", []byte(rulesV2)), g.Key)
	assert.Equal(t, []string{"red", "blue"}, g.Roles)
}

// TestMirrorServedLayout: in the layout of ../shared/gamerepo-mirror,
// <key>/ is the latest version and an older version falls back to lower
// ones.
func TestMirrorServedLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"games.json":    `["g", "g", "../x"]`,
		"metadata.json": `{"g": {"rulesheet": "g.kif", "version": 2}}`,
		"g/METADATA":    `{"rulesheet": "g.kif", "version": 2, "roleNames": ["red", "blue"], "numRoles": 2}`,
		"g/g.kif":       rulesV2,
		"g/v1/METADATA": `{"rulesheet": "g.kif", "version": 1}`,
		"g/v0/METADATA": `{"rulesheet": "g.kif", "version": 0}`,
		"g/v0/g.kif":    rulesV0,
	})
	m, err := gamerepo.NewMirror(dir)
	require.NoError(t, err)
	ctx := context.Background()
	b, err := m.File(ctx, "g", 1, "g.kif", 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "(role red)\n(role blue)\n(init (p))\n", string(b), "v1 falls back to v0")
	b, err = m.Metadata(ctx, "g", gamerepo.Latest)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"version": 2`)

	c := testCache(t)
	sum := syncRepo(t, c, "base", m)
	assert.Len(t, sum.Failed, 1, "../x is refused")
	assert.Equal(t, 3, sum.Versions)
	assert.Contains(t, sum.Warnings[0], `"g" more than once`)
}

func TestMirrorDir(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"base/games.json":            `[]`,
		"dresden/g/METADATA":         `{"rulesheet": "rulesheet.kif"}`,
		"checkout/games/x/METADATA":  `{"rulesheet": "x.kif"}`,
		"checkout/games/x/x.kif":     `(role r)`,
		"empty/nothing-here/x.txt":   ``,
		"stanford-notes/README.txt":  ``,
		"checkout/games/y/README.md": ``,
	})
	tests := []struct {
		name, dir, repo string
		single          bool
		want            string
	}{
		{name: "a folder of repositories", dir: root, repo: "base", want: "base"},
		{name: "a repository without games.json", dir: root, repo: "dresden", want: "dresden"},
		{name: "a repository folder by name", dir: filepath.Join(root, "base"), repo: "base", want: "base"},
		{name: "a checkout for the one repository named", dir: filepath.Join(root, "checkout", "games"), repo: "base", single: true, want: "checkout/games"},
		{name: "a checkout for several repositories", dir: filepath.Join(root, "checkout", "games"), repo: "base"},
		{name: "missing repository", dir: root, repo: "stanford"},
		{name: "not a repository", dir: filepath.Join(root, "empty"), repo: "base", single: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := gamerepo.MirrorDir(tt.dir, tt.repo, tt.single)
			if tt.want == "" {
				assert.False(t, ok, got)
				return
			}
			require.True(t, ok)
			assert.Equal(t, filepath.Join(root, filepath.FromSlash(tt.want)), got)
		})
	}
}

// TestClientRetries counts the attempts the client makes per kind of answer.
func TestClientRetries(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		body         string
		wantAttempts int32
		wantErr      string
		wantNotFound bool
	}{
		{name: "ok", status: 200, body: "x", wantAttempts: 1},
		{name: "404 is not retried", status: 404, wantAttempts: 1, wantErr: "404 not found", wantNotFound: true},
		{name: "403 is not retried", status: 403, wantAttempts: 1, wantErr: "HTTP 403 Forbidden"},
		{name: "500 is retried", status: 500, wantAttempts: 4, wantErr: "HTTP 500 Internal Server Error (after 4 attempts)"},
		{name: "429 is retried", status: 429, wantAttempts: 4, wantErr: "HTTP 429 Too Many Requests"},
		{name: "empty body is retried", status: 200, wantAttempts: 4, wantErr: "empty response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				assert.Equal(t, "/r/games/k.y/v3/f.kif", r.URL.EscapedPath())
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := testClient(t, srv.URL+"/r/")
			_, err := c.File(context.Background(), "k y", 3, "f.kif", 100)
			require.ErrorContains(t, err, "refused game key", "no request for a bad key")
			b, err := c.File(context.Background(), "k.y", 3, "f.kif", 100)
			assert.Equal(t, tt.wantAttempts, n.Load())
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.body, string(b))
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), srv.URL+"/r/games/k.y/v3/f.kif")
			assert.Equal(t, tt.wantNotFound, errors.Is(err, gamerepo.ErrNotFound))
		})
	}
}

func TestNewClientRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "games.ggp.org/base", "ftp://x/base", "http://", "://x"} {
		_, err := gamerepo.NewClient(u)
		assert.Error(t, err, u)
	}
}
