package compiled

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// buildTimeout bounds one go build.
const buildTimeout = 5 * time.Minute

// The files of a cache entry.
const (
	progName   = "prog"
	markerName = "ok"         // written last: the size and sha256 of prog
	infoName   = "info.txt"   // the generator's figures, a design a line
	designName = "design.txt" // the design the build's warm-up kept (chooseDesign)
)

// Native prepares the compiled program of a game whose rulesheet is rules:
// a cache hit, or code generation and a build.
func Native(g *gdl.Game, rules []byte) (*engines.NativeProgram, error) {
	sum := sha256.Sum256(rules)
	return prepare(g, hex.EncodeToString(sum[:]))
}

// canonicalSHA is the key of a game known only as loaded: the sha256 of its
// cleaned rules printed canonically, one a line.
func canonicalSHA(g *gdl.Game) string {
	h := sha256.New()
	for _, r := range g.Rules {
		io.WriteString(h, r.String())
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// goTool finds the Go toolchain: $GDLPERF_GO, go on PATH, or the one this
// binary was built with.
func goTool() (string, error) {
	if p := os.Getenv("GDLPERF_GO"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", engines.Errorf(engines.UnsupportedErr, "compiled: the Go toolchain GDLPERF_GO=%s is missing: %v", p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	return "", engines.Errorf(engines.UnsupportedErr, "compiled: no Go toolchain: set GDLPERF_GO or put go on PATH")
}

// entryValid reports whether dir holds a complete program: its marker
// names the size and sha256 of the binary, which are checked.
func entryValid(dir string) bool {
	m, err := os.ReadFile(filepath.Join(dir, markerName))
	if err != nil {
		return false
	}
	f := strings.Fields(string(m))
	if len(f) != 2 {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, progName))
	if err != nil || strconv.Itoa(len(b)) != f[0] {
		return false
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]) == f[1]
}

// staleAge is how long the programs of another engine version stay in the
// cache after their last use (about 1 GB per version for the whole
// corpus): long enough for a campaign that compares two versions.
const staleAge = 14 * 24 * time.Hour

// usedName is the file of a version's folder touched when it is used.
const usedName = ".used"

var keepOnce sync.Once

// keepVersion marks the version's folder under dir as used now and removes
// the folders of other versions unused for staleAge (their .used file, or
// the folder itself, last modified before). Failures are ignored: the cache
// is only a cache.
func keepVersion(dir, version string, now time.Time) {
	if err := os.MkdirAll(filepath.Join(dir, version), 0o755); err == nil {
		used := filepath.Join(dir, version, usedName)
		if err := os.Chtimes(used, now, now); err != nil {
			os.WriteFile(used, nil, 0o644)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == version {
			continue
		}
		old := filepath.Join(dir, e.Name())
		st, err := os.Stat(filepath.Join(old, usedName))
		if err != nil {
			st, err = os.Stat(old)
		}
		if err == nil && now.Sub(st.ModTime()) > staleAge {
			os.RemoveAll(old)
		}
	}
}

// staleBuildAge is the age of a build folder whose builder is taken for
// dead when no process holds the lock of its key (a build takes at most
// buildTimeout).
const staleBuildAge = time.Hour

// sweepBuilds removes from parent the build folders (.<key>-build-*) that
// builders killed in the middle of a build left: those older than
// staleBuildAge whose key's lock no process holds. Failures are ignored.
func sweepBuilds(parent string, now time.Time) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		key, _, ok := strings.Cut(strings.TrimPrefix(e.Name(), "."), "-build-")
		if !e.IsDir() || !ok || !strings.HasPrefix(e.Name(), ".") || strings.ContainsAny(key, "*?[\\") {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < staleBuildAge {
			continue
		}
		locks, _ := filepath.Glob(filepath.Join(parent, key+"*.lock"))
		var held []*os.File
		free := true
		for _, l := range locks {
			f, err := os.Open(l)
			if err != nil {
				continue
			}
			defer f.Close()
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
				free = false
				break
			}
			held = append(held, f)
		}
		if free {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
		for _, f := range held {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		}
	}
}

// prepare returns the program of g under key sha, building it when the
// cache has no valid entry. Builders of one key take a lock file, so two
// processes never build into the same entry; a build happens in a
// temporary folder renamed into place with its marker written last.
func prepare(g *gdl.Game, sha string) (*engines.NativeProgram, error) {
	root, err := engines.CacheDir()
	if err != nil {
		return nil, fmt.Errorf("compiled: %w", err)
	}
	parent := filepath.Join(root, "compiled", Version)
	dir := filepath.Join(parent, sha)
	keepOnce.Do(func() {
		keepVersion(filepath.Join(root, "compiled"), Version, time.Now())
		sweepBuilds(parent, time.Now())
	})
	hit := func() *engines.NativeProgram {
		return &engines.NativeProgram{Path: filepath.Join(dir, progName), Setup: map[protocol.Key]int64{protocol.KeyCodegenMilliseconds: 0, protocol.KeyBuildMilliseconds: 0}, Info: readInfo(dir), Args: readDesign(dir)}
	}
	if entryValid(dir) {
		return hit(), nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("compiled: the cache folder %s is not writable: %w", parent, err)
	}
	lock, err := os.OpenFile(filepath.Join(parent, sha+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("compiled: the cache folder %s is not writable: %w", parent, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("compiled: locking %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if entryValid(dir) {
		return hit(), nil // another builder finished it
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("compiled: removing the broken cache entry %s: %w", dir, err)
	}
	goBin, err := goTool()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, err := generate(g, Version, sha)
	if err != nil {
		return nil, err
	}
	codegen := time.Since(start)
	tmp, err := os.MkdirTemp(parent, "."+sha[:16]+"-build-")
	if err != nil {
		return nil, fmt.Errorf("compiled: the cache folder %s is not writable: %w", parent, err)
	}
	defer os.RemoveAll(tmp)
	if err := writeSources(tmp, out); err != nil {
		return nil, fmt.Errorf("compiled: writing the program's source: %w", err)
	}
	codegen = time.Since(start)
	bstart := time.Now()
	pgo, err := writeProfile(tmp)
	if err != nil {
		return nil, fmt.Errorf("compiled: writing the program's source: %w", err)
	}
	if err := goBuild(goBin, tmp, root, pgo); err != nil {
		return nil, err
	}
	build := time.Since(bstart)
	chosen := chooseDesign(tmp)
	b, err := os.ReadFile(filepath.Join(tmp, progName))
	if err != nil {
		return nil, fmt.Errorf("compiled: the build made no program: %w", err)
	}
	sum := sha256.Sum256(b)
	if err := os.WriteFile(filepath.Join(tmp, infoName), []byte(out.stats+"\n"+chosen+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("compiled: the cache folder %s is not writable: %w", parent, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, markerName), []byte(fmt.Sprintf("%d %s\n", len(b), hex.EncodeToString(sum[:]))), 0o644); err != nil {
		return nil, fmt.Errorf("compiled: the cache folder %s is not writable: %w", parent, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, fmt.Errorf("compiled: moving the build into the cache: %w", err)
	}
	return &engines.NativeProgram{Path: filepath.Join(dir, progName), Setup: map[protocol.Key]int64{
		protocol.KeyCodegenMilliseconds: codegen.Milliseconds(),
		protocol.KeyBuildMilliseconds:   build.Milliseconds(),
	}, Info: readInfo(dir), Args: readDesign(dir)}, nil
}

// chooseTimeout bounds the warm-up of a new program (chooseDesign).
const chooseTimeout = 2 * time.Minute

// chooseDesign plays the warm-up of the program built in dir once (prog
// -choose) and records the design it keeps there, to be given to every
// run with -design (readDesign): the warm-up was most of a cached
// program's start-up (checkers 25 of 26 ms, speedChess 91 of 94, laikLee_hex
// seconds), and its choice is the same in every process, as it counts work,
// not time. A warm-up that fails or runs past chooseTimeout records
// nothing: each run then plays its own, as before, and reports what goes
// wrong. It returns the line that says which design it kept, or why none,
// for info.txt (gdlperf engine info prints it). The time it takes is part
// of the setup (the first run's initMilliseconds), not of codegen or
// build.
func chooseDesign(dir string) string {
	ctx, cancel := context.WithTimeout(context.Background(), chooseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, progName), "-choose")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GDLPERF_CPUPROFILE=") { // a profile is of a run
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if os.Getenv("GDLPERF_COMPILED_WARMUP_LOG") != "" {
		cmd.Stderr = io.MultiWriter(&stderr, os.Stderr) // the warm-up's log, asked for
	}
	const none = "design kept at the build: none (its warm-up %s); each run plays its own warm-up"
	out, err := cmd.Output()
	switch {
	case ctx.Err() != nil:
		return fmt.Sprintf(none, fmt.Sprintf("ran past %s", chooseTimeout))
	case err != nil:
		msg := err.Error()
		if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); lines[len(lines)-1] != "" {
			msg += ": " + lines[len(lines)-1] // the error, after any log
		}
		return fmt.Sprintf(none, "failed: "+msg)
	}
	name := strings.TrimSpace(string(out))
	if !knownDesign(name) {
		return fmt.Sprintf(none, fmt.Sprintf("named no design: %q", name))
	}
	if err := os.WriteFile(filepath.Join(dir, designName), []byte(name+"\n"), 0o644); err != nil {
		return fmt.Sprintf(none, "was not recorded: "+err.Error())
	}
	return "design kept at the build: " + name
}

// readDesign returns the arguments that give a program the design its
// build kept, or none when it recorded none (or what it recorded is not a
// design's name).
func readDesign(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, designName))
	if err != nil {
		return nil
	}
	name := strings.TrimSuffix(string(b), "\n")
	if !knownDesign(name) {
		return nil
	}
	return []string{"-design", name}
}

// knownDesign reports whether name is a design's name (designs), as
// -design takes it.
func knownDesign(name string) bool {
	for _, d := range designs {
		if d.name == name {
			return true
		}
	}
	return false
}

// readInfo reads the generator's figures kept beside a program.
func readInfo(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, infoName))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// The packages of gdlperf copied into every program beside the runtime
// (package rt), each a folder of the generated module, with their imports
// of each other rewritten to the module's: the engine process protocol,
// and the workloads' search code with what it stands on (engines, gdl),
// so that the program runs engines/workload's searches itself.
var copied = []struct {
	fsys       fs.FS
	folder     string
	importPath string
}{
	{protocol.Source, "protocol", "github.com/gdlperf/gdlperf/engines/protocol"},
	{workload.Source, "workload", "github.com/gdlperf/gdlperf/engines/workload"},
	{engines.Source, "engines", "github.com/gdlperf/gdlperf/engines"},
	{gdl.Source, "gdl", "github.com/gdlperf/gdlperf/engines/gdl"},
}

// writeSources writes the generated files, the runtime (package rt), the
// packages of gdlperf it uses (copied, with their imports rewritten) and
// go.mod into dir. The program needs the standard library only: a copied
// file that imports any other package of gdlperf is an error here, not a
// failed build.
func writeSources(dir string, out *generated) error {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gdlprog\n\ngo 1.22\n"), 0o644); err != nil {
		return err
	}
	for name, b := range out.files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	if err := copySources(source, "rt", filepath.Join(dir, "rt")); err != nil {
		return err
	}
	for _, c := range copied {
		if err := copySources(c.fsys, ".", filepath.Join(dir, c.folder)); err != nil {
			return err
		}
	}
	return nil
}

// copySources copies the Go files of folder from of fsys, tests left out,
// into the new folder to, with the imports of the copied packages
// rewritten.
func copySources(fsys fs.FS, from, to string) error {
	if err := os.Mkdir(to, 0o755); err != nil {
		return err
	}
	names, err := fs.Glob(fsys, path.Join(from, "*.go"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return err
		}
		for _, c := range copied {
			b = bytes.ReplaceAll(b, []byte(strconv.Quote(c.importPath)), []byte(strconv.Quote("gdlprog/"+c.folder)))
		}
		if bytes.Contains(b, []byte(`"github.com/gdlperf/gdlperf/`)) {
			return fmt.Errorf("the runtime file %s imports a package of gdlperf that is not copied into the program; the program may use the standard library and the copied packages only", n)
		}
		if err := os.WriteFile(filepath.Join(to, path.Base(n)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// The runtime's profile for profile-guided optimization (Go's PGO): CPU
// profiles of the compiled programs of training games that are not in the
// speed panel (make pgo-profile), with the generated packages' functions
// hidden, so that it names the runtime's own call sites only, the same in
// every program. Given to the compiler for package rt alone, it lets it
// inline the runtime's hot calls (a state's facts pushed into their true
// relations, a unit's evaluation, a row's add): 2-6 % fewer instructions
// a state change on the panel. The generated packages and the standard
// library are compiled as without it, and package rt's compilation, the
// same in every program, stays in Go's build cache.
//
//go:embed rt.pgo
var rtProfile []byte

// writeProfile writes the runtime's profile into the program's folder dir
// under a name of its content (go build keys its cache by the flag, not
// by the file it names) and returns the name, or "" when there is none.
func writeProfile(dir string) (string, error) {
	if len(rtProfile) == 0 {
		return "", nil
	}
	sum := sha256.Sum256(rtProfile)
	name := "rt-" + hex.EncodeToString(sum[:6]) + ".pgo"
	return name, os.WriteFile(filepath.Join(dir, name), rtProfile, 0o644)
}

// goBuild runs go build in dir with a clean environment and a time limit;
// pgo, when set, is the runtime's profile in dir (writeProfile).
func goBuild(goBin, dir, root, pgo string) error {
	env := []string{"GOWORK=off", "GOFLAGS=-buildvcs=false", "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOPROXY=off", "GO111MODULE=on"}
	for _, k := range []string{"PATH", "HOME", "GOCACHE", "TMPDIR", "XDG_CACHE_HOME", "GOPATH", "GOMODCACHE"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if os.Getenv("GOCACHE") == "" && os.Getenv("HOME") == "" && os.Getenv("XDG_CACHE_HOME") == "" {
		env = append(env, "GOCACHE="+filepath.Join(root, "gocache"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	if pgo != "" {
		// a path relative to dir, where go build runs the compiler
		args = append(args, "-gcflags=gdlprog/rt=-pgoprofile="+pgo)
	}
	cmd := exec.CommandContext(ctx, goBin, append(args, "-o", progName, ".")...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return engines.Errorf(engines.ResourceLimit, "compiled: go build took over %s", buildTimeout)
	}
	if err != nil {
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) > 12 {
			lines = append(lines[:12], "...")
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return engines.Errorf(engines.UnsupportedErr, "compiled: running %s: %v", goBin, err)
		}
		return engines.Errorf(engines.UnsupportedErr, "compiled: go build failed: %s", strings.Join(lines, "\n"))
	}
	return nil
}
