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
// the file name without .kif; a file named rulesheet.kif (the name every
// game of the dresden repository has, in the API's layout and in the
// cache) is named by its folder, skipping a version folder (v0, v1, ...),
// so that a dresden game read by path is LOCAL/statespacesmall/..., not
// LOCAL/rulesheet/....
func LocalGame(path string) (Game, error) {
	name := localName(path)
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

// localName is the name LocalGame gives the game of the file at path.
func localName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".kif")
	if name != "rulesheet" {
		return name
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return name
	}
	dir := filepath.Dir(abs)
	if isVersionDir(filepath.Base(dir)) {
		dir = filepath.Dir(dir)
	}
	if folder := filepath.Base(dir); checkLocalName(folder) == nil && folder != "." && folder != string(filepath.Separator) {
		return folder
	}
	return name
}

// isVersionDir reports whether name is a version folder of the API's
// layout: v and a number.
func isVersionDir(name string) bool {
	if len(name) < 2 || name[0] != 'v' {
		return false
	}
	for _, c := range name[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
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
