package results

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// MergeStats says what Merge did.
type MergeStats struct {
	Files      []string // the results files read, in order
	RowsRead   int
	Duplicates int // exact duplicates dropped
	// Conflicts counts rows kept beside another row of the same run key and
	// machine but different content (for example a failed run and its
	// retry). Both are kept: they are different runs.
	Conflicts int
	Written   int
	Warnings  []string // torn lines ignored in the inputs
}

// Merge unions the rows of inputs (results files, or folders whose *.csv
// files are read) into the file out, which it replaces atomically. A row is
// identified by its run key and machine; exact duplicates are dropped. The
// output is sorted (SortRows), so merging is idempotent: merging again, or
// merging the output with its inputs, writes the same bytes. out may be one
// of the inputs, or inside an input folder. out is locked like a Writer's
// file while it is written.
func Merge(inputs []string, out string) (MergeStats, error) {
	var st MergeStats
	if len(inputs) == 0 {
		return st, fmt.Errorf("merge: no input files or folders")
	}
	// Lock out before reading, so that no campaign appends to it between
	// the reading and the replacing.
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return st, fmt.Errorf("merge: cannot write %s: %w", out, err)
	}
	lock, err := acquireLock(out)
	if err != nil {
		return st, fmt.Errorf("merge: %w", err)
	}
	defer lock.Close()
	o := newLoadOptions([]LoadOption{WithWarnings(func(w string) { st.Warnings = append(st.Warnings, w) })})
	var all []Row
	seenFile := map[string]bool{}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return st, fmt.Errorf("merge: %w", err)
	}
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if errors.Is(err, fs.ErrNotExist) {
			if abs, aerr := filepath.Abs(in); aerr == nil && abs == outAbs {
				continue // the output as an input, on the first merge
			}
		}
		if err != nil {
			return st, fmt.Errorf("merge: %w", err)
		}
		files := []string{in}
		if fi.IsDir() {
			if files, err = csvFiles(in); err != nil {
				return st, fmt.Errorf("merge: %w", err)
			}
		}
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil {
				return st, fmt.Errorf("merge: %w", err)
			}
			if seenFile[abs] {
				continue // named twice, or a file inside a folder also named
			}
			seenFile[abs] = true
			rows, err := load(f, o)
			if err != nil {
				return st, fmt.Errorf("merge: %w", err)
			}
			st.Files = append(st.Files, f)
			st.RowsRead += len(rows)
			all = append(all, rows...)
		}
	}
	rows := Dedup(all)
	st.Duplicates = len(all) - len(rows)
	SortRows(rows)
	type id struct{ key, machine string }
	seen := make(map[id]bool, len(rows))
	for i := range rows {
		k := id{rows[i].RunKey, rows[i].Machine}
		if seen[k] {
			st.Conflicts++
		}
		seen[k] = true
	}
	if err := writeFileAtomic(out, rows); err != nil {
		return st, fmt.Errorf("merge: %w", err)
	}
	st.Written = len(rows)
	return st, nil
}

// Dedup returns rows without exact duplicates, keeping the first of each.
func Dedup(rows []Row) []Row {
	seen := make(map[Row]struct{}, len(rows))
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		if _, ok := seen[r]; ok {
			continue
		}
		seen[r] = struct{}{}
		out = append(out, r)
	}
	return out
}

// SortRows sorts rows by game, engine, engine version, repetition, run key,
// machine and start time, then by every other column, so that the order
// never depends on the order of the input.
func SortRows(rows []Row) {
	slices.SortFunc(rows, compareRows)
}

func compareRows(a, b Row) int {
	if c := cmp.Or(
		cmp.Compare(a.GameKey, b.GameKey),
		cmp.Compare(a.Engine, b.Engine),
		cmp.Compare(a.EngineVersion, b.EngineVersion),
		cmp.Compare(a.Repetition, b.Repetition),
		cmp.Compare(a.RunKey, b.RunKey),
		cmp.Compare(a.Machine, b.Machine),
		cmp.Compare(a.StartTime, b.StartTime),
	); c != 0 || a == b {
		return c
	}
	// Rare: same run, different content. Compare the whole records.
	var ba, bb bytes.Buffer
	_ = encodeRows(&ba, []Row{a})
	_ = encodeRows(&bb, []Row{b})
	return bytes.Compare(ba.Bytes(), bb.Bytes())
}

// writeFileAtomic writes a results file holding rows in place of path:
// a temporary file in the same folder, synced, then renamed over path. The
// caller holds the lock of path.
func writeFileAtomic(path string, rows []Row) error {
	dir := filepath.Dir(path)
	var buf bytes.Buffer
	buf.Write(headerLine)
	if err := encodeRows(&buf, rows); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// Cell is one (game, engine) pair of a campaign and how many of its runs
// are in the results.
type Cell struct {
	Game, Engine string
	OK           int // rows with status ok
	Runs         int // rows of any status
}

// Missing lists the cells of games x engines that have fewer than reps ok
// rows, sorted by game then engine. A nil games or engines means every game
// or engine that appears in rows. Rows of every engine version and machine
// count; filter rows first to ask about one of them.
func Missing(rows []Row, games, engines []string, reps int) []Cell {
	type pair struct{ game, engine string }
	count := map[pair]*Cell{}
	var seenGames, seenEngines []string
	for i := range rows {
		r := &rows[i]
		p := pair{r.GameKey, r.Engine}
		c := count[p]
		if c == nil {
			c = &Cell{Game: r.GameKey, Engine: r.Engine}
			count[p] = c
			seenGames = append(seenGames, r.GameKey)
			seenEngines = append(seenEngines, r.Engine)
		}
		c.Runs++
		if r.Status == StatusOK {
			c.OK++
		}
	}
	if games == nil {
		games = seenGames
	}
	if engines == nil {
		engines = seenEngines
	}
	games = sortedUnique(games)
	engines = sortedUnique(engines)
	var missing []Cell
	for _, g := range games {
		for _, e := range engines {
			c := Cell{Game: g, Engine: e}
			if have := count[pair{g, e}]; have != nil {
				c = *have
			}
			if c.OK < reps {
				missing = append(missing, c)
			}
		}
	}
	return missing
}

func sortedUnique(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
