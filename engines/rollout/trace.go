package rollout

import (
	"io"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// The trace's lines (protocol's).
type (
	TraceHeader = protocol.TraceHeader
	TraceStep   = protocol.TraceStep
)

// MaxTraceSteps bounds one traced or fixed-work rollout.
const MaxTraceSteps = protocol.MaxTraceSteps

// Trace writes n traced rollouts of m as JSON Lines (protocol.Trace): every
// choice is made from the legal moves sorted by their canonical text with
// rand.New(rand.NewPCG(seed, r)) for rollout r, so every correct engine
// writes the same bytes for the same game and seed. A game error is written
// as the last line and returned.
func Trace(w io.Writer, m engines.Machine, engine, version string, seed uint64, n int) error {
	h := TraceHeader{Roles: m.Roles(), Engine: engine, Version: version, Seed: seed}
	return protocol.Trace[engines.State, engines.Move](w, m, h, n)
}
