package gamerepo

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
)

// The cache holds what sync fetched, so that everything else works offline:
//
//	<root>/repos/<repo>/index.json                     key list and latest versions (rewritten by sync)
//	<root>/repos/<repo>/games/<key>/v<N>/METADATA      as served
//	<root>/repos/<repo>/games/<key>/v<N>/<rulesheet>   as served (the file METADATA names)
//	<root>/repos/<repo>/games/<key>/v<N>/sha256        "<hex>  <file>" for both; written last
//
// A version folder counts only once its sha256 file exists, and every file
// is written to a temporary file in the same folder and renamed, so a crash
// or a bad response never leaves a half-written game that looks complete.
// A (repo, key, version) is never rewritten once complete, unless a file no
// longer matches its sha256 (a corrupted cache), which is reported on read
// and fetched again by the next sync.

// EnvCache names the environment variable that overrides the cache folder.
const EnvCache = engines.EnvCache

// ErrCorrupt is wrapped by the errors of a cached file that does not match
// its recorded sha256.
var ErrCorrupt = errors.New("corrupted cache file")

// DefaultCacheDir returns $GDLPERF_CACHE, else os.UserCacheDir()/gdlperf
// (engines.CacheDir: the compiled engine keeps its programs there too).
func DefaultCacheDir() (string, error) {
	d, err := engines.CacheDir()
	if err != nil {
		return "", fmt.Errorf("%w or use --cache", err)
	}
	return d, nil
}

// Cache is the disk cache of the synced repositories. It is created on the
// first write; reading a cache that does not exist finds no games.
type Cache struct {
	root string
	// nosync skips fsync (tests only).
	nosync bool
}

// OpenCache returns the cache rooted at dir, or at DefaultCacheDir when dir
// is empty.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &Cache{root: abs}, nil
}

// Root returns the cache's folder.
func (c *Cache) Root() string { return c.root }

func (c *Cache) repoDir(repo string) string { return filepath.Join(c.root, "repos", repo) }

func (c *Cache) gameDir(repo, key string) string {
	return filepath.Join(c.repoDir(repo), "games", key)
}

func (c *Cache) versionDir(repo, key string, v int) string {
	return filepath.Join(c.gameDir(repo, key), "v"+strconv.Itoa(v))
}

// RepoIndex is a repository's key list as of the last sync.
type RepoIndex struct {
	Repo   string       `json:"repo"`
	Source string       `json:"source,omitempty"`
	Games  []IndexEntry `json:"games"`
}

// IndexEntry is one key of a RepoIndex.
type IndexEntry struct {
	Key    string `json:"key"`
	Latest int    `json:"latest"` // -1 when the last sync could not learn it
}

// Repos returns the repositories in the cache, sorted.
func (c *Cache) Repos() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(c.root, "repos"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if r, err := RepoName(e.Name()); err == nil && r == e.Name() && e.IsDir() {
			out = append(out, r)
		}
	}
	return out, nil
}

// Index returns the index of repo. Without an index.json (a sync that
// never finished) it is built from the complete versions in the cache.
// ok is false when the cache has nothing of repo.
func (c *Cache) Index(repo string) (idx RepoIndex, ok bool, err error) {
	b, err := readLimited(filepath.Join(c.repoDir(repo), "index.json"), MaxListBytes)
	if err == nil {
		if err := json.Unmarshal(b, &idx); err == nil {
			return idx, true, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return idx, false, err
	}
	idx = RepoIndex{Repo: repo}
	keys, err := c.Keys(repo)
	if err != nil {
		return idx, false, err
	}
	for _, k := range keys {
		vs, _ := c.Versions(repo, k)
		if len(vs) > 0 {
			idx.Games = append(idx.Games, IndexEntry{Key: k, Latest: vs[len(vs)-1]})
		}
	}
	return idx, len(idx.Games) > 0, nil
}

func (c *Cache) writeIndex(idx RepoIndex) error {
	dir := c.repoDir(idx.Repo)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(idx, "", " ")
	if err != nil {
		return err
	}
	return c.writeAtomic(dir, "index.json", append(b, '\n'))
}

// Keys returns the keys of repo that have a folder in the cache, sorted.
func (c *Cache) Keys(repo string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(c.repoDir(repo), "games"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && CheckKey(e.Name()) == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// Versions returns the versions of a game whose folder is complete (has
// its sha256 file), ascending. They are verified only by Load.
func (c *Cache) Versions(repo, key string) ([]int, error) {
	if CheckKey(key) != nil {
		return nil, nil
	}
	ents, err := os.ReadDir(c.gameDir(repo, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		n, ok := versionDir(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.gameDir(repo, key), e.Name(), markerFile)); err == nil {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out, nil
}

// Load reads a cached version and checks its files against their sha256.
// It wraps fs.ErrNotExist when the version is not (completely) cached and
// ErrCorrupt when a file was changed.
func (c *Cache) Load(repo, key string, v int) (Game, error) {
	if err := CheckKey(key); err != nil {
		return Game{}, err
	}
	name := strings.ToUpper(repo) + "/" + key + " v" + strconv.Itoa(v)
	dir := c.versionDir(repo, key, v)
	marker, err := readLimited(filepath.Join(dir, markerFile), 4096)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Game{}, fmt.Errorf("%s is not in the cache %s: %w; run gdlperf games sync --repo %s", name, c.root, fs.ErrNotExist, repo)
		}
		return Game{}, fmt.Errorf("cache: %s: %w", name, err)
	}
	sums, err := parseMarker(marker)
	if err != nil {
		return Game{}, fmt.Errorf("cache: %s: %s: %w (%v); gdlperf games sync fetches it again", name, filepath.Join(dir, markerFile), ErrCorrupt, err)
	}
	meta, err := c.readVerified(dir, sums[0], MaxMetadataBytes)
	if err != nil {
		return Game{}, fmt.Errorf("cache: %s: %w", name, err)
	}
	rules, err := c.readVerified(dir, sums[1], MaxRulesheetBytes)
	if err != nil {
		return Game{}, fmt.Errorf("cache: %s: %w", name, err)
	}
	md, err := ParseMetadata(meta)
	if err != nil {
		return Game{}, fmt.Errorf("cache: %s: %w", name, err)
	}
	if md.Rulesheet != sums[1].name {
		return Game{}, fmt.Errorf("cache: %s: METADATA names %s but the cache holds %s: %w", name, md.Rulesheet, sums[1].name, ErrCorrupt)
	}
	path := filepath.Join(dir, md.Rulesheet)
	return Game{
		Key:     GameKey(repo, key, rules),
		Repo:    strings.ToUpper(repo),
		Name:    key,
		Version: v,
		Title:   md.GameName,
		Roles:   md.RoleNames,
		File:    path,
		Path:    path,
		Rules:   rules,
		SHA256:  sums[1].hex,
		Meta:    md,
	}, nil
}

type fileSum struct{ hex, name string }

// parseMarker reads the sha256 file: METADATA's line, then the rulesheet's.
func parseMarker(b []byte) ([2]fileSum, error) {
	var out [2]fileSum
	sc := bufio.NewScanner(bytes.NewReader(b))
	i := 0
	for sc.Scan() {
		h, n, ok := strings.Cut(sc.Text(), "  ")
		if !ok || i == 2 || len(h) != 64 {
			return out, fmt.Errorf("want two lines \"<sha256>  <file>\"")
		}
		if _, err := hex.DecodeString(h); err != nil {
			return out, fmt.Errorf("bad sha256 %q", h)
		}
		out[i] = fileSum{hex: h, name: n}
		i++
	}
	if i != 2 || out[0].name != metadataFile || checkFileName(out[1].name) != nil {
		return out, fmt.Errorf("want the lines of METADATA and of the rulesheet")
	}
	return out, nil
}

func (c *Cache) readVerified(dir string, s fileSum, limit int64) ([]byte, error) {
	p := filepath.Join(dir, s.name)
	b, err := readLimited(p, limit)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s is missing: %w; gdlperf games sync fetches it again", p, ErrCorrupt)
		}
		return nil, err
	}
	if sum := sha256Hex(b); sum != s.hex {
		return nil, fmt.Errorf("%s does not match its sha256: %w; gdlperf games sync fetches it again", p, ErrCorrupt)
	}
	return b, nil
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// put stores a version: METADATA and the rulesheet first, then the sha256
// file that makes it complete. Other files of the folder (left by a crash
// or an older bad copy) are removed before the sha256 file is written.
// When link names a cached file with the same content as rules, the
// rulesheet is a hard link to it (linked is true), so that versions with
// the same rulesheet share one copy; where links fail, it is a copy.
func (c *Cache) put(repo, key string, v int, meta []byte, name string, rules []byte, link string) (linked bool, err error) {
	if err := CheckKey(key); err != nil {
		return false, err
	}
	if err := checkFileName(name); err != nil {
		return false, err
	}
	dir := c.versionDir(repo, key, v)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("cache: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, markerFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("cache: %w", err)
	}
	if err := c.writeAtomic(dir, metadataFile, meta); err != nil {
		return false, err
	}
	if link != "" {
		linked = linkAtomic(link, dir, name, rules)
	}
	if !linked {
		if err := c.writeAtomic(dir, name, rules); err != nil {
			return false, err
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("cache: %w", err)
	}
	for _, e := range ents {
		if n := e.Name(); n != metadataFile && n != name {
			if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
				return false, fmt.Errorf("cache: %w", err)
			}
		}
	}
	marker := fmt.Sprintf("%s  %s\n%s  %s\n", sha256Hex(meta), metadataFile, sha256Hex(rules), name)
	if err := c.writeAtomic(dir, markerFile, []byte(marker)); err != nil {
		return false, err
	}
	return linked, nil
}

// linkAtomic makes dir/name a hard link to src if src holds want, through
// a temporary name and a rename. It reports whether it did.
func linkAtomic(src, dir, name string, want []byte) bool {
	if b, err := readLimited(src, int64(len(want))+1); err != nil || !bytes.Equal(b, want) {
		return false
	}
	tmp := filepath.Join(dir, ".tmp-link-"+name)
	os.Remove(tmp)
	if err := os.Link(src, tmp); err != nil {
		return false
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return false
	}
	return true
}

// writeAtomic writes dir/name through a temporary file in dir, synced and
// renamed, so the name holds either the old or the whole new content.
func (c *Cache) writeAtomic(dir, name string, data []byte) error {
	return writeFileAtomic(dir, name, data, !c.nosync)
}

func writeFileAtomic(dir, name string, data []byte, durable bool) (err error) {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if durable {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	if durable {
		if d, err := os.Open(dir); err == nil {
			d.Sync() // best effort: makes the rename durable on Linux
			d.Close()
		}
	}
	return nil
}

// Listed is a game of a repository's index, or a cached version of it,
// with the error that keeps it from being read (not fetched, corrupted).
type Listed struct {
	Repo    string // lower case, e.g. base
	Name    string // the key in the repository
	Version int    // -1 when no version is known
	Game    Game   // when Err is nil
	Err     error
}

// List returns the games of repo's index (and games no longer listed that
// are still cached), sorted by key: the latest version of each, or every
// cached version with allVersions. A game that cannot be read is listed
// with its error.
func (c *Cache) List(repo string, allVersions bool) ([]Listed, error) {
	idx, _, err := c.Index(repo)
	if err != nil {
		return nil, err
	}
	latest := map[string]int{}
	for _, e := range idx.Games {
		latest[e.Key] = e.Latest
	}
	cached, err := c.Keys(repo)
	if err != nil {
		return nil, err
	}
	for _, k := range cached {
		if _, ok := latest[k]; !ok {
			latest[k] = -1
		}
	}
	keys := make([]string, 0, len(latest))
	for k := range latest {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Listed
	for _, k := range keys {
		vs, err := c.Versions(repo, k)
		if err != nil {
			return nil, err
		}
		want := vs
		if !allVersions {
			switch v := latest[k]; {
			case v >= 0:
				want = []int{v}
			case len(vs) > 0:
				want = vs[len(vs)-1:]
			}
		}
		if len(want) == 0 {
			out = append(out, Listed{Repo: repo, Name: k, Version: latest[k], Err: fmt.Errorf("%s/%s is not in the cache; run gdlperf games sync --repo %s", strings.ToUpper(repo), k, repo)})
			continue
		}
		for _, v := range want {
			g, err := c.Load(repo, k, v)
			out = append(out, Listed{Repo: repo, Name: k, Version: v, Game: g, Err: err})
		}
	}
	return out, nil
}
