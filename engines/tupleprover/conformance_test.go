package tupleprover_test

import (
	"github.com/gdlperf/gdlperf/engines/gdl"
	"os"
	"testing"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

func engine(t testing.TB) engines.Engine {
	e, ok := engines.Lookup(tupleprover.Name)
	if !ok {
		t.Fatal("the tuple prover is not registered")
	}
	return e
}

// TestConformance runs the engine conformance suite: traces, exhaustive and
// metamorphic checks against the prover on the built-in games, the suite's
// mirrored games and GGP-Base's test games.
func TestConformance(t *testing.T) {
	enginetest.Suite(t, engine(t))
}

// TestConformanceMagic runs the suite with the magic-sets design forced,
// which New picks only where it is faster (GDLPERF_MAGIC_SUITE=1; long).
func TestConformanceMagic(t *testing.T) {
	if os.Getenv("GDLPERF_MAGIC_SUITE") == "" {
		t.Skip("set GDLPERF_MAGIC_SUITE=1 to run the suite on the magic-sets design")
	}
	e := engine(t)
	e.New = func(g *gdl.Game) (engines.Machine, error) {
		m, err := tupleprover.New(g, tupleprover.WithDesign("magic sets"))
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	enginetest.Suite(t, e)
}
