package report

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gdlperf/gdlperf/results"
)

//go:embed templates/*.tmpl templates/style.css
var templateFS embed.FS

var (
	pageTemplates = template.Must(template.New("").Funcs(template.FuncMap{
		"rootList":      func(root string, links []link) rootedList { return rootedList{root, links} },
		"plural":        plural,
		"rootSummary":   func(root string, s summaryView) rootedSummary { return rootedSummary{root, s} },
		"rooted":        func(root string, v any) rooted { return rooted{root, v} },
		"mismatchTable": func(head string, rows []mismatchRow) mismatchTable { return mismatchTable{head, rows} },
		"problemTable":  func(head string, rows []problemRow) problemTable { return problemTable{head, rows} },
		"name":          prettyName,
		"rootedSens":    func(root, anchor string, v *sensitivityView) rootedSens { return rootedSens{root, anchor, v} },
	}).ParseFS(templateFS, "templates/*.tmpl"))
	styleCSS = func() template.CSS {
		b, err := templateFS.ReadFile("templates/style.css")
		if err != nil {
			panic(err)
		}
		return template.CSS(b)
	}()
)

// DefaultBaseline is the engine every other engine is measured against
// unless WithBaseline names another: the reference prover.
const DefaultBaseline = "prover"

// GameInfo is what is known about a game beyond its key.
type GameInfo struct {
	Title       string   // the game's own name, when it has one
	Roles       []string // in the order of its role facts
	RulesURL    string   // where to read the rules ("" derives one for ggp.org repositories)
	RulesFile   string   // where the rules were read from, for the record
	Rules       []byte   // the rulesheet, from which the uct chart is made ("": no chart)
	Findings    []string // the validator's findings, one line each
	Blacklisted string   // why the game is blacklisted; "" when it is not
}

// Option changes what Render produces.
type Option func(*options)

type options struct {
	baseline string
	gameInfo func(game string) (GameInfo, bool)
	title    string
	sources  []string
	checks   []results.CheckRow
	uct      UCTChart
}

// WithBaseline names the engine ("prover") or engine version
// ("prover@1-abc") the others are measured against. An engine name means
// its newest version on each machine.
func WithBaseline(spec string) Option { return func(o *options) { o.baseline = spec } }

// WithGameInfo supplies the metadata and validator findings of games.
func WithGameInfo(f func(game string) (GameInfo, bool)) Option {
	return func(o *options) { o.gameInfo = f }
}

// WithTitle sets the title of the index page.
func WithTitle(t string) Option { return func(o *options) { o.title = t } }

// WithSources lists the results files the rows came from, for the index.
func WithSources(files []string) Option {
	return func(o *options) { o.sources = slices.Clone(files) }
}

// Page is one file of a site.
type Page struct {
	Path string // slash-separated, relative to the site's folder
	Body []byte
}

// Site is a rendered report.
type Site struct {
	Pages []Page // sorted by path
	// Warnings are findings worth telling the user, such as a baseline
	// that did not run on some machine.
	Warnings []string
}

// Bytes is the total size of the pages.
func (s *Site) Bytes() int64 {
	var n int64
	for _, p := range s.Pages {
		n += int64(len(p.Body))
	}
	return n
}

// Page returns the body of the page at path, or nil.
func (s *Site) Page(path string) []byte {
	i, ok := slices.BinarySearchFunc(s.Pages, path, func(p Page, path string) int { return strings.Compare(p.Path, path) })
	if !ok {
		return nil
	}
	return s.Pages[i].Body
}

// Render builds the site of rows: index.html, a page per engine version
// (engine/, also for a version that was only checked, see WithVerdicts),
// per game (game/) and per pair of engine versions that ran on a common
// machine (pair/), and the history of every engine's versions (history/).
// The same rows (and check rows), in any order, give the
// same bytes.
func Render(rows []results.Row, opts ...Option) (*Site, error) {
	o := options{baseline: DefaultBaseline, title: "gdlperf results"}
	for _, opt := range opts {
		opt(&o)
	}
	if len(rows) == 0 {
		return nil, errors.New("report: no result rows")
	}
	b := newBuilder(Analyse(rows), o)
	var jobs []func() (Page, error)
	jobs = append(jobs, b.indexPage)
	for _, v := range b.versions {
		jobs = append(jobs, func() (Page, error) { return b.enginePage(v) })
	}
	for _, g := range b.games {
		jobs = append(jobs, func() (Page, error) { return b.gamePage(g) })
	}
	for _, p := range b.pairs {
		jobs = append(jobs, func() (Page, error) { return b.pairPage(p) })
	}
	for _, e := range b.engines() {
		jobs = append(jobs, func() (Page, error) { return b.historyPage(e) })
	}
	pages, err := runJobs(jobs)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(pages, func(a, b Page) int { return strings.Compare(a.Path, b.Path) })
	return &Site{Pages: pages, Warnings: b.warnings}, nil
}

// runJobs runs the jobs on every CPU and returns their pages in job order.
func runJobs(jobs []func() (Page, error)) ([]Page, error) {
	pages := make([]Page, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				pages[i], errs[i] = jobs[i]()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return pages, errors.Join(errs...)
}

// manifestFile lists the pages of the last site written to a folder, so
// that writing a new site removes the pages that are no longer part of it
// and nothing else.
const manifestFile = ".gdlperf-site"

// Write writes the site into dir (created when missing). Pages of an
// earlier site in dir that the new one lacks are removed; other files are
// left alone.
func (s *Site) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	old, _ := os.ReadFile(filepath.Join(dir, manifestFile))
	keep := map[string]bool{}
	var manifest bytes.Buffer
	for _, p := range s.Pages {
		keep[p.Path] = true
		manifest.WriteString(p.Path + "\n")
		path := filepath.Join(dir, filepath.FromSlash(p.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if err := os.WriteFile(path, p.Body, 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	for _, line := range strings.Split(string(old), "\n") {
		if line == "" || keep[line] || !fs.ValidPath(line) || strings.Contains(line, "\\") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(line))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("report: removing a stale page: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, manifestFile), manifest.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// render executes the named page template.
func render(path, name string, data *pageData) (Page, error) {
	data.CSS = styleCSS
	data.Root = strings.Repeat("../", strings.Count(path, "/"))
	var b bytes.Buffer
	if err := pageTemplates.ExecuteTemplate(&b, name, data); err != nil {
		return Page{}, fmt.Errorf("report: %s: %w", path, err)
	}
	return Page{Path: path, Body: b.Bytes()}, nil
}

// pageData is what every page template gets.
type pageData struct {
	Title  string
	Root   string // "" or "../": the way from the page to the site's folder
	CSS    template.CSS
	Rows   int
	Crumbs []link
	Body   any
}

// rootedList and rootedSummary carry Root into a nested template.
type rootedList struct {
	Root  string
	Links []link
}

type rootedSummary struct {
	Root string
	S    summaryView
}

type rootedSens struct {
	Root, Anchor string
	V            *sensitivityView
}

type rooted struct {
	Root string
	V    any
}

// link is a text and where it leads (relative to the site's folder; the
// templates prefix Root). Href "" is plain text.
type link struct {
	Text string
	Href string
}
