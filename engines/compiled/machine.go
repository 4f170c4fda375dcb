// Package compiled is the compiled prover: for one game it generates a Go
// program specialised to the game's rules, builds it with the Go toolchain
// into a cache, and runs it as its own process (ARCHITECTURE.md §3-§4).
//
// The generator (gen.go) interns every name and ground term of the rules to
// an integer known at generation time, so a constant in a rule is an integer
// comparison; function terms made while playing are hash-consed at run time
// by functor and argument ids. Relations are tuple sets with hash indexes on
// the column sets that the joins bind; (true (f ...)) facts are split by
// functor into relations of their arguments plus the fact's id. Each
// strongly connected component of the relation graph is a unit evaluated
// bottom-up as a whole: static units once at start-up, the others at most
// once per state (or per joint move, for those that depend on does), and
// only when a question (terminal, legal, next, goal) needs them. A recursive
// unit runs one naive round and then semi-naive rounds (Ullman 1988); a unit
// with negation inside is split into rule groups as the tuple prover does.
// Each rule is compiled for one join order, chosen greedily from size
// estimates, into a function of nested loops over local int32 variables;
// once its head is bound, the first proof ends the search. The estimates
// come from the tuple prover at generation time (sizes.go), or where it
// cannot, a slow, naive evaluation: the static relations exactly, the
// others averaged over random steps.
// A rule whose join order starts with two or more static relations reads
// their join from a new static relation computed at start-up instead, and a
// function term built only from one static row's values is an auxiliary
// column of that relation (its id per row), so that, for instance,
// (not (true (cell ?x ?y red))) over the board's coordinates costs one
// array read and one membership test per cell.
//
// Bottom-up evaluation computes whole relations that a top-down prover only
// samples, which on some games is thousands of times the work. A program
// therefore holds two designs, each a Go package of its own (bu and ms)
// with its own data: the rules as they are, and the rules rewritten with
// magic sets (gdl.MagicSets, the static relations kept whole), which
// computes only the tuples the questions demand. A design that cannot be
// generated within the budgets is left out. At start-up the program loads
// both, plays a few bounded warm-up rounds of random steps on each in turn
// and keeps the one that needs the least work per state change, with a
// bias towards bottom-up, as the tuple prover does (rt/choose.go); work is
// counted (rt.Work: rows looped over, probes, adds, interns), not timed, so
// that every process of a game keeps the same design, whatever the load.
// -design forces one. The build therefore plays the warm-up once (prog
// -choose, native.go's chooseDesign) and records the design kept beside
// the program, and every run is given it with -design (NativeProgram.Args).
// The result file names the design kept. (Today a
// program has up to five designs: bottom-up, magic sets' shared copies and
// copies per call site, the fallback with large statics on demand, and the
// incremental design of gen_inc.go, which keeps the relations that depend
// on the state from one state to the next.)
//
// Names from the game reach the generated source only as integer ids: their
// texts travel in an embedded data file (game.bin), with the ground terms
// and facts. The runtime (rt/) is ordinary Go code copied beside the
// generated files as package rt, with packages protocol, workload, engines
// and gdl beside it (the imports rewritten to the generated module's), so
// the program speaks the engine process protocol, writes traces and times
// its rollouts with the built-in engines' code, and runs the search
// workloads (-workload uct, pns, minimax) with engines/workload's own
// searches over its engine (rt.Searcher), without a round trip per
// question; it answers the -serve line protocol that the Machine of this
// package uses.
package compiled

import (
	"bufio"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled/rt"
	"github.com/gdlperf/gdlperf/engines/fixedfluent"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/engines/workload"
)

// source is the generator's and the runtime's code: the runtime files are
// copied into every generated program. rt.pgo is the runtime's CPU
// profile for the compiler's profile-guided optimization (writeProfile);
// being in source, it is part of Version.
//
//go:embed *.go rt/*.go rt.pgo
var source embed.FS

// Name is the engine's name in the registry and on the command line.
const Name = "compiled"

// Version is the engine's version, baked into every program it builds.
var Version = engines.SourceVersion("2", source, gdl.Source, engines.Source, rollout.Source, workload.Source, fixedfluent.Source, tupleprover.Source)

func init() {
	engines.Register(engines.Engine{
		Name:    Name,
		Version: Version,
		New: func(g *gdl.Game) (engines.Machine, error) {
			m, err := New(g)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
		Native: Native,
	})
}

// Machine is a compiled program run in -serve mode, as an engines.Machine.
type Machine struct {
	proc   *process
	roles  []string
	texts  map[engines.Move]string
	infos  map[int]*stateInfo
	moves  [][]engines.Move
	broken error
	drops  *dropQueue
}

// dropQueue holds the handles of states collected, to forget in the
// program with the next request.
type dropQueue struct {
	mu      sync.Mutex
	handles []int
}

type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	in     *bufio.Writer
	out    *bufio.Scanner
	stderr *tailBuffer
	once   sync.Once
}

// state is a handle of a state of the program.
type state struct{ h int }

type stateInfo struct {
	q     *rt.Reply
	goals *rt.Reply
	facts []string
}

var _ engines.Machine = (*Machine)(nil)

// Option is a knob of New.
type Option func(*options)

type options struct{ design string }

// WithDesign forces the program's design, "bottom-up", "magic",
// "magic-sites", "magic-demand" or "incremental", as its -design flag does (by default the
// design the build's warm-up kept).
func WithDesign(d string) Option { return func(o *options) { o.design = d } }

// New builds (or finds in the cache) the program of g and starts it in
// -serve mode. The program is killed when the machine is closed or
// collected, and when this process dies.
func New(g *gdl.Game, opts ...Option) (*Machine, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	prog, err := prepare(g, canonicalSHA(g))
	if err != nil {
		return nil, err
	}
	args := append(slices.Clip(prog.Args), "-serve")
	if o.design != "" { // after prog.Args: the last -design wins
		args = append(args, "-design", o.design)
	}
	cmd := exec.Command(prog.Path, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	p := &process{cmd: cmd, stderr: &tailBuffer{max: 4096}}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("compiled: starting %s: %w", prog.Path, err)
	}
	p.in = bufio.NewWriter(p.stdin)
	p.out = bufio.NewScanner(stdout)
	p.out.Buffer(make([]byte, 1<<16), 1<<28)
	m := &Machine{proc: p, texts: map[engines.Move]string{}, infos: map[int]*stateInfo{}, drops: &dropQueue{}}
	runtime.AddCleanup(m, func(p *process) { p.close() }, p)
	if live.Add(1) > maxLive {
		// machines dropped without Close hold idle programs until they
		// are collected: collect them
		runtime.GC()
	}
	rep, err := m.ask("R")
	if err != nil {
		m.Close()
		return nil, err
	}
	m.roles = rep.Texts
	m.moves = make([][]engines.Move, len(m.roles))
	return m, nil
}

// live counts the programs started and not yet stopped.
var live atomic.Int64

// maxLive is the number of live programs above which New collects
// garbage first.
const maxLive = 16

func (p *process) close() {
	p.once.Do(func() {
		p.stdin.Close()
		p.cmd.Process.Kill()
		p.cmd.Wait()
		live.Add(-1)
	})
}

// Close stops the program.
func (m *Machine) Close() error {
	if m.broken == nil {
		m.broken = errors.New("compiled: the machine is closed")
	}
	m.proc.close()
	return nil
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// ask sends one request and reads its reply.
func (m *Machine) ask(req string) (*rt.Reply, error) {
	if m.broken != nil {
		return nil, m.broken
	}
	m.drops.mu.Lock()
	drop := m.drops.handles
	m.drops.handles = nil
	m.drops.mu.Unlock()
	if len(drop) > 0 {
		var b strings.Builder
		b.WriteString("D")
		for _, h := range drop {
			b.WriteString(" " + strconv.Itoa(h))
			delete(m.infos, h)
		}
		if _, err := m.roundTrip(b.String()); err != nil {
			return nil, err
		}
	}
	return m.roundTrip(req)
}

func (m *Machine) roundTrip(req string) (*rt.Reply, error) {
	p := m.proc
	p.in.WriteString(req)
	p.in.WriteByte('\n')
	if err := p.in.Flush(); err != nil {
		return nil, m.fail(err)
	}
	if !p.out.Scan() {
		err := p.out.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, m.fail(err)
	}
	var rep rt.Reply
	if err := json.Unmarshal(p.out.Bytes(), &rep); err != nil {
		return nil, m.fail(err)
	}
	return &rep, nil
}

func (m *Machine) fail(err error) error {
	msg := strings.TrimSpace(m.proc.stderr.String())
	if msg != "" {
		err = fmt.Errorf("%w: %s", err, msg)
	}
	m.broken = fmt.Errorf("compiled: the program failed: %w", err)
	return m.broken
}

func gameErr(e *rt.ReplyError) error {
	if e == nil {
		return nil
	}
	if e.Kind == "" {
		return errors.New(e.Msg)
	}
	return &engines.GameError{Kind: engines.ErrorKind(e.Kind), Msg: e.Msg}
}

func (m *Machine) newState(h int) *state {
	s := &state{h: h}
	q := m.drops
	runtime.AddCleanup(s, func(h int) {
		q.mu.Lock()
		q.handles = append(q.handles, h)
		q.mu.Unlock()
	}, h)
	return s
}

func (m *Machine) info(s engines.State) *stateInfo {
	h := s.(*state).h
	in := m.infos[h]
	if in == nil {
		in = &stateInfo{}
		m.infos[h] = in
	}
	return in
}

// Roles implements engines.Machine.
func (m *Machine) Roles() []string { return m.roles }

// Initial implements engines.Machine.
func (m *Machine) Initial() (engines.State, error) {
	rep, err := m.ask("I")
	if err != nil {
		return nil, err
	}
	if rep.Err != nil {
		return nil, gameErr(rep.Err)
	}
	return m.newState(rep.H), nil
}

func (m *Machine) query(s engines.State) (*rt.Reply, error) {
	in := m.info(s)
	if in.q == nil {
		rep, err := m.ask("Q " + strconv.Itoa(s.(*state).h))
		if err != nil {
			return nil, err
		}
		in.q = rep
	}
	return in.q, nil
}

// Terminal implements engines.Machine.
func (m *Machine) Terminal(s engines.State) (bool, error) {
	rep, err := m.query(s)
	if err != nil {
		return false, err
	}
	return rep.Term, gameErr(rep.Err)
}

// Legal implements engines.Machine.
func (m *Machine) Legal(s engines.State, role int) ([]engines.Move, error) {
	rep, err := m.query(s)
	if err != nil {
		return nil, err
	}
	if role < 0 || role >= len(m.roles) {
		return nil, engines.Errorf(engines.BadMove, "no role %d", role)
	}
	if role < len(rep.LegalErr) && rep.LegalErr[role] != nil {
		return nil, gameErr(rep.LegalErr[role])
	}
	if role >= len(rep.Legal) {
		return nil, fmt.Errorf("compiled: the program gave no legal moves for role %d", role)
	}
	moves := m.moves[role][:0]
	for _, mv := range rep.Legal[role] {
		moves = append(moves, engines.Move(mv))
	}
	m.moves[role] = moves
	return moves, nil
}

// Next implements engines.Machine.
func (m *Machine) Next(s engines.State, joint []engines.Move) (engines.State, error) {
	if len(joint) != len(m.roles) {
		return nil, engines.Errorf(engines.BadMove, "a joint move needs %d moves, not %d", len(m.roles), len(joint))
	}
	var b strings.Builder
	b.WriteString("N " + strconv.Itoa(s.(*state).h))
	for _, mv := range joint {
		b.WriteString(" " + strconv.Itoa(int(mv)))
	}
	rep, err := m.ask(b.String())
	if err != nil {
		return nil, err
	}
	if rep.Err != nil {
		return nil, gameErr(rep.Err)
	}
	return m.newState(rep.H), nil
}

// Goals implements engines.Machine.
func (m *Machine) Goals(s engines.State) ([]int, error) {
	in := m.info(s)
	if in.goals == nil {
		rep, err := m.ask("G " + strconv.Itoa(s.(*state).h))
		if err != nil {
			return nil, err
		}
		in.goals = rep
	}
	if in.goals.Err != nil {
		return nil, gameErr(in.goals.Err)
	}
	return append([]int(nil), in.goals.Goals...), nil
}

// StateFacts implements engines.Machine.
func (m *Machine) StateFacts(s engines.State) []string {
	in := m.info(s)
	if in.facts == nil {
		rep, err := m.ask("F " + strconv.Itoa(s.(*state).h))
		if err != nil {
			return []string{"<" + err.Error() + ">"}
		}
		in.facts = rep.Texts
		if in.facts == nil {
			in.facts = []string{}
		}
	}
	return append([]string{}, in.facts...)
}

// MoveText implements engines.Machine.
func (m *Machine) MoveText(mv engines.Move) string {
	if t, ok := m.texts[mv]; ok {
		return t
	}
	rep, err := m.ask("M " + strconv.Itoa(int(mv)))
	if err != nil || len(rep.Texts) != 1 {
		return fmt.Sprintf("<bad move %d>", mv)
	}
	m.texts[mv] = rep.Texts[0]
	return rep.Texts[0]
}
