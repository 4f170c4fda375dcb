package rt

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// raceEngine is a hand-built engine of a one-role race: the state is the
// position k (a constant "k"), the moves a and b advance it by 1 and 2, the
// race is over at limit (goal 100). A rollout takes limit/2 to limit steps.
func raceEngine(limit int) *Engine {
	s := NewStore()
	role, a, b, hundred := s.AddConst("r"), s.AddConst("a"), s.AddConst("b"), s.AddConst("100")
	pos := make([]int32, limit+1)
	for k := range pos {
		pos[k] = s.AddConst(strconv.Itoa(k))
	}
	s.AddFunctor(-1, 0)
	e := NewEngine(s)
	e.Version, e.Design = "test", DesignBottomUp
	e.Roles = []int32{role}
	e.InitRel, e.TermRel, e.NextRel = NewRel(1), NewRel(0), NewRel(1)
	e.LegalRel, e.GoalRel, e.Does = NewRel(2), NewRel(2), NewRel(2)
	e.LegalIx, e.GoalIx = e.LegalRel.AddIndex(0), e.GoalRel.AddIndex(0)
	e.Rels = []*Rel{e.InitRel, e.TermRel, e.NextRel, e.LegalRel, e.GoalRel, e.Does}
	e.TrueRel = make([]*Rel, 1)
	at := func() int {
		for k, p := range pos {
			if e.Holds(p) {
				return k
			}
		}
		return -1
	}
	unit := func(scope uint8, r *Rel, run func()) []*Unit {
		return []*Unit{{Scope: scope, Rels: []*Rel{r}, Run: run}}
	}
	e.QInit = unit(PerState, e.InitRel, func() { e.InitRel.Add1(pos[0]) })
	e.QTerminal = unit(PerState, e.TermRel, func() {
		if at() == limit {
			e.TermRel.Add0()
		}
	})
	e.QLegal = unit(PerState, e.LegalRel, func() { e.LegalRel.Add2(role, a); e.LegalRel.Add2(role, b) })
	e.QNext = unit(PerMove, e.NextRel, func() {
		k := at() + 1
		if e.Does.Has2(role, b) {
			k++
		}
		e.NextRel.Add1(pos[min(k, limit)])
	})
	e.QGoal = unit(PerState, e.GoalRel, func() { e.GoalRel.Add2(role, hundred) })
	e.moves = make([][]int32, 1)
	e.empty = &State{}
	e.tup = make([]int32, 3)
	return e
}

// machine is an Engine as an engines.Machine, for rollout's loops.
type machine struct{ e *Engine }

func (m machine) Roles() []string { return m.e.RoleNames() }
func (m machine) Initial() (engines.State, error) {
	s, err := m.e.Initial()
	return s, err
}
func (m machine) Terminal(s engines.State) (bool, error) { return m.e.Terminal(s.(*State)) }
func (m machine) Legal(s engines.State, role int) ([]engines.Move, error) {
	legal, err := m.e.Legal(s.(*State), role)
	moves := make([]engines.Move, len(legal))
	for i, mv := range legal {
		moves[i] = engines.Move(mv)
	}
	return moves, err
}
func (m machine) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	j := make([]int32, len(joint))
	for i, mv := range joint {
		j[i] = int32(mv)
	}
	next, err := m.e.Next(s.(*State), j)
	return next, err
}
func (m machine) Goals(s engines.State) ([]int, error) { return m.e.Goals(s.(*State)) }
func (m machine) StateFacts(s engines.State) []string  { return m.e.StateFacts(s.(*State)) }
func (m machine) MoveText(mv engines.Move) string      { return m.e.MoveText(int32(mv)) }

// readLog is a counterfeit time that advances by step at every read and
// counts the reads.
type readLog struct {
	t     time.Time
	step  time.Duration
	reads int
}

func (l *readLog) now() time.Time {
	l.reads++
	l.t = l.t.Add(l.step)
	return l.t
}

// TestTimedLoopIsRolloutRun pins the compiled program's timed loop to
// rollout.Run's: on the same engine, with a time that advances only when
// it is read, both read the clock as often, play the same rollouts and
// stop at the same step, for rollouts shorter and longer than the up to 64
// steps between two reads within a rollout. (Before protocol.Loop, the
// program read the clock after every rollout, rollout.Run adaptively.)
func TestTimedLoopIsRolloutRun(t *testing.T) {
	tests := []struct {
		name  string
		limit int
		step  time.Duration
		run   time.Duration
	}{
		{"short rollouts, fast reads", 10, time.Microsecond, 3 * time.Millisecond},
		{"short rollouts, slow reads", 10, 300 * time.Microsecond, 50 * time.Millisecond},
		{"long rollouts", 200, 20 * time.Microsecond, 5 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			var logs [2]readLog
			for i := range logs {
				logs[i] = readLog{t: start, step: tt.step}
			}
			got, err := raceEngine(tt.limit).runTimed(protocol.NewClockFunc(logs[0].now, tt.run), 7)
			require.NoError(t, err)
			want, err := rollout.RunClock(machine{raceEngine(tt.limit)}, protocol.NewClockFunc(logs[1].now, tt.run), 7)
			require.NoError(t, err)
			require.Greater(t, want.Rollouts, int64(2))
			assert.Equal(t, want.Rollouts, got.Rollouts, "rollouts")
			assert.Equal(t, want.StateChanges, got.StateChanges, "state changes")
			assert.Equal(t, logs[1].reads, logs[0].reads, "clock reads")
			// fewer reads than rollouts: the reads between rollouts are adaptive
			if tt.step == time.Microsecond {
				assert.Less(t, int64(logs[0].reads), got.Rollouts)
			}
		})
	}
}

// TestFixedLoopIsRolloutRunFixed: fixed-work mode plays rollout.RunFixed's
// rollouts, and a rollout past protocol.MaxTraceSteps is the same error.
func TestFixedLoopIsRolloutRunFixed(t *testing.T) {
	got, err := raceEngine(40).runFixed(25, 3)
	require.NoError(t, err)
	want, err := rollout.RunFixed(machine{raceEngine(40)}, 25, 3)
	require.NoError(t, err)
	assert.Equal(t, want.Stats.StateChanges, got.StateChanges)
	assert.Equal(t, int64(25), got.Rollouts)

	_, err = raceEngine(2*protocol.MaxTraceSteps+10).runFixed(1, 3)
	require.Error(t, err)
	_, wantErr := rollout.RunFixed(machine{raceEngine(2*protocol.MaxTraceSteps + 10)}, 1, 3)
	require.Error(t, wantErr)
	assert.Equal(t, wantErr.Error(), err.Error())
}

// TestTraceIsRolloutTrace: the program's trace is rollout.Trace's, byte for
// byte.
func TestTraceIsRolloutTrace(t *testing.T) {
	var got, want bytes.Buffer
	require.NoError(t, raceEngine(12).Trace(&got, 5, 3))
	require.NoError(t, rollout.Trace(&want, machine{raceEngine(12)}, "compiled", "test", 5, 3))
	assert.Equal(t, want.String(), got.String())
}

// TestErrorKindTexts pins the kinds of game errors that the program
// writes (errorMessage, trace lines, -serve replies) to those of package
// engines, by their text.
func TestErrorKindTexts(t *testing.T) {
	tests := []struct {
		name string
		kind engines.ErrorKind
	}{
		{"no-legal-move", engines.NoLegalMove},
		{"goal-count", engines.GoalCount},
		{"goal-value", engines.GoalValue},
		{"non-ground", engines.NonGround},
		{"bad-move", engines.BadMove},
		{"resource-limit", engines.ResourceLimit},
		{"unsupported", engines.UnsupportedErr},
	}
	require.Len(t, protocol.ErrorKinds, len(tests))
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.name, string(tt.kind))
			assert.Equal(t, tt.kind, protocol.ErrorKinds[i])
			// a Fail in a question is the error the question returns
			e := raceEngine(3)
			err := func() (err error) {
				defer e.guard(&err)
				Fail(protocol.ErrorKinds[i], "in %s", "a test")
				return nil
			}()
			require.Error(t, err)
			assert.Equal(t, tt.name+": in a test", err.Error())
			assert.Equal(t, &ReplyError{Kind: tt.name, Msg: "in a test"}, replyErr(err))
		})
	}
	assert.Equal(t, &ReplyError{Kind: "", Msg: "plain"}, replyErr(fmt.Errorf("plain")))
}
