package harness

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// Names and error messages from hostile engines and servers reach the
// progress output escaped, on one line, in both the plain and the terminal
// mode.
func TestProgressEscapesEngineText(t *testing.T) {
	hostile := Run{
		Engine:     &Engine{Name: "evil\x1b[2J"},
		Game:       &Game{Key: "BASE/ab\u202ecd/hash"},
		Repetition: 1,
	}
	row := &results.Row{Status: results.StatusError, ErrorMessage: "boom\x1b]0;owned\x07\rOK \xff é 日本\nsecond line"}
	tests := []struct {
		name     string
		terminal bool
	}{
		{name: "plain"},
		{name: "terminal", terminal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			now := time.Unix(0, 0)
			p := newProgress(&out, tt.terminal, 2, time.Second, func() time.Time { return now })
			p.starting(hostile)
			p.finished(hostile, row)
			p.note("note from \x1b[31mengine\u2066")
			p.close()
			got := out.String()
			assert.Contains(t, got, `evil\x1b[2J on BASE/ab\u202ecd/hash (rep 1): error: boom\x1b]0;owned\x07 OK \xff é 日本 second line`)
			assert.Contains(t, got, `note from \x1b[31mengine\u2066`)
			assert.True(t, utf8.ValidString(got), "invalid UTF-8 in %q", got)
			assert.NotContains(t, got, "\u202e")
			assert.NotContains(t, got, "\u2066")
			assert.NotContains(t, got, "\x07")
			// The bar draws itself with \r and, on a terminal, ESC [ K;
			// every ESC of the output is the bar's, none of them the engine's.
			assert.NotContains(t, got, "\x1b[2J")
			assert.NotContains(t, got, "\x1b]")
			assert.NotContains(t, got, "\x1b[31m")
			if !tt.terminal {
				assert.NotContains(t, got, "\x1b")
				assert.NotContains(t, got, "\r")
				assert.Equal(t, 2, strings.Count(got, "\n"), "one line per run and per note: %q", got)
			}
		})
	}
}

// The text after the bar is cut to the width without splitting a rune or
// an escape.
func TestProgressDescribeCutsWholeRunes(t *testing.T) {
	now := time.Unix(0, 0)
	var out bytes.Buffer
	p := newProgress(&out, false, 1, time.Second, func() time.Time { return now })
	p.running = []Run{{Engine: &Engine{Name: strings.Repeat("日", 40) + "\u202e"}, Game: &Game{Key: "G"}}}
	d := p.describe()
	require.LessOrEqual(t, len(d), 48)
	assert.True(t, utf8.ValidString(d), "%q", d)
	assert.True(t, strings.HasSuffix(d, "..."), "%q", d)
}

// With two jobs the terminal line names both runs in progress; a finished
// contended run says so.
func TestProgressShowsEveryRunningJob(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgress(&buf, true, 3, time.Second, func() time.Time { return now })
	defer p.close()
	a := Run{Engine: &Engine{Name: "prover"}, Game: &Game{Key: "BASE/ticTacToe/JRFsaQ"}}
	b := Run{Engine: &Engine{Name: "propnet"}, Game: &Game{Key: "BASE/hex/T1MK8g"}, Repetition: 1}
	p.starting(a)
	p.starting(b)
	p.mu.Lock()
	d := p.describe()
	all := p.runningText()
	p.mu.Unlock()
	assert.Equal(t, "2 running: prover ticTacToe, propnet hex", all)
	assert.Contains(t, d, ": 2 running: prover")
	p.finished(a, &results.Row{Status: results.StatusOK, MillisecondsTaken: 1000, StateChanges: 10, Contended: true, CPUShare: "0.640"})
	p.mu.Lock()
	d = p.describe()
	p.mu.Unlock()
	assert.Contains(t, d, ": propnet on BASE/hex/T1MK8g")
	assert.NotContains(t, d, "prover on")

	var plain bytes.Buffer
	q := newProgress(&plain, false, 1, time.Second, time.Now)
	q.finished(a, &results.Row{Status: results.StatusOK, MillisecondsTaken: 1000, StateChanges: 10, Contended: true, CPUShare: "0.640"})
	assert.Contains(t, plain.String(), "10 states/s (contended: 0.640 of a CPU)")
}
