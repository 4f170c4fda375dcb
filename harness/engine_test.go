package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeManifest(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestLoadManifestTOMLAndJSONAgree(t *testing.T) {
	toml := writeManifest(t, "engines.toml", `
# external engines
[[engines]]
name = "fluxplayer"
version = "1.1"
command = "./start_perf_test.sh"
dir = "flux"
env = { JAVA_OPTS = "-Xmx4g", A = "b" }

[[engines]]
name = "cpp"
version = "2"
command = ["/opt/cpp/bin/engine", "--quiet"]
trace = ["/opt/cpp/bin/trace"]
fixedWork = true
`)
	json := writeManifest(t, "engines.json", `{"engines": [
  {"name": "fluxplayer", "version": "1.1", "command": "./start_perf_test.sh", "dir": "flux",
   "env": {"JAVA_OPTS": "-Xmx4g", "A": "b"}},
  {"name": "cpp", "version": "2", "command": ["/opt/cpp/bin/engine", "--quiet"],
   "trace": ["/opt/cpp/bin/trace"], "fixedWork": true}]}`)
	a, err := LoadManifest(toml)
	require.NoError(t, err)
	b, err := LoadManifest(json)
	require.NoError(t, err)
	require.Len(t, a, 2)
	require.Len(t, b, 2)
	flux := filepath.Join(filepath.Dir(toml), "flux")
	assert.Equal(t, &Engine{Name: "fluxplayer", Version: "1.1", Dir: flux,
		Command: []string{filepath.Join(flux, "start_perf_test.sh")},
		Env:     []string{"A=b", "JAVA_OPTS=-Xmx4g"}}, a[0])
	assert.Equal(t, &Engine{Name: "cpp", Version: "2", Command: []string{"/opt/cpp/bin/engine", "--quiet"},
		TraceCommand: []string{"/opt/cpp/bin/trace"}, FixedWork: true}, a[1])
	// The same but for the folder the manifest is in.
	b[0].Dir, b[0].Command = a[0].Dir, a[0].Command
	assert.Equal(t, a, b)
}

func TestLoadManifestErrors(t *testing.T) {
	tests := []struct {
		name, file, text, wantErr string
	}{
		{"toml unknown key", "e.toml", "[[engines]]\nname = \"x\"\ncommand = \"x\"\ncommnad = \"y\"\n", "unknown key engines.commnad"},
		{"toml syntax", "e.toml", "[[engines]]\nname = \"x\n", "e.toml"},
		{"toml bad command", "e.toml", "[[engines]]\nname = \"x\"\ncommand = [1, 2]\n", "array of strings"},
		{"json unknown key", "e.json", `{"engines": [{"name": "x", "command": "y", "cmd": 1}]}`, "unknown field"},
		{"no command", "e.toml", "[[engines]]\nname = \"x\"\n", "needs a name and a command"},
		{"twice", "e.toml", "[[engines]]\nname = \"x\"\ncommand = \"a\"\n[[engines]]\nname = \"x\"\ncommand = \"b\"\n", "named twice"},
		{"bad name", "e.json", `{"engines": [{"name": "a b", "command": "y"}]}`, "may not contain"},
		{"@ in a name", "e.json", `{"engines": [{"name": "a@1", "command": "y"}]}`, "or @"},
		{"one version twice", "e.toml", "[[engines]]\nname = \"x\"\nversion = \"1\"\ncommand = \"a\"\n[[engines]]\nname = \"x\"\nversion = \"1\"\ncommand = \"b\"\n", "engine x version 1 is named twice"},
		{"twice, one without a version", "e.toml", "[[engines]]\nname = \"x\"\nversion = \"1\"\ncommand = \"a\"\n[[engines]]\nname = \"x\"\ncommand = \"b\"\n", "need a version each"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadManifest(writeManifest(t, tt.file, tt.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestDefaultManifest(t *testing.T) {
	dir := t.TempDir()
	assert.Equal(t, "", DefaultManifest(dir))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "engines.json"), []byte(`{}`), 0o644))
	assert.Equal(t, filepath.Join(dir, "engines.json"), DefaultManifest(dir))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "engines.toml"), nil, 0o644))
	assert.Equal(t, filepath.Join(dir, "engines.toml"), DefaultManifest(dir), "TOML first")
}

func TestLoadManifestTwoVersionsOfOneName(t *testing.T) {
	p := writeManifest(t, "engines.toml", `
[[engines]]
name = "tp"
version = "1.0"
command = ["./tp-old"]

[[engines]]
name = "tp"
version = "2.0"
command = ["./tp-new"]
fixedWork = true
`)
	got, err := LoadManifest(p)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "tp@1.0", got[0].ID())
	assert.Equal(t, "tp@2.0", got[1].ID())
	assert.Equal(t, filepath.Join(filepath.Dir(p), "tp-new"), got[1].Command[0])
	assert.True(t, got[1].FixedWork)
	assert.Equal(t, "x", (&Engine{Name: "x"}).ID(), "no version: the name alone")
	// The two versions plan as two engines: distinct run keys, the same
	// seed on each repetition.
	runs := Plan([]*Game{{Key: "G"}}, got, Options{Seconds: 1, Repetitions: 2, Seed: 1})
	require.Len(t, runs, 4)
	keys := map[string]bool{}
	seeds := map[int]map[uint64]bool{}
	for _, r := range runs {
		keys[r.Key] = true
		if seeds[r.Repetition] == nil {
			seeds[r.Repetition] = map[uint64]bool{}
		}
		seeds[r.Repetition][r.Seed] = true
	}
	assert.Len(t, keys, 4)
	assert.Len(t, seeds[0], 1)
	assert.Len(t, seeds[1], 1)
}
