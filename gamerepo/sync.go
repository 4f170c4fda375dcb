package gamerepo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SyncOption sets a knob of Sync.
type SyncOption func(*syncOptions)

type syncOptions struct {
	concurrency int
	progress    func(SyncProgress)
	maxVersions int
	timeLimit   time.Duration
}

// DefaultMaxVersions is how many versions of a game a sync fetches at most,
// the newest ones. The ggp.org repositories have at most 3 versions of a
// game; a server that claims 1000 would otherwise cost 2002 requests.
const DefaultMaxVersions = 50

// DefaultSyncTimeLimit bounds the whole sync of a repository. A full sync
// of games.ggp.org/base takes about a minute; each request has its own
// time-out (WithTimeout) and retries, but a server that stalls every game
// would otherwise keep a sync of 300 games busy for hours.
const DefaultSyncTimeLimit = 10 * time.Minute

// WithMaxVersions sets how many of a game's newest versions are fetched
// (default DefaultMaxVersions); the older ones are skipped with a warning.
func WithMaxVersions(n int) SyncOption { return func(o *syncOptions) { o.maxVersions = max(n, 1) } }

// WithTimeLimit bounds the time of the whole sync (default
// DefaultSyncTimeLimit; 0 for none). Past it the sync stops with a
// *TimeLimitError; what was stored stays, so a new sync goes on from there.
func WithTimeLimit(d time.Duration) SyncOption {
	return func(o *syncOptions) { o.timeLimit = max(d, 0) }
}

// TimeLimitError is a sync that ran out of its time limit. A caller that
// sets the limit on its own context (for several syncs together) may use it
// as the context's cause.
type TimeLimitError struct {
	Limit time.Duration
	Knob  string // how to change the limit, e.g. "--time-limit"; default WithTimeLimit
}

func (e *TimeLimitError) Error() string {
	knob := e.Knob
	if knob == "" {
		knob = "WithTimeLimit"
	}
	return fmt.Sprintf("gave up after %s, the time limit of the sync (%s): the server is slow or does not answer; the games fetched so far are cached, so the same sync goes on from there", e.Limit, knob)
}

// Is makes a TimeLimitError match context.DeadlineExceeded, as the error
// of a context's deadline does.
func (e *TimeLimitError) Is(target error) bool { return target == context.DeadlineExceeded }

// WithConcurrency sets how many games are fetched at once (default 4).
func WithConcurrency(n int) SyncOption { return func(o *syncOptions) { o.concurrency = max(n, 1) } }

// WithProgress calls f after each game (from one goroutine at a time).
func WithProgress(f func(SyncProgress)) SyncOption { return func(o *syncOptions) { o.progress = f } }

// SyncProgress is the state of a sync after one more game.
type SyncProgress struct {
	Repo                string
	Done, Total, Failed int
	Key                 string // the game just done
}

// SyncSummary says what a sync of one repository did.
type SyncSummary struct {
	Repo      string
	Source    string
	Keys      int      // distinct keys listed by the repository and accepted
	Fetched   []string // keys of which some version was stored, sorted
	Versions  int      // versions stored
	Unchanged int      // games whose every version was already cached
	Failed    []GameFailure
	Warnings  []string
}

// GameFailure is a game (or a version of it) that a sync could not store.
type GameFailure struct {
	Key     string
	Version int // -1 when the failure is not about one version
	Err     error
}

func (f GameFailure) String() string {
	if f.Version < 0 {
		return fmt.Sprintf("%q: %v", f.Key, f.Err)
	}
	return fmt.Sprintf("%s v%d: %v", f.Key, f.Version, f.Err)
}

// String is a one-line summary.
func (s *SyncSummary) String() string {
	failed := map[string]bool{}
	for _, f := range s.Failed {
		failed[f.Key] = true
	}
	return fmt.Sprintf("%s: %d games, %d fetched (%d versions), %d unchanged, %d failed", s.Repo, s.Keys, len(s.Fetched), s.Versions, s.Unchanged, len(failed))
}

// Sync brings repo up to date from src: it fetches the key list and the
// metadata bundle, then every version of every game that is not yet in the
// cache (METADATA, then the rulesheet it names), and rewrites the repo's
// index. Of a game with more than DefaultMaxVersions versions (see
// WithMaxVersions) only the newest are fetched, with a warning; versions
// with the same rulesheet share one file; the whole sync gives up after
// DefaultSyncTimeLimit (WithTimeLimit) with a *TimeLimitError. Versions
// already cached are checked against their sha256 and fetched again only
// when corrupted. A game that fails is recorded in the
// summary and the sync goes on; the error is for the repository as a whole
// (no key list, a cancelled ctx, a cache that cannot be written). After an
// interruption, running Sync again ends in the same cache as a sync that
// was never interrupted.
func (c *Cache) Sync(ctx context.Context, repo string, src Source, opts ...SyncOption) (*SyncSummary, error) {
	o := syncOptions{concurrency: 4, maxVersions: DefaultMaxVersions, timeLimit: DefaultSyncTimeLimit}
	for _, f := range opts {
		f(&o)
	}
	repo, err := RepoName(repo)
	if err != nil {
		return nil, err
	}
	if o.timeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.timeLimit, &TimeLimitError{Limit: o.timeLimit})
		defer cancel()
	}
	sum := &SyncSummary{Repo: repo, Source: src.String()}
	listed, err := src.Keys(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return sum, fmt.Errorf("sync %s: the key list: %w", repo, context.Cause(ctx))
		}
		return sum, fmt.Errorf("sync %s: the key list: %w", repo, err)
	}
	var keys []string
	for _, k := range listed {
		if err := CheckKey(k); err != nil {
			sum.Failed = append(sum.Failed, GameFailure{Key: k, Version: -1, Err: err})
			continue
		}
		keys = append(keys, k)
	}
	keys, dups := sortedUnique(keys)
	if len(dups) > 0 {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("the key list names %s more than once", listSome(dups, 10)))
	}
	sum.Keys = len(keys)
	bundle, err := src.Bundle(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return sum, fmt.Errorf("sync %s: %w", repo, context.Cause(ctx))
		}
		if !errors.Is(err, ErrNotFound) {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("the metadata bundle: %v; asking each game for its METADATA", err))
		}
		bundle = nil
	}

	results := make([]gameSync, len(keys))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, failed := 0, 0
	finished := 0 // games done before ctx ended
	for w := 0; w < min(o.concurrency, max(len(keys), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = c.syncGame(ctx, repo, keys[i], bundle[keys[i]], src, o.maxVersions)
				mu.Lock()
				done++
				if ctx.Err() == nil {
					finished++
				}
				if len(results[i].failures) > 0 {
					failed++
				}
				if o.progress != nil && ctx.Err() == nil {
					o.progress(SyncProgress{Repo: repo, Done: done, Total: len(keys), Failed: failed, Key: keys[i]})
				}
				mu.Unlock()
			}
		}()
	}
	for i := range keys {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()

	prev, _, _ := c.Index(repo)
	prevLatest := map[string]int{}
	for _, e := range prev.Games {
		prevLatest[e.Key] = e.Latest
	}
	idx := RepoIndex{Repo: repo, Source: src.String(), Games: make([]IndexEntry, 0, len(keys))}
	for i, k := range keys {
		r := results[i]
		latest := r.latest
		if !r.known {
			latest = -1
			if p, ok := prevLatest[k]; ok {
				latest = p
			}
		}
		idx.Games = append(idx.Games, IndexEntry{Key: k, Latest: latest})
		if ctx.Err() != nil {
			continue
		}
		if r.stored > 0 {
			sum.Fetched = append(sum.Fetched, k)
			sum.Versions += r.stored
		} else if len(r.failures) == 0 {
			sum.Unchanged++
		}
		sum.Failed = append(sum.Failed, r.failures...)
		sum.Warnings = append(sum.Warnings, r.warnings...)
	}
	if err := c.writeIndex(idx); err != nil {
		return sum, fmt.Errorf("sync %s: %w", repo, err)
	}
	if ctx.Err() != nil {
		return sum, fmt.Errorf("sync %s: %w (%d of %d games done)", repo, context.Cause(ctx), finished, len(keys))
	}
	sort.SliceStable(sum.Failed, func(i, j int) bool { return sum.Failed[i].Key < sum.Failed[j].Key })
	return sum, nil
}

// gameSync is what syncing one game did.
type gameSync struct {
	latest   int
	known    bool // latest was learnt
	stored   int
	failures []GameFailure
	warnings []string
}

func (c *Cache) syncGame(ctx context.Context, repo, key string, bundled []byte, src Source, maxVersions int) (r gameSync) {
	fail := func(v int, err error) { r.failures = append(r.failures, GameFailure{Key: key, Version: v, Err: err}) }
	if bundled != nil {
		if md, err := ParseMetadata(bundled); err == nil {
			r.latest, r.known = md.Version, true
		} else {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: the metadata bundle's entry: %v; asking the game", key, err))
		}
	}
	if !r.known {
		b, err := src.Metadata(ctx, key, Latest)
		if err != nil {
			fail(-1, fmt.Errorf("the latest METADATA: %w", err))
			return r
		}
		md, err := ParseMetadata(b)
		if err != nil {
			fail(-1, fmt.Errorf("the latest %w", err))
			return r
		}
		r.latest, r.known = md.Version, true
	}
	first := max(r.latest-maxVersions+1, 0)
	if first > 0 {
		r.warnings = append(r.warnings, fmt.Sprintf("%s: the repository has %d versions; only the newest %d (v%d to v%d) are fetched", key, r.latest+1, maxVersions, first, r.latest))
	}
	// A rulesheet that an earlier version already has is stored once: the
	// versions' folders share the file (a hard link).
	copies := map[string]string{} // sha256 -> a cached rulesheet
	same := 0
	for v := first; v <= r.latest; v++ {
		if ctx.Err() != nil {
			return r
		}
		g, err := c.Load(repo, key, v)
		if err == nil {
			if _, ok := copies[g.SHA256]; !ok {
				copies[g.SHA256] = g.Path
			}
			continue
		}
		if errors.Is(err, ErrCorrupt) {
			r.warnings = append(r.warnings, fmt.Sprintf("%v; fetching it again", err))
		}
		stored, dup, err := c.fetchVersion(ctx, repo, key, v, src, copies)
		if err != nil {
			fail(v, err)
			continue
		}
		if dup {
			same++
		}
		r.stored++
		if _, ok := copies[stored.hex]; !ok {
			copies[stored.hex] = stored.name
		}
	}
	if same > 0 {
		r.warnings = append(r.warnings, fmt.Sprintf("%s: %d version%s repeat the rulesheet of another version; the cache holds one copy", key, same, plural(same)))
	}
	return r
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// fetchVersion fetches and stores a version. When copies (sha256 -> path)
// has its rulesheet, the stored file is a link to that copy and dup is
// true. stored is the rulesheet's sha256 and path.
func (c *Cache) fetchVersion(ctx context.Context, repo, key string, v int, src Source, copies map[string]string) (stored fileSum, dup bool, err error) {
	meta, err := src.Metadata(ctx, key, v)
	if err != nil {
		return stored, false, err
	}
	md, err := ParseMetadata(meta)
	if err != nil {
		return stored, false, err
	}
	if md.Version != v {
		return stored, false, fmt.Errorf("the METADATA of version %d says version %d", v, md.Version)
	}
	rules, err := src.File(ctx, key, v, md.Rulesheet, MaxRulesheetBytes)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return stored, false, fmt.Errorf("METADATA names the rulesheet %s, which the repository does not have: %w", md.Rulesheet, err)
		}
		return stored, false, fmt.Errorf("the rulesheet: %w", err)
	}
	if len(rules) == 0 {
		return stored, false, fmt.Errorf("the rulesheet %s is empty", md.Rulesheet)
	}
	sum := sha256Hex(rules)
	link := copies[sum]
	linked, err := c.put(repo, key, v, meta, md.Rulesheet, rules, link)
	if err != nil {
		return stored, false, err
	}
	return fileSum{hex: sum, name: filepath.Join(c.versionDir(repo, key, v), md.Rulesheet)}, linked, nil
}

// listSome quotes up to n items.
func listSome(items []string, n int) string {
	var b strings.Builder
	for i, s := range items {
		if i == n {
			b.WriteString(" and " + strconv.Itoa(len(items)-n) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(s))
	}
	return b.String()
}

// sortedUnique sorts keys and drops duplicates, returning the duplicates.
func sortedUnique(keys []string) (out, dups []string) {
	out = append([]string(nil), keys...)
	sort.Strings(out)
	j := 0
	for i, k := range out {
		if i > 0 && k == out[j-1] {
			if len(dups) == 0 || dups[len(dups)-1] != k {
				dups = append(dups, k)
			}
			continue
		}
		out[j] = k
		j++
	}
	return out[:j], dups
}
