package gamerepo

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

// builtinFS holds the games shipped in the binary, written for gdlperf.
//
//go:embed builtin/*.kif
var builtinFS embed.FS

// BuiltinGame is a game shipped in the binary.
type BuiltinGame struct {
	Name  string // the file name without .kif, e.g. "tictactoe"
	File  string // the embedded path, e.g. "builtin/tictactoe.kif"
	Rules []byte // the rulesheet; callers must not modify it
	Key   string // BUILTIN/<name>/<hash>
}

var builtins = sync.OnceValue(func() []BuiltinGame {
	files, err := fs.Glob(builtinFS, "builtin/*.kif")
	if err != nil {
		panic("gamerepo: reading the built-in games: " + err.Error())
	}
	games := make([]BuiltinGame, 0, len(files))
	for _, file := range files {
		rules, err := builtinFS.ReadFile(file)
		if err != nil {
			panic("gamerepo: reading the built-in games: " + err.Error())
		}
		name := strings.TrimSuffix(path.Base(file), ".kif")
		games = append(games, BuiltinGame{
			Name:  name,
			File:  file,
			Rules: rules,
			Key:   GameKey(RepoBuiltin, name, rules),
		})
	}
	sort.Slice(games, func(i, j int) bool { return games[i].Name < games[j].Name })
	return games
})

// Builtins returns the built-in games sorted by name.
func Builtins() []BuiltinGame {
	return append([]BuiltinGame(nil), builtins()...)
}

// Builtin returns the built-in game name.
func Builtin(name string) (BuiltinGame, bool) {
	for _, g := range builtins() {
		if g.Name == name {
			return g, true
		}
	}
	return BuiltinGame{}, false
}
