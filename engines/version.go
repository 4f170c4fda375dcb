package engines

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// Source is this package's code, hashed into every engine's version.
//
//go:embed *.go
var Source embed.FS

// SourceVersion returns base+"-"+a hash of the given source trees and of
// package protocol (every engine process speaks it and times its rollouts
// with its loop), so that an engine's version changes whenever its code (or
// the code it stands on) does, whether or not the binary was built from a
// clean checkout.
func SourceVersion(base string, trees ...embed.FS) string {
	h := sha256.New()
	for _, t := range append([]embed.FS{protocol.Source}, trees...) {
		var names []string
		fs.WalkDir(t, ".", func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(path, "_test.go") {
				names = append(names, path)
			}
			return nil
		})
		sort.Strings(names)
		for _, n := range names {
			b, _ := fs.ReadFile(t, n)
			h.Write([]byte(n))
			h.Write([]byte{0})
			h.Write(b)
			h.Write([]byte{0})
		}
	}
	return base + "-" + hex.EncodeToString(h.Sum(nil))[:10]
}
