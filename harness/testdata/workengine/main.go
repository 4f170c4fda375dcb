// Command workengine is a test engine for gdlperf ab: it speaks the engine
// process protocol (ARCHITECTURE.md §3) but plays a fake game, so that its
// cost is known. Every rollout is a run of state changes whose number
// depends on the game file and the rollout's seed; every state change is a
// busy loop of Iterations·WORK iterations, so WORK=1.3 is an engine variant
// doing 30% more work per state change.
//
//	workengine [--rollouts N] [--seed S] GAME_FILE RESULT_FILE SECONDS
//	workengine hog        (spins until killed: a busy machine)
//
// Environment: WORK (default 1), VERSION (the version it reports, default
// "1"), ITERATIONS (per state change at WORK=1, default 40000), and two
// knobs that count the engine's runs in a file:
//
//   - JITTER_FILE=F: of runs 2k and 2k+1 (counted in F), the first does
//     the work and the second e^0.6, e^0.05 or e^0.3 times it, in turn for
//     k: an engine whose two runs in a row differ by a large factor, never
//     the same one three times (gdlperf ab's pairs are two runs in a row,
//     so a few of them cannot decide anything, whatever their order);
//   - CONTEND_RUNS=N with CONTEND_FILE=F: the first N runs report a fiftieth of
//     their time (at least 1 ms) as CPU time, so the harness takes them for contended.
//
// The result file has version, millisecondsTaken, numStateChanges,
// numRollouts, seed and cpuMilliseconds (the user and system CPU time of
// the timed part, from getrusage), so the harness can tell a contended run.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "hog" {
		x := uint64(1)
		for {
			x = spin(x, 1<<20)
		}
	}
	fs := flag.NewFlagSet("workengine", flag.ExitOnError)
	rollouts := fs.Int("rollouts", 0, "fixed work: this many rollouts")
	seed := fs.Uint64("seed", 1, "seed of the rollouts")
	fs.Parse(os.Args[1:])
	if fs.NArg() != 3 {
		fmt.Fprintln(os.Stderr, "usage: workengine [--rollouts N] [--seed S] GAME_FILE RESULT_FILE SECONDS")
		os.Exit(2)
	}
	game, result := fs.Arg(0), fs.Arg(1)
	seconds, err := strconv.Atoi(fs.Arg(2))
	if err != nil {
		fail(result, "SECONDS "+fs.Arg(2)+" is not a number")
	}
	work := 1.0
	if w := os.Getenv("WORK"); w != "" {
		if work, err = strconv.ParseFloat(w, 64); err != nil || work <= 0 {
			fail(result, "WORK="+w+" is not a positive number")
		}
	}
	iterations := 40000
	if s := os.Getenv("ITERATIONS"); s != "" {
		if iterations, err = strconv.Atoi(s); err != nil || iterations < 1 {
			fail(result, "ITERATIONS="+s+" is not a positive number")
		}
	}
	rules, err := os.ReadFile(game)
	if err != nil {
		fail(result, err.Error())
	}
	h := fnv.New64a()
	h.Write(rules)
	base := 10 + int(h.Sum64()%20) // the game's rollout length
	if f := os.Getenv("JITTER_FILE"); f != "" {
		if i := count(f); i%2 == 1 {
			work *= math.Exp([]float64{0.6, 0.05, 0.3}[i/2%3])
		}
	}
	contended := false
	if n := os.Getenv("CONTEND_RUNS"); n != "" {
		runs, err := strconv.Atoi(n)
		if err != nil {
			fail(result, "CONTEND_RUNS="+n+" is not a number")
		}
		contended = count(os.Getenv("CONTEND_FILE")) < runs
	}
	perChange := uint64(float64(iterations) * work)

	var changes, done int64
	x := uint64(1)
	cpu0 := cpuTime()
	start := time.Now()
	deadline := start.Add(time.Duration(seconds) * time.Second)
	for r := 0; ; r++ {
		if *rollouts > 0 && r >= *rollouts || *rollouts == 0 && !time.Now().Before(deadline) {
			break
		}
		rng := rand.New(rand.NewPCG(*seed, uint64(r)))
		n := base + rng.IntN(5)
		for range n {
			x = spin(x, perChange)
			changes++
		}
		done++
	}
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	if contended {
		cpu = max(elapsed/50, time.Millisecond) // 0 would be "not reported"
	}
	version := os.Getenv("VERSION")
	if version == "" {
		version = "1"
	}
	write(result, fmt.Sprintf("version = %s\nmillisecondsTaken = %d\nnumStateChanges = %d\nnumRollouts = %d\nseed = %d\ncpuMilliseconds = %d\nchecksum = %d\n",
		version, elapsed.Milliseconds(), changes, done, *seed, cpu.Milliseconds(), x%1000))
}

// count returns the number in the file and writes it back plus one (0 for
// a missing file; no file name: always 0).
func count(file string) int {
	if file == "" {
		return 0
	}
	b, _ := os.ReadFile(file)
	n, _ := strconv.Atoi(string(b))
	if err := os.WriteFile(file, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return n
}

// spin is the busy loop: n steps of xorshift, which the compiler cannot
// drop since the result is written out.
func spin(x, n uint64) uint64 {
	for i := uint64(0); i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fail(result, msg string) {
	write(result, "version = "+os.Getenv("VERSION")+"\nerrorMessage = "+msg+"\n")
	os.Exit(1)
}

// write puts the result beside its file and renames it into place.
func write(result, text string) {
	tmp := filepath.Join(filepath.Dir(result), ".result.tmp")
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.Rename(tmp, result); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
