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
	Reversi     = "BASE/reversi/d8UMeA"                          // propnet@3 1% faster: significant, within the noise
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
// propnet@3-ccc (two versions of one engine), solo@1 on machine 1, and a
// few runs of prover and propnet@2 on machine 2, which must never be mixed
// with machine 1's.
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

	// propnet version 2.
	ok(Machine1, "propnet", "2-bbb", TicTacToe, 11, 50000, 50500, 49500, 50200, 49800)
	ok(Machine1, "propnet", "2-bbb", ConnectFour, 11, 8000, 8100, 7900, 8050, 7950)
	ok(Machine1, "propnet", "2-bbb", Hex, 11, 3000, 3030, 2970, 3010)
	fail(Machine1, "propnet", "2-bbb", Hex, 11, 4, results.StatusCrash, "signal: segmentation fault")
	ok(Machine1, "propnet", "2-bbb", Script, 11, 900, 910, 890, 905, 895)
	ok(Machine1, "propnet", "2-bbb", Zero, 11, 0, 0, 0, 0, 0)
	ok(Machine1, "propnet", "2-bbb", Breakthru, 11, 4000, 4040, 3960, 4020, 3980)
	ok(Machine1, "propnet", "2-bbb", Reversi, 11, 5000, 5010, 4990, 5005, 4995)
	ok(Machine1, "propnet", "2-bbb", SpeedChess, 11, 700)

	// propnet version 3.
	ok(Machine1, "propnet", "3-ccc", TicTacToe, 20, 60000, 60600, 59400, 60300, 59700)
	ok(Machine1, "propnet", "3-ccc", ConnectFour, 20, 6000, 6060, 5940, 6030, 5970)
	ok(Machine1, "propnet", "3-ccc", Hex, 20, 3100, 3130, 3070, 3110, 3090)
	ok(Machine1, "propnet", "3-ccc", Script, 20, 920, 930, 910)
	fail(Machine1, "propnet", "3-ccc", Script, 20, 3, results.StatusCrash, ErrorMessage)
	fail(Machine1, "propnet", "3-ccc", Script, 20, 4, results.StatusTimeout, "killed after 242s")
	ok(Machine1, "propnet", "3-ccc", Zero, 20, 0, 0, 0, 0, 0)
	ok(Machine1, "propnet", "3-ccc", Breakthru, 20, 3990, 4030, 3970, 4010, 4000)
	ok(Machine1, "propnet", "3-ccc", Reversi, 20, 5050, 5060, 5040, 5055, 5045)
	ok(Machine1, "propnet", "3-ccc", SpeedChess, 20, 900)

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
