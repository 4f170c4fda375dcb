package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

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
	// Workloads are the workloads beside rollouts the engine runs when
	// given --workload NAME and its budget flags before its arguments
	// (engines/workload/SPEC.md). A run of another workload is skipped
	// with the reason, never run in the wrong mode.
	Workloads []string
}

// ID is how engines are told apart: NAME@VERSION, or NAME when the
// version is empty. A manifest may hold two versions of one name, so maps
// of engines are keyed by ID, never by name alone.
func (e *Engine) ID() string {
	if e.Version == "" {
		return e.Name
	}
	return e.Name + "@" + e.Version
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
			Workloads:    []string{"uct", "pns", "minimax"},
		})
	}
	return out
}

// Manifest is the file that describes external engines, in TOML
// (engines.toml) or JSON (engines.json), with the same keys:
//
//	[[engines]]
//	name = "fluxplayer"
//	version = "1.1"
//	command = "./start_perf_test.sh"      # or a list: ["java", "-jar", "x.jar"]
//	dir = "/opt/flux"                     # working directory (optional)
//	trace = ["./trace.sh"]                # trace command prefix (optional)
//	fixedWork = false                     # takes --rollouts N (optional)
//	workloads = ["uct", "pns"]            # takes --workload NAME and its budget (optional)
//	env = { JAVA_OPTS = "-Xmx4g" }        # extra environment (optional)
//
//	{"engines": [{"name": "fluxplayer", "version": "1.1",
//	  "command": ["./start_perf_test.sh"], "dir": "/opt/flux", "env": {"K": "V"}}]}
//
// The harness appends GAME_FILE RESULT_FILE SECONDS to the command, so a
// gdl-perf start_perf_test.sh engine is a command of one element.
//
// Two entries may share a name when their versions differ (two builds of
// one engine, to compare: gdlperf ab tp@1.0 tp@2.0, gdlperf run --engines
// tp@1.0,tp@2.0); such entries each need a version.
type Manifest struct {
	Engines []ManifestEngine `json:"engines" toml:"engines"`
}

// ManifestEngine is one external engine.
type ManifestEngine struct {
	Name      string            `json:"name" toml:"name"`
	Version   string            `json:"version" toml:"version"`
	Command   Argv              `json:"command" toml:"command"`
	Dir       string            `json:"dir" toml:"dir"`
	Env       map[string]string `json:"env" toml:"env"`
	Trace     Argv              `json:"trace" toml:"trace"`
	FixedWork bool              `json:"fixedWork" toml:"fixedWork"`
	Workloads []string          `json:"workloads" toml:"workloads"`
}

// Argv is a command: a list of arguments, or one string naming a program
// (not split at spaces: a path may hold them).
type Argv []string

// UnmarshalJSON reads a string or a list of strings.
func (a *Argv) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*a = Argv{s}
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return errors.New("a command is a string or a list of strings")
	}
	*a = l
	return nil
}

// UnmarshalTOML reads a string or an array of strings.
func (a *Argv) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*a = Argv{v}
		return nil
	case []any:
		out := make(Argv, 0, len(v))
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("a command is a string or an array of strings, not an array holding %v", x)
			}
			out = append(out, s)
		}
		*a = out
		return nil
	}
	return fmt.Errorf("a command is a string or an array of strings, not %v", v)
}

// ManifestNames are the manifests a command reads from the current folder
// when it is given none, in this order.
var ManifestNames = []string{"engines.toml", "engines.json"}

// DefaultManifest returns the first of ManifestNames that exists in dir,
// or "".
func DefaultManifest(dir string) string {
	for _, n := range ManifestNames {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// ParseManifest decodes a manifest; toml selects the format. name is for
// messages.
func ParseManifest(name string, b []byte, isTOML bool) (*Manifest, error) {
	var m Manifest
	if isTOML {
		md, err := toml.Decode(string(b), &m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if un := md.Undecoded(); len(un) > 0 {
			var keys []string
			for _, k := range un {
				keys = append(keys, k.String())
			}
			return nil, fmt.Errorf("%s: unknown key %s (the keys are name, version, command, dir, env, trace, fixedWork, workloads under [[engines]])", name, strings.Join(keys, ", "))
		}
		return &m, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

// LoadManifest reads external engines from a TOML (.toml) or JSON (.json,
// or any other name) manifest. Relative dirs and commands starting with ./
// or ../ are resolved against the manifest's folder.
func LoadManifest(path string) ([]*Engine, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(path, b, strings.EqualFold(filepath.Ext(path), ".toml"))
	if err != nil {
		return nil, err
	}
	base := filepath.Dir(path)
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	versions := map[string][]string{} // name -> versions so far
	var out []*Engine
	for i, me := range m.Engines {
		if me.Name == "" || len(me.Command) == 0 || me.Command[0] == "" {
			return nil, fmt.Errorf("%s: engine %d needs a name and a command", path, i+1)
		}
		if strings.ContainsAny(me.Name, "/\\ \t\n,@") {
			return nil, fmt.Errorf("%s: engine name %q may not contain spaces, commas, slashes or @", path, me.Name)
		}
		if prev, ok := versions[me.Name]; ok {
			if me.Version == "" || slices.Contains(prev, "") {
				return nil, fmt.Errorf("%s: engine %s is named twice; two entries of one name need a version each (version = \"1.0\", version = \"2.0\")", path, me.Name)
			}
			if slices.Contains(prev, me.Version) {
				return nil, fmt.Errorf("%s: engine %s version %s is named twice", path, me.Name, me.Version)
			}
		}
		versions[me.Name] = append(versions[me.Name], me.Version)
		e := &Engine{Name: me.Name, Version: me.Version, Dir: me.Dir, FixedWork: me.FixedWork, Workloads: me.Workloads}
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

// Supports reports whether the engine runs workload ("" and "rollouts",
// the gdl-perf loop, are every engine's).
func (e *Engine) Supports(workload string) bool {
	if workload == "" || workload == "rollouts" {
		return true
	}
	for _, w := range e.Workloads {
		if w == workload {
			return true
		}
	}
	return false
}
