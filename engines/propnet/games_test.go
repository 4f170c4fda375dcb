package propnet

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// LoadGames returns the games the network tests play: the built-in games
// (keyed builtin/NAME), the named base games of the mirror in ../shared
// when it is there (base/NAME) and the games of this package's testdata
// (keyed by their path), which have cyclic components. Exported for the
// tests of package propnet_test.
func LoadGames(t *testing.T, mirrored ...string) map[string]*gdl.Game {
	t.Helper()
	games := map[string]*gdl.Game{}
	for _, b := range builtingames.All() {
		g, err := gdl.Load(b.File, b.Rules)
		require.NoError(t, err)
		games["builtin/"+b.Name] = g
	}
	if shared := enginetest.SharedDir(); shared != "" {
		for _, name := range mirrored {
			g, err := gdl.LoadFile(filepath.Join(shared, "gamerepo-mirror", "base", name, name+".kif"))
			require.NoError(t, err)
			games["base/"+name] = g
		}
	}
	files, _ := filepath.Glob("testdata/*.kif")
	for _, f := range files {
		g, err := gdl.LoadFile(f)
		require.NoError(t, err)
		games[f] = g
	}
	return games
}
