package harness

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Every engine run gets a private folder, gdlperf-child-*, in the temp
// folder (ChildOptions.TempRoot): the engine's TMPDIR and GOTMPDIR (so that
// a killed go build leaves no go-build* folder elsewhere), an owner file
// naming the harness process, and a record of the run's processes as the
// tracker finds them. The harness removes the folder after the run; when
// the harness itself was killed, CleanLeftovers finds the folder at the
// next start, kills the processes it records and removes it.

// ownerFile, in a folder of gdlperf's, names the process that owns it.
const ownerFile = ".gdlperf-owner"

// childPrefix starts the name of a run's private folder.
const childPrefix = "gdlperf-child-"

// unownedAge is how old a temp folder of gdlperf's without an owner file
// (made by an older gdlperf) must be before CleanLeftovers removes it.
const unownedAge = 24 * time.Hour

// tempFolder matches the names of the temp folders gdlperf makes
// (os.MkdirTemp's suffix is digits), and no other.
var tempFolder = regexp.MustCompile(`^gdlperf-(run|compat|check|info|child)-[0-9]+$`)

// owner is what an owner file records: the harness's pid and start time
// (field 22 of /proc/<pid>/stat, so a reused pid is not taken for it) and,
// for a run's folder, the run's token and processes.
type owner struct {
	pid   int
	start uint64
	token string
	procs [][2]uint64 // pid, start
}

// processStart returns field 22 of /proc/<pid>/stat.
func processStart(pid int) (uint64, bool) {
	e, ok := readStat(pid)
	return e.start, ok
}

func readStat(pid int) (procEntry, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntry{}, false
	}
	return parseStat(pid, b)
}

// alive reports whether the process pid that started at start still runs
// (a zombie does not).
func alive(pid int, start uint64) bool {
	e, ok := readStat(pid)
	return ok && e.start == start && !e.zombie
}

// MarkOwner writes the owner file of a work folder, naming this process,
// so that CleanLeftovers removes the folder once this process is gone
// without having removed it (killed). Call it right after making a
// gdlperf-* folder in the temp folder.
func MarkOwner(dir string) error {
	return writeOwner(dir, "")
}

func writeOwner(dir, token string) error {
	pid := os.Getpid()
	start, ok := processStart(pid)
	if !ok {
		return fmt.Errorf("reading the start time of process %d from /proc: is /proc mounted?", pid)
	}
	s := fmt.Sprintf("pid %d %d\n", pid, start)
	if token != "" {
		s += "token " + token + "\n"
	}
	// Written beside and renamed into place, so that a reader sees the
	// whole file or none.
	tmp := filepath.Join(dir, ownerFile+".tmp")
	if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, ownerFile))
}

// readOwner reads an owner file; the process lines ("proc PID START") are
// appended to it by the run's record.
func readOwner(dir string) (owner, error) {
	var o owner
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return o, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 3 && f[0] == "pid":
			o.pid, _ = strconv.Atoi(f[1])
			o.start, _ = strconv.ParseUint(f[2], 10, 64)
		case len(f) == 2 && f[0] == "token":
			o.token = f[1]
		case len(f) == 3 && f[0] == "proc":
			p, err1 := strconv.ParseUint(f[1], 10, 31)
			s, err2 := strconv.ParseUint(f[2], 10, 64)
			if err1 == nil && err2 == nil && p > 0 {
				o.procs = append(o.procs, [2]uint64{p, s})
			}
		}
	}
	if o.pid <= 0 {
		return o, fmt.Errorf("the owner file in %s names no process", dir)
	}
	return o, nil
}

// runFolder is the private folder of one run.
type runFolder struct {
	dir, tmp, token string
	rec             *os.File
	line            []byte
}

// newRunFolder makes the private folder of a run under root ("" is
// os.TempDir()).
func newRunFolder(root string) (*runFolder, error) {
	if root == "" {
		root = os.TempDir()
	}
	dir, err := os.MkdirTemp(root, childPrefix)
	if err != nil {
		return nil, fmt.Errorf("making the run's folder in %s: %w", root, err)
	}
	var tok [8]byte
	rand.Read(tok[:])
	f := &runFolder{dir: dir, tmp: filepath.Join(dir, "tmp"), token: hex.EncodeToString(tok[:]), line: make([]byte, 0, 64)}
	if err := os.Mkdir(f.tmp, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("making the run's folder: %w", err)
	}
	if err := writeOwner(dir, f.token); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	f.rec, err = os.OpenFile(filepath.Join(dir, ownerFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return f, nil
}

// record appends a process of the run to the owner file.
func (f *runFolder) record(pid int, start uint64) {
	f.line = append(f.line[:0], "proc "...)
	f.line = strconv.AppendInt(f.line, int64(pid), 10)
	f.line = append(f.line, ' ')
	f.line = strconv.AppendUint(f.line, start, 10)
	f.line = append(f.line, '\n')
	f.rec.Write(f.line)
}

func (f *runFolder) remove() {
	f.rec.Close()
	os.RemoveAll(f.dir)
}

// CleanLeftovers finds in tmpRoot ("" is os.TempDir()) the temp folders of
// gdlperf's (gdlperf-run-*, gdlperf-child-*, ...) whose owner process is
// gone: it kills the processes of the runs recorded there (a pid counts
// only with its recorded start time) and every process that carries such a
// run's token, then removes the folders; such a folder without an owner
// file (an older gdlperf's) is removed when it was last modified over a day
// ago. Folders of other names are never touched. Call it when a campaign starts: it undoes what a
// harness killed with SIGKILL left behind. It returns the processes killed
// and the folders removed; the error is the first failure to remove one.
func CleanLeftovers(tmpRoot string) (killed, removed int, err error) {
	if tmpRoot == "" {
		tmpRoot = os.TempDir()
	}
	ents, rerr := os.ReadDir(tmpRoot)
	if rerr != nil {
		return 0, 0, fmt.Errorf("cleaning the leftovers of earlier runs: %w", rerr)
	}
	var tokens [][]byte
	var stale []string
	done := map[int]uint64{} // the processes killed
	for _, e := range ents {
		if !e.IsDir() || !tempFolder.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(tmpRoot, e.Name())
		o, oerr := readOwner(dir)
		if oerr != nil {
			// No owner file (an older gdlperf's folder), or one being
			// written by a live process that has just made the folder: only
			// an old one is stale. Never remove a young folder whose owner
			// cannot be read: it may be another campaign's, being made.
			if info, ierr := e.Info(); ierr == nil && time.Since(info.ModTime()) > unownedAge {
				stale = append(stale, dir)
			}
			continue
		}
		if alive(o.pid, o.start) {
			continue
		}
		for _, p := range o.procs {
			if alive(int(p[0]), p[1]) && syscall.Kill(int(p[0]), syscall.SIGKILL) == nil {
				done[int(p[0])] = p[1]
			}
		}
		if o.token != "" {
			tokens = append(tokens, []byte(runTokenVar+"="+o.token))
		}
		stale = append(stale, dir)
	}
	if len(tokens) > 0 {
		killTokens(tokens, done)
	}
	killed = len(done)
	for _, dir := range stale {
		if rerr := os.RemoveAll(dir); rerr != nil {
			if err == nil {
				err = fmt.Errorf("removing the leftover folder %s: %w", dir, rerr)
			}
			continue
		}
		removed++
	}
	return killed, removed, err
}

// killTokens kills every process whose environment holds one of the run
// tokens, until none is left (a process may fork while it is killed), and
// adds them to done.
func killTokens(tokens [][]byte, done map[int]uint64) {
	s, err := newProcScanner()
	if err != nil {
		return
	}
	defer s.close()
	self := os.Getpid()
	var buf []byte
	for round := 0; round < 20; round++ {
		if s.scan() != nil {
			break
		}
		found := false
		for _, e := range s.entries {
			if e.pid == self || e.zombie {
				continue
			}
			if st, ok := done[e.pid]; ok && st == e.start {
				continue
			}
			for _, tok := range tokens {
				if s.hasEnv(e.pid, tok, &buf) {
					if syscall.Kill(e.pid, syscall.SIGKILL) == nil {
						done[e.pid] = e.start
						found = true
					}
					break
				}
			}
		}
		if !found {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
}
