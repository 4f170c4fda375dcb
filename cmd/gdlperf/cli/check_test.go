package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/results"
)

// The broken variants of the prover are built-in engines of the test
// binary, which stands in for gdlperf in child processes (see TestMain).
func init() {
	ref, _ := engines.Lookup(prover.Name)
	for _, kind := range enginetest.BrokenKinds {
		engines.Register(enginetest.BrokenEngine(kind, ref))
	}
}

func TestCheckCatchesBrokenEngines(t *testing.T) {
	tests := []struct {
		kind, game, method string
		wantDetail         string
	}{
		{enginetest.DropLegal, "builtin:tictactoe", "trace", "legal moves of role 0 missing (mark 1 1)"},
		{enginetest.KeepFact, "builtin:tictactoe", "trace", "state extra (cell"},
		{enginetest.WrongGoal, "builtin:tictactoe", "exhaustive", "goals: reference"},
		{enginetest.DropLegal, "builtin:rockpaperscissors", "metamorphic", "legal moves of role"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.method, func(t *testing.T) {
			dir := t.TempDir()
			engine := "prover-" + tt.kind
			code, stdout, stderr := run(t, "check", "--engines", engine, "--games", tt.game, "--methods", tt.method, "--budget", "2s", "--results", dir)
			require.Equal(t, ExitFailure, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Contains(t, stdout, "MISMATCH "+engine)
			assert.Contains(t, stdout, tt.wantDetail)
			rows, err := results.LoadCheckRows(dir)
			require.NoError(t, err)
			require.Len(t, rows, 1)
			assert.Equal(t, results.VerdictMismatch, rows[0].Verdict)

			// The printed command reproduces the mismatch at the same place.
			m := regexp.MustCompile(`reproduce: gdlperf (.*)`).FindStringSubmatch(stdout)
			require.Len(t, m, 2)
			args := append(strings.Fields(m[1]), "--results", t.TempDir(), "--again")
			code, again, _ := run(t, args...)
			assert.Equal(t, ExitFailure, code)
			assert.Contains(t, again, tt.wantDetail)
			step := regexp.MustCompile(`step \d+`).FindString(stdout)
			assert.Contains(t, again, step)
		})
	}
}

func TestCheckResumesAndPasses(t *testing.T) {
	dir := t.TempDir()
	args := []string{"check", "--engines", "prover", "--games", "builtin:tictactoe", "--budget", "1s", "--results", dir}
	code, stdout, stderr := run(t, args...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Regexp(t, `prover\s+1\s+0\s+0\s+0`, stdout)
	rows, err := results.LoadCheckRows(dir)
	require.NoError(t, err)
	assert.Len(t, rows, 3)
	code, stdout, stderr = run(t, args...)
	require.Equal(t, 0, code)
	assert.NotContains(t, stderr, "trace: ok", "nothing checked twice")
	assert.Contains(t, stderr, "1 of 1 engine and game pairs were checked before")
	assert.Regexp(t, `prover\s+1\s+0\s+0\s+0`, stdout, "the summary counts what was checked before")
	rows, _ = results.LoadCheckRows(dir)
	assert.Len(t, rows, 3)
}

// A resumed check skips the pairs that failed before (a time-out may have
// cost minutes), says so, and still lists and counts them; --retry-failed
// checks them again.
func TestCheckResumeSkipsFailedUnlessRetry(t *testing.T) {
	dir := t.TempDir()
	args := []string{"check", "--engines", namesOnly, "--games", "builtin:tictactoe", "--methods", "transforms", "--budget", "2s", "--results", dir}
	code, _, _ := run(t, args...)
	require.Equal(t, ExitFailure, code)
	code, stdout, stderr := run(t, args...)
	assert.Equal(t, ExitFailure, code, stdout+stderr)
	assert.Contains(t, stderr, "1 of 1 engine and game pairs were checked before (verdicts in "+filepath.Join(dir, "check")+"; --again checks them again, 1 of them failed: --retry-failed checks those again)")
	assert.Regexp(t, namesOnly+`\s+0\s+0\s+1\s+0`, stdout)
	assert.Contains(t, stdout, "FAILED: 1 check gave no verdict")
	rows, err := results.LoadCheckRows(dir)
	require.NoError(t, err)
	assert.Len(t, rows, 1, "not checked again")

	code, _, stderr = run(t, append(args, "--retry-failed")...)
	assert.Equal(t, ExitFailure, code)
	assert.NotContains(t, stderr, "checked before")
	rows, err = results.LoadCheckRows(dir)
	require.NoError(t, err)
	assert.Len(t, rows, 2, "checked again")
}

// A mismatch found before an interruption is still in the summary and the
// exit status of the resumed check.
func TestCheckResumedKeepsMismatches(t *testing.T) {
	dir := t.TempDir()
	engine := "prover-" + enginetest.DropLegal
	args := []string{"check", "--engines", engine, "--games", "builtin:tictactoe", "--methods", "trace", "--budget", "1s", "--results", dir}
	code, _, _ := run(t, args...)
	require.Equal(t, ExitFailure, code)
	code, stdout, stderr := run(t, args...)
	assert.Equal(t, ExitFailure, code, stdout+stderr)
	assert.Contains(t, stdout, "MISMATCH "+engine)
	assert.Regexp(t, engine+`\s+0\s+1\s+0\s+0`, stdout)
}

// Pairs checked at once (--jobs) give the verdicts of one at a time.
func TestCheckJobs(t *testing.T) {
	verdicts := func(jobs string) map[string]string {
		dir := t.TempDir()
		code, stdout, stderr := run(t, "check", "--jobs", jobs, "--engines", "prover,prover-"+enginetest.KeepFact,
			"--games", "builtin:tictactoe,builtin:rockpaperscissors,builtin:racetotwentyone", "--methods", "trace,exhaustive", "--budget", "1s", "--results", dir)
		require.Equal(t, ExitFailure, code, stdout+stderr)
		rows, err := results.LoadCheckRows(dir)
		require.NoError(t, err)
		require.Len(t, rows, 12)
		out := map[string]string{}
		for _, r := range rows {
			out[r.CheckKey] = r.Verdict
		}
		return out
	}
	one := verdicts("1")
	assert.Equal(t, one, verdicts("3"))
	mismatches := 0
	for _, v := range one {
		if v == results.VerdictMismatch {
			mismatches++
		}
	}
	assert.Positive(t, mismatches, "the broken engine is caught")
	code, _, stderr := run(t, "check", "--jobs", "0", "--results", t.TempDir())
	assert.Equal(t, ExitUsage, code, stderr)
}

// Blacklisted games are left out of a check as they are of a run, unless
// --include-blacklisted.
func TestCheckSkipsBlacklisted(t *testing.T) {
	tic, _ := gamerepo.Builtin("tictactoe")
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("blacklist.txt", []byte(tic.Key+";a test\n"), 0o644))
	args := []string{"check", "--engines", "prover", "--games", "builtin:tictactoe,builtin:rockpaperscissors", "--methods", "trace", "--budget", "1s", "--results", filepath.Join(dir, "res")}
	code, stdout, stderr := run(t, args...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stderr, "skipping 1 blacklisted game")
	assert.Regexp(t, `prover\s+1\s+0\s+0\s+0`, stdout)
	args[len(args)-1] = filepath.Join(dir, "res2")
	code, stdout, stderr = run(t, append(args, "--include-blacklisted")...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Regexp(t, `prover\s+2\s+0\s+0\s+0`, stdout)

	// A file named by path has a LOCAL key of its own; with the rules of a
	// blacklisted game it is skipped too, the reason naming that game.
	require.NoError(t, os.WriteFile("mine.kif", tic.Rules, 0o644))
	code, stdout, stderr = run(t, "check", "--engines", "prover", "--games", "mine.kif", "--methods", "trace", "--budget", "1s", "--results", filepath.Join(dir, "res4"))
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stderr, "skipping 1 blacklisted game")
	assert.Contains(t, stderr, "LOCAL/mine/"+tic.Key[strings.LastIndexByte(tic.Key, '/')+1:]+": the rules of "+tic.Key+": a test")

	// A blacklist elsewhere, named with --blacklist (the campaign folder
	// is seldom the repository).
	rps, _ := gamerepo.Builtin("rockpaperscissors")
	other := filepath.Join(dir, "other.txt")
	require.NoError(t, os.WriteFile(other, []byte(rps.Key+";another test\n"), 0o644))
	args[len(args)-1] = filepath.Join(dir, "res3")
	code, stdout, stderr = run(t, append(args, "--blacklist", other)...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stderr, "skipping 1 blacklisted game (")
	assert.Contains(t, stderr, "other.txt")
	assert.Contains(t, stderr, rps.Key)
	assert.Regexp(t, `prover\s+1\s+0\s+0\s+0`, stdout)
}

func TestCheckExternalWithoutTraceIsUnchecked(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexit 1\n"), 0o755))
	manifest := filepath.Join(dir, "engines.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"engines":[{"name":"ext","version":"1","command":["`+script+`"]}]}`), 0o644))
	code, stdout, _ := run(t, "check", "--manifest", manifest, "--engines", "ext", "--games", "builtin:tictactoe", "--results", dir)
	assert.Equal(t, 0, code)
	assert.Regexp(t, `ext\s+0\s+0\s+0\s+1`, stdout)
	rows, err := results.LoadCheckRows(dir)
	require.NoError(t, err)
	for _, r := range rows {
		assert.Equal(t, results.VerdictUnchecked, r.Verdict, r.Method)
	}
}

// A perf row of an engine version that failed the check on a game is
// marked wrong; --require-checked runs only the pairs that passed.
func TestRunUsesCheckVerdicts(t *testing.T) {
	dir := t.TempDir()
	bad := "prover-" + enginetest.DropLegal
	code, _, _ := run(t, "check", "--engines", bad+",prover", "--games", "builtin:tictactoe", "--methods", "trace", "--budget", "1s", "--results", dir)
	require.Equal(t, ExitFailure, code)
	statuses := func(dir string) map[string]string {
		rows, _, err := results.LoadDir(dir)
		require.NoError(t, err)
		status := map[string]string{}
		for _, r := range rows {
			status[r.Engine+" "+r.GameKey[:strings.LastIndex(r.GameKey, "/")]] = r.Status
		}
		return status
	}

	code, _, stderr := run(t, "run", "--engines", bad+",prover", "--games", "builtin:tictactoe,builtin:hex", "--seconds", "1", "--results", dir)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, map[string]string{
		bad + " BUILTIN/tictactoe": results.StatusWrong,
		bad + " BUILTIN/hex":       results.StatusOK,
		"prover BUILTIN/tictactoe": results.StatusOK,
		"prover BUILTIN/hex":       results.StatusOK,
	}, statuses(dir))

	strict := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(strict, results.CheckDir), os.DirFS(filepath.Join(dir, results.CheckDir))))
	code, _, stderr = run(t, "run", "--engines", bad+",prover", "--games", "builtin:tictactoe,builtin:hex", "--seconds", "1", "--results", strict, "--require-checked")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, map[string]string{"prover BUILTIN/tictactoe": results.StatusOK}, statuses(strict),
		"only what passed the check runs")
}

func TestRunSaysWhenAnEngineCannotDoFixedWork(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "engines.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"engines":[{"name":"ext","version":"1","command":["/bin/false"]}]}`), 0o644))
	code, _, stderr := run(t, "run", "--manifest", manifest, "--engines", "ext,prover", "--games", "builtin:tictactoe", "--rollouts", "5", "--dry-run", "--results", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "engine ext does not take --rollouts")
	assert.NotContains(t, stderr, "engine prover does not")
}

// check --json prints the summary as one JSON document that CI can read:
// the tallies per engine, the mismatches with their reproduce command, and
// ok, which agrees with the exit status.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	engine := "prover-" + enginetest.DropLegal
	code, stdout, stderr := run(t, "check", "--engines", "prover,"+engine, "--games", "builtin:tictactoe", "--methods", "trace", "--budget", "1s", "--results", dir, "--json")
	require.Equal(t, ExitFailure, code, stderr)
	var rep CheckReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	assert.False(t, rep.OK)
	require.Len(t, rep.Engines, 2)
	byName := map[string]CheckTally{}
	for _, e := range rep.Engines {
		byName[e.Engine] = e
	}
	assert.Equal(t, 1, byName["prover"].OK)
	assert.Equal(t, 1, byName[engine].Mismatch)
	require.Len(t, rep.Mismatches, 1)
	m := rep.Mismatches[0]
	assert.Equal(t, engine, m.Engine)
	assert.Equal(t, "BUILTIN/tictactoe", strings.SplitN(m.Game, "/", 3)[0]+"/"+strings.SplitN(m.Game, "/", 3)[1])
	assert.Equal(t, "trace", m.Method)
	assert.Contains(t, m.Detail, "legal moves of role 0 missing")
	assert.Contains(t, m.Reproduce, "gdlperf check")

	code, stdout, _ = run(t, "check", "--engines", "prover", "--games", "builtin:tictactoe", "--methods", "trace", "--budget", "1s", "--results", dir, "--json")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.True(t, rep.OK)
	assert.Empty(t, rep.Mismatches)
	assert.Empty(t, rep.Failures)
}
