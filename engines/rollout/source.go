package rollout

import "embed"

// Source is this package's code: the rollout loop is part of what every
// built-in engine process measures, so engine versions hash it too (with
// package protocol's, which engines.SourceVersion adds).
//
//go:embed *.go
var Source embed.FS
