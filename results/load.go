package results

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// LoadOption changes how files are loaded.
type LoadOption func(*loadOptions)

type loadOptions struct {
	warn func(string)
}

// WithWarnings has f called with every non-fatal finding while loading, such
// as a torn last line that was ignored. Without it, warnings are dropped.
func WithWarnings(f func(warning string)) LoadOption {
	return func(o *loadOptions) { o.warn = f }
}

func newLoadOptions(opts []LoadOption) *loadOptions {
	o := &loadOptions{warn: func(string) {}}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// Load reads the rows of one results file. A torn last line (the file ends
// in the middle of a row, as after a crash) is ignored with a warning; a
// file whose header is not a gdlperf results header is an error. Columns
// this version does not know are ignored; columns it knows but the file
// lacks read as zero values.
func Load(path string, opts ...LoadOption) ([]Row, error) {
	return load(path, newLoadOptions(opts))
}

func load(path string, o *loadOptions) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	p, err := parseCSV(path, data)
	if err != nil {
		return nil, err
	}
	if p.torn > 0 {
		o.warn(fmt.Sprintf("%s: ignored a torn last line of %d bytes (a run interrupted while its row was written)", path, p.torn))
	}
	return p.decode(path)
}

// LoadDir reads every *.csv file of dir, in the order of their names, and
// returns all their rows and the files read.
func LoadDir(dir string, opts ...LoadOption) ([]Row, []string, error) {
	o := newLoadOptions(opts)
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("reading results: %w", err)
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("reading results: %s is not a directory", dir)
	}
	files, err := csvFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	var all []Row
	for _, f := range files {
		rows, err := load(f, o)
		if err != nil {
			return nil, nil, err
		}
		if all == nil {
			all = rows
		} else {
			all = append(all, rows...)
		}
	}
	return all, files, nil
}

// csvFiles lists the regular *.csv files of dir, sorted by name.
func csvFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".csv" {
			continue
		}
		files = append(files, filepath.Join(dir, e.Name()))
	}
	slices.Sort(files)
	return files, nil
}

// Done returns the run keys a resumed campaign skips: the keys of all rows,
// or, with retryFailed, only of rows whose run finished (status ok, or wrong:
// the engine ran but failed the correctness check, which a rerun does not
// change).
func Done(rows []Row, retryFailed bool) map[string]bool {
	done := make(map[string]bool, len(rows))
	for i := range rows {
		r := &rows[i]
		if retryFailed && r.Status != StatusOK && r.Status != StatusWrong {
			continue
		}
		done[r.RunKey] = true
	}
	return done
}
