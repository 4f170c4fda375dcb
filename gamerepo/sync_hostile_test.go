package gamerepo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// hostileServer serves the repository base with one game, "many", that
// claims versions 0..latest. rules gives the rulesheet of a version; stall,
// when set, says which paths never get an answer (until the client gives
// up). It needs no mirror.
type hostileServer struct {
	*httptest.Server
	latest int
	keys   []string
	rules  func(v int) string
	stall  func(path string) bool

	mu    sync.Mutex
	n     int
	quit  chan struct{}
	paths []string
}

func newHostileServer(t *testing.T, latest int, rules func(v int) string) *hostileServer {
	t.Helper()
	s := &hostileServer{latest: latest, keys: []string{"many"}, rules: rules, quit: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.quit) }) // runs first: stalled handlers end
	return s
}

func (s *hostileServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *hostileServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.n++
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	p := strings.TrimPrefix(r.URL.Path, "/base/games/")
	if s.stall != nil && s.stall(p) {
		select {
		case <-r.Context().Done():
		case <-s.quit:
		}
		return
	}
	switch {
	case p == "":
		json.NewEncoder(w).Encode(s.keys)
		return
	case p == "metadata":
		http.NotFound(w, r)
		return
	}
	key, rest, _ := strings.Cut(p, "/")
	if !strings.HasPrefix(key, "many") {
		http.NotFound(w, r)
		return
	}
	v := s.latest
	if vs, file, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(strings.TrimPrefix(vs, "v"))
		if err != nil || n < 0 || n > s.latest {
			http.NotFound(w, r)
			return
		}
		v, rest = n, file
	}
	switch rest {
	case "":
		fmt.Fprintf(w, `{"rulesheet":"many.kif","version":%d}`, v)
	case "many.kif":
		fmt.Fprint(w, s.rules(v))
	default:
		http.NotFound(w, r)
	}
}

const hostileRules = "(role robot)\n(init (cell a))\n(<= (legal robot go) (true (cell a)))\n(<= (next (cell b)) (does robot go))\n(<= terminal (true (cell b)))\n(goal robot 100)\n"

// TestSyncCapsVersions: a server that claims 1001 versions of a game gets
// requests for the newest DefaultMaxVersions only, and the versions that
// repeat a rulesheet share one copy on disk.
func TestSyncCapsVersions(t *testing.T) {
	srv := newHostileServer(t, gamerepo.MaxVersion, func(int) string { return hostileRules })
	c := testCache(t)
	sum := syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	n := gamerepo.DefaultMaxVersions
	assert.Empty(t, sum.Failed)
	assert.Equal(t, n, sum.Versions)
	// The key list, the bundle, the latest METADATA, then a METADATA and a
	// rulesheet per version.
	assert.Equal(t, 3+2*n, srv.requests())
	warnings := strings.Join(sum.Warnings, "\n")
	assert.Contains(t, warnings, fmt.Sprintf("many: the repository has 1001 versions; only the newest %d (v%d to v1000) are fetched", n, 1001-n))
	assert.Contains(t, warnings, fmt.Sprintf("many: %d versions repeat the rulesheet of another version; the cache holds one copy", n-1))

	vs, err := c.Versions("base", "many")
	require.NoError(t, err)
	require.Len(t, vs, n)
	assert.Equal(t, 1001-n, vs[0])
	assert.Equal(t, 1000, vs[n-1])
	first, err := c.Load("base", "many", vs[0])
	require.NoError(t, err)
	fi, err := os.Stat(first.Path)
	require.NoError(t, err)
	for _, v := range vs {
		g, err := c.Load("base", "many", v)
		require.NoError(t, err, "v%d", v)
		assert.Equal(t, hostileRules, string(g.Rules))
		assert.Equal(t, first.Key, g.Key, "the same rules are the same game key")
		gi, err := os.Stat(g.Path)
		require.NoError(t, err)
		assert.True(t, os.SameFile(fi, gi), "v%d has a copy of its own", v)
	}

	// Nothing is fetched again.
	before := srv.requests()
	sum = syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	assert.Equal(t, 1, sum.Unchanged)
	assert.Empty(t, sum.Fetched)
	assert.Equal(t, 3, srv.requests()-before)

	// A corrupted shared copy is fetched again, once.
	require.NoError(t, os.WriteFile(first.Path, []byte("(role x)\n"), 0o644))
	sum = syncRepo(t, c, "base", testClient(t, srv.URL+"/base"))
	assert.Empty(t, sum.Failed)
	assert.Equal(t, n, sum.Versions)
	for _, v := range vs {
		g, err := c.Load("base", "many", v)
		require.NoError(t, err, "v%d", v)
		assert.Equal(t, hostileRules, string(g.Rules))
	}
}

// TestSyncMaxVersions: WithMaxVersions keeps the newest versions; distinct
// rulesheets are stored each in its own file.
func TestSyncMaxVersions(t *testing.T) {
	srv := newHostileServer(t, 5, func(v int) string { return hostileRules + fmt.Sprintf("; version %d\n", v) })
	c := testCache(t)
	sum := syncRepo(t, c, "base", testClient(t, srv.URL+"/base"), gamerepo.WithMaxVersions(3))
	assert.Empty(t, sum.Failed)
	assert.Equal(t, 3, sum.Versions)
	require.Len(t, sum.Warnings, 1, "%q", sum.Warnings)
	assert.Equal(t, "many: the repository has 6 versions; only the newest 3 (v3 to v5) are fetched", sum.Warnings[0])
	vs, err := c.Versions("base", "many")
	require.NoError(t, err)
	assert.Equal(t, []int{3, 4, 5}, vs)
	var infos []os.FileInfo
	for _, v := range vs {
		g, err := c.Load("base", "many", v)
		require.NoError(t, err)
		assert.Contains(t, string(g.Rules), fmt.Sprintf("; version %d\n", v))
		fi, err := os.Stat(g.Path)
		require.NoError(t, err)
		for _, o := range infos {
			assert.False(t, os.SameFile(o, fi))
		}
		infos = append(infos, fi)
	}

	// Few versions: all are fetched, without a warning.
	small := newHostileServer(t, 1, func(v int) string { return hostileRules + fmt.Sprintf("; version %d\n", v) })
	sum = syncRepo(t, testCache(t), "base", testClient(t, small.URL+"/base"), gamerepo.WithMaxVersions(3))
	assert.Equal(t, 2, sum.Versions)
	assert.Empty(t, sum.Warnings)
}

// TestSyncTimeLimit: a server that never answers stops the sync at its
// time limit, whatever the time-outs and retries of each request, with the
// limit in the message; what was stored stays.
func TestSyncTimeLimit(t *testing.T) {
	tests := []struct {
		name    string
		stall   func(path string) bool
		wantMsg []string
	}{
		{
			name:    "the key list",
			stall:   func(p string) bool { return p == "" },
			wantMsg: []string{"sync base: the key list: gave up after 300ms, the time limit of the sync (WithTimeLimit)"},
		},
		{
			name:    "every game",
			stall:   func(p string) bool { return p != "" && p != "metadata" },
			wantMsg: []string{"sync base: gave up after 300ms, the time limit of the sync (WithTimeLimit)", "(0 of 40 games done)", "the same sync goes on from there"},
		},
		{
			name:    "all but one game",
			stall:   func(p string) bool { return p != "" && p != "metadata" && !strings.HasPrefix(p, "many/") },
			wantMsg: []string{"sync base: gave up after 300ms", "of 40 games done)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newHostileServer(t, 0, func(int) string { return hostileRules })
			srv.stall = tt.stall
			srv.keys = []string{"many"}
			for i := 1; i < 40; i++ {
				srv.keys = append(srv.keys, fmt.Sprintf("many%02d", i))
			}
			c := testCache(t)
			// Without the time limit each request would take 4 attempts of
			// 30 s, and the sync an hour.
			client := testClient(t, srv.URL+"/base", gamerepo.WithTimeout(30*time.Second), gamerepo.WithRetries(3))
			type result struct {
				sum *gamerepo.SyncSummary
				err error
			}
			done := make(chan result, 1)
			go func() {
				sum, err := c.Sync(context.Background(), "base", client, gamerepo.WithTimeLimit(300*time.Millisecond))
				done <- result{sum, err}
			}()
			var got result
			select {
			case got = <-done:
			case <-time.After(time.Minute):
				t.Fatal("the sync did not stop at its time limit")
			}
			require.Error(t, got.err)
			var tle *gamerepo.TimeLimitError
			require.True(t, errors.As(got.err, &tle), "%v", got.err)
			assert.Equal(t, 300*time.Millisecond, tle.Limit)
			assert.ErrorIs(t, got.err, context.DeadlineExceeded)
			for _, m := range tt.wantMsg {
				assert.Contains(t, got.err.Error(), m)
			}
			if tt.name == "all but one game" {
				// The game that answered is cached.
				_, err := c.Load("base", "many", 0)
				assert.NoError(t, err)
				_, err = os.Stat(filepath.Join(c.Root(), "repos", "base", "index.json"))
				assert.NoError(t, err, "the index is written")
			}
		})
	}
}

// A caller may bound several syncs with its own context whose cause is a
// TimeLimitError; the error names its knob.
func TestSyncTimeLimitOfTheCaller(t *testing.T) {
	srv := newHostileServer(t, 0, func(int) string { return hostileRules })
	srv.stall = func(p string) bool { return p == "" }
	limit := &gamerepo.TimeLimitError{Limit: 200 * time.Millisecond, Knob: "--time-limit"}
	ctx, cancel := context.WithTimeoutCause(context.Background(), limit.Limit, limit)
	defer cancel()
	_, err := testCache(t).Sync(ctx, "base", testClient(t, srv.URL+"/base"), gamerepo.WithTimeLimit(0))
	require.ErrorIs(t, err, limit)
	assert.Contains(t, err.Error(), "gave up after 200ms, the time limit of the sync (--time-limit)")
}
