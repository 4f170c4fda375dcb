package harness

// Following an engine run's processes through /proc.
//
// A run's processes are its root (the engine process the harness started)
// and every process descended from it, including those that left its
// process group or session (setsid) and those whose parent died: the
// harness is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so such
// orphans become children of the harness instead of init. An orphan is told
// apart from the harness's other children by the run's token, an
// environment variable (runTokenVar) that every process of the run inherits,
// or by having been seen in the run's tree before. The tracker scans /proc
// on every poll without allocating (one /proc fd, reused buffers), so the
// harness does not grow while its GC is paused for the run.

import (
	"bytes"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// runTokenVar is the environment variable that marks a run's processes.
const runTokenVar = "GDLPERF_RUN_ID"

const prSetChildSubreaper = 36

var subreaper struct {
	once sync.Once
	ok   bool
}

// becomeSubreaper makes this process the reaper of its orphaned
// descendants, once; it reports whether that worked (Linux 3.4 and later).
func becomeSubreaper() bool {
	subreaper.once.Do(func() {
		_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
		subreaper.ok = e == 0
	})
	return subreaper.ok
}

// procEntry is one process as /proc/<pid>/stat tells it.
type procEntry struct {
	pid, ppid int
	pgrp      int    // field 5: its process group
	cpu       uint64 // fields 14-17: user and system clock ticks, its own and its reaped children's
	start     uint64 // field 22: clock ticks after boot when it started
	zombie    bool
	member    bool // of the run being tracked
}

// procScanner lists the processes of the machine. After the first scan it
// allocates nothing: the directory is re-read through one file descriptor
// into reused buffers.
type procScanner struct {
	fd      int
	dirBuf  []byte
	buf     []byte
	path    []byte
	entries []procEntry
}

func newProcScanner() (*procScanner, error) {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &procScanner{fd: fd, dirBuf: make([]byte, 32<<10), buf: make([]byte, 4<<10), path: make([]byte, 0, 64), entries: make([]procEntry, 0, 512)}, nil
}

func (s *procScanner) close() {
	if s.fd >= 0 {
		syscall.Close(s.fd)
		s.fd = -1
	}
}

// scan fills s.entries with every process, sorted by pid.
func (s *procScanner) scan() error {
	s.entries = s.entries[:0]
	if _, err := syscall.Seek(s.fd, 0, 0); err != nil {
		return err
	}
	for {
		n, err := syscall.Getdents(s.fd, s.dirBuf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			break
		}
		for off := 0; off+19 < n; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			reclen := int(*(*uint16)(unsafe.Pointer(&s.dirBuf[off+16])))
			if reclen <= 0 {
				break
			}
			pid := 0
			for _, c := range s.dirBuf[off+19 : off+reclen] {
				if c == 0 {
					break
				}
				if c < '0' || c > '9' {
					pid = 0
					break
				}
				pid = pid*10 + int(c-'0')
			}
			off += reclen
			if pid <= 0 {
				continue
			}
			if e, ok := s.stat(pid); ok {
				s.entries = append(s.entries, e)
			}
		}
	}
	if !slices.IsSortedFunc(s.entries, byPid) {
		slices.SortFunc(s.entries, byPid)
	}
	return nil
}

func byPid(a, b procEntry) int { return a.pid - b.pid }

// find returns the index of pid in s.entries, or -1.
func (s *procScanner) find(pid int) int {
	lo, hi := 0, len(s.entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch p := s.entries[m].pid; {
		case p == pid:
			return m
		case p < pid:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// read reads /proc/<pid>/<name> into buf; it returns the bytes read.
func (s *procScanner) read(pid int, name string, buf []byte) (int, error) {
	p := strconv.AppendInt(s.path[:0], int64(pid), 10)
	p = append(p, '/')
	p = append(p, name...)
	p = append(p, 0)
	s.path = p
	r, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(s.fd), uintptr(unsafe.Pointer(&p[0])), syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	fd := int(r)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	syscall.Close(fd)
	return n, nil
}

// stat reads the parent, start time and state of pid.
func (s *procScanner) stat(pid int) (procEntry, bool) {
	n, err := s.read(pid, "stat", s.buf)
	if err != nil {
		return procEntry{}, false
	}
	return parseStat(pid, s.buf[:n])
}

// parseStat reads a /proc/<pid>/stat line: the fields after the
// parenthesised command are state (3), ppid (4), pgrp (5), ... utime,
// stime, cutime, cstime (14-17), ... starttime (22).
func parseStat(pid int, b []byte) (procEntry, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procEntry{}, false
	}
	e := procEntry{pid: pid}
	field := 3
	for j := i + 1; j < len(b) && field <= 22; {
		for j < len(b) && b[j] == ' ' {
			j++
		}
		k := j
		for k < len(b) && b[k] != ' ' && b[k] != '\n' {
			k++
		}
		if k == j {
			break
		}
		f := b[j:k]
		switch field {
		case 3:
			e.zombie = f[0] == 'Z' || f[0] == 'X'
		case 4:
			e.ppid = int(parseUint(f))
		case 5:
			e.pgrp = int(parseUint(f))
		case 14, 15, 16, 17:
			e.cpu += parseUint(f)
		case 22:
			e.start = parseUint(f)
			return e, true
		}
		field++
		j = k
	}
	return procEntry{}, false
}

func parseUint(b []byte) uint64 {
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

// memory reads the resident (VmRSS) and peak resident (VmHWM) KiB of pid;
// a zombie has neither.
func (s *procScanner) memory(pid int) (rss, hwm int64) {
	n, err := s.read(pid, "status", s.buf)
	if err != nil {
		return 0, 0
	}
	b := s.buf[:n]
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if v, ok := cutPrefix(line, "VmRSS:"); ok {
			rss = int64(parseUint(bytes.TrimLeft(v, " \t")))
		} else if v, ok := cutPrefix(line, "VmHWM:"); ok {
			hwm = int64(parseUint(bytes.TrimLeft(v, " \t")))
		}
	}
	return rss, hwm
}

func cutPrefix(b []byte, p string) ([]byte, bool) {
	if len(b) < len(p) || string(b[:len(p)]) != p {
		return nil, false
	}
	return b[len(p):], true
}

// hasEnv reports whether the environment of pid holds the entry kv
// ("NAME=value"); it reads at most 1 MiB of it.
func (s *procScanner) hasEnv(pid int, kv []byte, buf *[]byte) bool {
	if len(*buf) == 0 {
		*buf = make([]byte, 64<<10)
	}
	for {
		n, err := s.read(pid, "environ", *buf)
		if err != nil {
			return false
		}
		if n == len(*buf) && n < 1<<20 {
			*buf = make([]byte, 2*len(*buf))
			continue
		}
		env := (*buf)[:n]
		for len(env) > 0 {
			i := bytes.Index(env, kv)
			if i < 0 {
				return false
			}
			end := i + len(kv)
			if (i == 0 || env[i-1] == 0) && (end == len(env) || env[end] == 0) {
				return true
			}
			env = env[i+1:]
		}
		return false
	}
}

// procTracker follows the processes of one run and measures them.
type procTracker struct {
	s         *procScanner
	self      int
	root      int
	rootStart uint64 // 0: the root was gone before it was seen
	token     []byte // runTokenVar=token
	envBuf    []byte
	seen      map[int]uint64 // members ever seen: pid -> start
	foreign   map[int]uint64 // children of the harness that are not of this run
	record    func(pid int, start uint64)

	// Figures, in KiB: the peak over polls of the summed VmRSS of the
	// run's processes, the largest VmHWM of one of them, the largest
	// ru_maxrss of a process the tracker reaped.
	peakSum, peakOne, reapedMaxRSS int64
	resident                       int64 // summed VmRSS at the last poll, bytes
	reapedUser, reapedSys          time.Duration
	// cpu is the most CPU time the run's processes had used at a poll:
	// the live ones' (with the children they waited for) and the reaped
	// orphans'.
	cpu    time.Duration
	killed map[int]uint64 // processes the sweep killed
}

func newProcTracker(root int, token string, record func(pid int, start uint64)) (*procTracker, error) {
	s, err := newProcScanner()
	if err != nil {
		return nil, err
	}
	t := &procTracker{s: s, self: syscall.Getpid(), root: root, token: []byte(runTokenVar + "=" + token),
		seen: map[int]uint64{}, foreign: map[int]uint64{}, record: record}
	// The root is our child and not yet waited for, so its entry is there.
	if e, ok := s.stat(root); ok {
		t.rootStart = e.start
		t.seen[root] = e.start
		if record != nil {
			record(root, e.start)
		}
	}
	return t, nil
}

func (t *procTracker) close() { t.s.close() }

// mark scans /proc and marks the run's processes in t.s.entries.
func (t *procTracker) mark() {
	if t.s.scan() != nil {
		return
	}
	es := t.s.entries
	for i := range es {
		e := &es[i]
		if st, ok := t.seen[e.pid]; ok && st == e.start {
			e.member = true
		} else if e.ppid == t.self && !e.zombie {
			if st, ok := t.foreign[e.pid]; ok && st == e.start {
				continue
			}
			if t.s.hasEnv(e.pid, t.token, &t.envBuf) {
				e.member = true
			} else {
				t.foreign[e.pid] = e.start
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range es {
			if es[i].member {
				continue
			}
			if p := t.s.find(es[i].ppid); p >= 0 && es[p].member {
				es[i].member = true
				changed = true
			}
		}
	}
	for i := range es {
		e := &es[i]
		if st, ok := t.seen[e.pid]; e.member && (!ok || st != e.start) {
			t.seen[e.pid] = e.start
			if t.record != nil {
				t.record(e.pid, e.start)
			}
		}
	}
}

// refresh re-reads the processes of the run that the last mark found,
// dropping the others and those gone.
func (t *procTracker) refresh() {
	es := t.s.entries
	n := 0
	for _, e := range es {
		if !e.member {
			continue
		}
		if ne, ok := t.s.stat(e.pid); ok && ne.start == e.start {
			ne.member = true
			es[n] = ne
			n++
		}
	}
	t.s.entries = es[:n]
}

// poll measures the memory of the run's processes and reaps those of them
// that are zombies whose parent is the harness. With full, it scans /proc
// for the run's processes (a read of every process's stat: about 10 us a
// process); otherwise it measures those it found last time (two reads
// each).
func (t *procTracker) poll(full bool) {
	if full {
		t.mark()
	} else {
		t.refresh()
	}
	var sum int64
	var ticks uint64
	for i := range t.s.entries {
		e := &t.s.entries[i]
		if !e.member {
			continue
		}
		if e.zombie {
			t.reap(e)
			continue
		}
		ticks += e.cpu
		rss, hwm := t.s.memory(e.pid)
		sum += rss
		t.peakOne = max(t.peakOne, hwm)
	}
	t.peakSum = max(t.peakSum, sum)
	t.resident = sum << 10
	t.cpu = max(t.cpu, time.Duration(ticks)*time.Second/clockTicks+t.reapedUser+t.reapedSys)
}

// reap waits for a zombie of the run that is the harness's child (an
// orphan), but never for the root, which exec.Cmd waits for.
func (t *procTracker) reap(e *procEntry) {
	if e.ppid != t.self || (e.pid == t.root && e.start == t.rootStart) {
		return
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	if pid, err := syscall.Wait4(e.pid, &ws, syscall.WNOHANG, &ru); err == nil && pid == e.pid {
		t.reapedUser += time.Duration(ru.Utime.Nano())
		t.reapedSys += time.Duration(ru.Stime.Nano())
		t.reapedMaxRSS = max(t.reapedMaxRSS, ru.Maxrss)
	}
}

// signal sends sig to every live process of the run.
func (t *procTracker) signal(sig syscall.Signal) {
	t.mark()
	for _, e := range t.s.entries {
		if e.member && !e.zombie {
			syscall.Kill(e.pid, sig)
		}
	}
}

// sweep kills and reaps every process of the run that is left, after the
// root was waited for, trying until none is left or the time is up. It
// returns how many processes it had to kill.
func (t *procTracker) sweep(limit time.Duration) int {
	deadline := time.Now().Add(limit)
	for {
		t.mark()
		left := false
		for i := range t.s.entries {
			e := &t.s.entries[i]
			if !e.member || (e.pid == t.root && e.start == t.rootStart) {
				continue
			}
			left = true
			if e.zombie {
				t.reap(e)
				continue
			}
			syscall.Kill(e.pid, syscall.SIGKILL)
			if t.killed == nil {
				t.killed = map[int]uint64{}
			}
			t.killed[e.pid] = e.start
		}
		if !left || time.Now().After(deadline) {
			return len(t.killed)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// clockTicks is the unit of /proc's CPU times (USER_HZ, 100 on every Linux
// architecture Go supports).
const clockTicks = 100

// groupCPU is the CPU time of the processes of process group pgid: user
// and system time of each, with that of the children each has reaped. A
// process that left the group (setsid) is not counted.
func (s *procScanner) groupCPU(pgid int) (time.Duration, error) {
	if err := s.scan(); err != nil {
		return 0, err
	}
	var ticks uint64
	for _, e := range s.entries {
		if e.pgrp == pgid {
			ticks += e.cpu
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
