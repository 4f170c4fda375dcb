package compiled_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines/compiled"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/engines/prover"
	"github.com/gdlperf/gdlperf/engines/rollout"
)

// runProgram runs the program and returns its exit status and result file.
func runProgram(t *testing.T, path string, args ...string) (int, *protocol.Result, string) {
	t.Helper()
	res := filepath.Join(t.TempDir(), "result.txt")
	require.NoError(t, os.WriteFile(res, nil, 0o644))
	// the result file goes before SECONDS, the last argument
	full := append(append([]string{}, args[:len(args)-1]...), res, args[len(args)-1])
	cmd := exec.Command(path, full...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	b, err := os.ReadFile(res)
	require.NoError(t, err)
	r, garbage := protocol.Parse(string(b))
	assert.Empty(t, garbage)
	return code, r, stderr.String()
}

func get(r *protocol.Result, key protocol.Key) string {
	v, _ := r.Get(key)
	return v
}

// TestResultFile checks the keys of the result file in timed and
// fixed-work mode, and that fixed-work mode does the prover's work.
func TestResultFile(t *testing.T) {
	tg := builtin(t, "tictactoe")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)

	code, r, stderr := runProgram(t, prog.Path, "-seed", "3", tg.path, "1")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, []protocol.Key{"version", "millisecondsTaken", "numStateChanges", "numRollouts", "initMilliseconds", "cpuMilliseconds", "peakRSSKiB", "gomaxprocs", "seed", "design"}, r.Keys())
	assert.Equal(t, engine(t).Version, get(r, "version"))
	assert.Equal(t, "3", get(r, "seed"))
	ms, _ := strconv.Atoi(get(r, "millisecondsTaken"))
	assert.GreaterOrEqual(t, ms, 1000)
	n, _ := strconv.Atoi(get(r, "numStateChanges"))
	assert.Greater(t, n, 0)

	code, r, stderr = runProgram(t, prog.Path, "-seed", "5", "-rollouts", "20", tg.path, "0")
	require.Equal(t, 0, code, stderr)
	want, err := rollout.RunFixed(prover.NewMachine(tg.game), 20, 5)
	require.NoError(t, err)
	assert.Equal(t, strconv.FormatInt(want.StateChanges, 10), get(r, "numStateChanges"))
	assert.Equal(t, "20", get(r, "numRollouts"))
}

// TestWrongGameFile: a program refuses rules it was not built for.
func TestWrongGameFile(t *testing.T) {
	tg := builtin(t, "tictactoe")
	other := builtin(t, "connectfour")
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	code, r, _ := runProgram(t, prog.Path, other.path, "1")
	assert.Equal(t, 1, code)
	assert.Equal(t, engine(t).Version, get(r, "version"))
	assert.Contains(t, get(r, "errorMessage"), "not those this program was built for")

	cmd := exec.Command(prog.Path, "-trace", "-", other.path)
	out, err := cmd.CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), "not those this program was built for")
}

const stuckGame = "(role r)\n(init s)\n(<= (legal r go) (true s))\n(<= (next t) (does r go))\n(<= terminal (true u))\n(goal r 100)\n"

// TestGameErrors: a game error ends a run with errorMessage and exit
// status 1, and a trace with the prover's error line.
func TestGameErrors(t *testing.T) {
	tg := sourceGame(t, "stuck.kif", stuckGame)
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	code, r, _ := runProgram(t, prog.Path, tg.path, "1")
	assert.Equal(t, 1, code)
	assert.Equal(t, "no-legal-move: role r has no legal move in the state {t}", get(r, "errorMessage"))
	// The design was chosen before the rollouts failed (protocol.Run keeps
	// setup's keys).
	assert.Equal(t, []protocol.Key{"version", "errorMessage", "peakRSSKiB", "design"}, r.Keys())

	sameTrace(t, proverTrace(t, tg.game, 1, 2), programTrace(t, prog, tg.path, 1, 2))

	// the trace file is kept when the game fails
	out := filepath.Join(t.TempDir(), "trace.jsonl")
	err = exec.Command(prog.Path, "-trace", out, tg.path).Run()
	assert.Error(t, err)
	b, rerr := os.ReadFile(out)
	require.NoError(t, rerr)
	assert.Contains(t, string(b), `"error":"no-legal-move`)

	goals := sourceGame(t, "goals.kif", "(role r)\n(init s)\n(<= (legal r go) (true s))\n(<= (next t) (does r go))\n(<= terminal (true t))\n(goal r 100)\n(goal r 50)\n")
	checkTrace(t, goals, 1, 1)
	value := sourceGame(t, "value.kif", "(role r)\n(init s)\n(<= (legal r go) (true s))\n(<= (next t) (does r go))\n(<= terminal (true t))\n(goal r high)\n")
	checkTrace(t, value, 1, 1)
	// the timed rollouts' goals (their own buffers) fail the run too
	for _, c := range []struct {
		tg   testGame
		want string
	}{
		{goals, "goal-count: role r has 2 goal values [100 50] in the state {t}; it needs exactly one"},
		{value, "goal-value: role r has the goal value high, which is not an integer"},
	} {
		prog, err := compiled.Native(c.tg.game, c.tg.rules)
		require.NoError(t, err)
		code, r, _ := runProgram(t, prog.Path, c.tg.path, "1")
		assert.Equal(t, 1, code)
		assert.Equal(t, c.want, get(r, "errorMessage"))
	}
}

// hostileGame has names that the parser accepts and that would break
// generated code if they reached it: quotes, backticks, backslashes,
// comment markers, Go keywords, unicode, JSON and names like the
// generated identifiers.
const hostileGame = "(role func)\n" +
	"(role \"pl`ay\\er*/)\n" +
	"(init (package //s 0))\n" +
	"(init (import main))\n" +
	"(succ 0 1)\n(succ 1 2)\n(succ 2 3)\n" +
	"(<= (legal func (go ?x)) (true (import ?x)))\n" +
	"(<= (legal func (go é\u2028)) (true (import main)))\n" +
	"(<= (legal \"pl`ay\\er*/ u0) (true (package //s ?n)))\n" +
	"(<= (legal \"pl`ay\\er*/ {\"a\":1}</script>) (true (package //s ?n)) (distinct ?n 3))\n" +
	"(<= (next (package //s ?m)) (true (package //s ?n)) (succ ?n ?m))\n" +
	"(<= (next (import ?x)) (does func (go ?x)))\n" +
	"(<= (next (import p1)) (does \"pl`ay\\er*/ u0))\n" +
	"(<= (next (import r0)) (does \"pl`ay\\er*/ {\"a\":1}</script>))\n" +
	"(<= terminal (true (package //s 3)))\n" +
	"(<= (goal ?r 100) (role ?r) (true (import main)))\n" +
	"(<= (goal ?r 50) (role ?r) (not (true (import main))))\n"

func TestHostileNames(t *testing.T) {
	tg := sourceGame(t, "hostile.kif", hostileGame)
	checkTrace(t, tg, 1, 8)
	checkTrace(t, tg, 2, 8)
	// the names reach no generated Go file
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	var files []string
	err = filepath.WalkDir(filepath.Dir(prog.Path), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !slices.Contains([]string{"rt", "protocol"}, filepath.Base(filepath.Dir(path))) {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, name := range []string{"pl`ay", "//s", "package //", "é", "</script>"} {
			assert.False(t, strings.Contains(string(b), name), "%s holds %q", f, name)
		}
	}
}

// TestRolloutsAreProverRollouts: the program's rollouts (playout, whose
// states alternate between two buffers, as in a timed run) in fixed-work
// mode make the prover's moves and state changes, seed by seed, in each
// design: a state a step overwritten too early would change the moves
// drawn. (rt's TestTimedLoopIsRolloutRun pins the timed loop to
// rollout.Run; with SECONDS = 0 a process's run ends before its first
// rollout.)
func TestRolloutsAreProverRollouts(t *testing.T) {
	for _, name := range []string{"tictactoe", "breakthrough", "connectfour"} {
		tg := builtin(t, name)
		prog, err := compiled.Native(tg.game, tg.rules)
		require.NoError(t, err)
		for _, design := range []string{"bottom-up", "incremental"} {
			t.Run(name+"/"+design, func(t *testing.T) {
				for _, seed := range []uint64{1, 2} {
					code, r, stderr := runProgram(t, prog.Path, "-design", design, "-seed", strconv.FormatUint(seed, 10), "-rollouts", "10", tg.path, "0")
					require.Equal(t, 0, code, stderr)
					want, err := rollout.RunFixed(prover.NewMachine(tg.game), 10, seed)
					require.NoError(t, err)
					assert.Equal(t, strconv.FormatInt(want.StateChanges, 10), get(r, protocol.KeyNumStateChanges), "seed %d", seed)
				}
			})
		}
	}
}

// didGame tests its roles' moves by name, positively and negated, beside
// a does literal whose role is a variable: the compiled program tests a
// named role's move by the joint move (Engine.Did).
const didGame = "(role white)\n(role black)\n(init (n 0))\n" +
	"(succ 0 1)\n(succ 1 2)\n(succ 2 3)\n(succ 3 4)\n" +
	"(<= (legal ?r a) (role ?r) (not (true (n 4))))\n(<= (legal ?r b) (role ?r) (not (true (n 4))))\n" +
	"(<= (next (n ?m)) (true (n ?k)) (succ ?k ?m))\n" +
	"(<= (next (same ?k)) (true (n ?k)) (does white ?x) (does black ?x))\n" +
	"(<= (next wa) (does white a) (not (does black a)))\n" +
	"(<= (next bb) (does black b))\n" +
	"(<= (next (moved ?r ?m)) (does ?r ?m))\n" +
	"(<= (next (kept ?f)) (true wa) (not (does white b)) (true (same ?f)))\n" +
	"(<= terminal (true (n 4)))\n" +
	"(<= (goal white 100) (true wa))\n(<= (goal white 0) (not (true wa)))\n" +
	"(<= (goal black 100) (true bb))\n(<= (goal black 0) (not (true bb)))\n"

func TestDid(t *testing.T) {
	tg := sourceGame(t, "did.kif", didGame)
	prog, err := compiled.Native(tg.game, tg.rules)
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(prog.Path), "bu", "rules*.go"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var code strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		code.Write(b)
	}
	for _, want := range []string{"E.Did(0, ", "E.Did(1, ", "!(E.Did(1, ", "!(E.Did(0, "} {
		assert.Contains(t, code.String(), want)
	}
	for seed := range uint64(4) {
		sameTrace(t, proverTrace(t, tg.game, seed, 8), programTrace(t, prog, tg.path, seed, 8))
	}
}
