package harness

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gdlperf/gdlperf/results"
)

// CompatSeconds is the length of the compatibility check.
const CompatSeconds = 3

// CompatGame is the built-in game of the compatibility check.
const CompatGame = "tictactoe"

// CompatResult is the outcome of the compatibility check of one engine.
type CompatResult struct {
	Engine  *Engine
	Outcome Outcome
	OK      bool
	Reason  string // why the engine is refused, when !OK
}

// CheckCompat runs e for CompatSeconds on the built-in tic-tac-toe, as a
// benchmark run would (same protocol, same child options but the time
// limit, which is its own or o.Limit when that is shorter), in a fresh
// private folder (as a campaign's run). The engine is compatible when the
// run's status is ok and it counted at least one state change.
func CheckCompat(ctx context.Context, e *Engine, o ChildOptions) CompatResult {
	res := CompatResult{Engine: e}
	g, err := BuiltinGame(CompatGame)
	if err != nil {
		res.Reason = "the built-in game " + CompatGame + " is missing"
		return res
	}
	rd, err := newRunDir("", "gdlperf-compat-", CompatGame+".kif", g.Rules)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer rd.remove()
	game, result := rd.game, rd.result
	// The campaign's own limit, when shorter, bounds the check too: a
	// hanging engine is refused as soon as one of its runs would be killed.
	limit := Limit(Options{Seconds: CompatSeconds})
	if o.Limit > 0 && o.Limit < limit {
		limit = o.Limit
	}
	o.Limit = limit
	o.TargetSeconds = CompatSeconds
	args := []string{game, result, strconv.Itoa(CompatSeconds)}
	if e.Builtin {
		args = append([]string{"--seed", "1"}, args...)
	}
	out := RunChild(ctx, e, args, result, o)
	if !out.Interrupted {
		rd.checkGame(&out)
	}
	res.Outcome = out
	switch {
	case out.Interrupted:
		res.Reason = "interrupted"
	case out.Status != results.StatusOK:
		res.Reason = fmt.Sprintf("%s: %s", out.Status, out.Error)
		if out.Status == results.StatusTimeout && limit < CompatSeconds*time.Second+time.Second {
			res.Reason += fmt.Sprintf(" (the time limit of the runs is shorter than the check; one above %d s lets it finish)", CompatSeconds)
		}
		if out.StderrTail != "" {
			res.Reason += " (stderr: " + out.StderrTail + ")"
		}
	case out.StateChanges == 0:
		res.Reason = "it reported no state changes in " + (CompatSeconds * time.Second).String()
	default:
		res.OK = true
	}
	if !res.OK {
		res.Reason = fmt.Sprintf("the compatibility check (%d s on %s: %s GAME_FILE RESULT_FILE %d) failed: %s",
			CompatSeconds, g.Key, e.Command[0], CompatSeconds, res.Reason)
	}
	return res
}
