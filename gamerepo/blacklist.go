package gamerepo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gdlperf/gdlperf/engines/protocol"
)

// The blacklist names games that campaigns skip unless asked, each with
// its reason. Its file (blacklist.txt at the repository root) has one
// "game-key;reason" per line; '#' starts a comment line; blank lines are
// ignored. The key ends at the first ';', so a reason may hold more.
// Entries after a comment line that starts with "# By hand" were added by a
// person (a defect that random play in a few rollouts does not reach):
// gdlperf games validate keeps them when it rewrites the file.

// handMarker starts the section of entries added by hand.
const handMarker = "By hand"

// BlacklistEntry is one blacklisted game.
type BlacklistEntry struct {
	Key    string // REPO/key/hash
	Reason string // one line
	ByHand bool   // listed in the file's "# By hand" section
}

// Blacklist is a parsed blacklist. The zero value is empty and usable.
type Blacklist struct {
	entries []BlacklistEntry
	index   map[string]int
}

// ParseBlacklist reads a blacklist; name is used in error messages. A
// key listed twice keeps its last reason.
func ParseBlacklist(name string, r io.Reader) (*Blacklist, error) {
	b := &Blacklist{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	byHand := false
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(text, "#"); ok {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(c)), strings.ToLower(handMarker)) {
				byHand = true
			}
			continue
		}
		if text == "" {
			continue
		}
		key, reason, ok := strings.Cut(text, ";")
		key, reason = strings.TrimSpace(key), strings.TrimSpace(reason)
		if !ok || key == "" {
			return nil, fmt.Errorf("%s:%d: want game-key;reason, got %q", name, line, text)
		}
		if err := checkBlacklistKey(key); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		b.Add(key, reason)
		if byHand {
			b.entries[b.index[key]].ByHand = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

func checkBlacklistKey(key string) error {
	parts := strings.Split(key, "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" || strings.ContainsAny(key, " \t") {
		return fmt.Errorf("%q is not a game key REPO/key/hash", key)
	}
	return nil
}

// ReadBlacklist reads a blacklist file. A missing file is an error that
// wraps fs.ErrNotExist.
func ReadBlacklist(path string) (*Blacklist, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseBlacklist(path, f)
}

// LoadBlacklist is ReadBlacklist with a missing file read as empty.
func LoadBlacklist(path string) (*Blacklist, error) {
	b, err := ReadBlacklist(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Blacklist{}, nil
	}
	return b, err
}

// Add blacklists key (or replaces its reason; an entry added by hand
// keeps its reason). reason is put on one line (protocol.OneLine).
func (b *Blacklist) Add(key, reason string) {
	reason = protocol.OneLine(reason, 0)
	if b.index == nil {
		b.index = map[string]int{}
	}
	if i, ok := b.index[key]; ok {
		if !b.entries[i].ByHand {
			b.entries[i].Reason = reason
		}
		return
	}
	b.index[key] = len(b.entries)
	b.entries = append(b.entries, BlacklistEntry{Key: key, Reason: reason})
}

// Remove takes key off the blacklist, unless it was added by hand.
func (b *Blacklist) Remove(key string) {
	i, ok := b.index[key]
	if !ok || b.entries[i].ByHand {
		return
	}
	b.entries = append(b.entries[:i], b.entries[i+1:]...)
	delete(b.index, key)
	for j := i; j < len(b.entries); j++ {
		b.index[b.entries[j].Key] = j
	}
}

// Reason returns why key is blacklisted.
func (b *Blacklist) Reason(key string) (string, bool) {
	if b == nil {
		return "", false
	}
	i, ok := b.index[key]
	if !ok {
		return "", false
	}
	return b.entries[i].Reason, true
}

// Lookup returns why game g is skipped: its key's entry, or for a LOCAL
// game (a file the user names, which has a key of its own) the entry of a
// repository game with the same rules hash, since the same rules have the
// same defect; the reason then names that key. The hash is 32 bits, so
// another game's rules match by chance about once in 4 billion per entry;
// --include-blacklisted runs it anyway.
func (b *Blacklist) Lookup(g Game) (reason string, ok bool) {
	if reason, ok := b.Reason(g.Key); ok || b == nil || g.Repo != RepoLocal {
		return reason, ok
	}
	hash := keyHash(g.Key)
	for _, e := range b.entries {
		if keyHash(e.Key) == hash {
			return fmt.Sprintf("the rules of %s: %s", e.Key, e.Reason), true
		}
	}
	return "", false
}

// keyHash is the hash part of a game key REPO/key/hash.
func keyHash(key string) string { return key[strings.LastIndexByte(key, '/')+1:] }

// Len returns the number of entries.
func (b *Blacklist) Len() int {
	if b == nil {
		return 0
	}
	return len(b.entries)
}

// Entries returns the entries sorted by key.
func (b *Blacklist) Entries() []BlacklistEntry {
	if b == nil {
		return nil
	}
	out := append([]BlacklistEntry(nil), b.entries...)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Filter splits games into those not blacklisted and those blacklisted
// (Lookup).
func (b *Blacklist) Filter(games []Game) (kept, skipped []Game) {
	for _, g := range games {
		if _, ok := b.Lookup(g); ok {
			skipped = append(skipped, g)
		} else {
			kept = append(kept, g)
		}
	}
	return kept, skipped
}

// KeepByHand returns a blacklist of b's entries added by hand.
func (b *Blacklist) KeepByHand() *Blacklist {
	out := &Blacklist{}
	for _, e := range b.Entries() {
		if e.ByHand {
			out.Add(e.Key, e.Reason)
			out.entries[out.index[e.Key]].ByHand = true
		}
	}
	return out
}

// Write writes the blacklist: the comment lines (each prefixed by "# "),
// then the entries sorted by key, then those added by hand after a
// "# By hand" line.
func (b *Blacklist) Write(w io.Writer, comments ...string) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			if l == "" {
				bw.WriteString("#\n")
			} else {
				bw.WriteString("# " + l + "\n")
			}
		}
	}
	var hand []BlacklistEntry
	for _, e := range b.Entries() {
		if e.ByHand {
			hand = append(hand, e)
			continue
		}
		bw.WriteString(e.Key + ";" + e.Reason + "\n")
	}
	if len(hand) > 0 {
		bw.WriteString("# " + handMarker + ": defects found outside gdlperf games validate, kept when it rewrites this file.\n")
		for _, e := range hand {
			bw.WriteString(e.Key + ";" + e.Reason + "\n")
		}
	}
	return bw.Flush()
}

// WriteFile writes the blacklist to path atomically (a temporary file in
// the same folder, renamed).
func (b *Blacklist) WriteFile(path string, comments ...string) error {
	var buf bytes.Buffer
	if err := b.Write(&buf, comments...); err != nil {
		return err
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return writeFileAtomic(dir, name, buf.Bytes(), true)
}
