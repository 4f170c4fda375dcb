package prover

import (
	"encoding/binary"

	"github.com/gdlperf/gdlperf/engines"
)

var _ engines.Searcher = (*Machine)(nil)

// StateKey implements engines.Searcher: the state's sorted fact ids, four
// bytes each (a term's id is its own in the machine's store, so equal facts
// are equal ids).
func (m *Machine) StateKey(s engines.State) string {
	facts := s.(*state).facts
	b := make([]byte, 0, 4*len(facts))
	for _, f := range facts {
		b = binary.LittleEndian.AppendUint32(b, uint32(f))
	}
	return string(b)
}
