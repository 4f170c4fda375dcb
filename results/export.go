package results

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// ExportFormats are the formats of Export.
var ExportFormats = []string{"benchfmt", "csv", "json", "markdown"}

// Export writes rows in a format: benchfmt (Go benchmark format, also
// "bench"), csv (every column, header first), json (an array of objects
// keyed by the CSV column names) or markdown (a table of the runs). Rows are
// written sorted as SortRows sorts them. Names, versions and messages come
// from engines and servers: csv and json quote them, benchfmt and markdown
// escape them (ExportBench, protocol.SafeMarkdown).
func Export(w io.Writer, format string, rows []Row) error {
	rows = append([]Row(nil), rows...)
	SortRows(rows)
	switch format {
	case "bench", "benchfmt":
		return ExportBench(w, rows)
	case "csv":
		return gocsv.Marshal(rows, w)
	case "json":
		objs := make([]map[string]string, len(rows))
		csvText, err := gocsv.MarshalString(rows)
		if err != nil {
			return err
		}
		recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
		if err != nil {
			return err
		}
		for i := range rows {
			objs[i] = map[string]string{}
			for j, col := range recs[0] {
				objs[i][col] = recs[i+1][j]
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(objs)
	case "markdown":
		fmt.Fprintln(w, "| game | engine | version | rep | status | states/s | rollouts | init ms | peak RSS KiB | error |")
		fmt.Fprintln(w, "|---|---|---|---:|---|---:|---:|---:|---:|---|")
		for i := range rows {
			r := &rows[i]
			rate := ""
			if r.Status == StatusOK {
				rate = fmt.Sprintf("%.0f", r.StatesPerSecond())
			}
			fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %d | %d | %d | %s |\n", md(r.GameKey), md(r.Engine), md(r.EngineVersion), r.Repetition, md(r.Status), rate, r.Rollouts, r.InitMilliseconds, r.PeakRSSKiB, md(r.ErrorMessage))
		}
		return nil
	}
	return fmt.Errorf("unknown format %q; the formats are %s", format, strings.Join(ExportFormats, ", "))
}

// md escapes a cell of a markdown table: no markup, HTML, line break or
// terminal control of the text comes through.
func md(s string) string { return protocol.SafeMarkdown(s) }
