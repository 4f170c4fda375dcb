package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// fastManifest writes an engines.toml naming "fast", an external engine in
// the style of gdl-perf's start_perf_test.sh that answers at once.
func fastManifest(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "start_perf_test.sh")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
GAME_FILE="$1"; RESULT_FILE="$2"; SECS="$3"
test -s "$GAME_FILE" || exit 9
sleep "$3"; printf 'version = 0.1\nmillisecondsTaken = %d\nnumStateChanges = 700\nnumRollouts = 70\n' "$(($3*1000))" > "$RESULT_FILE"
`), 0o755))
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(`[[engines]]
name = "fast"
version = "0.1"
command = "./start_perf_test.sh"
`), 0o644))
	return manifest
}

func TestShardFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantOK  bool
		wantErr string
	}{
		{name: "nothing", env: nil},
		{name: "array 0-3", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, want: "2/4", wantOK: true},
		{name: "array 5-8", env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, want: "0/4", wantOK: true},
		{name: "array 1-7:2", env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, want: "2/4", wantOK: true},
		{name: "no step: 1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, want: "3/4", wantOK: true},
		{name: "count from max", env: map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_STEP": "2"}, want: "3/4", wantOK: true},
		// As Slurm 22.05 sets them for --array=0,2,5: not evenly spaced.
		{name: "list 0,2,5", env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "5", "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, wantErr: "not evenly spaced"},
		{name: "id off the step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, wantErr: "not one of 4 tasks"},
		{name: "id below min", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, wantErr: "not one of"},
		{name: "garbage id", env: map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, wantErr: `SLURM_ARRAY_TASK_ID="x" is not a number`},
		{name: "no count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, wantErr: "give --shard"},
		{name: "zero step", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_STEP": "0", "SLURM_ARRAY_TASK_COUNT": "2"}, wantErr: "not positive"},
		{name: "kubernetes", env: map[string]string{"JOB_COMPLETION_INDEX": "3", "GDLPERF_SHARDS": "5"}, want: "3/5", wantOK: true},
		{name: "kubernetes without GDLPERF_SHARDS", env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, wantErr: "GDLPERF_SHARDS"},
		{name: "kubernetes index too big", env: map[string]string{"JOB_COMPLETION_INDEX": "5", "GDLPERF_SHARDS": "5"}, wantErr: "not below"},
		{name: "slurm first", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "0", "GDLPERF_SHARDS": "3"}, want: "1/2", wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := shardFromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// The shard read from Slurm's variables is the one --shard names, and an
// explicit --shard wins.
func TestRunShardFromSlurmEnv(t *testing.T) {
	args := []string{"run", "--games", "builtin", "--engines", "prover", "--dry-run"}
	_, want, _ := run(t, append(args, "--shard", "1/4")...)
	t.Setenv("SLURM_ARRAY_TASK_ID", "5")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "4")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "7")
	t.Setenv("SLURM_ARRAY_TASK_STEP", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
	code, got, stderr := run(t, args...)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, want, got)
	_, explicit, _ := run(t, append(args, "--shard", "0/1")...)
	assert.NotEqual(t, want, explicit)
	t.Setenv("SLURM_ARRAY_TASK_ID", "9")
	code, _, stderr = run(t, args...)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "SLURM_ARRAY_TASK_ID=9")
}

func TestSlurmScript(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "campaign.sbatch")
	code, stdout, stderr := run(t, "slurm", "--shards", "3", "--games", "builtin:tictactoe,builtin:hex", "--engines", "prover",
		"--seconds", "30", "--reps", "2", "--results", "res dir", "--sbatch=--partition=bench", "--gdlperf", "/opt/gdlperf/bin/gdlperf", "--out", out)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "1 of the 3 shards have no runs")
	assert.Contains(t, stderr, "sbatch "+out)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	s := string(b)
	st, _ := os.Stat(out)
	assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())
	assert.True(t, strings.HasPrefix(s, "#!/bin/bash\n"))
	for _, want := range []string{
		"#SBATCH --array=0-2\n",
		"#SBATCH --job-name=gdlperf\n",
		"#SBATCH --partition=bench\n",
		"#SBATCH --time=0-00:12:04\n", // 2 runs of 31 s, twice, and 10 minutes
		"exec /opt/gdlperf/bin/gdlperf run --shard \"${SLURM_ARRAY_TASK_ID}/3\"",
		"--engines=prover", "--games=builtin:tictactoe,builtin:hex", "--reps=2", "--seconds=30", "'--results=res dir'", "--seed=1",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "--shards")
	assert.NotContains(t, s, "--out=")
	// bash reads it.
	require.NoError(t, exec.Command("bash", "-n", out).Run())

	// Printed without --out; bad run flags fail here, not on the nodes.
	code, stdout, _ = run(t, "slurm", "--shards", "2", "--engines", "prover")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "#SBATCH --array=0-1\n")
	code, _, stderr = run(t, "slurm", "--shards", "2", "--engines", "nosuch")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "nosuch")
	code, _, _ = run(t, "slurm", "--engines", "prover")
	assert.Equal(t, ExitUsage, code, "--shards is required")

	// A node of the cluster runs --jobs engine processes: one CPU each.
	code, stdout, _ = run(t, "slurm", "--shards", "2", "--engines", "prover", "--jobs", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "#SBATCH --cpus-per-task=4\n")
	assert.Contains(t, stdout, "--jobs=4")
	code, stdout, _ = run(t, "slurm", "--shards", "2", "--engines", "prover", "--jobs", "0")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "#SBATCH --exclusive\n")
}

type runID struct {
	key, game, engine string
	rep               int
	seed              uint64
}

func runIDs(rows []results.Row) []runID {
	var out []runID
	for _, r := range rows {
		out = append(out, runID{r.RunKey, r.GameKey, r.Engine, r.Repetition, r.Seed})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// TestSlurmArray runs the script gdlperf slurm wrote as a job array of 4
// shards, merges the shards' files and checks that they hold the runs of
// one unsharded campaign with the same seed. By default the array is
// simulated: the 4 tasks are started at once with bash and Slurm's
// variables. With GDLPERF_SLURM=1 the script goes to a real Slurm
// (sbatch --wait); harness/testdata/slurm-ci.sh starts a one-node cluster.
func TestSlurmArray(t *testing.T) {
	real := os.Getenv("GDLPERF_SLURM") == "1"
	dir := t.TempDir()
	manifest := fastManifest(t)
	shardDir := filepath.Join(dir, "shards")
	flags := []string{"--engines", "fast,prover", "--manifest", manifest, "--seconds", "1", "--seed", "42",
		"--games", "builtin:tictactoe,builtin:racetotwentyone,builtin:rockpaperscissors,builtin:threeplayerlines,builtin:eightpuzzle"}
	script := filepath.Join(dir, "campaign.sbatch")
	code, _, stderr := run(t, append([]string{"slurm", "--shards", "4", "--results", shardDir, "--out", script, "--sbatch=--output=" + filepath.Join(dir, "slurm-%A_%a.out")}, flags...)...)
	require.Equal(t, 0, code, stderr)

	start := time.Now()
	if real {
		if _, err := exec.LookPath("sbatch"); err != nil {
			t.Fatal("GDLPERF_SLURM=1 but there is no sbatch")
		}
		cmd := exec.Command("sbatch", "--wait", script)
		cmd.Env = append(os.Environ(), "GDLPERF_TEST_AS_MAIN=1")
		out, err := cmd.CombinedOutput()
		t.Logf("sbatch: %s", out)
		logs, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", filepath.Base(l), b)
		}
		require.NoError(t, err)
		require.Len(t, logs, 4, "one log per array task")
	} else {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		outs := make([][]byte, 4)
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command("bash", script)
				cmd.Env = append(os.Environ(), "GDLPERF_TEST_AS_MAIN=1", "SLURM_ARRAY_JOB_ID=99",
					fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=3",
					"SLURM_ARRAY_TASK_STEP=1", "SLURM_ARRAY_TASK_COUNT=4")
				outs[i], errs[i] = cmd.CombinedOutput()
			}()
		}
		wg.Wait()
		for i := range errs {
			require.NoError(t, errs[i], "shard %d: %s", i, outs[i])
		}
	}
	t.Logf("the array took %v", time.Since(start).Round(time.Millisecond))

	files, err := filepath.Glob(filepath.Join(shardDir, "*.csv"))
	require.NoError(t, err)
	assert.Len(t, files, 4, "one file per shard")
	merged := filepath.Join(dir, "merged.csv")
	code, stdout, stderr := run(t, "results", "merge", shardDir, "--out", merged)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "no missing cells")
	got, err := results.Load(merged)
	require.NoError(t, err)
	gameShard := map[string]string{}
	for _, r := range got {
		assert.Equal(t, results.StatusOK, r.Status, "%s on %s: %s", r.Engine, r.GameKey, r.ErrorMessage)
		assert.Regexp(t, `^[0-3]/4$`, r.Shard)
		if s, ok := gameShard[r.GameKey]; ok {
			assert.Equal(t, s, r.Shard, "every engine of one game on one shard")
		}
		gameShard[r.GameKey] = r.Shard
	}

	// One unsharded campaign with the same seed.
	single := filepath.Join(dir, "single")
	code, _, stderr = run(t, append([]string{"run", "--results", single}, flags...)...)
	require.Equal(t, 0, code, stderr)
	want, _, err := results.LoadDir(single)
	require.NoError(t, err)
	require.Len(t, want, 10)
	assert.Equal(t, runIDs(want), runIDs(got))
}
