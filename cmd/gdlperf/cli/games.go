package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gdlperf/gdlperf/engines/gdl"
	"github.com/gdlperf/gdlperf/engines/protocol"
	"github.com/gdlperf/gdlperf/gamerepo"
	"github.com/gdlperf/gdlperf/gamerepo/gamecheck"
)

// NewCmdGames builds "gdlperf games ...": the game repositories, the cache
// and the blacklist.
func NewCmdGames(streams *IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "games",
		Short: "Sync, list, show and validate the games of the ggp.org repositories",
		Long: `The games come from the ggp.org repositories (base, dresden, stanford),
fetched by "games sync" into a cache (` + "$" + gamerepo.EnvCache + ` or the user cache folder,
or --cache), from .kif files, or from the built-in games, which need neither
network nor cache. A game is named by its key REPO/key/hash, the id gdl-perf
recorded; a changed rulesheet is a new key.`,
		Example: `  # the built-in games (no network, no cache)
  gdlperf games list --repo builtin
  gdlperf games show builtin:tictactoe --no-rules
  gdlperf games validate builtin
  # the base and dresden repositories of ggp.org into the cache, then their valid games
  gdlperf games sync --repo base,dresden
  gdlperf games list --repo base --valid`,
	}
	cmd.AddCommand(
		NewCmdGamesSync(streams, nil),
		NewCmdGamesList(streams, nil),
		NewCmdGamesShow(streams, nil),
		NewCmdGamesValidate(streams, nil),
	)
	return cmd
}

// GamesSyncOptions are the options of gdlperf games sync.
type GamesSyncOptions struct {
	IO          *IO
	Repos       []string
	ReposSet    bool // --repo was given
	URL         string
	Mirror      string
	CacheDir    string
	Jobs        int
	Timeout     time.Duration
	Retries     int
	RetryFirst  time.Duration // the first backoff delay
	MaxVersions int           // of a game, the newest
	TimeLimit   time.Duration // of the whole sync, all repositories; 0 for none
	Interactive bool          // stderr is a terminal: show progress
}

// NewCmdGamesSync builds "gdlperf games sync".
func NewCmdGamesSync(streams *IO, runF func(*GamesSyncOptions) error) *cobra.Command {
	opts := &GamesSyncOptions{IO: streams}
	cmd := &cobra.Command{
		Use: "sync",
		Example: `  # from ggp.org
  gdlperf games sync --repo base,dresden
  # offline, from a mirror in the API's URL layout
  gdlperf games sync --mirror ../shared/gamerepo-mirror --repo base,dresden`,
		Short: "Fetch the repositories' games into the cache",
		Long: `Sync fetches the key list and the metadata of each repository, then every
version of every game that is not in the cache yet. Cached versions never
change; a corrupted one is fetched again. A game that fails is reported and
the sync goes on; the exit status is 1 when anything failed. Of a game with
more than --max-versions versions only the newest are fetched (with a
warning), versions with the same rulesheet share one file, and the whole
sync gives up after --time-limit, even against a server that never
answers; what was fetched stays cached, so the same command goes on.

The games come from the server at --url (repository R at URL/R, default
` + gamerepo.DefaultURL + `), or from --mirror DIR: a folder in the same layout,
holding one folder per repository (as ../shared/gamerepo-mirror) or being
the folder of the one repository named by --repo (as a checkout of
ggp-org/ggp-repository's war/root/games).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ReposSet = cmd.Flags().Changed("repo")
			if opts.URL != "" && opts.Mirror != "" {
				return usage(errors.New("--url and --mirror exclude each other"))
			}
			opts.Interactive = gamesTerminal(streams.Err)
			if runF != nil {
				return runF(opts)
			}
			return runGamesSync(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Repos, "repo", gamerepo.DefaultRepos, "repositories to sync")
	cmd.Flags().StringVar(&opts.URL, "url", "", "server of the repositories (default "+gamerepo.DefaultURL+")")
	cmd.Flags().StringVar(&opts.Mirror, "mirror", "", "read the repositories from this folder instead of a server")
	cmd.Flags().StringVar(&opts.CacheDir, "cache", "", "cache folder (default $"+gamerepo.EnvCache+" or the user cache folder)")
	cmd.Flags().IntVar(&opts.Jobs, "jobs", 4, "games fetched at once")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Second, "time limit of one HTTP request")
	cmd.Flags().IntVar(&opts.Retries, "retries", 4, "retries of a failed HTTP request")
	cmd.Flags().DurationVar(&opts.RetryFirst, "backoff", 500*time.Millisecond, "delay before the first retry (it doubles)")
	cmd.Flags().IntVar(&opts.MaxVersions, "max-versions", gamerepo.DefaultMaxVersions, "fetch at most this many of a game's newest versions")
	cmd.Flags().DurationVar(&opts.TimeLimit, "time-limit", gamerepo.DefaultSyncTimeLimit, "give up after this long, all repositories together (0: no limit)")
	return cmd
}

func runGamesSync(ctx context.Context, opts *GamesSyncOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	// One time limit for every repository: the cause of the context.
	syncCtx := ctx
	if opts.TimeLimit > 0 {
		var cancel context.CancelFunc
		syncCtx, cancel = context.WithTimeoutCause(ctx, opts.TimeLimit, &gamerepo.TimeLimitError{Limit: opts.TimeLimit, Knob: "--time-limit"})
		defer cancel()
	}
	cache, err := gamerepo.OpenCache(opts.CacheDir)
	if err != nil {
		return err
	}
	var repos []string
	for _, r := range opts.Repos {
		name, err := gamerepo.RepoName(r)
		if err != nil {
			return usage(err)
		}
		if !slices.Contains(repos, name) {
			repos = append(repos, name)
		}
	}
	type job struct {
		repo string
		src  gamerepo.Source
	}
	var jobs []job
	bad := 0
	errw := opts.IO.Err
	if opts.Mirror != "" {
		single := opts.ReposSet && len(repos) == 1
		if !opts.ReposSet && gamerepo.IsRepoDir(opts.Mirror) {
			// The folder of one repository: named after it, or base.
			name, err := gamerepo.RepoName(filepath.Base(filepath.Clean(opts.Mirror)))
			if err != nil || !slices.Contains(gamerepo.DefaultRepos, name) {
				name = "base"
			}
			repos, single = []string{name}, true
		}
		for _, r := range repos {
			dir, ok := gamerepo.MirrorDir(opts.Mirror, r, single)
			if !ok {
				if opts.ReposSet {
					fmt.Fprintf(errw, "sync %s: the mirror %s has no folder %s\n", r, opts.Mirror, r)
					bad++
				}
				continue
			}
			m, err := gamerepo.NewMirror(dir)
			if err != nil {
				return err
			}
			jobs = append(jobs, job{r, m})
		}
		if len(jobs) == 0 && bad == 0 {
			return fmt.Errorf("the mirror %s has none of the repositories %s", opts.Mirror, strings.Join(repos, ", "))
		}
	} else {
		base := strings.TrimRight(opts.URL, "/")
		if base == "" {
			base = gamerepo.DefaultURL
		}
		for _, r := range repos {
			c, err := gamerepo.NewClient(base+"/"+r,
				gamerepo.WithTimeout(opts.Timeout), gamerepo.WithRetries(opts.Retries),
				gamerepo.WithBackoff(opts.RetryFirst, max(10*time.Second, opts.RetryFirst)))
			if err != nil {
				return usage(err)
			}
			jobs = append(jobs, job{r, c})
		}
	}
	for _, j := range jobs {
		p := newGamesProgress(errw, opts.Interactive, "sync "+j.repo, "failed")
		sum, err := cache.Sync(syncCtx, j.repo, j.src, gamerepo.WithConcurrency(opts.Jobs),
			gamerepo.WithMaxVersions(opts.MaxVersions), gamerepo.WithTimeLimit(0),
			gamerepo.WithProgress(func(s gamerepo.SyncProgress) { p.update(s.Done, s.Total, s.Failed) }))
		p.clear()
		if err != nil {
			bad++
			if syncCtx.Err() != nil && ctx.Err() == nil {
				fmt.Fprintf(errw, "%s\n", protocol.SafeText(err.Error()))
				return fmt.Errorf("sync stopped after --time-limit %s", opts.TimeLimit)
			}
			if ctx.Err() != nil {
				fmt.Fprintf(errw, "sync %s: interrupted; run the same command again to go on\n", j.repo)
				return withCode(ExitInterrupted, errors.New("sync interrupted"))
			}
			fmt.Fprintf(errw, "%s\n", protocol.SafeText(err.Error()))
			continue
		}
		fmt.Fprintf(errw, "sync %s (%s)\n", protocol.SafeText(sum.String()), protocol.SafeText(j.src.String()))
		for _, w := range sum.Warnings {
			fmt.Fprintf(errw, "  warning: %s\n", protocol.SafeText(w))
		}
		for _, f := range sum.Failed {
			fmt.Fprintf(errw, "  failed: %s\n", protocol.SafeText(f.String()))
		}
		if len(sum.Failed) > 0 {
			bad++
		}
	}
	fmt.Fprintf(errw, "cache: %s\n", cache.Root())
	if bad > 0 {
		return fmt.Errorf("%d of %d repositor%s had failures", bad, len(repos), gamesPluralY(len(repos)))
	}
	return nil
}

// compactJSON is raw on one line when it is JSON, else raw trimmed.
func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err == nil {
		return b.String()
	}
	return strings.TrimSpace(string(raw))
}

// writeSafeLines writes text (a rulesheet) line by line through
// protocol.SafeText: LF, CRLF and a lone CR end a line, tabs stay, every
// other control, escape sequence or bidi control is escaped.
func writeSafeLines(w io.Writer, text []byte) {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" && len(text) == 0 {
		return
	}
	for _, line := range strings.Split(s, "\n") {
		parts := strings.Split(line, "\t")
		for i := range parts {
			parts[i] = protocol.SafeText(parts[i])
		}
		fmt.Fprintln(w, strings.Join(parts, "\t"))
	}
}

func gamesPluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// GamesListOptions are the options of gdlperf games list.
type GamesListOptions struct {
	IO        *IO
	Repos     []string
	Valid     bool
	Versions  bool
	CacheDir  string
	Blacklist string
	JSON      bool
}

// GameListing is one game of gdlperf games list --json.
type GameListing struct {
	Key    string   `json:"key"`             // REPO/key/hash (REPO/key/vN when not fetched)
	Name   string   `json:"name"`            // the title of its metadata, or its key name
	Roles  []string `json:"roles,omitempty"` // in the order of the role facts
	Bytes  int      `json:"bytes"`           // size of the rulesheet
	Status string   `json:"status"`          // ok, blacklisted, invalid, not fetched or corrupted
}

// NewCmdGamesList builds "gdlperf games list".
func NewCmdGamesList(streams *IO, runF func(*GamesListOptions) error) *cobra.Command {
	opts := &GamesListOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the built-in and the cached games",
		Long: `List prints the built-in games and the latest version of every cached game
(every version with --versions): key, name, roles, size in bytes and status.
The status is ok, blacklisted (in --blacklist), invalid (errors from the
static validator), or why the game cannot be read (not fetched, corrupted).
It needs no network; on a fresh machine it lists the built-in games.

--json prints a JSON array instead, one object per game: {"key", "name",
"roles", "bytes", "status"} (the text as the server sent it, JSON-escaped).`,
		Example: `  gdlperf games list --repo builtin
  gdlperf games list --repo base --valid
  gdlperf games list --json | jq -r '.[] | select(.status == "ok") | .key'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runGamesList(opts)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Repos, "repo", nil, "only these repositories (builtin, base, ...; default all)")
	cmd.Flags().BoolVar(&opts.Valid, "valid", false, "only the games whose status is ok")
	cmd.Flags().BoolVar(&opts.Versions, "versions", false, "every cached version, not only the latest")
	cmd.Flags().StringVar(&opts.CacheDir, "cache", "", "cache folder (default $"+gamerepo.EnvCache+" or the user cache folder)")
	cmd.Flags().StringVar(&opts.Blacklist, "blacklist", "blacklist.txt", "blacklist file of the games shown as blacklisted (./blacklist.txt if present; a missing file is an empty one)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print a JSON array of the games (fields in --help)")
	return cmd
}

// gamesStatus is ok, blacklisted or invalid.
func gamesStatus(g gamerepo.Game, bl *gamerepo.Blacklist) string {
	if _, ok := bl.Lookup(g); ok {
		return "blacklisted"
	}
	parsed, err := gdl.Check(g.File, g.Rules, gdl.DefaultLimits)
	if err != nil || len(parsed.Findings.Errors()) > 0 {
		return "invalid"
	}
	return "ok"
}

func runGamesList(opts *GamesListOptions) error {
	bl, err := gamerepo.LoadBlacklist(opts.Blacklist)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, r := range opts.Repos {
		want[strings.ToLower(strings.TrimSpace(r))] = true
	}
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	listing := []GameListing{}
	if !opts.JSON {
		fmt.Fprintln(w, "KEY\tNAME\tROLES\tSIZE\tSTATUS")
	}
	row := func(g gamerepo.Game) {
		status := gamesStatus(g, bl)
		if opts.Valid && status != "ok" {
			return
		}
		name := g.Title
		if name == "" {
			name = g.Name
		}
		if opts.JSON {
			listing = append(listing, GameListing{Key: g.Key, Name: name, Roles: g.Roles, Bytes: len(g.Rules), Status: status})
			return
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", protocol.SafeText(g.Key), protocol.SafeText(name), protocol.SafeText(strings.Join(g.Roles, ",")), len(g.Rules), status)
	}
	flush := func() error {
		if !opts.JSON {
			return w.Flush()
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(listing)
	}
	if len(want) == 0 || want["builtin"] {
		games, err := gamerepo.Select("builtin")
		if err != nil {
			return err
		}
		for _, g := range games {
			row(g)
		}
	}
	cache, err := gamerepo.OpenCache(opts.CacheDir)
	if err != nil {
		// No cache folder at all: the built-in games are still listed.
		fmt.Fprintln(opts.IO.Err, "gdlperf:", err)
		return flush()
	}
	repos, err := cache.Repos()
	if err != nil {
		return err
	}
	for _, r := range repos {
		if len(want) > 0 && !want[r] {
			continue
		}
		listed, err := cache.List(r, opts.Versions)
		if err != nil {
			return err
		}
		for _, l := range listed {
			if l.Err == nil {
				row(l.Game)
				continue
			}
			if opts.Valid {
				continue
			}
			status := "not fetched"
			if errors.Is(l.Err, gamerepo.ErrCorrupt) {
				status = "corrupted"
			}
			v := "?"
			if l.Version >= 0 {
				v = fmt.Sprint("v", l.Version)
			}
			if opts.JSON {
				listing = append(listing, GameListing{Key: strings.ToUpper(r) + "/" + l.Name + "/" + v, Name: l.Name, Status: status})
				continue
			}
			name := protocol.SafeText(l.Name)
			fmt.Fprintf(w, "%s/%s/%s\t%s\t\t\t%s (gdlperf games sync fetches it)\n", strings.ToUpper(r), name, v, name, status)
		}
	}
	return flush()
}

// GamesShowOptions are the options of gdlperf games show.
type GamesShowOptions struct {
	IO        *IO
	Selectors []string
	CacheDir  string
	Blacklist string
	NoRules   bool
}

// NewCmdGamesShow builds "gdlperf games show KEY...".
func NewCmdGamesShow(streams *IO, runF func(*GamesShowOptions) error) *cobra.Command {
	opts := &GamesShowOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "show KEY...",
		Short: "Show a game's metadata, validator findings and rules",
		Long: `Show prints, for each game selected (a game key REPO/key[/hash], builtin:NAME,
a .kif file, ...), its key, metadata, blacklist status, the findings of the
static validator, and the rules.`,
		Example: `  # a built-in game: its key, roles, size, findings and rules
  gdlperf games show builtin:tictactoe
  # several games, without their rules
  gdlperf games show builtin:connectfour builtin:hex --no-rules
  # every version of a game in the cache (after gdlperf games sync --repo base)
  gdlperf games show BASE/ticTacToe --no-rules`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Selectors = args
			if runF != nil {
				return runF(opts)
			}
			return runGamesShow(opts)
		},
	}
	cmd.Flags().StringVar(&opts.CacheDir, "cache", "", "cache folder (default $"+gamerepo.EnvCache+" or the user cache folder)")
	cmd.Flags().StringVar(&opts.Blacklist, "blacklist", "blacklist.txt", "blacklist file of the games shown as blacklisted (./blacklist.txt if present; a missing file is an empty one)")
	cmd.Flags().BoolVar(&opts.NoRules, "no-rules", false, "do not print the rules")
	return cmd
}

// gamesSelect selects the games of every selector, without duplicates.
func gamesSelect(sels []string, cacheDir string, warn func(error)) ([]gamerepo.Game, error) {
	opts := []gamerepo.SelectOption{gamerepo.WithCacheDir(cacheDir)}
	if warn != nil {
		opts = append(opts, gamerepo.WithWarnings(warn))
	}
	return gamerepo.Select(strings.Join(sels, ","), opts...)
}

func runGamesShow(opts *GamesShowOptions) error {
	bl, err := gamerepo.LoadBlacklist(opts.Blacklist)
	if err != nil {
		return err
	}
	games, err := gamesSelect(opts.Selectors, opts.CacheDir, nil)
	if err != nil {
		return err
	}
	out := opts.IO.Out
	for i, g := range games {
		if i > 0 {
			fmt.Fprintln(out)
		}
		w := tabwriter.NewWriter(out, 0, 4, 1, ' ', 0)
		// Everything but the numbers and the hash comes from the server or
		// the file: shown escaped (protocol.SafeText), the rules line by line.
		safe := protocol.SafeText
		fmt.Fprintf(w, "key:\t%s\n", safe(g.Key))
		fmt.Fprintf(w, "repo:\t%s\n", safe(g.Repo))
		fmt.Fprintf(w, "name:\t%s\n", safe(g.Name))
		if g.Title != "" {
			fmt.Fprintf(w, "title:\t%s\n", safe(g.Title))
		}
		fmt.Fprintf(w, "version:\t%d\n", g.Version)
		fmt.Fprintf(w, "roles:\t%s\n", safe(strings.Join(g.Roles, " ")))
		fmt.Fprintf(w, "file:\t%s\n", safe(g.File))
		fmt.Fprintf(w, "size:\t%d bytes\n", len(g.Rules))
		fmt.Fprintf(w, "sha256:\t%s\n", g.SHA256)
		if reason, ok := bl.Lookup(g); ok {
			fmt.Fprintf(w, "blacklisted:\t%s\n", safe(reason))
		}
		if len(g.Meta.Raw) > 0 {
			fmt.Fprintf(w, "metadata:\t%s\n", safe(compactJSON(g.Meta.Raw)))
		}
		w.Flush()
		parsed, err := gdl.Check(g.File, g.Rules, gdl.DefaultLimits)
		switch {
		case err != nil:
			fmt.Fprintf(out, "findings:\n  %s\n", safe(err.Error()))
		case len(parsed.Findings) == 0:
			fmt.Fprintf(out, "findings: none (%d rules)\n", len(parsed.Rules))
		default:
			fmt.Fprintf(out, "findings: %d errors, %d warnings\n", len(parsed.Findings.Errors()), len(parsed.Findings)-len(parsed.Findings.Errors()))
			for _, f := range parsed.Findings {
				fmt.Fprintf(out, "  %s\n", safe(f.String()))
			}
		}
		if !opts.NoRules {
			fmt.Fprintln(out, "rules:")
			writeSafeLines(out, g.Rules)
		}
	}
	return nil
}

// GamesValidateOptions are the options of gdlperf games validate.
type GamesValidateOptions struct {
	IO          *IO
	All         bool
	Selectors   []string
	CacheDir    string
	Write       string
	Rollouts    int
	Steps       int
	Budget      time.Duration
	Seed        uint64
	Jobs        int
	Static      bool
	Interactive bool
}

// NewCmdGamesValidate builds "gdlperf games validate [--all | KEY...]".
func NewCmdGamesValidate(streams *IO, runF func(*GamesValidateOptions) error) *cobra.Command {
	opts := &GamesValidateOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "validate [--all | KEY...]",
		Short: "Check games and write the blacklist",
		Long: `Validate checks each game with the static validator, then plays a few seeded
random rollouts with the reference prover, looking for a role without a legal
move, a role with no or several goal values, and no terminal state within
--steps. It prints a blacklist: "key;reason" for each invalid game, and a
comment for each valid game and for each game whose check ran out of
--budget (unchecked, not blacklisted).

--all checks the built-in games and every cached version of every synced
game, and exits 0; with KEYs (selectors, as in gdlperf run --games) the exit
status is 1 when a game is invalid. --write FILE writes the blacklist file:
with --all the whole file, with KEYs an update of the file's entries.`,
		Example: `  # the built-in games: static validator and 3 seeded rollouts each
  gdlperf games validate builtin
  # one game, static checks only; exit status 1 when it is invalid
  gdlperf games validate builtin:connectfour --static
  # rewrite the blacklist from every built-in and cached game
  gdlperf games validate --all --write blacklist.txt`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Selectors = args
			if opts.All == (len(args) > 0) {
				return usage(errors.New("give --all or the games to validate, not both"))
			}
			opts.Interactive = gamesTerminal(streams.Err)
			if runF != nil {
				return runF(opts)
			}
			return runGamesValidate(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "every built-in and cached game")
	cmd.Flags().StringVar(&opts.CacheDir, "cache", "", "cache folder (default $"+gamerepo.EnvCache+" or the user cache folder)")
	cmd.Flags().StringVar(&opts.Write, "write", "", "write the blacklist to this file (e.g. blacklist.txt)")
	cmd.Flags().IntVar(&opts.Rollouts, "rollouts", 3, "random rollouts per game")
	cmd.Flags().IntVar(&opts.Steps, "steps", 1000, "most joint moves of a rollout")
	cmd.Flags().DurationVar(&opts.Budget, "budget", 10*time.Second, "time for the rollouts of one game")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the random move choices")
	cmd.Flags().IntVar(&opts.Jobs, "jobs", runtime.GOMAXPROCS(0), "games checked at once")
	cmd.Flags().BoolVar(&opts.Static, "static", false, "only the static validator, no rollouts")
	return cmd
}

func runGamesValidate(opts *GamesValidateOptions) error {
	errw := opts.IO.Err
	warn := func(err error) { fmt.Fprintln(errw, "warning:", err) }
	var games []gamerepo.Game
	var err error
	if opts.All {
		sels := []string{"builtin"}
		cache, err := gamerepo.OpenCache(opts.CacheDir)
		if err != nil {
			return err
		}
		repos, err := cache.Repos()
		if err != nil {
			return err
		}
		for _, r := range repos {
			g, err := gamerepo.Select(r, gamerepo.WithCache(cache), gamerepo.WithAllVersions(), gamerepo.WithWarnings(warn))
			if err != nil {
				return err
			}
			games = append(games, g...)
		}
		builtins, err := gamesSelect(sels, opts.CacheDir, warn)
		if err != nil {
			return err
		}
		games = append(builtins, games...)
	} else {
		games, err = gamesSelect(opts.Selectors, opts.CacheDir, warn)
		if err != nil {
			return err
		}
	}
	copts := []gamecheck.Option{gamecheck.WithRollouts(opts.Rollouts), gamecheck.WithStepLimit(opts.Steps), gamecheck.WithBudget(opts.Budget), gamecheck.WithSeed(opts.Seed)}
	if opts.Static {
		copts = append(copts, gamecheck.StaticOnly())
	}
	p := newGamesProgress(errw, opts.Interactive, "validate", "invalid")
	invalid := 0
	results := gamecheck.CheckAll(games, opts.Jobs, func(n int, r gamecheck.Result) {
		if r.Status == gamecheck.Invalid {
			invalid++
		}
		p.update(n, len(games), invalid)
	}, copts...)
	p.clear()

	var counts [3]int
	var unchecked []string
	bl := &gamerepo.Blacklist{}
	if opts.Write != "" {
		if bl, err = gamerepo.LoadBlacklist(opts.Write); err != nil {
			return err
		}
		if opts.All {
			// A whole rewrite keeps only the entries added by hand.
			bl = bl.KeepByHand()
		}
	}
	slices.SortStableFunc(results, func(a, b gamecheck.Result) int { return strings.Compare(a.Key, b.Key) })
	for _, r := range results {
		counts[r.Status]++
		switch r.Status {
		case gamecheck.Invalid:
			bl.Add(r.Key, r.Reason)
			fmt.Fprintf(opts.IO.Out, "%s;%s\n", protocol.SafeText(r.Key), protocol.SafeText(r.Reason))
		case gamecheck.Valid:
			bl.Remove(r.Key)
			if opts.Static {
				fmt.Fprintf(opts.IO.Out, "# %s: valid (static check)\n", protocol.SafeText(r.Key))
			} else {
				fmt.Fprintf(opts.IO.Out, "# %s: valid (%d rollouts, %d steps, %s)\n", protocol.SafeText(r.Key), r.Rollouts, r.Steps, r.Elapsed.Round(time.Millisecond))
			}
		case gamecheck.Unchecked:
			unchecked = append(unchecked, r.Key+": "+r.Reason)
			fmt.Fprintf(opts.IO.Out, "# %s: unchecked: %s\n", protocol.SafeText(r.Key), protocol.SafeText(r.Reason))
		}
	}
	summary := fmt.Sprintf("validated %d games: %d valid, %d invalid, %d unchecked", len(results), counts[gamecheck.Valid], counts[gamecheck.Invalid], counts[gamecheck.Unchecked])
	fmt.Fprintln(errw, summary)
	if opts.Write != "" {
		how := fmt.Sprintf("the static validator, then %d random rollouts (seed %d, at most %d steps, %s per game) with the prover", opts.Rollouts, opts.Seed, opts.Steps, opts.Budget)
		if opts.Static {
			how = "the static validator"
		}
		header := []string{
			"gdlperf blacklist: games that campaigns skip unless asked, one game-key;reason per line.",
			"Written by gdlperf games validate: " + how + ".",
		}
		if opts.All {
			header = append(header, summary+".")
		}
		if len(unchecked) > 0 {
			header = append(header, "", "Unchecked (the check ran out of time; not blacklisted):")
			for _, u := range unchecked {
				header = append(header, "  "+u)
			}
		}
		header = append(header, "")
		if err := bl.WriteFile(opts.Write, strings.Join(header, "\n")); err != nil {
			return err
		}
		fmt.Fprintf(errw, "wrote %s (%d entries)\n", opts.Write, bl.Len())
	}
	if !opts.All && counts[gamecheck.Invalid] > 0 {
		return fmt.Errorf("%d of %d games invalid", counts[gamecheck.Invalid], len(results))
	}
	return nil
}

// gamesTerminal reports whether w is a terminal.
func gamesTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// gamesProgress draws "label: done/total, N failed, ETA" on one terminal line.
type gamesProgress struct {
	w       io.Writer
	on      bool
	label   string
	failed  string // the word for failures
	start   time.Time
	last    time.Time
	printed bool
}

func newGamesProgress(w io.Writer, on bool, label, failed string) *gamesProgress {
	return &gamesProgress{w: w, on: on, label: label, failed: failed, start: time.Now()}
}

func (p *gamesProgress) update(done, total, failed int) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond && done < total {
		return
	}
	p.last = now
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(now.Sub(p.start)) / float64(done) * float64(total-done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r%s: %d/%d, %d %s, ETA %s\x1b[K", p.label, done, total, failed, p.failed, eta)
	p.printed = true
}

func (p *gamesProgress) clear() {
	if p.printed {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.printed = false
	}
}
