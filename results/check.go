package results

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocarina/gocsv"
)

// Verdicts of a correctness check.
const (
	VerdictOK        = "ok"        // the engine agreed with the reference
	VerdictMismatch  = "mismatch"  // it did not: the row says where and how
	VerdictError     = "error"     // the check could not run (crash, time-out, refusal)
	VerdictUnchecked = "unchecked" // the engine cannot be checked (no trace command)
)

// CheckDir is the folder, inside a results folder, of correctness rows.
const CheckDir = "check"

// CheckRow is one correctness check of an engine version on a game by one
// method, against a reference engine.
type CheckRow struct {
	CheckKey         string `csv:"check_key"`
	GameKey          string `csv:"game_key"`
	Engine           string `csv:"engine"`
	EngineVersion    string `csv:"engine_version"`
	Reference        string `csv:"reference"`
	ReferenceVersion string `csv:"reference_version"`
	Method           string `csv:"method"`  // trace, exhaustive, metamorphic
	Verdict          string `csv:"verdict"` // ok, mismatch, error, unchecked
	Seed             uint64 `csv:"seed"`
	Rollouts         int    `csv:"rollouts"` // rollouts compared (trace, metamorphic)
	States           int    `csv:"states"`   // states compared (exhaustive)
	Complete         bool   `csv:"complete"` // exhaustive: every reachable state
	Rollout          int    `csv:"rollout"`  // where a mismatch is
	Step             int    `csv:"step"`
	Detail           string `csv:"detail"`  // what differed, or the error
	History          string `csv:"history"` // joint moves to the mismatch, "|" between steps
	Reproduce        string `csv:"reproduce"`
	StartTime        string `csv:"start_time"`
	Millis           int64  `csv:"milliseconds"`
	Host             string `csv:"host"`
}

// AppendCheckRows appends rows to a check file, writing the header when the
// file is new, and syncs it. A torn last line left by a crash is cut off
// first.
func AppendCheckRows(path string, rows []CheckRow) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		cut := bytes.LastIndexByte(data, '\n') + 1
		if err := f.Truncate(int64(cut)); err != nil {
			return err
		}
		data = data[:cut]
	}
	if _, err := f.Seek(0, 2); err != nil {
		return err
	}
	var out string
	if len(data) == 0 {
		out, err = gocsv.MarshalString(rows)
	} else {
		out, err = gocsv.MarshalStringWithoutHeaders(rows)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(out); err != nil {
		return err
	}
	return f.Sync()
}

// LoadCheckRows reads every check file of a results folder (DIR/check/*.csv).
func LoadCheckRows(dir string) ([]CheckRow, error) {
	files, err := filepath.Glob(filepath.Join(dir, CheckDir, "*.csv"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []CheckRow
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if n := len(data); n > 0 && data[n-1] != '\n' {
			data = data[:bytes.LastIndexByte(data, '\n')+1]
		}
		if len(strings.TrimSpace(string(data))) == 0 {
			continue
		}
		var rows []CheckRow
		if err := gocsv.UnmarshalBytes(data, &rows); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		all = append(all, rows...)
	}
	return all, nil
}

// VerdictKey identifies an engine version on a game.
type VerdictKey struct {
	Game, Engine, Version string
}

// Summary is the verdict of an engine version on a game over all methods:
// mismatch if any method found one, else error if any failed, else ok if
// any passed, else unchecked; Detail is the first mismatch's or error's.
type Summary struct {
	Verdict string
	Detail  string
}

// Verdicts folds check rows into one verdict per engine version and game.
//
// A check run again (an error retried on resume, or --again) counts by its
// latest row only.
func Verdicts(rows []CheckRow) map[VerdictKey]Summary {
	rank := map[string]int{VerdictUnchecked: 0, VerdictOK: 1, VerdictError: 2, VerdictMismatch: 3}
	latest := map[string]int{}
	for i, r := range rows {
		latest[r.CheckKey] = i
	}
	out := map[VerdictKey]Summary{}
	for i, r := range rows {
		if latest[r.CheckKey] != i {
			continue
		}
		k := VerdictKey{r.GameKey, r.Engine, r.EngineVersion}
		cur, ok := out[k]
		if !ok || rank[r.Verdict] > rank[cur.Verdict] {
			d := r.Detail
			if r.Reproduce != "" {
				d += " (reproduce: " + r.Reproduce + ")"
			}
			out[k] = Summary{Verdict: r.Verdict, Detail: d}
		}
	}
	return out
}

// RunVerdicts gives gdlperf run the verdicts of gdlperf check stored under
// dir: "wrong" for an engine version that mismatched on a game, "ok" for
// one that agreed, and "unchecked" (with the reason) otherwise.
func RunVerdicts(dir string) (func(gameKey, engine, version string) (status, detail string), error) {
	rows, err := LoadCheckRows(dir)
	if err != nil {
		return nil, fmt.Errorf("reading correctness verdicts: %w", err)
	}
	v := Verdicts(rows)
	return func(gameKey, engine, version string) (string, string) {
		s, ok := v[VerdictKey{Game: gameKey, Engine: engine, Version: version}]
		switch {
		case !ok:
			return "unchecked", "never checked: run gdlperf check first"
		case s.Verdict == VerdictMismatch:
			return StatusWrong, "disagrees with the reference: " + s.Detail
		case s.Verdict == VerdictOK:
			return StatusOK, ""
		}
		return "unchecked", "check " + s.Verdict + ": " + s.Detail
	}, nil
}
