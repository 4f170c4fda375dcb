package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// AllowedCPUs are the CPUs the harness may run on (its affinity mask), in
// order.
func AllowedCPUs() ([]int, error) {
	m, err := getAffinity()
	if err != nil {
		return nil, fmt.Errorf("reading the CPUs this process may use: %w", err)
	}
	var out []int
	for i := range len(m) * 64 {
		if m[i/64]&(1<<(i%64)) != 0 {
			out = append(out, i)
		}
	}
	return out, nil
}

// OnePerCore keeps, of cpus, one logical CPU per physical core: the first
// of each core's SMT siblings (/sys/devices/system/cpu/cpuN/topology/
// thread_siblings_list), so that two jobs never share a core's execution
// units. A CPU whose topology cannot be read counts as a core of its own.
func OnePerCore(cpus []int) []int {
	return onePerCore(cpus, "/sys/devices/system/cpu")
}

func onePerCore(cpus []int, sys string) []int {
	seen := map[string]bool{}
	var out []int
	for _, c := range cpus {
		b, err := os.ReadFile(filepath.Join(sys, "cpu"+strconv.Itoa(c), "topology", "thread_siblings_list"))
		core := strings.TrimSpace(string(b))
		if err != nil || core == "" {
			core = "cpu" + strconv.Itoa(c)
		}
		if !seen[core] {
			seen[core] = true
			out = append(out, c)
		}
	}
	return out
}

// ParseCPUList reads a CPU list as Linux writes it: "0-3,8,10-11".
func ParseCPUList(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b >= 1024 {
			return nil, fmt.Errorf("CPU list %q: %q is not a CPU number or a range a-b", s, part)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("CPU list %q names no CPU", s)
	}
	sort.Ints(out)
	return out, nil
}

// JobCPUs chooses the CPUs of jobs engine processes: from list (--cpus;
// nil = the CPUs the harness may use, one per physical core), the first
// jobs of them; jobs 0 = one per CPU of the list. Asking for more jobs than
// CPUs, or for a CPU the harness may not use, is an error.
func JobCPUs(jobs int, list []int) ([]int, error) {
	allowed, err := AllowedCPUs()
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = OnePerCore(allowed)
	} else {
		ok := map[int]bool{}
		for _, c := range allowed {
			ok[c] = true
		}
		for _, c := range list {
			if !ok[c] {
				return nil, fmt.Errorf("CPU %d is not one this process may use (it may use %s)", c, FormatCPUList(allowed))
			}
		}
	}
	if jobs < 0 {
		return nil, fmt.Errorf("--jobs %d: give a number of jobs, or 0 for one per core", jobs)
	}
	if jobs == 0 {
		jobs = len(list)
	}
	if jobs > len(list) {
		return nil, fmt.Errorf("--jobs %d needs %d CPUs, but there are %d to pin them to (%s); every job needs a CPU of its own", jobs, jobs, len(list), FormatCPUList(list))
	}
	return list[:jobs], nil
}

// FormatCPUList writes cpus as "0-3,8".
func FormatCPUList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// PinSelf moves the harness's own threads off the jobs' CPUs when other
// CPUs it may use are left, so that it does not take time from an engine.
// It reports whether it did.
func PinSelf(jobCPUs []int) bool {
	allowed, err := AllowedCPUs()
	if err != nil {
		return false
	}
	busy := map[int]bool{}
	for _, c := range jobCPUs {
		busy[c] = true
	}
	var m cpuMask
	free := 0
	for _, c := range allowed {
		if !busy[c] {
			m[c/64] |= 1 << (c % 64)
			free++
		}
	}
	if free == 0 {
		return false
	}
	// Every thread of the process: the mask of a new thread is its
	// creator's, and Go starts threads from threads it has.
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			setThreadAffinity(tid, m)
		}
	}
	return true
}

// setThreadAffinity sets the CPU mask of the thread tid.
func setThreadAffinity(tid int, m cpuMask) error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if errno != 0 {
		return errno
	}
	return nil
}
