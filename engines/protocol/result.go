package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Key is a key of the result file.
type Key string

// The keys of the result file. Required on success: version,
// millisecondsTaken, numStateChanges, numRollouts; on failure: version and
// errorMessage. gdlperf's own engines add the others.
const (
	KeyVersion           Key = "version"
	KeyMillisecondsTaken Key = "millisecondsTaken" // the timed rollouts' wall time
	KeyNumStateChanges   Key = "numStateChanges"
	KeyNumRollouts       Key = "numRollouts" // finished rollouts
	KeyErrorMessage      Key = "errorMessage"
	KeyInitMilliseconds  Key = "initMilliseconds" // setup before the rollouts
	// KeyCPUMilliseconds is the user and system CPU time of the timed
	// rollouts, as the engine process measures it (getrusage RUSAGE_SELF
	// before and after): over millisecondsTaken, the share of a core the
	// rollouts had.
	KeyCPUMilliseconds Key = "cpuMilliseconds"
	KeyPeakRSSKiB      Key = "peakRSSKiB" // the process's VmHWM
	KeyGOMAXPROCS      Key = "gomaxprocs"
	KeySeed            Key = "seed"
	KeyDesign          Key = "design" // the design an engine kept (compiled, tupleprover)
	// KeyOptions are an engine's non-default knobs, "k=v,k=v" sorted by k,
	// so that runs with other settings are told apart.
	KeyOptions Key = "options"
	// The compiled prover's setup in the gdlperf process, before its
	// program starts (0 for a cached program).
	KeyCodegenMilliseconds Key = "codegenMilliseconds"
	KeyBuildMilliseconds   Key = "buildMilliseconds"
)

// Keys lists every key above, in the order gdlperf's engines write them.
var Keys = []Key{
	KeyVersion, KeyMillisecondsTaken, KeyNumStateChanges, KeyNumRollouts, KeyErrorMessage,
	KeyInitMilliseconds, KeyCPUMilliseconds, KeyPeakRSSKiB, KeyGOMAXPROCS, KeySeed,
	KeyDesign, KeyOptions, KeyCodegenMilliseconds, KeyBuildMilliseconds,
}

// Result is the content of an engine process's result file: ordered
// "key = value" lines.
type Result struct {
	keys   []Key
	values map[Key]string
}

// NewResult returns a result with its version.
func NewResult(version string) *Result {
	r := &Result{}
	r.Set(KeyVersion, version)
	return r
}

// Set sets key to value, keeping the first position of key. Runs of white
// space in values, newlines included, become one space: every value is one
// line.
func (r *Result) Set(key Key, value string) {
	if r.values == nil {
		r.values = map[Key]string{}
	}
	if _, ok := r.values[key]; !ok {
		r.keys = append(r.keys, key)
	}
	r.values[key] = strings.Join(strings.Fields(value), " ")
}

// SetInt sets key to an integer.
func (r *Result) SetInt(key Key, v int64) { r.Set(key, strconv.FormatInt(v, 10)) }

// Get returns the value of key.
func (r *Result) Get(key Key) (string, bool) {
	v, ok := r.values[key]
	return v, ok
}

// Keys returns the keys in the order they were set.
func (r *Result) Keys() []Key { return r.keys }

// Fail records a failed run: errorMessage, and the peak RSS so far.
func (r *Result) Fail(err error) {
	r.Set(KeyErrorMessage, err.Error())
	r.SetInt(KeyPeakRSSKiB, PeakRSSKiB())
}

// String returns the result file's text: a "key = value" line a key.
func (r *Result) String() string {
	var b strings.Builder
	for _, k := range r.keys {
		fmt.Fprintf(&b, "%s = %s\n", k, r.values[k])
	}
	return b.String()
}

// WriteFile writes the result atomically: a temporary file in the same
// folder, synced, then renamed over path.
func (r *Result) WriteFile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".result-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(r.String())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Parse reads a result file's text. Lines without "=" are returned as
// garbage, never fatal; blank lines and # comments are skipped; unknown
// keys are kept.
func Parse(text string) (r *Result, garbage []string) {
	r = &Result{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			garbage = append(garbage, line)
			continue
		}
		r.Set(Key(strings.TrimSpace(k)), strings.TrimSpace(v))
	}
	return r, garbage
}

// Run performs one benchmark run of an engine process and returns its
// result: setup (not timed; the time since start, the process's start, is
// initMilliseconds), then play, the timed rollouts (their CPU time is
// cpuMilliseconds). setup may set keys of its own in extra (design,
// options); they come last. A failure of either, a panic included, is a
// result with errorMessage and the peak RSS so far, returned with the
// error; engine names the engine in a panic's message.
func Run(version, engine string, start time.Time, seed uint64, setup func(extra *Result) error, play func() (Stats, error)) (res *Result, err error) {
	res = NewResult(version)
	extra := &Result{}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("engine %s panicked: %v\n%s", engine, v, firstFrames(debug.Stack()))
			res.Fail(err)
		}
		for _, k := range extra.keys {
			res.Set(k, extra.values[k])
		}
	}()
	if err := setup(extra); err != nil {
		res.Fail(err)
		return res, err
	}
	init := time.Since(start)
	cpu0 := CPUTime()
	st, err := play()
	cpu1 := CPUTime()
	if err != nil {
		res.Fail(err)
		return res, err
	}
	res.SetInt(KeyMillisecondsTaken, st.Elapsed.Milliseconds())
	res.SetInt(KeyNumStateChanges, st.StateChanges)
	res.SetInt(KeyNumRollouts, st.Rollouts)
	res.SetInt(KeyInitMilliseconds, init.Milliseconds())
	if cpu0 >= 0 && cpu1 >= 0 {
		res.SetInt(KeyCPUMilliseconds, (cpu1 - cpu0).Milliseconds())
	}
	res.SetInt(KeyPeakRSSKiB, PeakRSSKiB())
	res.SetInt(KeyGOMAXPROCS, int64(runtime.GOMAXPROCS(0)))
	res.Set(KeySeed, strconv.FormatUint(seed, 10))
	return res, nil
}

func firstFrames(stack []byte) string {
	const max = 2000
	if len(stack) > max {
		stack = stack[:max]
	}
	return string(stack)
}

// PeakRSSKiB returns the process's peak resident set size (VmHWM) in KiB,
// or -1 where /proc does not tell.
func PeakRSSKiB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return v
				}
			}
		}
	}
	return -1
}

// CPUTime returns the user and system CPU time the process has used so
// far (getrusage RUSAGE_SELF: every thread, the garbage collector's
// included), or -1 where the system does not tell.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
