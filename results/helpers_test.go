package results

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// sampleRow is a plausible row of run i.
func sampleRow(i int) Row {
	games := []string{"BASE/ticTacToe/JRFsaQ", "BASE/connectFour/WAIKTw", "BASE/hex/T1MK8g"}
	engines := []string{"prover", "propnet"}
	status := StatusOK
	msg := ""
	if i%7 == 3 {
		status, msg = StatusError, fmt.Sprintf("no legal move for xplayer in run %d", i)
	}
	return Row{
		RunKey:            fmt.Sprintf("run%06d", i),
		GameKey:           games[i%len(games)],
		Engine:            engines[(i/len(games))%len(engines)],
		EngineVersion:     "1.0",
		Repetition:        i / (len(games) * len(engines)),
		Status:            status,
		ErrorMessage:      msg,
		StartTime:         fmt.Sprintf("2026-01-02T03:%02d:%02dZ", (i/60)%60, i%60),
		Mode:              "time",
		TargetSeconds:     30,
		MillisecondsTaken: 30000 + int64(i%5),
		StateChanges:      1000000 + int64(i)*17,
		Rollouts:          50000 + int64(i),
		InitMilliseconds:  120,
		PeakRSSKiB:        40960,
		UserCPUMs:         29950,
		SystemCPUMs:       40,
		WallMs:            30200,
		GOMAXPROCS:        1,
		Seed:              uint64(i)*0x9E3779B97F4A7C15 + 1,
		Shard:             "",
		Host:              "node1",
		Machine:           "a1b2c3d4e5f6",
		CPUModel:          "AMD EPYC 7B13 64-Core Processor",
		Governor:          "performance",
		LoadAverage:       "0.05",
		GoVersion:         "go1.26.0",
		Kernel:            "6.1.0-18-amd64",
	}
}

func sampleRows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = sampleRow(i)
	}
	return rows
}

// encoded is the CSV text of rows, without header.
func encoded(t testing.TB, rows ...Row) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, encodeRows(&buf, rows))
	return buf.String()
}

// writeFile writes a results file of rows (header first) into dir.
func writeFile(t testing.TB, dir, name string, rows ...Row) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(string(headerLine)+encoded(t, rows...)), 0o644))
	return path
}

func readString(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
