package rollout

import "embed"

// Source is this package's code: the rollout loop is part of what every
// engine process measures, so engine versions hash it too.
//
//go:embed *.go
var Source embed.FS
