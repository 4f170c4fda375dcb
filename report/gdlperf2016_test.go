package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// results2016 is gdl-perf's published campaign of March 2016 (../shared).
const results2016 = "../../shared/reference/gdlperf-results-2016"

func load2016(t testing.TB) []results.Row {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(results2016, "*", "*.csv"))
	if len(files) == 0 {
		t.Skipf("%s is missing", results2016)
	}
	var rows []results.Row
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		r, errs := results.ImportGdlPerf(fh, "")
		fh.Close()
		require.Empty(t, errs, f)
		rows = append(rows, r...)
	}
	return rows
}

// The 2016 results render into a full site; Sancho's median speedup over
// GGP-Base's prover is the published 383.6, and no engine's geometric mean
// is 0, although six engines made 0 state changes on some game (which
// made gdl-perf print 0.0).
func TestGdlPerf2016(t *testing.T) {
	rows := load2016(t)
	c := Analyse(rows)
	require.Len(t, c.Groups, 1)
	m := c.Groups[0]
	require.Len(t, m.Versions, 15)
	prover := c.VersionsOf("GGP_BASE_PROVER")
	sancho := c.VersionsOf("SANCHO_DEAD_RECKONING_PROPNET")
	require.Len(t, prover, 1)
	require.Len(t, sancho, 1)

	s := ComparePair(m, sancho[0], prover[0]).Summary
	assert.InDelta(t, 383.6, s.Median, 0.05)
	assert.Equal(t, "383.6", FormatRatio(s.Median))
	t.Logf("Sancho vs GGP-Base prover: median %.4f, geometric mean %.4f over %d games, %d excluded", s.Median, s.GeoMean, s.Compared, s.ExcludedGames)

	zeroEngines := 0
	for _, v := range m.Versions {
		if v == prover[0] {
			continue
		}
		s := ComparePair(m, v, prover[0]).Summary
		assert.True(t, s.GeoMean > 0 && !math.IsInf(s.GeoMean, 0), "%s: geometric mean %v", v, s.GeoMean)
		assert.NotEqual(t, "0", FormatRatio(s.GeoMean), v.String())
		for _, e := range s.Excluded {
			if e.Outcome == ZeroA {
				zeroEngines++
				assert.Contains(t, e.Reason, "made 0 state changes")
			}
		}
	}
	assert.Equal(t, 6, zeroEngines, "engines with an ok run of 0 state changes, excluded and counted")

	site, err := Render(rows, WithBaseline("GGP_BASE_PROVER"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, site.Write(dir))
	var engines, games, pairs int
	for _, p := range site.Pages {
		switch {
		case strings.HasPrefix(p.Path, "engine/"):
			engines++
		case strings.HasPrefix(p.Path, "game/"):
			games++
		case strings.HasPrefix(p.Path, "pair/"):
			pairs++
		}
	}
	assert.Equal(t, 15, engines)
	assert.Equal(t, len(m.Games), games)
	assert.Equal(t, 15*14/2, pairs)
	index := string(site.Page("index.html"))
	assert.Contains(t, index, `SANCHO_DEAD_RECKONING_PROPNET@1.61c</a></td><td class="n good">383.6×</td>`)
	assert.NotContains(t, index, ">0×<")
	assert.NotContains(t, index, ">0.0×<")
	t.Logf("%d pages, %d bytes", len(site.Pages), site.Bytes())
}
