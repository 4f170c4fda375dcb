package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CleanLeftovers undoes what a harness killed with SIGKILL left behind:
// the processes of its runs and its folders, and nothing of a live one.
func TestCleanLeftovers(t *testing.T) {
	root := t.TempDir()
	// A harness that is gone: a process that ran and was waited for.
	gone := exec.Command("true")
	require.NoError(t, gone.Start())
	goneStart, ok := processStart(gone.Process.Pid)
	require.True(t, ok)
	require.NoError(t, gone.Wait())

	const token = "0123456789abcdef"
	sleeper := func(env ...string) *exec.Cmd {
		c := exec.Command("sleep", "100")
		c.Env = append(os.Environ(), env...)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		require.NoError(t, c.Start())
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	recorded := sleeper()                         // in the dead run's record
	tokened := sleeper(runTokenVar + "=" + token) // carries the dead run's token
	innocent := sleeper()                         // recorded, but with another start time: a reused pid
	recStart, ok := processStart(recorded.Process.Pid)
	require.True(t, ok)
	innStart, ok := processStart(innocent.Process.Pid)
	require.True(t, ok)
	self, ok := processStart(os.Getpid())
	require.True(t, ok)

	folder := func(name, owner string, age time.Duration) string {
		dir := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "tmp"), 0o755))
		if owner != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o644))
		}
		if age > 0 {
			old := time.Now().Add(-age)
			require.NoError(t, os.Chtimes(dir, old, old))
		}
		return dir
	}
	dead := folder("gdlperf-child-1", fmt.Sprintf("pid %d %d\ntoken %s\nproc %d %d\nproc %d %d\n",
		gone.Process.Pid, goneStart, token, recorded.Process.Pid, recStart, innocent.Process.Pid, innStart+1), 0)
	reused := folder("gdlperf-run-2", fmt.Sprintf("pid %d %d\n", os.Getpid(), self+1), 0)
	live := folder("gdlperf-run-3", "", 0)
	require.NoError(t, MarkOwner(live))
	old := folder("gdlperf-compat-4", "", 48*time.Hour)
	young := folder("gdlperf-run-5", "", time.Hour)
	other := folder("gdlperf-old", "", 48*time.Hour) // a user's, not a temp folder
	mine := folder("gdlperf-run-mine", fmt.Sprintf("pid %d %d\n", gone.Process.Pid, goneStart), 0)
	// Another campaign has just made its folder and not yet written its
	// owner file: an owner that cannot be read is no dead owner.
	beingMade := folder("gdlperf-child-6", " ", 0)

	killed, removed, err := CleanLeftovers(root)
	require.NoError(t, err)
	assert.Equal(t, 2, killed)
	assert.Equal(t, 3, removed)
	for _, d := range []string{dead, reused, old} {
		assert.NoDirExists(t, d)
	}
	for _, d := range []string{live, young, other, mine, beingMade} {
		assert.DirExists(t, d)
	}
	for _, c := range []*exec.Cmd{recorded, tokened} {
		err := c.Wait()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, syscall.SIGKILL, ee.Sys().(syscall.WaitStatus).Signal())
	}
	assert.NoError(t, innocent.Process.Signal(syscall.Signal(0)), "the process with a reused pid lives")

	// A second start finds nothing more to do.
	killed, removed, err = CleanLeftovers(root)
	require.NoError(t, err)
	assert.Zero(t, killed)
	assert.Zero(t, removed)
}

// A run's own folder names the harness and records the run's processes.
func TestRunFolderRecord(t *testing.T) {
	f, err := newRunFolder(t.TempDir())
	require.NoError(t, err)
	f.record(1234, 5678)
	o, err := readOwner(f.dir)
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), o.pid)
	assert.Equal(t, f.token, o.token)
	assert.Equal(t, [][2]uint64{{1234, 5678}}, o.procs)
	f.remove()
	assert.NoDirExists(t, f.dir)
}

// TestHelperHarness is not a test: TestLeftoversOfAKilledHarness runs the
// test binary with it as a harness in the middle of a run, then kills it.
func TestHelperHarness(t *testing.T) {
	root := os.Getenv("GDLPERF_TEST_HARNESS")
	if root == "" {
		t.Skip("a helper process of TestLeftoversOfAKilledHarness")
	}
	e := &Engine{Name: "fake", Version: "1", Command: []string{"/bin/sh", "-c",
		`setsid sh -c 'echo $$ > "$0"; while :; do sleep 1; done' "$1" & sleep 100`, "engine", filepath.Join(root, "pid")}}
	RunChild(t.Context(), e, nil, filepath.Join(root, "result.txt"), ChildOptions{Limit: time.Minute, CPU: -1, TempRoot: root})
}

// A harness killed with SIGKILL leaves its run's processes (those that left
// the session survive it) and folder; the next CleanLeftovers kills and
// removes them.
func TestLeftoversOfAKilledHarness(t *testing.T) {
	root := t.TempDir()
	h := exec.Command(os.Args[0], "-test.run=^TestHelperHarness$", "-test.count=1")
	h.Env = append(os.Environ(), "GDLPERF_TEST_HARNESS="+root)
	require.NoError(t, h.Start())
	defer h.Process.Kill()
	var pid int
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(filepath.Join(root, "pid"))
		if _, err := fmt.Sscan(string(b), &pid); err == nil {
			dirs, _ := filepath.Glob(filepath.Join(root, childPrefix+"*"))
			if len(dirs) == 1 {
				if o, err := readOwner(dirs[0]); err == nil && recorded(o, pid) {
					break
				}
			}
		}
		pid = 0
		time.Sleep(20 * time.Millisecond)
	}
	require.NotZero(t, pid, "the helper harness recorded no grandchild")
	start, ok := processStart(pid)
	require.True(t, ok)
	require.NoError(t, h.Process.Kill())
	h.Wait()
	require.True(t, alive(pid, start), "the grandchild survives the harness")

	killed, removed, err := CleanLeftovers(root)
	require.NoError(t, err)
	// The grandchild and the engine's sleep 100 (in its process group,
	// which the engine's death did not kill), perhaps a sleep 1.
	assert.GreaterOrEqual(t, killed, 2)
	assert.Equal(t, 1, removed)
	// Reaped by its new parent: us (a subreaper) or init.
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, 0, nil)
	assert.Eventually(t, func() bool {
		st, ok := processStart(pid)
		if !ok || st != start {
			return true
		}
		return !alive(pid, start)
	}, 5*time.Second, 10*time.Millisecond, "the grandchild %d is dead", pid)
}

func recorded(o owner, pid int) bool {
	for _, p := range o.procs {
		if int(p[0]) == pid {
			return true
		}
	}
	return false
}
