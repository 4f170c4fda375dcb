package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./report/ -update")
	assert.Equal(t, string(want), string(got), "%s differs; run go test ./report/ -update and review the diff", path)
}

// fixture returns the fixed rows and the campaign of them.
func fixture(t testing.TB) ([]results.Row, *Analysis) {
	t.Helper()
	rows := reporttest.Rows()
	return rows, Analyse(rows)
}

func machine(t testing.TB, c *Analysis, id string) *Group {
	t.Helper()
	for _, m := range c.Groups {
		if m.Machine == id {
			return m
		}
	}
	t.Fatalf("no machine %s", id)
	return nil
}

var (
	prover1  = Version{"prover", "1-aaa"}
	propnet2 = Version{"propnet", "2-bbb"}
	propnet3 = Version{"propnet", "3-ccc"}
	solo1    = Version{"solo", "1"}
)
