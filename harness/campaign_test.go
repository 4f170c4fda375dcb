package harness

import (
	"bytes"
	"context"
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
const fastBody = `printf 'version = 1.0\nmillisecondsTaken = 10\nnumStateChanges = 500\nnumRollouts = 50\n' > "$RESULT_FILE"`

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
	noVersion := scriptEngine(t, "noversion", `printf 'millisecondsTaken = 10\nnumStateChanges = 5\nnumRollouts = 1\n' > "$RESULT_FILE"`)
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
	require.Contains(t, c.Compat, "good")
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
	lazy := scriptEngine(t, "lazy", `printf 'version = 1\nmillisecondsTaken = 10\nnumStateChanges = 0\nnumRollouts = 0\n' > "$RESULT_FILE"`)
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
	assert.Contains(t, progress.String(), "50000 states/s")
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
