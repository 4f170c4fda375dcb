package propnet

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Mode selects how the machine evaluates the network.
type Mode uint8

const (
	// Fast propagates only what changed through counter gates.
	Fast Mode = iota
	// FullPass evaluates every gate in topological order on every question:
	// slow and obviously correct, the fast mode's twin.
	FullPass
)

func (m Mode) String() string {
	if m == FullPass {
		return "fullpass"
	}
	return "fast"
}

// Options are the knobs of a build.
type Options struct {
	// MaxTime bounds grounding plus network construction, in CPU time of
	// the building goroutine (a build that waits on a busy machine is not
	// refused for the waiting, unless it waits engines.WaitedFactor times
	// as long); 0 is no bound.
	MaxTime time.Duration
	// MaxMemory bounds the heap during the build, in bytes; 0 is no bound.
	MaxMemory int64
	// MaxSize bounds the atoms, rule instances and terms of the grounding
	// and the nodes of the network, each; 0 is no bound. It refuses a
	// game that will not fit long before the time or memory budget would.
	MaxSize int
	// Mode is the evaluation mode of the machine.
	Mode Mode
	// NoOptimise keeps the network as grounded (for tests and engine info).
	NoOptimise bool
	// Legal forces the layout of the legal moves (for tests); by default
	// it is chosen by estimating both on small networks (layoutCost).
	Legal LegalLayout
	// NoPartialFactoring optimises without partial factoring only (for
	// tests); by default small networks are optimised both ways and
	// estimated.
	NoPartialFactoring bool
	// DeferFanout is the fewest two-input AND gates a node must be read by
	// for its edges to them to be deferred (counted only for the gates
	// whose other input holds); 0 defers none.
	DeferFanout int
	// Lanes says whether timed runs play 64 rollouts at once in the bits
	// of machine words (lanes.go); by default they do when the estimate
	// says a step of the lanes costs less than 64 of the fast mode.
	Lanes LanesChoice
}

// LanesChoice is whether timed runs play bit-parallel rollouts.
type LanesChoice uint8

const (
	// LanesAuto: by estimate (chooseLanes).
	LanesAuto LanesChoice = iota
	// LanesOn: always, when the game can be played in lanes.
	LanesOn
	// LanesOff: never.
	LanesOff
)

func (c LanesChoice) String() string {
	switch c {
	case LanesOn:
		return "on"
	case LanesOff:
		return "off"
	}
	return "auto"
}

// LegalLayout is how the fast mode finds the legal moves.
type LegalLayout uint8

const (
	// LegalAuto: estimated on networks up to maxLayoutChoice links; on
	// larger ones read when every guard covers at most scanLimit moves.
	LegalAuto LegalLayout = iota
	// LegalRead reads the legal propositions when the moves are asked.
	LegalRead
	// LegalTriggers keeps a bitset of the legal moves by triggers.
	LegalTriggers
)

// Defaults suit a 24 GiB machine that runs one engine process per core: a
// third of the memory for one build, and a time budget well inside the
// harness's grace of 60 s for short runs on a machine that gives the build
// a whole CPU.
const (
	DefaultMaxTime   = 40 * time.Second
	DefaultMaxMemory = 8 << 30
	// The largest mirrored games that build have 7.7M atoms and 10.6M
	// terms (mummymaze1p) and 3.1M rule instances or nodes; those refused
	// by the time budget were past 11M atoms, 27M terms or 44M rule
	// instances there.
	DefaultMaxSize = 16_000_000
	// DefaultDeferFanout: the move inputs of pancakes88 are read by 40,320
	// gates each, those of pancakes and pancakes6 by 720; no panel game
	// has a node with 256 two-input AND readers (hex has 326 nodes with 64
	// or more, and is 4x slower with them deferred). On networks small
	// enough for the layout choice, the layout without deferred edges is a
	// candidate too (chooseLayout).
	DefaultDeferFanout = 256
)

// Environment variables that override the defaults of the registered
// engine (gdlperf engine run has no per-engine flags).
const (
	envMaxTime   = "GDLPERF_PROPNET_MAX_TIME"   // a Go duration, e.g. 90s
	envMaxMemory = "GDLPERF_PROPNET_MAX_MEMORY" // MiB
	envMaxSize   = "GDLPERF_PROPNET_MAX_SIZE"   // atoms, rule instances, terms or nodes
	envMode      = "GDLPERF_PROPNET_MODE"       // fast or fullpass
	envLanes     = "GDLPERF_PROPNET_LANES"      // auto, on or off
)

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{MaxTime: DefaultMaxTime, MaxMemory: DefaultMaxMemory, MaxSize: DefaultMaxSize, DeferFanout: DefaultDeferFanout}
}

// Option sets an option.
type Option func(*Options)

// WithMaxTime sets the time budget of a build (0: none).
func WithMaxTime(d time.Duration) Option { return func(o *Options) { o.MaxTime = d } }

// WithMaxMemory sets the heap budget of a build in bytes (0: none).
func WithMaxMemory(b int64) Option { return func(o *Options) { o.MaxMemory = b } }

// WithMaxSize sets the most atoms, rule instances, terms or network nodes
// a build may make, each (0: no bound).
func WithMaxSize(n int) Option { return func(o *Options) { o.MaxSize = n } }

// WithMode sets the evaluation mode.
func WithMode(m Mode) Option { return func(o *Options) { o.Mode = m } }

// WithLegal forces the layout of the legal moves.
func WithLegal(l LegalLayout) Option { return func(o *Options) { o.Legal = l } }

// WithoutPartialFactoring optimises the network without partial factoring.
func WithoutPartialFactoring() Option { return func(o *Options) { o.NoPartialFactoring = true } }

// WithDeferFanout sets the fewest two-input AND readers of a node whose
// edges to them are deferred (0: none; for tests).
func WithDeferFanout(n int) Option { return func(o *Options) { o.DeferFanout = n } }

// WithLanes sets whether timed runs play bit-parallel rollouts.
func WithLanes(c LanesChoice) Option { return func(o *Options) { o.Lanes = c } }

// WithoutOptimisation keeps the network as grounded.
func WithoutOptimisation() Option { return func(o *Options) { o.NoOptimise = true } }

// OptionsFromEnv returns the defaults overridden by the environment
// variables GDLPERF_PROPNET_MAX_TIME (a duration), GDLPERF_PROPNET_MAX_MEMORY
// (MiB), GDLPERF_PROPNET_MAX_SIZE (atoms, rule instances, terms or nodes),
// GDLPERF_PROPNET_MODE (fast or fullpass) and GDLPERF_PROPNET_LANES (auto,
// on or off: whether timed runs play 64 rollouts at once).
func OptionsFromEnv() (Options, error) {
	o := DefaultOptions()
	if s := os.Getenv(envMaxTime); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return o, fmt.Errorf("%s=%q: want a duration such as 90s", envMaxTime, s)
		}
		o.MaxTime = d
	}
	if s := os.Getenv(envMaxMemory); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return o, fmt.Errorf("%s=%q: want a whole number of MiB", envMaxMemory, s)
		}
		o.MaxMemory = n << 20
	}
	if s := os.Getenv(envMaxSize); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return o, fmt.Errorf("%s=%q: want a whole number", envMaxSize, s)
		}
		o.MaxSize = n
	}
	switch s := strings.ToLower(os.Getenv(envMode)); s {
	case "", "fast":
	case "fullpass", "full-pass", "slow":
		o.Mode = FullPass
	default:
		return o, fmt.Errorf("%s=%q: want fast or fullpass", envMode, s)
	}
	switch s := strings.ToLower(os.Getenv(envLanes)); s {
	case "", "auto":
	case "on":
		o.Lanes = LanesOn
	case "off":
		o.Lanes = LanesOff
	default:
		return o, fmt.Errorf("%s=%q: want auto, on or off", envLanes, s)
	}
	return o, nil
}

// Knobs returns the options that are not the defaults as "k=v,k=v",
// sorted by k ("" when all are): max_time, max_memory (MiB), max_size and
// mode, as GDLPERF_PROPNET_* set them, and legal, no_optimise,
// no_partial_factoring and defer_fanout, the knobs of tests. A run's result
// file carries them (engines.Tuned), so a full-pass run is not taken for a
// fast one.
func (o Options) Knobs() string {
	d := DefaultOptions()
	var kv []string
	add := func(k, v string) { kv = append(kv, k+"="+v) }
	if o.MaxTime != d.MaxTime {
		add("max_time", o.MaxTime.String())
	}
	if o.MaxMemory != d.MaxMemory {
		if o.MaxMemory%(1<<20) == 0 {
			add("max_memory", strconv.FormatInt(o.MaxMemory>>20, 10))
		} else {
			add("max_memory", strconv.FormatInt(o.MaxMemory, 10)+"B")
		}
	}
	if o.MaxSize != d.MaxSize {
		add("max_size", strconv.Itoa(o.MaxSize))
	}
	if o.Mode != d.Mode {
		add("mode", o.Mode.String())
	}
	if o.Lanes != d.Lanes {
		add("lanes", o.Lanes.String())
	}
	if o.Legal != d.Legal {
		add("legal", o.Legal.String())
	}
	if o.NoOptimise {
		add("no_optimise", "true")
	}
	if o.NoPartialFactoring {
		add("no_partial_factoring", "true")
	}
	if o.DeferFanout != d.DeferFanout {
		add("defer_fanout", strconv.Itoa(o.DeferFanout))
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

// Knobs returns the non-default options the machine was built with
// (Options.Knobs).
func (m *Machine) Knobs() string { return m.Build.Options.Knobs() }

func (l LegalLayout) String() string {
	switch l {
	case LegalRead:
		return "read"
	case LegalTriggers:
		return "triggers"
	}
	return "auto"
}

// RefusalKind says why a game was refused.
type RefusalKind string

// The reasons to refuse a game.
const (
	RefuseSize        RefusalKind = "too-large"
	RefuseTime        RefusalKind = "time-budget"
	RefuseCycle       RefusalKind = "negation-cycle"
	RefuseUnsupported RefusalKind = "unsupported"
)

// RefusalError says that the propnet will not build a game, and why, with
// the sizes reached.
type RefusalError struct {
	Kind RefusalKind
	Msg  string
}

func (e *RefusalError) Error() string {
	return "propnet refuses the game (" + string(e.Kind) + "): " + e.Msg
}
