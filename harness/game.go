package harness

import (
	"fmt"

	"github.com/gdlperf/gdlperf/gamerepo"
)

// Game is a game a campaign or a check campaign runs: its game key, a name
// for messages and its rules. NewGame makes it from a game gamerepo
// selected, the one way run, check and ab turn their --games into the
// harness's games.
type Game struct {
	Key   string // REPO/key/hash, e.g. BASE/ticTacToe/JRFsaQ
	File  string // a name for messages: the rulesheet's path, or builtin/NAME.kif
	Rules []byte // the rulesheet, as gamerepo read it; do not modify
}

// NewGame is the harness's game of a selected game.
func NewGame(g gamerepo.Game) *Game {
	return &Game{Key: g.Key, File: g.File, Rules: g.Rules}
}

// NewGames are the harness's games of selected games, in their order; nil
// for none.
func NewGames(selected []gamerepo.Game) []*Game {
	var games []*Game
	for _, g := range selected {
		games = append(games, NewGame(g))
	}
	return games
}

// BuiltinGame is the built-in game name (the selector builtin:NAME) as
// NewGame makes it.
func BuiltinGame(name string) (*Game, error) {
	selected, err := gamerepo.Select("builtin:" + name)
	if err != nil {
		return nil, err
	}
	if len(selected) != 1 {
		return nil, fmt.Errorf("builtin:%s names %d built-in games, not one", name, len(selected))
	}
	return NewGame(selected[0]), nil
}
