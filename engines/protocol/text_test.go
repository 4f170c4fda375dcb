package protocol

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestSafeText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "plain ascii", in: "prover 1.0 (rep 2)", want: "prover 1.0 (rep 2)"},
		{name: "printable unicode kept", in: "café 日本 ✓ U+FFFD �", want: "café 日本 ✓ U+FFFD �"},
		{name: "backslash kept", in: `C:\engines\x`, want: `C:\engines\x`},
		{name: "clear screen", in: "\x1b[2J\x1b[Hgone", want: `\x1b[2J\x1b[Hgone`},
		{name: "colour", in: "\x1b[31mred\x1b[0m", want: `\x1b[31mred\x1b[0m`},
		{name: "osc title", in: "\x1b]0;owned\x07", want: `\x1b]0;owned\x07`},
		{name: "line ends and tab", in: "a\nb\r\nc\td", want: `a\nb\r\nc\td`},
		{name: "carriage return overwrite", in: "ok\rFAIL", want: `ok\rFAIL`},
		{name: "nul and del", in: "a\x00b\x7fc", want: `a\x00b\x7fc`},
		{name: "c1 controls", in: "a\u0085b\u009bc", want: `a\u0085b\u009bc`},
		{name: "bidi override", in: "abc\u202edcb", want: `abc\u202edcb`},
		{name: "bidi embeddings and isolates", in: "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", want: `\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
		{name: "bidi marks", in: "\u200e\u200f\u061c", want: `\u200e\u200f\u061c`},
		{name: "line separators", in: "a\u2028b\u2029c", want: `a\u2028b\u2029c`},
		{name: "invalid utf-8", in: "a\xffb\xc3", want: `a\xffb\xc3`},
		{name: "encoded surrogate", in: "\xed\xa0\x80", want: `\xed\xa0\x80`},
		{name: "empty", in: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SafeText(tt.in)
			assert.Equal(t, tt.want, got)
			assertTerminalSafe(t, got)
			assert.Equal(t, got, SafeText(got), "escaping is idempotent")
		})
	}
}

// assertTerminalSafe checks that s is valid UTF-8 on one line with no rune
// that Unsafe names (U+FFFD as text is fine).
func assertTerminalSafe(t *testing.T, s string) {
	t.Helper()
	assert.True(t, utf8.ValidString(s), "invalid UTF-8 in %q", s)
	for _, r := range s {
		if r != utf8.RuneError {
			assert.False(t, Unsafe(r), "unsafe rune %U in %q", r, s)
		}
	}
}

func TestSafeMarkdown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "plain", in: "BASE/ticTacToe/JRFsaQ", want: "BASE/ticTacToe/JRFsaQ"},
		{name: "unicode kept", in: "café 日本", want: "café 日本"},
		{name: "cell end", in: "a|b", want: `a\|b`},
		{name: "code span", in: "`rm -rf`", want: "\\`rm -rf\\`"},
		{name: "html tag", in: "<script>x</script>", want: "&lt;script&gt;x&lt;/script&gt;"},
		{name: "entity", in: "&#x202e;", want: `&amp;\#x202e;`},
		{name: "link", in: "[click](http://x)", want: `\[click\](http://x)`},
		{name: "emphasis and heading", in: "*a* _b_ # ~c~", want: `\*a\* \_b\_ \# \~c\~`},
		{name: "backslash", in: `a\|b`, want: `a\\\|b`},
		{name: "newlines", in: "line 1\nline 2\r\nline 3\rx\ty", want: "line 1 line 2  line 3 x y"},
		{name: "escape sequence", in: "\x1b[2Jx", want: `\x1b\[2Jx`},
		{name: "bidi", in: "a\u202eb", want: `a\u202eb`},
		{name: "invalid utf-8", in: "a\xffb", want: `a\xffb`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SafeMarkdown(tt.in)
			assert.Equal(t, tt.want, got)
			assertTerminalSafe(t, got)
			assert.NotContains(t, got, "\n")
		})
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
	}{
		{name: "short enough", in: "abc", n: 3, want: "abc"},
		{name: "cut", in: "abcdefgh", n: 6, want: "abc..."},
		{name: "not inside a rune", in: "aé日本", n: 8, want: "aé..."},
		{name: "not inside an escape", in: `ab\u202ecd`, n: 8, want: "ab..."},
		{name: "not inside a byte escape", in: `abc\x1b[2J`, n: 8, want: "abc..."},
		{name: "after a whole escape", in: `a\x1bcdefgh`, n: 8, want: `a\x1b...`},
		{name: "a plain backslash", in: `ab\cdefgh`, n: 7, want: `ab\c...`},
		{name: "tiny limit", in: "abcdef", n: 1, want: "a..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Shorten(tt.in, tt.n)
			assert.Equal(t, tt.want, got)
			assert.True(t, utf8.ValidString(got))
			if len(tt.in) > tt.n {
				assert.True(t, strings.HasSuffix(got, "..."))
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
	}{
		{name: "line ends and tabs", in: " a\nb\r\n\tc  d ", want: "a b c d"},
		{name: "no limit", in: strings.Repeat("x ", 500), want: strings.TrimSpace(strings.Repeat("x ", 500))},
		{name: "cut after joining", in: "ab\n\ncd\nef", n: 7, want: "ab c..."},
		{name: "short enough", in: "ab\ncd", n: 5, want: "ab cd"},
		{name: "not inside a rune", in: "a\né日本", n: 8, want: "a é..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := OneLine(tt.in, tt.n)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, "\n")
			if tt.n > 0 {
				assert.LessOrEqual(t, len(got), tt.n)
			}
		})
	}
}
