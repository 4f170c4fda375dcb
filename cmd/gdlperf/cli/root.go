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
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// IO is the streams a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs gdlperf with args and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := NewRootCmd(&IO{In: stdin, Out: stdout, Err: stderr})
	cmd.SetArgs(args)
	err := cmd.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "gdlperf:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "gdlperf:", err)
	if isUsage(err) {
		return ExitUsage
	}
	return ExitFailure
}

func isUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// NewRootCmd builds the command tree.
func NewRootCmd(streams *IO) *cobra.Command {
	root := &cobra.Command{
		Use:           "gdlperf",
		Short:         "Benchmark GDL rule engines on the games of General Game Playing",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       BuildVersion(),
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
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				_, err := fmt.Fprint(streams.Out, versionText())
				return err
			},
		},
	)
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
