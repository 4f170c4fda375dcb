package propnet

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// programText prints every field of a program (its node numbering, gate
// inputs, successor lists, triggers, move and base layout and sizes), so
// that two programs are the same layout exactly when their texts are equal.
func programText(p *program) string { return fmt.Sprintf("%#v", *p) }

// TestBuildIsDeterministic builds the network of a few games twice and
// requires byte-identical programs: the node numbering, gate order and
// layout may not depend on map iteration order or on timing, so that a
// rollout does the same work (the same instructions) in every process.
func TestBuildIsDeterministic(t *testing.T) {
	games := map[string]*gdl.Game{}
	for _, b := range builtingames.All() {
		if b.Name == "connectfour" || b.Name == "tictactoe" {
			g, err := gdl.Load(b.File, b.Rules)
			require.NoError(t, err)
			games["builtin/"+b.Name] = g
		}
	}
	require.Len(t, games, 2, "the built-in connect four and tic-tac-toe")
	if shared := enginetest.SharedDir(); shared != "" {
		for _, name := range []string{"breakthrough", "knightsTour", "dotsAndBoxes"} {
			g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif"))
			require.NoError(t, err)
			games["base/"+name] = g
		}
	}
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			var texts []string
			var choices []string
			for range 3 {
				m, err := New(g)
				require.NoError(t, err)
				texts = append(texts, programText(m.p))
				choices = append(choices, m.Build.LayoutChoice)
			}
			for i := 1; i < len(texts); i++ {
				assert.Equal(t, choices[0], choices[i], "layout choice of build %d", i)
				assert.True(t, texts[0] == texts[i], "build %d's program differs from build 0's (%d and %d bytes)", i, len(texts[0]), len(texts[i]))
			}
		})
	}
}
