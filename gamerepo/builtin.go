package gamerepo

import (
	"sync"

	"github.com/gdlperf/gdlperf/engines/builtingames"
)

// BuiltinGame is a game shipped in the binary (package builtingames holds
// the rules) with its game key.
type BuiltinGame struct {
	Name  string // the file name without .kif, e.g. "tictactoe"
	File  string // a name for messages, e.g. "builtin/tictactoe.kif"
	Rules []byte // the rulesheet; callers must not modify it
	Key   string // BUILTIN/<name>/<hash>
}

var builtins = sync.OnceValue(func() []BuiltinGame {
	all := builtingames.All()
	games := make([]BuiltinGame, len(all))
	for i, g := range all {
		games[i] = BuiltinGame{Name: g.Name, File: g.File, Rules: g.Rules, Key: GameKey(RepoBuiltin, g.Name, g.Rules)}
	}
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
