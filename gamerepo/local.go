package gamerepo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines/gdl"
)

// LocalGame reads a .kif file as a game of the LOCAL repository, named by
// the file name without .kif.
func LocalGame(path string) (Game, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".kif")
	if err := checkLocalName(name); err != nil {
		return Game{}, fmt.Errorf("%s: %w", path, err)
	}
	rules, err := gdl.ReadFile(path)
	if err != nil {
		return Game{}, err
	}
	return Game{
		Key:    GameKey(RepoLocal, name, rules),
		Repo:   RepoLocal,
		Name:   name,
		File:   path,
		Path:   path,
		Roles:  roleNames(path, rules),
		Rules:  rules,
		SHA256: sha256Hex(rules),
	}, nil
}

// LocalGames reads the .kif files of a folder (not its subfolders), sorted
// by name, as games of the LOCAL repository.
func LocalGames(dir string) ([]Game, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".kif") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no .kif files", dir)
	}
	out := make([]Game, 0, len(names))
	for _, n := range names {
		g, err := LocalGame(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// builtinGame turns a BuiltinGame into a Game.
func builtinGame(b BuiltinGame) Game {
	return Game{
		Key:    b.Key,
		Repo:   RepoBuiltin,
		Name:   b.Name,
		File:   b.File,
		Roles:  roleNames(b.File, b.Rules),
		Rules:  b.Rules,
		SHA256: sha256Hex(b.Rules),
	}
}
