package cli

import (
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

func TestNewCmdReportOptions(t *testing.T) {
	var got *ReportOptions
	cmd := NewCmdReport(&IO{}, func(o *ReportOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--results", "r", "-o", "site", "--baseline", "propnet@2"})
	require.NoError(t, cmd.Execute())
	got.IO = nil
	assert.Equal(t, ReportOptions{Results: "r", Out: "site", Baseline: "propnet@2", Title: "gdlperf results", Blacklist: "blacklist.txt", UCTIterations: 2000, UCTSeconds: 60}, *got)
}

// The game pages of a campaign with a uct workload have the uct chart,
// replayed on the built-in game's rules; --uct-chart-iterations 0 leaves
// it out.
func TestReportUCTChart(t *testing.T) {
	dir := writeRows(t, reporttest.DimensionRows())
	for _, tt := range []struct {
		name  string
		args  []string
		chart bool
	}{
		{"default", nil, true},
		{"off", []string{"--uct-chart-iterations", "0"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			code, _, stderr := run(t, append([]string{"report", "--results", dir, "--out", out, "--blacklist", filepath.Join(dir, "none.txt")}, tt.args...)...)
			require.Equal(t, ExitOK, code, stderr)
			games, err := filepath.Glob(filepath.Join(out, "game", "BUILTIN_tictactoe_*.html"))
			require.NoError(t, err)
			require.Len(t, games, 1)
			page, err := os.ReadFile(games[0])
			require.NoError(t, err)
			if tt.chart {
				assert.Contains(t, string(page), `aria-label="mean value of each root move against uct iterations on BUILTIN/tictactoe/UxIcqg"`)
				assert.Contains(t, string(page), "at 10, 20, 50, 100, 200 iterations")
			} else {
				assert.NotContains(t, string(page), "Root moves by iterations")
			}
		})
	}
}

func TestReportWritesSite(t *testing.T) {
	rows := reporttest.Rows()
	dir := writeRows(t, rows)
	out := filepath.Join(t.TempDir(), "site")
	bl := filepath.Join(t.TempDir(), "blacklist.txt")
	require.NoError(t, os.WriteFile(bl, []byte(reporttest.Hex+";too <slow>\n"), 0o644))
	code, stdout, stderr := run(t, "report", "--results", dir, "--out", out, "--blacklist", bl, "--cache", t.TempDir())
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, filepath.Join(out, "index.html")+"\n", stdout)
	assert.Regexp(t, `wrote 21 pages \(0\.\d MB\) from 148 rows and 0 correctness rows to `, stderr)
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `<table class="matrix">`)
	assert.Contains(t, string(index), `<ol class="lead">`, "the index leads with the answer")
	histories, err := os.ReadDir(filepath.Join(out, "history"))
	require.NoError(t, err)
	assert.Len(t, histories, 3, "a history page per engine: propnet, prover, solo")
	entries, err := os.ReadDir(filepath.Join(out, "game"))
	require.NoError(t, err)
	assert.Len(t, entries, 9)
	var hex []byte
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "BASE_hex_") {
			hex, _ = os.ReadFile(filepath.Join(out, "game", e.Name()))
		}
	}
	assert.Contains(t, string(hex), `<dd class="bad">too &lt;slow&gt;</dd>`, "the blacklist's reason")

	// A file works as well as a folder, and the same rows give the same pages.
	out2 := filepath.Join(t.TempDir(), "site")
	code, _, stderr = run(t, "report", "--results", filepath.Join(dir, "rows.csv"), "--out", out2, "--blacklist", bl)
	require.Equal(t, ExitOK, code, stderr)
	index2, err := os.ReadFile(filepath.Join(out2, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, string(index), string(index2))
}

// Built-in games get their roles and validator findings on their page.
func TestReportBuiltinGameInfo(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := run(t, "run", "--games", "builtin:tictactoe", "--seconds", "1", "--results", dir)
	require.Equal(t, 0, code, stderr)
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr = run(t, "report", "--results", dir, "--out", out, "--blacklist", filepath.Join(dir, "none.txt"))
	require.Equal(t, ExitOK, code, stderr)
	assert.NotContains(t, stderr, "warning:")
	games, err := filepath.Glob(filepath.Join(out, "game", "BUILTIN_tictactoe_*.html"))
	require.NoError(t, err)
	require.Len(t, games, 1)
	page, err := os.ReadFile(games[0])
	require.NoError(t, err)
	assert.Contains(t, string(page), "built in: builtin/tictactoe.kif")
	assert.Contains(t, string(page), "<dt>roles</dt>")
}

func TestReportErrors(t *testing.T) {
	empty := t.TempDir()
	code, _, stderr := run(t, "report", "--results", filepath.Join(empty, "missing"), "--out", t.TempDir())
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "reading results")

	code, _, stderr = run(t, "report", "--results", empty, "--out", t.TempDir())
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "no result rows in "+empty+"; gdlperf run writes them")

	code, _, _ = run(t, "report", "extra")
	assert.Equal(t, ExitUsage, code)
}

// The correctness rows of the results folder reach the pages: the matrix
// marks, the mismatches on the engine page, the count in the summary line.
func TestReportReadsVerdicts(t *testing.T) {
	dir := writeRows(t, reporttest.Rows())
	checks := reporttest.CheckRows()
	require.NoError(t, results.AppendCheckRows(filepath.Join(dir, results.CheckDir, "host-m1.csv"), checks))
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := run(t, "report", "--results", dir, "--out", out, "--blacklist", filepath.Join(dir, "none.txt"), "--cache", t.TempDir())
	require.Equal(t, ExitOK, code, stderr)
	assert.Regexp(t, `wrote 22 pages \(0\.\d MB\) from 148 rows and `+strconv.Itoa(len(checks))+` correctness rows to `, stderr, "one more page: the version that was only checked")
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `<h2 id="correctness">Correctness</h2>`)
	assert.Contains(t, string(index), `<span class="ck ck-bad">✗</span>`)
	engines, err := filepath.Glob(filepath.Join(out, "engine", "propnet_3-ccc-*.html"))
	require.NoError(t, err)
	require.Len(t, engines, 1)
	page, err := os.ReadFile(engines[0])
	require.NoError(t, err)
	assert.Contains(t, string(page), html.EscapeString(reporttest.MismatchDetail))
	assert.Contains(t, string(page), "<span>--rollouts</span> <span>4</span>")

	// A results file has no check folder: no verdicts, and the pages say so.
	out2 := filepath.Join(t.TempDir(), "site")
	code, _, stderr = run(t, "report", "--results", filepath.Join(dir, "rows.csv"), "--out", out2, "--blacklist", filepath.Join(dir, "none.txt"))
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "from 148 rows and 0 correctness rows")
	index2, err := os.ReadFile(filepath.Join(out2, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index2), "No correctness verdicts were given")

	// An unreadable check file is an error, not silently no verdicts.
	require.NoError(t, os.WriteFile(filepath.Join(dir, results.CheckDir, "bad.csv"), []byte("check_key,game_key\na,b,c,d\n"), 0o644))
	code, _, stderr = run(t, "report", "--results", dir, "--out", out, "--blacklist", filepath.Join(dir, "none.txt"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "reading correctness rows")
}
