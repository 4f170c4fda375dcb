package gamerepo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SyncOption sets a knob of Sync.
type SyncOption func(*syncOptions)

type syncOptions struct {
	concurrency int
	progress    func(SyncProgress)
}

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
// index. Versions already cached are checked against their sha256 and
// fetched again only when corrupted. A game that fails is recorded in the
// summary and the sync goes on; the error is for the repository as a whole
// (no key list, a cancelled ctx, a cache that cannot be written). After an
// interruption, running Sync again ends in the same cache as a sync that
// was never interrupted.
func (c *Cache) Sync(ctx context.Context, repo string, src Source, opts ...SyncOption) (*SyncSummary, error) {
	o := syncOptions{concurrency: 4}
	for _, f := range opts {
		f(&o)
	}
	repo, err := RepoName(repo)
	if err != nil {
		return nil, err
	}
	sum := &SyncSummary{Repo: repo, Source: src.String()}
	listed, err := src.Keys(ctx)
	if err != nil {
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
			return sum, fmt.Errorf("sync %s: %w", repo, ctx.Err())
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
	for w := 0; w < min(o.concurrency, max(len(keys), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = c.syncGame(ctx, repo, keys[i], bundle[keys[i]], src)
				mu.Lock()
				done++
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
	if err := ctx.Err(); err != nil {
		return sum, fmt.Errorf("sync %s: %w", repo, err)
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

func (c *Cache) syncGame(ctx context.Context, repo, key string, bundled []byte, src Source) (r gameSync) {
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
	for v := 0; v <= r.latest; v++ {
		if ctx.Err() != nil {
			return r
		}
		_, err := c.Load(repo, key, v)
		if err == nil {
			continue
		}
		if errors.Is(err, ErrCorrupt) {
			r.warnings = append(r.warnings, fmt.Sprintf("%v; fetching it again", err))
		}
		if err := c.fetchVersion(ctx, repo, key, v, src); err != nil {
			fail(v, err)
			continue
		}
		r.stored++
	}
	return r
}

func (c *Cache) fetchVersion(ctx context.Context, repo, key string, v int, src Source) error {
	meta, err := src.Metadata(ctx, key, v)
	if err != nil {
		return err
	}
	md, err := ParseMetadata(meta)
	if err != nil {
		return err
	}
	if md.Version != v {
		return fmt.Errorf("the METADATA of version %d says version %d", v, md.Version)
	}
	rules, err := src.File(ctx, key, v, md.Rulesheet, MaxRulesheetBytes)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return fmt.Errorf("METADATA names the rulesheet %s, which the repository does not have: %w", md.Rulesheet, err)
		}
		return fmt.Errorf("the rulesheet: %w", err)
	}
	if len(rules) == 0 {
		return fmt.Errorf("the rulesheet %s is empty", md.Rulesheet)
	}
	return c.put(repo, key, v, meta, md.Rulesheet, rules)
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
