package results

import (
	"cmp"
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
// returns all their rows and the files read. A row of the same run key,
// machine and start time as a row read before is the same run (a merged
// file beside the files it was merged from, or a file copied in twice): it
// is counted once, the first kept, with a warning naming both files.
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
	// A run is identified by its key, machine and start time; a row of an
	// earlier file with that identity and the same content is this row.
	// (Rows within one file are each a run, as its writer wrote them: a
	// failed run and its retry within one second differ in content.)
	type run struct{ key, machine, start string }
	first := map[run]int{}  // index in all of the first row of each run
	more := map[run][]int{} // of later rows of a run with other content (rare)
	var fileOf []int        // the file of each row of all
	type pair struct{ file, earlier int }
	repeats := map[pair]int{}
	var all []Row
	for fi, f := range files {
		rows, err := load(f, o)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 1 {
			return rows, files, nil // nothing to compare with
		}
		kept := rows[:0]
		for i := range rows {
			id := run{rows[i].RunKey, rows[i].Machine, rows[i].StartTime}
			at := len(all) + len(kept)
			idx, seen := first[id]
			if !seen {
				first[id] = at
			} else if earlier, ok := repeatOf(all, fileOf, rows[i], fi, append([]int{idx}, more[id]...)); ok {
				repeats[pair{fi, earlier}]++
				continue
			} else {
				more[id] = append(more[id], at)
			}
			kept = append(kept, rows[i])
			fileOf = append(fileOf, fi)
		}
		if all == nil {
			all = kept
		} else {
			all = append(all, kept...)
		}
	}
	pairs := make([]pair, 0, len(repeats))
	for p := range repeats {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.earlier, b.earlier)) })
	for _, p := range pairs {
		n := repeats[p]
		o.warn(fmt.Sprintf("%s: %d row%s repeat%s runs of %s (the same run key, machine and start time): counted once; a merged file beside the files it was merged from counts nothing new (merge into another folder)",
			files[p.file], n, plural(n, "", "s"), plural(n, "s", ""), files[p.earlier]))
	}
	return all, files, nil
}

// repeatOf says whether row (of file fi) is a row of another file among the
// rows of all at the indexes given, and the file.
func repeatOf(all []Row, fileOf []int, row Row, fi int, at []int) (int, bool) {
	for _, i := range at {
		if i < len(all) && fileOf[i] != fi && all[i] == row {
			return fileOf[i], true
		}
	}
	return 0, false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
