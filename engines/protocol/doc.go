// Package protocol is the engine process protocol of ARCHITECTURE.md §3
// and §4, in one place for every engine process: the result file (its keys,
// Result, Parse and the atomic write), the figures an engine measures about
// itself (PeakRSSKiB, CPUTime), the game errors (ErrorKind, GameError), the
// trace's lines and writer (Trace, WriteTrace), and the rollout loop's
// driver with its clock policy (Loop, Clock) and the sorted move choice of
// traces and fixed-work runs (Chooser).
//
// It uses the standard library only: the compiled prover copies it, as it
// copies its runtime, into every program it generates, so that the program
// and the built-in engines speak the protocol with the same code. Only the
// per-step loop of each engine stays its own (rollout.Run's over
// engines.Machine, the compiled runtime's over its native states).
package protocol

import "embed"

// Source is this package's code. Every engine process speaks the protocol
// and times its rollouts with Loop, so engine versions hash it
// (engines.SourceVersion), and the compiled prover copies it into each
// program's build.
//
//go:embed *.go
var Source embed.FS
