package results

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// exportRows has two machines, an imported row without fingerprint, names
// that need escaping and rows that are not exported.
func exportRows() []Row {
	a := sampleRow(0) // ticTacToe, prover, machine a1b2...
	a2 := sampleRow(6)
	a2.GameKey, a2.Engine = a.GameKey, a.Engine // a second repetition
	b := sampleRow(1)
	b.Machine, b.Host, b.CPUModel, b.Governor = "0000deadbeef", "node2", "Intel(R) Xeon(R)\tGold 6248", "unknown"
	b.Engine, b.EngineVersion, b.GOMAXPROCS = "my engine/v2", "2015-04-26", 4
	imported := Row{
		RunKey: "gdlperf:0123456789abcdef", GameKey: "DRESDEN/racetrackcorridor/O0DoTA", Engine: "ALLOY_DIFF_PROP_NET",
		EngineVersion: "2015-04-26", Status: StatusOK, Mode: "time", TargetSeconds: 30,
		MillisecondsTaken: 30000, StateChanges: 1738737, Rollouts: 98009, Host: DefaultImportSource, Machine: DefaultImportSource,
	}
	failed := sampleRow(3) // status error
	empty := sampleRow(2)
	empty.StateChanges = 0 // an ok run without a rate
	return []Row{imported, b, failed, a2, empty, a}
}

func TestExportBenchParsesWithBenchfmt(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, ExportBench(&buf, exportRows()))

	type result struct {
		name   string
		config map[string]string
		iters  int
		values map[string]float64
	}
	var got []result
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "export.txt")
	var units benchfmt.UnitMetadataMap
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.UnitMetadata:
		case *benchfmt.Result:
			res := result{name: rec.Name.String(), config: map[string]string{}, iters: rec.Iters, values: map[string]float64{}}
			for _, c := range rec.Config {
				res.config[c.Key] = string(c.Value)
			}
			for _, v := range rec.Values {
				res.values[v.Unit] = v.Value
			}
			got = append(got, res)
		}
	}
	require.NoError(t, r.Err())
	units = r.Units()
	assert.Equal(t, 1, units.GetBetter("states/s"))
	require.Len(t, got, 4, "the ok rows with a rate")

	// Machines in order of their id: 0000deadbeef, a1b2c3d4e5f6, gdl-perf-2016.
	b := got[0]
	assert.Equal(t, "Game/game=BASE:connectFour:WAIKTw/engine=my_engine:v2/version=2015-04-26-4", b.name)
	base, parts := benchfmt.Name(b.name).Parts()
	assert.Equal(t, "Game", string(base))
	assert.Equal(t, []string{"/game=BASE:connectFour:WAIKTw", "/engine=my_engine:v2", "/version=2015-04-26", "-4"}, bytesToStrings(parts))
	assert.Equal(t, map[string]string{
		"goos": "linux", "cpu": "Intel(R) Xeon(R) Gold 6248", "kernel": "6.1.0-18-amd64",
		"goversion": "go1.26.0", "host": "node2", "machine": "0000deadbeef",
	}, b.config, "governor unknown: left out")

	a := got[1]
	assert.Equal(t, "Game/game=BASE:ticTacToe:JRFsaQ/engine=prover/version=1.0-1", a.name)
	assert.Equal(t, "AMD EPYC 7B13 64-Core Processor", a.config["cpu"])
	assert.Equal(t, "performance", a.config["governor"])
	row := sampleRow(0)
	assert.Equal(t, int(row.StateChanges), a.iters)
	assert.InDelta(t, float64(row.MillisecondsTaken)*1e-3/float64(row.StateChanges), a.values["sec/op"], 1e-9, "ns/op is tidied to sec/op")
	assert.InDelta(t, row.StatesPerSecond(), a.values["states/s"], 1)
	assert.Equal(t, got[2].name, a.name, "a second repetition is a second sample")

	imp := got[3]
	assert.Equal(t, "Game/game=DRESDEN:racetrackcorridor:O0DoTA/engine=ALLOY_DIFF_PROP_NET/version=2015-04_26", imp.name, "no GOMAXPROCS: the date must not read as one")
	_, parts = benchfmt.Name(imp.name).Parts()
	assert.Len(t, parts, 3, "no -procs part")
	assert.Equal(t, map[string]string{"host": DefaultImportSource, "machine": DefaultImportSource}, imp.config, "the previous machine's keys are deleted")
	assert.InDelta(t, 57958, imp.values["states/s"], 0.1)

	golden := filepath.Join("testdata", "export.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), buf.String())
}

func bytesToStrings(b [][]byte) []string {
	s := make([]string, len(b))
	for i := range b {
		s[i] = string(b[i])
	}
	return s
}

func TestBenchValue(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "game key", in: "BASE/ticTacToe/JRFsaQ", want: "BASE:ticTacToe:JRFsaQ"},
		{name: "spaces", in: "a b\tc\nd", want: "a_b_c_d"},
		{name: "empty", in: "", want: "_"},
		{name: "unicode space", in: "a\u00a0b", want: "a_b"},
		{name: "kept", in: "x=1,y-2.ö", want: "x=1,y-2.ö"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, benchValue(tt.in))
		})
	}
}

func TestBenchNumber(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{name: "zero", in: 0, want: "0"},
		{name: "large", in: 1738737.4, want: "1738737"},
		{name: "hundreds", in: 123.456, want: "123.5"},
		{name: "tens", in: 12.3456, want: "12.35"},
		{name: "ones", in: 1.23456, want: "1.235"},
		{name: "small", in: 0.000123456, want: "0.0001235"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, benchNumber(tt.in))
		})
	}
}

func TestExportBenchEmpty(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, ExportBench(&buf, nil))
	assert.Equal(t, "Unit states/s better=higher\n", buf.String())
	assert.False(t, strings.Contains(buf.String(), "Benchmark"))
}
