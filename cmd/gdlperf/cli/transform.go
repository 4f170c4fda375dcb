package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/transform"
)

// TransformOptions are the options of gdlperf transform.
type TransformOptions struct {
	IO    *IO
	Names []string // the chain
	Game  string   // a file, builtin:NAME or a cache key
	Out   string   // "" or "-": stdout
	Seed  uint64
	List  bool
}

// NewCmdTransform builds "gdlperf transform NAME[,NAME...] GAME". runF
// replaces the command's work in tests.
func NewCmdTransform(streams *IO, runF func(*TransformOptions) error) *cobra.Command {
	opts := &TransformOptions{IO: streams}
	var list strings.Builder
	for _, in := range transform.Names() {
		fmt.Fprintf(&list, "  %-12s %s\n", in.Name, in.Summary)
	}
	cmd := &cobra.Command{
		Use:   "transform NAME[,NAME...] GAME",
		Short: "Rewrite a game into another that plays identically",
		Long: `Transform runs a chain of rule transforms on a game (a file, builtin:NAME or
a cache key such as BASE/ticTacToe) and prints the rulesheet, one rule a line,
canonically: valid GDL that gdlperf validate accepts and any engine reads as
its game file. Every step's output is loaded again and must keep the roles;
gdlperf check --methods transforms plays every engine on the original and the
transformed game and compares. --seed draws the order of shuffle and the
words of rename.

The transforms:
` + list.String(),
		Example: `  gdlperf transform reorder builtin:tictactoe
  gdlperf transform shuffle --seed 2 BASE/connectFour -o c4-shuffled.kif
  gdlperf transform deor,dedupe,reorder game.kif -o game-opt.kif
  gdlperf transform --list`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.List {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !opts.List {
				names, err := transform.ParseNames(args[0])
				if err != nil {
					return usage(err)
				}
				opts.Names, opts.Game = names, args[1]
			}
			if runF != nil {
				return runF(opts)
			}
			return runTransform(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "out", "o", "", "write the rulesheet to this file (default: standard output)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of shuffle and rename")
	f.BoolVar(&opts.List, "list", false, "list the transforms and what each does")
	return cmd
}

func runTransform(opts *TransformOptions) error {
	if opts.List {
		for _, in := range transform.Names() {
			fmt.Fprintf(opts.IO.Out, "%s\t%s\n", in.Name, in.Summary)
		}
		return nil
	}
	name, src, err := readGame(opts.Game)
	if err != nil {
		return err
	}
	res, err := transform.Run(opts.Names, opts.Seed, name, src)
	if err != nil {
		return err
	}
	if opts.Out == "" || opts.Out == "-" {
		if _, err := opts.IO.Out.Write(res.Text); err != nil {
			return err
		}
	} else {
		if err := os.WriteFile(opts.Out, res.Text, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.Err, "%s: %d rules, %s of %s (seed %d)\n", opts.Out, len(res.Rules), strings.Join(opts.Names, ","), name, opts.Seed)
	}
	fmt.Fprintln(opts.IO.Err, loadedSummary(res))
	return nil
}

// loadedSummary says what the chain changed of the game as engines load
// it: a chain can rewrite the text (the order of distinct and not, or
// expanded) and leave what every built-in engine runs as it was.
func loadedSummary(res *transform.Result) string {
	chain := strings.Join(res.Names, ",")
	if res.Unchanged {
		return fmt.Sprintf("%s: the same %d rules, in the same order, as the original as the built-in engines load it (gdl.Load): a rate under %s over the untransformed rate measures only noise", chain, res.Loaded, chain)
	}
	return fmt.Sprintf("%s: %d rules as the built-in engines load them, %d in the original: they run another program", chain, len(res.Game.Rules), res.Loaded)
}
