package gamerepo

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// SelectOption sets a knob of Select.
type SelectOption func(*selectOptions)

type selectOptions struct {
	cache       *Cache
	cacheDir    string
	warn        func(error)
	allVersions bool
}

// WithCache makes Select read repository games from c.
func WithCache(c *Cache) SelectOption { return func(o *selectOptions) { o.cache = c } }

// WithCacheDir makes Select read repository games from the cache at dir
// (default: DefaultCacheDir).
func WithCacheDir(dir string) SelectOption { return func(o *selectOptions) { o.cacheDir = dir } }

// WithWarnings makes Select skip a game of a many-game selector (a
// repository or a glob) that it cannot read from the cache (not fetched,
// corrupted) and pass the error to f. Without it, such a game makes Select
// fail.
func WithWarnings(f func(error)) SelectOption { return func(o *selectOptions) { o.warn = f } }

// WithAllVersions makes a selector without a hash select every cached
// version of each game instead of the latest.
func WithAllVersions() SelectOption { return func(o *selectOptions) { o.allVersions = true } }

// Select returns the games named by sel, a comma-separated list of:
//
//	builtin                  every built-in game (no network, no cache)
//	builtin:NAME             one built-in game (as gdlperf engine run takes it)
//	panel                    the twenty base games speed is reported on (Panel)
//	base, dresden, ...       the latest version of every cached game of a repository
//	BASE/ticTacToe           the latest cached version of a game
//	BASE/ticTacToe/JRFsaQ    the cached version with that game key
//	BASE/tic*, BASE/*/JRF*   a glob (path.Match) over keys, and over hashes
//	BUILTIN/NAME[/HASH]      a built-in game, also with globs
//	path/to/game.kif, DIR    a .kif file, or the .kif files of a folder (repo LOCAL)
//
// Repository names are case-insensitive, keys are not. A word that is both
// a repository and a folder is the repository; write ./base for the folder.
// The games come in the order of the selectors, each selector's sorted by
// key and version, without duplicates. Repository games come from the
// cache only (gdlperf games sync fills it); Select never uses the network.
func Select(sel string, opts ...SelectOption) ([]Game, error) {
	o := selectOptions{}
	for _, f := range opts {
		f(&o)
	}
	var problems []error
	warn := o.warn
	if warn == nil {
		warn = func(err error) { problems = append(problems, err) }
	}
	var out []Game
	seen := map[string]bool{}
	named := false
	for _, part := range strings.Split(sel, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		named = true
		games, err := o.selectOne(part, warn)
		if err != nil {
			return nil, err
		}
		for _, g := range games {
			if !seen[g.Key] {
				seen[g.Key] = true
				out = append(out, g)
			}
		}
	}
	if !named {
		return nil, fmt.Errorf("empty game selector; try builtin, a repository (base), a game key (BASE/ticTacToe) or a .kif file or folder")
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return out, nil
}

func (o *selectOptions) openCache() (*Cache, error) {
	if o.cache == nil {
		c, err := OpenCache(o.cacheDir)
		if err != nil {
			return nil, err
		}
		o.cache = c
	}
	return o.cache, nil
}

func isPathLike(s string) bool {
	return strings.HasSuffix(s, ".kif") || filepath.IsAbs(s) || s == "." || s == ".." ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		(os.PathSeparator != '/' && strings.ContainsRune(s, os.PathSeparator))
}

func (o *selectOptions) selectOne(s string, warn func(error)) ([]Game, error) {
	if strings.EqualFold(s, RepoBuiltin) {
		return selectBuiltins("*", "*")
	}
	if name, ok := strings.CutPrefix(s, "builtin:"); ok {
		return selectBuiltins(name, "*")
	}
	if strings.EqualFold(s, "panel") {
		var out []Game
		for _, k := range Panel {
			games, err := o.selectOne(RepoBase+"/"+k, warn)
			if err != nil {
				return nil, err
			}
			out = append(out, games...)
		}
		return out, nil
	}
	if isPathLike(s) {
		return selectPath(s)
	}
	parts := strings.Split(s, "/")
	if len(parts) <= 3 && parts[0] != "" {
		switch {
		case strings.EqualFold(parts[0], RepoBuiltin):
			return selectBuiltins(partOr(parts, 1), partOr(parts, 2))
		case strings.EqualFold(parts[0], RepoLocal):
			return nil, fmt.Errorf("%s: LOCAL games are named by their path (a .kif file or a folder of them)", s)
		}
		if repo, err := RepoName(parts[0]); err == nil {
			c, err := o.openCache()
			if err != nil {
				return nil, err
			}
			idx, ok, err := c.Index(repo)
			if err != nil {
				return nil, err
			}
			if ok {
				hash := ""
				if len(parts) == 3 {
					hash = parts[2]
				}
				return o.selectCached(c, idx, s, partOr(parts, 1), hash, len(parts) == 1 || hasMeta(partOr(parts, 1)) || hasMeta(hash), warn)
			}
			if _, err := os.Stat(s); err != nil && slices.Contains(DefaultRepos, repo) {
				return nil, fmt.Errorf("%s: the repository %s is not in the cache %s; run gdlperf games sync --repo %s", s, repo, c.Root(), repo)
			}
		}
	}
	if _, err := os.Stat(s); err == nil {
		return selectPath(s)
	}
	return nil, fmt.Errorf("no games match %q: it is not builtin, a repository (base, dresden, stanford), a game key REPO/key[/hash] or an existing .kif file or folder", s)
}

func partOr(parts []string, i int) string {
	if i < len(parts) && parts[i] != "" {
		return parts[i]
	}
	return "*"
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

func selectPath(p string) ([]Game, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return LocalGames(p)
	}
	g, err := LocalGame(p)
	if err != nil {
		return nil, err
	}
	return []Game{g}, nil
}

// selectBuiltins matches the built-in games' names (all lower case) by
// namePat in any case, so that builtin:ticTacToe, spelled as the panel's
// game is, finds builtin:tictactoe.
func selectBuiltins(namePat, hashPat string) ([]Game, error) {
	var out []Game
	for _, b := range Builtins() {
		ok, err := path.Match(strings.ToLower(namePat), strings.ToLower(b.Name))
		if err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", namePat, err)
		}
		if !ok {
			continue
		}
		if ok, _ := path.Match(hashPat, RulesHash(b.Rules)); ok {
			out = append(out, builtinGame(b))
		}
	}
	if len(out) == 0 {
		var names []string
		for _, b := range Builtins() {
			names = append(names, b.Name)
		}
		return nil, fmt.Errorf("no built-in game matches %s/%s; the built-in games are %s", namePat, hashPat, strings.Join(names, ", "))
	}
	return out, nil
}

// selectCached selects from a synced repository. many is set for a
// selector of many games (a bare repository name, a glob): a game it
// cannot read is skipped and passed to warn.
func (o *selectOptions) selectCached(c *Cache, idx RepoIndex, sel, keyPat, hashPat string, many bool, warn func(error)) ([]Game, error) {
	repo := idx.Repo
	latest := map[string]int{}
	for _, e := range idx.Games {
		latest[e.Key] = e.Latest
	}
	var keys []string
	if !hasMeta(keyPat) {
		if _, ok := latest[keyPat]; !ok {
			if vs, _ := c.Versions(repo, keyPat); len(vs) == 0 {
				return nil, fmt.Errorf("no game %s/%s in the cache %s", strings.ToUpper(repo), keyPat, c.Root())
			}
		}
		keys = []string{keyPat}
	} else {
		if _, err := path.Match(keyPat, ""); err != nil {
			return nil, fmt.Errorf("%s: bad pattern: %w", sel, err)
		}
		cached, err := c.Keys(repo)
		if err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, k := range cached {
			set[k] = true
		}
		for k := range latest {
			set[k] = true
		}
		for k := range set {
			if ok, _ := path.Match(keyPat, k); ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
	}
	var out []Game
	for _, k := range keys {
		games, err := o.cachedVersions(c, repo, k, latest, hashPat)
		if err != nil {
			if !many {
				return nil, err
			}
			warn(err)
		}
		out = append(out, games...)
	}
	if len(out) == 0 && keyPat != "*" {
		return nil, fmt.Errorf("no game in the cache %s matches %s", c.Root(), sel)
	}
	return out, nil
}

// cachedVersions returns the versions of one game that hashPat selects:
// with "" the latest (or all, with WithAllVersions), else those whose hash
// matches. For a glob it may return some games and the error of a version
// it could not read.
func (o *selectOptions) cachedVersions(c *Cache, repo, key string, latest map[string]int, hashPat string) ([]Game, error) {
	vs, err := c.Versions(repo, key)
	if err != nil {
		return nil, err
	}
	name := strings.ToUpper(repo) + "/" + key
	if hashPat == "" && o.allVersions {
		hashPat = "*"
	}
	if hashPat == "" && !o.allVersions {
		v, ok := latest[key]
		if !ok || v < 0 {
			if len(vs) == 0 {
				return nil, fmt.Errorf("%s is not in the cache; run gdlperf games sync --repo %s", name, repo)
			}
			v = vs[len(vs)-1]
		}
		g, err := c.Load(repo, key, v)
		if err != nil {
			return nil, err
		}
		return []Game{g}, nil
	}
	var out []Game
	var have []string
	var loadErr error
	for _, v := range vs {
		g, err := c.Load(repo, key, v)
		if err != nil {
			loadErr = err
			continue
		}
		h := RulesHash(g.Rules)
		have = append(have, fmt.Sprintf("v%d %s", v, g.Key))
		if ok, _ := path.Match(hashPat, h); ok {
			out = append(out, g)
		}
	}
	switch {
	case len(out) > 0 && !hasMeta(hashPat):
		return out, nil
	case hasMeta(hashPat):
		return out, loadErr
	case loadErr != nil:
		return nil, loadErr
	case len(have) == 0:
		return nil, fmt.Errorf("%s is not in the cache; run gdlperf games sync --repo %s", name, repo)
	}
	return nil, fmt.Errorf("%s has no cached version with hash %s (cached: %s)", name, hashPat, strings.Join(have, ", "))
}

// Panel is the speed panel: twenty games of the base repository, small and
// large boards, 1 to 4 players, alternating and simultaneous moves,
// recursion-heavy rules and step counters, on which engine speed is reported
// with 30 s runs and interleaved repetitions.
var Panel = []string{
	"ticTacToe", "connectFour", "breakthrough", "reversi", "hex", "speedChess", "amazons",
	"checkers", "englishDraughts", "chineseCheckers4", "sheepAndWolf", "dotsAndBoxes",
	"knightsTour", "pentago", "3pConnectFour", "connectFourSimultaneous", "eightPuzzle",
	"skirmish", "4pffa", "nineBoardTicTacToe",
}
