package gamerepo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// TestSyncMirrorOverHTTP syncs the whole mirror from a local server with
// the API's URL layout: every mirrored (repo, key, version) is cached, and
// its game key is the mirror's gdlperf_id.
func TestSyncMirrorOverHTTP(t *testing.T) {
	rows := mirrorIndex(t)
	srv := newAPIServer(t, nil)
	c := testCache(t)
	want := map[string]int{}
	versions := map[string]int{}
	for _, r := range rows {
		if r.latest {
			want[r.repo]++
		}
		versions[r.repo]++
	}
	for _, repo := range []string{"base", "dresden"} {
		sum := syncRepo(t, c, repo, testClient(t, srv.URL+"/"+repo), gamerepo.WithConcurrency(8))
		assert.Empty(t, sum.Failed, "%s failures", repo)
		assert.Empty(t, sum.Warnings, "%s warnings", repo)
		assert.Equal(t, want[repo], sum.Keys, repo)
		assert.Len(t, sum.Fetched, want[repo], repo)
		assert.Equal(t, versions[repo], sum.Versions, repo)
	}
	for _, r := range rows {
		g, err := c.Load(r.repo, r.key, r.version)
		if !assert.NoError(t, err, "%s/%s v%d", r.repo, r.key, r.version) {
			continue
		}
		assert.Equal(t, strings.ToUpper(r.repo)+"/"+r.key+"/"+r.gdlperfID, g.Key, "%s v%d", r.path, r.version)
		assert.Equal(t, r.sha256Served, g.SHA256, "%s: the cache keeps the served text", r.path)
	}
	assert.Empty(t, srv.outside)

	// A second sync asks for the key lists and the bundles only.
	before := srv.requests()
	for _, repo := range []string{"base", "dresden"} {
		sum := syncRepo(t, c, repo, testClient(t, srv.URL+"/"+repo))
		assert.Equal(t, want[repo], sum.Unchanged, repo)
		assert.Empty(t, sum.Fetched, repo)
	}
	assert.Equal(t, 4, srv.requests()-before)

	// The same files come from the mirror folder read directly (only the
	// index's source differs).
	c2 := testCache(t)
	for _, repo := range []string{"base", "dresden"} {
		m, err := gamerepo.NewMirror(filepath.Join(mirrorRoot, repo))
		require.NoError(t, err)
		sum := syncRepo(t, c2, repo, m)
		assert.Empty(t, sum.Failed)
	}
	a, b := tree(t, c.Root()), tree(t, c2.Root())
	for _, repo := range []string{"base", "dresden"} {
		delete(a, "repos/"+repo+"/index.json")
		delete(b, "repos/"+repo+"/index.json")
	}
	assert.Equal(t, a, b, "a sync over HTTP and a sync of the folder cache the same files")
}

// subset is a few games of each repository, some with several versions.
var subset = map[string][]string{
	"base":    {"2pffa", "3pffa", "4pttc", "chineseCheckers6", "connectFour", "hexPie", "ticTacToe", "wargame03"},
	"dresden": {"tictactoe", "connectfour", "chinesecheckers6-simultaneous", "buttons", "3qbf-5cnf-20var-40cl.0.qdimacs"},
}

func subsetVersions(t *testing.T) map[string]int {
	n := map[string]int{}
	for _, r := range mirrorIndex(t) {
		for _, k := range subset[r.repo] {
			if k == r.key {
				n[r.repo]++
			}
		}
	}
	return n
}

// cleanSync is the cache of an uninterrupted sync of the subset.
func cleanSync(t *testing.T) map[string]string {
	srv := newAPIServer(t, subset)
	c := testCache(t)
	for _, repo := range []string{"base", "dresden"} {
		sum := syncRepo(t, c, repo, testClient(t, srv.URL+"/"+repo))
		require.Empty(t, sum.Failed)
	}
	// The server's address is in the index; use one address for all.
	return normalise(tree(t, c.Root()))
}

// normalise drops the index files' sources (the test servers' addresses).
func normalise(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if strings.HasSuffix(k, "index.json") {
			v = "index"
		}
		out[k] = v
	}
	return out
}

func syncAll(ctx context.Context, t *testing.T, c *gamerepo.Cache, url string) error {
	var errs []error
	for _, repo := range []string{"base", "dresden"} {
		_, err := c.Sync(ctx, repo, testClient(t, url+"/"+repo), gamerepo.WithConcurrency(3))
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// TestSyncInterrupted stops a sync at random points (a cancelled context,
// or a server that starts failing for good) and runs it again: the cache
// ends as after a sync never interrupted.
func TestSyncInterrupted(t *testing.T) {
	want := cleanSync(t)
	srv := newAPIServer(t, subset)
	// Count the requests of a whole sync.
	total := func() int {
		c := testCache(t)
		require.NoError(t, syncAll(context.Background(), t, c, srv.URL))
		return srv.requests()
	}()
	wantIndex := func() map[string]string {
		c := testCache(t)
		require.NoError(t, syncAll(context.Background(), t, c, srv.URL))
		return tree(t, c.Root())
	}()
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 16; i++ {
		k := 1 + rng.IntN(total-1)
		failing := i%2 == 1
		name := fmt.Sprintf("cancel after %d of %d requests", k, total)
		if failing {
			name = fmt.Sprintf("server fails after %d of %d requests", k, total)
		}
		t.Run(name, func(t *testing.T) {
			c := testCache(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			start := srv.requests()
			srv.setFault(func(w http.ResponseWriter, r *http.Request, n int) bool {
				if n-start < k {
					return false
				}
				if failing {
					http.Error(w, "down", http.StatusServiceUnavailable)
				} else {
					cancel()
				}
				return failing
			})
			err := syncAll(ctx, t, c, srv.URL)
			if !failing {
				assert.ErrorIs(t, err, context.Canceled)
			}
			srv.setFault(nil)
			require.NoError(t, syncAll(context.Background(), t, c, srv.URL))
			got := tree(t, c.Root())
			assert.Equal(t, want, normalise(got))
			assert.Equal(t, wantIndex, got, "the index files too")
		})
	}
}

// faultSync syncs base of the subset through fault and returns the summary.
func faultSync(t *testing.T, fault func(w http.ResponseWriter, r *http.Request, n int) bool, opts ...gamerepo.ClientOption) (*gamerepo.Cache, *gamerepo.SyncSummary, error) {
	srv := newAPIServer(t, subset)
	srv.setFault(fault)
	c := testCache(t)
	sum, err := c.Sync(context.Background(), "base", testClient(t, srv.URL+"/base", opts...))
	return c, sum, err
}

func failedKeys(sum *gamerepo.SyncSummary) []string {
	var out []string
	for _, f := range sum.Failed {
		out = append(out, f.Key)
	}
	sort.Strings(out)
	return out
}

// stall answers after d, or when the client gives up.
func stall(d time.Duration) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
		}
	}
}

func onPath[F func(w http.ResponseWriter) | func(w http.ResponseWriter, r *http.Request)](suffix string, times int, answer F) func(w http.ResponseWriter, r *http.Request, n int) bool {
	hits := 0
	return func(w http.ResponseWriter, r *http.Request, n int) bool {
		if !strings.HasSuffix(r.URL.Path, suffix) || (times >= 0 && hits >= times) {
			return false
		}
		hits++
		switch f := any(answer).(type) {
		case func(w http.ResponseWriter):
			f(w)
		case func(w http.ResponseWriter, r *http.Request):
			f(w, r)
		}
		return true
	}
}

func TestSyncFaults(t *testing.T) {
	versions := subsetVersions(t)["base"]
	status := func(code int) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) { w.WriteHeader(code) }
	}
	truncated := func(w http.ResponseWriter) {
		w.Header().Set("Content-Length", "5000")
		w.Write([]byte("(role x"))
	}
	tests := []struct {
		name        string
		fault       func(w http.ResponseWriter, r *http.Request, n int) bool
		opts        []gamerepo.ClientOption
		wantFailed  []string
		wantErr     string // in the failure of each failed game
		wantWarning string
		wantRepoErr string
	}{
		{name: "500 twice then fine", fault: onPath("/ticTacToe.kif", 2, status(500))},
		{name: "500 for good", fault: onPath("/ticTacToe.kif", -1, status(500)), wantFailed: []string{"ticTacToe"}, wantErr: "HTTP 500 Internal Server Error (after 4 attempts)"},
		{name: "503 on the key list then fine", fault: onPath("/base/games/", 1, status(503))},
		{name: "key list down", fault: onPath("/base/games/", -1, status(502)), wantRepoErr: "the key list: GET"},
		{name: "truncated body then fine", fault: onPath("/connectFour.kif", 2, truncated)},
		{name: "truncated for good", fault: onPath("/connectFour.kif", -1, truncated), wantFailed: []string{"connectFour"}, wantErr: "unexpected EOF"},
		{name: "empty body then fine", fault: onPath("/hex.kif", 1, status(200))},
		{name: "empty for good", fault: onPath("/hex.kif", -1, status(200)), wantFailed: []string{"hexPie"}, wantErr: "empty response"},
		{
			name:  "slower than the time-out once",
			fault: onPath("/2pffa.kif", 1, stall(400*time.Millisecond)),
			opts:  []gamerepo.ClientOption{gamerepo.WithTimeout(100 * time.Millisecond)},
		},
		{
			name:       "slower than the time-out for good",
			fault:      onPath("/3pffa.kif", -1, stall(300*time.Millisecond)),
			opts:       []gamerepo.ClientOption{gamerepo.WithTimeout(100 * time.Millisecond), gamerepo.WithRetries(1)},
			wantFailed: []string{"3pffa", "3pffa"}, wantErr: "Client.Timeout exceeded",
		},
		{name: "404 for the file METADATA names", fault: onPath("/wargame03.kif", -1, status(404)), wantFailed: []string{"wargame03", "wargame03", "wargame03"}, wantErr: "METADATA names the rulesheet wargame03.kif, which the repository does not have"},
		{
			name: "malformed METADATA",
			fault: onPath("/ticTacToe/v0/", -1, func(w http.ResponseWriter) {
				w.Write([]byte(`{"rulesheet": "ticTacToe.kif", "version": 0`))
			}),
			wantFailed: []string{"ticTacToe"}, wantErr: "malformed JSON",
		},
		{
			name: "METADATA naming a file outside",
			fault: onPath("/ticTacToe/v0/", -1, func(w http.ResponseWriter) {
				w.Write([]byte(`{"rulesheet": "../../../evil.kif", "version": 0}`))
			}),
			wantFailed: []string{"ticTacToe"}, wantErr: `refused file name "../../../evil.kif"`,
		},
		{
			name: "METADATA of another version",
			fault: onPath("/ticTacToe/v0/", -1, func(w http.ResponseWriter) {
				w.Write([]byte(`{"rulesheet": "ticTacToe.kif", "version": 3}`))
			}),
			wantFailed: []string{"ticTacToe"}, wantErr: "the METADATA of version 0 says version 3",
		},
		{
			name:        "malformed bundle",
			fault:       onPath("/games/metadata", -1, func(w http.ResponseWriter) { w.Write([]byte(`{"2pffa": {`)) }),
			wantWarning: "the metadata bundle is not a JSON object",
		},
		{name: "bundle missing", fault: onPath("/games/metadata", -1, status(404))},
		{
			name:        "malformed key list",
			fault:       onPath("/base/games/", -1, func(w http.ResponseWriter) { w.Write([]byte(`["2pffa", 3]`)) }),
			wantRepoErr: "not a JSON array of strings",
		},
		{
			name: "rulesheet over the size limit",
			fault: onPath("/4pttc.kif", -1, func(w http.ResponseWriter) {
				chunk := []byte(strings.Repeat("(", 1<<20))
				for i := 0; i <= gamerepo.MaxRulesheetBytes>>20; i++ {
					w.Write(chunk)
				}
			}),
			wantFailed: []string{"4pttc", "4pttc", "4pttc"}, wantErr: "over the size limit",
		},
		{
			name: "Content-Length over the size limit",
			fault: onPath("/4pttc.kif", -1, func(w http.ResponseWriter) {
				w.Header().Set("Content-Length", fmt.Sprint(gamerepo.MaxRulesheetBytes+1))
			}),
			wantFailed: []string{"4pttc", "4pttc", "4pttc"}, wantErr: "over the size limit of 16777216 bytes (Content-Length 16777217)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, sum, err := faultSync(t, tt.fault, tt.opts...)
			if tt.wantRepoErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantRepoErr)
				assert.Empty(t, tree(t, c.Root()), "nothing cached")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantFailed, failedKeys(sum))
			for _, f := range sum.Failed {
				assert.Contains(t, f.Err.Error(), tt.wantErr)
			}
			failed := map[string]bool{}
			for _, k := range tt.wantFailed {
				failed[k] = true
			}
			assert.Equal(t, len(subset["base"])-len(failed), len(sum.Fetched), "the other games are fetched")
			if tt.wantWarning != "" {
				assert.Contains(t, strings.Join(sum.Warnings, "\n"), tt.wantWarning)
			} else {
				assert.Empty(t, sum.Warnings)
			}
			if len(tt.wantFailed) == 0 {
				assert.Equal(t, subsetVersions(t)["base"], sum.Versions)
			}
			// No failed game leaves a complete-looking version behind.
			for k := range failed {
				vs, err := c.Versions("base", k)
				require.NoError(t, err)
				for _, v := range vs {
					_, err := c.Load("base", k, v)
					assert.NoError(t, err, "%s v%d", k, v)
				}
			}
			_ = versions
		})
	}
}

// TestSyncHostileKeys: a repository naming keys that would leave the cache
// has them refused, and nothing is written outside the cache.
func TestSyncHostileKeys(t *testing.T) {
	srv := newAPIServer(t, subset)
	hostile := []string{"../../x", "..", ".", "a/b", `a\b`, "x\x00y", ".hidden", "/etc", strings.Repeat("k", 200), ""}
	srv.extraKey = append(hostile, "ticTacToe", "ticTacToe") // and a duplicate
	parent := t.TempDir()
	c, err := gamerepo.OpenCache(filepath.Join(parent, "cache"))
	require.NoError(t, err)
	gamerepo.SetNoSync(c)
	sum, err := c.Sync(context.Background(), "base", testClient(t, srv.URL+"/base"))
	require.NoError(t, err)
	assert.Len(t, sum.Failed, len(hostile))
	for _, f := range sum.Failed {
		assert.Contains(t, f.Err.Error(), "refused game key")
	}
	assert.Equal(t, len(subset["base"]), sum.Keys)
	assert.Contains(t, strings.Join(sum.Warnings, "\n"), `the key list names "ticTacToe" more than once`)
	assert.Empty(t, srv.outside, "no request for a hostile key")
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	require.Len(t, ents, 1)
	assert.Equal(t, "cache", ents[0].Name())
	for p := range tree(t, c.Root()) {
		assert.True(t, strings.HasPrefix(p, "repos/base/"), p)
	}
}

// TestSyncConnectionRefused: no server at all is an error for the
// repository, after the retries, with the address in the message.
func TestSyncConnectionRefused(t *testing.T) {
	srv := newAPIServer(t, subset)
	url := srv.URL
	srv.Close()
	c := testCache(t)
	_, err := c.Sync(context.Background(), "base", testClient(t, url+"/base"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection refused")
	assert.Contains(t, err.Error(), "(after 4 attempts)")
	assert.Contains(t, err.Error(), url)
}

// TestCorruptedCacheIsRefetched: a changed cached file is reported on read
// and replaced by the next sync.
func TestCorruptedCacheIsRefetched(t *testing.T) {
	srv := newAPIServer(t, subset)
	c := testCache(t)
	syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	want := tree(t, c.Root())
	g, err := c.Load("base", "ticTacToe", 0)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(g.Path, []byte("(role x)\n"), 0o644))

	_, err = c.Load("base", "ticTacToe", 0)
	require.ErrorIs(t, err, gamerepo.ErrCorrupt)
	assert.Contains(t, err.Error(), "gdlperf games sync fetches it again")
	_, err = gamerepo.Select("BASE/ticTacToe", gamerepo.WithCache(c))
	assert.ErrorIs(t, err, gamerepo.ErrCorrupt)
	var warned []error
	games, err := gamerepo.Select("base", gamerepo.WithCache(c), gamerepo.WithWarnings(func(err error) { warned = append(warned, err) }))
	require.NoError(t, err)
	assert.Len(t, games, len(subset["base"])-1, "the corrupted game is left out")
	require.Len(t, warned, 1)
	assert.ErrorIs(t, warned[0], gamerepo.ErrCorrupt)

	sum := syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	assert.Equal(t, []string{"ticTacToe"}, sum.Fetched)
	assert.Contains(t, strings.Join(sum.Warnings, "\n"), "fetching it again")
	assert.Equal(t, want, tree(t, c.Root()))
}

// TestCrashLeftovers: a version folder whose sha256 file was never written
// (a crash between the rulesheet and the marker), with a stray temporary
// file, does not count; the next sync completes it and removes the stray.
func TestCrashLeftovers(t *testing.T) {
	srv := newAPIServer(t, subset)
	c := testCache(t)
	syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	want := tree(t, c.Root())
	g, err := c.Load("base", "2pffa", 1)
	require.NoError(t, err)
	dir := filepath.Dir(g.Path)
	require.NoError(t, os.Remove(filepath.Join(dir, "sha256")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".tmp-123"), []byte("half"), 0o644))
	require.NoError(t, os.WriteFile(g.Path, g.Rules[:len(g.Rules)/2], 0o644))

	vs, err := c.Versions("base", "2pffa")
	require.NoError(t, err)
	assert.Equal(t, []int{0}, vs)
	_, err = c.Load("base", "2pffa", 1)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = gamerepo.Select("BASE/2pffa", gamerepo.WithCache(c))
	assert.ErrorContains(t, err, "BASE/2pffa v1 is not in the cache")
	listed, err := c.List("base", false)
	require.NoError(t, err)
	require.Equal(t, "2pffa", listed[0].Name)
	assert.ErrorIs(t, listed[0].Err, os.ErrNotExist)
	assert.Equal(t, 1, listed[0].Version)

	sum := syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	assert.Equal(t, []string{"2pffa"}, sum.Fetched)
	assert.Equal(t, 1, sum.Versions)
	assert.Equal(t, want, tree(t, c.Root()))
}
