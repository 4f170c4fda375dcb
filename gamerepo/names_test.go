package gamerepo_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gdlperf/gdlperf/gamerepo"
)

func TestCheckKey(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		wantErr string
	}{
		{name: "plain", key: "ticTacToe"},
		{name: "dots and dashes", key: "3qbf-5cnf-20var-40cl.1.qdimacs.SAT"},
		{name: "underscore", key: "Nine_Mens_Morris_0.11_2p"},
		{name: "empty", key: "", wantErr: "empty"},
		{name: "parent", key: "..", wantErr: "starts with '.'"},
		{name: "dot", key: ".", wantErr: "starts with '.'"},
		{name: "hidden", key: ".tmp-1", wantErr: "starts with '.'"},
		{name: "escape", key: "../../x", wantErr: "starts with '.'"},
		{name: "slash", key: "a/b", wantErr: "path separator"},
		{name: "backslash", key: `a\b`, wantErr: "path separator"},
		{name: "NUL", key: "a\x00b", wantErr: `the character '\x00'`},
		{name: "space", key: "a b", wantErr: "the character ' '"},
		{name: "semicolon", key: "a;b", wantErr: "the character ';'"},
		{name: "long", key: strings.Repeat("a", gamerepo.MaxKeyLen+1), wantErr: "longer than 128 bytes"},
		{name: "longest", key: strings.Repeat("a", gamerepo.MaxKeyLen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := gamerepo.CheckKey(tt.key)
			if tt.wantErr == "" {
				assert.NoError(t, err)
			} else if assert.Error(t, err) {
				assert.Contains(t, err.Error(), tt.wantErr)
			}
		})
	}
}

func TestRepoName(t *testing.T) {
	for in, want := range map[string]string{"base": "base", "BASE": "base", " Dresden ": "dresden", "my-repo_2": "my-repo_2"} {
		got, err := gamerepo.RepoName(in)
		assert.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	for _, in := range []string{"", "LOCAL", "builtin", "a/b", "..", strings.Repeat("r", 33)} {
		_, err := gamerepo.RepoName(in)
		assert.Error(t, err, in)
	}
}

func TestParseMetadata(t *testing.T) {
	m, err := gamerepo.ParseMetadata([]byte(`{"gameName":"Tic-Tac-Toe","rulesheet":"ticTacToe.kif","version":2,"roleNames":["xplayer","oplayer"],"numRoles":2}`))
	assert.NoError(t, err)
	assert.Equal(t, "ticTacToe.kif", m.Rulesheet)
	assert.Equal(t, 2, m.Version)
	assert.Equal(t, []string{"xplayer", "oplayer"}, m.RoleNames)
	for _, bad := range []string{``, ` `, `{`, `[]`, `{"version":0}`, `{"rulesheet":"METADATA"}`, `{"rulesheet":"sha256"}`, `{"rulesheet":"a/b.kif"}`, `{"rulesheet":"a.kif","version":-1}`, `{"rulesheet":"a.kif","version":100000}`} {
		_, err := gamerepo.ParseMetadata([]byte(bad))
		assert.Error(t, err, bad)
	}
}
