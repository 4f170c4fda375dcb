package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoad(t *testing.T) {
	r0, r1 := sampleRow(0), sampleRow(1)
	r1.ErrorMessage = "two\nlines"
	tests := []struct {
		name         string
		content      string
		want         []Row
		wantWarnings int
		wantErr      []string
	}{
		{name: "empty file", content: "", want: nil},
		{name: "header only", content: string(headerLine), want: nil},
		{name: "rows", content: string(headerLine) + encoded(t, r0, r1), want: []Row{r0, r1}},
		{name: "torn last line", content: string(headerLine) + encoded(t, r0, r1) + "run7,BASE/x", want: []Row{r0, r1}, wantWarnings: 1},
		{
			name:    "unknown columns are ignored",
			content: "future,run_key,game_key,engine,engine_version,repetition,status,later\nf,k1,G,E,V,2,ok,l\n",
			want:    []Row{{RunKey: "k1", GameKey: "G", Engine: "E", EngineVersion: "V", Repetition: 2, Status: StatusOK}},
		},
		{name: "gdl-perf rows", content: "BASE/ticTacToe/JRFsaQ;PROVER;1;true;;30000;1000;100\n", wantErr: []string{"not a gdlperf results file", "gdlperf results import"}},
		{name: "a required column lacks", content: "run_key,game_key,engine\nk,g,e\n", wantErr: []string{"no column engine_version"}},
		{
			name:    "bad number names file line and column",
			content: string(headerLine) + encoded(t, r1) + strings.Replace(encoded(t, r0), ",30000,", ",30 s,", 1),
			wantErr: []string{"runs.csv:4:", "milliseconds_taken"}, // line 4: r1 spans lines 2 and 3
		},
		{name: "too few fields mid-file", content: string(headerLine) + "a,b\n" + encoded(t, r0), wantErr: []string{"runs.csv:2:", "2 fields, but the header has 52"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.csv")
			require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			var warnings []string
			got, err := Load(path, WithWarnings(func(w string) { warnings = append(warnings, w) }))
			if tt.wantErr != nil {
				require.Error(t, err)
				for _, w := range tt.wantErr {
					assert.Contains(t, err.Error(), w)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Len(t, warnings, tt.wantWarnings)
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.csv"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nope.csv")
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	rows := sampleRows(6)
	writeFile(t, dir, "b.csv", rows[2:4]...)
	writeFile(t, dir, "a.csv", rows[0:2]...)
	writeFile(t, dir, "c.csv", rows[4:]...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a results file"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.csv.lock"), []byte("pid 1\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "old.csv"), 0o755))

	got, files, err := LoadDir(dir)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
	assert.Equal(t, []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), filepath.Join(dir, "c.csv")}, files)

	empty := t.TempDir()
	got, files, err = LoadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Empty(t, files)

	_, _, err = LoadDir(filepath.Join(dir, "missing"))
	assert.Error(t, err)
	_, _, err = LoadDir(filepath.Join(dir, "a.csv"))
	assert.ErrorContains(t, err, "not a directory")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "d.csv"), []byte("x;y\n"), 0o644))
	_, _, err = LoadDir(dir)
	assert.ErrorContains(t, err, "d.csv")
}

func TestDone(t *testing.T) {
	rows := []Row{
		{RunKey: "ok", Status: StatusOK},
		{RunKey: "err", Status: StatusError},
		{RunKey: "timeout", Status: StatusTimeout},
		{RunKey: "crash", Status: StatusCrash},
		{RunKey: "wrong", Status: StatusWrong},
		{RunKey: "retried", Status: StatusCrash},
		{RunKey: "retried", Status: StatusOK},
	}
	tests := []struct {
		name        string
		retryFailed bool
		want        map[string]bool
	}{
		{name: "skip everything present", want: map[string]bool{"ok": true, "err": true, "timeout": true, "crash": true, "wrong": true, "retried": true}},
		{name: "retry failures", retryFailed: true, want: map[string]bool{"ok": true, "wrong": true, "retried": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Done(rows, tt.retryFailed))
		})
	}
	assert.Empty(t, Done(nil, false))
}

// TestResume100kUnderOneSecond guards the figure of BenchmarkResume100k.
func TestResume100kUnderOneSecond(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	writeFile(t, dir, "runs.csv", sampleRows(100_000)...)
	// The best of three, so that a busy machine does not fail the test.
	best := time.Hour
	for range 3 {
		start := time.Now()
		rows, _, err := LoadDir(dir)
		require.NoError(t, err)
		done := Done(rows, false)
		best = min(best, time.Since(start))
		require.Len(t, done, 100_000)
	}
	t.Logf("resume over 100,000 rows: %v", best)
	assert.Less(t, best, time.Second)
}

// BenchmarkResume100k measures what a resumed campaign does before its first
// run: load 100,000 rows and collect their run keys.
func BenchmarkResume100k(b *testing.B) {
	dir := b.TempDir()
	path := writeFile(b, dir, "runs.csv", sampleRows(100_000)...)
	if st, err := os.Stat(path); err == nil {
		b.SetBytes(st.Size())
	}
	b.ReportAllocs()
	for b.Loop() {
		rows, _, err := LoadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		if done := Done(rows, false); len(done) != 100_000 {
			b.Fatalf("%d run keys", len(done))
		}
	}
}

// A folder that holds a merged file beside the files it was merged from
// counts every run once, with a warning naming the files; a retry of a run
// (same key, another start time or content) is a run of its own.
func TestLoadDirCountsARunOnce(t *testing.T) {
	rows := sampleRows(6)
	retry := rows[3]
	retry.Status, retry.ErrorMessage, retry.StartTime = StatusOK, "", "2026-01-03T00:00:00Z"
	sameSecond := rows[3] // a retry within the same second: other content
	sameSecond.Status, sameSecond.ErrorMessage, sameSecond.StartTime = StatusOK, "", rows[3].StartTime
	otherMachine := rows[0]
	otherMachine.Machine = "ffffffffffff"
	tests := []struct {
		name         string
		files        map[string][]Row
		want         []Row
		wantWarnings []string
	}{
		{
			name:         "a merged file beside its inputs",
			files:        map[string][]Row{"all.csv": rows, "node1.csv": rows[:4], "node2.csv": rows[4:]},
			want:         rows,
			wantWarnings: []string{"node1.csv: 4 rows repeat runs of ", "all.csv (the same run key, machine and start time): counted once", "node2.csv: 2 rows repeat"},
		},
		{
			name:         "one row copied",
			files:        map[string][]Row{"a.csv": rows[:2], "b.csv": rows[1:2]},
			want:         rows[:2],
			wantWarnings: []string{"b.csv: 1 row repeats runs of "},
		},
		{
			name:  "retries and other machines are runs",
			files: map[string][]Row{"a.csv": {rows[3], sameSecond}, "b.csv": {retry, otherMachine}},
			want:  []Row{rows[3], sameSecond, retry, otherMachine},
		},
		{
			name:         "a retry within one second, merged",
			files:        map[string][]Row{"all.csv": {rows[3], sameSecond}, "node1.csv": {rows[3], sameSecond}},
			want:         []Row{rows[3], sameSecond},
			wantWarnings: []string{"node1.csv: 2 rows repeat runs of "},
		},
		{
			name:  "rows repeated in one file are its writer's",
			files: map[string][]Row{"a.csv": {rows[0], rows[0]}},
			want:  []Row{rows[0], rows[0]},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, rs := range tt.files {
				writeFile(t, dir, name, rs...)
			}
			var warnings []string
			got, files, err := LoadDir(dir, WithWarnings(func(w string) { warnings = append(warnings, w) }))
			require.NoError(t, err)
			assert.Len(t, files, len(tt.files))
			assert.Equal(t, tt.want, got)
			all := strings.Join(warnings, "\n")
			for _, w := range tt.wantWarnings {
				assert.Contains(t, all, w)
			}
			if len(tt.wantWarnings) == 0 {
				assert.Empty(t, warnings)
			}
		})
	}
}
