package gdl

import "embed"

// Source is this package's code; engine versions hash it (see
// engines.SourceVersion), since every engine's answers depend on it.
//
//go:embed *.go
var Source embed.FS
