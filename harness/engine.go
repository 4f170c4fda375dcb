package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines"
)

// Engine is an engine as the harness runs it: a command prefix to which
// GAME_FILE RESULT_FILE SECONDS are appended.
type Engine struct {
	Name    string
	Version string   // expected version; the row records what the engine reports
	Command []string // command prefix
	Dir     string   // working directory ("" = the harness's)
	Env     []string // extra environment, KEY=VALUE
	Builtin bool
	// TraceCommand, when set, is the prefix of the engine's trace command
	// (GAME TRACE --seed S --rollouts N are appended); see gdlperf check.
	TraceCommand []string
	// FixedWork says the engine takes --rollouts N before its arguments.
	FixedWork bool
}

// BuiltinEngines returns the registered engines, run through exe (the
// gdlperf binary) as "exe engine run NAME".
func BuiltinEngines(exe string) []*Engine {
	var out []*Engine
	for _, e := range engines.List() {
		out = append(out, &Engine{
			Name:         e.Name,
			Version:      e.Version,
			Command:      []string{exe, "engine", "run", e.Name},
			TraceCommand: []string{exe, "engine", "trace", e.Name},
			Builtin:      true,
			FixedWork:    true,
		})
	}
	return out
}

// Manifest is the file that describes external engines (JSON):
//
//	{"engines": [{"name": "fluxplayer", "version": "1.1",
//	  "command": ["./start_perf_test.sh"], "dir": "/opt/flux", "env": {"K": "V"}}]}
//
// A gdl-perf start_perf_test.sh engine is a command of one element.
type Manifest struct {
	Engines []ManifestEngine `json:"engines"`
}

// ManifestEngine is one external engine.
type ManifestEngine struct {
	Name      string            `json:"name"`
	Version   string            `json:"version"`
	Command   []string          `json:"command"`
	Dir       string            `json:"dir"`
	Env       map[string]string `json:"env"`
	Trace     []string          `json:"trace"`
	FixedWork bool              `json:"fixedWork"`
}

// LoadManifest reads external engines from a JSON manifest. Relative dirs
// and commands starting with ./ are resolved against the manifest's folder.
func LoadManifest(path string) ([]*Engine, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := filepath.Dir(path)
	seen := map[string]bool{}
	var out []*Engine
	for i, me := range m.Engines {
		if me.Name == "" || len(me.Command) == 0 {
			return nil, fmt.Errorf("%s: engine %d needs a name and a command", path, i+1)
		}
		if strings.ContainsAny(me.Name, "/\\ \t\n,") {
			return nil, fmt.Errorf("%s: engine name %q may not contain spaces, commas or slashes", path, me.Name)
		}
		if seen[me.Name] {
			return nil, fmt.Errorf("%s: engine %s is named twice", path, me.Name)
		}
		seen[me.Name] = true
		e := &Engine{Name: me.Name, Version: me.Version, Dir: me.Dir, FixedWork: me.FixedWork}
		if e.Dir != "" && !filepath.IsAbs(e.Dir) {
			e.Dir = filepath.Join(base, e.Dir)
		}
		e.Command = resolve(me.Command, base, e.Dir)
		if len(me.Trace) > 0 {
			e.TraceCommand = resolve(me.Trace, base, e.Dir)
		}
		var keys []string
		for k := range me.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e.Env = append(e.Env, k+"="+me.Env[k])
		}
		out = append(out, e)
	}
	return out, nil
}

func resolve(cmd []string, base, dir string) []string {
	out := append([]string(nil), cmd...)
	if strings.HasPrefix(out[0], "./") || strings.HasPrefix(out[0], "../") {
		root := base
		if dir != "" {
			root = dir
		}
		out[0] = filepath.Join(root, out[0])
	}
	return out
}
