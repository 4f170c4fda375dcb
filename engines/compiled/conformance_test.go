package compiled_test

import (
	"testing"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
)

// TestConformance runs the engine conformance suite through New (the
// program in -serve mode): traces, exhaustive and metamorphic checks against
// the prover on the built-in games, the suite's mirrored games and
// GGP-Base's test games.
func TestConformance(t *testing.T) {
	enginetest.Suite(t, engine(t))
}

// TestConformanceIncremental runs the suite with the incremental design
// forced: the exhaustive and metamorphic checks ask about states in any
// order (a state, then one far from it, the same state with another joint
// move), where the counted relations' changes are large and not a
// rollout's step.
func TestConformanceIncremental(t *testing.T) {
	e := engine(t)
	e.New = func(g *gdl.Game) (engines.Machine, error) {
		m, err := compiled.New(g, compiled.WithDesign("incremental"))
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	enginetest.Suite(t, e)
}
