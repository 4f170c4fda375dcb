package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShellQuote(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "a plain word", in: "BASE/ticTacToe/JRFsaQ", want: "BASE/ticTacToe/JRFsaQ"},
		{name: "flag-like word", in: "--out=a,b+c@d%e:f", want: "--out=a,b+c@d%e:f"},
		{name: "empty", in: "", want: "''"},
		{name: "a space", in: "my games", want: "'my games'"},
		{name: "a glob", in: "BASE/tic*", want: "'BASE/tic*'"},
		{name: "a quote", in: "it's", want: `'it'\''s'`},
		{name: "a dollar", in: "$HOME", want: "'$HOME'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ShellQuote(tt.in))
		})
	}
	assert.Equal(t, "java -jar 'my player.jar'", ShellJoin([]string{"java", "-jar", "my player.jar"}))
}
