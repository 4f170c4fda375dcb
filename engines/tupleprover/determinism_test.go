package tupleprover

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// planText describes what a machine chose in its setup: the design, the
// join order and indexes of every plan of the dynamic units, the relations'
// indexes, the terms interned and the work (operations run) the setup did.
func (m *Machine) planText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "design %s\n", m.design)
	for _, u := range m.units {
		if u.scope == scopeStatic {
			continue
		}
		for gi, g := range u.groups {
			fmt.Fprintf(&b, "unit %d group %d recursive %v\n", u.order, gi, g.recursive)
			for _, cr := range g.rules {
				for _, p := range append([]*plan{cr.base}, cr.deltas...) {
					fmt.Fprintf(&b, "  %s hg=%d:", p.rule, p.hg)
					for _, o := range p.ops {
						name := ""
						if o.rel != nil {
							name = o.rel.name
						}
						var cols []int
						if o.ix != nil {
							cols = o.ix.cols
						}
						fmt.Fprintf(&b, " [%d %s %v %v %v]", o.kind, name, cols, o.outCols, o.delta)
					}
					b.WriteByte('\n')
				}
			}
		}
		for _, r := range u.rels {
			fmt.Fprintf(&b, "  rel %s indexes", r.name)
			for _, ix := range r.idx {
				fmt.Fprintf(&b, " %v", ix.cols)
			}
			b.WriteByte('\n')
		}
	}
	for _, tr := range m.trueRels {
		fmt.Fprintf(&b, "rel %s indexes", tr.rel.name)
		for _, ix := range tr.rel.idx {
			fmt.Fprintf(&b, " %v", ix.cols)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "terms %d, setup work %d\n", m.st.size(), m.work())
	return b.String()
}

// TestBuildIsDeterministic builds the machine of a game twice and requires
// the same choices: design, join orders, indexes, terms interned and the
// work the setup did (so that instruction counts of two processes agree,
// gdlperf run --measure instructions). A warm-up timed by the clock fails it.
func TestBuildIsDeterministic(t *testing.T) {
	load := func(name string) func(t *testing.T) *gdl.Game {
		return func(t *testing.T) *gdl.Game {
			bg, ok := builtingames.Get(name)
			require.True(t, ok, "built-in game %s", name)
			g, err := gdl.Load(name, bg.Rules)
			require.NoError(t, err)
			return g
		}
	}
	mirrored := func(rel string) func(t *testing.T) *gdl.Game {
		return func(t *testing.T) *gdl.Game {
			shared := enginetest.SharedDir()
			if shared == "" {
				t.Skip("../shared not found")
			}
			path := filepath.Join(shared, "gamerepo-mirror", rel)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s: %v", path, err)
			}
			g, err := gdl.LoadFile(path)
			require.NoError(t, err)
			return g
		}
	}
	tests := []struct {
		name       string
		game       func(t *testing.T) *gdl.Game
		wantDesign string
	}{
		{name: "connect four", game: load("connectfour"), wantDesign: designBottomUp},
		{name: "tic-tac-toe", game: load("tictactoe"), wantDesign: designBottomUp},
		{name: "mirrored speedChess", game: mirrored("base/speedChess/speedChess.kif"), wantDesign: designMagic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			m1, err := New(g)
			require.NoError(t, err)
			m2, err := New(g)
			require.NoError(t, err)
			assert.Equal(t, tt.wantDesign, m1.Design())
			assert.Equal(t, m1.planText(), m2.planText())
		})
	}
}
