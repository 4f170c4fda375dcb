package compiled

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeepVersion: the programs of other engine versions leave the cache
// once unused for staleAge; the current version's and recently used ones
// stay, and the current one is marked used.
func TestKeepVersion(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(version string, used time.Time) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, version, "abc"), 0o755))
		f := filepath.Join(dir, version, usedName)
		require.NoError(t, os.WriteFile(f, nil, 0o644))
		require.NoError(t, os.Chtimes(f, used, used))
	}
	mk("old", now.Add(-staleAge-time.Hour))
	mk("recent", now.Add(-staleAge+time.Hour))
	mk("current", now.Add(-30*staleAge))
	// A version folder from before .used files: its own time counts.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ancient"), 0o755))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "ancient"), now.Add(-2*staleAge), now.Add(-2*staleAge)))

	keepVersion(dir, "current", now)

	for v, kept := range map[string]bool{"old": false, "ancient": false, "recent": true, "current": true} {
		_, err := os.Stat(filepath.Join(dir, v))
		assert.Equal(t, kept, err == nil, v)
	}
	st, err := os.Stat(filepath.Join(dir, "current", usedName))
	require.NoError(t, err)
	assert.WithinDuration(t, now, st.ModTime(), time.Second)
}

// TestSweepBuilds: the build folders of builders killed mid-build leave
// the cache after staleBuildAge, unless a builder holds the key's lock.
func TestSweepBuilds(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Join(p, "rt"), 0o755))
		require.NoError(t, os.Chtimes(p, now.Add(-age), now.Add(-age)))
		return p
	}
	dead := mk(".aaaaaaaaaaaaaaaa-build-1", 2*staleBuildAge)
	young := mk(".bbbbbbbbbbbbbbbb-build-2", time.Minute)
	locked := mk(".cccccccccccccccc-build-3", 2*staleBuildAge)
	entry := mk("dddddddddddddddd0000", 2*staleBuildAge)
	for _, k := range []string{"aaaaaaaaaaaaaaaa0000", "cccccccccccccccc0000"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, k+".lock"), nil, 0o644))
	}
	lock, err := os.Open(filepath.Join(dir, "cccccccccccccccc0000.lock"))
	require.NoError(t, err)
	defer lock.Close()
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_EX))

	sweepBuilds(dir, now)

	assert.NoDirExists(t, dead)
	for _, d := range []string{young, locked, entry} {
		assert.DirExists(t, d)
	}
}

// TestChooseDesignSays: the line chooseDesign gives info.txt names the
// design the build's warm-up kept, or says why it kept none (the program
// failed: its last line of stderr; it named no design) and that each run
// then plays its own warm-up; only a design is recorded.
func TestChooseDesignSays(t *testing.T) {
	for _, c := range []struct {
		script, want string
		recorded     bool
	}{
		{"echo 'warm-up: bottom-up: 10 state changes' >&2; echo incremental", "design kept at the build: incremental", true},
		{"echo 'warm-up: bottom-up: 10 state changes' >&2; echo 'compiled: the relations hold too many values' >&2; exit 1",
			"design kept at the build: none (its warm-up failed: exit status 1: compiled: the relations hold too many values); each run plays its own warm-up", false},
		{"echo sideways", `design kept at the build: none (its warm-up named no design: "sideways"); each run plays its own warm-up`, false},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, progName), []byte("#!/bin/sh\n"+c.script+"\n"), 0o755))
		assert.Equal(t, c.want, chooseDesign(dir), c.script)
		_, err := os.Stat(filepath.Join(dir, designName))
		assert.Equal(t, c.recorded, err == nil, "recorded: %s", c.script)
	}
}
