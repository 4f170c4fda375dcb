package propnet

import (
	"os"
	"sort"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestDebugGame prints the grounding of the game in GDLPERF_PROPNET_DEBUG.
func TestDebugGame(t *testing.T) {
	path := os.Getenv("GDLPERF_PROPNET_DEBUG")
	if path == "" {
		t.Skip("set GDLPERF_PROPNET_DEBUG=FILE")
	}
	game, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := engines.StartWorkClock()
	defer clock.Stop()
	b := newBudget(Options{MaxTime: 40 * time.Second, MaxMemory: 8 << 30}, clock)
	g, err := ground(game, b)
	if err != nil {
		t.Log(err)
	}
	rels := append([]*relation(nil), g.relList...)
	sort.Slice(rels, func(i, j int) bool { return len(rels[i].atoms) > len(rels[j].atoms) })
	for _, r := range rels {
		if len(r.atoms) > 0 {
			t.Logf("%-24s kind %d atoms %d", r.name, r.kind, len(r.atoms))
		}
	}
	perRule := map[int32]int{}
	for _, in := range g.insts {
		perRule[in.rule]++
	}
	type rc struct {
		r int32
		n int
	}
	var rcs []rc
	for r, n := range perRule {
		rcs = append(rcs, rc{r, n})
	}
	sort.Slice(rcs, func(i, j int) bool { return rcs[i].n > rcs[j].n })
	for i, x := range rcs {
		if i == 15 {
			break
		}
		t.Logf("%8d instances: %s", x.n, g.rules[x.r].src)
	}
	t.Logf("%+v", g.stats)
	m, err := New(game)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("build %+v", m.Build)
}
