package workload

import "embed"

// Source is this package's code: the compiled prover copies it into each
// program it builds, which runs the workloads itself, and hashes it into
// its version.
//
//go:embed *.go
var Source embed.FS
