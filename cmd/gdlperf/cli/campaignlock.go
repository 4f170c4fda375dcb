package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/gdlperf/gdlperf/harness"
)

// campaignLock keeps two campaigns from running the same runs into one
// results folder, with flock(2) locks on files of the folder, held for the
// whole campaign and released when the process ends, however it ends:
//
//   - .campaign.lock: an unsharded campaign holds it exclusively, every
//     shard holds it shared, so an unsharded campaign and shards exclude
//     each other while the shards of an array job run side by side;
//   - .campaign-of-N.lock: the shards of a plan of N shards hold it shared;
//     a shard of another count first tries it exclusively and refuses when
//     it cannot (its games would overlap theirs);
//   - .campaign-shard-I-of-N.lock: shard I of N holds it exclusively, so
//     the same shard does not run twice (on two hosts of a cluster, whose
//     results files differ).
//
// The holder of an exclusive lock writes its pid in the file, for the
// message of the one who is refused. The lock files are never removed:
// removing one would let two processes lock two different files of one
// name.
type campaignLock struct {
	files []*os.File
}

// Close releases the locks.
func (l *campaignLock) Close() {
	for _, f := range l.files {
		f.Close()
	}
	l.files = nil
}

const campaignLockName = ".campaign.lock"

func shardCountLockName(n int) string { return fmt.Sprintf(".campaign-of-%d.lock", n) }

func shardLockName(s harness.Shard) string {
	return fmt.Sprintf(".campaign-shard-%d-of-%d.lock", s.I, s.N)
}

var shardCountLock = regexp.MustCompile(`^\.campaign-of-([0-9]+)\.lock$`)

// lockCampaign takes the locks of a campaign of shard s (s.N <= 1: the
// whole plan) on the results folder dir, or says who holds them.
func lockCampaign(dir string, s harness.Shard) (*campaignLock, error) {
	l := &campaignLock{}
	refuse := func(holder string) (*campaignLock, error) {
		l.Close()
		if holder != "" {
			holder = " (" + holder + ")"
		}
		return nil, fmt.Errorf("another campaign%s is running on %s; wait for it or use another --results folder", holder, dir)
	}
	if s.N <= 1 {
		f, held, err := flockFile(dir, campaignLockName, syscall.LOCK_EX)
		if err != nil {
			return nil, err
		}
		if held {
			// Shards (which hold it shared and write nothing in it), or
			// another unsharded campaign (whose pid it holds).
			holder := strings.Join(shardHolders(dir, "*"), ", ")
			if holder == "" {
				holder = pidIn(dir, campaignLockName)
			}
			return refuse(holder)
		}
		l.files = append(l.files, f)
		writePID(f, "")
		return l, nil
	}
	f, held, err := flockFile(dir, campaignLockName, syscall.LOCK_SH)
	if err != nil {
		return nil, err
	}
	if held {
		return refuse(pidIn(dir, campaignLockName))
	}
	l.files = append(l.files, f)
	f, held, err = flockFile(dir, shardCountLockName(s.N), syscall.LOCK_SH)
	if err != nil {
		l.Close()
		return nil, err
	}
	if held {
		return refuse("one of another shard count, starting")
	}
	l.files = append(l.files, f)
	// A plan of another shard count: its shards hold their count's lock.
	entries, err := os.ReadDir(dir)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("results folder: %w", err)
	}
	for _, e := range entries {
		m := shardCountLock.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n == s.N {
			continue
		}
		f, held, err := flockFile(dir, e.Name(), syscall.LOCK_EX)
		if err != nil {
			l.Close()
			return nil, err
		}
		if held {
			holders := shardHolders(dir, strconv.Itoa(n))
			l.Close()
			return nil, fmt.Errorf("a campaign of %d shards (%s) is running on %s, and its games overlap those of shard %s; wait for it, run --shard i/%d, or use another --results folder", n, strings.Join(holders, ", "), dir, s, n)
		}
		f.Close()
	}
	f, held, err = flockFile(dir, shardLockName(s), syscall.LOCK_EX)
	if err != nil {
		l.Close()
		return nil, err
	}
	if held {
		holder := pidIn(dir, shardLockName(s))
		l.Close()
		if holder != "" {
			holder = " (" + holder + ")"
		}
		return nil, fmt.Errorf("shard %s is already running on %s%s; wait for it or use another --results folder", s, dir, holder)
	}
	l.files = append(l.files, f)
	writePID(f, "shard "+s.String())
	return l, nil
}

// flockFile opens dir/name and locks it (how: syscall.LOCK_EX or LOCK_SH)
// without waiting; held says another process holds it.
func flockFile(dir, name string, how int) (f *os.File, held bool, err error) {
	path := filepath.Join(dir, name)
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("cannot lock the results folder %s: %w (is it writable?)", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("cannot lock the results folder %s: locking %s: %w", dir, path, err)
	}
	return f, false, nil
}

func writePID(f *os.File, what string) {
	if f.Truncate(0) == nil {
		msg := fmt.Sprintf("pid %d", os.Getpid())
		if what != "" {
			msg += ", " + what
		}
		f.WriteAt([]byte(msg+"\n"), 0)
	}
}

// pidIn is what the holder of dir/name wrote in it ("pid N"), or "".
func pidIn(dir, name string) string {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 100))
	return string(bytes.TrimSpace(b))
}

// shardHolders lists who holds the shard locks of dir of shard count n ("*"
// for any).
func shardHolders(dir, n string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, ".campaign-shard-*-of-"+n+".lock"))
	slices.Sort(names)
	var out []string
	for _, p := range names {
		f, held, err := flockFile(dir, filepath.Base(p), syscall.LOCK_SH)
		if err != nil {
			continue
		}
		if !held {
			f.Close()
			continue
		}
		if who := pidIn(dir, filepath.Base(p)); who != "" {
			out = append(out, who)
		}
	}
	return out
}
