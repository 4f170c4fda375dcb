package compiled_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/compiled"
)

// TestBuildGames builds the programs of the game files in
// GDLPERF_COMPILED_GAMES (separated by commas) and logs their paths and
// setup figures: a tool for measuring, skipped by default.
func TestBuildGames(t *testing.T) {
	list := os.Getenv("GDLPERF_COMPILED_GAMES")
	if list == "" {
		t.Skip("set GDLPERF_COMPILED_GAMES to build game files")
	}
	for _, path := range strings.Split(list, ",") {
		tg := fileGame(t, path)
		start := time.Now()
		prog, err := compiled.Native(tg.game, tg.rules)
		require.NoError(t, err)
		t.Logf("%s: %s (setup %v, %s in all)", path, prog.Path, prog.Setup, time.Since(start).Round(time.Millisecond))
	}
}
