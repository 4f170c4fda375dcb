package gdl

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckCorpus reads, cleans, validates and analyses large mirrored
// games. Reading the file is setup, outside the timed loop.
func BenchmarkCheckCorpus(b *testing.B) {
	for _, game := range []string{
		"base/speedChess/speedChess.kif",
		"base/chess/chess.kif",
		"dresden/ruledepthquadratic/rulesheet.kif", // the largest mirrored file
	} {
		b.Run(filepath.Base(filepath.Dir(game)), func(b *testing.B) {
			path := shared(b, filepath.Join(mirrorDir, game))
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				g, err := Check(path, src, DefaultLimits)
				if err != nil {
					b.Fatal(err)
				}
				if len(g.Findings.Errors()) > 0 {
					b.Fatalf("invalid game: %s", describe(g.Findings.Errors()))
				}
			}
		})
	}
}
