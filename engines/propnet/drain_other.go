//go:build !amd64

package propnet

// drainFast is drainFastGo where there is no assembly version.
func drainFast(r *drainRegs) int32 { return drainFastGo(r) }
