package gdl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFindingString(t *testing.T) {
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{
			name: "file and position",
			f:    Finding{Severity: Error, Code: CodeUnsafe, File: "g.kif", Pos: Pos{3, 5}, Msg: "unsafe rule"},
			want: "g.kif:3:5: error: unsafe rule [unsafe]",
		},
		{
			name: "position only",
			f:    Finding{Severity: Warning, Code: CodeZeroArity, Pos: Pos{1, 1}, Msg: "(foo)"},
			want: "1:1: warning: (foo) [zero-arity]",
		},
		{
			name: "file only",
			f:    Finding{Severity: Error, Code: CodeMissing, File: "g.kif", Msg: "the game has no goal"},
			want: "g.kif: error: the game has no goal [missing]",
		},
		{
			name: "neither",
			f:    Finding{Severity: Error, Code: CodeMissing, Msg: "the game has no goal"},
			want: "error: the game has no goal [missing]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.f.String())
		})
	}
}

func TestFindingsFilters(t *testing.T) {
	fs := Findings{
		{Severity: Warning, Code: CodeZeroArity},
		{Severity: Error, Code: CodeUnsafe},
		{Severity: Warning, Code: CodeUnused},
		{Severity: Error, Code: CodeRecursion},
	}
	assert.Equal(t, Findings{fs[1], fs[3]}, fs.Errors())
	assert.True(t, fs.HasCode(CodeUnused))
	assert.False(t, fs.HasCode(CodeSyntax))
	assert.Nil(t, Findings{fs[0]}.Errors())
	assert.Equal(t, "error", Error.String())
	assert.Equal(t, "warning", Warning.String())
}

func TestInvalidErrorText(t *testing.T) {
	mk := func(n int) Findings {
		var fs Findings
		for i := 1; i <= n; i++ {
			fs = append(fs, Finding{Severity: Error, Code: CodeUnsafe, File: "g.kif", Pos: Pos{int32(i), 1}, Msg: fmt.Sprintf("bad %d", i)})
		}
		return fs
	}
	tests := []struct {
		name      string
		n         int
		wantHead  string
		wantLines int
		wantMore  string
	}{
		{name: "one", n: 1, wantHead: "g.kif: invalid game: 1 error\n", wantLines: 2},
		{name: "two", n: 2, wantHead: "g.kif: invalid game: 2 errors\n", wantLines: 3},
		{name: "five", n: 5, wantHead: "g.kif: invalid game: 5 errors\n", wantLines: 6},
		{name: "eight", n: 8, wantHead: "g.kif: invalid game: 8 errors\n", wantLines: 7, wantMore: "... and 3 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := (&InvalidError{File: "g.kif", Findings: mk(tt.n)}).Error()
			assert.True(t, strings.HasPrefix(text, tt.wantHead), "text %q", text)
			assert.Len(t, strings.Split(text, "\n"), tt.wantLines)
			assert.Contains(t, text, "\tg.kif:1:1: error: bad 1 [unsafe]")
			if tt.wantMore != "" {
				assert.Contains(t, text, tt.wantMore)
				assert.NotContains(t, text, "bad 6")
			}
		})
	}
}
