package propnet_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/propnet"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

type mirrored struct{ repo, key, version, path, id string }

func mirroredGames(t testing.TB, mirror string) []mirrored {
	f, err := os.Open(filepath.Join(mirror, "index.tsv"))
	if err != nil {
		t.Skipf("mirror not found: %v", err)
	}
	defer f.Close()
	var out []mirrored
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		c := strings.Split(sc.Text(), "\t")
		if first || len(c) < 9 {
			continue
		}
		out = append(out, mirrored{repo: c[0], key: c[1], version: c[2], path: c[6], id: c[8]})
	}
	return out
}

// cutAtDeadline drops the lines of both traces from the first line where
// the reference ran out of its time budget (a resource-limit error).
func cutAtDeadline(ref, got []byte) ([]byte, []byte, bool) {
	rl := bytes.SplitAfter(ref, []byte("\n"))
	for i, line := range rl {
		var st rollout.TraceStep
		if json.Unmarshal(line, &st) == nil && strings.HasPrefix(st.Error, string(engines.ResourceLimit)) {
			gl := bytes.SplitAfter(got, []byte("\n"))
			return bytes.Join(rl[:i], nil), bytes.Join(gl[:min(i, len(gl))], nil), true
		}
	}
	return ref, got, false
}

// corpusSetup skips the test unless GDLPERF_PROPNET_CORPUS is set and
// ../shared is there, and returns the mirror's folder and the games filter
// of GDLPERF_PROPNET_CORPUS_GAMES (nil: every game).
func corpusSetup(t *testing.T) (mirror string, filter *regexp.Regexp) {
	t.Helper()
	if os.Getenv("GDLPERF_PROPNET_CORPUS") == "" {
		t.Skip("set GDLPERF_PROPNET_CORPUS=1 to check every mirrored game (GDLPERF_PROPNET_CORPUS_GAMES=REGEXP for some)")
	}
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	mirror = filepath.Join(shared, "gamerepo-mirror")
	if s := os.Getenv("GDLPERF_PROPNET_CORPUS_GAMES"); s != "" {
		filter = regexp.MustCompile(s)
	}
	return mirror, filter
}

type corpusResult struct {
	game     string
	build    time.Duration
	buildCPU time.Duration // the building thread's CPU time (a busy machine inflates build)
	deferred int           // gates read by deferred edges
	refused  string
	mismatch string
	note     string
}

// TestCorpus builds the propnet for every valid mirrored game and checks
// seeded rollout traces against the prover (60 s budget for the prover per
// game; a prover that runs out of time is compared up to where it stopped),
// and the fast mode against the full-pass mode. Every game must build or be
// refused with a reason, at least 94% must build and run, and no trace may
// differ. Long: it runs with GDLPERF_PROPNET_CORPUS=1 (make
// propnet-corpus); GDLPERF_PROPNET_CORPUS_GAMES=REGEXP selects games by
// path; GDLPERF_PROPNET_CORPUS_OUT=FILE writes a TSV row per game. Build
// times are ranked by the CPU time of the building thread.
func TestCorpus(t *testing.T) {
	mirror, filter := corpusSetup(t)
	rollouts := 3
	ref := enginetest.Reference()
	pn := engine(t)
	var results []corpusResult
	valid := 0
	for _, g := range mirroredGames(t, mirror) {
		if filter != nil && !filter.MatchString(g.path) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(mirror, g.path))
		if err != nil {
			t.Fatal(err)
		}
		game, err := gdl.Load(g.path, src)
		if err != nil {
			var inv *gdl.InvalidError
			if !errors.As(err, &inv) {
				t.Errorf("%s: %v", g.path, err)
			}
			continue
		}
		valid++
		res := corpusResult{game: g.path}
		start := time.Now()
		clock := engines.StartWorkClock()
		m, err := propnet.New(game)
		res.buildCPU = clock.Used()
		clock.Stop()
		res.build = time.Since(start)
		if err != nil {
			var ref *propnet.RefusalError
			if !errors.As(err, &ref) {
				t.Errorf("%s: the build failed without a refusal: %v", g.path, err)
			}
			res.refused = err.Error()
			results = append(results, res)
			t.Logf("REFUSED %s (%s): %v", g.path, res.build.Round(time.Millisecond), err)
			continue
		}
		pm := prover.NewMachine(game)
		pm.Prover().SetDeadline(time.Now().Add(60 * time.Second))
		var rb, eb, sb bytes.Buffer
		rollout.Trace(&rb, pm, ref.Name, ref.Version, 1, rollouts)
		rollout.Trace(&eb, m, pn.Name, pn.Version, 1, rollouts)
		rt, et, cut := cutAtDeadline(rb.Bytes(), eb.Bytes())
		if cut {
			res.note = "prover ran out of time"
		}
		mis, err := conform.CompareTraces(bytes.NewReader(rt), bytes.NewReader(et))
		if err != nil {
			t.Errorf("%s: %v", g.path, err)
		}
		if mis != nil {
			res.mismatch = mis.Error()
			t.Errorf("MISMATCH %s: %v\nmoves:\n%s", g.path, mis, mis.HistoryText())
		}
		// The twin: full pass against fast, one rollout.
		slow, err := propnet.New(game, propnet.WithMode(propnet.FullPass))
		if err == nil {
			eb.Reset()
			rollout.Trace(&eb, m, pn.Name, pn.Version, 2, 1)
			rollout.Trace(&sb, slow, pn.Name, pn.Version, 2, 1)
			if mis, _ := conform.CompareTraces(bytes.NewReader(sb.Bytes()), bytes.NewReader(eb.Bytes())); mis != nil {
				res.mismatch += " twin: " + mis.Error()
				t.Errorf("TWIN MISMATCH %s: %v", g.path, mis)
			}
		}
		res.deferred = m.Build.Program.DeferredGates
		results = append(results, res)
		t.Logf("ok %s: build %s (CPU %s) %s %s", g.path, res.build.Round(time.Millisecond), res.buildCPU.Round(time.Millisecond), m.Build.After.Summary(), res.note)
	}
	refused := 0
	var builds []time.Duration
	for _, r := range results {
		builds = append(builds, r.build)
		if r.refused != "" {
			refused++
		}
	}
	built := valid - refused
	t.Logf("%d valid games: %d built and ran (%.1f%%), %d refused", valid, built, 100*float64(built)/float64(max(valid, 1)), refused)
	for _, r := range results {
		if r.refused != "" {
			t.Logf("refused: %s: %s", r.game, r.refused)
		}
	}
	slices.Sort(builds)
	if len(builds) > 0 {
		t.Logf("build time: median %s", builds[len(builds)/2].Round(time.Millisecond))
	}
	worst := slices.Clone(results)
	sort.Slice(worst, func(i, j int) bool { return worst[i].buildCPU > worst[j].buildCPU })
	for i := 0; i < len(worst) && i < 10; i++ {
		t.Logf("slowest build %d: %s CPU %s (wall %s) %s", i+1, worst[i].game, worst[i].buildCPU.Round(time.Millisecond), worst[i].build.Round(time.Millisecond), worst[i].refused)
	}
	if out := os.Getenv("GDLPERF_PROPNET_CORPUS_OUT"); out != "" {
		var b strings.Builder
		b.WriteString("game\tbuild_ms\tbuild_cpu_ms\tdeferred_gates\trefused\tmismatch\tnote\n")
		for _, r := range results {
			fmt.Fprintf(&b, "%s\t%d\t%d\t%d\t%s\t%s\t%s\n", r.game, r.build.Milliseconds(), r.buildCPU.Milliseconds(), r.deferred, r.refused, r.mismatch, r.note)
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if filter == nil && float64(built) < 0.94*float64(valid) {
		t.Errorf("%d of %d valid games built (%.1f%%); the goal is at least 94%%", built, valid, 100*float64(built)/float64(valid))
	}
}

// TestCorpusLanes plays, for every valid mirrored game the propnet builds,
// two seeded batches of 64 rollouts in lanes (one drawing from the moves
// in Legal's order, one sorted by text) (whether or not the build chose
// lanes for its timed runs) and each of their rollouts through the
// machine's methods: every rollout must make the same state changes and
// goals. It logs the build's choice per game. Long: GDLPERF_PROPNET_CORPUS=1
// (GDLPERF_PROPNET_CORPUS_GAMES=REGEXP selects games by path).
func TestCorpusLanes(t *testing.T) {
	mirror, filter := corpusSetup(t)
	pn := engine(t)
	var checked, lanes, refused, none int
	for _, g := range mirroredGames(t, mirror) {
		if filter != nil && !filter.MatchString(g.path) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(mirror, g.path))
		if err != nil {
			t.Fatal(err)
		}
		game, err := gdl.Load(g.path, src)
		if err != nil {
			continue // invalid: TestCorpus counts those
		}
		m, err := propnet.New(game)
		if err != nil {
			refused++
			continue
		}
		if m.Batch() {
			lanes++
		}
		for seed := uint64(1); seed <= 2; seed++ {
			err := conform.BatchCheck(pn, game, m, seed, 64, seed == 2)
			if err != nil && strings.Contains(err.Error(), "cannot be played in lanes") {
				none++
				t.Logf("no lanes %s: %v", g.path, err)
				break
			}
			if err != nil {
				t.Errorf("LANES %s: %v", g.path, err)
			}
		}
		checked++
		t.Logf("ok %s: %s", g.path, m.Build.Lanes)
	}
	t.Logf("%d games checked in lanes (%d cannot be played in lanes), %d refused by the build; the build chose lanes on %d", checked-none, none, refused, lanes)
}
