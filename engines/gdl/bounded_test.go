package gdl

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Game files may come from anyone (parse.go, Limits), so reading one must
// take bounded time and memory. Each input below is at most 64 KiB, and Check
// with DefaultLimits must finish it within boundedTime while allocating at
// most boundedAlloc bytes in all: the largest real rulesheet (83 KB) takes
// about 5 ms and 4 MB. A bad input can take exponential memory, so each case
// runs in a child process (this test binary again) that a watchdog stops at
// boundedHeap bytes of live heap or boundedKill of time. Time is the child's
// CPU time (user and system, GOMAXPROCS=1), not the wall clock, so that a
// busy machine does not fail the test: on a shared 2-core machine at load 15
// a 1 s check took over 3 s of wall time.
const (
	boundedTime  = 2 * time.Second
	boundedAlloc = 512 << 20
	boundedHeap  = 1 << 30
	boundedKill  = 6 * time.Second

	boundedCaseEnv = "GDL_BOUNDED_CASE"
)

var boundedCases = []struct {
	name string
	src  func() string
}{
	// Controls: inputs that are large for their size but handled well.
	{name: "deep nesting at the limit", src: func() string {
		d := DefaultLimits.MaxDepth - 1
		return "(p " + strings.Repeat("(f ", d) + "a" + strings.Repeat(")", d+1)
	}},
	{name: "nesting over the limit", src: func() string {
		return strings.Repeat("(f ", 20000)
	}},
	{name: "many rules", src: func() string {
		var b strings.Builder
		for i := 0; b.Len() < 60000; i++ {
			fmt.Fprintf(&b, "(<= (r%d ?x) (r%d ?x))\n", i, i+1)
		}
		return b.String()
	}},
	{name: "or-expansion over the rule budget", src: func() string {
		return "(<= p" + strings.Repeat(" (or a b)", 1000) + ")"
	}},
	{name: "distinct waiting for a late binding", src: func() string {
		var b strings.Builder
		b.WriteString("(<= p")
		for b.Len() < 40000 {
			b.WriteString(" (distinct ?z a)")
		}
		for b.Len() < 60000 {
			b.WriteString(" c")
		}
		b.WriteString(" (q ?z))")
		return b.String()
	}},

	// An or-expansion within MaxRules but with long bodies: 2^16 rules of
	// 6,000 literals each is about 3 GB. The rule budget should bound the
	// size of the expansion, not only the number of rules.
	{name: "or-expansion of long bodies", src: func() string {
		return "(<= p" + strings.Repeat(" (or a b)", 16) + strings.Repeat(" c", 6000) + ")"
	}},
	// (not (or a1 .. an)) builds its conjunction by copying it once per
	// disjunct: quadratic.
	{name: "not over a wide or", src: func() string {
		var b strings.Builder
		b.WriteString("(<= p (not (or")
		for b.Len() < 64000 {
			b.WriteString(" a")
		}
		b.WriteString(")))")
		return b.String()
	}},
	// Each (not (distinct ?xi (f ?xj ?xj))) doubles the head: 2^30 nodes
	// from 1 KB.
	{name: "not-distinct doubling terms", src: func() string {
		var b strings.Builder
		n := 30
		fmt.Fprintf(&b, "(<= (p ?x0) (q ?x%d)", n)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " (not (distinct ?x%d (f ?x%d ?x%d)))", i, i+1, i+1)
		}
		b.WriteString(")")
		return b.String()
	}},
	// One (not (distinct ..)) whose unification binds ?x(i) to (f ?x(i+1)
	// ?x(i+1)) in the order that makes every occurs check walk the whole
	// chain: exponential time.
	{name: "not-distinct occurs check", src: func() string {
		var b strings.Builder
		n := 40
		fmt.Fprintf(&b, "(<= p (q ?x%d) (not (distinct (h", n)
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, " ?x%d", i)
		}
		b.WriteString(") (h")
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, " (f ?x%d ?x%d)", i+1, i+1)
		}
		b.WriteString("))))")
		return b.String()
	}},
	// The same in the stratification check's unifier.
	{name: "stratification occurs check", src: func() string {
		var lit, head strings.Builder
		n := 20
		for k := n; k >= 1; k-- {
			fmt.Fprintf(&lit, " (f ?a%d ?a%d) ?a%d", k+1, k+1, k)
			fmt.Fprintf(&head, " ?b%d (f ?b%d ?b%d)", k, k, k)
		}
		return fmt.Sprintf("(<= (p%s) (q ?b1) (not (p%s)))", head.String(), lit.String())
	}},
	// The stratification check links every literal to every rule of its
	// relation: facts x literals unifications.
	{name: "stratification over many facts and literals", src: func() string {
		var b strings.Builder
		for i := 0; b.Len() < 30000; i++ {
			fmt.Fprintf(&b, "(p %d)", i)
		}
		b.WriteString("(<= (p ?x) (q ?x) (not (p ?x))")
		for b.Len() < 64000 {
			b.WriteString(" (p ?x)")
		}
		b.WriteString(")")
		return b.String()
	}},
}

func TestCheckBoundedTimeAndMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes for several seconds")
	}
	for _, tt := range boundedCases {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src()
			require.LessOrEqual(t, len(src), 64<<10, "inputs are at most 64 KiB")

			ctx, cancel := context.WithTimeout(context.Background(), boundedKill+30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBoundedChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), boundedCaseEnv+"="+tt.name, "GOMAXPROCS=1")
			out, err := cmd.CombinedOutput()
			report := string(out)
			require.NoError(t, err, "child process failed:\n%s", report)

			require.Contains(t, report, "RESULT ", "child output:\n%s", report)
			var ms, alloc int64
			line := report[strings.Index(report, "RESULT "):]
			_, err = fmt.Sscanf(line, "RESULT elapsed_ms=%d total_alloc=%d", &ms, &alloc)
			require.NoError(t, err, "child output:\n%s", report)
			t.Logf("%d bytes: %d ms, %d MiB allocated", len(src), ms, alloc>>20)
			assert.LessOrEqual(t, time.Duration(ms)*time.Millisecond, boundedTime, "Check on %d bytes took too long", len(src))
			assert.LessOrEqual(t, alloc, int64(boundedAlloc), "Check on %d bytes allocated %d MiB", len(src), alloc>>20)
		})
	}
}

// TestBoundedChild is the child process of TestCheckBoundedTimeAndMemory:
// it runs Check on one case under a watchdog and prints what it used.
func TestBoundedChild(t *testing.T) {
	name := os.Getenv(boundedCaseEnv)
	if name == "" {
		t.Skip("the child process of TestCheckBoundedTimeAndMemory")
	}
	var src string
	for _, c := range boundedCases {
		if c.name == name {
			src = c.src()
		}
	}
	require.NotEmpty(t, src, "unknown case %q", name)

	start := time.Now()
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			time.Sleep(10 * time.Millisecond)
			metrics.Read(sample)
			if heap := sample[0].Value.Uint64(); heap > boundedHeap {
				fmt.Printf("over the memory budget: %d MiB of heap after %v\n", heap>>20, time.Since(start).Round(time.Millisecond))
				os.Exit(3)
			}
			if d := processCPU(); d > boundedKill {
				fmt.Printf("over the time budget: still running after %v of CPU (%v of wall time)\n", d.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
				os.Exit(4)
			}
		}
	}()

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := processCPU()
	_, err := Check("bounded.kif", []byte(src), DefaultLimits)
	elapsed := processCPU() - t0
	runtime.ReadMemStats(&after)
	if err != nil {
		fmt.Printf("syntax error: %v\n", err)
	}
	fmt.Printf("RESULT elapsed_ms=%d total_alloc=%d\n", elapsed.Milliseconds(), after.TotalAlloc-before.TotalAlloc)
}

// processCPU is the CPU time (user and system) of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
