// Package report turns result rows into statistics, a static HTML site and
// version comparisons (ARCHITECTURE.md §7).
//
// Statistics. Rows are grouped by machine fingerprint first: no median,
// interval or ratio ever mixes rows of two machines. Within a machine, a cell
// is one (game, engine version): its runs are the repetitions, and its speed
// is the median of the state changes per second of the runs that ended ok,
// with a distribution-free 95% confidence interval from order statistics
// (the binomial interval of the median), exactly as benchstat computes it
// with golang.org/x/perf/benchmath's AssumeNothing. Two cells are compared by
// the ratio of their medians; the difference is significant when the
// Mann-Whitney U test (also from benchmath) rejects "same distribution" at
// alpha 0.05. The interval of a ratio is the conservative quotient of the two
// intervals, [loA/hiB, hiA/loB].
//
// Aggregates over games (an engine against a baseline, or two versions)
// follow gdl-perf's summary, repaired: the median and the geometric mean of
// the per-game ratios are taken over the games where both sides ran ok with
// state changes > 0, so one zero or one failure cannot turn the geometric
// mean into 0 (or infinity); every excluded game is counted with its reason.
// The sum ratio is gdl-perf's "state changes with one second per game":
// the sum of one side's medians over the sum of the other's.
//
// Correctness. WithVerdicts supplies the rows of gdlperf check; a version's
// verdict on a game is results.Verdicts' fold over its methods (a check run
// more than once counts by its latest row). A cell is Wrong when its version
// had a mismatch on the game, or when one of its runs has status wrong (the
// run of a version that failed the check; such runs are failed runs, never
// measurements). A wrong cell's speed is struck out on the pages and left
// out of ranks, of the colours of the matrix and of every aggregate: the
// game is excluded with the reason "disagreed with the reference", counted
// like the other exclusions.
//
// The site (WriteSite) is plain HTML from html/template with inline CSS and
// inline SVG charts drawn by gonum.org/v1/plot: it needs no network, every
// string from a game, an engine or an error is escaped, page file names are
// derived from keys by SafeName, and the same rows always give the same bytes.
package report
