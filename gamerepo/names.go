package gamerepo

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Size limits on what a repository may send. A repository is untrusted: a
// response over its limit is refused, never written.
const (
	MaxRulesheetBytes = 16 << 20 // one rulesheet
	MaxListBytes      = 64 << 20 // the key list or the metadata bundle
	MaxMetadataBytes  = 1 << 20  // one METADATA
	MaxKeyLen         = 128      // a game key's name part, and a file name
	MaxVersion        = 1000     // the highest version number accepted
)

// Reserved file names of a cached version folder.
const (
	metadataFile = "METADATA"
	markerFile   = "sha256"
)

// CheckKey reports whether key can be a repository's game key: 1 to
// MaxKeyLen characters from letters, digits, '_', '-', '.', '+' and '~', not
// starting with '.', so no path separator, no "..", no NUL. Every key of
// games.ggp.org fits.
func CheckKey(key string) error {
	if err := checkName(key); err != nil {
		return fmt.Errorf("refused game key %q: %w", key, err)
	}
	return nil
}

// checkFileName checks a file name taken from a METADATA.
func checkFileName(name string) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("refused file name %q: %w", name, err)
	}
	if name == metadataFile || name == markerFile {
		return fmt.Errorf("refused file name %q: the name is reserved", name)
	}
	return nil
}

func checkName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty")
	case len(s) > MaxKeyLen:
		return fmt.Errorf("longer than %d bytes", MaxKeyLen)
	case s[0] == '.':
		return fmt.Errorf("starts with '.'")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-.+~", c) >= 0 {
			continue
		}
		if c == '/' || c == '\\' {
			return fmt.Errorf("has a path separator")
		}
		return fmt.Errorf("has the character %q", c)
	}
	return nil
}

// checkLocalName checks the name of a LOCAL game (a file name without
// .kif): anything printable without ';' (the blacklist's separator) or '/'.
func checkLocalName(name string) error {
	if name == "" || !utf8.ValidString(name) || len(name) > 255 {
		return fmt.Errorf("refused game name %q: empty, too long or not UTF-8", name)
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f || r == ';' || r == '/' || r == '\\' {
			return fmt.Errorf("refused game name %q: it has the character %q; rename the file", name, r)
		}
	}
	return nil
}

// RepoName returns the canonical (lower-case) name of a repository that
// can be synced, as used in URLs and in the cache: base, dresden, stanford,
// or any other name of 1 to 32 letters, digits, '_' and '-'. LOCAL and
// BUILTIN are not synced.
func RepoName(repo string) (string, error) {
	r := strings.ToLower(strings.TrimSpace(repo))
	if r == "" || len(r) > 32 {
		return "", fmt.Errorf("bad repository name %q", repo)
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return "", fmt.Errorf("bad repository name %q: only letters, digits, '_' and '-'", repo)
		}
	}
	if r == "local" || r == "builtin" {
		return "", fmt.Errorf("repository %s is not synced: LOCAL games are files you name, BUILTIN games are in the binary", strings.ToUpper(r))
	}
	return r, nil
}

// DefaultRepos are the repositories of games.ggp.org.
var DefaultRepos = []string{"base", "dresden", "stanford"}

// DefaultURL is the server of the ggp.org repositories; repository R is at
// DefaultURL + "/" + R.
const DefaultURL = "http://games.ggp.org"
