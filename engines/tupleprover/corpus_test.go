package tupleprover_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/conform"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
	"github.com/gdlperf/gdlperf/engines/tupleprover"
)

// trace writes n traced rollouts of m, turning a panic into an error.
func trace(m engines.Machine, seed uint64, n int) (buf *bytes.Buffer, err error) {
	buf = &bytes.Buffer{}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	err = rollout.Trace(buf, m, "", "", seed, n)
	return buf, err
}

func isLimit(err error) bool {
	var ge *engines.GameError
	return errors.As(err, &ge) && ge.Kind == engines.ResourceLimit
}

// dropLastLine removes the reference's last line (its resource-limit error)
// and cuts the other trace to the same number of lines, so that the parts
// both engines played are compared.
func cutTo(ref, got *bytes.Buffer) {
	lines := bytes.SplitAfter(ref.Bytes(), []byte("\n"))
	n := len(lines) - 2 // the last element is empty; drop the error line
	if n < 1 {
		n = 1
	}
	ref.Truncate(len(bytes.Join(lines[:n], nil)))
	gl := bytes.SplitAfter(got.Bytes(), []byte("\n"))
	if len(gl) > n {
		got.Truncate(len(bytes.Join(gl[:n], nil)))
	}
}

// TestCorpusTraces compares the tuple prover's traces with the prover's on
// the valid mirrored rulesheets: every tenth one with one rollout by default,
// every 25th in short mode (make test), all of them with GDLPERF_CORPUS=1 (go test -run TestCorpusTraces; set
// GDLPERF_CORPUS_ROLLOUTS to change the rollouts, 2 by default). Each engine
// has a budget of 30 s per game; where the prover runs out of it, the part
// it played is compared. Zero mismatches is the bar; games the tuple prover
// refuses or cannot finish are listed with their reasons and must stay
// under 1%. GDLPERF_CORPUS_MATCH=text runs the games whose path has text.
func TestCorpusTraces(t *testing.T) {
	games := enginetest.MirroredGames(t)
	every, rollouts, budget := 10, 1, 30*time.Second
	switch {
	case os.Getenv("GDLPERF_CORPUS") != "":
		every, rollouts = 1, 2
		if n, err := strconv.Atoi(os.Getenv("GDLPERF_CORPUS_ROLLOUTS")); err == nil && n > 0 {
			rollouts = n
		}
	case testing.Short():
		every = 25
	}
	var valid, mismatches, refused, refLimited int
	match := os.Getenv("GDLPERF_CORPUS_MATCH")
	for i, cg := range games {
		if match != "" {
			if !strings.Contains(cg.Path, match) {
				continue
			}
		} else if i%every != 0 {
			continue
		}
		src, err := os.ReadFile(cg.Path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gdl.Load(cg.Path, src)
		if err != nil {
			continue // invalid games are the validator's business
		}
		valid++
		start := time.Now()
		ref := prover.NewMachine(g)
		ref.Prover().SetDeadline(time.Now().Add(budget))
		rb, rerr := trace(ref, 1, rollouts)
		m, err := tupleprover.New(g, tupleprover.WithDeadline(time.Now().Add(budget)))
		if err != nil {
			refused++
			t.Logf("REFUSED %s (%s): %v", cg.Name(), cg.Path, err)
			continue
		}
		eb, eerr := trace(m, 1, rollouts)
		if eerr != nil && strings.HasPrefix(eerr.Error(), "panic") {
			mismatches++
			t.Errorf("PANIC %s (%s): %v", cg.Name(), cg.Path, eerr)
			continue
		}
		if isLimit(eerr) && !isLimit(rerr) {
			refused++
			t.Logf("LIMIT %s (%s): %v", cg.Name(), cg.Path, eerr)
			continue
		}
		note := ""
		if isLimit(rerr) {
			refLimited++
			note = " (the prover ran out of its budget; compared the part it played)"
			cutTo(rb, eb)
		}
		mis, err := conform.CompareTraces(rb, eb)
		if err != nil {
			t.Errorf("%s: %v", cg.Name(), err)
			continue
		}
		if mis != nil {
			mismatches++
			t.Errorf("MISMATCH %s (%s): %v\nmoves:\n%s", cg.Name(), cg.Path, mis, mis.HistoryText())
			continue
		}
		t.Logf("ok %s in %s%s", cg.Name(), time.Since(start).Round(time.Millisecond), note)
	}
	t.Logf("%d valid games: %d mismatches, %d refused or out of budget (%.2f%%), %d where the prover ran out of budget",
		valid, mismatches, refused, 100*float64(refused)/float64(max(valid, 1)), refLimited)
	if float64(refused) >= 0.01*float64(valid) && valid >= 100 {
		t.Errorf("%d of %d games refused; the bar is under 1%%", refused, valid)
	}
}
