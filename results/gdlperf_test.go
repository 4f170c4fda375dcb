package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const gdlPerf2016 = "../../shared/reference/gdlperf-results-2016"

func TestImportGdlPerfRealFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(gdlPerf2016, "*", "*"))
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skip("no gdl-perf results at", gdlPerf2016)
	}
	total, ok := 0, 0
	byFile := map[string][]Row{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		lines := bytes.Count(data, []byte("\n"))
		rows, errs := ImportGdlPerf(bytes.NewReader(data), "")
		require.Empty(t, errs, f)
		require.Len(t, rows, lines, "every line of %s is a row", f)
		keys := map[string]bool{}
		for _, r := range rows {
			assert.False(t, keys[r.RunKey], "run key %s twice in %s", r.RunKey, f)
			keys[r.RunKey] = true
			assert.Equal(t, DefaultImportSource, r.Machine)
			if r.Status == StatusOK {
				ok++
				assert.Empty(t, r.ErrorMessage)
			} else {
				assert.NotEmpty(t, r.ErrorMessage)
			}
		}
		total += len(rows)
		byFile[filepath.Base(f)] = rows
	}
	assert.Equal(t, 8392, total, "lines in the 15 files")
	assert.Equal(t, 7903, ok, "lines with ok=true")

	prop := byFile["ALLOY_DIFF_PROP_NET.csv"]
	require.Len(t, prop, 557)
	first := prop[0]
	assert.Equal(t, "DRESDEN/racetrackcorridor/O0DoTA", first.GameKey)
	assert.Equal(t, "ALLOY_DIFF_PROP_NET", first.Engine)
	assert.Equal(t, "1", first.EngineVersion)
	assert.Equal(t, StatusOK, first.Status)
	assert.Equal(t, int64(30000), first.MillisecondsTaken)
	assert.Equal(t, int64(1738737), first.StateChanges)
	assert.Equal(t, int64(98009), first.Rollouts)
	assert.Equal(t, 30, first.TargetSeconds)
	assert.Equal(t, "time", first.Mode)
	assert.Equal(t, 0, first.Repetition)
	assert.InDelta(t, 57957.9, first.StatesPerSecond(), 0.1)
	assert.True(t, strings.HasPrefix(first.RunKey, "gdlperf:"), first.RunKey)

	npe := prop[3]
	assert.Equal(t, "DRESDEN/uf20-01.cnf.SAT/42Rs8A", npe.GameKey)
	assert.Equal(t, StatusError, npe.Status)
	assert.Equal(t, "Exception of type NullPointerException", npe.ErrorMessage)
	assert.Zero(t, npe.TargetSeconds, "ms 0: target unknown")

	blotto := byFile["PALAMEDES_JAVA_PROVER_USEOPT_FALSE.csv"][128] // line 129
	assert.Equal(t, "BASE/colonelBlotto/jip21A", blotto.GameKey)
	assert.Equal(t, int64(217000), blotto.MillisecondsTaken)
	assert.Zero(t, blotto.TargetSeconds, "217 s is not about 30 s")

	kono := byFile["ALLOY_TUPLE_PROVER.csv"][269] // line 270
	assert.Equal(t, "STANFORD/kono/HI7CHA", kono.GameKey)
	assert.True(t, strings.HasPrefix(kono.ErrorMessage, "GameDescriptionException: There are no legal moves defined for black in [( true ( cell 1 1 black ) ), "), kono.ErrorMessage)
}

func TestImportGdlPerf(t *testing.T) {
	tests := []struct {
		name             string
		input            string
		want             []Row // RunKey, Host and Machine not compared
		wantErrs         []string
		wantReps         []int
		wantDistinctKeys bool
	}{
		{
			name:  "ok and error",
			input: "BASE/ticTacToe/JRFsaQ;PROVER;1.0;true;;30002;1000;100\nBASE/hex/T1MK8g;PROVER;1.0;false;Test process timed out after 240 seconds;0;0;0\n",
			want: []Row{
				{GameKey: "BASE/ticTacToe/JRFsaQ", Engine: "PROVER", EngineVersion: "1.0", Status: StatusOK, Mode: "time", TargetSeconds: 30, MillisecondsTaken: 30002, StateChanges: 1000, Rollouts: 100},
				{GameKey: "BASE/hex/T1MK8g", Engine: "PROVER", EngineVersion: "1.0", Status: StatusError, ErrorMessage: "Test process timed out after 240 seconds", Mode: "time"},
			},
		},
		{
			name:  "error message with semicolons",
			input: "G/g/h;E;1;false;a;b;;c;;0;0;0\n",
			want:  []Row{{GameKey: "G/g/h", Engine: "E", EngineVersion: "1", Status: StatusError, ErrorMessage: "a;b;;c;", Mode: "time"}},
		},
		{
			name:     "CRLF, blank lines, no final newline",
			input:    "G/g/h;E;1;true;;29500;5;1\r\n\r\n   \nG/g/h;E;1;true;;31000;6;1",
			wantReps: []int{0, 1},
		},
		{
			name:             "identical lines are repetitions with distinct keys",
			input:            "G/g/h;E;1;true;;30000;5;1\nG/g/h;E;2;true;;30000;5;1\nG/g/h;E;1;true;;30000;5;1\nG/g/h;E;1;true;;30000;5;1\n",
			wantReps:         []int{0, 0, 1, 2},
			wantDistinctKeys: true,
		},
		{
			name:     "bad lines are reported, good ones kept",
			input:    "G/g/h;E;1;true;;30000;5;1\nonly;three;fields\nG/g/h;E;1;maybe;;1;1;1\nG/g/h;E;1;true;;-5;1;1\nG/g/h;E;1;true;;30000;5;x\n;E;1;true;;1;1;1\nG/g/h;E;1;true;;30000;7;1\n",
			wantErrs: []string{"src:2: 3 fields", "src:3: ok field is \"maybe\"", "src:4: ms is \"-5\"", "src:5: rollouts is \"x\"", "src:6: empty game"},
			wantReps: []int{0, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, errs := ImportGdlPerf(strings.NewReader(tt.input), "src")
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			require.Len(t, msgs, len(tt.wantErrs), "%q", msgs)
			for i, w := range tt.wantErrs {
				assert.Contains(t, msgs[i], w)
			}
			again, _ := ImportGdlPerf(strings.NewReader(tt.input), "src")
			assert.Equal(t, rows, again, "deterministic")
			keys := map[string]bool{}
			for _, r := range rows {
				assert.Equal(t, "src", r.Host)
				assert.Equal(t, "src", r.Machine)
				assert.Regexp(t, `^gdlperf:[0-9a-f]{16}(#\d+)?$`, r.RunKey)
				keys[r.RunKey] = true
			}
			if tt.wantDistinctKeys {
				assert.Len(t, keys, len(rows))
			}
			if tt.want != nil {
				for i := range rows {
					rows[i].RunKey, rows[i].Host, rows[i].Machine = "", "", ""
				}
				assert.Equal(t, tt.want, rows)
			}
			if tt.wantReps != nil {
				var reps []int
				for _, r := range rows {
					reps = append(reps, r.Repetition)
				}
				assert.Equal(t, tt.wantReps, reps)
			}
		})
	}
}

func TestImportedRowsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(gdlPerf2016, "*", "ALLOY_TUPLE_PROVER.csv"))
	if len(files) == 0 {
		t.Skip("no gdl-perf results at", gdlPerf2016)
	}
	f, err := os.Open(files[0])
	require.NoError(t, err)
	defer f.Close()
	rows, errs := ImportGdlPerf(f, "")
	require.Empty(t, errs)
	path := filepath.Join(t.TempDir(), "imported.csv")
	w, err := OpenWriter(path)
	require.NoError(t, err)
	require.NoError(t, w.AppendRows(rows))
	require.NoError(t, w.Close())
	got, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}
