package report

import (
	"html"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rt "github.com/gdlperf/gdlperf/report/reporttest"
	"github.com/gdlperf/gdlperf/results"
)

func renderFixture(t *testing.T, opts ...Option) *Site {
	t.Helper()
	s, err := Render(rt.Rows(), opts...)
	require.NoError(t, err)
	return s
}

// The pages of the fixed rows, byte for byte: failures, zeros, one
// repetition, HTML metacharacters in a game key and in error messages, a
// game run by one engine only, two machines; and correctness verdicts: ok,
// mismatches (one with metacharacters in what differed and in the move
// history), a check that failed to run, an unchecked external engine, a
// version that was only checked.
func TestPagesGolden(t *testing.T) {
	info := func(game string) (GameInfo, bool) {
		if game != rt.Script {
			return GameInfo{}, false
		}
		return GameInfo{Title: `Tic "<Tac>" & Toe`, Roles: []string{"x<player>", "oplayer"}, RulesFile: "/games/<script>.kif",
			Findings: []string{`script.kif:3:1: warning: rule (<= (legal ?r <noop>)) [unsafe&]`}, Blacklisted: "<b>too slow</b>"}, true
	}
	s := renderFixture(t, WithGameInfo(info), WithSources([]string{"results/<host>.csv"}), WithVerdicts(rt.CheckRows()))
	var paths []string
	for _, p := range s.Pages {
		paths = append(paths, p.Path)
	}
	golden(t, "pages.golden", []byte(strings.Join(paths, "\n")+"\n"))
	for _, p := range []struct{ golden, path string }{
		{"index.html.golden", "index.html"},
		{"engine.html.golden", engineHref(propnet2)},
		{"engine-mismatch.html.golden", engineHref(propnet3)},
		{"game.html.golden", gameHref(rt.Script)},
		{"pair.html.golden", pairHref(versionPair{propnet2, prover1})},
	} {
		t.Run(p.golden, func(t *testing.T) {
			body := s.Page(p.path)
			require.NotNil(t, body, p.path)
			golden(t, p.golden, body)
		})
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	rows := rt.Rows()
	a, err := Render(rows)
	require.NoError(t, err)
	shuffled := slices.Clone(rows)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b, err := Render(shuffled)
	require.NoError(t, err)
	require.Equal(t, len(a.Pages), len(b.Pages))
	for i := range a.Pages {
		assert.Equal(t, a.Pages[i].Path, b.Pages[i].Path)
		assert.Equal(t, string(a.Pages[i].Body), string(b.Pages[i].Body), a.Pages[i].Path)
	}
}

// Every string from a game, an engine or an error is escaped: the fixture's
// game key and error message hold <script> and other markup.
func TestPagesEscapeEverything(t *testing.T) {
	rows := rt.Rows()
	rows[0].Engine = `eng<i>ne`
	rows[0].EngineVersion = `1"><script>`
	rows[1].Machine = `<img src=x onerror=alert(1)>`
	s, err := Render(rows)
	require.NoError(t, err)
	for _, p := range s.Pages {
		body := strings.ToLower(string(p.Body))
		for _, bad := range []string{"<script", "<b>", "<i>", "<img"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s contains %q unescaped", p.Path, bad)
			}
		}
	}
	game := string(s.Page(gameHref(rt.Script)))
	assert.Contains(t, game, `<h1>LOCAL/&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp;/h4sh&#39;</h1>`)
	assert.Contains(t, game, html.EscapeString(rt.ErrorMessage)[:40])
	assert.Contains(t, game, `aria-label="state changes per second of each engine on LOCAL/&lt;script&gt;`)
	assert.Contains(t, game, `&lt;script&gt;alert(1)&lt;/script&gt;`)
}

var (
	hrefRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	idRE   = regexp.MustCompile(` id="([^"]*)"`)
)

// The pages need no network (nothing is loaded from anywhere but the page
// itself) and every link inside the site leads to a page and an anchor
// that exist.
func TestPagesSelfContainedAndLinked(t *testing.T) {
	checkSiteLinks(t, renderFixture(t))
}

func checkSiteLinks(t *testing.T, s *Site) {
	t.Helper()
	ids := map[string]map[string]bool{}
	for _, p := range s.Pages {
		ids[p.Path] = map[string]bool{}
		for _, m := range idRE.FindAllStringSubmatch(string(p.Body), -1) {
			ids[p.Path][html.UnescapeString(m[1])] = true
		}
	}
	for _, p := range s.Pages {
		body := string(p.Body)
		assert.NotContains(t, body, "<script", p.Path)
		assert.NotContains(t, body, "<link rel=\"stylesheet\"", p.Path)
		assert.NotContains(t, body, "@import", p.Path)
		assert.NotContains(t, body, " src=", p.Path)
		assert.NotContains(t, body, "url(", p.Path)
		assert.Contains(t, body, "<style>", p.Path)
		for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
			ref := html.UnescapeString(m[1])
			if strings.HasPrefix(ref, "http://games.ggp.org/") || strings.HasPrefix(ref, "data:") {
				continue
			}
			require.NotContains(t, ref, "://", "%s links outside: %s", p.Path, ref)
			file, frag, _ := strings.Cut(ref, "#")
			target := p.Path
			if file != "" {
				target = path.Join(path.Dir(p.Path), file)
			}
			if assert.Contains(t, ids, target, "%s links to a missing page %s", p.Path, ref) && frag != "" {
				assert.True(t, ids[target][frag], "%s links to a missing anchor %s", p.Path, ref)
			}
		}
	}
}

func TestPageNamesAreSafe(t *testing.T) {
	rows := rt.Rows()
	rows[0].GameKey = "../../../etc/passwd"
	rows[1].GameKey = "BASE/TicTacToe/x"
	rows[2].GameKey = "BASE/tictactoe/x"
	s, err := Render(rows)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, p := range s.Pages {
		assert.Regexp(t, `^(index\.html|(engine|game|pair|history)/[A-Za-z0-9_][A-Za-z0-9_-]*\.html)$`, p.Path)
		lower := strings.ToLower(p.Path)
		assert.False(t, names[lower], "%s clashes on a case-insensitive file system", p.Path)
		names[lower] = true
	}
}

func TestWriteReplacesStalePagesOnly(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, renderFixture(t).Write(dir))
	mine := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(mine, []byte("mine"), 0o644))
	soloPage := filepath.Join(dir, filepath.FromSlash(engineHref(solo1)))
	require.FileExists(t, soloPage)

	var rows []results.Row
	for _, r := range rt.Rows() {
		if r.Engine != "solo" {
			rows = append(rows, r)
		}
	}
	s, err := Render(rows)
	require.NoError(t, err)
	require.NoError(t, s.Write(dir))
	assert.NoFileExists(t, soloPage, "a page of the old site that the new one lacks")
	assert.FileExists(t, mine, "a file that is no page")
	got, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, s.Page("index.html"), got)
}

func TestBaselineMissingWarns(t *testing.T) {
	s := renderFixture(t, WithBaseline("nosuch"))
	assert.Equal(t, []string{
		"baseline nosuch has no runs on machine m1-fingerprint (2 s runs): its pages show no speedups",
		"baseline nosuch has no runs on machine m2-fingerprint (2 s runs): its pages show no speedups",
	}, s.Warnings)
	assert.Contains(t, string(s.Page("index.html")), "The baseline did not run on this machine.")

	s = renderFixture(t, WithBaseline("propnet@2-bbb"))
	assert.Empty(t, s.Warnings)
	assert.Contains(t, string(s.Page("index.html")), "Speedups are against the baseline <strong>propnet@2-bbb</strong>")
}

func TestRenderNoRows(t *testing.T) {
	_, err := Render(nil)
	assert.EqualError(t, err, "report: no result rows")
}
