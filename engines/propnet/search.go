package propnet

import (
	"encoding/binary"

	"github.com/gdlperf/gdlperf/engines"
)

var _ engines.Searcher = (*Machine)(nil)

// StateKey implements engines.Searcher: the state's bitset, eight bytes a
// word (base i is fact i of the network, so equal facts are equal bits).
func (m *Machine) StateKey(s engines.State) string {
	w := m.bits(s.(*state))
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return string(b)
}
