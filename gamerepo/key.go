package gamerepo

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// Repository names as they appear in game keys.
const (
	RepoBase     = "BASE"
	RepoDresden  = "DRESDEN"
	RepoStanford = "STANFORD"
	RepoLocal    = "LOCAL"
	RepoBuiltin  = "BUILTIN"
)

// GameKey returns the game key REPO/key/hash under which gdl-perf recorded
// a rulesheet. The repository name is upper-cased (base becomes BASE). The
// hash is that of the served form of rules (see ServedForm), so raw file
// bytes with CRLF line ends or without a final newline give the same key as
// the text games.ggp.org served.
func GameKey(repo, key string, rules []byte) string {
	return strings.ToUpper(repo) + "/" + key + "/" + RulesHash(rules)
}

// RulesHash returns the hash part of a game key: Java's String.hashCode()
// of GGP-Base's Game.preprocessRulesheet applied to the served form of
// rules, as 4 big-endian bytes in URL-safe base64 without padding.
func RulesHash(rules []byte) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(javaHashCode(preprocessRulesheet(string(ServedForm(rules))))))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ServedForm returns rules as games.ggp.org served them: the server read
// the file line by line (java.io.BufferedReader.readLine, which ends a
// line at LF, CR or CRLF) and wrote each line followed by LF. So CR and
// CRLF become LF and a final LF is added when missing. An empty file stays
// empty. ServedForm is idempotent; it returns rules itself when they are
// already in served form.
func ServedForm(rules []byte) []byte {
	if len(rules) == 0 || (bytes.IndexByte(rules, '\r') < 0 && rules[len(rules)-1] == '\n') {
		return rules
	}
	out := make([]byte, 0, len(rules)+1)
	for i := 0; i < len(rules); i++ {
		c := rules[i]
		if c == '\r' {
			if i+1 < len(rules) && rules[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		out = append(out, c)
	}
	if out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// preprocessRulesheet is GGP-Base's Game.preprocessRulesheet: the text is
// split with String.split("[\n\r]") (so trailing empty lines are dropped),
// each line is cut at its first ';' and followed by one space, and the
// result is wrapped as "( " + text + " )".
func preprocessRulesheet(text string) string {
	lines := splitLines(text)
	var b strings.Builder
	b.Grow(len(text) + 4)
	b.WriteString("( ")
	for _, line := range lines {
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte(' ')
	}
	b.WriteString(" )")
	return b.String()
}

// splitLines is Java's text.split("[\n\r]"): every CR and every LF ends a
// piece, trailing empty pieces are removed, and a text without any line
// end is one piece (even when empty).
func splitLines(text string) []string {
	if !strings.ContainsAny(text, "\r\n") {
		return []string{text}
	}
	var lines []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' || text[i] == '\r' {
			lines = append(lines, text[start:i])
			start = i + 1
		}
	}
	lines = append(lines, text[start:])
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// javaHashCode is Java's String.hashCode: h = 31*h + c over the UTF-16 code
// units of s (read as UTF-8), in int32 arithmetic. Each byte that is not
// valid UTF-8 counts as one U+FFFD; Java's decoder may fold some malformed
// sequences differently, but no mirrored rulesheet has any (one is
// non-ASCII, valid UTF-8).
func javaHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r < 0x10000 {
			h = 31*h + int32(r)
			continue
		}
		hi, lo := utf16.EncodeRune(r)
		h = 31*h + int32(hi)
		h = 31*h + int32(lo)
	}
	return h
}
