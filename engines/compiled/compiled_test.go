package compiled_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// TestMain shares one temporary cache folder between the tests, so each
// game is built once per run, and removes it at the end. A GDLPERF_CACHE
// of the environment is not used: tests write only to temporary folders.
// The helper processes of TestConcurrentBuilds get the folder they are to
// build into from their test.
func TestMain(m *testing.M) {
	if os.Getenv("GDLPERF_HELPER_GAME") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "gdlperf-compiled-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GDLPERF_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func engine(t testing.TB) engines.Engine {
	e, ok := engines.Lookup(compiled.Name)
	if !ok {
		t.Fatal("the compiled prover is not registered")
	}
	return e
}

// testGame is a game by file: its rules and the loaded game.
type testGame struct {
	name  string
	path  string
	rules []byte
	game  *gdl.Game
}

func builtin(t testing.TB, name string) testGame {
	b, ok := builtingames.Get(name)
	if !ok {
		t.Fatalf("no built-in game %s", name)
	}
	path := filepath.Join(t.TempDir(), name+".kif")
	require.NoError(t, os.WriteFile(path, b.Rules, 0o644))
	return fileGame(t, path)
}

func mirrored(t testing.TB, rel string) testGame {
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	return fileGame(t, filepath.Join(shared, "gamerepo-mirror", rel))
}

func fileGame(t testing.TB, path string) testGame {
	rules, err := os.ReadFile(path)
	require.NoError(t, err)
	g, err := gdl.Load(path, rules)
	require.NoError(t, err)
	return testGame{name: filepath.Base(path), path: path, rules: rules, game: g}
}

func sourceGame(t testing.TB, name, src string) testGame {
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return fileGame(t, path)
}

// proverTrace is the reference trace.
func proverTrace(t testing.TB, g *gdl.Game, seed uint64, n int) []byte {
	var buf bytes.Buffer
	rollout.Trace(&buf, prover.NewMachine(g), "prover", "v", seed, n)
	return buf.Bytes()
}

// programTrace runs the program's -trace to standard output, with the
// flags in more (such as -design).
func programTrace(t testing.TB, prog *engines.NativeProgram, gameFile string, seed uint64, n int, more ...string) []byte {
	args := append([]string{"-trace", "-", "-seed", itoa(int64(seed)), "-rollouts", itoa(int64(n))}, more...)
	cmd := exec.Command(prog.Path, append(args, gameFile)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run() // a game error exits 1 with the trace written
	if out.Len() == 0 {
		t.Fatalf("no trace: %s", errb.String())
	}
	return out.Bytes()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// sameTrace compares two traces byte for byte, apart from the header.
func sameTrace(t testing.TB, want, got []byte) {
	t.Helper()
	wl := strings.SplitN(string(want), "\n", 2)
	gl := strings.SplitN(string(got), "\n", 2)
	require.Len(t, gl, 2, "the program's trace has no header line")
	if wl[1] == gl[1] {
		return
	}
	mis, err := conform.CompareTraces(bytes.NewReader(want), bytes.NewReader(got))
	require.NoError(t, err)
	if mis != nil {
		t.Fatalf("%v\nmoves:\n%s", mis, mis.HistoryText())
	}
	t.Fatalf("the traces differ in bytes only")
}

// checkTrace builds the program for a game file and compares its trace
// with the prover's.
func checkTrace(t *testing.T, tg testGame, seed uint64, n int) {
	t.Helper()
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	sameTrace(t, proverTrace(t, tg.game, seed, n), programTrace(t, prog, tg.path, seed, n))
}
