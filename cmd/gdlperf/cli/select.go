package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/harness"
)

// selectGames resolves game selectors: builtin, builtin:NAME, a .kif file
// or a folder of .kif files (the LOCAL repo).
func selectGames(sels []string, skipBlacklisted bool) (games []*harness.Game, skipped []string, err error) {
	seen := map[string]bool{}
	add := func(g *harness.Game) {
		if !seen[g.Key] {
			seen[g.Key] = true
			games = append(games, g)
		}
	}
	for _, sel := range sels {
		switch {
		case sel == "builtin":
			for _, b := range gamerepo.Builtins() {
				add(&harness.Game{Key: b.Key, Name: b.File, Rules: b.Rules})
			}
		case strings.HasPrefix(sel, "builtin:"):
			b, ok := gamerepo.Builtin(strings.TrimPrefix(sel, "builtin:"))
			if !ok {
				return nil, nil, fmt.Errorf("no built-in game %q", sel)
			}
			add(&harness.Game{Key: b.Key, Name: b.File, Rules: b.Rules})
		default:
			st, err := os.Stat(sel)
			if err != nil {
				return nil, nil, fmt.Errorf("games %q: not builtin, builtin:NAME, a .kif file or a folder: %w", sel, err)
			}
			files := []string{sel}
			if st.IsDir() {
				files, _ = filepath.Glob(filepath.Join(sel, "*.kif"))
				sort.Strings(files)
				if len(files) == 0 {
					return nil, nil, fmt.Errorf("games %q: no .kif files in the folder", sel)
				}
			}
			for _, f := range files {
				_, rules, err := readGame(f)
				if err != nil {
					return nil, nil, err
				}
				key := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
				add(&harness.Game{Key: gamerepo.GameKey(gamerepo.RepoLocal, key, rules), Name: f, Rules: rules})
			}
		}
	}
	return games, skipped, nil
}
