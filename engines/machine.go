// Package engines defines the Machine interface that every GDL engine
// answers, the errors a game can cause while it is played, and the registry
// of built-in engines.
package engines

import (
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
)

// State is an engine's native state. Only the machine that made it reads it.
type State any

// Move is an engine's native id of a ground move term.
type Move int32

// Machine answers the questions of a game's rules. Roles are numbered in
// the order of the game's role facts. A Machine is not safe for concurrent
// use.
type Machine interface {
	// Roles returns the roles' names, canonically printed.
	Roles() []string
	// Initial returns the initial state.
	Initial() (State, error)
	// Terminal reports whether s is terminal.
	Terminal(s State) (bool, error)
	// Legal returns the legal moves of role in s; it is a *GameError when
	// there is none. The slice may be reused by the next call.
	Legal(s State, role int) ([]Move, error)
	// Next returns the state after the joint move (one move per role).
	Next(s State, joint []Move) (State, error)
	// Goals returns each role's goal value in s; a role with no or several
	// goal values is a *GameError.
	Goals(s State) ([]int, error)
	// StateFacts returns the facts of s, canonically printed and sorted.
	StateFacts(s State) []string
	// MoveText returns the canonical text of a move.
	MoveText(m Move) string
}

// Roller is a Machine with a random-rollout loop of its own, which plays
// the rollouts of rollout.Run without a method call per question (the
// propnet's runs no state objects at all). It must play exactly the
// rollouts that the Machine's methods would (rollout.Playout): from the
// initial state, until a terminal state, each role in order drawing
// legal[rng.IntN(len(legal))] from its legal moves in the order Legal
// returns them, then the next state; at the terminal state the goals of
// every role, written to goals.
// stop, when not nil, is asked before every step (as rollout.Run does;
// protocol.Clock reads the time only every few) and ends the rollout
// unfinished when it says so. steps
// counts the state changes played, finished or not. enginetest checks the
// equivalence for every engine that has one.
type Roller interface {
	Machine
	Rollout(rng *rand.Rand, stop func() bool, goals []int) (steps int64, stopped bool, err error)
}

// BatchRoller is a Machine that can play many rollouts at once (the
// propnet's bit-parallel lanes). A timed run whose machine says Batch plays
// through Rollouts instead of one rollout at a time, and so does a
// fixed-work run. Each rollout draws from its own stream: rollout r from
// rand.New(rand.NewPCG(seed, r)), each role in order drawing
// legal[rng.IntN(len(legal))] from its legal moves in the order Legal
// returns them (a timed run) or sorted by their text (Batch.Sorted: a
// trace's and a fixed-work run's draws, protocol.Chooser), so rollout r is
// the rollout the Machine's methods play with that stream
// (rollout.PlayoutEach), in whatever order the batch finishes them.
type BatchRoller interface {
	Machine
	Batch() bool
	Rollouts(b Batch) (steps int64, err error)
}

// Batch says what rollouts a BatchRoller plays: rollouts 0, 1, ... of Seed
// (0 to N-1 when N >= 0; without end when N < 0), calling Done with each
// finished rollout's number, state changes and goals (valid during the
// call). Stop, when not nil, is asked every few hundred state changes and
// ends the run when it says so. With MaxSteps > 0, a rollout longer than
// that is a ResourceLimit game error. Rollouts returns every state change
// played, of finished rollouts or not; a game error ends the run.
type Batch struct {
	Seed     uint64
	N        int64
	Sorted   bool
	MaxSteps int
	Stop     func() bool
	Done     func(r, steps int64, goals []int)
}

// Searcher is a Machine whose states have an exact key of their own,
// cheaper to make than their facts, for the transposition tables of search
// (package workload).
//
// Search keeps states and asks about them again, in any order, after other
// calls: a State returned by Initial or Next must stay valid, and answer the
// same, for as long as it is referenced. Every built-in engine's states are
// immutable values (the propnet's fast mode moves its one network to a
// state from whichever it holds); an engine whose states are not must not
// be searched.
type Searcher interface {
	Machine
	// StateKey returns a key of s: two states of this machine have the
	// same key exactly when they have the same facts (StateFacts). Keys
	// of different machines are not comparable.
	StateKey(s State) string
}

// StateKey returns the key of s in m: m's own (Searcher), or else the
// state's facts joined by newlines (a canonical term has none), which every
// Machine can give.
func StateKey(m Machine, s State) string {
	if k, ok := m.(Searcher); ok {
		return k.StateKey(s)
	}
	return strings.Join(m.StateFacts(s), "\n")
}

// ErrorKind classifies game errors (protocol.ErrorKind: the compiled
// program's runtime uses the same texts).
type ErrorKind = protocol.ErrorKind

// The ways a valid-looking game can fail while it is played.
const (
	NoLegalMove    = protocol.NoLegalMove
	GoalCount      = protocol.GoalCount
	GoalValue      = protocol.GoalValue
	NonGround      = protocol.NonGround
	BadMove        = protocol.BadMove
	ResourceLimit  = protocol.ResourceLimit
	UnsupportedErr = protocol.UnsupportedErr
)

// GameError is a failure of the game's rules found while playing it, with
// the game's own terms in the message (protocol.GameError).
type GameError = protocol.GameError

// Errorf returns a *GameError.
func Errorf(kind ErrorKind, format string, args ...any) *GameError {
	return protocol.Errorf(kind, format, args...)
}

// Designed is a Machine that chose among designs of its own (the tuple
// prover's bottom-up or magic sets): a run's result file names the design
// kept (protocol.KeyDesign).
type Designed interface {
	Machine
	Design() string
}

// Tuned is a Machine built with knobs: Knobs returns those that are not
// the defaults as "k=v,k=v" sorted by k ("" for none), for the result
// file's protocol.KeyOptions, so that a run with other settings is told
// apart from a default one.
type Tuned interface {
	Machine
	Knobs() string
}

// SetupKeys adds to a result file what a machine says of its setup: the
// design a Designed machine kept, the knobs of a Tuned one (rollout and
// workload engine processes both call it).
func SetupKeys(m Machine, extra *protocol.Result) {
	if d, ok := m.(Designed); ok && d.Design() != "" {
		extra.Set(protocol.KeyDesign, d.Design())
	}
	if t, ok := m.(Tuned); ok && t.Knobs() != "" {
		extra.Set(protocol.KeyOptions, t.Knobs())
	}
}

// Build is an engine process's setup: it loads the rulesheet (file names
// it in messages), builds the machine with New and adds to extra what the
// machine says of its setup (SetupKeys). rollout and workload processes
// both run it, untimed.
func (e Engine) Build(file string, rules []byte, extra *protocol.Result) (Machine, error) {
	g, err := gdl.Load(file, rules)
	if err != nil {
		return nil, err
	}
	m, err := e.New(g)
	if err != nil {
		return nil, err
	}
	SetupKeys(m, extra)
	return m, nil
}

// Engine is a built-in engine.
type Engine struct {
	Name string
	// Version changes whenever the engine's code does.
	Version string
	// New builds a machine for a loaded game. It is the engine's setup
	// (analysis, grounding, code generation) and is not timed as rollouts.
	New func(g *gdl.Game) (Machine, error)
	// Native, when set, says the engine runs benchmark and trace runs as a
	// program of its own (the compiled prover): it prepares that program for
	// the game (code generation and a build, or a cache hit) and returns it.
	// New still gives a Machine in this process, for the checks that ask
	// questions one at a time.
	Native func(g *gdl.Game, rules []byte) (*NativeProgram, error)
}

// NativeProgram is an engine's own executable for one game. It is the engine
// process of ARCHITECTURE.md §3 and writes traces of §4:
//
//	PATH [-seed S] [-rollouts N] GAME_FILE RESULT_FILE SECONDS
//	PATH -trace TRACE_FILE [-seed S] [-rollouts N] GAME_FILE
//
// It refuses a GAME_FILE whose rules are not those it was built for.
type NativeProgram struct {
	Path string
	// Setup holds the setup figures the program cannot know itself, in
	// milliseconds, as result file keys (protocol.KeyCodegenMilliseconds,
	// protocol.KeyBuildMilliseconds); they are added to its result file.
	Setup map[protocol.Key]int64
	// Info describes the program, a line each (gdlperf engine info).
	Info []string
	// Args are given to every run of the program before the run's own
	// (the compiled engine's -design: the design its build's warm-up
	// kept).
	Args []string
}

var (
	mu       sync.Mutex
	registry = map[string]Engine{}
)

// Register adds a built-in engine; engine packages call it from init.
func Register(e Engine) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[e.Name]; dup {
		panic("engines: duplicate engine " + e.Name)
	}
	registry[e.Name] = e
}

// Lookup returns the built-in engine name.
func Lookup(name string) (Engine, bool) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := registry[name]
	return e, ok
}

// List returns the registered engines sorted by name.
func List() []Engine {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Engine, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
