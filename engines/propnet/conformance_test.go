package propnet_test

import (
	"testing"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/propnet"
)

func engine(t testing.TB) engines.Engine {
	e, ok := engines.Lookup(propnet.Name)
	if !ok {
		t.Fatal("the propnet is not registered")
	}
	return e
}

// TestConformance runs the engine conformance suite: traces, exhaustive and
// metamorphic checks against the prover on the built-in games, the suite's
// mirrored games and GGP-Base's test games.
func TestConformance(t *testing.T) {
	enginetest.Suite(t, engine(t))
}
