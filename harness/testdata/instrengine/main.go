// Command instrengine is a test engine for the instructions measure: it
// speaks the engine process protocol in fixed-work mode
//
//	instrengine --rollouts N --seed S GAME_FILE RESULT_FILE SECONDS
//
// and does a known work: rollout r of seed S is 5 + (S+r) mod 7 state
// changes, each a busy loop of ITERATIONS·WORK iterations (environment;
// defaults 20000 and 1), so WORK=1.03 is a 3 % slower variant. Its setup
// reads the game file and fills and walks a map (whose order and so whose
// instruction count differ from process to process, as a real Go engine's).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	fs := flag.NewFlagSet("instrengine", flag.ExitOnError)
	rollouts := fs.Int("rollouts", 0, "fixed work: this many rollouts")
	seed := fs.Uint64("seed", 1, "seed of the rollouts")
	fs.Parse(os.Args[1:])
	if fs.NArg() != 3 || *rollouts <= 0 {
		fmt.Fprintln(os.Stderr, "usage: instrengine --rollouts N [--seed S] GAME_FILE RESULT_FILE SECONDS")
		os.Exit(2)
	}
	result := fs.Arg(1)
	iterations, work := 20000.0, 1.0
	if v := os.Getenv("ITERATIONS"); v != "" {
		iterations = number(result, "ITERATIONS", v)
	}
	if v := os.Getenv("WORK"); v != "" {
		work = number(result, "WORK", v)
	}
	steps := uint64(iterations * work)

	start := time.Now()
	rules, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fail(result, err.Error())
	}
	m := map[int]int{}
	for i, b := range rules {
		m[i%997] += int(b)
	}
	x := uint64(1)
	for k, v := range m {
		x = x*31 + uint64(k*v)
	}
	init := time.Since(start)

	start = time.Now()
	var changes uint64
	for r := uint64(0); r < uint64(*rollouts); r++ {
		n := 5 + (*seed+r)%7
		for s := uint64(0); s < n; s++ {
			x = spin(x, steps)
			changes++
		}
	}
	took := time.Since(start)
	text := fmt.Sprintf("version = 1\nmillisecondsTaken = %d\nnumStateChanges = %d\nnumRollouts = %d\ninitMilliseconds = %d\nseed = %d\nchecksum = %d\n",
		took.Milliseconds(), changes, *rollouts, init.Milliseconds(), *seed, x)
	if err := os.WriteFile(result, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// spin is the work: n steps of a xorshift generator.
func spin(x, n uint64) uint64 {
	for i := uint64(0); i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func number(result, name, v string) float64 {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 {
		fail(result, fmt.Sprintf("%s = %q is not a positive number", name, v))
	}
	return f
}

func fail(result, msg string) {
	os.WriteFile(result, []byte("version = 1\nerrorMessage = "+msg+"\n"), 0o644)
	os.Exit(1)
}
