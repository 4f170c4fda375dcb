package results

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DefaultImportSource labels imported rows when no source is given: the
// published results of gdl-perf's 2016 campaign.
const DefaultImportSource = "gdl-perf-2016"

// gdlPerfFields is the layout of a gdl-perf results line.
const gdlPerfFields = "game;engine;version;ok;error;ms;stateChanges;rollouts"

// ImportGdlPerf reads gdl-perf's result lines,
//
//	game;engine;version;ok;error;ms;stateChanges;rollouts
//
// one run per line, into rows. The first four and the last three fields are
// fixed; everything between is the error message, which may itself contain
// ';'. A row's status is ok when ok is "true" and error otherwise; its mode
// is time, with 30 target seconds when ms is within a second of 30000 (the
// setting of gdl-perf's campaigns) and 0 (unknown) otherwise. Host and
// Machine are source (DefaultImportSource when ""). Repetition counts the
// earlier lines of the same game, engine and version. RunKey is
// "gdlperf:" and a hash of the line (with a counter for identical lines), so
// importing the same lines again gives the same keys. Lines that cannot be
// read come back as errors "source:line: ..."; the other lines are still
// imported. Blank lines are skipped.
func ImportGdlPerf(r io.Reader, source string) ([]Row, []error) {
	if source == "" {
		source = DefaultImportSource
	}
	var rows []Row
	var errs []error
	reps := map[[3]string]int{}
	same := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		row, err := parseGdlPerfLine(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", source, n, err))
			continue
		}
		k := [3]string{row.GameKey, row.Engine, row.EngineVersion}
		row.Repetition = reps[k]
		reps[k]++
		h := sha256.Sum256([]byte(line))
		row.RunKey = "gdlperf:" + hex.EncodeToString(h[:8])
		if c := same[line]; c > 0 {
			row.RunKey += "#" + strconv.Itoa(c)
		}
		same[line]++
		row.Host, row.Machine = source, source
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s:%d: %w", source, n+1, err))
	}
	return rows, errs
}

func parseGdlPerfLine(line string) (Row, error) {
	f := strings.Split(line, ";")
	if len(f) < 8 {
		return Row{}, fmt.Errorf("%d fields separated by ';', want 8 (%s)", len(f), gdlPerfFields)
	}
	n := len(f)
	row := Row{
		GameKey:       f[0],
		Engine:        f[1],
		EngineVersion: f[2],
		ErrorMessage:  strings.Join(f[4:n-3], ";"),
		Mode:          "time",
	}
	if row.GameKey == "" || row.Engine == "" {
		return Row{}, fmt.Errorf("empty game or engine (fields: %s)", gdlPerfFields)
	}
	switch f[3] {
	case "true":
		row.Status = StatusOK
	case "false":
		row.Status = StatusError
	default:
		return Row{}, fmt.Errorf("ok field is %q, want true or false", f[3])
	}
	var nums [3]int64
	for i, name := range []string{"ms", "stateChanges", "rollouts"} {
		v, err := strconv.ParseInt(f[n-3+i], 10, 64)
		if err != nil || v < 0 {
			return Row{}, fmt.Errorf("%s is %q, want a count", name, f[n-3+i])
		}
		nums[i] = v
	}
	row.MillisecondsTaken, row.StateChanges, row.Rollouts = nums[0], nums[1], nums[2]
	if row.MillisecondsTaken >= 29000 && row.MillisecondsTaken <= 31000 {
		row.TargetSeconds = 30
	}
	return row, nil
}
