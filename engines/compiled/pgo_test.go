package compiled_test

import (
	"bytes"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/compiled"
)

// pgoTraining are the games whose programs' profiles make rt.pgo: base
// games of every design that are not in the speed panel (PANEL.md), so
// that the panel's figures are not those of the games the profile was
// made on.
var pgoTraining = []string{
	"blocker", "chinook", "connect5", "othello-comp2007", "gomoku_11x11", "knightfight",
	"linesOfAction", "merrills", "pawnWhopping", "qyshinsu", "snake_2009", "tron_10x10",
	"chomp", "quarto", "kalaha6x2x4", "minichess-evilconjuncts", "mummymaze1p", "queens08lg",
	"lightsOut", "hallway", "pacman3p", "battle", "cubicup", "crisscross",
}

// generatedFuncs matches the functions of the generated packages (one a
// design), which the profile leaves out: their names differ from game to
// game.
var generatedFuncs = `gdlprog/(` + strings.Join(compiled.DesignPackagesForTest(), "|") + `)\.`

// TestWritePGOProfile makes the runtime's profile (make pgo-profile): it
// builds the training games' programs, runs each for a few seconds with a
// CPU profile, and merges the profiles into GDLPERF_PGO_OUT, the generated
// packages' functions hidden. Skipped unless GDLPERF_PGO_OUT is set (and
// the mirror is there). Run it again after a change of the runtime: a
// profile whose call sites moved optimizes less (never wrongly).
func TestWritePGOProfile(t *testing.T) {
	out := os.Getenv("GDLPERF_PGO_OUT")
	if out == "" {
		t.Skip("set GDLPERF_PGO_OUT to write the runtime's profile")
	}
	mirror := filepath.Join("..", "..", "..", "shared", "gamerepo-mirror", "base")
	if _, err := os.Stat(mirror); err != nil {
		t.Skip("no game mirror at ../shared")
	}
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	dir := t.TempDir()
	var profiles []string
	for _, name := range pgoTraining {
		kifs, err := filepath.Glob(filepath.Join(mirror, name, "*.kif"))
		require.NoError(t, err)
		require.Len(t, kifs, 1, name)
		tg := fileGame(t, kifs[0])
		prog, err := compiled.Native(tg.game, tg.rules)
		require.NoError(t, err, name)
		p := filepath.Join(dir, name+".pprof")
		cmd := exec.Command(prog.Path, "-seed", "1", tg.path, filepath.Join(dir, name+".txt"), "3")
		cmd.Env = append(os.Environ(), "GDLPERF_CPUPROFILE="+p)
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", name, b)
		profiles = append(profiles, p)
	}
	cmd := exec.Command(goBin, append([]string{"tool", "pprof", "-proto", "-hide=" + generatedFuncs}, profiles...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	merged, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	require.NoError(t, os.WriteFile(out, merged, 0o644))
	t.Logf("wrote %s: %d bytes from %d games", out, len(merged), len(profiles))
}

// TestProfileNamesTheRuntime checks the profile that programs are built
// with: a pprof profile whose samples' stacks include the runtime's hot
// paths and none of the generated packages' functions (which would tie it
// to the training games), and every runtime function they name still
// exists (a renamed one means the profile is stale: make pgo-profile).
func TestProfileNamesTheRuntime(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH to read the profile with")
	}
	var stderr bytes.Buffer
	cmd := exec.Command(goBin, "tool", "pprof", "-traces", "rt.pgo")
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	require.NoError(t, err, "rt.pgo is not a pprof profile: %s", stderr.String())
	traces := string(b)
	require.NotRegexp(t, regexp.MustCompile(generatedFuncs), traces, "the profile's samples name generated code")
	var src strings.Builder
	files, err := filepath.Glob(filepath.Join("rt", "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			s, err := os.ReadFile(f)
			require.NoError(t, err)
			src.Write(s)
		}
	}
	seen := map[string]bool{}
	for _, n := range regexp.MustCompile(`gdlprog/rt\.(?:\(\*([A-Za-z]+)\)\.)?([A-Za-z0-9_]+)`).FindAllStringSubmatch(traces, -1) {
		seen[n[0]] = true
		decl := `func ` + n[2] + `[(\[]` // a function, or a method by its receiver's type
		if n[1] != "" {
			decl = `func \(\w+ \*` + n[1] + `\) ` + n[2] + `[(\[]`
		}
		require.Regexp(t, regexp.MustCompile(decl), src.String(), "rt.pgo names %s, which the runtime no longer has: make pgo-profile", n[0])
	}
	for _, hot := range []string{"gdlprog/rt.(*Engine).SetState", "gdlprog/rt.(*Engine).ensure", "gdlprog/rt.(*Rel).Add2"} {
		require.True(t, seen[hot], "the profile's samples do not name %s", hot)
	}
}

// TestProgramsBuildWithProfile checks that a program is built with the
// runtime's profile: its build settings name the profile's file, which is
// beside it with rt.pgo's content.
func TestProgramsBuildWithProfile(t *testing.T) {
	tg := builtin(t, "tictactoe")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	info, err := buildinfo.ReadFile(prog.Path)
	require.NoError(t, err)
	var flags string
	for _, s := range info.Settings {
		if s.Key == "-gcflags" {
			flags = s.Value
		}
	}
	m := regexp.MustCompile(`^gdlprog/rt=-pgoprofile=(rt-[0-9a-f]{12}\.pgo)$`).FindStringSubmatch(flags)
	require.NotNil(t, m, "the program was built with -gcflags %q", flags)
	got, err := os.ReadFile(filepath.Join(filepath.Dir(prog.Path), m[1]))
	require.NoError(t, err)
	want, err := os.ReadFile("rt.pgo")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "the profile beside the program is not rt.pgo")
}
