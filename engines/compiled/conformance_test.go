package compiled_test

import (
	"testing"

	"github.com/gdlperf/gdlperf/engines/enginetest"
)

// TestConformance runs the engine conformance suite through New (the
// program in -serve mode): traces, exhaustive and metamorphic checks against
// the prover on the built-in games, the suite's mirrored games and
// GGP-Base's test games.
func TestConformance(t *testing.T) {
	enginetest.Suite(t, engine(t))
}
