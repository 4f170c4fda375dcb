package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// Usage errors are found by their type, not by their text: cobra's errors
// of flags, arguments and required flags, and the commands' own checks, are
// ExitUsage; a failure whose message reads like one is still ExitFailure.
func TestUsageErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "accepts 2 arg(s), invalid argument.kif")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{name: "unknown command", args: []string{"nosuch"}, wantCode: ExitUsage, wantStderr: `unknown command "nosuch"`},
		{name: "unknown flag", args: []string{"engine", "list", "--nosuch"}, wantCode: ExitUsage, wantStderr: "unknown flag: --nosuch"},
		{name: "bad flag value", args: []string{"engine", "trace", "prover", "builtin:tictactoe", "-", "--seed", "x"}, wantCode: ExitUsage, wantStderr: `invalid argument "x"`},
		{name: "flag without its value", args: []string{"engine", "trace", "prover", "builtin:tictactoe", "-", "--seed"}, wantCode: ExitUsage, wantStderr: "flag needs an argument"},
		{name: "too few arguments", args: []string{"engine", "trace", "prover"}, wantCode: ExitUsage, wantStderr: "accepts 3 arg(s)"},
		{name: "arguments where none are taken", args: []string{"engine", "list", "extra"}, wantCode: ExitUsage, wantStderr: `unknown command "extra"`},
		{name: "required flag", args: []string{"results", "merge", "a.csv"}, wantCode: ExitUsage, wantStderr: `required flag(s) "out" not set`},
		{name: "the command's own check", args: []string{"engine", "trace", "prover", "builtin:tictactoe", "-", "--rollouts", "-1"}, wantCode: ExitUsage, wantStderr: "--rollouts must not be negative"},
		{name: "no such engine", args: []string{"engine", "trace", "nosuch", "builtin:tictactoe", "-"}, wantCode: ExitUsage, wantStderr: `no built-in engine "nosuch"`},
		{name: "a failure that reads like a usage error", args: []string{"engine", "trace", "prover", missing, "-"}, wantCode: ExitFailure, wantStderr: "accepts 2 arg(s), invalid argument.kif"},
		{name: "help", args: []string{"engine"}, wantCode: ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			assert.Equal(t, tt.wantCode, code, stderr)
			assert.Contains(t, stderr, tt.wantStderr)
		})
	}
}

// Every command of the tree, runnable or a parent of others, shows an
// Example section in its help (issue 18: a newcomer copies a command from
// --help before reading the README).
func TestEveryCommandHasAnExample(t *testing.T) {
	root := NewRootCmd(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	var missing []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.Hidden && (c.Runnable() || c.HasAvailableSubCommands()) && strings.TrimSpace(c.Example) == "" {
			missing = append(missing, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	assert.Empty(t, missing, "commands without an Example section in their help")
}
