package enginetest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Mirrored is one rulesheet of ../shared/gamerepo-mirror/index.tsv.
type Mirrored struct {
	Repo, Key, Version string
	Path               string // the file, absolute
	ID                 string // the gdl-perf hash
}

// Name is REPO/key vN.
func (m Mirrored) Name() string { return strings.ToUpper(m.Repo) + "/" + m.Key + " v" + m.Version }

// MirroredGames lists every rulesheet of the mirror (all versions), in the
// index's order; the test is skipped when ../shared is not there.
func MirroredGames(t testing.TB) []Mirrored {
	shared := SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	mirror := filepath.Join(shared, "gamerepo-mirror")
	f, err := os.Open(filepath.Join(mirror, "index.tsv"))
	if err != nil {
		t.Skipf("mirror index: %v", err)
	}
	defer f.Close()
	var out []Mirrored
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first || len(c) < 9 {
			continue
		}
		out = append(out, Mirrored{Repo: c[0], Key: c[1], Version: c[2], Path: filepath.Join(mirror, c[6]), ID: c[8]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
