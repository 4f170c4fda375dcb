package gamerepo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// Mirror reads a repository from a folder in the layout of the ggp.org
// API, acting as the server would. It knows two layouts of a game folder:
//
//   - the served layout of ../shared/gamerepo-mirror: <key>/ holds the
//     latest version L (its METADATA says "version": L) and <key>/v<N>/
//     the older versions N < L;
//   - the layout of a checkout of ggp-org/ggp-repository (war/root/games):
//     <key>/ holds version 0 and <key>/v<N>/ the files changed in version
//     N; the latest version is the highest N.
//
// A game folder whose highest v<N> is at least the version its METADATA
// states is read in the second layout. In both, a file of version N falls
// back to the newest lower version that has it, text files are served with
// LF line ends and a final LF, and METADATA gets the version asked for
// (and, in the second layout, the role names, as the server added them).
// games.json and metadata.json, when present, are the key list and the
// bundle; otherwise the key list is the folders that hold a METADATA.
type Mirror struct {
	dir string
}

var _ Source = (*Mirror)(nil)

// NewMirror returns a Mirror of the repository folder dir.
func NewMirror(dir string) (*Mirror, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("mirror: %s is not a folder", dir)
	}
	return &Mirror{dir: dir}, nil
}

// MirrorDir returns the folder of repo in a mirror named dir: dir/<repo>
// when it exists (dir holds several repositories, as
// ../shared/gamerepo-mirror), else dir itself when it is a repository
// folder named repo, else dir itself when single is set (the user named
// one repository and its folder). ok is false when none applies.
func MirrorDir(dir, repo string, single bool) (string, bool) {
	sub := filepath.Join(dir, repo)
	if fi, err := os.Stat(sub); err == nil && fi.IsDir() {
		return sub, true
	}
	if strings.EqualFold(filepath.Base(filepath.Clean(dir)), repo) || single {
		if IsRepoDir(dir) {
			return dir, true
		}
	}
	return "", false
}

// IsRepoDir reports whether dir looks like one repository's folder: it has
// games.json or a game folder with a METADATA.
func IsRepoDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "games.json")); err == nil {
		return true
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), metadataFile)); err == nil {
				return true
			}
		}
	}
	return false
}

func (m *Mirror) String() string { return "mirror " + m.dir }

func notFound(what string) error { return fmt.Errorf("%s: %w", what, ErrNotFound) }

// Keys implements Source.
func (m *Mirror) Keys(ctx context.Context) ([]string, error) {
	b, err := readLimited(filepath.Join(m.dir, "games.json"), MaxListBytes)
	if err == nil {
		var keys []string
		if err := json.Unmarshal(b, &keys); err != nil {
			return nil, fmt.Errorf("%s: the key list is not a JSON array of strings: %w", filepath.Join(m.dir, "games.json"), err)
		}
		return keys, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	ents, err := os.ReadDir(m.dir)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(m.dir, e.Name(), metadataFile)); err == nil {
				keys = append(keys, e.Name())
			}
		}
	}
	return keys, nil
}

// Bundle implements Source.
func (m *Mirror) Bundle(ctx context.Context) (map[string][]byte, error) {
	p := filepath.Join(m.dir, "metadata.json")
	b, err := readLimited(p, MaxListBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(p)
	}
	if err != nil {
		return nil, err
	}
	return parseBundle(p, b)
}

// gameLayout is how a game folder maps versions to folders.
type gameLayout struct {
	dir      string // the game folder
	latest   int
	upstream bool // <key>/ is version 0 (ggp-repository checkout)
}

func (m *Mirror) layout(key string) (gameLayout, error) {
	if err := CheckKey(key); err != nil {
		return gameLayout{}, err
	}
	dir := filepath.Join(m.dir, key)
	b, err := readLimited(filepath.Join(dir, metadataFile), MaxMetadataBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return gameLayout{}, notFound("game " + key)
	}
	if err != nil {
		return gameLayout{}, err
	}
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return gameLayout{}, fmt.Errorf("%s: malformed JSON: %w", filepath.Join(dir, metadataFile), err)
	}
	maxV := -1
	ents, err := os.ReadDir(dir)
	if err != nil {
		return gameLayout{}, err
	}
	for _, e := range ents {
		if n, ok := versionDir(e.Name()); ok && e.IsDir() && n > maxV {
			maxV = n
		}
	}
	if maxV >= 1 && maxV >= v.Version {
		return gameLayout{dir: dir, latest: maxV, upstream: true}, nil
	}
	return gameLayout{dir: dir, latest: v.Version}, nil
}

// versionDir parses "v<N>".
func versionDir(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "v")
	if !ok || s == "" || len(s) > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// versionFolder is the folder of the files changed in version n.
func (l gameLayout) versionFolder(n int) string {
	if l.upstream && n == 0 || !l.upstream && n == l.latest {
		return l.dir
	}
	return filepath.Join(l.dir, "v"+strconv.Itoa(n))
}

// find returns the file name of version n, falling back to the newest
// lower version that has it.
func (l gameLayout) find(n int, name string, limit int64) ([]byte, error) {
	for v := n; v >= 0; v-- {
		b, err := readLimited(filepath.Join(l.versionFolder(v), name), limit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return b, err
	}
	return nil, notFound(fmt.Sprintf("%s (version %d)", filepath.Join(l.dir, name), n))
}

// Metadata implements Source.
func (m *Mirror) Metadata(ctx context.Context, key string, version int) ([]byte, error) {
	l, err := m.layout(key)
	if err != nil {
		return nil, err
	}
	if version == Latest {
		version = l.latest
	}
	if version < 0 || version > l.latest {
		return nil, notFound(fmt.Sprintf("game %s version %d (the latest is %d)", key, version, l.latest))
	}
	b, err := l.find(version, metadataFile, MaxMetadataBytes)
	if err != nil {
		return nil, err
	}
	return m.complete(l, b, version)
}

// complete gives a METADATA the fields the server added: the version asked
// for and, for the upstream layout, roleNames and numRoles.
func (m *Mirror) complete(l gameLayout, b []byte, version int) ([]byte, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("%s: malformed METADATA: %w", l.dir, err)
	}
	var have int
	if v, ok := obj["version"]; ok && json.Unmarshal(v, &have) == nil && have == version && !l.upstream {
		return b, nil
	}
	obj["version"] = json.RawMessage(strconv.Itoa(version))
	if l.upstream {
		var rs string
		if err := json.Unmarshal(obj["rulesheet"], &rs); err == nil && checkFileName(rs) == nil {
			if rules, err := l.find(version, rs, MaxRulesheetBytes); err == nil {
				roles := roleNames(rs, rules)
				rb, _ := json.Marshal(roles)
				obj["roleNames"] = rb
				obj["numRoles"] = json.RawMessage(strconv.Itoa(len(roles)))
			}
		}
	}
	return json.Marshal(obj)
}

// roleNames returns the roles of a rulesheet in the order of its role
// facts, or nil when it cannot be read.
func roleNames(file string, rules []byte) []string {
	g, err := gdl.Check(file, rules, gdl.DefaultLimits)
	if err != nil {
		return []string{}
	}
	out := make([]string, 0, len(g.Roles))
	for _, r := range g.Roles {
		out = append(out, r.String())
	}
	return out
}

// File implements Source.
func (m *Mirror) File(ctx context.Context, key string, version int, name string, limit int64) ([]byte, error) {
	if err := checkFileName(name); err != nil {
		return nil, err
	}
	l, err := m.layout(key)
	if err != nil {
		return nil, err
	}
	if version == Latest {
		version = l.latest
	}
	if version < 0 || version > l.latest {
		return nil, notFound(fmt.Sprintf("game %s version %d (the latest is %d)", key, version, l.latest))
	}
	b, err := l.find(version, name, limit)
	if err != nil {
		return nil, err
	}
	return ServedForm(b), nil
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: over the limit of %d bytes", path, limit)
	}
	return b, nil
}
