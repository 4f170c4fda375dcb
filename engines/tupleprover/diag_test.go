package tupleprover

// Diagnostics for working on the engine, each run only when its variable
// is set: TP_GAME=file prints the rules that ran most per state change with
// their join orders (set debug in eval.go), TP_TIME=file times setup and
// the first questions, TP_GAMES=f1:f2 runs each game for 2 s, TP_MAGIC=file
// builds the magic-sets design step by step, TP_SCC=file with TP_REL=name
// prints a strongly connected component of the rewritten game, and
// TP_BOTH=base1,base2 compares the warm-up rates of the two designs.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

func TestDebugProfile(t *testing.T) {
	path := os.Getenv("TP_GAME")
	if path == "" {
		t.Skip()
	}
	g, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	debugCounts = map[*plan]int{}
	m.SetDeadline(time.Now().Add(20 * time.Second))
	st, err := rollout.RunFixed(m, 1, 1)
	if err != nil {
		fmt.Println(err, st.StateChanges)
		st.StateChanges = max(st.StateChanges, 1)
	}
	type kv struct {
		p *plan
		n int
	}
	var all []kv
	for p, n := range debugCounts {
		all = append(all, kv{p, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n })
	for _, x := range all[:min(25, len(all))] {
		fmt.Printf("%10.1f hg=%d %s\n", float64(x.n)/float64(st.StateChanges), x.p.hg, x.p.rule)
		for _, o := range x.p.ops {
			ix := ""
			if o.ix != nil {
				ix = fmt.Sprint(o.ix.cols)
			}
			name := ""
			if o.rel != nil {
				name = o.rel.name
			}
			fmt.Printf("      op %d %s ix%s delta=%v outs=%v\n", o.kind, name, ix, o.delta, o.outCols)
		}
	}
	debugCounts = nil
}

func TestDebugTiming(t *testing.T) {
	path := os.Getenv("TP_TIME")
	if path == "" {
		t.Skip()
	}
	g, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m, err := New(g, WithDeadline(time.Now().Add(30*time.Second)))
	fmt.Println("setup", time.Since(start), err)
	if err != nil {
		return
	}
	for _, u := range m.units {
		for _, r := range u.rels {
			if r.n > 1000 {
				fmt.Println("  static rel", r.name, r.n, r.width)
			}
		}
	}
	m.SetDeadline(time.Now().Add(60 * time.Second))
	s, _ := m.Initial()
	for step := 0; step < 5; step++ {
		t0 := time.Now()
		term, err := m.Terminal(s)
		t1 := time.Now()
		fmt.Println("terminal", term, err, t1.Sub(t0))
		if err != nil || term {
			return
		}
		joint := make([]engines.Move, len(m.roles))
		for r := range joint {
			l, err := m.Legal(s, r)
			if err != nil {
				fmt.Println(err)
				return
			}
			joint[r] = l[0]
		}
		t2 := time.Now()
		fmt.Println("legal", t2.Sub(t1))
		s, err = m.Next(s, joint)
		fmt.Println("next", time.Since(t2), err)
		for _, u := range m.units {
			for _, r := range u.rels {
				if r.n > 1000 {
					fmt.Println("  rel", r.name, r.n, r.width)
				}
			}
		}
	}
}

func TestDebugGames(t *testing.T) {
	paths := os.Getenv("TP_GAMES")
	if paths == "" {
		t.Skip()
	}
	for _, path := range filepath.SplitList(paths) {
		g, err := gdl.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		m, err := New(g, WithDeadline(time.Now().Add(60*time.Second)))
		if err != nil {
			fmt.Println(path, "setup", time.Since(start), err)
			continue
		}
		setup := time.Since(start)
		if os.Getenv("TP_DESIGN") != "" {
			m, err = New(g, WithDesign(os.Getenv("TP_DESIGN")))
			if err != nil {
				fmt.Println(path, err)
				continue
			}
		}
		m.SetDeadline(time.Now().Add(30 * time.Second))
		st, err := rollout.Run(m, 2*time.Second, 1)
		fmt.Printf("%s: %s setup %s, %.0f states/s, %v\n", path, m.Design(), setup, float64(st.StateChanges)/st.Elapsed.Seconds(), err)
	}
}

func TestDebugMagic(t *testing.T) {
	path := os.Getenv("TP_MAGIC")
	if path == "" {
		t.Skip()
	}
	g, err := gdl.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m1, err1 := build(g, nil, designBottomUp, true)
	fmt.Println("first", err1, m1.cost)
	whole := map[gdl.Symbol]bool{}
	start := time.Now()
	var m *Machine
	for range 40 {
		g2, orig := gdl.MagicSets(g, m1.static, whole)
		if g2 == nil {
			fmt.Println("too large")
			return
		}
		m, err = build(g2, []Option{WithDeadline(time.Now().Add(60 * time.Second))}, designMagic, false)
		fmt.Println("try", len(g2.Rules), err != nil, time.Since(start))
		var ce *cycleError
		if !errors.As(err, &ce) {
			break
		}
		fmt.Println("  whole", orig[ce.negated], ce.negated)
		if whole[orig[ce.negated]] {
			break
		}
		whole[orig[ce.negated]] = true
	}
	if m != nil {
		fmt.Println("rate", m.cost)
	}
	fmt.Println("magic", time.Since(start), err)
}

func TestDebugSCC(t *testing.T) {
	path := os.Getenv("TP_SCC")
	if path == "" {
		t.Skip()
	}
	g, _ := gdl.LoadFile(path)
	m1, _ := build(g, nil, designBottomUp, true)
	g2, _ := gdl.MagicSets(g, m1.static, nil)
	a := g2.Analysis
	target := a.Relations[gdl.Intern(os.Getenv("TP_REL"))]
	for _, n := range a.Order {
		r := a.Relations[n]
		if r.SCC == target.SCC {
			fmt.Println(n.Name(), r.Stratum)
			for _, rr := range r.Rules {
				fmt.Println("    ", rr)
			}
		}
	}
}

// baseGame is the path of the mirrored base game name in ../shared, found
// as the other tests find it (skipping the test without it).
func baseGame(t *testing.T, name string) string {
	shared := enginetest.SharedDir()
	if shared == "" {
		t.Skip("../shared not found")
	}
	return filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif")
}

func TestDebugBoth(t *testing.T) {
	names := os.Getenv("TP_BOTH")
	if names == "" {
		t.Skip()
	}
	for _, name := range strings.Split(names, ",") {
		path := baseGame(t, name)
		g, err := gdl.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m1, err1 := build(g, nil, designBottomUp, true)
		var r1, r2 float64
		if err1 == nil {
			r1 = m1.cost
		}
		g2, _ := gdl.MagicSets(g, m1.static, map[gdl.Symbol]bool{})
		m2, err2 := build(g2, nil, designMagic, false)
		if err2 == nil {
			r2 = m2.cost
		}
		fmt.Printf("%-26s bottom-up %10.0f  magic %10.0f  %v %v\n", name, r1, r2, err1, err2)
	}
}

// TestDebugCalibrate prints, for each base game of TP_CALIBRATE=g1,g2 and
// each design forced, the setup's work and time, the work per question of
// the warm-up (the cost that chooses the design), and the rollouts' time
// per unit of work and state changes per second, to check that the work
// counts follow the time.
func TestDebugCalibrate(t *testing.T) {
	names := os.Getenv("TP_CALIBRATE")
	if names == "" {
		t.Skip()
	}
	for _, name := range strings.Split(names, ",") {
		path := baseGame(t, name)
		g, err := gdl.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		chosen, err := New(g, WithDeadline(time.Now().Add(60*time.Second)))
		if err != nil {
			fmt.Printf("%-24s %v\n", name, err)
			continue
		}
		setup := time.Since(start)
		var rates [2]float64
		var costs [2]float64
		for i, d := range []string{designBottomUp, designMagic} {
			start := time.Now()
			m, err := New(g, WithDesign(d), WithDeadline(time.Now().Add(60*time.Second)))
			if err != nil {
				fmt.Printf("%-24s %-10s %v\n", name, d, err)
				continue
			}
			st0 := time.Since(start)
			w0 := m.work()
			m.SetDeadline(time.Now().Add(20 * time.Second))
			st, err := rollout.Run(m, time.Second, 1)
			w := m.work() - w0
			rates[i] = float64(st.StateChanges) / st.Elapsed.Seconds()
			costs[i] = m.cost
			fmt.Printf("%-24s %-10s setup %8d work %6.0f ms  cost %8.0f  rollouts %6.1f ns/work %9.0f states/s %v\n",
				name, d, w0, float64(st0.Microseconds())/1000, m.cost, float64(st.Elapsed.Nanoseconds())/float64(max(w, 1)), rates[i], err)
		}
		byTime := designBottomUp
		if rates[0]*preferBottomUp < rates[1] {
			byTime = designMagic
		}
		fmt.Printf("%-24s chosen %s in %s (setup work %d); by the rollouts' time %s; cost ratio bottom-up/magic %.2f, rate ratio %.2f\n",
			name, chosen.Design(), setup.Round(time.Millisecond), chosen.work(), byTime, costs[0]/costs[1], rates[1]/rates[0])
	}
}
