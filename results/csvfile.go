package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gocarina/gocsv"
)

// maxTornBytes bounds what is treated as a torn last record. A crash can
// only tear the one row being written, and a row is far smaller than this;
// a longer malformed tail is damage that a person should look at, so it is
// reported as an error instead of being cut off.
const maxTornBytes = 1 << 20

// requiredColumns must be in the header of a file for it to be ours. Other
// columns may be missing (zero values) or extra (ignored), so files written
// by older or newer versions still load.
var requiredColumns = []string{"run_key", "game_key", "engine", "engine_version", "repetition", "status"}

// Header returns the column names of Row, in order, as written in the
// first line of every results file.
func Header() []string { return slices.Clone(header) }

var header = func() []string {
	var buf bytes.Buffer
	cw := gocsv.NewSafeCSVWriter(csv.NewWriter(&buf))
	if err := gocsv.MarshalCSV([]Row{}, cw); err != nil {
		panic("results: the Row type cannot be written by gocsv: " + err.Error())
	}
	rec, err := csv.NewReader(&buf).Read()
	if err != nil {
		panic("results: reading back the header: " + err.Error())
	}
	return rec
}()

// headerLine is the header as written, with its newline.
var headerLine = func() []byte {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	_ = cw.Write(header)
	cw.Flush()
	return buf.Bytes()
}()

// encodeRows appends the CSV records of rows (no header) to buf.
func encodeRows(buf *bytes.Buffer, rows []Row) error {
	cw := gocsv.NewSafeCSVWriter(csv.NewWriter(buf))
	return gocsv.MarshalCSVWithoutHeaders(rows, cw)
}

// parsed is a results file split into records.
type parsed struct {
	records [][]string // the header first, then one record per row
	lines   []int      // the 1-based line where each record starts
	valid   int        // length of the prefix made of complete records
	torn    int        // bytes after valid: a torn last record
}

// parseCSV splits data into CSV records. Every complete record ends in '\n'.
// A last record that does not (the file ends in the middle of a row, as after
// a crash during a write) is not returned; its size is in torn. Malformed CSV
// anywhere else is an error with the file name and line.
func parseCSV(name string, data []byte) (*parsed, error) {
	p := &parsed{}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	for {
		start := r.InputOffset()
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A torn record that stopped inside a quoted field runs into
			// EOF; anything else is damage.
			var pe *csv.ParseError
			if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrQuote) && r.InputOffset() == int64(len(data)) && isOneTornRecord(data[start:], p.width()) {
				p.torn = len(data) - int(start)
				break
			}
			if pe != nil {
				return nil, fmt.Errorf("%s:%d:%d: %w", name, pe.Line, pe.Column, pe.Err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		end := r.InputOffset()
		line, _ := r.FieldPos(0)
		if data[end-1] != '\n' {
			// The last record lacks its newline: torn.
			if w := p.width(); w > 0 && len(rec) > w || len(data)-int(start) > maxTornBytes {
				return nil, fmt.Errorf("%s:%d: the last line is incomplete and is not a row cut short (%d fields, %d bytes); repair the file by hand", name, line, len(rec), len(data)-int(start))
			}
			p.torn = len(data) - int(start)
			break
		}
		p.records = append(p.records, rec)
		p.lines = append(p.lines, line)
		p.valid = int(end)
	}
	return p, nil
}

func (p *parsed) width() int {
	if len(p.records) == 0 {
		return 0
	}
	return len(p.records[0])
}

// isOneTornRecord reports whether tail, which ends inside a quoted field,
// is the beginning of a single record: closing the quote must give exactly
// one record of at most width fields (any width when there is no header).
func isOneTornRecord(tail []byte, width int) bool {
	if len(tail) > maxTornBytes {
		return false
	}
	r := csv.NewReader(io.MultiReader(bytes.NewReader(tail), strings.NewReader("\"\n")))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	return err == nil && len(recs) == 1 && (width == 0 || len(recs[0]) <= width)
}

// checkHeader reports whether hdr is a gdlperf results header.
func checkHeader(name string, hdr []string) error {
	for _, c := range requiredColumns {
		if !slices.Contains(hdr, c) {
			hint := ""
			if len(hdr) > 0 && strings.Count(hdr[0], ";") >= 7 {
				hint = "; it looks like gdl-perf's ';'-separated rows: import them with 'gdlperf results import'"
			}
			first := strings.Join(hdr, ",")
			if len(first) > 80 {
				first = first[:80] + "..."
			}
			return fmt.Errorf("%s: not a gdlperf results file: the header %q has no column %s%s", name, first, c, hint)
		}
	}
	return nil
}

// decode turns the records of p (header first) into rows.
func (p *parsed) decode(name string) ([]Row, error) {
	if len(p.records) == 0 {
		return nil, nil
	}
	hdr := p.records[0]
	if err := checkHeader(name, hdr); err != nil {
		return nil, err
	}
	for i, rec := range p.records[1:] {
		if len(rec) != len(hdr) {
			return nil, fmt.Errorf("%s:%d: %d fields, but the header has %d", name, p.lines[i+1], len(rec), len(hdr))
		}
	}
	if len(p.records) == 1 {
		return nil, nil
	}
	return decodeRecords(name, p.records, p.lines)
}
