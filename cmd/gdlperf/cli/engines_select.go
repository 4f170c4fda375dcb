package cli

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/harness"
)

// engineSpec is an engine as a command line names it: NAME, NAME@VERSION
// (a version in the manifest, or the built-in engine's own), or
// NAME@rev:REV (a built-in engine of gdlperf as built from the git
// revision REV; gdlperf ab).
type engineSpec struct {
	Name, Version, Rev string
}

func (s engineSpec) String() string {
	switch {
	case s.Rev != "":
		return s.Name + "@rev:" + s.Rev
	case s.Version != "":
		return s.Name + "@" + s.Version
	}
	return s.Name
}

// parseEngineSpec reads NAME, NAME@VERSION or NAME@rev:REV.
func parseEngineSpec(s string) (engineSpec, error) {
	name, version, at := strings.Cut(strings.TrimSpace(s), "@")
	if name == "" {
		return engineSpec{}, fmt.Errorf("engine %q has no name (NAME, NAME@VERSION or NAME@rev:REV)", s)
	}
	if !at {
		return engineSpec{Name: name}, nil
	}
	if rev, ok := strings.CutPrefix(version, "rev:"); ok {
		if rev == "" {
			return engineSpec{}, fmt.Errorf("engine %q names no revision (NAME@rev:HEAD~1)", s)
		}
		return engineSpec{Name: name, Rev: rev}, nil
	}
	if version == "" {
		return engineSpec{}, fmt.Errorf("engine %q names no version after @ (NAME@VERSION)", s)
	}
	return engineSpec{Name: name, Version: version}, nil
}

// engineCatalog is every engine a command can name: the built-in engines and
// the manifest's, which may hold several versions of one name.
type engineCatalog struct {
	builtin  []*harness.Engine
	external []*harness.Engine
	manifest string
}

// loadEngineCatalog reads the built-in engines and the manifest (default:
// ./engines.toml or ./engines.json when one exists). An external engine
// may not take a built-in engine's name.
func loadEngineCatalog(manifest string) (*engineCatalog, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	c := &engineCatalog{builtin: harness.BuiltinEngines(exe)}
	if manifest == "" {
		manifest = harness.DefaultManifest(".")
	}
	c.manifest = manifest
	if manifest == "" {
		return c, nil
	}
	c.external, err = harness.LoadManifest(manifest)
	if err != nil {
		return nil, err
	}
	for _, e := range c.external {
		if c.builtinNamed(e.Name) != nil {
			return nil, fmt.Errorf("%s: engine %s is also a built-in engine; give it another name", manifest, e.Name)
		}
	}
	return c, nil
}

func (c *engineCatalog) builtinNamed(name string) *harness.Engine {
	for _, e := range c.builtin {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// named returns the engines a NAME or NAME@VERSION spec selects: the
// built-in engine, or every manifest version of the name (the one named).
func (c *engineCatalog) named(s engineSpec) ([]*harness.Engine, error) {
	if s.Rev != "" {
		return nil, fmt.Errorf("engine %s: a revision is built by gdlperf ab only (gdlperf ab %s %s)", s, s, s.Name)
	}
	if b := c.builtinNamed(s.Name); b != nil {
		if s.Version != "" && s.Version != b.Version {
			return nil, fmt.Errorf("built-in engine %s is version %s in this gdlperf, not %s (gdlperf ab %s@rev:REV builds another revision)", s.Name, b.Version, s.Version, s.Name)
		}
		return []*harness.Engine{b}, nil
	}
	var out, versions []*harness.Engine
	for _, e := range c.external {
		if e.Name != s.Name {
			continue
		}
		versions = append(versions, e)
		if s.Version == "" || e.Version == s.Version {
			out = append(out, e)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	if len(versions) > 0 {
		var vs []string
		for _, e := range versions {
			vs = append(vs, e.ID())
		}
		return nil, fmt.Errorf("engine %s has no version %s in %s (it has %s)", s.Name, s.Version, c.manifest, strings.Join(vs, ", "))
	}
	known := map[string]bool{}
	for _, e := range c.builtin {
		known[e.Name] = true
	}
	for _, e := range c.external {
		known[e.ID()] = true
	}
	var names []string
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("no engine %q (the engines are %s; external engines come from --manifest)", s.Name, strings.Join(names, ", "))
}

// selectEngineVersions resolves the --engines of gdlperf run and check:
// NAME (a built-in engine, or every version of a manifest name) or
// NAME@VERSION (one of them: --engines tp@1.0,tp@2.0). No names is every
// built-in engine. Engines are kept once each, by ID (NAME@VERSION).
func selectEngineVersions(names []string, manifest string) ([]*harness.Engine, error) {
	c, err := loadEngineCatalog(manifest)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		var out []*harness.Engine
		for _, e := range engines.List() {
			out = append(out, c.builtinNamed(e.Name))
		}
		return out, nil
	}
	var out []*harness.Engine
	seen := map[string]bool{}
	for _, n := range names {
		s, err := parseEngineSpec(n)
		if err != nil {
			return nil, err
		}
		es, err := c.named(s)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if !seen[e.ID()] {
				seen[e.ID()] = true
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// revBuild is gdlperf built from one git revision.
type revBuild struct {
	Rev, Commit string
	Binary      string
}

// buildRevision builds gdlperf as of the git revision rev of the repository
// the current folder is in, into cacheDir/COMMIT/gdlperf, and returns it. A
// build that is there already is reused (its commit is its name, so it is
// the same program). The revision's files are taken with git archive into
// a temporary folder removed afterwards: the working tree and its
// uncommitted changes are not touched, and no git worktree is left behind.
func buildRevision(ctx context.Context, rev, cacheDir string, progress io.Writer) (*revBuild, error) {
	top, commit, err := revCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	return buildCommit(ctx, top, rev, commit, cacheDir, progress)
}

// revCommit resolves rev to a commit of the repository the current folder
// is in, and returns the repository's top folder and the commit.
func revCommit(ctx context.Context, rev string) (top, commit string, err error) {
	top, err = gitOutput(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", fmt.Errorf("building revision %s: the current folder is not in a git repository of gdlperf: %w", rev, err)
	}
	commit, err = gitOutput(ctx, top, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", "", fmt.Errorf("revision %q is not a commit of %s: %w", rev, top, err)
	}
	return top, commit, nil
}

// buildCommit builds commit (named rev in messages) of the repository at
// top; see buildRevision.
func buildCommit(ctx context.Context, top, rev, commit, cacheDir string, progress io.Writer) (*revBuild, error) {
	if cacheDir == "" {
		root, err := gamerepo.DefaultCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache folder for the builds (give --build-cache): %w", err)
		}
		cacheDir = filepath.Join(root, "ab-builds")
	}
	out := filepath.Join(cacheDir, commit)
	bin := filepath.Join(out, "gdlperf")
	b := &revBuild{Rev: rev, Commit: commit, Binary: bin}
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
		if progress != nil {
			fmt.Fprintf(progress, "revision %s (%s): using the build in %s\n", rev, commit[:12], out)
		}
		return b, nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	src, err := os.MkdirTemp(cacheDir, "src-"+commit[:12]+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(src)
	if progress != nil {
		fmt.Fprintf(progress, "revision %s (%s): building gdlperf into %s...\n", rev, commit[:12], out)
	}
	if err := gitArchive(ctx, top, commit, src); err != nil {
		return nil, fmt.Errorf("revision %s: %w", rev, err)
	}
	goTool := os.Getenv("GDLPERF_GO")
	if goTool == "" {
		goTool = "go"
	}
	tmp := bin + ".tmp"
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", tmp, "./cmd/gdlperf")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -buildvcs=false"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("building revision %s (%s): %w: %s", rev, commit[:12], err, clip(stderr.String(), 2000))
	}
	if err := os.Rename(tmp, bin); err != nil {
		return nil, err
	}
	return b, nil
}

// revEngine is the built-in engine name of a revision's build, with the
// version that build reports in its engine list.
func revEngine(ctx context.Context, b *revBuild, name string) (*harness.Engine, error) {
	out, err := exec.CommandContext(ctx, b.Binary, "engine", "list").Output()
	if err != nil {
		return nil, fmt.Errorf("revision %s: %s engine list: %w", b.Rev, b.Binary, err)
	}
	version := ""
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[0] == "ENGINE" || f[2] != "built-in" {
			continue
		}
		names = append(names, f[0])
		if f[0] == name {
			version = f[1]
		}
	}
	if version == "" {
		return nil, fmt.Errorf("revision %s has no built-in engine %s (it has %s)", b.Rev, name, strings.Join(names, ", "))
	}
	help, _ := exec.CommandContext(ctx, b.Binary, "engine", "run", "--help").CombinedOutput()
	return &harness.Engine{
		Name:         name,
		Version:      version,
		Command:      []string{b.Binary, "engine", "run", name},
		TraceCommand: []string{b.Binary, "engine", "trace", name},
		Builtin:      true,
		FixedWork:    bytes.Contains(help, []byte("--rollouts")),
	}, nil
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(clip(msg, 300))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// gitArchive writes the files of commit into dir (git archive, read here
// as a tar stream: no tar program needed).
func gitArchive(ctx context.Context, top, commit, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar", commit)
	cmd.Dir = top
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	r, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(r, dir)
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %w: %s", commit, err, clip(stderr.String(), 300))
	}
	return terr
}

func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("git archive: entry %q leaves the folder", h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, os.FileMode(h.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, p); err != nil {
				return err
			}
		}
	}
}
