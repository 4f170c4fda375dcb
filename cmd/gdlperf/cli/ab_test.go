package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/results"
)

// buildWorkEngine builds harness/testdata/workengine, the engine of known
// cost, into a temporary folder.
func buildWorkEngine(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "workengine")
	cmd := exec.Command("go", "build", "-o", bin, "../../../harness/testdata/workengine")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// workManifest declares the work engine as one name in two versions: 1.0,
// and 1.3 doing 30% more work per state change (plus extra environment for
// both).
func workManifest(t *testing.T, bin string, env string) string {
	t.Helper()
	dir := t.TempDir()
	text := fmt.Sprintf(`
[[engines]]
name = "work"
version = "1.0"
command = %q
fixedWork = true
env = { VERSION = "1.0"%s }

[[engines]]
name = "work"
version = "1.3"
command = %q
fixedWork = true
env = { VERSION = "1.3", WORK = "1.3"%s }
`, bin, env, bin, env)
	p := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// abJSON runs gdlperf ab with --json and decodes its result.
func abJSON(t *testing.T, args ...string) (int, *abResult, string) {
	t.Helper()
	code, stdout, stderr := run(t, append([]string{"ab", "--json", "--skip-compat-check"}, args...)...)
	var res abResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), "stdout: %s\nstderr: %s", stdout, stderr)
	return code, &res, stderr
}

var abGames = "builtin:tictactoe,builtin:connectfour"

func TestABOptions(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"metric", []string{"--metric", "wall"}, `--metric "wall"`},
		{"one pair per look", []string{"--reps-per-look", "1"}, "at least 2"},
		{"budget under a look", []string{"--reps-per-look", "5", "--max-reps", "3"}, "budget of 3 pairs"},
		{"alpha", []string{"--alpha", "2"}, "alpha 2"},
		{"spending", []string{"--spending", "flat"}, `"flat"`},
		{"contended", []string{"--contended-below", "0"}, "--contended-below 0"},
		{"one argument", nil, "accepts 2 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"ab", "prover", "prover"}
			if tt.args == nil {
				args = args[:2]
			}
			code, _, stderr := run(t, append(args, tt.args...)...)
			assert.Equal(t, ExitUsage, code)
			assert.Contains(t, stderr, tt.wantErr)
		})
	}
	var got *ABOptions
	cmd := NewCmdAB(&IO{}, func(o *ABOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"tp@1.0", "tp@2.0", "--games", "builtin:hex"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "tp@1.0", got.Old)
	assert.Equal(t, "tp@2.0", got.New)
	assert.Equal(t, abMetricAuto, got.Metric)
	assert.Equal(t, 5.0, got.Threshold)
	assert.Equal(t, 20, got.MaxReps)
}

func TestParseEngineSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    engineSpec
		wantErr string
	}{
		{in: "prover", want: engineSpec{Name: "prover"}},
		{in: "tp@1.0", want: engineSpec{Name: "tp", Version: "1.0"}},
		{in: "prover@rev:HEAD~1", want: engineSpec{Name: "prover", Rev: "HEAD~1"}},
		{in: "@1", wantErr: "no name"},
		{in: "tp@", wantErr: "no version"},
		{in: "tp@rev:", wantErr: "no revision"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseEngineSpec(tt.in)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.in, got.String())
		})
	}
}

func TestSelectEngineVersions(t *testing.T) {
	manifest := workManifest(t, "/bin/true", "")
	prover, ok := engines.Lookup("prover")
	require.True(t, ok)
	tests := []struct {
		name    string
		names   []string
		wantIDs []string
		wantErr string
	}{
		{"two versions of one name", []string{"work@1.0", "work@1.3"}, []string{"work@1.0", "work@1.3"}, ""},
		{"the name is every version", []string{"work"}, []string{"work@1.0", "work@1.3"}, ""},
		{"once each", []string{"work", "work@1.3"}, []string{"work@1.0", "work@1.3"}, ""},
		{"a built-in by its version", []string{"prover@" + prover.Version}, []string{"prover@" + prover.Version}, ""},
		{"no such version", []string{"work@2.0"}, nil, "no version 2.0"},
		{"another built-in version", []string{"prover@0"}, nil, "@rev:REV"},
		{"a revision", []string{"prover@rev:HEAD"}, nil, "gdlperf ab only"},
		{"no such engine", []string{"nope"}, nil, `no engine "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := selectEngineVersions(tt.names, manifest)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			var ids []string
			for _, e := range got {
				ids = append(ids, e.ID())
			}
			assert.Equal(t, tt.wantIDs, ids)
		})
	}
	all, err := selectEngineVersions(nil, manifest)
	require.NoError(t, err)
	assert.Len(t, all, len(engines.List()), "no names: the built-in engines")
}

func assertEveryGame(t *testing.T, res *abResult, verdict string) {
	t.Helper()
	require.Len(t, res.Games, 2)
	for _, g := range res.Games {
		assert.Equal(t, verdict, g.Verdict, "%s: %+v", g.Game, g)
	}
}

// TestABFindsASlowDown: an engine variant doing 30% more work per state
// change is a regression on every game, exit 3, on a quiet machine and on
// one where a CPU hog runs beside it.
func TestABFindsASlowDown(t *testing.T) {
	bin := buildWorkEngine(t)
	manifest := workManifest(t, bin, "")
	for _, busy := range []bool{false, true} {
		t.Run(map[bool]string{false: "quiet", true: "busy"}[busy], func(t *testing.T) {
			if busy {
				hog := exec.Command(bin, "hog")
				require.NoError(t, hog.Start())
				t.Cleanup(func() {
					hog.Process.Signal(syscall.SIGKILL)
					hog.Wait()
				})
			}
			code, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", abGames, "--rollouts", "20")
			assert.Equal(t, ExitRegression, code, stderr)
			assertEveryGame(t, res, "slower")
			assert.Equal(t, "rollouts", res.Mode)
			assert.Equal(t, abMetricCPU, res.Metric, "auto: the work engine reports its CPU time")
			assert.Greater(t, res.Overall.Lo, 1.05)
			assert.Contains(t, stderr, "regression: 2 games slower")
			assert.NotContains(t, stderr, "same engine version")
		})
	}
}

// TestABUnchangedEngine: an engine against itself gets no regression
// verdict: no change (or, at worst, inconclusive; never slower).
func TestABUnchangedEngine(t *testing.T) {
	bin := buildWorkEngine(t)
	manifest := workManifest(t, bin, "")
	code, res, stderr := abJSON(t, "work@1.0", "work@1.0", "--manifest", manifest, "--games", abGames, "--rollouts", "20", "--max-reps", "10")
	assert.Contains(t, []int{ExitOK, ExitInconclusive}, code, stderr)
	assert.Contains(t, stderr, "warning: OLD and NEW are the same engine version, work@1.0")
	for _, g := range res.Games {
		assert.Contains(t, []string{"same", "inconclusive"}, g.Verdict, "%+v", g)
	}
	if code == ExitOK {
		assert.Equal(t, "no regression", res.Overall.Verdict)
	}
	// The text table says the same.
	code2, stdout, _ := run(t, "ab", "--skip-compat-check", "work@1.0", "work@1.0", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "20", "--max-reps", "5")
	assert.NotEqual(t, ExitRegression, code2)
	assert.Contains(t, stdout, "GAME ")
	assert.Contains(t, stdout, "BUILTIN/tictactoe/")
	assert.Contains(t, stdout, "overall: geometric mean ratio")
}

// TestABBudgetTooSmall: an engine whose two runs in a row differ by 5% to
// 82% (the work engine's JITTER_FILE) cannot be decided in 3 pairs: the
// inconclusive exit code, with the pairs needed.
func TestABBudgetTooSmall(t *testing.T) {
	bin := buildWorkEngine(t)
	counter := filepath.Join(t.TempDir(), "runs")
	manifest := workManifest(t, bin, fmt.Sprintf(", JITTER_FILE = %q", counter))
	code, res, stderr := abJSON(t, "work@1.0", "work@1.0", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "20",
		"--reps-per-look", "3", "--max-reps", "3")
	assert.Equal(t, ExitInconclusive, code, stderr)
	require.Len(t, res.Games, 1)
	for _, g := range res.Games {
		assert.Equal(t, "inconclusive", g.Verdict)
		assert.Equal(t, 3, g.Pairs)
		assert.Greater(t, g.PairsToUse, 3, "the pairs that would decide it")
		assert.Contains(t, g.Detail, fmt.Sprintf("about %d pairs would decide it (--max-reps %d)", g.PairsToUse, g.PairsToUse))
	}
	assert.Contains(t, stderr, "inconclusive: 1 game undecided within the budget")
	assert.Contains(t, stderr, "pairs per game would decide (--max-reps ")
}

// TestABContendedRuns: contended runs are left out, rerun and counted with
// --metric time; a game whose runs stay contended is inconclusive (busy).
func TestABContendedRuns(t *testing.T) {
	bin := buildWorkEngine(t)
	t.Run("rerun", func(t *testing.T) {
		counter := filepath.Join(t.TempDir(), "runs")
		// The two warm-up runs, then three contended runs.
		manifest := workManifest(t, bin, fmt.Sprintf(", CONTEND_RUNS = \"5\", CONTEND_FILE = %q", counter))
		code, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "40",
			"--metric", "time", "--contended-below", "0.05", "--reruns", "5", "--max-reps", "5")
		// Wall time on a loaded test machine may take more than a look to
		// decide: the verdict is not the point here.
		assert.Contains(t, []int{ExitRegression, ExitInconclusive}, code, stderr)
		require.Len(t, res.Games, 1)
		assert.Equal(t, 3, res.Games[0].Contended)
		assert.Equal(t, 5, res.Games[0].Pairs, "the contended runs are not pairs")
		assert.Equal(t, 3, strings.Count(stderr, "left out"))
	})
	t.Run("busy", func(t *testing.T) {
		counter := filepath.Join(t.TempDir(), "runs")
		manifest := workManifest(t, bin, fmt.Sprintf(", CONTEND_RUNS = \"1000\", CONTEND_FILE = %q", counter))
		code, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "40",
			"--metric", "time", "--contended-below", "0.05", "--reruns", "2")
		assert.Equal(t, ExitInconclusive, code, stderr)
		require.Len(t, res.Games, 1)
		assert.Equal(t, abBusy, res.Games[0].Verdict)
		assert.Equal(t, 3, res.Games[0].Contended)
		assert.Contains(t, stderr, "machine too busy")
	})
	t.Run("kept with the cpu metric", func(t *testing.T) {
		counter := filepath.Join(t.TempDir(), "runs")
		manifest := workManifest(t, bin, fmt.Sprintf(", CONTEND_RUNS = \"4\", CONTEND_FILE = %q", counter))
		code, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "40",
			"--metric", "cpu", "--contended-below", "0.05", "--max-reps", "5")
		// The CPU time of the fake contended runs is a fiftieth of their
		// time: the verdict is whatever it is, but the runs were kept.
		assert.Contains(t, []int{ExitRegression, ExitInconclusive, ExitOK}, code, stderr)
		require.Len(t, res.Games, 1)
		assert.Equal(t, 2, res.Games[0].Contended, "two of the pairs' runs (after the two warm-ups)")
		assert.Contains(t, stderr, "kept: the metric is CPU time")
	})
}

// TestABFailures: NEW failing where OLD does not is exit 4.
func TestABFailures(t *testing.T) {
	bin := buildWorkEngine(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf(`
[[engines]]
name = "work"
version = "1.0"
command = %q
fixedWork = true
env = { VERSION = "1.0" }

[[engines]]
name = "work"
version = "2.0"
command = %q
fixedWork = true
env = { VERSION = "2.0", WORK = "-1" }
`, bin, bin)), 0o644))
	code, res, stderr := abJSON(t, "work@1.0", "work@2.0", "--manifest", p, "--games", abGames, "--rollouts", "10", "--metric", "cpu")
	assert.Equal(t, ExitNewFailures, code, stderr)
	assertEveryGame(t, res, abBroken)
	assert.Contains(t, res.Games[0].Detail, "WORK=-1")
	assert.Contains(t, stderr, "2 games newly failing")
	// The other way round a game is fixed: no regression, and decided.
	code, res, stderr = abJSON(t, "work@2.0", "work@1.0", "--manifest", p, "--games", "builtin:tictactoe", "--rollouts", "10", "--metric", "cpu")
	assert.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, abFixed, res.Games[0].Verdict)
	// Two versions of one name need the version.
	code, _, stderr = run(t, "ab", "work", "work@1.0", "--manifest", p)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "name one as work@VERSION")
}

// TestABRevisions builds gdlperf at HEAD (once: both sides are the same
// commit, and a second ab reuses the build) and compares the prover with
// itself.
func TestABRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gdlperf from git HEAD (30-60 s)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	head := strings.TrimSpace(string(out))
	if err != nil || len(head) != 40 {
		t.Skip("not in a git repository with a commit")
	}
	// The commit, not HEAD, which others may move while it builds.
	rev := "prover@rev:" + head
	cache := t.TempDir()
	args := []string{rev, rev, "--build-cache", cache, "--games", "builtin:tictactoe",
		"--rollouts", "3", "--reps-per-look", "2", "--max-reps", "4"}
	code, res, stderr := abJSON(t, args...)
	assert.Contains(t, []int{ExitOK, ExitInconclusive}, code, stderr)
	assert.Equal(t, 1, strings.Count(stderr, "building gdlperf into"), "one build for both sides")
	assert.Contains(t, res.Old, rev+" (commit "+head[:12]+", prover@")
	assert.Equal(t, res.Old, res.New)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	require.Len(t, entries, 1, "one build, no source folder left behind")
	assert.Equal(t, head, entries[0].Name())
	_, err = os.Stat(filepath.Join(cache, head, "gdlperf"))
	require.NoError(t, err)
	_, _, stderr = abJSON(t, append(args, "--max-reps", "2")...)
	assert.Contains(t, stderr, "using the build in")
	assert.NotContains(t, stderr, "building gdlperf into")
}

// TestABTimeMode: an engine that does not take --rollouts is run for
// --seconds, and its figure is per state change.
func TestABTimeMode(t *testing.T) {
	bin := buildWorkEngine(t)
	manifest := workManifest(t, bin, "")
	b, err := os.ReadFile(manifest)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(manifest, []byte(strings.ReplaceAll(string(b), "fixedWork = true", "fixedWork = false")), 0o644))
	code, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", "builtin:tictactoe",
		"--seconds", "1", "--reps-per-look", "2", "--max-reps", "2", "--rollouts", "5")
	assert.Contains(t, []int{ExitRegression, ExitInconclusive}, code, stderr)
	assert.Contains(t, stderr, "does not take --rollouts")
	assert.Equal(t, "time", res.Mode)
	require.Len(t, res.Games, 1)
	assert.Equal(t, 2, res.Games[0].Pairs)
	assert.Zero(t, res.Games[0].Rollouts)
	assert.Greater(t, res.Games[0].Ratio, 1.0, "30% more work per state change")
}

// TestABSave: --save appends every run's row, warm-ups and contended
// reruns included, each side under its own version.
func TestABSave(t *testing.T) {
	bin := buildWorkEngine(t)
	counter := filepath.Join(t.TempDir(), "runs")
	manifest := workManifest(t, bin, fmt.Sprintf(", CONTEND_RUNS = \"3\", CONTEND_FILE = %q", counter))
	file := filepath.Join(t.TempDir(), "ab.csv")
	_, res, stderr := abJSON(t, "work@1.0", "work@1.3", "--manifest", manifest, "--games", "builtin:tictactoe", "--rollouts", "40",
		"--reps-per-look", "2", "--max-reps", "2", "--metric", "time", "--contended-below", "0.05", "--save", file)
	require.Len(t, res.Games, 1)
	require.Equal(t, 2, res.Games[0].Pairs, stderr)
	rows, err := results.Load(file)
	require.NoError(t, err)
	// 2 warm-ups, 2 pairs, and the contended reruns.
	assert.Len(t, rows, 2+4+res.Games[0].Contended)
	versions := map[string]int{}
	contended := 0
	for _, r := range rows {
		versions[r.Engine+"@"+r.EngineVersion]++
		if r.Contended {
			contended++
		}
	}
	assert.Equal(t, len(rows), versions["work@1.0"]+versions["work@1.3"], "each row is of one side's version: %v", versions)
	assert.GreaterOrEqual(t, versions["work@1.0"], 3)
	assert.GreaterOrEqual(t, versions["work@1.3"], 3)
	// The first 3 runs report contention: the 2 warm-ups (not rerun) and
	// one run of the first pair (rerun).
	assert.Equal(t, 1, res.Games[0].Contended)
	assert.Equal(t, 3, contended)
}

// TestABInstructions: with --metric instructions, a 3% slow-down of a
// fixed-work engine (harness/testdata/instrengine, WORK=1.03) is a
// regression at the 1% threshold, decided in the first look, and the engine
// against itself is the same. Counted under Valgrind (or perf), so slow:
// not in -short.
func TestABInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("counts instructions under Valgrind (about a minute); make test-all runs it")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if _, err := os.Stat("/sys/bus/event_source/devices/cpu"); err != nil {
			t.Skip("no instruction counter here: valgrind is not installed and there are no hardware counters")
		}
	}
	bin := filepath.Join(t.TempDir(), "instrengine")
	out, err := exec.Command("go", "build", "-o", bin, "../../../harness/testdata/instrengine").CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[[engines]]
name = "instr"
version = "1.0"
command = %q
fixedWork = true
env = { ITERATIONS = "20000" }

[[engines]]
name = "instr"
version = "1.03"
command = %q
fixedWork = true
env = { ITERATIONS = "20000", WORK = "1.03" }
`, bin, bin)), 0o644))
	args := []string{"--manifest", manifest, "--games", "builtin:tictactoe", "--metric", "instructions", "--rollouts", "50", "--reps-per-look", "2", "--max-reps", "4"}
	code, res, stderr := abJSON(t, append([]string{"instr@1.0", "instr@1.03"}, args...)...)
	require.Equal(t, ExitRegression, code, stderr)
	assert.Equal(t, abMetricInstructions, res.Metric)
	assert.Equal(t, 1.0, res.Threshold, "the default threshold of counts")
	require.Len(t, res.Games, 1)
	assert.Equal(t, "slower", res.Games[0].Verdict)
	assert.Equal(t, 1, res.Games[0].Look, "decided at the first look")
	assert.InDelta(t, 1.03, res.Games[0].Ratio, 0.01)
	assert.Contains(t, stderr, "counting instructions with")

	code, res, stderr = abJSON(t, append([]string{"instr@1.0", "instr@1.0"}, args...)...)
	require.Equal(t, ExitOK, code, stderr)
	require.Len(t, res.Games, 1)
	assert.Equal(t, "same", res.Games[0].Verdict)
}
