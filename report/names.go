package report

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// SafeName derives a file name (without extension) from any key: the key's
// letters, digits, '-' and '_' (everything else becomes '_'), cut to 48
// bytes, then '-' and 10 hex digits of the key's SHA-256. The hash keeps
// names distinct when keys differ only in the replaced characters or in
// case (for case-insensitive file systems); no name has a '/', a '.' or a
// leading '-', so none can leave the folder or hide.
func SafeName(key string) string {
	var b strings.Builder
	for i := 0; i < len(key) && b.Len() < 48; i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			b.WriteByte(c)
		case c == '-' && b.Len() > 0:
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	h := sha256.Sum256([]byte(key))
	if b.Len() == 0 {
		b.WriteByte('_')
	}
	return b.String() + "-" + hex.EncodeToString(h[:5])
}
