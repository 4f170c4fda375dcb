package protocol

import (
	"strings"
	"unicode/utf8"
)

// Text that an engine or a game server wrote (versions, error messages,
// game and role names) is data, not output: printed as it is, an ESC [
// sequence could clear the terminal or rewrite what it shows, a carriage
// return overwrite a line, and a bidi override (the "Trojan Source" attack,
// Boucher and Anderson 2021) show text in another order than it is. SafeText
// and SafeMarkdown escape what could do that and keep every other character,
// printable Unicode (é, 日本) included. Backslashes are kept, so the escapes
// are for a reader, not a way back to the original bytes.

// Unsafe reports whether SafeText escapes r: the C0 controls, DEL and the C1
// controls (U+0000–U+001F, U+007F–U+009F), the line and paragraph
// separators U+2028 and U+2029, the bidi embeddings, overrides and isolates
// (U+202A–U+202E, U+2066–U+2069), the bidi marks U+200E, U+200F and U+061C,
// and utf8.RuneError, which a decoder returns for invalid UTF-8.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return r == utf8.RuneError
}

// SafeText returns s made safe to print on a terminal, on one line: a tab,
// a line feed and a carriage return become \t, \n and \r, another control
// below U+0080 and every byte that is not valid UTF-8 become \xHH, and the
// other runes that Unsafe names become \uHHHH. A U+FFFD written as valid
// UTF-8 is kept.
func SafeText(s string) string {
	if isSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(escape(s[i:i+n], r, n))
		i += n
	}
	return b.String()
}

// isSafe reports whether SafeText keeps s as it is.
func isSafe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r) && !(r == utf8.RuneError && n == 3) {
			return false
		}
		i += n
	}
	return true
}

// escape is what SafeText writes for the rune r, encoded as the n bytes of
// raw.
func escape(raw string, r rune, n int) string {
	const hex = "0123456789abcdef"
	switch {
	case r == utf8.RuneError && n == 1:
		return `\x` + string(hex[raw[0]>>4]) + string(hex[raw[0]&0xf])
	case r == utf8.RuneError, !Unsafe(r):
		return raw
	case r == '\t':
		return `\t`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r < 0x80:
		return `\x` + string(hex[r>>4]) + string(hex[r&0xf])
	}
	return `\u` + string(hex[r>>12&0xf]) + string(hex[r>>8&0xf]) + string(hex[r>>4&0xf]) + string(hex[r&0xf])
}

// SafeMarkdown returns s as the text of one cell of a Markdown table
// (CommonMark with GitHub's tables): a line feed, a carriage return or a
// tab becomes a space, the other runes that Unsafe names are escaped as by
// SafeText, the characters Markdown would read as markup or as the end of
// the cell (\ | ` * _ [ ] # ~) get a backslash, and < > & become HTML
// entities, so that no tag, link, code span or entity (&#x202e;) comes
// through.
func SafeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		case '\\', '|', '`', '*', '_', '[', ']', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteString(escape(s[i:i+n], r, n))
		}
		i += n
	}
	return b.String()
}

// OneLine puts s on one line: every run of white space (line ends
// included) becomes one space, with none at either end, and the result is
// cut to at most n bytes (Shorten); n <= 0 keeps its length. It is the
// form of a message from a game, an engine or a file that lands in one CSV
// field, one blacklist line or one table cell.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 0 {
		return s
	}
	return Shorten(s, n)
}

// Shorten cuts s to at most n bytes, "..." included, at a rune boundary,
// so that a cut never leaves half a UTF-8 sequence (nor, on SafeText's
// output, half an escape such as \u202e). An n below 4 is taken as 4.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	limit := max(n, 4) - 3
	cut := 0
	for cut < len(s) {
		_, w := utf8.DecodeRuneInString(s[cut:])
		if cut+w > limit {
			break
		}
		cut += w
	}
	if j := strings.LastIndexByte(s[:cut], '\\'); j >= 0 && j+1 < len(s) && j+escapeLen(s[j+1]) > cut {
		cut = j
	}
	return s[:cut] + "..."
}

// escapeLen is the length of SafeText's escape that starts with a
// backslash and c, or 0.
func escapeLen(c byte) int {
	switch c {
	case 'x':
		return 4
	case 'u':
		return 6
	case 't', 'n', 'r':
		return 2
	}
	return 0
}
