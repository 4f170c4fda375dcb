package gamerepo_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// mirrorRoot is ../shared/gamerepo-mirror seen from this package.
const mirrorRoot = "../../shared/gamerepo-mirror"

func needMirror(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(mirrorRoot, "index.tsv")); err != nil {
		t.Skipf("the mirror is not there: %v", err)
	}
}

// indexRow is one row of the mirror's index.tsv.
type indexRow struct {
	repo, key    string
	version      int
	latest       bool
	path         string
	sha256Served string
	gdlperfID    string
}

func mirrorIndex(t testing.TB) []indexRow {
	t.Helper()
	needMirror(t)
	f, err := os.Open(filepath.Join(mirrorRoot, "index.tsv"))
	require.NoError(t, err)
	defer f.Close()
	var rows []indexRow
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first {
			require.Equal(t, []string{"repo", "key", "version"}, c[:3])
			require.Equal(t, "path", c[6])
			require.Equal(t, "gdlperf_id", c[8])
			continue
		}
		v, err := strconv.Atoi(c[2])
		require.NoError(t, err)
		rows = append(rows, indexRow{repo: c[0], key: c[1], version: v, latest: c[5] == "1", path: c[6], sha256Served: c[7], gdlperfID: c[8]})
	}
	require.NoError(t, sc.Err())
	return rows
}

// apiServer serves the mirror folder with the URL layout of games.ggp.org
// (GAMEREPO-API.md), written apart from Mirror so that one checks the
// other. subset, when set, limits each repository to those keys. fault,
// when set, sees every request first (n counts from 1) and may answer it
// instead.
type apiServer struct {
	*httptest.Server
	subset map[string][]string

	mu       sync.Mutex
	n        int
	paths    []string
	fault    func(w http.ResponseWriter, r *http.Request, n int) bool
	outside  []string // requests that tried to leave the mirror
	extraKey []string // added to every key list
}

func newAPIServer(t testing.TB, subset map[string][]string) *apiServer {
	t.Helper()
	needMirror(t)
	s := &apiServer{subset: subset}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *apiServer) setFault(f func(w http.ResponseWriter, r *http.Request, n int) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
}

func (s *apiServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.n++
	n, fault := s.n, s.fault
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	if fault != nil && fault(w, r, n) {
		return
	}
	p := r.URL.Path
	if strings.Contains(p, "..") || strings.Contains(p, "\\") {
		s.mu.Lock()
		s.outside = append(s.outside, p)
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 3)
	if len(parts) < 3 || parts[1] != "games" {
		http.NotFound(w, r)
		return
	}
	repo, rest := parts[0], parts[2]
	dir := filepath.Join(mirrorRoot, repo)
	switch rest {
	case "":
		var keys []string
		readJSON(w, filepath.Join(dir, "games.json"), &keys)
		if sub, ok := s.subset[repo]; ok {
			keys = sub
		}
		keys = append(keys, s.extraKey...)
		json.NewEncoder(w).Encode(keys)
		return
	case "metadata":
		var all map[string]json.RawMessage
		readJSON(w, filepath.Join(dir, "metadata.json"), &all)
		if sub, ok := s.subset[repo]; ok {
			some := map[string]json.RawMessage{}
			for _, k := range sub {
				some[k] = all[k]
			}
			all = some
		}
		json.NewEncoder(w).Encode(all)
		return
	}
	key, tail, _ := strings.Cut(rest, "/")
	var meta struct {
		Version int `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, key, "METADATA"))
	if err != nil || json.Unmarshal(b, &meta) != nil {
		http.NotFound(w, r)
		return
	}
	latest, version := meta.Version, meta.Version
	if vs, file, ok := strings.Cut(tail, "/"); ok && strings.HasPrefix(vs, "v") {
		v, err := strconv.Atoi(vs[1:])
		if err != nil || v < 0 || v > latest {
			http.NotFound(w, r)
			return
		}
		version, tail = v, file
	}
	if tail == "" {
		tail = "METADATA"
	}
	// The newest version <= version that has the file.
	for v := version; v >= 0; v-- {
		folder := filepath.Join(dir, key)
		if v != latest {
			folder = filepath.Join(folder, "v"+strconv.Itoa(v))
		}
		b, err := os.ReadFile(filepath.Join(folder, tail))
		if err != nil {
			continue
		}
		if tail != "METADATA" {
			b = servedText(b)
		}
		w.Write(b)
		return
	}
	http.NotFound(w, r)
}

func readJSON(w http.ResponseWriter, path string, v any) {
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// servedText is what the Java server sent: every line read with readLine
// and written with "\n".
func servedText(b []byte) []byte {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s)
}

// testClient is a Client with small delays, for tests.
func testClient(t testing.TB, root string, opts ...gamerepo.ClientOption) *gamerepo.Client {
	t.Helper()
	opts = append([]gamerepo.ClientOption{gamerepo.WithBackoff(time.Millisecond, 4*time.Millisecond), gamerepo.WithTimeout(2 * time.Second), gamerepo.WithRetries(3)}, opts...)
	c, err := gamerepo.NewClient(root, opts...)
	require.NoError(t, err)
	return c
}

// testCache is a cache in a fresh temporary folder.
func testCache(t testing.TB) *gamerepo.Cache {
	t.Helper()
	c, err := gamerepo.OpenCache(filepath.Join(t.TempDir(), "cache"))
	require.NoError(t, err)
	gamerepo.SetNoSync(c)
	return c
}

// tree maps every file under root (slash paths) to its sha256.
func tree(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		h := sha256.Sum256(b)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(h[:])
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		require.NoError(t, err)
	}
	return out
}

func syncRepo(t testing.TB, c *gamerepo.Cache, repo string, src gamerepo.Source, opts ...gamerepo.SyncOption) *gamerepo.SyncSummary {
	t.Helper()
	sum, err := c.Sync(context.Background(), repo, src, opts...)
	require.NoError(t, err)
	return sum
}
