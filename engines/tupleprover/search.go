package tupleprover

import (
	"encoding/binary"
	"slices"

	"github.com/gdlperf/gdlperf/engines"
)

var _ engines.Searcher = (*Machine)(nil)

// StateKey implements engines.Searcher: the state's fact ids (each term's
// hash-consed id, each fact once) sorted, four bytes each. A state keeps its
// facts in the order its next relation made them, so the key sorts a copy.
func (m *Machine) StateKey(s engines.State) string {
	facts := slices.Clone(s.(*state).facts)
	slices.Sort(facts)
	b := make([]byte, 0, 4*len(facts))
	for _, f := range facts {
		b = binary.LittleEndian.AppendUint32(b, uint32(f))
	}
	return string(b)
}
