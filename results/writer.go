package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// DefaultMinFree is the free space OpenWriter wants in the results
// directory, so that a full disk is found before any engine runs.
const DefaultMinFree = 1 << 20

// WriterOption changes how OpenWriter opens a file.
type WriterOption func(*writerOptions)

type writerOptions struct {
	minFree int64
}

// WithMinFree sets the free space (bytes) the results directory must have
// when the writer opens; 0 turns the check off.
func WithMinFree(bytes int64) WriterOption {
	return func(o *writerOptions) { o.minFree = bytes }
}

// appendFile is what a Writer needs of its file (tests put a failing disk
// in its place).
type appendFile interface {
	io.WriterAt
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Writer appends rows to one results file. It holds an exclusive lock on the
// file (a sibling PATH.lock, flock(2)), so two campaigns never write the same
// file, and every Append is written and fsynced before it returns, so a row
// is either complete on disk or absent. An error on Append (a full disk)
// stops the writer: the file is cut back to its last complete row and every
// later Append returns the same error.
//
// Any string round-trips, commas, quotes and newlines included, except that
// a CR LF inside a field reads back as LF (encoding/csv).
type Writer struct {
	path     string
	f        appendFile
	lock     *os.File
	size     int64 // bytes of complete rows on disk
	repaired int
	migrated int // rows rewritten with this version's header
	warnings []string
	err      error // sticky
	buf      bytes.Buffer
}

// OpenWriter opens (or creates) the results file at path for appending,
// creating its directory if needed. A new or empty file gets the header. A
// torn last line left by a crash is cut off (see Repaired). It fails with a
// clear error when another process holds the file, when the directory is not
// writable, when the file has another header, or when the disk is (nearly)
// full.
func OpenWriter(path string, opts ...WriterOption) (*Writer, error) {
	o := writerOptions{minFree: DefaultMinFree}
	for _, opt := range opts {
		opt(&o)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot write results to %s: %w", path, err)
	}
	lock, err := acquireLock(path)
	if err != nil {
		return nil, err
	}
	w, err := openLocked(path, dir, o)
	if err != nil {
		lock.Close()
		return nil, err
	}
	w.lock = lock
	return w, nil
}

func openLocked(path, dir string, o writerOptions) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write results to %s: %w", path, err)
	}
	w := &Writer{path: path, f: f}
	if err := w.prepare(f, dir, o); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// prepare checks the existing content, repairs a torn tail, writes the
// header of a new file and checks the free space.
func (w *Writer) prepare(f *os.File, dir string, o writerOptions) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot write results to %s: %w", w.path, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("cannot write results to %s: not a regular file", w.path)
	}
	if o.minFree > 0 {
		var fs syscall.Statfs_t
		if err := syscall.Statfs(dir, &fs); err == nil {
			if free := int64(fs.Bavail) * int64(fs.Bsize); free < o.minFree {
				return fmt.Errorf("cannot write results to %s: only %d bytes free on its disk (want at least %d); free some space or choose another results directory", w.path, free, o.minFree)
			}
		}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("reading %s: %w", w.path, err)
	}
	p, err := parseCSV(w.path, data)
	if err != nil {
		return err
	}
	if len(p.records) > 0 {
		if err := checkHeader(w.path, p.records[0]); err != nil {
			return err
		}
		if !slices.Equal(p.records[0], header) {
			if unknown := unknownColumns(p.records[0]); len(unknown) > 0 {
				return fmt.Errorf("cannot append to %s: its columns differ from this version's (%s), so it was written by a newer gdlperf; write to a new file: --results NEW_FOLDER, or move %s aside ('gdlperf results merge %s --out NEW.csv' rewrites it with this version's columns)", w.path, columnDiff(p.records[0], header), w.path, w.path)
			}
			if err := w.migrate(f, p); err != nil {
				return err
			}
			return nil
		}
	}
	if p.torn > 0 {
		if err := f.Truncate(int64(p.valid)); err != nil {
			return fmt.Errorf("repairing the torn last line of %s: %w", w.path, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("repairing the torn last line of %s: %w", w.path, err)
		}
		w.repaired = p.torn
		w.warnings = append(w.warnings, fmt.Sprintf("%s: removed a torn last line of %d bytes (a run interrupted while its row was written; it will be run again)", w.path, p.torn))
	}
	w.size = int64(p.valid)
	if len(p.records) == 0 {
		// New, empty, or only a torn header.
		if _, err := f.WriteAt(headerLine, 0); err != nil {
			f.Truncate(0)
			return fmt.Errorf("cannot write results to %s: %w", w.path, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("cannot write results to %s: %w", w.path, err)
		}
		w.size = int64(len(headerLine))
		syncDir(dir)
	}
	return nil
}

// unknownColumns are the columns of hdr this version does not write.
func unknownColumns(hdr []string) []string {
	var out []string
	for _, c := range hdr {
		if !slices.Contains(header, c) {
			out = append(out, c)
		}
	}
	return out
}

// migrate rewrites a file of an older header (every column known, some
// missing) with this version's header: its rows keep every value, the new
// cells read as their defaults. The new content is written beside the file
// and renamed over it, so a crash leaves the old file or the new one; the
// writer's lock is held throughout. A torn last line is dropped, as prepare
// would cut it.
func (w *Writer) migrate(f *os.File, p *parsed) error {
	rows, err := p.decode(w.path)
	if err != nil {
		return err
	}
	old := strings.Join(p.records[0], ",")
	if err := writeFileAtomic(w.path, rows); err != nil {
		return fmt.Errorf("migrating %s to this version's columns: %w", w.path, err)
	}
	nf, err := os.OpenFile(w.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("migrating %s: %w", w.path, err)
	}
	st, err := nf.Stat()
	if err != nil {
		nf.Close()
		return fmt.Errorf("migrating %s: %w", w.path, err)
	}
	f.Close()
	w.f = nf
	w.size = st.Size()
	w.migrated = len(rows)
	w.warnings = append(w.warnings, fmt.Sprintf("%s: rewrote %d row(s) with this version's columns (%s); the new cells are empty", w.path, len(rows), columnDiff(strings.Split(old, ","), header)))
	return nil
}

func columnDiff(have, want []string) string {
	var missing, extra []string
	for _, c := range want {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	for _, c := range have {
		if !slices.Contains(want, c) {
			extra = append(extra, c)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "unknown "+strings.Join(extra, ", "))
	}
	if len(parts) == 0 {
		return "same columns in another order"
	}
	return strings.Join(parts, "; ")
}

// acquireLock takes the exclusive lock of the results file at path.
func acquireLock(path string) (*os.File, error) {
	lp := path + ".lock"
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write results to %s: creating its lock file: %w (is the directory writable?)", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := ""
			if b, err := io.ReadAll(io.LimitReader(f, 64)); err == nil && len(bytes.TrimSpace(b)) > 0 {
				holder = " (" + string(bytes.TrimSpace(b)) + ")"
			}
			return nil, fmt.Errorf("%s is being written by another gdlperf process%s holding %s; wait for it to finish or write to another file", path, holder, lp)
		}
		return nil, fmt.Errorf("cannot write results to %s: locking %s: %w", path, lp, err)
	}
	// Say who holds the lock, for the error of the next one who tries. The
	// lock file is never removed: removing it would let two processes lock
	// two different files of the same name.
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d\n", os.Getpid())
	}
	return f, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Path is the file the writer appends to.
func (w *Writer) Path() string { return w.path }

// Repaired returns the size of the torn last line that OpenWriter cut off,
// or 0.
func (w *Writer) Repaired() (bytesDropped int) { return w.repaired }

// Warnings are the non-fatal findings of OpenWriter, for the user.
func (w *Writer) Warnings() []string { return w.warnings }

// Append writes row, and returns once it is on disk.
func (w *Writer) Append(row *Row) error {
	return w.AppendRows([]Row{*row})
}

// AppendRows writes rows with one write and one fsync: all of them are on
// disk when it returns nil, none of them when it returns an error (unless
// the machine crashes, which leaves a torn line for OpenWriter to repair).
func (w *Writer) AppendRows(rows []Row) error {
	if w.err != nil {
		return w.err
	}
	if w.f == nil {
		return fmt.Errorf("appending to %s: the writer is closed", w.path)
	}
	for i := range rows {
		if rows[i].RunKey == "" {
			return fmt.Errorf("appending to %s: a row of %s on %s has no run key", w.path, rows[i].Engine, rows[i].GameKey)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	w.buf.Reset()
	if err := encodeRows(&w.buf, rows); err != nil {
		return fmt.Errorf("appending to %s: %w", w.path, err)
	}
	n, err := w.f.WriteAt(w.buf.Bytes(), w.size)
	if err == nil {
		err = w.f.Sync()
	}
	if err != nil {
		err = fmt.Errorf("appending to %s: %w", w.path, err)
		// Cut back to the last complete row so that nothing partial stays,
		// whatever reached the disk.
		if terr := w.f.Truncate(w.size); terr != nil {
			err = fmt.Errorf("%w (and cutting the partial row off failed: %v; the next start repairs it)", err, terr)
		} else {
			w.f.Sync()
		}
		w.err = fmt.Errorf("%w; this writer stopped", err)
		return err
	}
	w.size += int64(n)
	return nil
}

// Close closes the file and releases the lock.
func (w *Writer) Close() error {
	var err error
	if w.f != nil {
		err = w.f.Close()
		w.f = nil
	}
	if w.lock != nil {
		if lerr := w.lock.Close(); err == nil {
			err = lerr
		}
		w.lock = nil
	}
	if err != nil {
		return fmt.Errorf("closing %s: %w", w.path, err)
	}
	return nil
}
