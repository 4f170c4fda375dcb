package propnet

// drainFast is drainFastGo in assembly (drain_amd64.s), with the
// machine's arrays and the stack pointer in registers: the Go compiler
// spilled and reloaded values live across the successor loop at every
// successor.
//
//go:noescape
func drainFast(r *drainRegs) int32
