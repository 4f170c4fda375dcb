package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/harness"
	"github.com/gdlperf/gdlperf/results"
)

// engine run --workload runs a search instead of rollouts and writes its
// answer: minimax to full depth finds tic-tac-toe a draw, for every engine
// that runs in this process and for the compiled prover, whose program
// runs the search itself.
func TestEngineRunWorkload(t *testing.T) {
	for _, engine := range []string{"prover", "tupleprover", "propnet", "compiled"} {
		t.Run(engine, func(t *testing.T) {
			result := filepath.Join(t.TempDir(), "result.txt")
			code, _, stderr := run(t, "engine", "run", engine, "builtin:tictactoe", result, "120", "--workload", "minimax", "--depth", "9")
			require.Equal(t, 0, code, stderr)
			b, err := os.ReadFile(result)
			require.NoError(t, err)
			res, garbage := protocol.Parse(string(b))
			require.Empty(t, garbage)
			get := func(k string) string {
				v, _ := res.Get(protocol.Key(k))
				return v
			}
			assert.Equal(t, "minimax", get("workload"))
			assert.Equal(t, "50", get("value"), "tic-tac-toe is a draw")
			assert.Equal(t, "18297", get("numNodes"), "every correct engine searches the same tree")
			assert.NotEmpty(t, get("millisecondsTaken"))
		})
	}
	result := filepath.Join(t.TempDir(), "result.txt")
	code, _, _ := run(t, "engine", "run", "prover", "builtin:tictactoe", result, "10", "--workload", "nosuch")
	assert.NotEqual(t, 0, code)
	b, _ := os.ReadFile(result)
	assert.Contains(t, string(b), "errorMessage = ")
	assert.Contains(t, string(b), "no workload")
}

// gdlperf run --workloads passes --workload and its budget to the engines
// that declare it: an external engine from a manifest (here the built-in
// prover through its own command line) does the same search as the
// built-in one, and an engine that declares no workloads is skipped for
// them with the reason, never run in the wrong mode.
func TestRunWorkloadsExternalEngines(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[[engines]]
name = "extprover"
version = "1"
command = [%q, "engine", "run", "prover"]
env = { GDLPERF_TEST_AS_MAIN = "1" }
workloads = ["minimax"]

[[engines]]
name = "plain"
version = "1"
command = [%q, "engine", "run", "prover"]
env = { GDLPERF_TEST_AS_MAIN = "1" }
`, exe, exe)), 0o644))
	res := filepath.Join(dir, "results")
	code, _, stderr := run(t, "run", "--games", "builtin:tictactoe", "--engines", "prover,extprover,plain", "--manifest", manifest,
		"--workloads", "rollouts,minimax", "--minimax-depth", "2", "--seconds", "1", "--skip-compat-check", "--results", res)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "skipping workload minimax for engine plain: it does not run it")
	assert.Contains(t, stderr, "1 skipped: workload not run by the engine")
	rows, _, err := results.LoadDir(res)
	require.NoError(t, err)
	got := map[string]results.Row{}
	for _, r := range rows {
		assert.Equal(t, results.StatusOK, r.Status, "%s %s: %s", r.Engine, r.Workload, r.ErrorMessage)
		got[r.Engine+"/"+r.WorkloadName()] = r
	}
	assert.Len(t, rows, 5, "3 engines' rollouts, 2 engines' minimax")
	builtin, ext := got["prover/minimax"], got["extprover/minimax"]
	require.NotZero(t, builtin.StateChanges)
	assert.Equal(t, builtin.StateChanges, ext.StateChanges, "the same search")
	assert.Equal(t, "depth=2", builtin.WorkloadBudget)
	assert.NotEqual(t, got["prover/rollouts"].RunKey, builtin.RunKey)
}

// check --methods workload compares the engine process's search answers
// with the reference's: the tuple prover agrees; a prover that drops a
// legal move searches another tree, and the mismatch says which workload
// differed and how to reproduce it.
func TestCheckWorkload(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := run(t, "check", "--engines", "tupleprover", "--games", "builtin:racetotwentyone", "--methods", "workload", "--budget", "20s", "--results", dir)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Regexp(t, `tupleprover\s+1\s+0\s+0\s+0`, stdout)
	assert.Contains(t, stderr, "agreed on uct iterations=2000, pns nodes=100000, minimax depth=3")
	// Other budgets are a check of their own, not the one stored.
	code, stdout, stderr = run(t, "check", "--engines", "tupleprover", "--games", "builtin:racetotwentyone", "--methods", "workload", "--budget", "20s", "--results", dir,
		"--uct-iterations", "50", "--pns-nodes", "500", "--minimax-depth", "2")
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stderr, "agreed on uct iterations=50, pns nodes=500, minimax depth=2")
	code, stdout, stderr = run(t, "check", "--engines", "tupleprover", "--games", "builtin:racetotwentyone", "--methods", "workload", "--results", dir, "--uct-iterations", "0")
	assert.Equal(t, ExitUsage, code, stdout+stderr)
	assert.Contains(t, stderr, "must be above 0")

	broken := "prover-" + enginetest.DropLegal
	code, stdout, stderr = run(t, "check", "--engines", broken, "--games", "builtin:tictactoe", "--methods", "workload", "--budget", "20s", "--results", dir)
	require.Equal(t, ExitFailure, code, stdout+stderr)
	assert.Contains(t, stdout, "MISMATCH "+broken)
	assert.Contains(t, stdout, "reproduce: gdlperf engine run "+broken)
	assert.Contains(t, stdout, "--workload uct --iterations 2000")
	// Its SECONDS is the most wall time the check gives a run that works
	// (10 times the 2 minutes of CPU a workload may take: one at under a
	// tenth of a CPU is stopped as waiting), not a tighter bound on a busy
	// machine.
	assert.Contains(t, stdout, "result.txt 1200 --workload uct")
}

// A workload that cannot be checked does not hide the others: an external
// engine (the built-in prover through its command line) whose pns fails is
// an error for pns, and its uct and minimax are still compared, and agree.
func TestCheckWorkloadOneFails(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
if [ "$2" = pns ]; then
	eval "result=\${$(($# - 1))}"
	echo "errorMessage = pns is not built yet" > "$result"
	exit 1
fi
exec "$GDLPERF_EXE" engine run prover "$@"
`), 0o755))
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[[engines]]
name = "nopns"
version = "1"
command = [%q]
env = { GDLPERF_TEST_AS_MAIN = "1", GDLPERF_EXE = %q }
workloads = ["uct", "pns", "minimax"]
`, script, exe)), 0o644))
	code, stdout, stderr := run(t, "check", "--engines", "nopns", "--manifest", manifest, "--games", "builtin:racetotwentyone", "--methods", "workload",
		"--budget", "20s", "--results", filepath.Join(dir, "results"), "--uct-iterations", "50", "--pns-nodes", "500", "--minimax-depth", "2")
	require.Equal(t, ExitFailure, code, stdout+stderr)
	assert.Regexp(t, `nopns\s+0\s+0\s+1\s+0`, stdout)
	assert.Contains(t, stderr, "workload pns: the engine fails: pns is not built yet; agreed on uct iterations=50, minimax depth=2")
}

// --reference-time bounds the reference's search, in CPU time: one that is
// not done in time is an error of the check, which says so, and the next
// workload is still checked.
func TestCheckWorkloadReferenceTime(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := run(t, "check", "--engines", "tupleprover", "--games", "builtin:connectfour", "--methods", "workload", "--results", dir,
		"--budget", "1ms", "--reference-time", "2s", "--uct-iterations", "100000", "--pns-nodes", "1000000", "--minimax-depth", "1")
	require.Equal(t, ExitFailure, code, stdout+stderr)
	rows, err := results.LoadCheckRows(dir)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, results.VerdictError, rows[0].Verdict)
	assert.Contains(t, rows[0].Detail, "workload uct: the reference: workload uct with iterations=100000 took longer than 2s of CPU time")
	assert.Contains(t, rows[0].Detail, "agreed on minimax depth=1")
	assert.Contains(t, rows[0].Detail, "gdlperf check --reference-time raises it", "the message says what to do")
	// The summary lists the check that failed, and why.
	assert.Regexp(t, `FAILED: 1 check gave no verdict .*\n  tupleprover on BUILTIN/connectfour/\S+ \(workload\): workload uct: the reference: workload uct with iterations=100000 took longer`, stdout)

	code, stdout, _ = run(t, "check", "--engines", "tupleprover", "--games", "builtin:connectfour", "--methods", "workload", "--results", dir,
		"--budget", "1ms", "--reference-time", "2s", "--uct-iterations", "100000", "--pns-nodes", "1000000", "--minimax-depth", "1", "--json")
	require.Equal(t, ExitFailure, code)
	var rep CheckReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	require.Len(t, rep.Failures, 1)
	assert.Equal(t, "tupleprover", rep.Failures[0].Engine)
	assert.Equal(t, "workload", rep.Failures[0].Method)
	assert.Contains(t, rep.Failures[0].Detail, "workload uct: the reference: workload uct with iterations=100000 took longer than 2s of CPU time", "the stored verdict")
}

// An interrupted check does not wait for the reference's search to end:
// Ctrl-C during a reference's long uct returns at once, interrupted, and
// the reference's process is gone; a later check computes the reference
// again rather than taking the interrupted one's "answer".
func TestCheckWorkloadInterruptedReference(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	ref, ok := engines.Lookup("prover")
	require.True(t, ok)
	g, err := harness.BuiltinGame("connectfour")
	require.NoError(t, err)
	work := t.TempDir()
	c := &harness.Checker{Exe: exe, Reference: ref, Budget: time.Millisecond, ReferenceTime: time.Minute, Seed: 1,
		Methods: []string{harness.MethodWorkload}, WorkDir: work,
		Workloads: []harness.Dims{{Workload: "uct", Budget: "iterations=1000000000"}}}
	e := &harness.Engine{Name: "never-run", Version: "1", Command: []string{"false"}, Workloads: []string{"uct"}}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	rows := c.Check(ctx, e, g)
	assert.Less(t, time.Since(start), 3*time.Second, "long before the reference's limit")
	require.Len(t, rows, 1)
	assert.Equal(t, results.VerdictError, rows[0].Verdict)
	assert.Equal(t, "interrupted", rows[0].Detail)
	assert.Eventually(t, func() bool { return len(processesNaming(t, work)) == 0 }, 5*time.Second, 50*time.Millisecond,
		"the reference's process is killed: %v", processesNaming(t, work))

	c.ReferenceTime = time.Second
	rows = c.Check(context.Background(), e, g)
	require.Len(t, rows, 1)
	assert.Equal(t, results.VerdictError, rows[0].Verdict)
	assert.Contains(t, rows[0].Detail, "took longer than 1s of CPU time (in", "computed again, to its new limit")
}

// processesNaming lists the command lines of the processes that name s.
func processesNaming(t *testing.T, s string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []string
	for _, ent := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// engine list --json lists every engine with what CI needs to know of it.
func TestEngineListJSON(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte("[[engines]]\nname = \"ext\"\nversion = \"2.1\"\ncommand = [\"./run.sh\", \"-x\"]\nworkloads = [\"uct\"]\n"), 0o644))
	code, stdout, stderr := run(t, "engine", "list", "--manifest", manifest, "--json")
	require.Equal(t, 0, code, stderr)
	var list []EngineListing
	require.NoError(t, json.Unmarshal([]byte(stdout), &list), stdout)
	byName := map[string]EngineListing{}
	for _, e := range list {
		byName[e.Name] = e
	}
	p := byName["prover"]
	assert.Equal(t, "built-in", p.Kind)
	assert.Regexp(t, `^1-[0-9a-f]{10}$`, p.Version)
	assert.True(t, p.Trace)
	assert.Contains(t, p.Workloads, "minimax")
	x := byName["ext"]
	assert.Equal(t, "external", x.Kind)
	assert.Equal(t, "2.1", x.Version)
	assert.Equal(t, []string{"rollouts", "uct"}, x.Workloads)
	assert.Equal(t, []string{filepath.Join(dir, "run.sh"), "-x"}, x.Command)
	assert.Nil(t, x.Check)
}

// A budget of 0 makes uct and pns timed: the run searches for --seconds
// (the engine gets SECONDS of the campaign, not the fixed-work bound; a
// pns that proves the game stops early) and its budget column says
// iterations=0, a cell of its own.
func TestRunTimedWorkloads(t *testing.T) {
	res := filepath.Join(t.TempDir(), "results")
	code, _, stderr := run(t, "run", "--games", "builtin:tictactoe", "--engines", "tupleprover",
		"--workloads", "uct,pns,minimax", "--uct-iterations", "0", "--pns-nodes", "0", "--minimax-depth", "0", "--seconds", "1", "--results", res)
	require.Equal(t, 0, code, stderr)
	rows, _, err := results.LoadDir(res)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	for _, r := range rows {
		require.Equal(t, results.StatusOK, r.Status, "%s: %s", r.Workload, r.ErrorMessage)
		assert.Contains(t, []string{"iterations=0", "nodes=0", "depth=0 role=xplayer", "depth=0"}, r.WorkloadBudget)
		assert.Equal(t, 1, r.TargetSeconds)
		assert.LessOrEqual(t, r.MillisecondsTaken, int64(1600), "%s searched for at most its second", r.Workload)
		if r.Workload == "uct" {
			assert.InDelta(t, 1000, r.MillisecondsTaken, 600, "uct searched for its second, not to a budget")
		}
		assert.NotZero(t, r.StateChanges)
	}
	code, _, stderr = run(t, "run", "--games", "builtin:tictactoe", "--engines", "tupleprover",
		"--workloads", "minimax", "--minimax-depth", "-1", "--results", res)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "needs a budget of 0 or more")
}

// A workload check at budgets of its own (a corpus sweep's small ones)
// that agrees is ok in the summary and the exit status, as one at the
// default budgets is: the summary looks the verdicts up by their own key
// (it took them for missing, so failed, and exited 1).
func TestCheckWorkloadOwnBudgetsOK(t *testing.T) {
	dir := t.TempDir()
	args := []string{"check", "--engines", "tupleprover", "--games", "builtin:tictactoe", "--methods", "workload",
		"--uct-iterations", "50", "--pns-nodes", "500", "--minimax-depth", "2", "--budget", "20s", "--results", dir}
	code, stdout, stderr := run(t, args...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Regexp(t, `tupleprover\s+1\s+0\s+0\s+0`, stdout)
	// Resumed: the verdict is found, not checked again.
	code, stdout, stderr = run(t, args...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Regexp(t, `tupleprover\s+1\s+0\s+0\s+0`, stdout)
	rows, err := results.LoadCheckRows(dir)
	require.NoError(t, err)
	assert.Len(t, rows, 1)
}
