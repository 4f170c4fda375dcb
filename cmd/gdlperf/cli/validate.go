package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// ValidateOptions are the options of gdlperf validate.
type ValidateOptions struct {
	IO       *IO
	Files    []string
	Warnings bool
}

// NewCmdValidate builds "gdlperf validate FILE...". runF replaces the
// command's work in tests.
func NewCmdValidate(streams *IO, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "validate FILE...",
		Example: `  gdlperf validate builtin:tictactoe
  gdlperf validate mygame.kif
  gdlperf validate games/*.kif`,
		Short: "Check game files against the rules of GDL",
		Long: `Validate reads each game file (or builtin:NAME), cleans it and checks it
against the rules of GDL. It prints every finding as file:line:col and exits
with status 1 when some file has an error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if runF != nil {
				return runF(opts)
			}
			return runValidate(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Warnings, "warnings", "w", true, "print warnings too")
	return cmd
}

func runValidate(opts *ValidateOptions) error {
	bad := 0
	for _, f := range opts.Files {
		name, src, err := readGame(f)
		if err != nil {
			fmt.Fprintln(opts.IO.Out, err)
			bad++
			continue
		}
		g, err := gdl.Check(name, src, gdl.DefaultLimits)
		if err != nil {
			fmt.Fprintln(opts.IO.Out, err)
			bad++
			continue
		}
		errs := 0
		for _, fd := range g.Findings {
			if fd.Severity == gdl.Error {
				errs++
			} else if !opts.Warnings {
				continue
			}
			fmt.Fprintln(opts.IO.Out, fd)
		}
		if errs > 0 {
			bad++
			fmt.Fprintf(opts.IO.Out, "%s: invalid (%d error%s)\n", name, errs, plural(errs))
		} else {
			fmt.Fprintf(opts.IO.Out, "%s: valid, %d roles, %d rules\n", name, len(g.Roles), len(g.Rules))
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d file%s invalid", bad, len(opts.Files), plural(len(opts.Files)))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
