package compiled

import (
	"os"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestSizesDebug logs the sizer's estimates for GDLPERF_SIZES_GAME.
func TestSizesDebug(t *testing.T) {
	path := os.Getenv("GDLPERF_SIZES_GAME")
	if path == "" {
		t.Skip("set GDLPERF_SIZES_GAME")
	}
	g, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s := measureSizes(g)
	t.Logf("%s, over budget %v, work %d", time.Since(start), s.out, s.work)
	for name, st := range s.stats {
		t.Logf("%s: n %.1f dist %v (%d)", name.Name(), st.n, st.dist, st.count)
	}
	for k, st := range s.trueStats {
		t.Logf("true %s/%d: n %.1f dist %v (%d)", k.name.Name(), k.arity, st.n, st.dist, st.count)
	}
}

// TestSizesTicTacToe: the sizer measures the static relations exactly.
func TestSizesTicTacToe(t *testing.T) {
	src := "(role x)\n(index 1)\n(index 2)\n(index 3)\n(<= (pair ?a ?b) (index ?a) (index ?b))\n(init (cell 1 1 b))\n(<= (legal x go) (true (cell ?a ?b b)))\n(<= (next (cell 1 1 x)) (does x go))\n(<= terminal (true (cell 1 1 x)))\n(goal x 100)\n"
	g, err := gdl.Load("t.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := measureSizes(g)
	if st := s.stats[gdl.Intern("pair")]; st == nil || st.n != 9 || st.dist[0] != 3 {
		t.Fatalf("pair: %+v", st)
	}
	if st := s.trueStats[fkey{gdl.Intern("cell"), 3}]; st == nil || st.n != 1 {
		t.Fatalf("true cell: %+v", st)
	}
}
