package harness

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/results"
)

// With two jobs, a campaign runs two engine processes at once, each pinned
// to a CPU of its own, and writes the rows of the same runs as with one job.
func TestCampaignJobsRunTheSameRunsAtOnce(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	// Each run logs its start and end (nanoseconds) and the CPUs it may use.
	body := `echo "start $(date +%s%N) $(grep Cpus_allowed_list /proc/self/status | cut -f2)" >> ` + log + `
sleep 0.3
echo "end $(date +%s%N)" >> ` + log + `
` + fastBody
	engs := []*Engine{scriptEngine(t, "a", body), scriptEngine(t, "b", body)}
	o := Options{Seconds: 1, Repetitions: 2, Seed: 1}
	games := testGames(2)

	one, w1, _ := campaign(t, games, engs, o)
	one.SkipCompat = true
	_, err := one.Execute(context.Background())
	require.NoError(t, err)
	require.NoError(t, os.Remove(log))

	two, w2, _ := campaign(t, games, engs, o)
	two.SkipCompat, two.CPUs = true, []int{0, 1}
	if n := len(allowedCPUs(t)); n < 2 {
		two.CPUs = []int{0, 0} // one CPU: still two processes at once
	}
	sum, err := two.Execute(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 8, sum.Ran)

	assert.ElementsMatch(t, keys(w1.rows), keys(w2.rows), "the same runs")
	cpus := map[string]int{}
	for _, r := range w2.rows {
		assert.Equal(t, results.StatusOK, r.Status, r.ErrorMessage)
		assert.Equal(t, 2, r.Jobs)
		cpus[r.CPU]++
	}
	assert.Len(t, cpus, len(uniq(two.CPUs)), "rows name the CPU they ran on: %v", cpus)

	// Two runs overlapped in time, and each was pinned to one CPU.
	text, err := os.ReadFile(log)
	require.NoError(t, err)
	type event struct {
		t     int64
		start bool
	}
	var events []event
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 2, line)
		ns, err := strconv.ParseInt(f[1], 10, 64)
		require.NoError(t, err)
		events = append(events, event{ns, f[0] == "start"})
		if f[0] == "start" {
			require.Len(t, f, 3, line)
			assert.NotContains(t, f[2], ",", "pinned to one CPU: %s", line)
			assert.NotContains(t, f[2], "-", "pinned to one CPU: %s", line)
		}
	}
	sort.Slice(events, func(i, j int) bool { return events[i].t < events[j].t })
	running, most := 0, 0
	for _, e := range events {
		if e.start {
			running++
		} else {
			running--
		}
		most = max(most, running)
	}
	assert.Equal(t, 2, most, "two engine processes ran at once")
}

// Ctrl-C with two jobs running stops both engine processes: none is left,
// and no row of an interrupted run is written.
func TestCampaignJobsInterrupted(t *testing.T) {
	// A copy of sleep under a name of its own, to find its processes by.
	marker := filepath.Join(t.TempDir(), "gdlperf-jobs-test-sleep")
	sleep, err := os.ReadFile("/bin/sleep")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(marker, sleep, 0o755))
	e := scriptEngine(t, "slow", marker+" 60")
	c, w, _ := campaign(t, testGames(2), []*Engine{e}, Options{Seconds: 1, Seed: 1})
	c.SkipCompat, c.CPUs = true, []int{0, 0}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && len(processesNamed(t, marker)) < 2 {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	sum, err := c.Execute(ctx)
	assert.ErrorIs(t, err, ErrInterrupted)
	assert.True(t, sum.Interrupted)
	assert.Empty(t, w.rows)
	assert.Empty(t, processesNamed(t, marker), "no engine process is left")
}

func keys(rows []results.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.RunKey)
	}
	return out
}

func uniq(xs []int) map[int]bool {
	m := map[int]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func allowedCPUs(t *testing.T) []int {
	m, err := getAffinity()
	require.NoError(t, err)
	var out []int
	for i := range len(m) * 64 {
		if m[i/64]&(1<<(i%64)) != 0 {
			out = append(out, i)
		}
	}
	return out
}

// processesNamed lists the pids whose command line starts with name.
func processesNamed(t *testing.T, name string) []int {
	ents, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(b), name) {
			pids = append(pids, pid)
		}
	}
	return pids
}
