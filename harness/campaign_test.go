package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// memWriter keeps the rows of a campaign in memory.
type memWriter struct {
	mu   sync.Mutex
	rows []results.Row
}

func (w *memWriter) Append(r *results.Row) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rows = append(w.rows, *r)
	return nil
}

// scriptEngine writes an external engine in the style of gdl-perf's
// start_perf_test.sh: it gets GAME_FILE RESULT_FILE SECONDS.
func scriptEngine(t testing.TB, name, body string) *Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "start_perf_test.sh")
	script := "#!/bin/sh\nGAME_FILE=\"$1\"\nRESULT_FILE=\"$2\"\nSECS=\"$3\"\n" + body + "\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return &Engine{Name: name, Version: "1.0", Command: []string{path}}
}

// A fast engine that does no work but answers as a real one.
const fastBody = `sleep "$SECS"; printf 'version = 1.0\nmillisecondsTaken = %d\nnumStateChanges = 500\nnumRollouts = 50\n' "$((SECS*1000))" > "$RESULT_FILE"`

func testGames(n int) []*Game {
	var games []*Game
	for i := 0; i < n; i++ {
		games = append(games, &Game{Key: "LOCAL/g" + string(rune('a'+i)) + "/hash", Rules: []byte("(role r)\n; " + string(rune('a'+i)) + "\n")})
	}
	return games
}

func campaign(t testing.TB, games []*Game, engs []*Engine, o Options) (*Campaign, *memWriter, *bytes.Buffer) {
	t.Helper()
	w := &memWriter{}
	var progress bytes.Buffer
	c := &Campaign{
		Runs:     Plan(games, engs, o),
		Options:  o,
		Child:    ChildOptions{Limit: 30 * time.Second, CPU: -1},
		Writer:   w,
		Progress: &progress,
	}
	return c, w, &progress
}

func TestCampaignVerdictMarksWrongRows(t *testing.T) {
	games := testGames(2)
	e := scriptEngine(t, "fast", fastBody)
	c, w, _ := campaign(t, games, []*Engine{e}, Options{Seconds: 1, Repetitions: 2, Seed: 1})
	c.SkipCompat = true
	var mu sync.Mutex
	var asked []string
	c.Verdict = func(game, engine, version string) (string, string) {
		mu.Lock()
		asked = append(asked, game+" "+engine+" "+version)
		mu.Unlock()
		if game == games[0].Key {
			return results.StatusWrong, "rollout 0 step 3: legal moves differ"
		}
		return results.StatusOK, ""
	}
	sum, err := c.Execute(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 4, sum.Ran)
	assert.Equal(t, 2, sum.Wrong)
	require.Len(t, w.rows, 4)
	for _, r := range w.rows {
		if r.GameKey == games[0].Key {
			assert.Equal(t, results.StatusWrong, r.Status)
			assert.Contains(t, r.ErrorMessage, "legal moves differ")
			assert.Equal(t, int64(500), r.StateChanges, "the counts stay")
		} else {
			assert.Equal(t, results.StatusOK, r.Status, r.ErrorMessage)
			assert.Empty(t, r.ErrorMessage)
		}
	}
	// Asked with the version the engine reported.
	assert.Contains(t, asked, games[1].Key+" fast 1.0")
}

func TestCampaignVerdictOfAFailedRun(t *testing.T) {
	e := scriptEngine(t, "crashy", "exit 3")
	c, w, _ := campaign(t, testGames(1), []*Engine{e}, Options{Seconds: 1, Seed: 1})
	c.SkipCompat = true
	c.Verdict = func(string, string, string) (string, string) { return results.StatusWrong, "goals differ" }
	_, err := c.Execute(context.Background())
	require.NoError(t, err)
	require.Len(t, w.rows, 1)
	assert.Equal(t, results.StatusWrong, w.rows[0].Status)
	assert.Contains(t, w.rows[0].ErrorMessage, "goals differ")
	assert.Contains(t, w.rows[0].ErrorMessage, "the run itself: crash: the engine wrote no result (exit status 3)")
}

func TestCampaignRequireChecked(t *testing.T) {
	games := testGames(3)
	e := scriptEngine(t, "fast", fastBody)
	c, w, progress := campaign(t, games, []*Engine{e}, Options{Seconds: 1, Repetitions: 2, Seed: 1})
	c.SkipCompat = true
	c.RequireChecked = true
	c.Verdict = func(game, engine, version string) (string, string) {
		assert.Equal(t, "1.0", version, "asked before the run with the expected version")
		switch game {
		case games[0].Key:
			return results.StatusOK, ""
		case games[1].Key:
			return results.StatusWrong, "terminal differs"
		}
		return "unchecked", ""
	}
	sum, err := c.Execute(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Ran)
	assert.Equal(t, 4, sum.Unchecked)
	for _, r := range w.rows {
		assert.Equal(t, games[0].Key, r.GameKey)
	}
	out := progress.String()
	assert.Contains(t, out, "skipping fast 1.0 on "+games[1].Key+": its correctness verdict is wrong: terminal differs")
	assert.Contains(t, out, "skipping fast 1.0 on "+games[2].Key+": its correctness verdict is unchecked")
	assert.Equal(t, 1, strings.Count(out, "on "+games[2].Key+": its"), "one line per (engine, game), not per repetition")

	c.Verdict = nil
	_, err = c.Execute(context.Background())
	assert.ErrorContains(t, err, "Verdict")
}

func TestCampaignCompatibilityCheck(t *testing.T) {
	games := testGames(2)
	good := scriptEngine(t, "good", fastBody)
	noVersion := scriptEngine(t, "noversion", `sleep "$SECS"; printf 'millisecondsTaken = %d\nnumStateChanges = 5\nnumRollouts = 1\n' "$((SECS*1000))" > "$RESULT_FILE"`)
	crashes := scriptEngine(t, "crashes", `echo "java.lang.NoClassDefFoundError: Foo" >&2; exit 1`)
	builtin := &Engine{Name: "builtin", Version: "b", Command: []string{"/bin/false"}, Builtin: true}
	c, w, progress := campaign(t, games, []*Engine{good, noVersion, crashes, builtin}, Options{Seconds: 1, Seed: 1})
	start := time.Now()
	sum, err := c.Execute(context.Background())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, 4, sum.Refused)
	assert.Len(t, sum.RefusedEngines, 2)
	out := progress.String()
	assert.Contains(t, out, "refusing engine noversion: the compatibility check (3 s on BUILTIN/tictactoe/")
	assert.Contains(t, out, "no version")
	assert.Contains(t, out, "refusing engine crashes:")
	assert.Contains(t, out, "NoClassDefFoundError")
	assert.Contains(t, out, "good 1.0: compatible")
	assert.NotContains(t, out, "checking that builtin", "built-in engines are not checked")
	engines := map[string]int{}
	for _, r := range w.rows {
		engines[r.Engine]++
	}
	assert.Equal(t, map[string]int{"good": 2, "builtin": 2}, engines)

	// The check is not repeated within a campaign, and can be skipped.
	require.Contains(t, c.Compat, "good@1.0", "by engine ID")
	c2, w2, progress2 := campaign(t, games, []*Engine{noVersion}, Options{Seconds: 1, Seed: 1})
	c2.SkipCompat = true
	_, err = c2.Execute(context.Background())
	require.NoError(t, err)
	assert.Len(t, w2.rows, 2)
	assert.NotContains(t, progress2.String(), "checking")
}

func TestCheckCompatGivesTheGameAndTime(t *testing.T) {
	e := scriptEngine(t, "args", `case "$GAME_FILE" in *.kif) ;; *) exit 9;; esac
grep -q 'role xplayer' "$GAME_FILE" || exit 8
[ "$SECS" = 3 ] || exit 7
`+fastBody)
	res := CheckCompat(context.Background(), e, ChildOptions{CPU: -1})
	assert.True(t, res.OK, res.Reason)
	lazy := scriptEngine(t, "lazy", `sleep "$SECS"; printf 'version = 1\nmillisecondsTaken = %d\nnumStateChanges = 0\nnumRollouts = 0\n' "$((SECS*1000))" > "$RESULT_FILE"`)
	res = CheckCompat(context.Background(), lazy, ChildOptions{CPU: -1})
	assert.False(t, res.OK)
	assert.Contains(t, res.Reason, "no state changes")
}

func TestProgressPlainLines(t *testing.T) {
	e := scriptEngine(t, "fast", fastBody)
	bad := scriptEngine(t, "bad", "exit 2")
	c, _, progress := campaign(t, testGames(1), []*Engine{e, bad}, Options{Seconds: 1, Seed: 1})
	c.SkipCompat = true
	_, err := c.Execute(context.Background())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	require.Len(t, lines, 2)
	assert.Regexp(t, `^\[1/2\] (fast|bad) on LOCAL/ga/hash \(rep 0\): `, lines[0])
	assert.Regexp(t, `^\[2/2\] `, lines[1])
	assert.Contains(t, progress.String(), "bad on LOCAL/ga/hash (rep 0): crash: the engine wrote no result (exit status 2)")
	assert.Contains(t, progress.String(), " 500 states/s")
	assert.NotContains(t, progress.String(), "\r")
}

func TestProgressOnATerminal(t *testing.T) {
	e := scriptEngine(t, "fast", "sleep 1.2; "+fastBody)
	bad := scriptEngine(t, "bad", "exit 2")
	c, _, progress := campaign(t, testGames(1), []*Engine{e, bad}, Options{Seconds: 1, Seed: 1})
	c.SkipCompat = true
	c.Terminal = true
	_, err := c.Execute(context.Background())
	require.NoError(t, err)
	out := progress.String()
	assert.Contains(t, out, "\r", "an updating line")
	assert.Contains(t, out, "(0/2")
	assert.Contains(t, out, "(2/2")
	assert.Regexp(t, `ETA ~\d+s, 0 failed: (fast|bad) on LOCAL/ga/hash \(rep 0\)`, out)
	assert.Contains(t, out, "runs/")
	assert.Regexp(t, `\[\d/2\] bad on LOCAL/ga/hash \(rep 0\): crash: the engine wrote no result \(exit status 2\)\n`, out, "a failure keeps its line")
	assert.NotRegexp(t, `\[\d/2\] fast`, out, "a success does not")
	assert.True(t, strings.HasSuffix(out, "\r"), "the bar is cleared at the end: %q", out[max(0, len(out)-80):])
}

func TestCampaignInterruptedWritesNothingPartial(t *testing.T) {
	e := scriptEngine(t, "slow", "sleep 30; "+fastBody)
	c, w, _ := campaign(t, testGames(2), []*Engine{e}, Options{Seconds: 1, Seed: 1})
	c.SkipCompat = true
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	sum, err := c.Execute(ctx)
	assert.ErrorIs(t, err, ErrInterrupted)
	assert.True(t, sum.Interrupted)
	assert.Empty(t, w.rows)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// concat plans each engine's runs alone and puts them one after another, so
// that the first engine's runs come before the second's.
func concat(games []*Game, o Options, engs ...*Engine) []Run {
	var runs []Run
	for _, e := range engs {
		runs = append(runs, Plan(games, []*Engine{e}, o)...)
	}
	return runs
}

// An engine that writes to its game file cannot spoil the runs after it: each
// run has its own read-only copy, in a read-only folder of its own; one that
// makes the copy writable and changes it has its own run recorded as an
// error.
func TestCampaignEngineChangesItsGameFile(t *testing.T) {
	games := testGames(1)
	expected := filepath.Join(t.TempDir(), "expected.kif")
	require.NoError(t, os.WriteFile(expected, games[0].Rules, 0o644))
	// The prover-like engine that runs next checks that it got the rules,
	// read-only in a read-only folder that holds nothing else of a run.
	checker := scriptEngine(t, "checker", `cmp -s "$GAME_FILE" `+expected+` || exit 5
[ "$(stat -c %a "$GAME_FILE")" = 400 ] || exit 6
[ "$(stat -c %a "$(dirname "$GAME_FILE")")" = 500 ] || exit 7
`+fastBody)
	tests := []struct {
		name       string
		vandal     string
		wantStatus string
		wantError  string
		asRoot     string // the error instead, when the test runs as root
	}{
		// The modes stop these, but not for root: then the change is found.
		{name: "appends", vandal: `echo '(role intruder)' >> "$GAME_FILE"`, wantStatus: results.StatusOK, asRoot: "the engine changed its game file"},
		{name: "replaces", vandal: `rm -f "$GAME_FILE"; echo '(role intruder)' > "$GAME_FILE"`, wantStatus: results.StatusOK, asRoot: "the engine changed its game file"},
		{name: "makes it writable and appends", vandal: `chmod u+w "$(dirname "$GAME_FILE")" "$GAME_FILE"; echo '(role intruder)' >> "$GAME_FILE"`,
			wantStatus: results.StatusError, wantError: "the engine changed its game file"},
		{name: "removes it", vandal: `chmod u+w "$(dirname "$GAME_FILE")"; rm -f "$GAME_FILE"`,
			wantStatus: results.StatusError, wantError: "the engine removed or hid its game file"},
		{name: "changes it and crashes", vandal: `chmod u+w "$(dirname "$GAME_FILE")" "$GAME_FILE"; echo x >> "$GAME_FILE"; exit 3`,
			wantStatus: results.StatusError, wantError: "the engine changed its game file; and the run itself: crash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.asRoot != "" && os.Geteuid() == 0 {
				tt.wantStatus, tt.wantError = results.StatusError, tt.asRoot
			}
			vandal := scriptEngine(t, "vandal", tt.vandal+" 2>/dev/null\n"+fastBody)
			o := Options{Seconds: 1, Seed: 1}
			c, w, _ := campaign(t, games, nil, o)
			c.Runs = concat(games, o, vandal, checker)
			c.SkipCompat = true
			c.WorkDir = t.TempDir()
			_, err := c.Execute(context.Background())
			require.NoError(t, err)
			require.Len(t, w.rows, 2)
			assert.Equal(t, "vandal", w.rows[0].Engine)
			assert.Equal(t, tt.wantStatus, w.rows[0].Status, w.rows[0].ErrorMessage)
			if tt.wantError != "" {
				assert.Contains(t, w.rows[0].ErrorMessage, tt.wantError)
			}
			assert.Equal(t, "checker", w.rows[1].Engine)
			assert.Equal(t, results.StatusOK, w.rows[1].Status, "the next run got the rules: %s", w.rows[1].ErrorMessage)
			left, err := os.ReadDir(c.WorkDir)
			require.NoError(t, err)
			assert.Empty(t, left, "every run's folder is removed")
		})
	}
}

// An engine that plants symlinks at the names of the files the harness
// writes for later runs cannot make it write outside its folder: those names
// are not predictable.
func TestCampaignPlantedSymlinks(t *testing.T) {
	games := testGames(2)
	victim := filepath.Join(t.TempDir(), "precious.txt")
	require.NoError(t, os.WriteFile(victim, []byte("precious"), 0o644))
	work := t.TempDir()
	o := Options{Seconds: 1, Seed: 1}
	fast := scriptEngine(t, "fast", fastBody)
	// Every name a harness could derive from what an engine knows: the
	// game's hash, the run keys, in the campaign's folder and beside its own
	// files.
	var plant strings.Builder
	for _, dir := range []string{work, `"$(dirname "$GAME_FILE")"`, `"$(dirname "$RESULT_FILE")"`} {
		for _, g := range games {
			h := sha256.Sum256(g.Rules)
			fmt.Fprintf(&plant, "ln -s %s %s/game-%s.kif\n", victim, dir, hex.EncodeToString(h[:8]))
		}
		for _, r := range Plan(games, []*Engine{fast}, o) {
			fmt.Fprintf(&plant, "ln -s %s %s/result-%s.txt\n", victim, dir, r.Key)
			fmt.Fprintf(&plant, "ln -s %s %s/result.txt\n", victim, dir)
		}
	}
	planter := scriptEngine(t, "planter", plant.String()+" 2>/dev/null\n"+fastBody)
	c, w, _ := campaign(t, games, nil, o)
	c.Runs = append(Plan(games[:1], []*Engine{planter}, o), Plan(games, []*Engine{fast}, o)...)
	c.SkipCompat = true
	c.WorkDir = work
	_, err := c.Execute(context.Background())
	require.NoError(t, err)
	require.Len(t, w.rows, 3)
	for _, r := range w.rows {
		assert.Equal(t, results.StatusOK, r.Status, "%s: %s", r.Engine, r.ErrorMessage)
	}
	b, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "precious", string(b), "the harness wrote through a planted symlink")
}

// The compatibility check runs under the campaign's limit when it is
// shorter than the check's own: a hanging engine is refused at once.
func TestCheckCompatHonoursTheLimit(t *testing.T) {
	hang := scriptEngine(t, "hang", "sleep 100")
	start := time.Now()
	res := CheckCompat(context.Background(), hang, ChildOptions{Limit: 500 * time.Millisecond, CPU: -1})
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.False(t, res.OK)
	assert.Contains(t, res.Reason, "killed after the time limit of 500ms")
	assert.Contains(t, res.Reason, "one above 3 s lets it finish")

	c, w, progress := campaign(t, testGames(1), []*Engine{hang}, Options{Seconds: 1, Seed: 1})
	c.Child.Limit = 500 * time.Millisecond
	start = time.Now()
	sum, err := c.Execute(context.Background())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, 1, sum.Refused)
	assert.Empty(t, w.rows)
	assert.Contains(t, progress.String(), "refusing engine hang:")
}

// A Guard error stops the campaign, before a run or after a row.
func TestCampaignGuard(t *testing.T) {
	e := scriptEngine(t, "fast", fastBody)
	tests := []struct {
		name     string
		failFrom int // the call of Guard that fails first (0: the first)
		wantRows int
	}{
		{name: "before the first run", failFrom: 0, wantRows: 0},
		{name: "after the first row", failFrom: 1, wantRows: 1},
		{name: "before the second run", failFrom: 2, wantRows: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w, _ := campaign(t, testGames(3), []*Engine{e}, Options{Seconds: 1, Seed: 1})
			c.SkipCompat = true
			calls := 0
			c.Guard = func() error {
				calls++
				if calls > tt.failFrom {
					return errors.New("the results file is gone")
				}
				return nil
			}
			sum, err := c.Execute(context.Background())
			assert.EqualError(t, err, "the results file is gone")
			assert.Len(t, w.rows, tt.wantRows)
			assert.Equal(t, tt.wantRows, sum.Ran)
		})
	}
}

// A run that failed before its engine said its version and a run that
// succeeded are rows of the version of their run keys, so that a retry of a
// failed run does not show as another version of the engine.
func TestCampaignRecordsTheRunKeysVersion(t *testing.T) {
	games := testGames(2)
	// It crashes on the first game, and reports another version than its
	// manifest's on the second.
	e := scriptEngine(t, "snapshot", `grep -q '; a' "$GAME_FILE" && exit 3
sleep "$SECS"; printf 'version = 1.0-SNAPSHOT\nmillisecondsTaken = %d\nnumStateChanges = 500\nnumRollouts = 50\n' "$((SECS*1000))" > "$RESULT_FILE"`)
	c, w, progress := campaign(t, games, []*Engine{e}, Options{Seconds: 1, Repetitions: 2, Seed: 1})
	c.SkipCompat = true
	_, err := c.Execute(context.Background())
	require.NoError(t, err)
	require.Len(t, w.rows, 4)
	status := map[string]int{}
	for _, r := range w.rows {
		assert.Equal(t, "1.0", r.EngineVersion, "%s on %s", r.Status, r.GameKey)
		status[r.Status]++
	}
	assert.Equal(t, map[string]int{results.StatusOK: 2, results.StatusCrash: 2}, status)
	assert.Equal(t, 1, strings.Count(progress.String(), `note: engine snapshot reported version "1.0-SNAPSHOT", not the "1.0" its run keys use`), progress.String())
}
