package compiled_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

func isLimit(err error) bool {
	var ge *engines.GameError
	return errors.As(err, &ge) && ge.Kind == engines.ResourceLimit
}

// referenceTrace writes the prover's trace within a budget, turning a panic
// into an error.
func referenceTrace(g *gdl.Game, seed uint64, n int, budget time.Duration) (buf *bytes.Buffer, err error) {
	buf = &bytes.Buffer{}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	m := prover.NewMachine(g)
	m.Prover().SetDeadline(time.Now().Add(budget))
	err = rollout.Trace(buf, m, "prover", "", seed, n)
	return buf, err
}

// cutTo removes the reference's last line (its resource-limit error) and
// cuts the other trace to the same number of lines.
func cutTo(ref, got *bytes.Buffer) {
	lines := bytes.SplitAfter(ref.Bytes(), []byte("\n"))
	n := max(len(lines)-2, 1)
	ref.Truncate(len(bytes.Join(lines[:n], nil)))
	gl := bytes.SplitAfter(got.Bytes(), []byte("\n"))
	if len(gl) > n {
		got.Truncate(len(bytes.Join(gl[:n], nil)))
	}
}

// TestCorpusTraces compares the compiled programs' traces with the
// prover's on the valid mirrored rulesheets: every tenth one with one
// rollout when GDLPERF_CORPUS_SAMPLE=1, all of them with GDLPERF_CORPUS=1
// (GDLPERF_CORPUS_ROLLOUTS rollouts, 2 by default); skipped otherwise, as
// it builds a program per game. Each engine has 30 s per game. Zero
// mismatches is the bar; games the engine cannot build or run are listed
// with their reasons. GDLPERF_CORPUS_MATCH=text runs the games whose path
// has text. GDLPERF_CORPUS_DESIGN=bottom-up|magic forces a design (the
// games whose program has no such design are counted apart).
func TestCorpusTraces(t *testing.T) {
	every, rollouts, budget := 10, 1, 30*time.Second
	switch {
	case os.Getenv("GDLPERF_CORPUS") != "":
		every, rollouts = 1, 2
		if n, err := strconv.Atoi(os.Getenv("GDLPERF_CORPUS_ROLLOUTS")); err == nil && n > 0 {
			rollouts = n
		}
	case os.Getenv("GDLPERF_CORPUS_SAMPLE") != "" || os.Getenv("GDLPERF_CORPUS_MATCH") != "":
	default:
		t.Skip("set GDLPERF_CORPUS=1 (or GDLPERF_CORPUS_SAMPLE=1) to build and trace the mirrored games")
	}
	games := enginetest.MirroredGames(t)
	match := os.Getenv("GDLPERF_CORPUS_MATCH")
	var valid, mismatches, refused, refLimited, noDesign int
	var setup []time.Duration
	for i, mg := range games {
		if match != "" {
			if !strings.Contains(mg.Path, match) {
				continue
			}
		} else if i%every != 0 {
			continue
		}
		src, err := os.ReadFile(mg.Path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gdl.Load(mg.Path, src)
		if err != nil {
			continue // invalid games are the validator's business
		}
		valid++
		start := time.Now()
		rb, rerr := referenceTrace(g, 1, rollouts, budget)
		bstart := time.Now()
		prog, err := compiled.Native(g, src)
		if err != nil {
			refused++
			t.Logf("REFUSED %s (%s): %v", mg.Name(), mg.Path, err)
			continue
		}
		setup = append(setup, time.Since(bstart))
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		// the design its build kept, as the harness's runs (prog.Args)
		args := append(slices.Clip(prog.Args), "-trace", "-", "-seed", "1", "-rollouts", strconv.Itoa(rollouts))
		if d := os.Getenv("GDLPERF_CORPUS_DESIGN"); d != "" {
			args = append(args, "-design", d)
		}
		cmd := exec.CommandContext(ctx, prog.Path, append(args, mg.Path)...)
		var eb, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &eb, &stderr
		eerr := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut && !isLimit(rerr) {
			refused++
			t.Logf("LIMIT %s (%s): the program ran over %s", mg.Name(), mg.Path, budget)
			continue
		}
		if strings.Contains(stderr.String(), "has no design") {
			noDesign++
			t.Logf("NO DESIGN %s (%s): %s", mg.Name(), mg.Path, strings.TrimSpace(stderr.String()))
			continue
		}
		if eerr != nil && !strings.Contains(stderr.String(), "error:") && !timedOut {
			mismatches++
			t.Errorf("CRASH %s (%s): %v: %s", mg.Name(), mg.Path, eerr, stderr.String())
			continue
		}
		if strings.Contains(stderr.String(), string(engines.ResourceLimit)) && !isLimit(rerr) {
			refused++
			t.Logf("LIMIT %s (%s): %s", mg.Name(), mg.Path, strings.TrimSpace(stderr.String()))
			continue
		}
		note := ""
		if isLimit(rerr) {
			refLimited++
			note = " (the prover ran out of its budget; compared the part it played)"
			cutTo(rb, &eb)
		}
		mis, err := conform.CompareTraces(rb, &eb)
		if err != nil {
			t.Errorf("%s: %v", mg.Name(), err)
			continue
		}
		if mis != nil {
			mismatches++
			t.Errorf("MISMATCH %s (%s): %v\nmoves:\n%s", mg.Name(), mg.Path, mis, mis.HistoryText())
			continue
		}
		t.Logf("ok %s in %s (setup %v)%s", mg.Name(), time.Since(start).Round(time.Millisecond), prog.Setup, note)
	}
	t.Logf("%d valid games: %d mismatches, %d refused or out of budget (%.2f%%), %d where the prover ran out of budget, %d without the design asked for",
		valid, mismatches, refused, 100*float64(refused)/float64(max(valid, 1)), refLimited, noDesign)
	if len(setup) > 0 {
		t.Logf("median setup (generation and build, or a cache hit) %s", median(setup).Round(time.Millisecond))
	}
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
