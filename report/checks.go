package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/gdlperf/gdlperf/results"
)

// WithVerdicts supplies the correctness rows of gdlperf check. The index
// marks every cell of the matrix with its version's verdict on the game,
// the engine and game pages list the verdicts and the mismatches, and a
// version's speed on a game where it disagreed with the reference is
// struck out and left out of ranks, medians and geometric means.
func WithVerdicts(rows []results.CheckRow) Option {
	return func(o *options) { o.checks = slices.Clone(rows) }
}

// checkIndex is the correctness rows of a report, deduplicated and sorted.
type checkIndex struct {
	rows      []*results.CheckRow // by engine, version, game, method, start
	verdicts  map[cellKey]string  // the folded verdict of a version on a game
	byVersion map[Version][]*results.CheckRow
	byCell    map[cellKey][]*results.CheckRow
	versions  []Version // the versions that were checked, by engine then version
}

// methodRank orders the methods as gdlperf check runs them.
func methodRank(m string) int {
	switch m {
	case "trace":
		return 0
	case "exhaustive":
		return 1
	case "metamorphic":
		return 2
	}
	return 3
}

// compareCheckRows is a total order of check rows.
func compareCheckRows(a, b *results.CheckRow) int {
	return cmp.Or(
		cmp.Compare(a.Engine, b.Engine), cmp.Compare(a.EngineVersion, b.EngineVersion), cmp.Compare(a.GameKey, b.GameKey),
		cmp.Compare(methodRank(a.Method), methodRank(b.Method)), cmp.Compare(a.Method, b.Method),
		cmp.Compare(a.StartTime, b.StartTime), cmp.Compare(a.CheckKey, b.CheckKey),
		cmp.Compare(a.Verdict, b.Verdict), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Rollouts, b.Rollouts),
		cmp.Compare(a.States, b.States), compareBool(a.Complete, b.Complete), cmp.Compare(a.Rollout, b.Rollout),
		cmp.Compare(a.Step, b.Step), cmp.Compare(a.Detail, b.Detail), cmp.Compare(a.History, b.History),
		cmp.Compare(a.Reproduce, b.Reproduce), cmp.Compare(a.Reference, b.Reference),
		cmp.Compare(a.ReferenceVersion, b.ReferenceVersion), cmp.Compare(a.Millis, b.Millis), cmp.Compare(a.Host, b.Host),
	)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// newCheckIndex indexes rows. A check that ran more than once (an error
// retried on resume) counts by its latest row: rows of one check key but
// the latest by start time are dropped, and so are exact duplicates. The
// verdict of a version on a game is results.Verdicts' fold of the rest.
func newCheckIndex(rows []results.CheckRow) *checkIndex {
	x := &checkIndex{verdicts: map[cellKey]string{}, byVersion: map[Version][]*results.CheckRow{}, byCell: map[cellKey][]*results.CheckRow{}}
	all := make([]*results.CheckRow, len(rows))
	for i := range rows {
		all[i] = &rows[i]
	}
	slices.SortFunc(all, compareCheckRows)
	latest := map[string]*results.CheckRow{}
	for _, r := range all {
		if r.CheckKey == "" {
			continue
		}
		if cur := latest[r.CheckKey]; cur == nil || cmp.Or(cmp.Compare(r.StartTime, cur.StartTime), compareCheckRows(r, cur)) > 0 {
			latest[r.CheckKey] = r
		}
	}
	var kept []results.CheckRow
	for i, r := range all {
		if r.CheckKey != "" && latest[r.CheckKey] != r || i > 0 && *all[i-1] == *r {
			continue
		}
		x.rows = append(x.rows, r)
		kept = append(kept, *r)
		v := Version{r.Engine, r.EngineVersion}
		if len(x.byVersion[v]) == 0 {
			x.versions = append(x.versions, v)
		}
		x.byVersion[v] = append(x.byVersion[v], r)
		k := cellKey{r.GameKey, v}
		x.byCell[k] = append(x.byCell[k], r)
	}
	for k, s := range results.Verdicts(kept) {
		x.verdicts[cellKey{k.Game, Version{k.Engine, k.Version}}] = s.Verdict
	}
	return x
}

// verdict returns the verdict of v on game, or "" when it was never checked.
func (x *checkIndex) verdict(game string, v Version) string {
	return x.verdicts[cellKey{game, v}]
}

// markMismatches marks the cells whose version had a mismatch on the game.
func (c *Analysis) markMismatches(x *checkIndex) {
	for _, m := range c.Groups {
		for k, cell := range m.cells {
			if x.verdicts[k] == results.VerdictMismatch {
				cell.Wrong = true
			}
		}
	}
}

// verdictStyle is how a verdict looks on the pages.
type verdictStyle struct {
	Mark, Class, Word string
}

var verdictStyles = map[string]verdictStyle{
	results.VerdictOK:        {"✓", "ck-ok", "agreed"},
	results.VerdictMismatch:  {"✗", "ck-bad", "mismatch"},
	results.VerdictError:     {"!", "ck-err", "check failed to run"},
	results.VerdictUnchecked: {"?", "ck-unk", "unchecked"},
}

// refStyle marks the reference of the checks, which is not checked itself.
var refStyle = verdictStyle{"ref", "ck-ref", "the reference"}

// checkVerdictOrder is the order of verdicts in counts: ok, then the bad news.
var checkVerdictOrder = []string{results.VerdictOK, results.VerdictMismatch, results.VerdictError, results.VerdictUnchecked}

func styleOf(verdict string) verdictStyle {
	if s, ok := verdictStyles[verdict]; ok {
		return s
	}
	return verdictStyle{"?", "ck-unk", "verdict " + verdict}
}

// compared says what a check row compared: "63 rollouts", "5,478 states
// (all)".
func compared(r *results.CheckRow) string {
	var parts []string
	if r.Rollouts > 0 {
		parts = append(parts, plural(r.Rollouts, "rollout"))
	}
	if r.States > 0 {
		s := plural(r.States, "state")
		if r.Complete {
			s += " (every reachable one)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// methodNote is one method's verdict in a sentence: "trace ✓ 63 rollouts".
func methodNote(r *results.CheckRow) string {
	s := r.Method + " " + styleOf(r.Verdict).Mark
	if c := compared(r); c != "" {
		s += " " + c
	}
	return s
}

// verdictTitle explains the verdict of v on a game in a sentence, for the
// title of a matrix cell.
func (x *checkIndex) verdictTitle(game string, v Version) string {
	rows := x.byCell[cellKey{game, v}]
	if len(rows) == 0 {
		return ""
	}
	verdict := x.verdict(game, v)
	var notes []string
	for _, r := range rows {
		notes = append(notes, methodNote(r))
	}
	s := "correctness: " + styleOf(verdict).Word + " (" + strings.Join(notes, ", ") + ")"
	for _, r := range rows {
		if r.Verdict == verdict && verdict != results.VerdictOK && r.Detail != "" {
			s += ": " + r.Method + ": " + oneLine(r.Detail)
			break
		}
	}
	if ref := references(rows); ref != "" && verdict != results.VerdictUnchecked {
		s += "; reference " + ref
	}
	return s
}

// references names the reference engines of rows: "prover@1-abc".
func references(rows []*results.CheckRow) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if r.Reference == "" {
			continue
		}
		s := Version{r.Reference, r.ReferenceVersion}.String()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// ---- views ----

// mismatchRow is one mismatch: where, what differed and how to see it again.
type mismatchRow struct {
	Who                     link // the game (engine page) or engine version (game page)
	Method, Seed, Reference string
	Rollout, Step           string
	Detail                  string
	Reproduce               []string // the command split at its spaces: lines break between words only
	History                 []string // one joint move per step
	Compared                string
}

// mismatchTable is a table of mismatches whose first column is Head.
type mismatchTable struct {
	Head string
	Rows []mismatchRow
}

// problemTable is a table of checks without a verdict.
type problemTable struct {
	Head string
	Rows []problemRow
}

// problemRow is a check that gave no verdict: an error or unchecked.
type problemRow struct {
	Who            link
	Method, Detail string
	verdictStyle
}

func styles() []verdictStyle {
	out := make([]verdictStyle, len(checkVerdictOrder))
	for i, v := range checkVerdictOrder {
		out[i] = verdictStyles[v]
	}
	return out
}

func (b *builder) gameLinkOrText(g string) link {
	if _, ok := slices.BinarySearch(b.games, g); ok {
		return gameLink(g)
	}
	return link{Text: g}
}

func viewMismatch(r *results.CheckRow, who link) mismatchRow {
	row := mismatchRow{Who: who, Method: r.Method, Seed: strconv.FormatUint(r.Seed, 10), Rollout: strconv.Itoa(r.Rollout), Step: strconv.Itoa(r.Step),
		Detail: r.Detail, Compared: compared(r), Reference: Version{r.Reference, r.ReferenceVersion}.String()}
	if r.Reproduce != "" {
		row.Reproduce = strings.Split(r.Reproduce, " ")
	}
	if r.Method == "exhaustive" {
		row.Rollout, row.Seed = "—", "—"
	}
	if strings.TrimSpace(r.History) != "" {
		row.History = strings.Split(r.History, " | ")
	}
	return row
}

func viewProblem(r *results.CheckRow, who link) problemRow {
	return problemRow{Who: who, Method: r.Method, Detail: r.Detail, verdictStyle: styleOf(r.Verdict)}
}

// cellMark is the correctness mark of a matrix cell: the verdict's, or ✗
// when no check row says so but a run was marked wrong.
func (b *builder) cellMark(c *Cell, game string, v Version) (verdictStyle, string) {
	verdict := b.checks.verdict(game, v)
	switch {
	case verdict != "":
		return styleOf(verdict), b.checks.verdictTitle(game, v)
	case c != nil && c.Wrong:
		return verdictStyles[results.VerdictMismatch], "correctness: runs marked wrong (the version failed the correctness check on this game)"
	case b.refs[v]:
		return refStyle, "correctness: the reference: the other engines are checked against it"
	}
	return verdictStyle{}, ""
}

func keysOf[K comparable, V any](m map[K]V) map[K]bool {
	out := make(map[K]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}
