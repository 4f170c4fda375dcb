package workload_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
	"github.com/gdlperf/gdlperf/engines/builtingames"
	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/prover"
)

// load loads a built-in game by name, or testdata/NAME.kif.
func load(t testing.TB, name string) *gdl.Game {
	t.Helper()
	var file string
	var rules []byte
	if b, ok := builtingames.Get(name); ok {
		file, rules = b.File, b.Rules
	} else {
		file = filepath.Join("testdata", name+".kif")
		var err error
		rules, err = os.ReadFile(file)
		require.NoError(t, err)
	}
	g, err := gdl.Load(file, rules)
	require.NoError(t, err)
	return g
}

// machine builds engine name's machine for g.
func machine(t testing.TB, name string, g *gdl.Game) engines.Machine {
	t.Helper()
	e, ok := engines.Lookup(name)
	require.True(t, ok, "engine %s is not registered", name)
	m, err := e.New(g)
	require.NoError(t, err)
	return m
}

func proverMachine(t testing.TB, game string) engines.Machine {
	return machine(t, prover.Name, load(t, game))
}

// short cuts a long answer for a message.
func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return strings.TrimSpace(s)
}
