package rollout_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

func tictactoe(t *testing.T) builtingames.Game {
	t.Helper()
	b, ok := builtingames.Get("tictactoe")
	require.True(t, ok)
	return b
}

func readResultFile(t *testing.T, path string) *protocol.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r, garbage := protocol.Parse(string(b))
	require.Empty(t, garbage)
	return r
}

func TestWriteResultInProcess(t *testing.T) {
	b := tictactoe(t)
	e := engines.Engine{Name: "prover", Version: "v1", New: func(g *gdl.Game) (engines.Machine, error) { return prover.NewMachine(g), nil }}
	path := filepath.Join(t.TempDir(), "result.txt")
	require.NoError(t, rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Rollouts: 2, Seed: 1}.WriteResult(path, nil, nil))
	r := readResultFile(t, path)
	v, _ := r.Get(protocol.KeyNumRollouts)
	assert.Equal(t, "2", v)
	_, failed := r.Get(protocol.KeyErrorMessage)
	assert.False(t, failed)

	err := rollout.Process{Engine: e, File: "bad.kif", Rules: []byte("(role x)\n(init (cell 1)\n"), Rollouts: 2}.WriteResult(path, nil, nil)
	require.Error(t, err)
	msg, ok := readResultFile(t, path).Get(protocol.KeyErrorMessage)
	require.True(t, ok)
	assert.Contains(t, msg, "bad.kif:2:1")

	err = rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Rollouts: 2}.WriteResult(filepath.Join(t.TempDir(), "no", "such", "folder"), nil, nil)
	assert.ErrorContains(t, err, "writing the result file")
}

func TestWriteFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "result.txt")
	require.NoError(t, rollout.WriteFailure(path, "unknown", errors.New(`no built-in engine "nosuch"`)))
	r := readResultFile(t, path)
	v, _ := r.Get(protocol.KeyVersion)
	assert.Equal(t, "unknown", v)
	msg, _ := r.Get(protocol.KeyErrorMessage)
	assert.Equal(t, `no built-in engine "nosuch"`, msg)
}

// nativeEngine is an engine whose program is the shell script body; its
// arguments are those of a compiled program (flags, then GAME_FILE
// RESULT_FILE SECONDS or, with -trace, GAME_FILE).
func nativeEngine(t *testing.T, body string, prepErr error) engines.Engine {
	t.Helper()
	prog := filepath.Join(t.TempDir(), "prog")
	script := "#!/bin/sh\nn=$#; i=0; for a; do i=$((i+1)); [ $i -eq $((n-1)) ] && res=$a; [ $i -eq $((n-2)) ] && game=$a; done\n" + body + "\n"
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o755))
	return engines.Engine{Name: "native", Version: "v2", Native: func(g *gdl.Game, rules []byte) (*engines.NativeProgram, error) {
		if prepErr != nil {
			return nil, prepErr
		}
		return &engines.NativeProgram{Path: prog, Setup: map[protocol.Key]int64{protocol.KeyCodegenMilliseconds: 7, protocol.KeyBuildMilliseconds: 9}}, nil
	}}
}

func TestWriteResultNative(t *testing.T) {
	okResult := `printf 'version = 9\nmillisecondsTaken = 10\nnumStateChanges = 5\nnumRollouts = 1\ninitMilliseconds = 4000\n' > "$res"`
	tests := []struct {
		name     string
		body     string
		prepErr  error
		wantErr  string
		wantKeys map[protocol.Key]string // "" for present, any value
		wantInit int64                   // at least, when > 0
		wantNo   []protocol.Key
	}{
		{name: "setup figures added", body: `[ -s "$game" ] || exit 5; ` + okResult,
			wantKeys: map[protocol.Key]string{protocol.KeyVersion: "9", protocol.KeyCodegenMilliseconds: "7", protocol.KeyBuildMilliseconds: "9", protocol.KeyNumRollouts: "1"},
			wantInit: 4000, wantNo: []protocol.Key{protocol.KeyErrorMessage}},
		{name: "no result", body: `exit 3`, wantErr: "engine program prog: exit status 3",
			wantKeys: map[protocol.Key]string{protocol.KeyVersion: "v2", protocol.KeyErrorMessage: "engine program prog: exit status 3"}},
		{name: "the program's failure kept", body: `printf 'version = 9\nerrorMessage = no-legal-move: role x\n' > "$res"; exit 1`, wantErr: "exit status 1",
			wantKeys: map[protocol.Key]string{protocol.KeyErrorMessage: "no-legal-move: role x", protocol.KeyCodegenMilliseconds: "7"},
			wantNo:   []protocol.Key{protocol.KeyInitMilliseconds}},
		{name: "setup fails", prepErr: errors.New("compiled: go build failed: boom"), wantErr: "go build failed",
			wantKeys: map[protocol.Key]string{protocol.KeyVersion: "v2", protocol.KeyErrorMessage: "compiled: go build failed: boom"}},
	}
	b := tictactoe(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := nativeEngine(t, tt.body, tt.prepErr)
			path := filepath.Join(t.TempDir(), "result.txt")
			err := rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Seconds: 1, Seed: 3}.WriteResult(path, nil, nil)
			if tt.wantErr == "" {
				require.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tt.wantErr)
			}
			r := readResultFile(t, path)
			for k, want := range tt.wantKeys {
				v, ok := r.Get(k)
				require.True(t, ok, "key %s", k)
				assert.Equal(t, want, v, "key %s", k)
			}
			for _, k := range tt.wantNo {
				_, ok := r.Get(k)
				assert.False(t, ok, "key %s", k)
			}
			if tt.wantInit > 0 {
				v, _ := r.Get(protocol.KeyInitMilliseconds)
				n, err := strconv.ParseInt(v, 10, 64)
				require.NoError(t, err)
				assert.GreaterOrEqual(t, n, tt.wantInit)
			}
		})
	}
}

// A traced native run gets the trace flags and a copy of the built-in
// game, removed afterwards.
func TestWriteTraceNative(t *testing.T) {
	e := nativeEngine(t, `for a; do :; done; game=$a; [ -s "$game" ] || exit 5; echo "$@" > "$2"`, nil)
	b := tictactoe(t)
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	require.NoError(t, rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Rollouts: 3, Seed: 4}.WriteTrace(path, nil, nil))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	args := strings.Fields(string(got))
	require.Len(t, args, 7)
	assert.Equal(t, []string{"-trace", path, "-seed", "4", "-rollouts", "3"}, args[:6])
	_, err = os.Stat(args[6])
	assert.True(t, os.IsNotExist(err), "the game's copy %s is removed", args[6])
}

// A native program's own arguments (its build's choices) come before the
// run's.
func TestNativeProgramArgs(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "prog")
	script := "#!/bin/sh\nprev=; for a; do [ \"$prev\" = -trace ] && out=$a; prev=$a; done; printf '%s\\n' \"$@\" > \"$out\"\n"
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o755))
	e := engines.Engine{Name: "native", Version: "v2", Native: func(g *gdl.Game, rules []byte) (*engines.NativeProgram, error) {
		return &engines.NativeProgram{Path: prog, Args: []string{"-design", "magic sets"}}, nil
	}}
	b := tictactoe(t)
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	require.NoError(t, rollout.Process{Engine: e, File: b.File, Rules: b.Rules, Rollouts: 3, Seed: 4}.WriteTrace(path, nil, nil))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	args := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	require.Len(t, args, 9)
	assert.Equal(t, []string{"-design", "magic sets", "-trace", path, "-seed", "4", "-rollouts", "3"}, args[:8])
}
