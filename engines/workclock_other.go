//go:build !linux

package engines

import "time"

// threadCPU reports that this system has no thread clock here.
func threadCPU() (time.Duration, bool) { return 0, false }
