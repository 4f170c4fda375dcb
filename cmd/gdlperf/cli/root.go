// Package cli holds gdlperf's commands. Main takes the arguments and the
// standard streams and returns the exit code, so tests run commands
// in-process.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/gdl"
	// The built-in engines register themselves.
	_ "github.com/gdlperf/gdlperf/engines/compiled"
	_ "github.com/gdlperf/gdlperf/engines/propnet"
	_ "github.com/gdlperf/gdlperf/engines/prover"
	_ "github.com/gdlperf/gdlperf/engines/tupleprover"
	"github.com/gdlperf/gdlperf/gamerepo"
)

// Exit codes.
const (
	ExitOK         = 0
	ExitFailure    = 1 // the tool or a run failed
	ExitUsage      = 2 // bad command line
	ExitRegression = 3 // compare found a regression
	// ExitInterrupted is the status of a command stopped by Ctrl-C or
	// SIGTERM (128 + SIGINT, as a shell reports it); what it finished is
	// saved and the same command resumes.
	ExitInterrupted = 130
)

// exitError carries an exit code through cobra. An error without one is a
// failure (ExitFailure), unless it is a usageError.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode gives err an exit status other than the one it has: a plain
// error is ExitFailure and usage(err) ExitUsage already, so withCode is for
// ExitInterrupted, ExitRegression and the other verdicts of compare and ab.
func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// usageError is a bad command line (ExitUsage): cobra's own errors of
// flags (the flag-error hook), arguments (every command's Args is wrapped)
// and required flags are made usageErrors in NewRootCmd, and commands
// return usage(err) for their own checks of the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usage marks err as a bad command line.
func usage(err error) error { return &usageError{err: err} }

// IO is the streams a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs gdlperf with args and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRootCmd(&IO{In: stdin, Out: stdout, Err: stderr})
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	// The root command runs nothing: an error of its own is cobra's
	// unknown command.
	if cmd == root {
		err = usage(err)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "gdlperf:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "gdlperf:", err)
	return exitCode(err)
}

// exitCode is the exit status of a command's error: an exitError's code,
// ExitUsage for a usageError, else ExitFailure.
func exitCode(err error) int {
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return ExitUsage
	}
	return ExitFailure
}

// markUsageErrors makes the errors cobra finds in the command line of cmd
// and its subcommands usageErrors: those of flags (the flag-error hook,
// which subcommands inherit), of positional arguments (Args) and of
// required flags (checked before the command's PreRunE).
func markUsageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usage(err) })
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(c *cobra.Command, a []string) error {
				if err := args(c, a); err != nil {
					return usage(err)
				}
				return nil
			}
		}
		if c.Runnable() && c.PreRun == nil {
			pre := c.PreRunE
			c.PreRunE = func(c *cobra.Command, a []string) error {
				if err := c.ValidateRequiredFlags(); err != nil {
					return usage(err)
				}
				if pre != nil {
					return pre(c, a)
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd)
}

// NewRootCmd builds the command tree.
func NewRootCmd(streams *IO) *cobra.Command {
	root := &cobra.Command{
		Use:           "gdlperf",
		Short:         "Benchmark GDL rule engines on the games of General Game Playing",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       BuildVersion(),
		Example: `  # every built-in engine on the built-in games, 2 s per run (no network),
  # then the static result pages (gdlperf-site/index.html)
  gdlperf run --games builtin --seconds 2 && gdlperf report
  # do the engines agree with the reference prover?
  gdlperf check --games builtin`,
	}
	root.SetVersionTemplate(versionText())
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	root.SetIn(streams.In)
	engineCmd := NewCmdEngine(streams)
	engineCmd.AddCommand(newCmdEngineSelfCheck(streams), newCmdEngineInfo(streams))
	root.AddCommand(
		NewCmdRun(streams, nil),
		NewCmdSlurm(streams, nil),
		NewCmdResults(streams),
		NewCmdValidate(streams, nil),
		NewCmdTransform(streams, nil),
		engineCmd,
		NewCmdGames(streams),
		NewCmdReport(streams, nil),
		NewCmdCompare(streams, nil),
		NewCmdAB(streams, nil),
		NewCmdCheck(streams, nil),
		&cobra.Command{
			Use:   "version",
			Short: "Print gdlperf's version, the revision it was built from and the Go version",
			Example: `  gdlperf version
  gdlperf --version`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				_, err := fmt.Fprint(streams.Out, versionText())
				return err
			},
		},
	)
	markUsageErrors(root)
	return root
}

// readGame reads a game argument: a file path, builtin:NAME for a game
// shipped in the binary, or the key of one game in the cache
// (BASE/ticTacToe). It returns the name to show and the rules.
func readGame(arg string) (string, []byte, error) {
	if name, ok := strings.CutPrefix(arg, "builtin:"); ok {
		g, ok := gamerepo.Builtin(name)
		if !ok {
			var names []string
			for _, b := range gamerepo.Builtins() {
				names = append(names, b.Name)
			}
			return "", nil, fmt.Errorf("no built-in game %q; the built-in games are %s", name, strings.Join(names, ", "))
		}
		return g.File, g.Rules, nil
	}
	src, err := gdl.ReadFile(arg)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if strings.Contains(arg, "/") && !strings.ContainsAny(arg, "*?[") {
				if games, _, kerr := selectGames([]string{arg}, false); kerr == nil && len(games) == 1 {
					return games[0].Key, games[0].Rules, nil
				}
			}
			return "", nil, fmt.Errorf("%w (a built-in game is named builtin:NAME, a game in the cache REPO/NAME[/HASH])", err)
		}
		return "", nil, err
	}
	return arg, src, nil
}
