package report

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gdlperf/gdlperf/results"
)

// syntheticRows is a campaign of engines x games x reps runs on one
// machine, with about 1% failures and some zero rates.
func syntheticRows(engines, games, reps int) []results.Row {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]results.Row, 0, engines*games*reps)
	for g := range games {
		game := fmt.Sprintf("BASE/game%03d/h%05d", g, g*7919%100000)
		base := 100 * float64(1+rng.IntN(10000))
		for e := range engines {
			speed := base * float64(e+1) * (0.5 + rng.Float64())
			for r := range reps {
				row := results.Row{
					RunKey: fmt.Sprintf("run-%d-%d-%d", g, e, r), GameKey: game,
					Engine: fmt.Sprintf("engine%02d", e), EngineVersion: "1." + strconv.Itoa(e),
					Repetition: r, Status: results.StatusOK, Mode: "time", TargetSeconds: 30,
					StartTime:         fmt.Sprintf("2026-03-%02dT%02d:%02d:00Z", 1+r, g%24, e),
					MillisecondsTaken: 30000, InitMilliseconds: int64(rng.IntN(500)), PeakRSSKiB: int64(20000 + rng.IntN(50000)),
					Host: "bench", Machine: "bench-machine", CPUModel: "Bench CPU", Governor: "performance", GoVersion: "go1.26.0", Kernel: "6.1",
				}
				switch x := rng.IntN(100); {
				case x == 0:
					row.Status, row.ErrorMessage = results.StatusCrash, "signal: killed"
				case x == 1 && e == 0:
					row.StateChanges = 0
				default:
					row.StateChanges = int64(speed * 30 * (0.97 + 0.06*rng.Float64()))
					row.Rollouts = row.StateChanges / 40
				}
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// BenchmarkRender30k renders and writes the site of 30,000 rows (10
// engines x 600 games x 5 repetitions), the size of a full campaign; the
// issue's budget is 10 s and 1 GiB. peak-RSS-MiB is the process's high
// water mark (setup included).
func BenchmarkRender30k(b *testing.B) {
	rows := syntheticRows(10, 600, 5)
	dir := b.TempDir()
	var site *Site
	for b.Loop() {
		var err error
		site, err = Render(rows, WithBaseline("engine00"))
		if err != nil {
			b.Fatal(err)
		}
		if err := site.Write(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(site.Pages)), "pages")
	b.ReportMetric(float64(site.Bytes())/(1<<20), "site-MiB")
	if kib := peakRSSKiB(); kib > 0 {
		b.ReportMetric(float64(kib)/1024, "peak-RSS-MiB")
	}
}

// peakRSSKiB reads this process's VmHWM, or 0.
func peakRSSKiB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// syntheticChecks are check rows for the engines and games of
// syntheticRows: three methods each, a mismatch on every 40th game of
// every engine but the first, an external-looking unchecked engine.
func syntheticChecks(engines, games int) []results.CheckRow {
	var rows []results.CheckRow
	for g := range games {
		game := fmt.Sprintf("BASE/game%03d/h%05d", g, g*7919%100000)
		for e := range engines {
			for _, m := range []string{"trace", "exhaustive", "metamorphic"} {
				r := results.CheckRow{
					CheckKey: fmt.Sprintf("chk-%d-%d-%s", g, e, m), GameKey: game,
					Engine: fmt.Sprintf("engine%02d", e), EngineVersion: "1." + strconv.Itoa(e),
					Reference: "engine00", ReferenceVersion: "1.0", Method: m, Verdict: results.VerdictOK,
					Seed: 1, Rollouts: 64, StartTime: "2026-02-01T00:00:00Z", Host: "bench",
				}
				switch {
				case e == engines-1:
					r.Verdict, r.Detail = results.VerdictUnchecked, "the engine's manifest names no trace command"
				case e > 0 && g%40 == e && m == "trace":
					r.Verdict, r.Rollout, r.Step = results.VerdictMismatch, 3, 12
					r.Detail = "legal moves of role 0 missing (move 1 2); state extra (cell 1 2 x)"
					r.History = strings.Repeat("(move 1 1) noop | ", 11) + "(move 2 2) noop"
					r.Reproduce = "gdlperf check --engines " + r.Engine + " --games " + game + " --methods trace --seed 1 --rollouts 64"
				}
				rows = append(rows, r)
			}
		}
	}
	return rows
}

// BenchmarkRender30kWithVerdicts is BenchmarkRender30k with 18,000 check
// rows.
func BenchmarkRender30kWithVerdicts(b *testing.B) {
	rows, checks := syntheticRows(10, 600, 5), syntheticChecks(10, 600)
	dir := b.TempDir()
	var site *Site
	for b.Loop() {
		var err error
		site, err = Render(rows, WithBaseline("engine00"), WithVerdicts(checks))
		if err != nil {
			b.Fatal(err)
		}
		if err := site.Write(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(site.Pages)), "pages")
	b.ReportMetric(float64(site.Bytes())/(1<<20), "site-MiB")
	if kib := peakRSSKiB(); kib > 0 {
		b.ReportMetric(float64(kib)/1024, "peak-RSS-MiB")
	}
}
