package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The keys' texts are the wire format shared with gdl-perf and the
// harness: spelled here once more, on purpose.
func TestKeyTexts(t *testing.T) {
	want := []string{
		"version", "millisecondsTaken", "numStateChanges", "numRollouts", "errorMessage",
		"initMilliseconds", "cpuMilliseconds", "peakRSSKiB", "gomaxprocs", "seed",
		"design", "options", "codegenMilliseconds", "buildMilliseconds",
	}
	got := make([]string, len(Keys))
	for i, k := range Keys {
		got[i] = string(k)
	}
	assert.Equal(t, want, got)
}

func TestResultRoundTrip(t *testing.T) {
	r := NewResult("1")
	r.Set(KeyErrorMessage, "two\nlines")
	r.SetInt(KeyNumRollouts, 3)
	r.Set(KeyVersion, "2") // keeps its place
	path := filepath.Join(t.TempDir(), "res.txt")
	require.NoError(t, r.WriteFile(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "version = 2\nerrorMessage = two lines\nnumRollouts = 3\n", string(b))
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")

	back, garbage := Parse(string(b) + "garbage line\r\n# a comment\n\nextraKey = kept = too\r\n = no key\n")
	assert.Equal(t, []string{"garbage line", " = no key"}, garbage)
	assert.Equal(t, []Key{KeyVersion, KeyErrorMessage, KeyNumRollouts, "extraKey"}, back.Keys())
	v, ok := back.Get("extraKey")
	assert.True(t, ok)
	assert.Equal(t, "kept = too", v)
	_, ok = back.Get(KeySeed)
	assert.False(t, ok)
}

func TestWriteFileIntoMissingFolder(t *testing.T) {
	err := NewResult("1").WriteFile(filepath.Join(t.TempDir(), "no", "res.txt"))
	assert.Error(t, err)
}

func TestRun(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		setup    func(extra *Result) error
		play     func() (Stats, error)
		wantErr  string
		wantKeys []Key
	}{
		{
			name:  "ok",
			setup: func(extra *Result) error { extra.Set(KeyDesign, "magic sets"); return nil },
			play: func() (Stats, error) {
				return Stats{StateChanges: 40, Rollouts: 4, Elapsed: 1500 * time.Millisecond}, nil
			},
			wantKeys: []Key{KeyVersion, KeyMillisecondsTaken, KeyNumStateChanges, KeyNumRollouts, KeyInitMilliseconds,
				KeyCPUMilliseconds, KeyPeakRSSKiB, KeyGOMAXPROCS, KeySeed, KeyDesign},
		},
		{
			name:     "setup fails",
			setup:    func(*Result) error { return boom },
			wantErr:  "boom",
			wantKeys: []Key{KeyVersion, KeyErrorMessage, KeyPeakRSSKiB},
		},
		{
			name:     "play fails",
			setup:    func(extra *Result) error { extra.Set(KeyOptions, "mode=fullpass"); return nil },
			play:     func() (Stats, error) { return Stats{}, Errorf(NoLegalMove, "role r has none") },
			wantErr:  "no-legal-move: role r has none",
			wantKeys: []Key{KeyVersion, KeyErrorMessage, KeyPeakRSSKiB, KeyOptions},
		},
		{
			name:     "play panics",
			setup:    func(*Result) error { return nil },
			play:     func() (Stats, error) { panic("index out of range") },
			wantErr:  "engine e panicked: index out of range",
			wantKeys: []Key{KeyVersion, KeyErrorMessage, KeyPeakRSSKiB},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run("v1", "e", time.Now(), 9, tt.setup, tt.play)
			require.NotNil(t, res)
			assert.Equal(t, tt.wantKeys, res.Keys())
			v, _ := res.Get(KeyVersion)
			assert.Equal(t, "v1", v)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), tt.wantErr), err.Error())
				msg, _ := res.Get(KeyErrorMessage)
				assert.NotContains(t, msg, "\n")
				assert.True(t, strings.HasPrefix(msg, tt.wantErr), msg)
				return
			}
			require.NoError(t, err)
			for k, want := range map[Key]string{KeyMillisecondsTaken: "1500", KeyNumStateChanges: "40", KeyNumRollouts: "4", KeySeed: "9", KeyDesign: "magic sets"} {
				v, _ := res.Get(k)
				assert.Equal(t, want, v, k)
			}
		})
	}
}

// The CPU time of the timed part is the process's, measured around play.
func TestRunMeasuresCPU(t *testing.T) {
	busy := func() (Stats, error) {
		start := CPUTime()
		x := 0
		for CPUTime()-start < 30*time.Millisecond {
			x++
		}
		return Stats{Rollouts: int64(x & 1)}, nil
	}
	res, err := Run("v", "e", time.Now(), 1, func(*Result) error { return nil }, busy)
	require.NoError(t, err)
	v, ok := res.Get(KeyCPUMilliseconds)
	require.True(t, ok)
	ms, err := strconv.Atoi(v)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, ms, 30)
	assert.Greater(t, PeakRSSKiB(), int64(0))
}

// Between rollouts the clock is read rarely once rollouts are fast, but at
// least every 64 state changes: a run whose time is over stops within 64
// steps even when the rollouts have just become slow.
func TestClockStopsWithin64Steps(t *testing.T) {
	c := NewClock(time.Hour)
	var steps int64
	for range 10_000 { // fast zero-step rollouts: the reads grow rare
		assert.False(t, c.OverBetween(steps))
	}
	assert.Greater(t, c.between.every, 64)
	c.deadline = time.Now().Add(-time.Second)
	stopped := false
	for i := 0; i < 8 && !stopped; i++ {
		steps += 8
		stopped = c.OverBetween(steps)
	}
	assert.True(t, stopped, "not stopped within 64 steps")
}

// With a time that advances only when read, slow reads make the clock read
// after every rollout again.
func TestClockReadsMoreOftenWhenSlow(t *testing.T) {
	now := time.Unix(0, 0)
	step := time.Microsecond
	c := NewClockFunc(func() time.Time { now = now.Add(step); return now }, time.Hour)
	for range 1000 {
		c.OverBetween(0)
	}
	fast := c.between.every
	step = 10 * time.Millisecond
	for range 1000 {
		c.OverBetween(0)
	}
	assert.Greater(t, fast, 1)
	assert.Equal(t, 1, c.between.every)
}

// Within a rollout (Over, asked before every step) the clock is read every
// 64 steps where steps are fast, and after every step where they are slow:
// a run of slow steps (a second each on a few games) stops a step after
// its time is over, not 64 steps.
func TestClockWithinRollouts(t *testing.T) {
	now := time.Unix(0, 0)
	reads := 0
	step := time.Microsecond // the time a read finds passed since the last
	c := NewClockFunc(func() time.Time { reads++; now = now.Add(step); return now }, time.Hour)
	for range 64_000 {
		require.False(t, c.Over())
	}
	assert.Equal(t, maxWithin, c.within.every)
	assert.Less(t, reads, 64_000/maxWithin+20, "fast steps: a read every 64 steps")
	step = time.Second
	for range 200 {
		c.Over()
	}
	assert.Equal(t, 1, c.within.every, "slow steps: a read after every step")
	c.deadline = now.Add(time.Second / 2)
	assert.True(t, c.Over(), "the time is over at the next step")
}

func TestLoop(t *testing.T) {
	t.Run("n rollouts", func(t *testing.T) {
		var seen []int64
		st, err := Loop(nil, 3, func(r int64, stop func() bool) (int64, bool, error) {
			assert.Nil(t, stop)
			seen = append(seen, r)
			return 5, false, nil
		})
		require.NoError(t, err)
		assert.Equal(t, []int64{0, 1, 2}, seen)
		assert.Equal(t, Stats{StateChanges: 15, Rollouts: 3, Elapsed: st.Elapsed}, st)
	})
	t.Run("an error keeps the figures so far", func(t *testing.T) {
		st, err := Loop(nil, 10, func(r int64, _ func() bool) (int64, bool, error) {
			if r == 2 {
				return 1, false, Errorf(GoalCount, "two goals")
			}
			return 4, false, nil
		})
		assert.EqualError(t, err, "goal-count: two goals")
		assert.Equal(t, int64(9), st.StateChanges)
		assert.Equal(t, int64(2), st.Rollouts)
	})
	t.Run("an unfinished last rollout counts its steps", func(t *testing.T) {
		c := NewClock(time.Hour)
		st, err := Loop(c, -1, func(r int64, stop func() bool) (int64, bool, error) {
			require.NotNil(t, stop)
			if r == 4 {
				c.deadline = time.Now().Add(-time.Second)
				return 63, stop(), nil
			}
			return 2, false, nil
		})
		require.NoError(t, err)
		assert.Equal(t, int64(4), st.Rollouts)
		assert.Equal(t, int64(8+63), st.StateChanges)
	})
}

// A run stopped by its deadline reports at least its time, even when the
// process was held up between making the clock and starting the loop (CI
// saw a 1 s run report 999 ms).
func TestLoopTimeCountsFromTheClock(t *testing.T) {
	c := NewClock(40 * time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	st, err := Loop(c, -1, func(_ int64, stop func() bool) (int64, bool, error) {
		for !stop() {
		}
		return 1, true, nil
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.Elapsed, 40*time.Millisecond)
}

func TestChooser(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		t.Run(map[bool]string{false: "map", true: "indexed"}[indexed], func(t *testing.T) { testChooser(t, indexed) })
	}
}

func testChooser(t *testing.T, indexed bool) {
	texts := map[int]string{1: "(mark 2 1)", 2: "(mark 1 1)", 3: "noop", 4: "(mark 1 1)"}
	calls := 0
	text := func(m int) string { calls++; return texts[m] }
	c := NewChooser(text)
	if indexed {
		c = NewIndexedChooser(text, func(m int) int { return m })
	}
	sorted := c.Sorted([]int{3, 1, 2, 4})
	assert.Len(t, sorted, 3)
	var got []string
	for _, m := range sorted {
		got = append(got, c.Text(m))
	}
	assert.Equal(t, []string{"(mark 1 1)", "(mark 2 1)", "noop"}, got)
	assert.Equal(t, 4, calls, "each text is asked once")

	draw := func(seed uint64, r int64) []int {
		c.Start(seed, r)
		var out []int
		for range 20 {
			out = append(out, c.Choose(0, []int{1, 2, 3}))
		}
		return out
	}
	assert.Equal(t, draw(7, 2), draw(7, 2))
	assert.NotEqual(t, draw(7, 2), draw(7, 3))
}

// countdown is a Game of one role over the states n, n-1, ..., 0.
type countdown struct{ err map[int]error }

func (g countdown) Initial() (int, error)            { return 3, nil }
func (g countdown) Terminal(s int) (bool, error)     { return s == 0, g.err[s] }
func (g countdown) Legal(s, _ int) ([]string, error) { return []string{"down", "down", "back"}, nil }
func (g countdown) Next(s int, j []string) (int, error) {
	if j[0] == "back" && s < 3 {
		return s + 1, nil
	}
	return s - 1, nil
}
func (g countdown) Goals(int) ([]int, error)  { return []int{100}, nil }
func (g countdown) StateFacts(s int) []string { return []string{"(at " + string(rune('0'+s)) + ")"} }
func (g countdown) MoveText(m string) string  { return m }

func TestTrace(t *testing.T) {
	h := TraceHeader{Roles: []string{"r"}, Engine: "e", Version: "v", Seed: 2}
	var a, b bytes.Buffer
	require.NoError(t, Trace[int, string](&a, countdown{}, h, 2))
	require.NoError(t, Trace[int, string](&b, countdown{}, h, 2))
	assert.Equal(t, a.String(), b.String(), "the same seed, the same bytes")
	lines := strings.Split(strings.TrimSpace(a.String()), "\n")
	assert.Equal(t, `{"roles":["r"],"engine":"e","version":"v","seed":2}`, lines[0])
	assert.Contains(t, lines[1], `"rollout":0,"step":0,"state":["(at 3)"],"terminal":false,"legal":[["back","down"]]`)
	assert.Contains(t, lines[len(lines)-1], `"terminal":true,"goals":[100]`)

	var c bytes.Buffer
	err := Trace[int, string](&c, countdown{err: map[int]error{3: Errorf(NonGround, "next is not ground")}}, h, 5)
	require.EqualError(t, err, "non-ground: next is not ground")
	lines = strings.Split(strings.TrimSpace(c.String()), "\n")
	assert.Len(t, lines, 2)
	assert.Equal(t, `{"rollout":0,"step":0,"state":["(at 3)"],"terminal":false,"error":"non-ground: next is not ground"}`, lines[1])
}

func TestWriteTrace(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, WriteTrace("-", &out, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }))
	assert.Equal(t, "x\n", out.String())

	path := filepath.Join(dir, "t.jsonl")
	gameErr := Errorf(NoLegalMove, "none")
	err := WriteTrace(path, nil, func(w io.Writer) error { io.WriteString(w, "partial\n"); return gameErr })
	assert.Equal(t, gameErr, err, "write's error is returned")
	b, rerr := os.ReadFile(path)
	require.NoError(t, rerr)
	assert.Equal(t, "partial\n", string(b), "the trace is kept")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left")

	assert.Error(t, WriteTrace(filepath.Join(dir, "no", "t.jsonl"), nil, func(io.Writer) error { return nil }))
}

// Moves without a small index (negative, or past the slice cache's bound)
// are cached in the map: each text is still asked once.
func TestIndexedChooserFallsBack(t *testing.T) {
	calls := 0
	c := NewIndexedChooser(func(m int) string { calls++; return fmt.Sprint("m", m) }, func(m int) int { return m })
	for range 2 {
		for _, m := range []int{-1, 0, 5, maxIndexedMoves, maxIndexedMoves + 7} {
			assert.Equal(t, fmt.Sprint("m", m), c.Text(m))
		}
	}
	assert.Equal(t, 5, calls)
	assert.Len(t, c.texts, 3, "-1 and the two past the bound")
	assert.LessOrEqual(t, len(c.known), 16, "the slice grows to the indexes seen, not to the bound")
}
