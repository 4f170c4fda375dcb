package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr string
	}{
		{in: "0", want: []int{0}},
		{in: "0-3,8,10-11", want: []int{0, 1, 2, 3, 8, 10, 11}},
		{in: "3,1,1,2", want: []int{1, 2, 3}},
		{in: "2-1", wantErr: "not a CPU number or a range"},
		{in: "x", wantErr: "not a CPU number"},
		{in: "", wantErr: "names no CPU"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseCPUList(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, must(ParseCPUList(FormatCPUList(got))), "FormatCPUList writes what ParseCPUList reads")
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// SMT siblings share a core: one logical CPU per core is kept.
func TestOnePerCore(t *testing.T) {
	sys := t.TempDir()
	// Two cores with two threads each: (0,2) and (1,3); CPU 4 has no topology.
	for cpu, sib := range map[string]string{"0": "0,2", "1": "1,3", "2": "0,2", "3": "1,3"} {
		dir := filepath.Join(sys, "cpu"+cpu, "topology")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "thread_siblings_list"), []byte(sib+"\n"), 0o644))
	}
	assert.Equal(t, []int{0, 1, 4}, onePerCore([]int{0, 1, 2, 3, 4}, sys))
	assert.Equal(t, []int{2, 3}, onePerCore([]int{2, 3}, sys))
}

func TestJobCPUs(t *testing.T) {
	allowed, err := AllowedCPUs()
	require.NoError(t, err)
	cores := OnePerCore(allowed)
	got, err := JobCPUs(0, nil)
	require.NoError(t, err)
	assert.Equal(t, cores, got, "--jobs 0: one job per physical core")
	got, err = JobCPUs(1, nil)
	require.NoError(t, err)
	assert.Equal(t, cores[:1], got)
	_, err = JobCPUs(len(cores)+1, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "every job needs a CPU of its own")
	_, err = JobCPUs(1, []int{1000})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not one this process may use")
}
