package report

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
)

// chromium is Debian's headless-capable browser; CI installs it.
const chromium = "/usr/bin/chromium"

// runChromium runs headless Chromium with a fresh profile and verbose
// logging on stderr, returning stdout and stderr.
func runChromium(t *testing.T, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=1"}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "chromium %s: %s", strings.Join(args, " "), lastLines(errb.String(), 20))
	return out.String(), errb.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

var (
	consoleRE = regexp.MustCompile(`:CONSOLE[^\]]*\] .*`)
	loadRE    = regexp.MustCompile(`FileURLLoader::Start: (\S+)`)
)

// checkBrowserLog fails on console messages (the pages have no script:
// any message is an error) and on any file loaded besides the page.
func checkBrowserLog(t *testing.T, stderr, page string) {
	t.Helper()
	for _, m := range consoleRE.FindAllString(stderr, -1) {
		t.Errorf("console message on %s: %s", page, m)
	}
	for _, m := range loadRE.FindAllStringSubmatch(stderr, -1) {
		assert.Equal(t, page, m[1], "the page loaded another file")
	}
	for _, bad := range []string{"ERR_FILE_NOT_FOUND", "ERR_ACCESS_DENIED", "Failed to load resource"} {
		assert.NotContains(t, stderr, bad)
	}
}

// The browser test: headless Chromium opens every kind of page of the
// fixture site (with its correctness verdicts) from file://: the index, an
// engine page (and one with mismatches), a game, a pair and a history page.
// It finds their tables and charts in the DOM: the index's lead sentences
// in the order of speed, agreeing with the verdicts, titles on the charts'
// points, readable names, the reference's column. No page loads anything
// else or logs a console error, and each screenshot shows the page's
// colours. Screenshots go to $GDLPERF_ARTIFACTS (CI keeps them).
func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("%s is missing (apt-get install chromium)", chromium)
	}
	if testing.Short() {
		t.Skip("slow: starts a browser")
	}
	dir := t.TempDir()
	require.NoError(t, renderFixture(t, WithVerdicts(rt.CheckRows())).Write(dir))
	// The site of workloads and transforms, with its uct charts.
	dims := t.TempDir()
	require.NoError(t, renderDimensions(t, WithGameInfo(builtinInfo)).Write(dims))
	pages := []struct {
		name    string
		dims    bool // a page of the site of workloads and transforms
		path    string
		height  int // of the window: the screenshot shows the charts
		wantDOM []string
		inOrder []string // substrings of the DOM that must come in this order
		colour  [3]uint8 // a colour the screenshot must show
		pixels  int      // at least this many pixels of it
	}{
		{"index", false, "index.html", 3200, []string{`<table class="matrix">`, `propnet@2-bbb`, `&lt;script&gt;alert("x")&lt;/script&gt;`, `<h2 id="correctness">`, `<td class="wrong"`,
			// the lead: one sentence per engine, agreeing with the verdicts
			`propnet@3-ccc</a> ran <strong class="good">5.110× faster than</strong>`,
			`(geometric mean of the speedup per game over 4 games, 95% interval [2.358, 11.07]; 4 games excluded)`,
			`propnet@2-bbb</a> was <strong class="">about as fast as</strong>`, `(no significant difference; geometric mean of the speedup per game over 1 game: 5.000×, too few games for an interval)`,
			// titles on the chart's points
			`<title>propnet@3-ccc on BASE/connectFour/WAIKTw: 3.000×`, `<title>propnet@2-bbb: geometric mean 4.679× over 6 games, 95% interval [3.361, 6.515]</title>`,
			// readable names and the reference's column
			`<span class="mute">BASE/</span>ticTacToe<span class="mute">/JRFsaQ</span>`, `prover@1-aaa</a> <span class="note">· reference</span>`, `<span class="ck ck-ref">ref</span>`,
			`cells: median state changes per second`},
			// ranking: propnet@3 (5.1×) before propnet@2 (4.7×) before the baseline before solo (no common game)
			[]string{`1-fingerprint_2_s`, `propnet@3-ccc</a> ran`, `propnet@2-bbb</a> ran`, `prover@1-aaa</a> is the baseline`, `solo@1</a> could not be compared`},
			[3]uint8{0x1a, 0x98, 0x50}, 200}, // the matrix's fastest cells
		{"engine", false, engineHref(propnet2), 2600, []string{`<svg class="chart"`, `<path`, `Against the baseline`, `<title>BASE/ticTacToe/JRFsaQ: 5.000×, 95% interval`}, nil,
			[3]uint8{0x44, 0x77, 0xaa}, 200}, // the dots of the rate chart (a log axis: its rates span 70×)
		{"engine-mismatch", false, engineHref(propnet3), 3000, []string{`<svg class="chart"`, `<h3>Mismatches</h3>`, `<details open="">`, `&lt;b&gt;more&lt;/b&gt;`}, nil,
			[3]uint8{0x44, 0x77, 0xaa}, 2000},
		{"game", false, gameHref(rt.TicTacToe), 1500, []string{`<svg class="chart"`, `<h3>Engines, fastest first</h3>`}, nil,
			[3]uint8{0x44, 0x77, 0xaa}, 1000},
		// the pair chart is the ratio per game (a dot each, titled), not a scatter of the rates
		{"pair", false, pairHref(versionPair{propnet3, propnet2}), 1400, []string{`<svg class="chart"`, `<title>BASE/connectFour/WAIKTw: 0.7500×, 95% interval [0.7379, 0.7623], significantly slower</title>`,
			`<title>BASE/breakthrough/TGxk-g: 1.000×, 95% interval [0.9874, 1.013], no significant difference</title>`}, nil,
			[3]uint8{0xcc, 0x33, 0x11}, 20}, // the dot of a significantly slower game
		{"history", false, historyHref("propnet"), 1400, []string{`<h1>History of propnet</h1>`, `<svg class="chart"`,
			`<title>propnet@3-ccc (first run 2026-01-11): 1.001× the speed of propnet@2-bbb, geometric mean over 5 games, 95% interval [0.7889, 1.270]</title>`},
			[]string{`propnet@2-bbb</a></td><td class="nw">2026-01-11`, `propnet@3-ccc</a></td><td class="nw">2026-01-11`},
			[3]uint8{0x66, 0x66, 0x66}, 20}, // the ring of a version not significantly different
		// the views of workloads and transforms
		{"index-workloads-transforms", true, "index.html", 2400, []string{`<nav class="workloads">Read per workload: <a href="#lead-machine-m1-fingerprint_2_s-`,
			`Robustness to rule transforms</h2>`, `<strong class="good">is robust</strong>`, `<strong class="bad">is not robust</strong>`},
			[]string{`>rollouts</a>`, `>uct</a>`, `>pns</a>`, `5.646× faster than`, `workload uct (iterations=200) runs</h2>`, `3.010× faster than`, `Robustness to rule transforms`},
			[3]uint8{0x22, 0x88, 0x33}, 50}, // the lead charts' significantly faster games
		{"engine-transforms", true, engineHref(prover1), 2000, []string{`Sensitivity to rule transforms`, `<svg class="chart" role="img" aria-label="rate of prover@1-aaa under each transform`,
			`<title>shuffle on BUILTIN/tictactoe/UxIcqg: 0.5000×, 95% interval [0.4926, 0.5075], significantly slower</title>`, `0.9× and 1.1× (within 10%: robust)`}, nil,
			[3]uint8{0xcc, 0x33, 0x11}, 20}, // the dots of the games slower under shuffle
		{"game-uct-transforms", true, gameHref(rt.BuiltinTicTacToe), 7000, []string{`<h3>Under each rule transform</h3>`, `<h3>Root moves by iterations</h3>`,
			`<title>xplayer (mark 3 3) after 10 iterations: mean 100.00 over 1 visits</title>`, `aria-label="mean value of each root move against uct iterations on BUILTIN/tictactoe/UxIcqg"`},
			[]string{`Under each rule transform`, `workload uct (iterations=200) runs</h2>`, `Root moves by iterations`},
			[3]uint8{0xee, 0x66, 0x77}, 50}, // a line of the uct chart
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			root := dir
			if p.dims {
				root = dims
			}
			url := "file://" + filepath.Join(root, filepath.FromSlash(p.path))
			dom, stderr := runChromium(t, "--dump-dom", url)
			for _, want := range p.wantDOM {
				assert.Contains(t, dom, want)
			}
			at := 0
			for _, want := range p.inOrder {
				i := strings.Index(dom[at:], want)
				if !assert.GreaterOrEqual(t, i, 0, "%q after offset %d", want, at) {
					break
				}
				at += i + len(want)
			}
			assert.NotContains(t, dom, "<script")
			checkBrowserLog(t, stderr, url)

			shot := filepath.Join(t.TempDir(), p.name+".png")
			_, stderr = runChromium(t, "--window-size=1280,"+strconv.Itoa(p.height), "--hide-scrollbars", "--screenshot="+shot, url)
			checkBrowserLog(t, stderr, url)
			b, err := os.ReadFile(shot)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Greater(t, countColour(img, p.colour[0], p.colour[1], p.colour[2]), p.pixels, "the screenshot shows the page's colours")
			if art := os.Getenv("GDLPERF_ARTIFACTS"); art != "" {
				require.NoError(t, os.MkdirAll(art, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(art, "report-"+p.name+".png"), b, 0o644))
			}
		})
	}
}

// countColour counts the pixels of img within a small distance of r, g, b.
func countColour(img image.Image, r, g, b uint8) int {
	n := 0
	bounds := img.Bounds()
	near := func(x uint32, want uint8) bool { d := int(x>>8) - int(want); return d > -8 && d < 8 }
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, r) && near(pg, g) && near(pb, b) {
				n++
			}
		}
	}
	return n
}
