// Package builtingames holds the rules of the games shipped in the binary,
// written for gdlperf: small and large boards, simultaneous moves, one and
// three players, counters. It is a leaf (the standard library only) so
// that engines and their tests can play the games without importing
// gamerepo, which names them with their game keys (gamerepo.Builtins).
package builtingames

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

//go:embed *.kif
var files embed.FS

// Game is a game shipped in the binary.
type Game struct {
	Name  string // the file name without .kif, e.g. "tictactoe"
	File  string // a name for messages: "builtin/tictactoe.kif"
	Rules []byte // the rulesheet; callers must not modify it
}

var all = sync.OnceValue(func() []Game {
	names, err := fs.Glob(files, "*.kif")
	if err != nil {
		panic("builtingames: reading the built-in games: " + err.Error())
	}
	games := make([]Game, 0, len(names))
	for _, n := range names {
		rules, err := files.ReadFile(n)
		if err != nil {
			panic("builtingames: reading the built-in games: " + err.Error())
		}
		games = append(games, Game{Name: strings.TrimSuffix(n, ".kif"), File: "builtin/" + n, Rules: rules})
	}
	sort.Slice(games, func(i, j int) bool { return games[i].Name < games[j].Name })
	return games
})

// All returns the built-in games sorted by name.
func All() []Game { return append([]Game(nil), all()...) }

// Get returns the built-in game name.
func Get(name string) (Game, bool) {
	for _, g := range all() {
		if g.Name == name {
			return g, true
		}
	}
	return Game{}, false
}
