package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/harness"
)

// DefaultBlacklist is the blacklist a campaign reads from the current folder
// when --blacklist is not given (the repository's blacklist.txt, when run
// from its root).
const DefaultBlacklist = "blacklist.txt"

// gamesHelp describes a games selector, for the --games flags.
const gamesHelp = "games: builtin, builtin:NAME, panel (the twenty base games speed is reported on), a repository (base, dresden, stanford), a game key BASE/ticTacToe[/HASH], a glob of keys (BASE/tic*), a .kif file or a folder of them; comma-separated"

// GameSelection is how a command picks its games.
type GameSelection struct {
	Selectors          []string // gamerepo.Select selectors
	CacheDir           string   // "" for $GDLPERF_CACHE or the user cache folder
	Blacklist          string   // "" for ./blacklist.txt if it exists
	IncludeBlacklisted bool
	Warn               func(string) // a cached game that cannot be read; nil drops
}

// resolveGames selects the games with gamerepo.Select and takes the
// blacklisted ones out (unless IncludeBlacklisted), returning them apart
// with their reasons.
func resolveGames(s GameSelection) (games []*harness.Game, skipped []gamerepo.BlacklistEntry, err error) {
	opts := []gamerepo.SelectOption{gamerepo.WithCacheDir(s.CacheDir)}
	if s.Warn != nil {
		opts = append(opts, gamerepo.WithWarnings(func(err error) { s.Warn(err.Error()) }))
	}
	selected, err := gamerepo.Select(strings.Join(s.Selectors, ","), opts...)
	if err != nil {
		return nil, nil, err
	}
	kept := selected
	if !s.IncludeBlacklisted {
		bl, err := loadBlacklist(s.Blacklist)
		if err != nil {
			return nil, nil, err
		}
		var out []gamerepo.Game
		kept, out = bl.Filter(selected)
		for _, g := range out {
			reason, _ := bl.Lookup(g)
			skipped = append(skipped, gamerepo.BlacklistEntry{Key: g.Key, Reason: reason})
		}
	}
	return harness.NewGames(kept), skipped, nil
}

// loadBlacklist reads the blacklist at path, which must exist, or, for "",
// ./blacklist.txt when it exists.
func loadBlacklist(path string) (*gamerepo.Blacklist, error) {
	if path == "" {
		bl, err := gamerepo.LoadBlacklist(DefaultBlacklist)
		if err != nil {
			return nil, fmt.Errorf("blacklist: %w", err)
		}
		return bl, nil
	}
	bl, err := gamerepo.ReadBlacklist(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blacklist %s does not exist", path)
	}
	if err != nil {
		return nil, fmt.Errorf("blacklist: %w", err)
	}
	return bl, nil
}

// selectGames resolves game selectors with the default cache and
// blacklist; with skipBlacklisted the blacklisted games are left out and
// returned as "KEY: reason".
func selectGames(sels []string, skipBlacklisted bool) (games []*harness.Game, skipped []string, err error) {
	games, out, err := resolveGames(GameSelection{Selectors: sels, IncludeBlacklisted: !skipBlacklisted})
	for _, e := range out {
		skipped = append(skipped, e.Key+": "+e.Reason)
	}
	return games, skipped, err
}

// printSkipped says which blacklisted games a command leaves out.
func printSkipped(w io.Writer, skipped []gamerepo.BlacklistEntry, blacklist string) {
	if len(skipped) == 0 {
		return
	}
	if blacklist == "" {
		blacklist = DefaultBlacklist
	}
	fmt.Fprintf(w, "skipping %d blacklisted game%s (%s; --include-blacklisted runs them):\n", len(skipped), plural(len(skipped)), blacklist)
	for _, e := range skipped {
		fmt.Fprintf(w, "  %s: %s\n", e.Key, clip(e.Reason, 160))
	}
}

// clip makes s one line of at most n bytes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
