package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/enginetest"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/transform"
	"github.com/gdlperf/gdlperf/results"
)

// TestTransformPrintsValidGDL: the rulesheet printed (stdout or -o) is
// valid GDL that gdlperf validate accepts, for every transform.
func TestTransformPrintsValidGDL(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shuffle", "adversarial", "rename", "reorder", "deor", "inline", "dedupe", "condense", "optimise", "deor,rename,condense"} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := run(t, "transform", name, "builtin:tictactoe", "--seed", "3")
			require.Equal(t, 0, code, stderr)
			require.True(t, strings.HasPrefix(stdout, "; gdlperf transform "+name+" --seed 3\n"), stdout)
			_, err := gdl.Load("out", []byte(stdout))
			require.NoError(t, err)

			out := filepath.Join(dir, strings.ReplaceAll(name, ",", "-")+".kif")
			code, _, stderr = run(t, "transform", name, "builtin:tictactoe", "--seed", "3", "-o", out)
			require.Equal(t, 0, code, stderr)
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, stdout, string(b))
			code, vout, verr := run(t, "validate", out)
			require.Equal(t, 0, code, vout+verr)
			assert.Contains(t, vout, "valid, 2 roles")
		})
	}
}

// TestTransformSaysWhetherEnginesRunAnotherProgram: the summary on
// stderr tells a rewrite of the text only (what every built-in engine
// loads is the original's) from a rewrite of the rules.
func TestTransformSaysWhetherEnginesRunAnotherProgram(t *testing.T) {
	code, _, stderr := run(t, "transform", "deor", "builtin:tictactoe")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "deor: the same")
	assert.Contains(t, stderr, "measures only noise")

	code, _, stderr = run(t, "transform", "shuffle", "builtin:tictactoe")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "they run another program")

	dup := filepath.Join(t.TempDir(), "dup.kif")
	require.NoError(t, os.WriteFile(dup, []byte("(role a) (init (s 0)) (<= (legal a go) (true (s 0)) (true (s 0)))\n(<= (next (s 1)) (true (s 0))) (<= terminal (true (s 1))) (goal a 100)\n"), 0o644))
	code, _, stderr = run(t, "transform", "optimise", dup)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "optimise: 6 rules as the built-in engines load them, 6 in the original: they run another program")
}

// TestTransformRefusesBadArguments: an unknown transform is a usage error
// naming the transforms, an invalid game a failure.
func TestTransformRefusesBadArguments(t *testing.T) {
	code, _, stderr := run(t, "transform", "reorder,frob", "builtin:tictactoe")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, `unknown transform "frob"`)
	assert.Contains(t, stderr, "shuffle, adversarial")

	bad := filepath.Join(t.TempDir(), "bad.kif")
	require.NoError(t, os.WriteFile(bad, []byte("(role a)\n"), 0o644))
	code, _, stderr = run(t, "transform", "reorder", bad)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "the game is invalid")

	code, stdout, _ := run(t, "transform", "--list")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "optimise\t")
	assert.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), 9)
}

// TestTransformOptions: the flags land in the options struct.
func TestTransformOptions(t *testing.T) {
	var got *TransformOptions
	cmd := NewCmdTransform(&IO{}, func(o *TransformOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"deor,reorder", "g.kif", "--seed", "9", "-o", "x.kif"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, []string{"deor", "reorder"}, got.Names)
	assert.Equal(t, "g.kif", got.Game)
	assert.Equal(t, uint64(9), got.Seed)
	assert.Equal(t, "x.kif", got.Out)
}

// orderSensitive is the prover on the game without its last next rule of
// more than one literal (in file order), so its answers depend on the
// order of the rules, which the transforms method must catch.
const orderSensitive = "prover-order-sensitive"

// namesOnly is the prover refusing a game whose first role is not named
// xplayer, so that it gives no trace of a renamed tic-tac-toe.
const namesOnly = "prover-names-only"

func init() {
	ref, _ := engines.Lookup(prover.Name)
	engines.Register(engines.Engine{
		Name:    namesOnly,
		Version: ref.Version + "-names-only",
		New: func(g *gdl.Game) (engines.Machine, error) {
			if len(g.Roles) == 0 || g.Roles[0].String() != "xplayer" {
				return nil, engines.Errorf(engines.UnsupportedErr, "no role xplayer")
			}
			return ref.New(g)
		},
	})
	engines.Register(engines.Engine{
		Name:    orderSensitive,
		Version: ref.Version + "-order-sensitive",
		New: func(g *gdl.Game) (engines.Machine, error) {
			rules := append([]*gdl.Rule(nil), g.Rules...)
			for i := len(rules) - 1; i >= 0; i-- {
				if rules[i].Head.Name == gdl.SymNext && len(rules[i].Body) > 1 {
					rules = append(rules[:i], rules[i+1:]...)
					break
				}
			}
			ng, err := gdl.Load(g.File, transform.Print(rules, ""))
			if err != nil {
				return nil, err
			}
			return ref.New(ng)
		},
	})
}

// TestCheckTransforms: a correct engine plays every rewrite as the
// original; an engine whose answers hang on the order of the rules is
// caught by shuffle, one that hangs on names (drops the move that sorts
// first) by rename; the verdict names the rewrite and the commands that
// reproduce it. A built-in engine is not given the rewrites that load to
// tic-tac-toe's own program (the front end already expands or and places
// distinct and not, and tic-tac-toe's rules are written in that order),
// an external engine (the prover through its command line, which reads
// the text) is given all ten.
func TestCheckTransforms(t *testing.T) {
	tests := []struct {
		engine, game string
		wantCode     int
		wantVerdict  string
		wantDetail   []string
	}{
		{"tupleprover", "builtin:tictactoe", 0, results.VerdictOK, []string{"5 rewrites play as the original (4 rollouts each): shuffle (seed 1), shuffle (seed 2), adversarial, rename (seed 1), inline; 5 load to the original's program, the same rules in the same order (nothing to play): reorder, deor, dedupe, condense, optimise"}},
		{"extprover", "builtin:tictactoe", 0, results.VerdictOK, []string{"10 rewrites play as the original (4 rollouts each): shuffle (seed 1), shuffle (seed 2), adversarial, rename (seed 1), reorder, deor, inline, dedupe, condense, optimise"}},
		{orderSensitive, "builtin:tictactoe", ExitFailure, results.VerdictMismatch, []string{"transform shuffle (seed 2): the transformed game plays otherwise"}},
		{"prover-" + enginetest.DropLegal, "builtin:tictactoe", ExitFailure, results.VerdictMismatch, []string{"transform rename (seed 1): the transformed game plays otherwise: legal moves of role 0"}},
		// A rewrite with no trace fails the check; the others still play.
		{namesOnly, "builtin:tictactoe", ExitFailure, results.VerdictError, []string{
			"1 of 10 rewrites not played (rename (seed 1)): the engine wrote no trace of the game transformed by rename (seed 1)",
			"; 4 rewrites play as the original (4 rollouts each): shuffle (seed 1), shuffle (seed 2), adversarial, inline; 5 load to"}},
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	manifest := filepath.Join(t.TempDir(), "engines.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[[engines]]
name = "extprover"
version = "1"
command = [%[1]q, "engine", "run", "prover"]
trace = [%[1]q, "engine", "trace", "prover"]
`, exe)), 0o644))
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := run(t, "check", "--engines", tt.engine, "--games", tt.game, "--methods", "transforms", "--budget", "2s", "--results", dir, "--manifest", manifest)
			require.Equal(t, tt.wantCode, code, "stdout: %s\nstderr: %s", stdout, stderr)
			rows, err := results.LoadCheckRows(dir)
			require.NoError(t, err)
			require.Len(t, rows, 1)
			for _, want := range tt.wantDetail {
				assert.Contains(t, rows[0].Detail, want)
			}
			assert.Equal(t, tt.wantVerdict, rows[0].Verdict)
			if tt.wantCode == 0 {
				return
			}
			assert.Contains(t, rows[0].Reproduce, "gdlperf transform ")
			assert.Contains(t, rows[0].Reproduce, "--methods transforms --seed 1 --rollouts 4")
		})
	}
}
