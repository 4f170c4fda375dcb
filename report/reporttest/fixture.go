// Package reporttest holds fixed result rows for the tests of the report
// package and of the commands that use it: every case the pages and
// comparisons must handle, in a few dozen rows.
package reporttest

import (
	"fmt"

	"github.com/gdlperf/gdlperf/results"
)

// Game keys of the fixture.
const (
	TicTacToe   = "BASE/ticTacToe/JRFsaQ"                        // everyone ok; propnet@3 faster than propnet@2
	ConnectFour = "BASE/connectFour/WAIKTw"                      // propnet@3 slower than propnet@2
	Hex         = "BASE/hex/T1MK8g"                              // prover fails every run; propnet@2 fails one, propnet@3 none: fixed
	Script      = `LOCAL/<script>alert("x")</script>&amp;/h4sh'` // metacharacters; propnet@3 broken
	Zero        = "BUILTIN/zero/AAAAAA"                          // propnet makes 0 state changes
	Breakthru   = "BASE/breakthrough/TGxk-g"                     // propnet@2 and @3 the same
	Reversi     = "BASE/reversi/d8UMeA"                          // propnet@3 1% faster: significant, within the noise; one contended run of propnet@3
	SpeedChess  = "BASE/speedChess/bPnisA"                       // one repetition each
	OnlyOne     = "BASE/onlyOne/Zz9_-x"                          // run by solo only, once
)

// Machines of the fixture.
const (
	Machine1 = "m1-fingerprint"
	Machine2 = "m2-fingerprint"
)

// ErrorMessage has HTML metacharacters, as engines' messages may.
const ErrorMessage = `no legal move for <b>xplayer</b> & "oplayer" in (cell 1 1 b) <script>alert(1)</script>`

// Rows returns the fixture: prover@1-aaa (the baseline), propnet@2-bbb and
// propnet@3-ccc (two versions of one engine, measured in one interleaved
// campaign, with their timed CPU time), solo@1 on machine 1, and a few runs
// of prover and propnet@2 on machine 2, which must never be mixed with
// machine 1's. Series of 5 rates get two more runs around their median, so
// that 7 runs a side can be significant after adjusting for 8 games.
func Rows() []results.Row {
	var rows []results.Row
	n := 0
	add := func(machine, engine, version, game string, day int, rep int, status string, states int64, msg string) {
		n++
		r := results.Row{
			RunKey:        fmt.Sprintf("k%04d", n),
			GameKey:       game,
			Engine:        engine,
			EngineVersion: version,
			Repetition:    rep,
			Status:        status,
			ErrorMessage:  msg,
			StartTime:     fmt.Sprintf("2026-01-%02dT10:%02d:%02dZ", day, n/60%60, n%60),
			Mode:          "time",
			TargetSeconds: 2,
			Host:          "host-" + machine[:2],
			Machine:       machine,
			CPUModel:      "Test CPU @ 3.00GHz",
			Governor:      "performance",
			GoVersion:     "go1.26.0",
			Kernel:        "6.1.0-test",
			GOMAXPROCS:    1,
		}
		switch version {
		case "2-bbb":
			r.TimedCPUMs, r.CPUShare = 2000, "1.000"
		case "3-ccc":
			r.TimedCPUMs, r.CPUShare = 1950, "0.975"
		}
		if status == results.StatusOK {
			r.MillisecondsTaken = 2000
			r.StateChanges = states * 2
			r.Rollouts = states / 10
			r.InitMilliseconds = 40 + int64(rep)
			r.PeakRSSKiB = 30000 + int64(rep)*100
		} else {
			r.StderrTail = "panic: <nil> & more"
		}
		rows = append(rows, r)
	}
	ok := func(machine, engine, version, game string, day int, rates ...int64) {
		if len(rates) == 5 {
			d := rates[1] - rates[0]
			rates = append(rates, rates[0]+d*3/2, rates[0]-d*3/2)
		}
		for rep, v := range rates {
			add(machine, engine, version, game, day, rep, results.StatusOK, v, "")
		}
	}
	fail := func(machine, engine, version, game string, day, rep int, status, msg string) {
		add(machine, engine, version, game, day, rep, status, 0, msg)
	}

	// The baseline.
	ok(Machine1, "prover", "1-aaa", TicTacToe, 10, 10000, 10100, 9900, 10050, 9950)
	ok(Machine1, "prover", "1-aaa", ConnectFour, 10, 2000, 2020, 1980, 2010, 1990)
	for rep := range 5 {
		fail(Machine1, "prover", "1-aaa", Hex, 10, rep, results.StatusError, ErrorMessage)
	}
	ok(Machine1, "prover", "1-aaa", Script, 10, 300, 310, 290, 305, 295)
	ok(Machine1, "prover", "1-aaa", Zero, 10, 500, 505, 495, 502, 498)
	ok(Machine1, "prover", "1-aaa", Breakthru, 10, 1000, 1010, 990, 1005, 995)
	ok(Machine1, "prover", "1-aaa", Reversi, 10, 800, 808, 792, 804, 796)
	ok(Machine1, "prover", "1-aaa", SpeedChess, 10, 100)

	// propnet versions 2 and 3, interleaved game by game in one campaign.
	ok(Machine1, "propnet", "2-bbb", TicTacToe, 11, 50000, 50500, 49500, 50200, 49800)
	ok(Machine1, "propnet", "3-ccc", TicTacToe, 11, 60000, 60600, 59400, 60300, 59700)
	ok(Machine1, "propnet", "2-bbb", ConnectFour, 11, 8000, 8100, 7900, 8050, 7950)
	ok(Machine1, "propnet", "3-ccc", ConnectFour, 11, 6000, 6060, 5940, 6030, 5970)
	ok(Machine1, "propnet", "2-bbb", Hex, 11, 3000, 3030, 2970, 3010)
	fail(Machine1, "propnet", "2-bbb", Hex, 11, 4, results.StatusCrash, "signal: segmentation fault")
	ok(Machine1, "propnet", "3-ccc", Hex, 11, 3100, 3130, 3070, 3110, 3090)
	ok(Machine1, "propnet", "2-bbb", Script, 11, 900, 910, 890, 905, 895)
	ok(Machine1, "propnet", "3-ccc", Script, 11, 920, 930, 910)
	fail(Machine1, "propnet", "3-ccc", Script, 11, 3, results.StatusCrash, ErrorMessage)
	fail(Machine1, "propnet", "3-ccc", Script, 11, 4, results.StatusTimeout, "killed after 242s")
	ok(Machine1, "propnet", "2-bbb", Zero, 11, 0, 0, 0, 0, 0)
	ok(Machine1, "propnet", "3-ccc", Zero, 11, 0, 0, 0, 0, 0)
	ok(Machine1, "propnet", "2-bbb", Breakthru, 11, 4000, 4040, 3960, 4020, 3980)
	ok(Machine1, "propnet", "3-ccc", Breakthru, 11, 3990, 4030, 3970, 4010, 4000)
	ok(Machine1, "propnet", "2-bbb", Reversi, 11, 5000, 5010, 4990, 5005, 4995)
	ok(Machine1, "propnet", "3-ccc", Reversi, 11, 5050, 5060, 5040, 5055, 5045)
	// A run that got 0.64 of a CPU: shown, left out of the rate.
	add(Machine1, "propnet", "3-ccc", Reversi, 11, 7, results.StatusOK, 3000, "")
	rows[len(rows)-1].CPUShare, rows[len(rows)-1].Contended, rows[len(rows)-1].TimedCPUMs = "0.640", true, 1280
	ok(Machine1, "propnet", "2-bbb", SpeedChess, 11, 700)
	ok(Machine1, "propnet", "3-ccc", SpeedChess, 11, 900)

	// A game only one engine ran, once.
	ok(Machine1, "solo", "1", OnlyOne, 12, 1234)

	// Another machine: ten times slower. Its figures must stay apart.
	ok(Machine2, "prover", "1-aaa", TicTacToe, 15, 1000)
	ok(Machine2, "propnet", "2-bbb", TicTacToe, 15, 5000)
	return rows
}

// Filter returns the rows of one engine version.
func Filter(rows []results.Row, engine, version string) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if r.Engine == engine && r.EngineVersion == version {
			out = append(out, r)
		}
	}
	return out
}

// Check fixture: the reference, versions that ran and one that was only
// checked.
const (
	// CheckOnly is a game that was checked but never run.
	CheckOnly = "BASE/checkOnly/QQQQQQ"
	// Detail and History of the mismatch of propnet@3-ccc on Script: HTML
	// metacharacters, quotes and ampersands, as engines' moves may hold.
	MismatchDetail  = `goals: reference [100 0], engine [0 100]; legal moves of role 1 extra (play "<script>alert('x')</script>" & <b>more</b>)`
	MismatchHistory = `(play <b>1</b>) noop | noop (say "a&b") | (play 'c') noop`
)

// CheckRows returns correctness rows for the fixture's engines, against
// the reference prover@1-aaa: propnet@2-bbb agrees everywhere it was
// checked but on Hex, where the check failed to run, and never had Zero
// checked; propnet@3-ccc disagrees on TicTacToe (trace) and Script
// (exhaustive, with HTML metacharacters in what differed and in the move
// history) and its Hex error was retried with success; solo@1 is an
// external engine without a trace command (unchecked); turbo@0.9 was
// checked, never run, and disagreed at the initial state.
func CheckRows() []results.CheckRow {
	var rows []results.CheckRow
	n := 0
	add := func(engine, version, game, method, verdict string, day int, r results.CheckRow) results.CheckRow {
		n++
		r.CheckKey = fmt.Sprintf("c%03d", n)
		r.GameKey, r.Engine, r.EngineVersion, r.Method, r.Verdict = game, engine, version, method, verdict
		r.Reference, r.ReferenceVersion = "prover", "1-aaa"
		if r.Seed == 0 {
			r.Seed = 1
		}
		r.StartTime = fmt.Sprintf("2026-01-%02dT09:%02d:%02dZ", day, n/60%60, n%60)
		r.Millis = int64(1000 + n)
		r.Host = "host-m1"
		rows = append(rows, r)
		return r
	}
	ok := func(engine, version, game, method string, day, rollouts, states int) {
		add(engine, version, game, method, results.VerdictOK, day, results.CheckRow{Rollouts: rollouts, States: states, Complete: states > 0})
	}

	// The reference against itself: the methods that do not compare traces.
	ok("prover", "1-aaa", TicTacToe, "exhaustive", 9, 0, 5478)
	ok("prover", "1-aaa", TicTacToe, "metamorphic", 9, 8, 0)
	ok("prover", "1-aaa", ConnectFour, "metamorphic", 9, 8, 0)

	// propnet@2-bbb.
	for _, g := range []string{TicTacToe, ConnectFour, Script, Breakthru, Reversi, SpeedChess, CheckOnly} {
		ok("propnet", "2-bbb", g, "trace", 9, 63, 0)
	}
	ok("propnet", "2-bbb", TicTacToe, "exhaustive", 9, 0, 5478)
	add("propnet", "2-bbb", Hex, "trace", results.VerdictError, 9, results.CheckRow{Detail: "the engine's trace of 1 rollout(s) took longer than 30s"})

	// propnet@3-ccc.
	add("propnet", "3-ccc", TicTacToe, "trace", results.VerdictMismatch, 19, results.CheckRow{
		Seed: 3, Rollouts: 4, Rollout: 2, Step: 4,
		Detail:    "legal moves of role 0 missing (mark 2 2); state extra (cell 2 2 x)",
		History:   "(mark 1 1) noop | noop (mark 1 2) | (mark 3 3) noop | noop (mark 2 1)",
		Reproduce: "gdlperf check --engines propnet --games BASE/ticTacToe/JRFsaQ --methods trace --seed 3 --rollouts 4",
	})
	ok("propnet", "3-ccc", TicTacToe, "metamorphic", 19, 8, 0)
	add("propnet", "3-ccc", Script, "exhaustive", results.VerdictMismatch, 19, results.CheckRow{
		States: 1234, Step: 3, Detail: MismatchDetail, History: MismatchHistory,
		Reproduce: `gdlperf check --engines propnet --games 'LOCAL/<script>alert("x")</script>&amp;/h4sh'\''' --methods exhaustive --seed 1 --rollouts 1`,
	})
	for _, g := range []string{ConnectFour, Zero, Breakthru, Reversi, SpeedChess} {
		ok("propnet", "3-ccc", g, "trace", 19, 127, 0)
	}
	hex := add("propnet", "3-ccc", Hex, "trace", results.VerdictError, 19, results.CheckRow{Detail: "interrupted"})
	hex.Verdict, hex.Detail, hex.Rollouts, hex.StartTime = results.VerdictOK, "", 31, "2026-01-19T23:00:00Z"
	rows = append(rows, hex) // the same check, retried: it counts, the error does not

	// solo@1: an external engine whose manifest names no trace command.
	add("solo", "1", OnlyOne, "trace", results.VerdictUnchecked, 12, results.CheckRow{Detail: "the engine's manifest names no trace command"})
	add("solo", "1", OnlyOne, "exhaustive", results.VerdictUnchecked, 12, results.CheckRow{Detail: "exhaustive checks need a built-in engine"})

	// turbo@0.9: checked, never run.
	add("turbo", "0.9", ConnectFour, "trace", results.VerdictMismatch, 8, results.CheckRow{
		Seed: 1, Rollouts: 1, Detail: "roles: reference [red black], engine [black red]",
		Reproduce: "gdlperf check --engines turbo --games BASE/connectFour/WAIKTw --methods trace --seed 1 --rollouts 1",
	})
	return rows
}

// Built-in games of the dimension fixture (their rules are
// builtingames'), so that the report can replay them.
const (
	BuiltinTicTacToe   = "BUILTIN/tictactoe/UxIcqg"
	BuiltinConnectFour = "BUILTIN/connectfour/LMadEw"
	BuiltinRace        = "BUILTIN/racetotwentyone/EyG4zA"
)

// Transforms and workloads of the dimension fixture.
const (
	UCTBudget = "iterations=200"
	PNSBudget = "nodes=1000 role=first"
)

// DimensionRows returns rows of two engines, prover@1-aaa and
// propnet@2-bbb, on three built-in games on Machine1, 7 runs a cell, in
// the workloads rollouts (untransformed, and under the transforms
// shuffle, seed 1, and optimise), uct (200 iterations) and pns (1000
// nodes). Under shuffle the prover runs at half its speed (not robust),
// under optimise 1.3 times it; the propnet is within 2% under both
// (robust). In uct the propnet is 3 times as fast as the prover, in pns
// 2 times, in rollouts 5 to 6 times. Every engine's run of repetition r
// has seed 100+r, as a campaign gives them.
func DimensionRows() []results.Row {
	var rows []results.Row
	n := 0
	add := func(engine, version, game, workload, budget, transform string, tseed uint64, center float64) {
		for rep, f := range []float64{1, 1.01, 0.99, 1.005, 0.995, 1.015, 0.985} {
			n++
			rows = append(rows, results.Row{
				RunKey: fmt.Sprintf("d%04d", n), GameKey: game, Engine: engine, EngineVersion: version, Repetition: rep,
				Status: results.StatusOK, StartTime: fmt.Sprintf("2026-02-01T10:%02d:%02dZ", n/60%60, n%60),
				Mode: "time", TargetSeconds: 2, MillisecondsTaken: 2000, StateChanges: int64(center * f * 2), Rollouts: int64(center * f / 5),
				Seed: uint64(100 + rep), Host: "host-m1", Machine: Machine1, CPUModel: "Test CPU @ 3.00GHz", Governor: "performance",
				GoVersion: "go1.26.0", Kernel: "6.1.0-test", GOMAXPROCS: 1,
				Workload: workload, WorkloadBudget: budget, Transform: transform, TransformSeed: tseed,
			})
		}
	}
	games := []string{BuiltinTicTacToe, BuiltinConnectFour, BuiltinRace}
	prover := []float64{10000, 2000, 5000}
	propnet := []float64{50000, 12000, 30000}
	near := []float64{1, 1.02, 0.99}
	for i, g := range games {
		add("prover", "1-aaa", g, "", "", "", 0, prover[i])
		add("propnet", "2-bbb", g, "", "", "", 0, propnet[i])
		add("prover", "1-aaa", g, "", "", "shuffle", 1, prover[i]*0.5*near[i])
		add("propnet", "2-bbb", g, "", "", "shuffle", 1, propnet[i]*near[i])
		add("prover", "1-aaa", g, "", "", "optimise", 1, prover[i]*1.3*near[i])
		add("propnet", "2-bbb", g, "", "", "optimise", 1, propnet[i]*near[(i+1)%3])
		add("prover", "1-aaa", g, "uct", UCTBudget, "", 0, prover[i]/2)
		add("propnet", "2-bbb", g, "uct", UCTBudget, "", 0, prover[i]/2*3*near[i])
		add("prover", "1-aaa", g, "pns", PNSBudget, "", 0, prover[i]/4)
		add("propnet", "2-bbb", g, "pns", PNSBudget, "", 0, prover[i]/4*2*near[i])
	}
	return rows
}
