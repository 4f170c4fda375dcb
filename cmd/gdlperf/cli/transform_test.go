package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/gdl"
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
