package results

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMerge(t *testing.T) {
	rows := sampleRows(12)
	retry := rows[3] // same run and machine, different content: a retried failure
	retry.Status, retry.ErrorMessage, retry.StartTime = StatusOK, "", "2026-01-03T00:00:00Z"
	otherMachine := rows[4]
	otherMachine.Machine, otherMachine.Host = "ffffffffffff", "node2"

	tests := []struct {
		name           string
		files          map[string][]Row // name -> rows, written into one folder
		inputs         []string         // relative to the folder; "." is the folder
		wantRead       int
		wantDuplicates int
		wantConflicts  int
		want           []Row // sorted
	}{
		{
			name:     "two shards",
			files:    map[string][]Row{"shard-1.csv": rows[:6], "shard-2.csv": rows[6:]},
			inputs:   []string{"shard-2.csv", "shard-1.csv"},
			wantRead: 12,
			want:     rows,
		},
		{
			name:           "overlap and duplicates",
			files:          map[string][]Row{"a.csv": rows[:8], "b.csv": append(slices.Clone(rows[5:]), rows[0])},
			inputs:         []string{"a.csv", "b.csv"},
			wantRead:       16,
			wantDuplicates: 4,
			want:           rows,
		},
		{
			name:     "a folder",
			files:    map[string][]Row{"a.csv": rows[:5], "b.csv": rows[5:]},
			inputs:   []string{"."},
			wantRead: 12,
			want:     rows,
		},
		{
			name:     "a file named twice is read once",
			files:    map[string][]Row{"a.csv": rows[:5], "b.csv": rows[5:]},
			inputs:   []string{".", "a.csv"},
			wantRead: 12,
			want:     rows,
		},
		{
			name:          "retries and other machines are kept",
			files:         map[string][]Row{"a.csv": rows, "b.csv": {retry, otherMachine}},
			inputs:        []string{"a.csv", "b.csv"},
			wantRead:      14,
			wantConflicts: 1,
			want:          append(slices.Clone(rows), retry, otherMachine),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in")
			require.NoError(t, os.Mkdir(in, 0o755))
			for name, rs := range tt.files {
				writeFile(t, in, name, rs...)
			}
			var inputs []string
			for _, i := range tt.inputs {
				inputs = append(inputs, filepath.Join(in, i))
			}
			out := filepath.Join(dir, "out", "merged.csv")
			st, err := Merge(inputs, out)
			require.NoError(t, err)
			assert.Equal(t, tt.wantRead, st.RowsRead)
			assert.Equal(t, tt.wantDuplicates, st.Duplicates)
			assert.Equal(t, tt.wantConflicts, st.Conflicts)
			assert.Equal(t, len(tt.want), st.Written)
			assert.Len(t, st.Files, len(tt.files))

			got, err := Load(out)
			require.NoError(t, err)
			want := slices.Clone(tt.want)
			SortRows(want)
			assert.Equal(t, want, got)
			first := readString(t, out)

			// Idempotent: again, with the output among the inputs, the
			// output alone, and into a folder input.
			_, err = Merge(inputs, out)
			require.NoError(t, err)
			assert.Equal(t, first, readString(t, out), "merging twice")
			_, err = Merge(append([]string{out}, inputs...), out)
			require.NoError(t, err)
			assert.Equal(t, first, readString(t, out), "merging the output with its inputs")
			out2 := filepath.Join(dir, "out", "again.csv")
			st2, err := Merge([]string{out}, out2)
			require.NoError(t, err)
			assert.Zero(t, st2.Duplicates)
			assert.Equal(t, first, readString(t, out2), "merging the output alone")
			inside := filepath.Join(in, "all.csv")
			_, err = Merge(inputs, inside)
			require.NoError(t, err)
			_, err = Merge([]string{in}, inside)
			require.NoError(t, err)
			assert.Equal(t, first, readString(t, inside), "output inside an input folder")

			// The order of the inputs does not matter.
			rev := slices.Clone(inputs)
			slices.Reverse(rev)
			out3 := filepath.Join(dir, "out", "reversed.csv")
			_, err = Merge(rev, out3)
			require.NoError(t, err)
			assert.Equal(t, first, readString(t, out3), "inputs in another order")

			leftovers, err := filepath.Glob(filepath.Join(dir, "out", "*.tmp"))
			require.NoError(t, err)
			assert.Empty(t, leftovers, "no temporary files left")
		})
	}
}

func TestMergeSortOrder(t *testing.T) {
	mk := func(game, engine, version string, rep int, key, machine, start string) Row {
		return Row{GameKey: game, Engine: engine, EngineVersion: version, Repetition: rep, RunKey: key, Machine: machine, StartTime: start, Status: StatusOK}
	}
	want := []Row{ // sorted
		mk("A/a/1", "propnet", "1", 0, "k0", "m", "t"),
		mk("A/a/1", "prover", "1", 0, "k1", "m", "t"),
		mk("A/a/1", "prover", "1", 1, "k0", "m", "t"),
		mk("A/a/1", "prover", "2", 0, "k0", "m", "t"),
		mk("A/b/1", "prover", "1", 0, "k0", "m", "t"),
		mk("A/b/1", "prover", "1", 0, "k1", "m", "t"),
		mk("A/b/1", "prover", "1", 0, "k1", "n", "t"),
		mk("A/b/1", "prover", "1", 0, "k1", "n", "u"),
		mk("A/b/1", "prover", "1", 0, "k1", "n", "u"), // differs in a later column only
	}
	want[len(want)-1].Status = StatusWrong // "ok" < "wrong" in the records
	dir := t.TempDir()
	shuffled := slices.Clone(want)
	slices.Reverse(shuffled)
	in := writeFile(t, dir, "in.csv", shuffled...)
	out := filepath.Join(dir, "out.csv")
	_, err := Merge([]string{in}, out)
	require.NoError(t, err)
	got, err := Load(out)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", sampleRow(0))
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("x;y;z;true;;1;2;3\n"), 0o644))
	tests := []struct {
		name   string
		inputs []string
		want   string
	}{
		{name: "no inputs", want: "no input"},
		{name: "missing input", inputs: []string{good, filepath.Join(dir, "missing.csv")}, want: "missing.csv"},
		{name: "foreign file", inputs: []string{good, bad}, want: "not a gdlperf results file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out.csv")
			_, err := Merge(tt.inputs, out)
			if tt.inputs == nil {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				return
			}
			// The same with the (not yet existing) output among the inputs.
			_, err = Merge(append([]string{out}, tt.inputs...), out)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NoFileExists(t, out, "nothing written on error")
		})
	}
}

func TestMergeOutputAsInputOnFirstMerge(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "a.csv", sampleRow(0))
	out := filepath.Join(dir, "merged.csv")
	st, err := Merge([]string{out, in}, out)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Written)
	assert.Equal(t, []string{in}, st.Files)
}

func TestMergeWarnsAboutTornLines(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.csv", sampleRow(0))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("run9,BASE/")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	st, err := Merge([]string{p}, filepath.Join(dir, "out.csv"))
	require.NoError(t, err)
	assert.Equal(t, 1, st.Written)
	require.Len(t, st.Warnings, 1)
	assert.Contains(t, st.Warnings[0], "a.csv")
}

func TestMissing(t *testing.T) {
	row := func(game, engine, status string) Row {
		return Row{GameKey: game, Engine: engine, Status: status}
	}
	rows := []Row{
		row("g1", "e1", StatusOK), row("g1", "e1", StatusOK),
		row("g1", "e2", StatusOK), row("g1", "e2", StatusCrash),
		row("g2", "e1", StatusTimeout),
	}
	tests := []struct {
		name    string
		games   []string
		engines []string
		reps    int
		want    []Cell
	}{
		{
			name: "cells seen in the rows",
			reps: 2,
			want: []Cell{
				{Game: "g1", Engine: "e2", OK: 1, Runs: 2},
				{Game: "g2", Engine: "e1", OK: 0, Runs: 1},
				{Game: "g2", Engine: "e2"},
			},
		},
		{name: "one rep is enough", reps: 1, want: []Cell{{Game: "g2", Engine: "e1", Runs: 1}, {Game: "g2", Engine: "e2"}}},
		{
			name:    "the campaign's games and engines",
			games:   []string{"g3", "g1", "g1"},
			engines: []string{"e1"},
			reps:    2,
			want:    []Cell{{Game: "g3", Engine: "e1"}},
		},
		{name: "nothing asked", games: []string{}, reps: 5, want: nil},
		{name: "zero reps", reps: 0, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Missing(rows, tt.games, tt.engines, tt.reps))
		})
	}
}
