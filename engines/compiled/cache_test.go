package compiled_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// entries lists the cache entries under root (not lock files nor the
// version folder's .used mark).
func entries(t *testing.T, root string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root, "compiled", "*", "*"))
	require.NoError(t, err)
	var out []string
	for _, d := range dirs {
		if !strings.HasSuffix(d, ".lock") && !strings.HasPrefix(filepath.Base(d), ".") {
			out = append(out, filepath.Base(d))
		}
	}
	return out
}

// TestWarmStart: a second Native for one game is a cache hit that skips
// generation and build.
func TestWarmStart(t *testing.T) {
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	tg := builtin(t, "connectfour")
	start := time.Now()
	cold, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	coldTime := time.Since(start)
	assert.Greater(t, cold.Setup[protocol.KeyBuildMilliseconds], int64(0))
	start = time.Now()
	warm, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	warmTime := time.Since(start)
	assert.Equal(t, cold.Path, warm.Path)
	assert.Equal(t, map[protocol.Key]int64{protocol.KeyCodegenMilliseconds: 0, protocol.KeyBuildMilliseconds: 0}, warm.Setup)
	t.Logf("cold start %s (setup %v), warm start %s", coldTime.Round(time.Millisecond), cold.Setup, warmTime.Round(time.Microsecond))
}

// TestConcurrentBuilds: goroutines, then processes, building one game at
// once leave one valid cache entry.
func TestConcurrentBuilds(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GDLPERF_CACHE", root)
	tg := builtin(t, "tictactoe")
	var wg sync.WaitGroup
	paths := make([]string, 4)
	errs := make([]error, 4)
	for i := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := compiled.Native(tg.game, tg.rules)
			errs[i] = err
			if err == nil {
				paths[i] = p.Path
			}
		}()
	}
	wg.Wait()
	for i := range paths {
		require.NoError(t, errs[i])
		assert.Equal(t, paths[0], paths[i])
	}
	assert.Len(t, entries(t, root), 1)
	checkProgram(t, paths[0], tg.path)

	// two processes (this test binary again) on a fresh cache
	root2 := t.TempDir()
	procs := make([]*exec.Cmd, 2)
	outs := make([]*strings.Builder, 2)
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestHelperBuild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GDLPERF_CACHE="+root2, "GDLPERF_HELPER_GAME="+tg.path)
		outs[i] = &strings.Builder{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		require.NoError(t, cmd.Start())
		procs[i] = cmd
	}
	for i, cmd := range procs {
		assert.NoError(t, cmd.Wait(), outs[i].String())
	}
	assert.Len(t, entries(t, root2), 1)
	got, _ := filepath.Glob(filepath.Join(root2, "compiled", "*", "*", "prog"))
	require.Len(t, got, 1)
	checkProgram(t, got[0], tg.path)
}

// TestHelperBuild is run by TestConcurrentBuilds in other processes.
func TestHelperBuild(t *testing.T) {
	path := os.Getenv("GDLPERF_HELPER_GAME")
	if path == "" {
		t.Skip("a helper of TestConcurrentBuilds")
	}
	tg := fileGame(t, path)
	_, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
}

// checkProgram runs a program for one rollout in fixed-work mode.
func checkProgram(t *testing.T, prog, game string) {
	t.Helper()
	code, r, stderr := runProgram(t, prog, "-rollouts", "1", game, "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "1", get(r, "numRollouts"))
}

// TestCorruptEntry: a truncated binary is detected and rebuilt.
func TestCorruptEntry(t *testing.T) {
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	tg := builtin(t, "tictactoe")
	p, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	b, err := os.ReadFile(p.Path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p.Path, b[:len(b)/2], 0o755))
	p2, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	assert.Greater(t, p2.Setup["buildMilliseconds"], int64(0), "the entry was rebuilt")
	checkProgram(t, p2.Path, tg.path)
}

// TestToolchainErrors: a missing toolchain and an unwritable cache are
// clear errors.
func TestToolchainErrors(t *testing.T) {
	tg := builtin(t, "tictactoe")
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	t.Setenv("GDLPERF_GO", filepath.Join(t.TempDir(), "no-such-go"))
	_, err := compiled.Native(tg.game, tg.rules)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "GDLPERF_GO")
	assert.Contains(t, err.Error(), "no-such-go")

	t.Setenv("GDLPERF_GO", "")
	file := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	t.Setenv("GDLPERF_CACHE", file)
	_, err = compiled.Native(tg.game, tg.rules)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not writable")
}

// TestBudget: a game whose generated source would be too large is refused
// with a resource-limit error giving the figures.
func TestBudget(t *testing.T) {
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	var b strings.Builder
	b.WriteString("(role r)\n(init (s 0))\n(<= (legal r go) (true (s ?x)))\n(<= (next (s 1)) (does r go))\n(<= terminal (true (s 1)))\n(goal r 100)\n")
	for i := range 21_000 {
		fmt.Fprintf(&b, "(<= (p%d ?x) (true (s ?x)) (q ?x))\n(<= terminal (p%d 7))\n", i, i)
	}
	b.WriteString("(q 7)\n")
	g, err := gdl.Load("huge.kif", []byte(b.String()))
	require.NoError(t, err)
	_, err = compiled.Native(g, []byte(b.String()))
	require.Error(t, err)
	var ge *engines.GameError
	require.True(t, errors.As(err, &ge), "%v", err)
	assert.Equal(t, engines.ResourceLimit, ge.Kind)
	t.Log(err)
}

// TestBuildKeepsDesign: a program's build plays the warm-up once and
// records the design it keeps, the one a run left to its own warm-up
// keeps; the harness's runs are given it (-design) and play no warm-up;
// a record that names no design is ignored.
func TestBuildKeepsDesign(t *testing.T) {
	t.Setenv("GDLPERF_CACHE", t.TempDir())
	t.Setenv("GDLPERF_COMPILED_WARMUP_LOG", "1")
	tg := builtin(t, "connectfour")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)

	code, r, stderr := runProgram(t, prog.Path, "-rollouts", "1", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	kept := get(r, protocol.KeyDesign)
	require.Contains(t, stderr, "warm-up: kept "+kept, "a run given no design plays the warm-up")
	require.NotEqual(t, "bottom-up", kept, "the test needs a game whose warm-up keeps another design than the first")
	assert.Equal(t, []string{"-design", kept}, prog.Args)
	assert.Contains(t, prog.Info, "design kept at the build: "+kept, "engine info says which design the build kept")
	warm, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	assert.Equal(t, prog.Args, warm.Args, "a cache hit")

	e, ok := engines.Lookup(compiled.Name)
	require.True(t, ok)
	res := filepath.Join(t.TempDir(), "result.txt")
	var out strings.Builder
	require.NoError(t, rollout.Process{Engine: e, File: tg.path, Rules: tg.rules, Rollouts: 1, Seed: 2}.WriteResult(res, &out, &out))
	b, err := os.ReadFile(res)
	require.NoError(t, err)
	r, bad := protocol.Parse(string(b))
	require.Empty(t, bad)
	assert.Equal(t, kept, get(r, protocol.KeyDesign))
	assert.NotContains(t, out.String(), "warm-up:", "the harness's run plays no warm-up")

	code, _, stderr = runProgram(t, prog.Path, "-choose", "extra", tg.path, "0")
	assert.Equal(t, 2, code, stderr)

	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(prog.Path), "design.txt"), []byte("sideways\n"), 0o644))
	damaged, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	assert.Nil(t, damaged.Args)
}
