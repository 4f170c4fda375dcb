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

// The browser test: headless Chromium opens the index and an engine page
// of the fixture site (with its correctness verdicts) from file://, finds the matrix and a chart in the
// DOM, loads nothing else and logs no console error, and a screenshot
// shows the chart's bars. Screenshots go to $GDLPERF_ARTIFACTS too.
func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("%s is missing (apt-get install chromium)", chromium)
	}
	if testing.Short() {
		t.Skip("slow: starts a browser")
	}
	dir := t.TempDir()
	require.NoError(t, renderFixture(t, WithVerdicts(rt.CheckRows())).Write(dir))
	pages := []struct {
		name    string
		path    string
		height  int // of the window: the screenshot shows the charts
		wantDOM []string
	}{
		{"index", "index.html", 1600, []string{`<table class="matrix">`, `propnet@2-bbb`, `&lt;script&gt;alert("x")&lt;/script&gt;`, `<h2 id="correctness">`, `<td class="wrong"`}},
		{"engine", engineHref(propnet2), 1600, []string{`<svg class="chart"`, `<path`, `Against the baseline`}},
		{"engine-mismatch", engineHref(propnet3), 2400, []string{`<svg class="chart"`, `<h3>Mismatches</h3>`, `<details open="">`, `&lt;b&gt;more&lt;/b&gt;`}},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			url := "file://" + filepath.Join(dir, filepath.FromSlash(p.path))
			dom, stderr := runChromium(t, "--dump-dom", url)
			for _, want := range p.wantDOM {
				assert.Contains(t, dom, want)
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
			if strings.HasPrefix(p.name, "engine") {
				assert.Greater(t, countColour(img, 0x44, 0x77, 0xaa), 2000, "the bars of the charts are drawn")
			} else {
				assert.Greater(t, countColour(img, 0x1a, 0x98, 0x50), 200, "the matrix's fastest cells are coloured")
			}
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
