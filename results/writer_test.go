package results

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriterAppendsWithOneHeader(t *testing.T) {
	tests := []struct {
		name     string
		sessions [][]Row // rows appended by each open/close
	}{
		{name: "one session", sessions: [][]Row{sampleRows(3)}},
		{name: "resumed twice", sessions: [][]Row{sampleRows(2), {sampleRow(2)}, {sampleRow(3), sampleRow(4)}}},
		{name: "empty session between", sessions: [][]Row{{sampleRow(0)}, nil, {sampleRow(1)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "runs.csv") // the folder is created
			var want []Row
			for _, rows := range tt.sessions {
				w, err := OpenWriter(path)
				require.NoError(t, err)
				assert.Zero(t, w.Repaired())
				assert.Empty(t, w.Warnings())
				for i := range rows {
					require.NoError(t, w.Append(&rows[i]))
				}
				require.NoError(t, w.Close())
				want = append(want, rows...)
			}
			text := readString(t, path)
			assert.Equal(t, 1, strings.Count(text, "run_key,game_key,"), "one header")
			assert.True(t, strings.HasPrefix(text, string(headerLine)))
			got, err := Load(path)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

func TestHeaderIsRowTags(t *testing.T) {
	h := Header()
	require.Len(t, h, 52)
	assert.Equal(t, "run_key", h[0])
	assert.Equal(t, "stderr_tail", h[29], "the columns of gdlperf 1 come first, in their order")
	assert.Equal(t, "counter", h[len(h)-1])
	assert.Equal(t, strings.Join(h, ",")+"\n", string(headerLine))
}

func TestWriterLockExcludesSecondWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.csv")
	w1, err := OpenWriter(path)
	require.NoError(t, err)

	_, err = OpenWriter(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "another gdlperf process")
	assert.Contains(t, err.Error(), "pid ", "names the holder")

	_, err = Merge([]string{path}, path)
	require.Error(t, err, "merge must not replace a file being written")
	assert.Contains(t, err.Error(), "another gdlperf process")

	row := sampleRow(0)
	require.NoError(t, w1.Append(&row), "the first writer is not disturbed")
	require.NoError(t, w1.Close())

	w2, err := OpenWriter(path)
	require.NoError(t, err, "the lock is released by Close")
	require.NoError(t, w2.Close())
	require.NoError(t, w2.Close(), "Close twice is harmless")
	assert.Error(t, w2.Append(&row), "append after close")
}

func TestWriterRepairsTornLastLine(t *testing.T) {
	r0, r1 := sampleRow(0), sampleRow(1)
	r1.ErrorMessage = "line one\nline \"two\", with a comma\n"
	r1.StderrTail = `panic: "x"`
	full := encoded(t, r1)
	good := string(headerLine) + encoded(t, r0)

	type tc struct {
		name    string
		content string
		want    string // the file after OpenWriter
	}
	tests := []tc{
		{name: "torn header", content: string(headerLine[:17]), want: string(headerLine)},
		{name: "header without newline", content: string(headerLine[:len(headerLine)-1]), want: string(headerLine)},
		{name: "row without newline", content: good + full[:len(full)-1], want: good},
		{name: "cut inside a quoted field after its newline", content: good + full[:strings.Index(full, "\n")+1], want: good},
		{name: "cut with a carriage return", content: good + "run9,BASE/x/y,prover\r", want: good},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.csv")
			require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))

			var warnings []string
			rows, err := Load(path, WithWarnings(func(w string) { warnings = append(warnings, w) }))
			require.NoError(t, err, "Load tolerates the torn line")
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], "torn last line")

			w, err := OpenWriter(path)
			require.NoError(t, err)
			wantDropped := len(tt.content) // a torn header goes whole
			if strings.HasPrefix(tt.content, tt.want) {
				wantDropped = len(tt.content) - len(tt.want)
			}
			assert.Equal(t, wantDropped, w.Repaired())
			require.Len(t, w.Warnings(), 1)
			assert.Contains(t, w.Warnings()[0], path)
			assert.Equal(t, tt.want, readString(t, path), "cut back to the last complete row")

			// The repaired file takes new rows and reads back whole.
			require.NoError(t, w.Append(&r1))
			require.NoError(t, w.Close())
			got, err := Load(path)
			require.NoError(t, err)
			assert.Equal(t, append(rows, r1), got)
		})
	}
}

// TestParseCSVEveryCutPoint cuts a hostile row at every byte: each prefix
// is a torn last line, found and dropped, and the rows before it stay.
func TestParseCSVEveryCutPoint(t *testing.T) {
	r0, r1 := sampleRow(0), sampleRow(1)
	r1.ErrorMessage = "line one\nline \"two\", with a comma\n"
	r1.StderrTail = `panic: "x"`
	full := encoded(t, r1)
	good := string(headerLine) + encoded(t, r0)
	for n := 1; n < len(full); n++ {
		p, err := parseCSV("runs.csv", []byte(good+full[:n]))
		require.NoError(t, err, "cut at %d: %q", n, full[:n])
		assert.Equal(t, len(good), p.valid, "cut at %d", n)
		assert.Equal(t, n, p.torn, "cut at %d", n)
		rows, err := p.decode("runs.csv")
		require.NoError(t, err)
		assert.Equal(t, []Row{r0}, rows)
	}
	p, err := parseCSV("runs.csv", []byte(good+full))
	require.NoError(t, err)
	assert.Zero(t, p.torn)
	rows, err := p.decode("runs.csv")
	require.NoError(t, err)
	assert.Equal(t, []Row{r0, r1}, rows)
}

func TestOpenWriterRejects(t *testing.T) {
	good := string(headerLine) + encoded(t, sampleRow(0))
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{name: "gdl-perf rows", content: "BASE/ticTacToe/JRFsaQ;PROVER;1;true;;30000;1000;100\n", want: []string{"not a gdlperf results file", "gdlperf results import"}},
		{name: "another csv", content: "a,b,c\n1,2,3\n", want: []string{"not a gdlperf results file", "run_key"}},
		{name: "newer columns", content: strings.Replace(string(headerLine), ",stderr_tail", ",stderr_tail,from_the_future", 1), want: []string{"columns differ", "unknown from_the_future", "newer gdlperf", "--results NEW_FOLDER", "results merge"}},
		{name: "damage in the middle", content: good + "x,\"y\"z,w\n" + encoded(t, sampleRow(1)), want: []string{":3:", "quote"}},
		{name: "long unterminated tail", content: good + "r,\"" + strings.Repeat("x,\n", maxTornBytes/3+1), want: []string{"extraneous or missing"}},
		{name: "torn line with too many fields", content: good + strings.Repeat("a,", 60), want: []string{"incomplete", "by hand"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.csv")
			require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			_, err := OpenWriter(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Equal(t, tt.content, readString(t, path), "a rejected file is left alone")
		})
	}
}

func TestOpenWriterUnwritable(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the path to open
		want  string
		root  bool // the case works when running as root
	}{
		{
			name: "parent is a regular file",
			setup: func(t *testing.T) string {
				f := filepath.Join(t.TempDir(), "file")
				require.NoError(t, os.WriteFile(f, nil, 0o644))
				return filepath.Join(f, "runs.csv")
			},
			want: "not a directory",
			root: true,
		},
		{
			name: "path is a directory",
			setup: func(t *testing.T) string {
				d := filepath.Join(t.TempDir(), "runs.csv")
				require.NoError(t, os.Mkdir(d, 0o755))
				return d
			},
			want: "is a directory",
			root: true,
		},
		{
			name: "read-only directory",
			setup: func(t *testing.T) string {
				d := t.TempDir()
				require.NoError(t, os.Chmod(d, 0o555))
				t.Cleanup(func() { os.Chmod(d, 0o755) })
				return filepath.Join(d, "runs.csv")
			},
			want: "permission denied",
		},
		{
			name: "read-only file",
			setup: func(t *testing.T) string {
				d := t.TempDir()
				p := writeFile(t, d, "runs.csv", sampleRow(0))
				require.NoError(t, os.Chmod(p, 0o444))
				return p
			},
			want: "permission denied",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.root && os.Geteuid() == 0 {
				t.Skip("permissions do not stop root")
			}
			path := tt.setup(t)
			_, err := OpenWriter(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestOpenWriterWantsFreeSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.csv")
	_, err := OpenWriter(path, WithMinFree(1<<62))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bytes free")
	assert.Contains(t, err.Error(), path)

	w, err := OpenWriter(path, WithMinFree(0))
	require.NoError(t, err)
	require.NoError(t, w.Close())
}

// failingFile passes writes to the real file until it is told to fail.
type failingFile struct {
	*os.File
	writeErr  error
	partial   int // bytes written before the write error
	syncErr   error
	truncates int
}

func (f *failingFile) WriteAt(b []byte, off int64) (int, error) {
	if f.writeErr != nil {
		n, _ := f.File.WriteAt(b[:min(f.partial, len(b))], off)
		return n, f.writeErr
	}
	return f.File.WriteAt(b, off)
}

func (f *failingFile) Sync() error {
	if f.syncErr != nil {
		return f.syncErr
	}
	return f.File.Sync()
}

func (f *failingFile) Truncate(n int64) error {
	f.truncates++
	return f.File.Truncate(n)
}

func TestAppendDiskFull(t *testing.T) {
	tests := []struct {
		name      string
		writeErr  error
		partial   int
		syncErr   error
		wantIs    error
		wantBytes bool // the file keeps only complete rows
	}{
		{name: "no space, nothing written", writeErr: syscall.ENOSPC, wantIs: syscall.ENOSPC},
		{name: "no space, half a row written", writeErr: syscall.ENOSPC, partial: 40, wantIs: syscall.ENOSPC},
		{name: "fsync fails", syncErr: syscall.EIO, wantIs: syscall.EIO},
		{name: "quota", writeErr: syscall.EDQUOT, partial: 1, wantIs: syscall.EDQUOT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.csv")
			w, err := OpenWriter(path)
			require.NoError(t, err)
			r0, r1 := sampleRow(0), sampleRow(1)
			require.NoError(t, w.Append(&r0))
			before := readString(t, path)

			ff := &failingFile{File: w.f.(*os.File), writeErr: tt.writeErr, partial: tt.partial, syncErr: tt.syncErr}
			w.f = ff
			err = w.Append(&r1)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.wantIs)
			assert.Contains(t, err.Error(), path)
			assert.Equal(t, before, readString(t, path), "the partial row is cut off")

			ff.writeErr, ff.syncErr = nil, nil
			err = w.Append(&r1)
			require.Error(t, err, "the writer stays stopped")
			assert.ErrorIs(t, err, tt.wantIs)
			require.NoError(t, w.Close())

			rows, err := Load(path)
			require.NoError(t, err)
			assert.Equal(t, []Row{r0}, rows)
		})
	}
}

// TestAppendToDevFull uses the kernel's own full disk.
func TestAppendToDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	path := filepath.Join(t.TempDir(), "runs.csv")
	w, err := OpenWriter(path)
	require.NoError(t, err)
	real := w.f
	w.f = full
	row := sampleRow(0)
	err = w.Append(&row)
	require.Error(t, err)
	assert.True(t, errors.Is(err, syscall.ENOSPC), "%v", err)
	w.f = real
	require.NoError(t, w.Close())
	full.Close()
}

func TestAppendRejectsRowWithoutKey(t *testing.T) {
	w, err := OpenWriter(filepath.Join(t.TempDir(), "runs.csv"))
	require.NoError(t, err)
	defer w.Close()
	row := sampleRow(0)
	row.RunKey = ""
	err = w.Append(&row)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no run key")
	row.RunKey = "k"
	assert.NoError(t, w.Append(&row), "a refused row does not stop the writer")
}

func TestHostileStringsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" means in
	}{
		{name: "comma", in: "a,b"},
		{name: "quotes", in: `say "hi"`},
		{name: "lone quote", in: `"`},
		{name: "two quotes", in: `""`},
		{name: "newline", in: "line1\nline2"},
		{name: "trailing newline", in: "x\n"},
		{name: "only newline", in: "\n"},
		{name: "quote comma newline", in: "\",\n\""},
		{name: "carriage return", in: "a\rb"},
		{name: "crlf reads back as lf", in: "a\r\nb", want: "a\nb"},
		{name: "leading space", in: "  padded  "},
		{name: "semicolons", in: "a;b;c"},
		{name: "tab", in: "a\tb"},
		{name: "formula", in: "=cmd|' /C calc'!A0"},
		{name: "unicode", in: "ÿ 日本 \u2028 😀"},
		{name: "header lookalike", in: string(headerLine)},
	}
	path := filepath.Join(t.TempDir(), "runs.csv")
	w, err := OpenWriter(path)
	require.NoError(t, err)
	var want []Row
	for i, tt := range tests {
		row := sampleRow(i)
		row.ErrorMessage = tt.in
		row.StderrTail = tt.in
		row.Engine = tt.in
		row.CPUModel = tt.in
		require.NoError(t, w.Append(&row), tt.name)
		if tt.want != "" {
			row.ErrorMessage, row.StderrTail, row.Engine, row.CPUModel = tt.want, tt.want, tt.want, tt.want
		}
		want = append(want, row)
	}
	require.NoError(t, w.Close())
	got, err := Load(path)
	require.NoError(t, err)
	require.Len(t, got, len(tests))
	for i, tt := range tests {
		assert.Equal(t, want[i], got[i], tt.name)
	}
	// A writer reopened on the file finds nothing to repair.
	w, err = OpenWriter(path)
	require.NoError(t, err)
	assert.Zero(t, w.Repaired())
	require.NoError(t, w.Close())
}

// A file written before the gdlperf 2 columns is rewritten with this
// version's header when a campaign appends to it: no row is lost, every
// old value is kept and the new cells read as their defaults.
func TestOpenWriterMigratesAnOlderHeader(t *testing.T) {
	old := Header()[:30] // the columns of gdlperf 1
	require.Equal(t, "stderr_tail", old[29])
	r0, r1 := sampleRow(0), sampleRow(1)
	var buf strings.Builder
	cw := csv.NewWriter(&buf)
	require.NoError(t, cw.Write(old))
	for _, r := range []Row{r0, r1} {
		rec, err := csv.NewReader(strings.NewReader(encoded(t, r))).Read()
		require.NoError(t, err)
		for _, cell := range rec[30:] {
			require.Contains(t, []string{"", "0", "false"}, cell, "the sample rows set no gdlperf 2 column")
		}
		require.NoError(t, cw.Write(rec[:30]))
	}
	cw.Flush()
	path := filepath.Join(t.TempDir(), "runs.csv")
	require.NoError(t, os.WriteFile(path, []byte(buf.String()+"torn,li"), 0o644))

	w, err := OpenWriter(path)
	require.NoError(t, err)
	require.Len(t, w.Warnings(), 1)
	assert.Contains(t, w.Warnings()[0], "rewrote 2 row(s)")
	assert.Contains(t, w.Warnings()[0], "missing workload")
	r2 := sampleRow(2)
	r2.Workload, r2.Jobs, r2.Contended = "uct", 2, true
	require.NoError(t, w.Append(&r2))
	require.NoError(t, w.Close())

	text := readString(t, path)
	assert.True(t, strings.HasPrefix(text, string(headerLine)), "the new header")
	got, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, []Row{r0, r1, r2}, got)
	// Opening again changes nothing.
	w, err = OpenWriter(path)
	require.NoError(t, err)
	assert.Empty(t, w.Warnings())
	require.NoError(t, w.Close())
	assert.Equal(t, text, readString(t, path))
}
