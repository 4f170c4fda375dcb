// Package report turns result rows into statistics, a static HTML site and
// version comparisons (ARCHITECTURE.md §7).
//
// The API. Analyse groups rows into an Analysis: one Group per machine
// fingerprint and Setup, each holding a Cell per (game, Version) with its
// runs and statistics. ComparePair compares two versions within one Group
// game by game (a Pair of PairGames, aggregated by Summarize into a
// PairSummary); CompareSides compares two sets of rows (Side) for gdlperf
// compare and returns a Diff of DiffTables with a Verdict per game, which
// WriteText prints. Render builds the static Site (Pages, Write) with the
// options WithBaseline, WithTitle, WithSources, WithGameInfo and
// WithVerdicts. SeqTest and SeqDesign are the sequential test of gdlperf ab
// (sequential.go). The Format* functions print figures as every page and
// table does.
//
// The files. model.go (Analyse, Group, Cell), contention.go (contended runs,
// Setup), pair.go (ComparePair, Summarize), inference.go (intervals, Holm),
// diff.go (CompareSides), sequential.go; the site: site.go (Render, Site,
// templates), page.go (what every page shares: the builder, links, the
// machine facts and pair summaries), one file per page with its view types
// and its correctness decorations (page_index.go, page_engine.go,
// page_game.go, page_pair.go, page_history.go) and its template
// (templates/index.tmpl, ...; common.tmpl holds the shared pieces),
// checks.go (the correctness rows of gdlperf check, indexed), chart.go (the
// gonum/plot charts), format.go; dimensions.go (the workloads' order, the
// families of transformed setups, CompareAcross, the robustness bounds),
// page_transform.go (the views of transforms) and uct.go (the uct chart).
//
// The pages. The index leads with the answer, in hyperfine's style: per
// machine and setup, one sentence per engine version against the baseline,
// ranked by the geometric mean of its speedups ("propnet@3 ran 5.110×
// faster than prover@1 (geometric mean of the speedup per game over 4
// games, 95% interval [2.358, 11.07]; 4 games excluded)"); it says faster
// or slower only when that interval excludes 1, else "about as fast as
// (no significant difference; ...)". A chart beside it has a row per
// version, a dot per game at its speedup on a log axis, the geometric mean
// with its interval, and the 1× line. Then the correctness table and, per
// machine and setup, the summaries and the games × engines matrix. A page
// per engine version, per game, per pair of versions (the ratio per game)
// and per engine (its history: the versions in the order they were first
// measured, each against the first and the previous one, and the rate per
// game).
//
// The charts do not mislead: bars only on a linear axis from 0, where a
// bar's length is proportional to its value; on a log axis (rates that span
// more than a factor of 20, ratios beyond a factor of 4) dots with
// whiskers; ratios within a factor of 4 on a linear axis. Every point is an
// SVG circle with a <title> naming its game (or version) and figures, drawn
// by chart.go over gonum's canvas, which cannot give an element a title;
// profiles of many games label their three highest and lowest points.
//
// Workloads and transforms. Every page reads per workload: its sections
// (one per machine and setup) come by workload, rollouts first, then uct,
// pns and minimax, and a line of links leads to each workload's first
// section; the figures of two workloads are never combined. The index has,
// per machine and setup, every engine version against every other (the
// geometric mean of the speedup with its interval). A game page's uct
// section has the uct chart (Landau's): the mean value of each root move
// against the iterations, a line per move. The rows keep no answer, so the
// report makes it: uct is deterministic (engines/workload/SPEC.md), so it
// replays the search with the reference prover on the game's rules (from
// WithGameInfo) with the seed of the runs' first repetition at 10, 20, 50,
// ... iterations up to the runs' budget (WithUCTChart caps the iterations
// and the time; a chart cut short says so); it is every correct engine's
// chart. A transformed setup is measured against the same machine and
// setup untransformed (a family): per engine version, the ratio of its
// rate under each transform to its untransformed rate per game (the U test
// with Holm over the games, the interval that inverts it) and as the
// geometric mean with its t interval, in a table and a chart; on the game
// page the transforms side by side; on the index, in words, whether the
// version is robust: within 10% under every transform, that is every
// transform's geometric-mean interval inside [0.9, 1.1]; not robust when
// some interval lies wholly outside; otherwise the runs cannot tell.
//
// Statistics. Rows are grouped by machine fingerprint and setup first: no
// median, interval or ratio ever mixes rows of two machines, nor runs of two
// lengths, modes, workloads, transforms or measures (Setup; a failed
// imported run of unknown length joins its machine's one length). Within a
// machine, a cell is one (game, engine version): its runs are the
// repetitions, and its speed is the median of the state changes per second
// of the runs that ended ok and were not contended, with a
// distribution-free 95% confidence interval from order statistics (the
// binomial interval of the median), exactly as benchstat computes it with
// golang.org/x/perf/benchmath's AssumeNothing.
//
// Contended runs. A run is contended (contended) when the harness marked it
// (its share of a CPU over the timed part was under the campaign's
// threshold, 0.9 by default) or, in rows written before that mark, when
// (user+system CPU) / wall time of the whole process, setup included, is
// under 0.9. Such a run was preempted: its rate measures the machine, not
// the engine. It is listed (struck out on the game page, with "contended:
// 0.64 of a CPU"), counted in every summary, and left out of every median,
// test and verdict. Verdicts use the rate per wall-clock second, gdl-perf's
// figure: it includes what a player of the game would see, cache and memory
// contention among it, to which CPU time is blind; the state changes per
// CPU-second of the timed part are shown beside it where the engine
// reported its CPU time, as a cross-check that is insensitive to
// preemption.
//
// Comparisons. Two cells are compared by the ratio of their medians. The
// Mann-Whitney U test (benchmath) gives a p-value per game; over the games
// of one comparison (a pair page, a compare table) the p-values are
// adjusted by Holm's step-down method, which keeps the chance of any false
// verdict among them at 0.05. The interval of a ratio is the
// distribution-free 95% interval that inverts the same U test (Moses; the
// interval of the Hodges-Lehmann estimate over the pairwise ratios of the
// runs), so it excludes 1 exactly where the unadjusted test rejects (when
// no two runs tie). A game
// differs significantly when the adjusted p < 0.05 and its interval lies on
// one side of 1 (compare also asks that the whole interval lie beyond
// 1 ± noise). Too few runs can never be significant: the smallest p-value
// of n and m runs is 2 / C(n+m, n), times the number of games for Holm's
// adjustment, so a verdict needs 4 ok runs a side for one game, 6 for 20
// (RunsNeeded); such games are "too few runs to tell" (compare:
// inconclusive) and say how many they need. Colours mark significant
// differences only: a summary's figures are coloured when the geometric
// mean's interval excludes 1, a game's speedup when the game differs
// significantly.
//
// Aggregates over games (an engine against a baseline, or two versions)
// follow gdl-perf's summary, repaired: the median and the geometric mean of
// the per-game ratios are taken over the games where both sides ran ok with
// state changes > 0, so one zero or one failure cannot turn the geometric
// mean into 0 (or infinity); every excluded game is counted with its reason.
// The geometric mean has its own 95% interval: the Student t interval of
// the mean log ratio, the games taken as a sample of games. The sum ratio
// is gdl-perf's "state changes with one second per game": the sum of one
// side's medians over the sum of the other's.
//
// Campaigns. CompareSides compares two sides as they are only when they are
// one campaign (OneCampaign: their start-time ranges overlap, as those of
// versions interleaved in one campaign do) and their conditions do not
// differ markedly (median CPU share of the kept runs within 0.1, median
// 1-minute load per core within 1). Otherwise it refuses, naming the
// reason, unless DiffOptions.Calibrate is set: then the reference engine
// (prover by default) must have run on both sides, and NEW's rates are
// divided by the machine factor, the geometric mean over their common games
// of its rate in NEW over its rate in OLD.
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
// The site (Render, Site.Write) is plain HTML from html/template with inline CSS and
// inline SVG charts drawn by gonum.org/v1/plot: it needs no network, every
// string from a game, an engine or an error is escaped, page file names are
// derived from keys by SafeName, and the same rows always give the same bytes.
package report
