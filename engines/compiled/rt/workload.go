package rt

import (
	"encoding/binary"
	"slices"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// Searcher is an engine as an engines.Searcher, so that the program runs
// engines/workload's searches itself (copied into its build as package
// protocol is) instead of answering them one question at a time over
// -serve. Its states are the engine's *State, immutable once made.
type Searcher struct {
	e     *Engine
	moves [][]engines.Move
	ids   []int32
	key   []byte
}

var _ engines.Searcher = (*Searcher)(nil)

// NewSearcher returns the engine as a Searcher.
func NewSearcher(e *Engine) *Searcher {
	return &Searcher{e: e, moves: make([][]engines.Move, len(e.Roles))}
}

// Roles implements engines.Machine.
func (m *Searcher) Roles() []string { return m.e.RoleNames() }

// Initial implements engines.Machine.
func (m *Searcher) Initial() (engines.State, error) {
	s, err := m.e.Initial()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Terminal implements engines.Machine.
func (m *Searcher) Terminal(s engines.State) (bool, error) { return m.e.Terminal(s.(*State)) }

// Legal implements engines.Machine; the slice is reused by the next call
// for the same role.
func (m *Searcher) Legal(s engines.State, role int) ([]engines.Move, error) {
	if role < 0 || role >= len(m.moves) {
		return nil, protocol.Errorf(protocol.BadMove, "no role %d", role)
	}
	legal, err := m.e.Legal(s.(*State), role)
	if err != nil {
		return nil, err
	}
	out := m.moves[role][:0]
	for _, mv := range legal {
		out = append(out, engines.Move(mv))
	}
	m.moves[role] = out
	return out, nil
}

// Next implements engines.Machine.
func (m *Searcher) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	ids := m.ids[:0]
	for _, mv := range joint {
		ids = append(ids, int32(mv))
	}
	m.ids = ids
	next, err := m.e.Next(s.(*State), ids)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// Goals implements engines.Machine.
func (m *Searcher) Goals(s engines.State) ([]int, error) { return m.e.Goals(s.(*State)) }

// StateFacts implements engines.Machine.
func (m *Searcher) StateFacts(s engines.State) []string { return m.e.StateFacts(s.(*State)) }

// MoveText implements engines.Machine.
func (m *Searcher) MoveText(mv engines.Move) string {
	if mv < 0 || int(mv) >= m.e.S.Size() {
		return "<bad move>"
	}
	return m.e.MoveText(int32(mv))
}

// StateKey implements engines.Searcher: the state's fact ids, sorted (a
// state's facts are distinct), four bytes each.
func (m *Searcher) StateKey(s engines.State) string {
	ids := append(m.ids[:0], s.(*State).Facts...)
	slices.Sort(ids)
	m.ids = ids
	key := m.key[:0]
	for _, id := range ids {
		key = binary.LittleEndian.AppendUint32(key, uint32(id))
	}
	m.key = key
	return string(key)
}

// processWorkload is one workload run (workload.Process.Run, with this
// program's engine as the machine): the design is chosen in the setup,
// before the timing starts.
func processWorkload(es []*Engine, forced, file, name string, budget workload.Budget, secs int, seed uint64) (*protocol.Result, error) {
	e := es[0]
	var wres workload.Result
	setup := setupDesign(es, forced, file, &e)
	play := func() (protocol.Stats, error) {
		var err error
		wres, err = workload.Run(NewSearcher(e), name, budget, seed, time.Now().Add(time.Duration(secs)*time.Second))
		return wres.Stats(), err
	}
	res, err := protocol.Run(e.Version, "compiled", processStart, seed, setup, play)
	if err == nil {
		wres.SetKeys(res)
	}
	return res, err
}
